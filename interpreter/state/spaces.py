"""Integer action ids: a fixed, documented action space per rule file.

Game-AI tools (OpenSpiel, PettingZoo, a policy network's output layer) need every
action as an integer in ``0 .. num_distinct_actions - 1``, the same integer for the
same move in every state. The space is derived from the rule file alone, block by
block, in this order (a block is left out when the rule file cannot use it):

=============  =====================================================================
block          ids
=============  =====================================================================
``card``       one per card of the deck, in deck order (suit by suit, ranks high to
               low): ``play C``; in one-card mode also ``VERB C``, one card of the
               pending selection (``discard 7H``)
``word``       the named choices (``stand``, ``propose``...) in order of first
               appearance (and ``continue`` where a declaration window follows a
               lead), then ``pass`` when the rule file has an auction (or a bid
               ``, or passes``), then ``double``, ``redouble`` and ``hold`` when
               an auction's rules allow them
``name``       ``name SUIT``, one per suit, when a player may name trumps or the suit led
``bid``        ``bid B`` for every bid of the bid table in rank order (design
               3.7), then for every B from the lowest to the highest number bid
               the rule file allows (bounds that are not constants: 0 and the
               deck size)
``declare``    ``declare NAME``, one per declaration name
``irregular``  ``irregular NAME SEAT [ARG...]``, one per irregularity, seat and
               arguments (each count of its range, each card of the deck, each suit;
               legal only in table mode)
``done``       one-card mode: end the pending selection here
``cards``      default mode: a whole selection of several cards (or none) is
               ``start + sum(2**c)`` over its cards c: one id per subset of the deck;
               with ``copies N``, ``start + sum(k * (N+1)**f)`` over its faces f chosen
               k times (the same ids when N is 1): one id per multiset of faces
``referee``    table mode only: ``continue`` at the referee's pauses (see
               docs/python-api.md, table mode), when an irregularity names a pause and
               ``continue`` is not already in the ``word`` block
=============  =====================================================================

The ``referee`` block comes last so that every id of a strict-mode game means the same
in table mode; a strict-mode space never has it.

A card id therefore means "that card, for whatever the state asks": to play it,
or (one-card mode) to add it to the discard or to what is taken. Default-mode
selections make the space astronomically large (``2**deck`` ids); the adapters use
one-card mode, whose space is small (Écarté: 32 cards + 5 words + 1 done, plus
irregularities).

>>> import tricklang, interpreter
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = interpreter.new_game(rules, seed=42, selections="one_card")
>>> state.legal_action_ids(), [str(state.action_from_id(i)) for i in state.legal_action_ids()]
([32, 33], ['stand', 'propose'])
>>> state.apply_id(33)
>>> state.action_id("accept")
35
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from typing import TYPE_CHECKING, Any

from tricklang import model as m
from tricklang.walk import Value, fold_int, statements_of

from ..errors import IllegalActionError, InvalidActionError
from .actions import Action

if TYPE_CHECKING:
    from tricklang import Ruleset

    from .compiled import Compiled as Game
    from .protocol import StateLike as State

MOMENTS = ("deal", "end_of_play")

SELECTIONS = ("all", "one_card")
"""The selection modes: 'all' (a multi-card selection is one action) and 'one_card'."""


@dataclass(frozen=True)
class Block:
    """A run of consecutive ids: ``start .. start + size - 1``."""

    name: str
    start: int
    size: int


class ActionSpace:
    """The action space of one rule file (with its option values) in one selection mode.

    Build it with :func:`action_space`. ``blocks`` lists the layout (see the module
    docstring); ``size`` is ``num_distinct_actions``.
    """

    def __init__(self, ruleset: Ruleset, program: Game, selections: str, table: bool = False) -> None:
        rules = ruleset.rules
        stmts = list(statements_of(rules))
        tables = program.tables
        self.selections = selections
        self.codes: list[str] = list(tables.face_codes)  # one card id per face (copies are equal cards)
        self._copies = tables.copies
        self.select_verbs: frozenset[str] = frozenset(
            ["discard" for st in stmts if isinstance(st, (m.Discard, m.Keep))]
            + [st.verb for st in stmts if isinstance(st, (m.Take, m.Keep))]
            + ["show" for st in stmts if isinstance(st, m.Shows)])
        words: list[str] = []
        for st in stmts:
            if isinstance(st, m.Choose):
                words.extend(o.name for o in st.options)
            elif isinstance(st, m.Tricks) and any(d.deadline == "after_leading_it" for d in st.declarations):
                words.append("continue")  # the window after a lead: `declare NAME` or `continue`
        if any(isinstance(st, (m.Auction, m.TableAuction)) or isinstance(st, (m.Bid, m.TableBid)) and st.or_pass
               for st in stmts):
            words.append("pass")
        calls = {r.kind for st in stmts if isinstance(st, (m.Auction, m.TableAuction)) for r in st.rules}
        words += (["double", "redouble"] if "double" in calls else []) + (["hold"] if "hold" in calls else [])
        self.words: list[str] = list(dict.fromkeys(words))
        self.suits: list[str] = list(tables.suit_names) if any(isinstance(st, (m.NameTrump, m.NameLed)) for st in stmts) else []
        self.bid_low, self.bid_high = _bid_bounds(stmts, dict(ruleset.options), tables.size)
        self.table_bids: list[str] = [a.args[0] for a in program.table_bid_actions]
        """The bids of the file's bid table, first in the ``bid`` block (in rank order)."""
        self.declarations: list[str] = list(dict.fromkeys(
            d.name for st in stmts if isinstance(st, m.Tricks) for d in st.declarations))
        self.irregular: list[tuple[str, ...]] = [
            (irr.name, str(p), *args) for irr in rules.irregularities for p in range(program.n)
            for args in product(*(_parameter_words(q, self.codes, tables.suit_names) for q in irr.params))]
        self.table = table
        paused = table and any(ph in MOMENTS for irr in rules.irregularities for ph in irr.phases)
        self.referee: list[str] = ["continue"] if paused and "continue" not in self.words else []
        self.blocks: list[Block] = []
        start = 0
        has_select = bool(self.select_verbs)
        for name, size in (("card", len(self.codes)), ("word", len(self.words)), ("name", len(self.suits)),
                           ("bid", len(self.table_bids) + (self.bid_high - self.bid_low + 1
                                                           if self.bid_high >= self.bid_low else 0)),
                           ("declare", len(self.declarations)), ("irregular", len(self.irregular)),
                           ("done", 1 if has_select and selections == "one_card" else 0),
                           ("cards", (self._copies + 1) ** len(self.codes) if has_select and selections == "all" else 0),
                           ("referee", len(self.referee))):
            self.blocks.append(Block(name, start, size))
            start += size
        self.size = start
        self._start = {b.name: b.start for b in self.blocks}
        self._word_ids = {w: self._start["word"] + i for i, w in enumerate(self.words)}
        self._word_ids.update({w: self._start["referee"] + i for i, w in enumerate(self.referee)})
        self._suit_ids = {s: self._start["name"] + i for i, s in enumerate(self.suits)}
        self._decl_ids = {d: self._start["declare"] + i for i, d in enumerate(self.declarations)}
        self._irr_ids = {words: self._start["irregular"] + i for i, words in enumerate(self.irregular)}
        self._card_index = dict(tables.index)
        self._table_bid_ids = {b.upper(): self._start["bid"] + k for k, b in enumerate(self.table_bids)}

    @property
    def num_distinct_actions(self) -> int:
        return self.size

    def __repr__(self) -> str:
        parts = ", ".join(f"{b.name} {b.start}..{b.start + b.size - 1}" for b in self.blocks if b.size)
        return f"<ActionSpace {self.selections}{' table' if self.table else ''} size={self.size}: {parts}>"

    def block_of(self, i: int) -> Block:
        """The block holding id ``i``.

        Raises:
            InvalidActionError: ``i`` is not an integer in ``0 .. size - 1``.
        """
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.size:
            raise InvalidActionError(f"action id {i!r} is out of range: this game's ids are 0..{self.size - 1}")
        for b in self.blocks:
            if b.start <= i < b.start + b.size:
                return b
        raise AssertionError("unreachable: the blocks cover the space")  # pragma: no cover

    def id_of(self, action: Action) -> int:
        """The id of an action (its verb and arguments; the state does not matter).

        Raises:
            InvalidActionError: the action has no id in this space (e.g. a whole
                multi-card selection in one-card mode).
        """
        verb, args = action.verb, action.args
        try:
            if verb == "play" and len(args) == 1:
                return (action.card if action.card >= 0 else self._card_index[args[0]]) // self._copies
            if verb in self.select_verbs and args:
                cards = [] if args == ("none",) else [self._card_index[a] // self._copies for a in args]
                if self.selections == "one_card":
                    if len(cards) == 1:
                        return cards[0]
                elif self._copies == 1:
                    return self._start["cards"] + sum(1 << c for c in cards)
                else:  # a face's digit counts its cards chosen (base copies + 1)
                    base = self._copies + 1
                    if all(cards.count(f) <= self._copies for f in cards):
                        return self._start["cards"] + sum(int(base ** f) for f in cards)
            elif not args:
                if verb == "done" and self.selections == "one_card" and self.select_verbs:
                    return self._start["done"]
                return self._word_ids[verb]
            elif verb == "name" and len(args) == 1:
                return self._suit_ids[args[0]]
            elif verb == "bid" and len(args) == 1:
                if args[0].upper() in self._table_bid_ids:
                    return self._table_bid_ids[args[0].upper()]
                b = int(args[0])
                if self.bid_low <= b <= self.bid_high:
                    return self._start["bid"] + len(self.table_bids) + b - self.bid_low
            elif verb == "declare" and len(args) == 1:
                return self._decl_ids[args[0]]
            elif verb == "irregular":
                return self._irr_ids[tuple(args)]
        except (KeyError, ValueError):
            pass
        raise InvalidActionError(f"action '{action.text}' has no id in this game's action space ({self.selections} selections)")

    def action_of(self, i: int, card_verb: str = "play") -> Action:
        """The action with id ``i``; a card id becomes ``card_verb C``.

        Raises:
            InvalidActionError: ``i`` is out of range.
        """
        b = self.block_of(i)
        k = i - b.start
        if b.name == "card":
            return Action(card_verb, (self.codes[k],), k * self._copies)
        if b.name == "word":
            return Action(self.words[k])
        if b.name == "name":
            return Action("name", (self.suits[k],))
        if b.name == "bid":
            if k < len(self.table_bids):
                return Action("bid", (self.table_bids[k],))
            return Action("bid", (str(self.bid_low + k - len(self.table_bids)),))
        if b.name == "declare":
            return Action("declare", (self.declarations[k],))
        if b.name == "irregular":
            return Action("irregular", self.irregular[k])
        if b.name == "done":
            return Action("done")
        if b.name == "referee":
            return Action(self.referee[k])
        base = self._copies + 1
        cards = [c for c in range(len(self.codes)) for _ in range(k // base ** c % base)]
        return Action(card_verb if card_verb != "play" else "select",
                      tuple(self.codes[c] for c in cards) if cards else ("none",))


def _parameter_words(p: m.IrregularityParam, codes: list[str], suits: list[str]) -> list[str]:
    """Every value an irregularity's parameter may take, as written in an action."""
    if p.kind == "count":
        return [str(v) for v in range(p.low, p.high + 1)]
    return list(suits) if p.kind == "suit" else list(codes)


def _bid_bounds(stmts: Sequence[m.Statement], options: dict[str, Value], deck: int) -> tuple[int, int]:
    lows: list[int] = []
    highs: list[int] = []
    for st in stmts:
        if isinstance(st, (m.Bid, m.Auction)):
            lo, hi = fold_int(st.low, options), fold_int(st.high, options)
            lows.append(lo if lo is not None else 0)
            highs.append(hi if hi is not None else deck)
    if not highs:
        return 0, -1
    return min(lows), max(highs)


_SPACES: weakref.WeakKeyDictionary[Game, dict[str, ActionSpace]] = weakref.WeakKeyDictionary()
"""Each game's action spaces by mode (and, under "codes", its :class:`CodeIds`)."""


def action_space(state: State, selections: str | None = None) -> ActionSpace:
    """The action space of a state's rule file (cached per compiled rule file and modes):
    its selection mode (``selections``, by default the state's own) and whether the state
    is in table mode (which may add the ``referee`` block).

    Raises:
        RecordError: ``selections`` is not 'all' or 'one_card'.
    """
    mode = selections if selections is not None else state.selections
    if mode not in SELECTIONS:
        from ..errors import RecordError

        raise RecordError(f"selections must be 'all' or 'one_card', not {mode!r}")
    per_mode = _SPACES.setdefault(state._g, {})
    table = state._c.table
    key = mode + " table" if table else mode
    space = per_mode.get(key)
    if space is None:
        space = per_mode[key] = ActionSpace(state.ruleset, state._g, mode, table)
    return space


# ---------------------------------------------------------------- per state


def _pending_verb(state: State) -> str:
    """The verb a card id stands for now: 'play', or the pending selection's verb."""
    decision = state.decision
    return decision.phase if decision is not None and decision.kind == "select" else "play"


def legal_ids(state: State) -> list[tuple[int, Action]]:
    """(id, action) for each legal action, by increasing id; none at a chance node (chance
    acts there: see ``chance_outcomes``) or when the match is over.

    Raises:
        GameLimitError: a legal bid lies outside the space (its bounds were not constants).
    """
    return list(_ids_now(state)[0])


def _ids_now(state: State) -> tuple[tuple[tuple[int, Action], ...], dict[int, Action]]:
    """The legal (id, action) pairs by increasing id, and by id; worked out once per
    decision (kept on the state with the legal actions they were computed from).

    Raises:
        GameLimitError: as :func:`legal_ids`.
    """
    if state.is_chance_node():  # no seat decides: the outcomes are chance_outcomes(), not action ids
        return (), {}
    legal = state.legal_actions()
    space = action_space(state)
    cached = state._ids
    if cached is not None and cached[0] is legal and cached[1] is space:
        return cached[2], cached[3]
    pairs = _pairs(space, legal)
    by_id = dict(pairs)
    state._ids = (legal, space, pairs, by_id)
    return pairs, by_id


def _pairs(space: ActionSpace, legal: Sequence[Action]) -> tuple[tuple[int, Action], ...]:
    out = []
    for a in legal:
        try:
            out.append((space.id_of(a), a))
        except InvalidActionError as err:
            from ..errors import GameLimitError

            raise GameLimitError(f"legal action '{a.text}' lies outside the action space: {err}") from None
    out.sort(key=lambda pair: pair[0])
    return tuple(out)


def action_from_id(state: State, i: int) -> Action:
    """The action id ``i`` stands for in this state (the legal action itself when legal).

    Raises:
        InvalidActionError: ``i`` is out of range.
    """
    space = action_space(state)
    space.block_of(i)
    if not state.is_chance_node():
        found = _ids_now(state)[1].get(i)
        if found is not None:
            return found
    return space.action_of(i, _pending_verb(state))


def apply_id(state: State, i: int) -> None:
    """Apply the legal action with id ``i``.

    Raises:
        InvalidActionError: ``i`` is not an id of this game's space.
        IllegalActionError: ``i`` is not legal now, or the state is a chance node;
            the state is unchanged.
    """
    space = action_space(state)
    space.block_of(i)
    if state.is_chance_node():
        raise IllegalActionError(f"id {i}", "this is a chance node: apply a chance outcome (apply_chance_outcome)")
    found = _ids_now(state)[1].get(i)
    if found is not None:
        state.apply(found)
        return
    action = space.action_of(i, _pending_verb(state))
    reason = state.why_illegal(action) if not state.is_terminal() else "the match is over"
    raise IllegalActionError(f"id {i} ({action.text})", reason or "not legal now")


class CodeIds:
    """The ids of the actions of each decision point by local code, for a plain state
    (all-card selections, strict mode): what makes ``legal_action_ids`` and ``apply_id``
    cheap where codes are few and fixed (a card play, a choice, naming trumps, a bid)."""

    __slots__ = ("space", "by_dp", "codes_by_dp", "bids", "tables", "selects", "bid_start", "table_start", "call_ids",
                 "cards_start", "done_id", "native_select", "native_ids")

    def __init__(self, space: ActionSpace, game: Game) -> None:
        self.space = space
        self.by_dp: list[tuple[int, ...] | None] = []
        for dp in game.dps:
            acts = game.dp_actions[dp.id]
            plain = acts is not None and dp.kind != "pause" and not (dp.kind == "play" and game.tables.copies > 1)
            self.by_dp.append(tuple(self._id(a) for a in acts) if plain and acts is not None else None)  # (copies: a face's id, the general path)
        self.codes_by_dp: list[dict[int, int] | None] = [
            {i: k for k, i in enumerate(ids) if i >= 0} if ids is not None else None for ids in self.by_dp]
        self.bids = [dp.kind in ("bid", "auction") for dp in game.dps]
        self.selects = [dp.kind == "select" and space.selections == "all" and bool(space.select_verbs)
                        and game.copies == 1 for dp in game.dps]  # (copies: a multiset's id, the general path)
        start = {b.name: b.start for b in space.blocks}
        self.tables = [bool(dp.extra.get("table")) for dp in game.dps]
        self.table_start = start["bid"]
        self.bid_start = start["bid"] + len(space.table_bids) - space.bid_low
        self.call_ids = {-1 - k: space._word_ids.get(w, -1) for k, w in enumerate(("pass", "double", "redouble", "hold"))}
        """The ids of an auction's word calls by local code (-1 pass, -2 double, -3 redouble, -4 hold)."""
        self.cards_start = start["cards"]
        self.done_id = start["done"]  # (one-card mode's `done`: its block starts where the all-cards space's empty one does)
        native = bool(game.m["is_native"]())
        self.native_select: Any = game.m["select_ids"] if native else None
        """A native module's ``select_ids(core, start)`` (the ids of a pending selection's
        choices), or None: in CPython the state's own listing is quicker."""
        self.native_ids: Any = game.m["code_ids"] if native else None
        """A native module's ``code_ids(codes, by_code)`` (:meth:`ids` of a decision point
        whose codes are few and fixed), or None: in CPython a comprehension is quicker."""

    def _id(self, action: Action) -> int:
        try:
            return self.space.id_of(action)
        except InvalidActionError:  # (never legal here, e.g. `continue` without a window: the general path)
            return -1

    def ids(self, dp: int, codes: list[int]) -> list[int] | None:
        """The ids of codes ``codes`` at decision point ``dp`` (None: one has none; then the
        general path answers)."""
        by_code = self.by_dp[dp]
        if by_code is not None:
            out = [by_code[k] for k in codes]
        elif self.tables[dp]:
            out = [self.call_ids[k] if k < 0 else self.table_start + k for k in codes]
        elif self.bids[dp]:
            low, high = self.space.bid_low, self.space.bid_high
            out = [self.call_ids[k] if k < 0 else self.bid_start + k if low <= k <= high else -1 for k in codes]
        else:
            return None
        return None if -1 in out else out

    def code(self, dp: int, i: int) -> int | None:
        """The code id ``i`` stands for at decision point ``dp`` (None: none, or not known here)."""
        by_id = self.codes_by_dp[dp]
        if by_id is not None:
            return by_id.get(i)
        if self.bids[dp]:
            for k, call in self.call_ids.items():
                if i == call and call >= 0:
                    return k
            if self.tables[dp]:
                b = i - self.table_start
                return b if 0 <= b < len(self.space.table_bids) else None
            b = i - self.bid_start
            return b if self.space.bid_low <= b <= self.space.bid_high else None
        return None


def code_ids(state: State) -> CodeIds:
    """The :class:`CodeIds` of a plain state's game (made once, kept on the game)."""
    game = state._g
    found: CodeIds | None = game.code_ids
    if found is None:  # (the ids of the all-cards space: the same as one-card mode's but for selections)
        found = game.code_ids = CodeIds(action_space(state, "all"), game)
    return found


def iter_blocks(space: ActionSpace) -> Iterator[Block]:
    """The non-empty blocks, in id order."""
    return (b for b in space.blocks if b.size)
