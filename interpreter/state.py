"""The public game state: turns, legal actions, apply, copies; :func:`new_game`.

A :class:`State` is a function of (ruleset, options, seed or deck, first dealer,
actions): everything else is derived, and :meth:`State.to_json` stores exactly
that. Cloning copies a small flat core and shares the compiled program.
"""

from __future__ import annotations

import random
import secrets
import warnings
from array import array
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self

from tricklang import Ruleset

from . import irregular
from .actions import Action
from .cards import NO_TRUMP
from .compiler import compile_ruleset
from .core import Core
from .deals import MAX_SEED, Deals, check_modes, checked_seed, later_decks, later_seeds, prearranged
from .embedding import Embedding
from .errors import ArgumentError, GameError, IllegalActionError, InvalidActionError, RuleRuntimeError
from .instructions import Instruction
from .legal import BITS, GETRANDBITS, LegalActions, PlayedCards, randbelow
from .logs import ENCODE_AT_LEAST, ActionLog
from .playouts import Playouts
from .program import Program
from .refusals import Refusals
from .saved import Saved, state_from_json
from .snapshot import CHECKPOINT_EVERY as CHECKPOINT_EVERY
from .snapshot import Outcome as Outcome
from .snapshot import Snapshot as Snapshot
from .views import Views

ModalBuilder = Callable[..., "State"]
_MODAL: ModalBuilder | None = None
"""Builds a game in another selection or chance mode (a ``ModalState``, the subclass of
:class:`State` in :mod:`interpreter.modes`). That module registers it with
:func:`register_modal_states` when it is imported (by the first use of a name of the
package, e.g. ``interpreter.new_game``), so that this module, which
it subclasses, does not import it back."""


def register_modal_states(builder: ModalBuilder) -> None:
    """Called once by :mod:`interpreter.modes`."""
    global _MODAL
    _MODAL = builder


_RULE_FAILURES = (ArithmeticError, LookupError, RecursionError, TypeError, ValueError, AttributeError, AssertionError)
"""Exceptions that, raised while rules run, are reported as :class:`RuleRuntimeError`."""

_NO_ACTIONS = LegalActions()

RANDOM = random.Random
_UNLISTED = LegalActions()  # State._legal once a generated decision drew without listing (Instruction.fast_draw)


class State(Views, Refusals, Embedding, Deals, Saved, Playouts):
    """A game in progress. Build one with :func:`new_game`.

    Its methods are grouped by job: turns, legal actions, apply and copies here; the
    public views in :class:`~interpreter.views.Views`, why an action is refused in
    :class:`~interpreter.refusals.Refusals`, the embedding interface (modes, action ids,
    tensors) in :class:`~interpreter.embedding.Embedding`, later deals and hidden cards
    in :class:`~interpreter.deals.Deals`, JSON in :class:`~interpreter.saved.Saved`, random
    playouts in :class:`~interpreter.playouts.Playouts`.
    """

    __slots__ = ("ruleset", "program", "core", "actions", "actors", "_legal", "_checkpoint", "_ids", "_drawn")

    ruleset: Ruleset
    program: Program
    core: Core
    actions: ActionLog  # reads as a list of action texts
    actors: array[int]  # the seat that took each action
    _legal: LegalActions | list[int] | None  # a list: the cards the random step drew from (see legal_actions)
    _checkpoint: Snapshot | None  # shares the event log, whose prefix it names
    _ids: tuple[Any, Any, tuple[tuple[int, Action], ...], dict[int, Action]] | None  # see spaces.legal_ids
    _drawn: tuple[LegalActions | list[int], Action, Callable[[Core, int], bool] | None] | None  # the last draw: from
    # what, which, and the generated play that carries it out
    _PLAIN = True  # sample_action may use generated trick play (not in other modes: ModalState)

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
        kept, core = self._legal, self.core
        if kept is None or kept is _UNLISTED:
            if core.terminal:
                legal: LegalActions = _NO_ACTIONS
            else:
                legal = self.program.instructions[core.pc].legal(core)
                if core.table:
                    legal = legal.plus(self._irregular_actions())
        elif isinstance(kept, list):  # the cards the random step drew from: their actions, when read
            legal = PlayedCards(kept, self.program.instructions[core.pc].play_actions)
        else:
            return kept
        drawn = self._drawn
        if drawn is not None and drawn[0] is kept:  # apply still knows the draw is legal
            self._drawn = (legal, drawn[1], drawn[2])
        self._legal = legal
        return legal

    def sample_action(self, rng: random.Random) -> Action:
        """A legal action drawn uniformly at random with ``rng``, without listing the others.

        Draws exactly as ``legal[rng.randrange(len(legal))]`` does.

        Raises:
            IllegalActionError: the match is over.
        """
        core = self.core
        if self._legal is None and self._PLAIN and not core.terminal and not core.table:
            ins = self.program.instructions[core.pc]
            fast = ins.fast_cards
            if fast is not None:  # generated trick play: draw a card, build no actions
                cards = fast(core)
                if cards:
                    n = len(cards)
                    if type(rng) is RANDOM and n < 256:  # randbelow(rng, n), inlined
                        k = BITS[n]
                        i = GETRANDBITS(rng, k)
                        while i >= n:
                            i = GETRANDBITS(rng, k)
                    else:
                        i = randbelow(rng, n)
                    play = ins.play_actions[cards[i]]
                    self._legal = cards  # legal_actions() makes them a PlayedCards if asked
                    self._drawn = (cards, play, ins.fast_play)
                    return play
            if ins.fast_draw is not None:  # a generated decision (or trick play offering a declaration
                # too) draws its action without listing them
                action = ins.fast_draw(core, rng)
                if action is not None:
                    self._legal = _UNLISTED
                    self._drawn = (_UNLISTED, action, None)
                    return action
        legal = self.legal_actions()
        try:
            action = legal.draw(rng)
        except ValueError:
            if legal:
                raise
            raise IllegalActionError("(any action)", "the match is over") from None
        self._drawn = (legal, action, None)  # apply knows it is legal while these legal actions stand
        return action

    @property
    def mode(self) -> str:
        """'strict' (only regular actions) or 'table' (the rule file's irregularities too)."""
        return "table" if self.core.table else "strict"

    def _irregular_actions(self) -> list[Action]:
        if not self.program.irregularities:
            return []
        return irregular.offered(self.program, self.core, self._instruction().phase(self.core))

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
        if verb == "irregular":
            args = irregular.canonical(self.program, args)
        elif verb in ("play",) or (args and args != ["none"] and verb not in ("bid", "name", "declare")
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
        drawn = self._drawn
        if drawn is not None and drawn[1] is action and drawn[0] is self._legal:  # drawn, nothing changed since
            play = drawn[2]
            if play is None:
                if drawn[0] is _UNLISTED:  # a generated decision's draw (fast_draw): its generated take
                    self._take_drawn(action)
                else:
                    self._apply_unchecked(action)
                return
            core = self.core  # generated trick play (fast_play), the hottest path
            n = len(self.actors)
            if not n % CHECKPOINT_EVERY and n:
                self._checkpoint_at(n)
            self._legal = None
            actor = core.tr_turn
            try:
                core.steps = 1
                if play(core, action.card):
                    self.program.advance(core, 1)
            except Exception as err:
                self._rolled_back(err)
            self.actions.append(action)
            self.actors.append(actor)
            return
        legal = self.legal_actions()
        if drawn is not None and drawn[1] is action and drawn[0] is legal:  # a subclass's own legal actions
            self._apply_unchecked(action)
            return
        if not isinstance(action, (Action, str)):
            raise TypeError(f"apply() takes an Action or its text, not {type(action).__name__}")
        if self.core.terminal:
            raise IllegalActionError(str(action), "the match is over")
        if isinstance(action, Action) and legal.find(action) >= 0:  # as listed: no parsing
            self._apply_unchecked(action)
            return
        text = self._canonical(action)
        i = legal.find(text)
        if i < 0:
            raise IllegalActionError(text, self.why_illegal(text))
        self._apply_unchecked(legal[i])

    def apply_unchecked(self, action: Action | str) -> None:
        """Deprecated: the same as :meth:`apply`, which is as cheap now."""
        warnings.warn("State.apply_unchecked is deprecated: use State.apply", DeprecationWarning, stacklevel=2)
        self.apply(action)

    def _apply_unchecked(self, action: Action) -> None:
        core = self.core
        n = len(self.actors)  # as many as the actions, and an array's len is cheaper
        if not n % CHECKPOINT_EVERY and n:
            self._checkpoint_at(n)
        self._legal = None
        ins = self.program.instructions[core.pc]
        take = ins.take
        try:
            if action.verb == "irregular":
                actor = ins.actor(core)
                self._start_irregularity(action)
            elif take is not None:  # generated: apply, returning who acted
                actor = take(core, action)
            else:
                actor = ins.actor(core)
                ins.apply(core, action)
            self.program.advance(core)
        except Exception as err:  # a rule failed at run time: the state goes back as it was
            self._rolled_back(err)
        self.actions.append(action)  # its text is read when the log is
        self.actors.append(actor)

    def _take_drawn(self, action: Action) -> None:
        """:meth:`_apply_unchecked` of an action a generated decision drew (``fast_draw``):
        a regular action (the random step draws none irregular) that its ``take`` carries out."""
        core = self.core
        n = len(self.actors)
        if not n % CHECKPOINT_EVERY and n:
            self._checkpoint_at(n)
        self._legal = None
        ins = self.program.instructions[core.pc]
        step = ins.take_step
        try:
            if step is not None:  # generated: take, and on to the next decision
                actor = step(core, action)
            else:
                actor = ins.take(core, action)  # type: ignore[misc]
                self.program.advance(core)
        except Exception as err:  # a rule failed at run time: the state goes back as it was
            self._rolled_back(err)
        self.actions.append(action)
        self.actors.append(actor)

    def _checkpoint_at(self, n: int) -> None:
        """Keep the core before action ``n`` (not 0: a failure then replays from a new core);
        encode the actions logged since, once :data:`~interpreter.logs.ENCODE_AT_LEAST` wait."""
        if self._checkpoint is None or self._checkpoint.n_actions != n:
            core = self.core
            self._checkpoint = Snapshot(self.program, core.copy(events=False), n, len(core.events))
            self.actions.compact(ENCODE_AT_LEAST)

    def _rolled_back(self, err: Exception) -> None:
        """Put the state back as it was before a failed action (from the last checkpoint,
        replaying the actions since) and raise the error, typed.

        Raises:
            GameError: ``err`` or, for a failure of the rules, a RuleRuntimeError.
        """
        self.core = self._replay_core()
        if isinstance(err, GameError) or not isinstance(err, _RULE_FAILURES):
            raise err
        raise RuleRuntimeError(f"the rules failed at run time ({type(err).__name__}: {str(err)[:200]})") from None

    def _replay_core(self) -> Core:
        prog, core, check = self.program, self.core, self._checkpoint
        if check is not None and check.n_actions <= len(self.actions):
            fresh = check.core.copy(events=False)
            fresh.events = core.events
            del fresh.events[check.n_events:]
            fresh.ev_room = 0  # (the log may be shorter than the checkpoint's room counts on: checked by emit)
            todo = self.actions[check.n_actions:]
        else:
            fresh = prog.new_core(core.seed, core.deck, core.first_dealer, table=core.table, decks=core.decks,
                                  reseeds=core.reseeds)
            prog.advance(fresh)
            todo = list(self.actions)
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
        irregular.start(self.program, self.core, action)

    # ------------------------------------------------------------ new matches
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
        new.actions = self.actions.copy()
        new.actors = array("b", self.actors)
        new._legal = self._legal
        new._checkpoint = None
        new._ids = self._ids
        new._drawn = None
        return new

    def snapshot(self) -> Snapshot:
        """This state's data now, to come back to with :meth:`restore` (undo, search)."""
        return Snapshot(self.program, self.core.copy(), len(self.actions), len(self.core.events),
                        self.actions.copy(), array("b", self.actors))

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
        self.actions = snapshot.actions.copy()
        self.actors = array("b", snapshot.actors)
        self._legal = None
        self._checkpoint = None
        self._ids = None
        self._drawn = None

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
        return state_from_json(text, new_game)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.to_dict() == other.to_dict() and self.observation(None) == other.observation(None)

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"<State {self.ruleset.name!r} seed={self.core.seed} actions={len(self.actions)} phase={self.phase!r}>"


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
        ArgumentError: other modes than the defaults, :mod:`interpreter.modes` never imported.
    """
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"new_game() takes a Ruleset (from tricklang.load), not {type(ruleset).__name__}")
    ruleset = ruleset.with_options(options)
    program = compile_ruleset(ruleset)
    if seed is None or type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED:  # (a bool is no seed)
        seed = checked_seed(secrets.randbelow(2**31) if seed is None else seed)
    cards = None if deck is None else prearranged(program, deck)
    later = later_decks(program, decks, cards is not None) if decks else {}  # (none given: none)
    seeds = later_seeds(reseeds) if reseeds else {}
    modal = selections != "all" or chance != "automatic"
    check_modes(program, mode, dealer, selections, chance, modal and bool(later or seeds))
    if modal:
        return _modal_game(ruleset, program, seed, cards, dealer, mode == "table", selections, chance)
    return _started(ruleset, program,
                    program.new_core(seed, cards, dealer, table=mode == "table", decks=later, reseeds=seeds))


def _modal_game(ruleset: Ruleset, program: Program, seed: int, cards: list[int] | None, dealer: int | None,
                table: bool, selections: str, chance: str) -> State:
    """A game in other selection or chance modes (see :mod:`interpreter.modes`).

    Raises:
        ArgumentError: :mod:`interpreter.modes` was never imported (only this module was).
        GameLimitError, RuleRuntimeError: as :func:`new_game`.
    """
    if _MODAL is None:  # only interpreter.state was imported, not the package's names nor modes
        raise ArgumentError(f"selections={selections!r}, chance={chance!r} need interpreter.modes: "
                            "call interpreter.new_game, or import interpreter.modes first")
    return _MODAL(ruleset, program, seed=seed, deck=cards, dealer=dealer, table=table,
                  selections=selections, chance=chance)


def _started(ruleset: Ruleset, program: Program, core: Core) -> State:
    """A plain :class:`State` of a new core, advanced to its first decision.

    Raises:
        GameLimitError, RuleRuntimeError: the rules fail before the first decision.
    """
    state = State.__new__(State)
    state.ruleset = ruleset
    state.program = program
    state.core = core
    state.actions = ActionLog()
    state.actors = array("b")
    state._legal = None
    state._checkpoint = None
    state._ids = None
    state._drawn = None
    try:
        program.advance(state.core)
    except GameError:
        raise
    except _RULE_FAILURES as err:  # every failure of the rules is a typed error
        raise RuleRuntimeError(f"the rules failed at run time ({type(err).__name__}: {str(err)[:200]})") from None
    return state
