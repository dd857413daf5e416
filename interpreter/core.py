"""The mutable data of one game in progress, kept flat so that copying is cheap."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .logs import EventLog

# An event: a compact entry of interpreter.events (rendered on demand by events.render).
Event = tuple[Any, ...] | int


class Core:
    """Everything that changes during a match. The :class:`Program` gives it meaning."""

    __slots__ = (
        "zones", "vars", "scores", "dealer", "deal_no", "trump", "ti", "maker", "bid", "pc",
        "tr_active", "tr_total", "tr_no", "tr_leader", "tr_turn", "tr_cards", "tr_players",
        "played", "declared", "broken", "tricks_won",
        "au_active", "au_order", "au_pos", "au_high", "au_bidder", "au_passed",
        "terminal", "winner", "events", "steps", "seed", "reseeds", "deck", "decks", "first_dealer",
        "table", "calls", "exposed", "deal_scores", "deal_events", "ev_room", "chance",
        "bids", "counters", "dealt_to", "taken_by", "last_deal", "tape", "tape_pos",
    )

    zones: list[list[int]]
    vars: list[Any]
    scores: list[int]
    dealer: int
    deal_no: int
    trump: int
    ti: int
    maker: int
    bid: int
    pc: int
    tr_active: bool
    tr_total: int
    tr_no: int
    tr_leader: int
    tr_turn: int
    tr_cards: list[int]
    tr_players: list[int]
    played: list[bool]
    declared: set[tuple[str, int]]
    broken: list[bool]
    tricks_won: list[int]
    au_active: bool
    au_order: list[int]
    au_pos: int
    au_high: int
    au_bidder: int
    au_passed: list[bool]
    terminal: bool
    winner: int
    events: EventLog
    steps: int
    seed: int
    reseeds: dict[int, int]  # deal index -> the seed of that deal and later ones; replaced, never mutated
    deck: list[int] | None
    decks: dict[int, list[int]]  # prearranged decks by deal index (0: the first); replaced, never mutated
    first_dealer: int
    table: bool
    calls: list[int]
    exposed: set[int]
    deal_scores: list[int]
    deal_events: int
    # How long the event log's open tail may grow before the limits on events are near:
    # below it, generated code appends an entry without Program.emit's checks (0: always checked).
    ev_room: int
    chance: int
    bids: list[int]
    counters: dict[str, list[int]]
    dealt_to: list[int]
    taken_by: list[int]
    last_deal: bool
    tape: tuple[int, ...] | None  # explicit chance: the outcomes given so far (see interpreter.chance)
    tape_pos: int

    def copy(self, events: bool = True) -> Core:
        """An independent copy (lists copied, immutable values shared); with
        ``events=False`` the event log is shared, not copied (a copy shares its sealed chunks)."""
        new = Core.__new__(Core)
        _copy_slots(self, new)
        new.zones = [list(z) for z in self.zones]
        new.vars = list(self.vars)
        new.scores = list(self.scores)
        new.tr_cards = list(self.tr_cards)
        new.tr_players = list(self.tr_players)
        new.played = list(self.played)
        new.declared = set(self.declared)
        new.broken = list(self.broken)
        new.tricks_won = list(self.tricks_won)
        new.au_order = list(self.au_order)
        new.au_passed = list(self.au_passed)
        if events:
            new.events = self.events.copy()
        new.calls = list(self.calls)
        new.exposed = set(self.exposed)
        new.bids = list(self.bids)
        new.counters = {k: list(v) for k, v in self.counters.items()}
        new.dealt_to = list(self.dealt_to)
        new.taken_by = list(self.taken_by)
        return new


def _slot_copier() -> Callable[[Core, Core], None]:
    """``new.<slot> = old.<slot>`` for every slot of :class:`Core`, written out once at
    import (from the slot names of this module only): a third of a loop of
    ``getattr``/``setattr``'s cost, and :meth:`Core.copy` runs at every checkpoint and clone."""
    source = "def copy_slots(old, new):\n" + "".join(f"    new.{name} = old.{name}\n" for name in Core.__slots__)
    namespace: dict[str, Any] = {"__builtins__": {}}
    exec(compile(source, "<interpreter.core slots>", "exec"), namespace)  # noqa: S102 - our own names only
    copier: Callable[[Core, Core], None] = namespace["copy_slots"]
    return copier


_copy_slots = _slot_copier()
