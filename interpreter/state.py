"""The public game state: legal actions, apply, observations, JSON.

A :class:`State` is a function of (ruleset, options, seed or deck, first dealer,
actions): everything else is derived, and :meth:`State.to_json` stores exactly
that. Cloning copies a small flat core and shares the compiled program.
"""

from __future__ import annotations

import json
import os
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from tricklang import Ruleset
from tricklang.diagnostics import TrickLangError, brief

from .actions import Action
from .cards import NO_TRUMP
from .compiler import compile_ruleset
from .core import Core
from .errors import GameError, IllegalActionError, InvalidActionError, RecordError, RuleRuntimeError
from .instructions import Instruction, Tricks
from .legal import LegalActions, Selection
from .program import Program
from .resample import resample
from .saved import parse_json, state_rules
from .views import Views

ModalBuilder = Callable[..., "State"]
_MODAL: ModalBuilder | None = None
"""Builds a game in another selection or chance mode (a ``ModalState``, the subclass of
:class:`State` in :mod:`interpreter.modes`). That module registers it with
:func:`register_modal_states` when the package is imported, so that this module, which
it subclasses, does not import it back."""


def register_modal_states(builder: ModalBuilder) -> None:
    """Called once by :mod:`interpreter.modes`."""
    global _MODAL
    _MODAL = builder


STATE_FORMAT = "tricklang-state"
STATE_VERSION = 1
_RULE_FAILURES = (ArithmeticError, LookupError, RecursionError, TypeError, ValueError, AttributeError, AssertionError)
"""Exceptions that, raised while rules run, are reported as :class:`RuleRuntimeError`."""

MAX_SEED = 10**18 - 1
"""Seeds have at most 18 digits."""

_NO_ACTIONS = LegalActions()


@dataclass(frozen=True)
class Outcome:
    """How a match ended: the winning side (a seat's index when there are no
    partnerships), its members, and the final scores per side."""

    winner: int | None
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    deals: int

    def result(self) -> str:
        """A short human-readable result, e.g. ``'seat 1 wins 5-3'``."""
        if self.winner is None:
            return "no winner (drawn or abandoned) at " + "-".join(map(str, self.scores))
        who = "seat " + str(self.winners[0]) if len(self.winners) == 1 else "seats " + "+".join(map(str, self.winners))
        return f"{who} win{'s' if len(self.winners) == 1 else ''} " + "-".join(map(str, self.scores))


CHECKPOINT_EVERY = 64
"""Actions between two rollback checkpoints: a failed action costs at most this many replayed."""


class Snapshot:
    """A state's data at one point, to go back to with :meth:`State.restore` (opaque)."""

    __slots__ = ("program", "core", "n_actions", "actions", "actors", "n_events")

    def __init__(self, program: Program, core: Core, n_actions: int, n_events: int,
                 actions: list[str] | None = None, actors: list[int] | None = None) -> None:
        self.program = program
        self.core = core
        self.n_actions = n_actions
        self.n_events = n_events
        self.actions = actions
        self.actors = actors


class State(Views):
    """A game in progress. Build one with :func:`new_game`."""

    __slots__ = ("ruleset", "program", "core", "actions", "actors", "_legal", "_checkpoint")

    ruleset: Ruleset
    program: Program
    core: Core
    actions: list[str]
    actors: list[int]
    _legal: LegalActions | None
    _checkpoint: Snapshot | None  # shares the event log, whose prefix it names

    # ------------------------------------------------------------ basics
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the match is over."""
        if self.core.terminal:
            return None
        return self._instruction().actor(self.core)

    @property
    def scores(self) -> list[int]:
        """Match score per side (per seat when there are no partnerships)."""
        return list(self.core.scores)

    @property
    def sides(self) -> list[list[int]]:
        """The seats of each side; without partnerships each seat is its own side."""
        return [list(s) for s in self.program.sides]

    @property
    def dealer(self) -> int:
        return self.core.dealer

    @property
    def deal_number(self) -> int:
        """1 for the first deal of the match."""
        return self.core.deal_no + 1

    @property
    def trump(self) -> str | None:
        """The trump suit's name, or None when there is no trump (yet)."""
        return self.program.tables.suit_names[self.core.trump] if self.core.trump != NO_TRUMP else None

    @property
    def seed(self) -> int:
        return self.core.seed

    @property
    def phase(self) -> str:
        """What is being decided now: 'choice', 'discard', 'auction', 'play', ... or 'over'."""
        if self.core.terminal:
            return "over"
        return self._instruction().phase(self.core)

    def is_terminal(self) -> bool:
        return self.core.terminal

    def outcome(self) -> Outcome | None:
        """The result once the match is over, else None."""
        if not self.core.terminal:
            return None
        w = self.core.winner
        if w < 0:
            deals = self.core.deal_no + (1 if self.core.last_deal else 0)
            return Outcome(None, (), tuple(self.core.scores), deals)
        return Outcome(w, tuple(self.program.sides[w]), tuple(self.core.scores), self.core.deal_no + 1)

    def _instruction(self) -> Instruction:
        return self.program.instructions[self.core.pc]

    # ------------------------------------------------------------ actions
    def legal_actions(self) -> LegalActions:
        """The legal actions, in a fixed order (empty when the match is over).

        An immutable sequence; card selections are not built until asked for.
        """
        legal = self._legal
        if legal is None:
            core = self.core
            if core.terminal:
                legal = _NO_ACTIONS
            else:
                legal = self.program.instructions[core.pc].legal(core)
                if core.table and not core.calls:
                    legal = legal.plus(self._irregular_actions())
            self._legal = legal
        return legal

    def sample_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly at random with ``rng``, without listing the others.

        Draws exactly as ``legal[rng.randrange(len(legal))]`` does.

        Raises:
            IllegalActionError: the match is over.
        """
        legal = self.legal_actions()
        if not legal:
            raise IllegalActionError("(any action)", "the match is over")
        return legal[rng.randrange(len(legal))]

    @property
    def mode(self) -> str:
        """'strict' (only regular actions) or 'table' (the rule file's irregularities too)."""
        return "table" if self.core.table else "strict"

    def _irregular_actions(self) -> list[Action]:
        core, prog = self.core, self.program
        if not prog.irregularities:
            return []
        phase = self._instruction().phase(core)
        out: list[Action] = []
        for irr in prog.irregularities:
            if "any" not in irr.phases and phase not in irr.phases:
                continue
            seats = [irr.by(core)] if irr.by is not None else range(prog.n)
            for p in seats:
                if not 0 <= p < prog.n:
                    continue
                if irr.guard is not None:
                    # The guard may speak of the offender: try it with this seat.
                    saved = core.vars[irr.slot]
                    core.vars[irr.slot] = p
                    try:
                        allowed = irr.guard(core)
                    finally:
                        core.vars[irr.slot] = saved
                    if not allowed:
                        continue
                out.append(Action("irregular", (irr.name, str(p))))
        return out

    def is_legal(self, action: Action | str) -> bool:
        try:
            return self._canonical(action) in self.legal_actions()
        except InvalidActionError:
            return False

    def _canonical(self, action: Action | str) -> str:
        """The action's notation with card codes normalised (``th`` -> ``10H``)."""
        text = action.text if isinstance(action, Action) else str(action)
        words = text.split()
        if not words:
            raise InvalidActionError("empty action")
        verb = words[0].lower()
        args = words[1:]
        tables = self.program.tables
        # Words after a verb that takes none (e.g. 'stand now') are not card codes.
        wordless = self.legal_actions().bare_verbs()
        if verb in ("play",) or (args and args != ["none"] and verb not in ("bid", "name", "declare", "irregular")
                                 and verb not in wordless):
            cards = [tables.parse_card(a) for a in args] if args != ["none"] else []
            cards.sort(key=tables.order[self.core.ti].__getitem__)
            args = [tables.codes[c] for c in cards] or (["none"] if args else [])
        else:
            args = [a.lower() for a in args]
        return " ".join([verb] + args)

    def apply(self, action: Action | str) -> None:
        """Carry out an action (an :class:`Action` or its text).

        Raises:
            InvalidActionError: the text names an unknown card.
            IllegalActionError: the action is not legal now; the state is unchanged.
            GameLimitError: the rules ran over a limit or the work budget
                (automatic steps, cards scanned, events); the state is unchanged.
            RuleRuntimeError: a rule failed (``%`` by zero, a number beyond 18
                digits...); the state is unchanged.
            TypeError: ``action`` is neither an :class:`Action` nor a string.
        """
        if not isinstance(action, (Action, str)):
            raise TypeError(f"apply() takes an Action or its text, not {type(action).__name__}")
        if self.core.terminal:
            raise IllegalActionError(str(action), "the match is over")
        legal = self.legal_actions()
        if isinstance(action, Action) and legal.find(action) >= 0:  # as listed: no parsing
            self._apply_unchecked(action)
            return
        text = self._canonical(action)
        i = legal.find(text)
        if i < 0:
            raise IllegalActionError(text, self.why_illegal(text))
        self._apply_unchecked(legal[i])

    def apply_unchecked(self, action: Action | str) -> None:
        """The same as :meth:`apply` (kept for old callers: checking is as cheap now)."""
        self.apply(action)

    def _apply_unchecked(self, action: Action) -> None:
        core = self.core
        n = len(self.actions)
        if n % CHECKPOINT_EVERY == 0 and (self._checkpoint is None or self._checkpoint.n_actions != n):
            self._checkpoint = Snapshot(self.program, core.copy(events=False), n, len(core.events))
        self._legal = None
        ins = self._instruction()
        actor = ins.actor(core)
        try:
            if action.verb == "irregular":
                self._start_irregularity(action)
            else:
                ins.apply(core, action)
            self.program.advance(core)
        except Exception as err:
            # A rule failed at run time: put the state back exactly as it was (from the
            # last checkpoint, replaying the few actions since).
            self.core = self._replay_core()
            if isinstance(err, GameError) or not isinstance(err, _RULE_FAILURES):
                raise
            raise RuleRuntimeError(f"the rules failed at run time ({type(err).__name__}: {str(err)[:200]})") from None
        self.actions.append(action.text)
        self.actors.append(actor)

    def _replay_core(self) -> Core:
        prog, core, check = self.program, self.core, self._checkpoint
        if check is not None and check.n_actions <= len(self.actions):
            fresh = check.core.copy(events=False)
            fresh.events = core.events
            del fresh.events[check.n_events:]
            todo = self.actions[check.n_actions:]
        else:
            fresh = prog.new_core(core.seed, core.deck, core.first_dealer, table=core.table, decks=core.decks,
                                  reseeds=core.reseeds)
            prog.advance(fresh)
            todo = self.actions
        for text in todo:
            ins = prog.instructions[fresh.pc]
            if text.startswith("irregular "):
                saved, self.core = self.core, fresh
                try:
                    self._start_irregularity(Action("irregular", tuple(text.split()[1:])))
                finally:
                    self.core = saved
            else:
                legal = ins.legal(fresh)
                ins.apply(fresh, legal[legal.find(text)])
            prog.advance(fresh)
        return fresh

    def _start_irregularity(self, action: Action) -> None:
        core, prog = self.core, self.program
        name, seat = action.args[0], int(action.args[1])
        irr = next(i for i in prog.irregularities if i.name == name)
        event: dict[str, Any] = {"type": "irregularity", "name": name, "offender": seat}
        if irr.laws:
            event["laws"] = list(irr.laws)
        prog.emit(core, event)
        core.calls.append(core.pc)
        core.vars[irr.slot] = seat
        core.pc = irr.entry

    def why_illegal(self, action: Action | str) -> str:
        """A sentence saying why an action is not legal now (or '' if it is)."""
        if self.core.terminal:
            return "the match is over"
        try:
            text = self._canonical(action)
        except InvalidActionError as err:
            return str(err)
        legal = self.legal_actions()
        if text in legal:
            return ""
        verb = text.split()[0]
        verbs = sorted(legal.verbs())
        player = self.current_player
        if verb not in verbs:
            return f"seat {player} must now {' or '.join(verbs)}" if verbs else "nothing can be done now"
        ins = self._instruction()
        if isinstance(ins, Tricks) and verb == "play":
            tables = self.program.tables
            words = text.split()
            if len(words) != 2:
                return "name one card to play, e.g. 'play " + (legal[0].args[0] if legal and legal[0].args else "KS") + "'"
            try:
                card = tables.parse_card(words[1])
            except InvalidActionError as err:
                return str(err)
            assert player is not None
            if card not in self.core.zones[self.program.hand + player]:
                return f"seat {player} does not hold {tables.codes[card]}"
            _, why = ins.allowed_cards(self.core, player)
            names = {"follow_suit": "must follow suit", "trump_if_void": "must trump when void in the suit led",
                     "beat_if_able": "must beat the trick when able", "lead_until_broken": "may not lead that suit until it is broken",
                     "lead_first": "must lead the card the rules name to the first trick",
                     "not_first_trick": "may not play that card to the first trick"}
            reasons = [names.get(w, w) for w in why]
            return "the player " + (", and ".join(reasons) if reasons else "cannot play that card now")
        if verb == "declare":
            return "that declaration is not available now"
        if verb in legal.bare_verbs():
            return f"'{verb}' takes nothing after it"
        sel = legal.selection
        if sel is not None and verb == sel.verb:
            return self._why_not_selected(text.split()[1:], sel)
        examples = ", ".join(a.text for a in legal[:3])
        return f"not one of the legal {verb} actions (e.g. {examples})"

    def _why_not_selected(self, args: list[str], sel: Selection) -> str:
        """Why a card selection is refused: a card not offered, a repeated card, a wrong count."""
        tables, player = self.program.tables, self.current_player
        cards = [] if args == ["none"] else [tables.index[a] for a in args]
        for c in cards:
            if c not in sel.cards:
                where = "holds" if self.phase == "discard" else "may take"
                return f"{tables.codes[c]} is not a card seat {player} {where} that may be chosen"
        repeated = sorted({tables.codes[c] for c in cards if cards.count(c) > 1})
        if repeated:
            return f"{' '.join(repeated)} named more than once"
        many = f"{sel.lo}" if sel.lo == sel.hi else f"{sel.lo} to {sel.hi}"
        return f"choose {many} card{'s' if sel.hi != 1 else ''}, not {len(cards)}"

    # ------------------------------------------------------------ embedding: modes, ids, chance
    @property
    def selections(self) -> str:
        """'all' (a multi-card selection is one action) or 'one_card' (see :mod:`interpreter.modes`)."""
        return "all"

    @property
    def chance(self) -> str:
        """'automatic' (seeded shuffles) or 'explicit' (chance nodes; see :mod:`interpreter.chance`)."""
        return "automatic"

    def is_chance_node(self) -> bool:
        """True when chance (a shuffle, a random move) must act next; only with ``chance='explicit'``."""
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability) at a chance node, by increasing id; [] at a decision."""
        return []

    def apply_chance_outcome(self, outcome: int) -> None:
        """Apply a chance outcome at a chance node.

        Raises:
            IllegalActionError: this state is not at a chance node (it never is with
                automatic chance), or the outcome is not possible; the state is unchanged.
        """
        reason = "the match is over" if self.core.terminal else f"seat {self.current_player} must decide: this is not a chance node"
        raise IllegalActionError(f"chance outcome {outcome!r}", reason)

    @property
    def num_distinct_actions(self) -> int:
        """The size of this game's action space (see :mod:`interpreter.spaces`)."""
        from .spaces import action_space

        return action_space(self).size

    def legal_action_ids(self) -> list[int]:
        """The ids of the legal actions, increasing (see :mod:`interpreter.spaces`)."""
        from .spaces import legal_ids

        return [i for i, _ in legal_ids(self)]

    def action_id(self, action: Action | str) -> int:
        """The id of an action (an :class:`Action` or its text).

        Raises:
            InvalidActionError: the action has no id in this game's space.
        """
        from .spaces import action_space

        if not isinstance(action, Action):
            text = self._canonical(action)
            words = text.split()
            action = Action(words[0], tuple(words[1:]))
        return action_space(self).id_of(action)

    def action_from_id(self, i: int) -> Action:
        """The action id ``i`` stands for now.

        Raises:
            InvalidActionError: ``i`` is out of range.
        """
        from .spaces import action_from_id

        return action_from_id(self, i)

    def apply_id(self, i: int) -> None:
        """Apply the legal action with id ``i``.

        Raises:
            InvalidActionError: ``i`` is out of range.
            IllegalActionError: ``i`` is not legal now, or this is a chance node; the state is unchanged.
        """
        from .spaces import apply_id

        apply_id(self, i)

    @property
    def tensor_shape(self) -> tuple[int]:
        """The shape of :meth:`observation_tensor` (see :mod:`interpreter.tensors` for the layout)."""
        from .tensors import tensor_layout

        return tensor_layout(self).shape

    def observation_tensor(self, player: int) -> list[float]:
        """What a seat sees, as a flat list of floats derived from the zones' visibility.

        Raises:
            GameError: ``player`` is not a seat.
        """
        from .tensors import observation_tensor

        return observation_tensor(self, player)

    def information_state_tensor(self, player: int) -> list[float]:
        """The observation tensor and what the seat has seen this deal (:mod:`interpreter.tensors`).

        Raises:
            GameError: ``player`` is not a seat.
        """
        from .tensors import information_state_tensor

        return information_state_tensor(self, player)

    # ------------------------------------------------------------ deals and hidden cards
    def prearrange(self, deal_number: int, deck: Sequence[str]) -> None:
        """Lay out a later deal of this match from a prearranged deck (card codes in
        dealing order) instead of the seeded shuffle. The deck becomes part of the state
        (:meth:`to_json` stores it), as with ``new_game(decks=...)``.

        Raises:
            RecordError: that deal has already been laid out (``deal_number`` is not after
                :attr:`deal_number`), or the deck is not the whole pack exactly once.
            InvalidActionError: the deck holds an unknown card code.
        """
        if isinstance(deal_number, bool) or not isinstance(deal_number, int) or deal_number <= self.deal_number:
            raise RecordError(f"deal {deal_number!r} cannot be prearranged: deal {self.deal_number} is under way")
        cards = _prearranged(self.program, deck)
        self.core.decks = {**self.core.decks, deal_number - 1: cards}  # copy on write: clones share it

    def reseed(self, seed: int, deal_number: int | None = None) -> None:
        """Shuffle the deals from ``deal_number`` (default: the next one) on, and draw
        their random remedies, from ``seed`` instead of the match's seed; the deals so
        far keep theirs. Stored by :meth:`to_json`, as ``new_game(reseeds=...)``.

        Raises:
            RecordError: the seed is not an integer, or that deal is already under way.
        """
        n = self.deal_number + 1 if deal_number is None else deal_number
        if isinstance(n, bool) or not isinstance(n, int) or n <= self.deal_number:
            raise RecordError(f"deal {n!r} cannot be reseeded: deal {self.deal_number} is under way")
        if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED <= seed <= MAX_SEED:
            raise RecordError(f"a seed must be an integer of at most 18 digits, not {brief(seed)}")
        self.core.reseeds = {**{k: v for k, v in self.core.reseeds.items() if k < n - 1}, n - 1: seed}

    def deal_deck(self, deal_number: int | None = None) -> list[str]:
        """The deck of a deal (default: the current one) in dealing order, as card codes
        (omniscient, like :meth:`hand`): its prearranged deck or its seeded shuffle.

        Raises:
            RecordError: ``deal_number`` is not a positive integer.
        """
        n = self.deal_number if deal_number is None else deal_number
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise RecordError(f"deal numbers start at 1, not {n!r}")
        codes = self.program.tables.codes
        return [codes[c] for c in reversed(self.program.pack_order(self.core, n - 1))]

    def allowed_plays(self, hand: Sequence[str]) -> list[str]:
        """The cards the player to act could play to the trick now if his hand were
        ``hand`` (card codes), by the rule file's legal-play rules; the state is not
        changed. For reasoning about hidden hands, e.g. that a player who did not
        follow suit holds none of it.

        Raises:
            IllegalActionError: no card is being played now.
            InvalidActionError: ``hand`` holds an unknown card code.
        """
        ins = self._instruction() if not self.core.terminal else None
        p = self.current_player
        if not isinstance(ins, Tricks) or p is None or self.phase != "play":
            raise IllegalActionError("allowed_plays", "no card is being played now")
        cards = [self.program.tables.parse_card(str(c)) for c in hand]
        zones = self.core.zones
        z = self.program.hand + p
        saved = zones[z]
        zones[z] = cards
        try:
            allowed, _ = ins.allowed_cards(self.core, p)
        finally:
            zones[z] = saved
        return [self.program.tables.codes[c] for c in allowed]

    def resample(self, seat: int, rng: random.Random | None = None) -> State:
        """A state that ``seat`` cannot tell from this one, with the cards hidden from it
        dealt again at random among the places they could be (see
        :mod:`interpreter.resample`). This state is not changed.

        Raises:
            ResampleError: ``seat`` is not a seat of this game, or no consistent deal was
                found within the attempt bound.
        """
        return resample(self, seat, rng)

    def new_match(self, **arguments: Any) -> State:
        """A new match of this state's rules and options: :func:`new_game` with ``arguments``
        (``seed``, ``deck``, ``decks``, ``reseeds``, ``dealer``, ``mode``...).

        Raises:
            ArgumentError, TypeError: as :func:`new_game` does for its arguments.
        """
        return new_game(self.ruleset, **arguments)

    # ------------------------------------------------------------ copies and JSON
    def clone(self) -> Self:
        """An independent copy (the compiled rules are shared)."""
        new = type(self).__new__(type(self))
        new.ruleset = self.ruleset
        new.program = self.program
        new.core = self.core.copy()
        new.actions = list(self.actions)
        new.actors = list(self.actors)
        new._legal = self._legal
        new._checkpoint = None
        return new

    def snapshot(self) -> Snapshot:
        """This state's data now, to come back to with :meth:`restore` (undo, search)."""
        return Snapshot(self.program, self.core.copy(), len(self.actions), len(self.core.events),
                        list(self.actions), list(self.actors))

    def restore(self, snapshot: Snapshot) -> None:
        """Go back to a :meth:`snapshot` of this game (the snapshot can be restored again).

        Raises:
            ValueError: the snapshot was taken from a game with other rules or another seed.
        """
        core = snapshot.core
        if snapshot.actions is None or snapshot.actors is None or snapshot.program is not self.program \
                or (core.seed, core.deck, core.first_dealer, core.table) != (
                    self.core.seed, self.core.deck, self.core.first_dealer, self.core.table):
            raise ValueError("a snapshot of another game")
        self.core = core.copy()
        self.actions = list(snapshot.actions)
        self.actors = list(snapshot.actors)
        self._legal = None
        self._checkpoint = None

    def to_json(self) -> str:
        """The state as JSON: the rule file's text, options, seed, deck, dealer and actions."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def to_dict(self) -> dict[str, Any]:
        core = self.core
        data: dict[str, Any] = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "rules": {"path": os.path.basename(self.ruleset.path), "sha256": self.ruleset.digest,
                      "source": self.ruleset.source, "bases": list(self.ruleset.bases)},
            "options": dict(self.ruleset.options),
            "seed": core.seed,
            "dealer": core.first_dealer,
            "actions": list(self.actions),
        }
        if core.table:
            data["mode"] = "table"
        if core.deck is not None:
            data["deck"] = [self.program.tables.codes[c] for c in core.deck]
        if core.reseeds:
            data["reseeds"] = {str(n + 1): s for n, s in sorted(core.reseeds.items())}
        if core.decks:
            data["decks"] = {str(n + 1): [self.program.tables.codes[c] for c in d] for n, d in sorted(core.decks.items())}
        return data

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
        if not isinstance(text, (str, Mapping)):
            raise TypeError(f"from_json() takes JSON text or a mapping, not {type(text).__name__}")
        data = parse_json(text, "state") if isinstance(text, str) else dict(text)
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise RecordError(f"not a tricklang state (expected format '{STATE_FORMAT}')")
        if data.get("version") != STATE_VERSION:
            raise RecordError(f"state version {data.get('version')!r} is not supported (this tricklang reads version {STATE_VERSION})")
        try:
            ruleset = state_rules(data["rules"], data.get("options") or {})
            seed, dealer, actions = data["seed"], data["dealer"], data["actions"]
            if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
                raise RecordError("'actions' must be a list of action texts")
            deck = data.get("deck")
            if deck is not None and (not isinstance(deck, list) or not all(isinstance(c, str) for c in deck)):
                raise RecordError("'deck' must be a list of card codes")
            decks = data.get("decks")
            if decks is not None and not isinstance(decks, dict):
                raise RecordError("'decks' must map deal numbers to decks")
            reseeds = data.get("reseeds")
            if reseeds is not None and not isinstance(reseeds, dict):
                raise RecordError("'reseeds' must map deal numbers to seeds")
            state = new_game(ruleset, seed=seed, deck=deck, dealer=dealer, mode=data.get("mode", "strict"),
                             selections=data.get("selections", "all"), chance=data.get("chance", "automatic"),
                             decks={_deal_key(k): v for k, v in decks.items()} if decks else None,
                             reseeds={_deal_key(k): v for k, v in reseeds.items()} if reseeds else None)
        except (KeyError, TypeError) as err:
            raise RecordError(f"state is missing or has a bad field: {err}") from None
        except RecordError:
            raise
        except TrickLangError as err:
            raise RecordError(f"state cannot be rebuilt: {err}") from None
        state._restore(actions, data)
        return state

    def _restore(self, actions: Sequence[str], data: Mapping[str, Any]) -> None:
        """Replay the actions of a JSON state (the embedding modes also feed chance outcomes).

        Raises:
            RecordError: an action does not fit the rules.
        """
        for i, a in enumerate(actions):
            try:
                self.apply(a)
            except TrickLangError as err:
                raise RecordError(f"action {i + 1} ({a!r}) does not fit the rules: {err}") from None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict() and self.observation(None) == other.observation(None)

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"<State {self.ruleset.name!r} seed={self.core.seed} actions={len(self.actions)} phase={self.phase!r}>"


def _deal_key(key: object) -> int:
    try:
        return int(str(key))
    except ValueError:
        raise RecordError(f"'decks' keys are deal numbers, not {key!r}") from None




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
            'one_card' (card by card, then ``done``; see :mod:`interpreter.modes`).
        chance: 'automatic' (default: seeded shuffles) or 'explicit' (shuffles and
            random moves are chance nodes; see :mod:`interpreter.chance`).

    Raises:
        OptionError: an unknown option or a bad value.
        InvalidActionError: ``deck`` holds an unknown card code.
        RecordError: ``deck`` (or one of ``decks``) is not the whole pack exactly once, a
            deal number is not a positive integer, ``dealer`` is not a seat, ``seed`` (or
            one of ``reseeds``) is not an integer of at most 18 digits, ``mode``,
            ``selections`` or ``chance`` is not one of its values, or ``decks`` or
            ``reseeds`` are given with other than the default selections and chance.
        GameLimitError, RuleRuntimeError: the rules fail before the first decision.
        TypeError: ``ruleset`` is not a :class:`~tricklang.Ruleset`.
    """
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"new_game() takes a Ruleset (from tricklang.load), not {type(ruleset).__name__}")
    ruleset = ruleset.with_options(options)
    program = compile_ruleset(ruleset)
    if seed is None:
        seed = secrets.randbelow(2**31)
    if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED <= seed <= MAX_SEED:
        raise RecordError(f"seed must be an integer of at most 18 digits, not {brief(seed)}")
    cards = None if deck is None else _prearranged(program, deck)
    later: dict[int, list[int]] = {}
    for number, d in (decks or {}).items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise RecordError(f"decks are keyed by deal number (1 for the first deal), not {brief(number)}")
        if number == 1 and cards is not None:
            raise RecordError("the first deal's deck is given twice (deck= and decks[1])")
        later[number - 1] = _prearranged(program, d)
    seeds: dict[int, int] = {}
    for number, s in (reseeds or {}).items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise RecordError(f"reseeds are keyed by deal number (1 for the first deal), not {brief(number)}")
        if isinstance(s, bool) or not isinstance(s, int) or not -MAX_SEED <= s <= MAX_SEED:
            raise RecordError(f"a seed must be an integer of at most 18 digits, not {brief(s)}")
        seeds[number - 1] = s
    if mode not in ("strict", "table"):
        raise RecordError(f"mode must be 'strict' or 'table', not {brief(mode)}")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < program.n):
        raise RecordError(f"dealer must be a seat 0..{program.n - 1}, not {brief(dealer)}")
    if selections not in ("all", "one_card"):
        raise RecordError(f"selections must be 'all' or 'one_card', not {brief(selections)}")
    if chance not in ("automatic", "explicit"):
        raise RecordError(f"chance must be 'automatic' or 'explicit', not {brief(chance)}")
    if selections != "all" or chance != "automatic":
        if later or seeds:
            raise RecordError("decks and reseeds need the default selections ('all') and chance ('automatic')")
        assert _MODAL is not None, "interpreter.modes registers the modal states when interpreter is imported"
        return _MODAL(ruleset, program, seed=seed, deck=cards, dealer=dealer,
                      table=mode == "table", selections=selections, chance=chance)
    state = State.__new__(State)
    state.ruleset = ruleset
    state.program = program
    state.core = program.new_core(seed, cards, dealer, table=mode == "table", decks=later, reseeds=seeds)
    state.actions = []
    state.actors = []
    state._legal = None
    state._checkpoint = None
    try:
        program.advance(state.core)
    except GameError:
        raise
    except _RULE_FAILURES as err:  # every failure of the rules is a typed error
        raise RuleRuntimeError(f"the rules failed at run time ({type(err).__name__}: {str(err)[:200]})") from None
    return state


def _prearranged(program: Program, deck: Sequence[str]) -> list[int]:
    """A prearranged deck's cards, checked to be the whole pack once (in linear time)."""
    size = program.tables.size
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise RecordError("a prearranged deck is a list of card codes")
    if len(deck) != size:
        raise RecordError(f"a prearranged deck must hold each of the {size} cards once (it holds {len(deck)} cards)")
    cards = [program.tables.parse_card(c) for c in deck]
    if len(set(cards)) != size:
        seen: set[int] = set()
        dup = sorted({c for c in cards if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        missing = sorted(set(range(size)) - set(cards))
        codes = program.tables.codes
        raise RecordError(f"a prearranged deck must hold each of the {size} cards once (missing "
                          + " ".join(codes[c] for c in missing[:20]) + "; repeated "
                          + " ".join(codes[c] for c in dup[:20]) + ")")
    return cards
