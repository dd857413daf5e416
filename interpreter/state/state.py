"""The public game state: turns, legal actions, apply, copies; :func:`new_game`.

A :class:`State` is a function of (ruleset, options, seed or deck, first dealer, actions):
everything else is derived. It holds its :class:`Game` (the compiled rules, shared), the
match's core (owned by the generated module) and the log of the actions taken, one integer
each. What is read rarely (events, action texts, who took each) is rebuilt from that log on
demand (:class:`~interpreter.state.replay.Recorder`): a rollout pays only for its play.
"""

from __future__ import annotations

import random
import secrets
import warnings
from collections.abc import Collection, Mapping, Sequence
from typing import Any, ClassVar, Self, cast

from tricklang import Ruleset

from ..codegen.module import MAX_CHOICES as _MAX_CHOICES
from ..errors import GameLimitError, IllegalActionError
from ..runtime.faults import Fault
from .actions import Action
from .batch import RandomMatches, random_matches
from .compiled import Compiled
from .deals import MAX_SEED, Deals, check_modes, checked_seed, later_decks, later_seeds, prearranged
from .embedding import Embedding
from .events import recorded_kinds
from .face_selection import FaceSelection
from .facts import GameFacts
from .failures import worded
from .legal import LegalActions, PlayedCards, Selection, SelectionActions, chosen_action, draw_chosen
from .modes import Modes
from .playouts import Playouts
from .refusals import Refusals
from .replay import Log, Recorder
from .saved import Saved, state_from_json
from .snapshot import Outcome as Outcome
from .snapshot import Snapshot as Snapshot
from .views import Views

MAX_CHOICES = _MAX_CHOICES
"""The most card selections one decision may offer (the generated playout's bound too)."""

_NO_ACTIONS = LegalActions()
_DEFAULTS = ("strict", "all", "automatic")
"""new_game's default mode, selections and chance."""
_new_listed = object.__new__
"""Makes a :class:`PlayedCards` without a call of its ``__init__`` (the legal loop's listing)."""


class Game(GameFacts, Compiled):
    """A rule file compiled with its option values: the static facts of the game (seats,
    sides, cards, actions: :class:`~interpreter.state.compiled.Compiled`), and the maker
    of its states. Get one with :meth:`Game.of` (made once per ruleset, then shared).

    >>> import tricklang
    >>> game = Game.of(tricklang.load("ecarte"))
    >>> game.player_count, game.cards[:3]
    (2, ['KS', 'QS', 'JS'])
    >>> game.new_initial_state(seed=42).current_player
    1
    """

    def new_initial_state(self, *, seed: int | None = None, deck: Sequence[str] | None = None,
                          dealer: int | None = None, mode: str = "strict", selections: str = "all",
                          chance: str = "automatic", decks: Mapping[int, Sequence[str]] | None = None,
                          reseeds: Mapping[int, int] | None = None,
                          record_events: bool | Collection[str] = False) -> State:
        """A new match of this game (:func:`new_game` with these arguments; see there what is raised)."""
        return start(self, seed=seed, deck=deck, dealer=dealer, mode=mode, selections=selections, chance=chance,
                     decks=decks, reseeds=reseeds, record_events=record_events)

    def random_matches(self, count: int, *, seed: int = 0, rng: random.Random | None = None,
                       first_deal: bool = False) -> RandomMatches:
        """Play ``count`` matches from seeds ``seed``, ``seed + 1``... to their end (with
        ``first_deal``: to the end of their first deal) by uniformly random legal actions
        drawn with ``rng``, inside the generated module, logging nothing: the fastest way
        to play many (statistics, rollouts), natively above all. Each match is the one
        ``new_game(rules, seed=s).playout(rng)`` plays (with ``deal=True``), the same draws.

        >>> import tricklang
        >>> result = Game.of(tricklang.load("ecarte")).random_matches(3, seed=7, rng=random.Random(1))
        >>> len(result.scores), result.actions > 0
        (3, True)

        Raises:
            ArgumentError: ``count`` is not an integer from 0 to 10**9, or ``seed`` not an
                integer of at most 18 digits (so that every seed of the run is one).
            GameLimitError, RuleRuntimeError: a match ran over a limit or its rules
                failed (the error names its seed; the matches before it are lost).
        """
        return random_matches(self, count, seed, rng, first_deal)


class State(Views, Refusals, Embedding, Deals, Saved, Playouts, Log):
    """A game in progress. Build one with :func:`new_game` (or :meth:`Game.new_initial_state`).

    Its methods are grouped by job: turns, legal actions, apply and copies here; the
    public views in :class:`~interpreter.state.views.Views`, why an action is refused in
    :class:`~interpreter.state.refusals.Refusals`, the embedding interface (modes, action
    ids, tensors) in :class:`~interpreter.state.embedding.Embedding`, later deals and hidden
    cards in :class:`~interpreter.state.deals.Deals`, JSON in :class:`~interpreter.state.saved.Saved`.
    """

    __slots__ = ("_g", "_c", "_keys", "_pend", "_irr", "_legal", "_drawn", "_rec", "_ids", "_codes")

    _g: Compiled
    _c: Any  # the generated module's Core
    _irr: list[tuple[int, int, tuple[int, ...]]]  # the irregular actions taken: (irregularity, seat, arguments)
    _legal: LegalActions | None
    _drawn: tuple[Action, int, int | list[int]] | None  # sample_action's last draw, its decision point and
    # code (a selection's: its cards in listed order), while nothing changed; -1, -1 for a draw from legal_actions
    _codes: tuple[int, list[int]] | None  # legal_action_ids' decision point and legal codes, while nothing changed
    _rec: Recorder | None
    _ids: tuple[Any, Any, tuple[tuple[int, Action], ...], dict[int, Action]] | None  # see embedding.spaces

    # ------------------------------------------------------------ basics
    @property
    def game(self) -> Game:
        """The compiled rules (static facts) this state is a match of: its :class:`Game`."""
        return cast(Game, self._g)

    @property
    def ruleset(self) -> Ruleset:
        return self._g.ruleset

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the match is over."""
        c = self._c
        return None if c.terminal else c.actor

    @property
    def scores(self) -> list[int]:
        """Match score per side (per seat when there are no partnerships)."""
        scores: list[int] = self._g.m["scores"](self._c)
        return scores

    @property
    def sides(self) -> list[list[int]]:
        """The seats of each side; without partnerships each seat is its own side."""
        return self._g.sides

    @property
    def dealer(self) -> int:
        dealer: int = self._c.dealer
        return dealer

    @property
    def leader(self) -> int | None:
        """The seat that led, or is to lead, the trick in progress (None outside trick play)."""
        c = self._c
        return c.tr_leader if c.tr_active else None

    @property
    def first_dealer(self) -> int:
        """The seat that dealt the match's first deal."""
        dealer: int = self._c.first_dealer
        return dealer

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the match."""
        deal: int = self._c.deal_no  # (an int in both kinds of module: no conversion)
        return deal + 1

    @property
    def trump(self) -> str | None:
        """The trump suit's name, or None when there is no trump (yet); under a named order whose
        trumps are a group of their own (Skat's grand), the order's name."""
        return self._g.tables.suit_label(self._c.trump)

    @property
    def seed(self) -> int:
        seed: int = self._c.seed
        return seed

    @property
    def phase(self) -> str:
        """What is being decided now: 'choice', 'discard', 'auction', 'play', ... or 'over'."""
        c = self._c
        if c.terminal:
            return "over"
        phase: str = self._g.dps[c.dp].phase
        return phase

    def is_terminal(self) -> bool:
        over: bool = self._c.terminal  # (a bool in both kinds of module: no conversion)
        return over

    def outcome(self) -> Outcome | None:
        """The result once the match is over, else None."""
        c = self._c
        if not c.terminal:
            return None
        w = c.winner
        scores = tuple(self.scores)
        if w < 0:
            deals = c.deal_no + (1 if c.last_deal else 0)
            return Outcome(None, (), scores, deals)
        return Outcome(w, tuple(self._g.layout.sides[w]), scores, c.deal_no + 1)

    @property
    def mode(self) -> str:
        """'strict' (only regular actions) or 'table' (the rule file's irregularities too)."""
        return "table" if self._c.table else "strict"

    # ------------------------------------------------------------ legal actions
    def legal_actions(self) -> LegalActions:
        """The legal actions, in a fixed order (empty when the match is over).

        An immutable sequence; card selections are not built until asked for.

        Raises:
            GameLimitError, RuleRuntimeError: the rules fail while listing them (too
                many ways to choose cards, no bid left to make).
        """
        legal = self._legal
        if legal is not None:
            return legal
        c = self._c
        if c.terminal:
            legal = _NO_ACTIONS
        else:
            g = self._g
            dp = c.dp
            try:
                if g.dps[dp].kind == "select":
                    legal = SelectionActions((), self._selection())
                elif g.keyed[dp]:  # actions by code, each giving back its code: apply finds it by the codes
                    codes = g.legal_fns[dp](c)
                    legal = _new_listed(PlayedCards)
                    legal._cards = codes
                    legal._acts = g.listed_acts[dp]
                    if self._PLAIN and not c.table:
                        self._codes = (dp, codes)
                else:
                    action = g.action
                    legal = LegalActions(tuple([action(dp, k) for k in g.legal_fns[dp](c)]))
            except Fault as fault:
                raise self._error(fault) from None
            if c.table:
                legal = legal.plus(self._irregular_actions())
        self._legal = legal
        return legal

    def _selection(self) -> Selection:
        g, c = self._g, self._c
        dp = g.dps[c.dp]
        kind = Selection if g.copies == 1 else FaceSelection  # (copies: a choice of faces, each offered once)
        sel = kind(dp.verb, tuple(g.m["in_order"](c, c.sel_cards)), c.sel_lo, c.sel_hi, g.tables.codes)
        if sel.total > MAX_CHOICES:
            raise GameLimitError(f"line {dp.line}: more than {MAX_CHOICES} ways to choose cards")
        return sel

    def sample_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly at random with ``rng``, without listing the others.

        Draws exactly as ``legal[rng.randrange(len(legal))]`` does.

        Raises:
            IllegalActionError: the match is over.
        """
        c = self._c
        if c.terminal:
            raise IllegalActionError("(any action)", "the match is over")
        if self._legal is None and not c.table and self._PLAIN and self._g.copies == 1:
            g = self._g
            dp = c.dp
            sample = g.sample_fns[dp]
            try:
                if sample is not None:
                    code = sample(c, rng)
                    acts = g.listed_acts[dp]
                    action = acts[code] if acts is not None else g.action(dp, code)
                    self._drawn = (action, dp, code)
                    return action
                dpi = g.dps[dp]
                cards = g.m["in_order"](c, c.sel_cards)
                chosen = draw_chosen(rng, cards, c.sel_lo, c.sel_hi, MAX_CHOICES)
                if chosen is not None:
                    drawn = chosen_action(dpi.verb, chosen, g.tables.codes)
                    self._drawn = (drawn, dp, chosen)
                    return drawn
            except Fault as fault:
                raise self._error(fault) from None
        legal = self.legal_actions()
        action = legal.draw(rng)
        self._drawn = (action, -1, -1)
        return action

    _PLAIN: ClassVar[bool] = True
    """Whether this state takes the default modes (False for a modal state): the step's
    shortcuts (``sample_action``'s draw by code, ``apply``'s key by position) are for it only."""

    def _plain(self) -> bool:
        """Whether this state takes the default modes (a modal state overrides it)."""
        return True

    def _irregular_actions(self) -> list[Action]:
        from .irregular import offered

        return offered(self, self.phase)

    # ------------------------------------------------------------ apply
    def apply(self, action: Action | str) -> None:
        """Carry out an action (an :class:`Action` or its text).

        Raises:
            InvalidActionError: the text names an unknown card.
            IllegalActionError: the action is not legal now; the state is unchanged.
            GameLimitError: the rules ran over a limit or the work budget
                (automatic steps, events); the state is unchanged.
            RuleRuntimeError: a rule failed at run time; the state is unchanged.
            TypeError: ``action`` is neither an :class:`Action` nor a string.
        """
        drawn = self._drawn
        dp = code = -1
        if drawn is not None and drawn[0] is action and drawn[1] >= 0:  # sample_action's draw
            dp, chosen = drawn[1], drawn[2]
            if isinstance(chosen, list):  # (a drawn selection: its cards)
                self._take_chosen(dp, chosen)
                return
            code = chosen
        elif (listed := self._codes) is not None:  # (a plain state's legal codes: legal_actions, legal_action_ids)
            got = self._g.listed_codes[listed[0]].get(id(action))
            if got is not None and got in listed[1]:  # an action object of the listing, legal now
                dp, code = listed[0], got
        if dp >= 0:
            self._legal = self._drawn = self._codes = None  # (Log._take_code, inlined: the random step)
            c = self._c
            c.steps = 0
            try:
                self._g.apply_fns[dp](c, code)
            except BaseException as err:
                self._rolled_back(err)
            self._keys.append(dp | (code + 1) << 16)  # (legal now: the match goes on, nothing is pending)
            return
        legal = self._legal
        if legal is not None and self._PLAIN and self._took_listed(legal, action):
            return  # (an action as listed: taken without parsing or searching)
        legal = self.legal_actions()
        if not isinstance(action, (Action, str)):
            raise TypeError(f"apply() takes an Action or its text, not {type(action).__name__}")
        if self._c.terminal:
            raise IllegalActionError(str(action), "the match is over")
        if isinstance(action, Action) and (i := legal.find(action)) >= 0:  # as listed: no parsing
            self._take_legal(legal[i])
            return
        text = self._canonical(action)
        i = legal.find(text)
        if i < 0:
            raise IllegalActionError(text, self.why_illegal(text))
        self._take_legal(legal[i])

    def apply_unchecked(self, action: Action | str) -> None:
        """Deprecated: the same as :meth:`apply`, which is as cheap now."""
        warnings.warn("State.apply_unchecked is deprecated: use State.apply", DeprecationWarning, stacklevel=2)
        self.apply(action)

    def _error(self, err: BaseException) -> BaseException:
        """A failure raised while rules ran, as the error users see."""
        return worded(self._g, err)

    def _refresh(self) -> None:
        """Ask the decision pending again, after its cards were changed in place (what may
        be chosen depends on them: hypothetical deals of hidden cards)."""
        c = self._c
        if not c.terminal:
            c.steps = 0
            self._g.m["advance"](c)
        self._legal = None
        self._codes = None

    # ------------------------------------------------------------ new matches
    def new_match(self, **arguments: Any) -> State:
        """A new match of this state's rules and options: :func:`new_game` with ``arguments``.

        Raises:
            ArgumentError, TypeError: as :func:`new_game` does for its arguments.
        """
        return new_game(self.ruleset, **arguments)

    # ------------------------------------------------------------ copies and JSON
    def clone(self) -> Self:
        """An independent copy (the compiled rules are shared)."""
        new = type(self).__new__(type(self))
        new._g = self._g
        new._c = self._g.m["copy"](self._c)
        new._log = list(self._log)
        new._irr = list(self._irr)
        new._legal = self._legal
        new._drawn = None
        new._codes = self._codes  # (the legal codes of the same decision: read only)
        new._rec = None
        new._ids = self._ids
        self._clone_extra(new)
        return new

    def _clone_extra(self, new: Self) -> None:
        """What a subclass copies besides (modal states' picks and chance)."""

    def snapshot(self) -> Snapshot:
        """This state's data now, to come back to with :meth:`restore` (undo, search)."""
        return Snapshot(self._g, self._g.m["copy"](self._c), list(self._log), list(self._irr))

    def restore(self, snapshot: Snapshot) -> None:
        """Go back to a :meth:`snapshot` of this game (the snapshot can be restored again).

        Raises:
            ValueError: the snapshot was taken from a game with other rules or another seed.
        """
        c, mine = snapshot.core, self._c
        if snapshot.game is not self._g or (c.seed, c.deck, c.first_dealer, c.table) != (
                mine.seed, mine.deck, mine.first_dealer, mine.table):
            raise ValueError("a snapshot of another game")
        self._c = self._g.m["copy"](c)
        self._log = list(snapshot.log)
        self._irr = list(snapshot.irregular)
        self._legal = None
        self._drawn = None
        self._codes = None
        self._rec = None
        self._ids = None

    @classmethod
    def from_json(cls, text: str | Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`to_json` output, replaying and re-checking every action.

        The state carries its whole rule text (the texts it extends included): no file
        is read, and the text must match the state's SHA-256.

        Raises:
            RecordError: the JSON is corrupt or too deeply nested, the rule text does not
                match its digest or does not load, or an action no longer fits the rules.
            TypeError: ``text`` is neither a string nor a mapping.
        """
        return cast(State, state_from_json(text, new_game))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict() and self.observation(None) == other.observation(None)

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"<State {self.ruleset.name!r} seed={self._c.seed} actions={len(self._log)} phase={self.phase!r}>"


def new_game(
    ruleset: Ruleset,
    *,
    seed: int | None = None,
    deck: Sequence[str] | None = None,
    dealer: int | None = None,
    options: Mapping[str, Any] | None = None,
    mode: str = "strict",
    selections: str = "all",
    chance: str = "automatic",
    decks: Mapping[int, Sequence[str]] | None = None,
    reseeds: Mapping[int, int] | None = None,
    record_events: bool | Collection[str] = False,
) -> State:
    """Start a match.

    Args:
        ruleset: from :func:`tricklang.load`.
        seed: the seed of every shuffle and of the first dealer (random if None).
        deck: card codes in dealing order for a prearranged first deal.
        decks: prearranged decks for any deals of the match, by deal number (1 for the
            first, as :attr:`State.deal_number`; a redeal counts as a new deal); the
            other deals are shuffled from ``seed``. See also :meth:`State.prearrange`.
        reseeds: new seeds for later deals, by deal number: that deal and the following
            ones are shuffled, and their random remedies drawn, from it (:meth:`State.reseed`).
        dealer: the seat that deals first (overrides the rule file).
        options: option values for this game.
        mode: 'strict' (default: regular actions only) or 'table' (the rule file's
            irregularities are offered too, as ``irregular NAME SEAT`` actions).
        selections: 'all' (default: a multi-card selection is one action) or
            'one_card' (card by card, then ``done``; see :mod:`interpreter.state.modes`).
        chance: 'automatic' (default: seeded shuffles) or 'explicit' (shuffles and
            random moves are chance nodes; see :mod:`interpreter.runtime.chance`).
        record_events: log the events as the match is played (each action a little slower, its clones and
            snapshots a little larger), so that :meth:`State.events` and :attr:`State.event_count` read them
            without replaying the match, as they do by default; for tools that read the events of every match
            they play; or only those of some types (``{"score", "match_end"}``), much cheaper, for
            ``events(types=...)``. Default selections and chance only.

    Raises:
        OptionError: an unknown option or a bad value.
        InvalidActionError: ``deck`` holds an unknown card code.
        RecordError: ``deck`` (or one of ``decks``) is not the whole pack exactly once, a
            deal number is not a positive integer, ``dealer`` is not a seat, ``seed`` (or
            one of ``reseeds``) is not an integer of at most 18 digits, ``mode``,
            ``selections`` or ``chance`` is not one of its values, or ``decks``,
            ``reseeds`` or ``record_events`` are given with other than the default
            selections and chance.
        ArgumentError: ``record_events`` is neither a bool nor event types.
        GameLimitError, RuleRuntimeError: the rules fail before the first decision.
        TypeError: ``ruleset`` is not a :class:`~tricklang.Ruleset`.
    """
    if type(ruleset) is not Ruleset and not isinstance(ruleset, Ruleset):
        raise TypeError(f"new_game() takes a Ruleset (from tricklang.load), not {type(ruleset).__name__}")
    game = Game.of(ruleset.with_options(options) if options else ruleset)
    if type(seed) is int and deck is None and dealer is None and decks is None and reseeds is None:  # (no bool)
        if -MAX_SEED <= seed <= MAX_SEED and record_events is False and (mode, selections, chance) == _DEFAULTS:
            return _seeded(game, seed)  # (a checked seed, every other argument its default)
    return start(game, seed=seed, deck=deck, dealer=dealer, mode=mode, selections=selections, chance=chance,
                 decks=decks, reseeds=reseeds, record_events=record_events)


def start(game: Compiled, *, seed: int | None, deck: Sequence[str] | None, dealer: int | None, mode: str,
          selections: str, chance: str, decks: Mapping[int, Sequence[str]] | None,
          reseeds: Mapping[int, int] | None, record_events: bool | Collection[str] = False) -> State:
    """A new match of ``game`` (see :func:`new_game` for the arguments and what is raised)."""
    if seed is None or type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED:  # (a bool is no seed)
        seed = checked_seed(secrets.randbelow(2**31) if seed is None else seed)
    cards = None if deck is None else prearranged(game, deck)
    later = later_decks(game, decks, cards is not None) if decks else {}
    seeds = later_seeds(reseeds) if reseeds else {}
    rec = 0 if record_events is False else recorded_kinds(record_events)
    if (modal := selections != "all" or chance != "automatic") or mode != "strict" or dealer is not None:
        check_modes(game, mode, dealer, selections, chance, modal and bool(later or seeds or rec))  # (defaults: none)
    if modal:
        return _modal_game(game, seed, cards, dealer, mode == "table", selections, chance)
    state = State.__new__(State)
    state._g = game
    state._keys = []
    state._pend = None
    state._irr = []
    state._legal = state._drawn = state._codes = state._rec = state._ids = None
    m = game.m
    try:
        c = m["new_core"](seed, cards, dealer, mode == "table", None, later or None, seeds or None,
                          rec)
        state._c = c
        c.steps = 0
        m["advance"](c)
    except BaseException as err:
        raise state._error(err) from None
    return state


def _seeded(game: Compiled, seed: int) -> State:
    """:func:`start` for a checked seed, every other argument its default: the core made and advanced to the
    first decision by one call (``new_match``). Raises GameLimitError, RuleRuntimeError as :func:`start`."""
    state = State.__new__(State)
    state._g = game
    state._keys = []
    state._pend = None
    state._irr = []
    state._legal = state._drawn = state._codes = state._rec = state._ids = None
    try:
        state._c = game.m["new_match"](seed)
    except BaseException as err:
        raise state._error(err) from None
    return state


class ModalState(Modes, State):  # type: ignore[misc]  # (Modes sees the state through a protocol)
    """A :class:`State` in one-card selection mode and/or explicit chance mode (see
    :mod:`interpreter.state.modes`). Built by :func:`new_game`."""

    __slots__ = ("_one_card", "_picks", "_explicit", "_tape", "_request", "_resume", "_dealer", "_modal")


def _modal_game(game: Compiled, seed: int, deck: list[int] | None, dealer: int | None, table: bool, selections: str,
                chance: str) -> ModalState:
    """A new game in the given modes (:func:`new_game` checked the arguments).

    Raises:
        GameLimitError, RuleRuntimeError: the rules fail before the first decision.
    """
    state = cast(ModalState, object.__new__(cast(Any, ModalState)))
    state._g = game
    state._log = []
    state._irr = []
    state._legal = None
    state._modal = None
    state._drawn = None
    state._codes = None
    state._rec = None
    state._ids = None
    state._one_card = selections == "one_card"
    state._picks = ()
    state._explicit = chance == "explicit"
    state._tape = []
    state._request = None
    state._resume = (None, None)
    state._dealer = dealer
    # A core carrying what _start needs (seed, deck, mode); replaced at once.
    state._c = game.m["make_core"](seed, deck, table, None, None, None, False)
    state._start()
    return state
