"""Instructions for taking a zone into the hand and keeping N, cutting, and moving under.

``P takes all from Z and keeps N`` (robbing the deck in Cinch, Euchre's up-card, a
widow or a kitty): P sees Z and ends with the N cards he chooses among his hand and Z
together; the others go back to Z, or to the rest zone. ``cut Z`` moves a random number of cards from
the top of Z under it; ``move ... to bottom of Z`` puts cards under those already there.
The top of a zone is the end of its list. Nothing here knows any particular game.
"""

from __future__ import annotations

from typing import Any

from . import events as ev
from . import seeding
from .core import Core
from .instructions import Instruction, Move, Select
from .program import Fn, Program


def keep_instructions(prog: Program, verb: str, player: Fn, count: Fn, source: Fn, rest: Fn | None) -> list[Instruction]:
    """`P takes all from Z and keeps N`, as two choices of cards.

    He sees Z and takes from it the cards he wants (at least enough to reach N, at
    most N: nothing he keeps can come from more than N cards of Z), then discards
    down to N cards to the rest zone (and what he left in Z follows them there).
    Every set of N cards of his hand and Z together
    (all of them when there are fewer) can be reached, while each decision stays
    small (one choice among all the N-card sets could run to tens of thousands of
    actions, e.g. 6 cards of 22 when robbing a full Cinch stock).
    """
    hand = prog.hand

    def at_least(core: Core) -> int:
        wanted: int = count(core)
        return max(0, wanted - len(core.zones[hand + player(core)]))

    take = Select(prog, verb, player, "range", at_least, count, None, source, lambda core: hand + player(core),
                  dest_is_hand=True)
    drop = Select(prog, "discard", player, "to", count, None, None, lambda core: hand + player(core),
                  rest or source, source_is_hand=True)
    if rest is None:
        return [take, drop]
    return [take, drop, Move(prog, "all", None, None, source, rest)]


class Cut(Instruction):
    """`cut Z`: a random number of cards, at least one and never all, go from the top of Z under it."""

    def __init__(self, prog: Program, zone: Fn) -> None:
        super().__init__(prog)
        self.zone = zone

    def run(self, core: Core) -> None:
        z = self.zone(core)
        cards = core.zones[z]
        if len(cards) >= 2:
            core.chance += 1
            key = seeding.chance_key(self.prog.seed_of(core, core.deal_no), core.deal_no, core.chance)
            k = 1 + seeding.below(key, len(cards) - 1)
            core.zones[z] = cards[len(cards) - k:] + cards[:len(cards) - k]
            event: dict[str, Any] = {"type": "cut", "zone": self.prog.zone_label(z), "count": k}
            if self.laws:
                event["laws"] = list(self.laws)
            self.prog.emit(core, event)
        core.pc += 1


class MoveUnder(Move):
    """`move ... to bottom of Z`: the cards go under those already in Z (in the order moved)."""

    def run(self, core: Core) -> None:
        mark = len(core.events)
        super().run(core)
        if len(core.events) == mark:
            return  # nothing moved
        full, public, mask = ev.render(self.prog, core.events[mark])
        moved = [self.prog.tables.index[c] for c in full["cards"]]
        d = self.dest(core)
        cards = core.zones[d]
        core.zones[d] = moved + cards[:len(cards) - len(moved)]  # Move put them on top: the last ones listed
        full["under"] = True
        if public is not None:
            public["under"] = True
        core.events[mark] = (full, public, mask)  # the rare kind, as a dict that says "under"
