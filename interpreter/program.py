"""A compiled ruleset: card tables, zone layout, instructions and the match flow.

A :class:`Program` is built once per ruleset (see :mod:`interpreter.compiler`) and
shared, read-only, by every state of every game played with it. It drives a
:class:`~interpreter.core.Core`: ``advance`` runs automatic steps until a player
must decide, or the match is over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tricklang.bounds import DEFAULT_DEAL_LIMIT

from . import events as ev
from . import seeding
from .cards import NO_TRUMP, CardTables
from .chance import draw
from .core import Core
from .errors import GameLimitError
from .logs import SEAL_AT_LEAST, EventLog

if TYPE_CHECKING:
    from .instructions import Instruction

MAX_STEPS_PER_DEAL = 100_000
"""Automatic steps allowed between two decisions (a shuffle counts one per card)
before :class:`GameLimitError` is raised."""

MAX_EVENTS_PER_DEAL = 20_000
"""Events one deal may log (scores, moves, plays...) before :class:`GameLimitError`."""

MAX_EVENTS_PER_MATCH = 1_000_000
"""Events one match may log before :class:`GameLimitError`."""

Fn = Callable[[Core], Any]


class ZoneInfo:
    """One zone instance: a declared zone, and whose copy it is (seat or side)."""

    __slots__ = ("name", "kind", "owner", "visibility", "mask")

    def __init__(self, name: str, kind: str, owner: int, visibility: str, mask: int) -> None:
        self.name = name
        self.kind = kind  # "player", "side" or "shared"
        self.owner = owner  # seat or side index, -1 for shared
        self.visibility = visibility
        self.mask = mask  # seats that see the contents (all bits for public)


class Program:
    """See the module docstring."""

    def __init__(self, tables: CardTables, players: int, teams: tuple[tuple[int, ...], ...]) -> None:
        self.tables = tables
        self.n = players
        self.sides: list[list[int]] = [list(t) for t in teams] if teams else [[p] for p in range(players)]
        self.side_of = [0] * players
        for s, members in enumerate(self.sides):
            for p in members:
                self.side_of[p] = s
        self.all_mask = (1 << players) - 1
        self.zones: list[ZoneInfo] = []
        self.zone_base: dict[str, int] = {}
        self.zone_kind: dict[str, str] = {}
        self.pack = -1
        self.hand = -1
        self.won = -1
        self.won_kind = "side"
        self.instructions: list[Instruction] = []
        self.var_names: list[str] = []
        self.target: Fn | None = None
        self.at_once = False
        self.ties: Fn | None = None
        self.ties_is_player = False
        self.rotation = 1
        self.first_dealer: int | None = None
        self.deal_limit = DEFAULT_DEAL_LIMIT
        self.lead_patterns: list[list[list[bool]]] = []
        self.options: dict[str, Any] = {}
        self.declaration_names: list[str] = []
        self.deal_end = 0  # index of the FinishDeal instruction; irregularities follow it
        self.irregularities: list[Any] = []
        self.counters: dict[str, str] = {}  # counter name -> "player" | "side" | "shared"
        self.seat_roles: dict[str, Fn] = {}  # roles that depend only on the dealer, for transcripts
        self.lowest_wins = False
        self.auctions = True  # whether the program has an auction (the compiler says when not)
        self.holders = True  # whether it reads who was first given a card (`holder of`...; the compiler says)

    # ------------------------------------------------------------ layout
    def add_zone(self, name: str, kind: str, visibility: str) -> None:
        self.zone_base[name] = len(self.zones)
        self.zone_kind[name] = kind
        owners = range(self.n) if kind == "player" else range(len(self.sides)) if kind == "side" else [-1]
        for owner in owners:
            if visibility == "public":
                mask = self.all_mask
            elif visibility == "owner":
                mask = (1 << owner) if kind == "player" else sum(1 << p for p in self.sides[owner]) if kind == "side" else 0
            else:
                mask = 0
            self.zones.append(ZoneInfo(name, kind, owner, visibility, mask))

    def zone_label(self, z: int) -> str:
        info = self.zones[z]
        if info.kind == "player":
            return f"{info.name} of seat {info.owner}"
        if info.kind == "side":
            return f"{info.name} of side {info.owner}"
        return info.name

    # ------------------------------------------------------------ events
    def emit(self, core: Core, full: dict[str, Any] | ev.Entry, public: dict[str, Any] | None = None,
             mask: int = 0) -> None:
        """Log an event: a compact entry of :mod:`interpreter.events`, or a rare kind as a dict
        that seats outside ``mask`` see as ``public`` (None: all see ``full``).

        Raises:
            GameLimitError: the deal or the match has logged too many events
                (:data:`MAX_EVENTS_PER_DEAL`, :data:`MAX_EVENTS_PER_MATCH`).
        """
        events = core.events
        n = events._sealed + len(events._tail)  # len(events), without a call: the hottest check
        if n - core.deal_events >= MAX_EVENTS_PER_DEAL or n >= MAX_EVENTS_PER_MATCH:
            limit = "deal" if n - core.deal_events >= MAX_EVENTS_PER_DEAL else "match"
            raise GameLimitError(f"the {limit} logged more than {MAX_EVENTS_PER_DEAL if limit == 'deal' else MAX_EVENTS_PER_MATCH} events")
        events.append(full if type(full) is tuple else (full, public, mask))

    def emit_all(self, core: Core, entries: tuple[ev.Entry, ...]) -> None:
        """Log several compact entries (of :mod:`interpreter.events`), in order: as many
        :meth:`emit` calls, the limits checked once (the deal's ``dealt`` events). An ``emit``
        installed on this program (the invariant harness's hook) is called for each.

        Raises:
            GameLimitError: as :meth:`emit`, at the entry over the limit (those before it logged).
        """
        events = core.events
        n = events._sealed + len(events._tail) + len(entries)
        if n - core.deal_events > MAX_EVENTS_PER_DEAL or n > MAX_EVENTS_PER_MATCH or "emit" in self.__dict__:
            for entry in entries:
                self.emit(core, entry)
            return
        events._tail.extend(entries)

    # ------------------------------------------------------------ the match
    def note_hand(self, core: Core, z: int, cards: list[int]) -> None:
        """Remember who was first given each card this deal (for `original holder of`; only
        in a program that reads it)."""
        if not self.holders:
            return
        info = self.zones[z]
        if info.name == "hand":
            dealt_to = core.dealt_to
            for c in cards:
                if dealt_to[c] < 0:
                    dealt_to[c] = info.owner

    def zone_mask(self, core: Core, z: int) -> int:
        """The seats that see zone instance z now (exposed zones are seen by all)."""
        return self.all_mask if z in core.exposed else self.zones[z].mask

    def new_core(self, seed: int, deck: list[int] | None, dealer: int | None, table: bool = False,
                 tape: tuple[int, ...] | None = None, decks: dict[int, list[int]] | None = None,
                 reseeds: dict[int, int] | None = None) -> Core:
        """A match at its start. With a ``tape`` chance is explicit (see :mod:`interpreter.chance`);
        ``decks`` prearranges deals by index (0: the first), ``reseeds`` gives later deals
        their own seeds (see State.prearrange and State.reseed).

        Raises:
            ChanceNeeded: explicit chance, and the tape holds too few outcomes.
        """
        core = Core()
        core.decks = dict(decks) if decks else {}
        core.reseeds = dict(reseeds) if reseeds else {}
        core.table = table
        core.tape = tape
        core.tape_pos = 0
        core.zones = [[] for _ in self.zones]
        core.vars = [None] * len(self.var_names)
        core.scores = [0] * len(self.sides)
        core.counters = {
            name: [0] * (self.n if kind == "player" else len(self.sides) if kind == "side" else 1)
            for name, kind in self.counters.items()
        }
        core.seed = seed
        core.deck = deck
        core.deal_no = 0
        core.terminal = False
        core.winner = -1
        core.last_deal = False
        core.events = EventLog()
        core.ev_room = 0  # (set by start_deal)
        core.steps = 0
        self._reset_auction(core)
        core.tr_cards, core.tr_players, core.calls = [], [], []  # kept while empty (_reset_deal)
        core.declared, core.exposed = set(), set()
        core.broken = []
        core.dealt_to = [-1] * self.tables.size
        core.taken_by = [-1] * self.tables.size
        if dealer is None:
            dealer = self.first_dealer
        if dealer is None:
            if tape is not None:  # a chance node before anything is dealt: the table is empty
                core.dealer = core.first_dealer = 0
                self._reset_deal(core)
                dealer = draw(core, "dealer", range(self.n), 1)[0]
            else:
                dealer = seeding.first_dealer(seed, self.n)
        core.first_dealer = dealer
        core.dealer = dealer
        self.start_deal(core)
        return core

    def pack_order(self, core: Core, deal_no: int) -> list[int]:
        """The pack of deal ``deal_no`` (0 for the first) as laid out, top last: the
        prearranged deck for that deal if one was given, else the deal's seeded shuffle
        (:func:`interpreter.seeding.deal_order`: it depends on the deal's seed and number only)."""
        if deal_no == 0 and core.deck is not None:
            return list(reversed(core.deck))
        if deal_no in core.decks:
            return list(reversed(core.decks[deal_no]))
        return seeding.deal_order(self.seed_of(core, deal_no) if core.reseeds else core.seed, deal_no, self.tables.size)

    @staticmethod
    def seed_of(core: Core, deal_no: int) -> int:
        """The seed of a deal's shuffle and random remedies: the match's seed, or the
        latest one given from that deal on (see State.reseed)."""
        seed = core.seed
        if core.reseeds:
            for start in sorted(core.reseeds):
                if start <= deal_no:
                    seed = core.reseeds[start]
        return seed

    def start_deal(self, core: Core) -> None:
        """Gather and shuffle the cards (or lay out the prearranged deck) and reset the deal.

        Raises:
            ChanceNeeded: explicit chance and too few outcomes (the cards are gathered).
        """
        for z in core.zones:
            if z:  # most zones are empty at a deal's end: no call for them
                z.clear()
        if core.tape is not None and not (core.deal_no == 0 and core.deck is not None) and core.deal_no not in core.decks:
            self._reset_deal(core)  # a chance node shows the table with the cards gathered
            order = draw(core, "deck", range(self.tables.size), self.tables.size)[::-1]
        else:
            order = self.pack_order(core, core.deal_no)
        core.zones[self.pack] = order
        self._reset_deal(core)
        core.steps += len(order)  # a shuffle counts, so a deal that always redeals is stopped
        self.emit(core, (ev.DEAL, core.deal_no + 1, core.dealer, self.deal_roles(core) if self.seat_roles else ()))

    def deal_roles(self, core: Core) -> tuple[int, ...]:
        """The seats of the roles that depend only on the dealer (:attr:`seat_roles`, in
        order), for the ``deal`` event (generated code replaces this on the instance)."""
        return tuple([fn(core) for fn in self.seat_roles.values()])

    def _reset_deal(self, core: Core) -> None:
        """The deal's own fields at its start. A list or set already empty is kept (each
        core has its own: :meth:`Core.copy` copies them); the auction's fields only in a
        program with an auction, who was given and who took each card only in one that
        reads them (elsewhere they keep what :meth:`new_core` gave them, or stale values
        nothing reads)."""
        n = self.n
        core.vars = [None] * len(self.var_names)
        core.trump = NO_TRUMP
        core.ti = self.tables.nsuits
        core.maker = -1
        core.bid = core.pc = core.tr_total = core.tr_no = core.chance = 0
        core.tr_active = False
        core.tr_leader = core.tr_turn = -1
        if core.tr_cards:
            core.tr_cards = []
        if core.tr_players:
            core.tr_players = []
        core.played = [False] * n
        if core.declared:
            core.declared = set()
        if self.lead_patterns:  # (without any, the empty list new_core gave stays)
            core.broken = [False] * len(self.lead_patterns)
        core.tricks_won = [0] * n
        if self.auctions:
            self._reset_auction(core)
        if core.calls:
            core.calls = []
        if core.exposed:
            core.exposed = set()
        core.deal_scores = core.scores[:]
        events = core.events
        if len(events._tail) >= SEAL_AT_LEAST:
            events.seal()  # the earlier deals' events are packed away (interpreter.logs)
        core.deal_events = events._sealed + len(events._tail)
        core.ev_room = min(core.deal_events + MAX_EVENTS_PER_DEAL, MAX_EVENTS_PER_MATCH) - events._sealed
        core.bids = [-1] * n
        if self.holders:
            core.dealt_to = [-1] * self.tables.size
            core.taken_by = [-1] * self.tables.size

    @staticmethod
    def _reset_auction(core: Core) -> None:
        core.au_active = False
        core.au_order = []
        core.au_pos = 0
        core.au_high = 0
        core.au_bidder = -1
        core.au_passed = []

    def redeal(self, core: Core, same_dealer: bool, laws: tuple[str, ...]) -> None:
        """Abandon the deal: its points are taken back and the cards dealt again."""
        core.scores = list(core.deal_scores)
        event: dict[str, Any] = {"type": "redeal", "by": "same dealer" if same_dealer else "next dealer",
                                 "scores": list(core.scores)}
        if laws:
            event["laws"] = list(laws)
        self.emit(core, event)
        core.deal_no += 1
        if core.deal_no >= self.deal_limit:
            self._abandon(core)
            return
        if not same_dealer:
            core.dealer = (core.dealer + self.rotation) % self.n
        self.start_deal(core)

    def end_deal(self, core: Core) -> None:
        """Score the match at the end of a deal and start the next one, or end the match."""
        self.emit(core, (ev.DEAL_END, core.deal_no + 1, tuple(core.scores)))
        if not self.at_once and self.target is not None:
            self._check_target_after_deal(core)
            if core.terminal:
                return
        if core.last_deal:
            self._finish_by_best_score(core)
            return
        core.deal_no += 1
        if core.deal_no >= self.deal_limit:
            self._abandon(core)
            return
        core.dealer = (core.dealer + self.rotation) % self.n
        self.start_deal(core)

    def _finish_by_best_score(self, core: Core) -> None:
        """The match's last deal is over: the best score wins (a tie: `ties go to`, else a draw)."""
        best = min(core.scores) if self.lowest_wins else max(core.scores)
        top = [s for s in range(len(self.sides)) if core.scores[s] == best]
        if len(top) > 1 and self.ties is not None:
            who = self.ties(core)
            if isinstance(who, int) and who >= 0:
                side = self.side_of[who] if self.ties_is_player else who
                if side in top:
                    self._finish(core, side, tie_break=True)
                    return
        if len(top) == 1:
            self._finish(core, top[0])
            return
        core.terminal = True
        core.winner = -1
        self.emit(core, {"type": "match_end", "winner": None, "drawn": True, "tied": top,
                         "reason": "the last deal left " + " and ".join(map(str, top)) + " level",
                         "scores": list(core.scores)})

    def _abandon(self, core: Core) -> None:
        # The match ends without a winner (e.g. random bidders in a set-back game
        # can go on for ever). Not an error: simulations go on.
        core.terminal = True
        core.winner = -1
        self.emit(core, {"type": "match_end", "winner": None, "abandoned": True,
                         "reason": f"no side reached the target within {self.deal_limit} deals",
                         "scores": list(core.scores)})

    def add_score(self, core: Core, side: int, amount: int, label: str, laws: tuple[str, ...]) -> None:
        core.scores[side] += amount
        self.emit(core, (ev.SCORE, side, amount, label, laws, tuple(core.scores)))
        if self.at_once and self.target is not None and amount > 0:
            if self.lowest_wins:
                self._check_target_after_deal(core)
            elif core.scores[side] >= self.target(core):
                self._finish(core, side)

    def _check_target_after_deal(self, core: Core) -> None:
        assert self.target is not None
        target = self.target(core)
        reached = [s for s in range(len(self.sides)) if core.scores[s] >= target]
        if not reached:
            return
        if len(reached) > 1 and self.ties is not None and not self.lowest_wins:
            who = self.ties(core)
            if isinstance(who, int) and who >= 0:
                side = self.side_of[who] if self.ties_is_player else who
                if side in reached:
                    self._finish(core, side, tie_break=True)
                    return
        if self.lowest_wins:
            # Penalty points: the game ends when someone reaches the target,
            # and the lowest score wins.
            low = min(core.scores)
            top = [s for s in range(len(self.sides)) if core.scores[s] == low]
        else:
            best = max(core.scores[s] for s in reached)
            top = [s for s in reached if core.scores[s] == best]
        if len(top) == 1:
            self._finish(core, top[0])

    def _finish(self, core: Core, side: int, tie_break: bool = False) -> None:
        core.terminal = True
        core.winner = side
        event: dict[str, Any] = {"type": "match_end", "winner": side, "scores": list(core.scores)}
        if tie_break:
            event["tie_break"] = True
        self.emit(core, event)

    def advance(self, core: Core, steps: int = 0) -> None:
        """Run automatic steps until a decision is needed or the match ends (``steps``:
        those already taken since the last decision).

        Raises:
            GameLimitError: more than :data:`MAX_STEPS_PER_DEAL` steps without a decision.
        """
        instructions = self.instructions
        core.steps = steps
        while not core.terminal:
            ins = instructions[core.pc]
            steps = core.steps + 1
            core.steps = steps
            if steps > MAX_STEPS_PER_DEAL:
                raise GameLimitError(f"more than {MAX_STEPS_PER_DEAL} automatic steps without a decision")
            if ins.decision:
                if ins.ready(core):
                    return
            else:
                ins.run(core)
