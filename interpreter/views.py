"""Public, read-only views of a game in progress, for players, the harness and tests.

They speak card codes (``'KS'``) and seats, never the interpreter's internals, so
that code built on them keeps working when the internals change.

>>> import tricklang, interpreter
>>> state = interpreter.new_game(tricklang.load("rules/ecarte.trick"), seed=42)
>>> state.decision
Decision(kind='choice', seat=1, phase='choice', low=None, high=None)
>>> state.apply("propose"); state.apply("accept")
>>> state.decision
Decision(kind='select', seat=1, phase='discard', low=1, high=5)
>>> state.trump, state.is_trump("9H"), state.card_strength("KH") > state.card_strength("9H")
('hearts', True, True)
>>> state.history
[(1, 'propose'), (0, 'accept')]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tricklang.diagnostics import brief

from . import irregular
from .cards import NO_TRUMP
from .errors import ArgumentError
from .events import render
from .instructions import Auction, Bid, Choose, NameTrump, Select, Tricks
from .pauses import RefereePause

if TYPE_CHECKING:
    from array import array

    from .core import Core
    from .legal import LegalActions
    from .logs import ActionLog
    from .program import Program
    from .state import Outcome

_KINDS: tuple[tuple[type, str], ...] = (
    (Tricks, "play"), (Select, "select"), (Choose, "choice"), (Auction, "auction"),
    (Bid, "bid"), (NameTrump, "name_trump"), (RefereePause, "pause"),
)


@dataclass(frozen=True)
class Decision:
    """The decision pending: its kind, the seat to act, the phase name and its bounds.

    ``kind`` is one of ``play``, ``select`` (discard, take, rob: choosing cards),
    ``choice`` (named options), ``auction``, ``bid`` (a player's own bid),
    ``name_trump`` and, in table mode, ``pause`` (a referee's pause: ``continue`` or an
    irregularity; see :mod:`interpreter.pauses`); ``phase`` is :attr:`State.phase` (a selection's verb, e.g.
    ``discard``). ``low``/``high`` bound the number of cards of a selection and the
    bid of an auction or own bid; None for the other kinds.
    """

    kind: str
    seat: int
    phase: str
    low: int | None = None
    high: int | None = None


class Views:
    """The public views of :class:`~interpreter.State` (mixed into it)."""

    __slots__ = ()
    program: Program
    core: Core
    actions: ActionLog
    actors: array[int]

    if TYPE_CHECKING:  # defined by State
        @property
        def trump(self) -> str | None: ...
        @property
        def phase(self) -> str: ...
        @property
        def current_player(self) -> int | None: ...
        def outcome(self) -> Outcome | None: ...
        def legal_actions(self) -> LegalActions: ...

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every action taken so far, with the seat that took it: ``[(seat, text), ...]``."""
        return list(zip(self.actors, self.actions, strict=True))

    @property
    def decision(self) -> Decision | None:
        """The decision pending (None when the match is over)."""
        core = self.core
        if core.terminal:
            return None
        ins = self.program.instructions[core.pc]
        kind = next(k for cls, k in _KINDS if isinstance(ins, cls))
        seat = ins.actor(core)
        low = high = None
        if isinstance(ins, Select):  # (the legal actions are listed only for the bounds)
            legal = self.legal_actions()
            if legal.selection is not None:
                low, high = legal.selection.lo, legal.selection.hi
        elif isinstance(ins, (Auction, Bid)):
            bids = [int(a.args[0]) for a in self.legal_actions() if a.verb == "bid"]
            if bids:
                low, high = min(bids), max(bids)
        return Decision(kind, seat, ins.phase(core), low, high)

    # ------------------------------------------------------------ cards and tricks
    @property
    def cards(self) -> list[str]:
        """Every card of the deck, in deck order (suit by suit, ranks high to low)."""
        return list(self.program.tables.codes)

    @property
    def suits(self) -> list[str]:
        """The suits' names, in the order the rule file lists them."""
        return list(self.program.tables.suit_names)

    @property
    def player_count(self) -> int:
        return self.program.n

    def _card(self, code: str) -> int:
        return self.program.tables.parse_card(code)

    def _trump(self, trump: str | None | bool) -> tuple[int, int]:
        """(trump suit, table index) for a trump given by name, None (no trump) or True (now)."""
        if trump is True:
            return self.core.trump, self.core.ti
        tables = self.program.tables
        if trump is None or trump is False:
            return NO_TRUMP, tables.nsuits
        suit = tables.suit_names.index(trump)
        return suit, suit

    def is_trump(self, card: str, trump: str | None | bool = True) -> bool:
        """Whether a card is a trump now (or were ``trump`` the trump suit: a suit's name,
        or None for no trump): its effective suit is the trump suit.

        Raises:
            InvalidActionError: an unknown card code.
            ValueError: an unknown suit.
        """
        suit, ti = self._trump(trump)
        return suit != NO_TRUMP and self.program.tables.eff_suit[ti][self._card(card)] == suit

    def effective_suit(self, card: str) -> str:
        """The suit a card belongs to now (Cinch's Left Pedro, Euchre's left bower: the trump suit)."""
        tables = self.program.tables
        return tables.suit_names[tables.eff_suit[self.core.ti][self._card(card)]]

    def card_strength(self, card: str, trump: str | None | bool = True) -> int:
        """How high a card ranks under the current trump (or ``trump``, as for
        :meth:`is_trump`): a trump ranks above every non-trump (1000 + its place in the
        trump order, 1 for the lowest), another card by its rank in its suit (1 for the
        lowest). Compare cards of different suits only as trump against non-trump."""
        tables = self.program.tables
        suit, ti = self._trump(trump)
        c = self._card(card)
        if suit != NO_TRUMP and tables.eff_suit[ti][c] == suit:
            return 1000 + tables.trump_strength[ti][c]
        return tables.plain[c]

    def trick_power(self, card: str, led: str | None = None) -> int:
        """How strongly a card plays to a trick led in suit ``led`` (default: the current
        trick's suit; the card's own suit when it would lead): 0 if it cannot win it."""
        tables, core = self.program.tables, self.core
        c = self._card(card)
        if led is not None:
            suit = tables.suit_names.index(led)
        elif core.tr_cards:
            suit = tables.eff_suit[core.ti][core.tr_cards[0]]
        else:
            suit = tables.eff_suit[core.ti][c]
        return tables.power[core.ti][suit][c]

    @property
    def current_trick(self) -> list[tuple[int, str]]:
        """The cards played to the trick in progress, in order, as ``(seat, code)``."""
        codes = self.program.tables.codes
        return [(p, codes[c]) for p, c in zip(self.core.tr_players, self.core.tr_cards, strict=True)]

    @property
    def trick_number(self) -> int:
        """The trick in progress or next, counted from 1 within the deal."""
        return self.core.tr_no + 1

    def trick_winner(self) -> int | None:
        """The seat winning the trick in progress so far (None when none is in progress)."""
        core = self.core
        if not core.tr_cards:
            return None
        tables = self.program.tables
        power = tables.power[core.ti][tables.eff_suit[core.ti][core.tr_cards[0]]]
        best = max(range(len(core.tr_cards)), key=lambda i: power[core.tr_cards[i]])
        return core.tr_players[best]

    @property
    def tricks_won(self) -> list[int]:
        """Tricks won this deal, per seat."""
        return list(self.core.tricks_won)

    @property
    def maker(self) -> int | None:
        """The seat that made the contract this deal, if any."""
        return self.core.maker if self.core.maker >= 0 else None

    @property
    def bid(self) -> int:
        """The contract's bid this deal (0 when there is none)."""
        return self.core.bid

    def counter(self, name: str) -> list[int]:
        """A counter's values (per seat, per side, or one value), e.g. Spades' bags.

        Raises:
            KeyError: the rule file declares no such counter.
        """
        return list(self.core.counters[name])

    # ------------------------------------------------------------ observations, events and zones
    @property
    def event_count(self) -> int:
        """How many events the match has logged (``events(seat, start=n)`` gives those from ``n`` on)."""
        return len(self.core.events)

    def events(self, player: int | None = None, start: int = 0) -> list[dict[str, Any]]:
        """The event log, as seen by a seat (None: everything, for referees and transcripts),
        from event number ``start`` on (0: all of it).

        Raises:
            TypeError, ArgumentError: as :meth:`observation`.
        """
        if player is not None:
            self._seat(player)
        out = []
        prog = self.program
        for entry in self.core.events[start:]:
            full, public, mask = render(prog, entry)
            if player is None or public is None or mask >> player & 1:
                out.append(full)
            else:
                out.append(public)
        return out

    def observation(self, player: int | None) -> dict[str, Any]:
        """What a seat may know, as a JSON-able dict (None: the omniscient view).

        Hidden zones show only their size; the event log is filtered by the
        visibility the rule file declares for each zone.

        Raises:
            TypeError: ``player`` is not an int or None (``True`` is not a seat).
            ArgumentError: no such seat.
        """
        if player is not None:
            self._seat(player)
        prog, core = self.program, self.core
        codes = prog.tables.codes
        zones: dict[str, Any] = {}
        for z, info in enumerate(prog.zones):
            cards = core.zones[z]
            if player is None or prog.zone_mask(core, z) >> player & 1:
                shown: Any = sorted(codes[c] for c in cards) if info.name != prog.zones[prog.pack].name else [codes[c] for c in cards]
                if info.name == "hand" or info.visibility != "hidden":
                    shown = [codes[c] for c in sorted(cards, key=prog.tables.order[core.ti].__getitem__)]
                value: Any = {"cards": shown, "count": len(cards)}
            else:
                value = {"count": len(cards)}
            if info.kind == "shared":
                zones[info.name] = value
            else:
                zones.setdefault(info.name, {})[str(info.owner)] = value
        obs: dict[str, Any] = {
            "seat": player,
            "deal": core.deal_no + 1,
            "dealer": core.dealer,
            "scores": list(core.scores),
            "trump": self.trump,
            "maker": core.maker if core.maker >= 0 else None,
            "bid": core.bid,
            "phase": self.phase,
            "current_player": self.current_player,
            "trick": [[p, codes[c]] for p, c in zip(core.tr_players, core.tr_cards, strict=False)],
            "tricks_won": list(core.tricks_won),
            "zones": zones,
            "events": self.events(player),
        }
        if player is not None and self.current_player == player or player is None and not core.terminal:
            legal = self.legal_actions()
            obs["legal_actions"] = [a.text for a in legal if player is None or irregular.seen_by(self.program, core, a, player)]
        if core.terminal:
            outcome = self.outcome()
            assert outcome is not None
            obs["winner"] = list(outcome.winners)
        return obs

    def _seat(self, player: object) -> int:
        """``player`` checked as a seat of this game."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise TypeError(f"a seat is an int, not {type(player).__name__}")
        if not 0 <= player < self.program.n:
            raise ArgumentError(f"no seat {brief(player)}: this game has seats 0..{self.program.n - 1}")
        return player

    def hand(self, player: int) -> list[str]:
        """A seat's cards (omniscient: for referees, tests and transcripts).

        Raises:
            TypeError, ArgumentError: as :meth:`observation`.
        """
        self._seat(player)
        prog = self.program
        cards = self.core.zones[prog.hand + player]
        return [prog.tables.codes[c] for c in sorted(cards, key=prog.tables.order[self.core.ti].__getitem__)]

    def zone(self, name: str, owner: int | None = None) -> list[str]:
        """The cards of a zone, top last (omniscient); ``owner``: the seat or side of a
        zone declared per player or per side.

        Raises:
            TypeError: ``name`` is not a string or ``owner`` not an int.
            ArgumentError: no such zone, or no such owner.
        """
        prog = self.program
        if not isinstance(name, str):
            raise TypeError(f"a zone name is a str, not {type(name).__name__}")
        if name not in prog.zone_base:
            raise ArgumentError(f"no zone named {name[:64]!r} (zones: {', '.join(prog.zone_base)})")
        base, kind = prog.zone_base[name], prog.zone_kind[name]
        if owner is not None and (isinstance(owner, bool) or not isinstance(owner, int)):
            raise TypeError(f"a zone's owner is an int, not {type(owner).__name__}")
        owners = prog.n if kind == "player" else len(prog.sides) if kind == "side" else 1
        if not 0 <= (owner or 0) < owners:
            raise ArgumentError(f"zone {name!r} has no owner {brief(owner)} (0..{owners - 1})")
        z = base + (owner or 0) if kind != "shared" else base
        return [prog.tables.codes[c] for c in self.core.zones[z]]
