"""Remedies that reach into trick play and into who deals: ``P leads`` (the trick in
progress starts again with P to lead), ``replay the tricks`` (trick play starts again
from its first trick) and ``P becomes dealer`` (the roles follow him).

The first two run only in an irregularity offered during play (the checker's
``remedy-outside-play``; ``replay the tricks`` also at the pause after the last card,
``during end_of_play``): the interrupted decision is then the trick play, whose
instruction is found through ``core.calls``. Nothing here knows any particular game.
"""

from __future__ import annotations

from typing import Any, cast

from . import events as ev
from .cards import NO_TRUMP
from .core import Core
from .errors import RuleRuntimeError
from .flow import Instruction
from .pauses import RefereePause
from .program import Fn, Program
from .tricks import Tricks


def _interrupted_tricks(prog: Program, core: Core, line: int, what: str, finished: bool = False) -> Tricks:
    """The trick play an irregularity interrupted; with ``finished``, also one just over,
    whose last card was followed by the referee's pause (``during end_of_play``): the
    remedy then returns to that trick play rather than to the pause.

    Raises:
        RuleRuntimeError: no trick play is in progress (or, with ``finished``, just over).
    """
    ins = prog.instructions[core.calls[-1]] if core.calls else None
    if finished and isinstance(ins, RefereePause) and ins.tricks_at >= 0:
        core.calls[-1] = ins.tricks_at
        return cast(Tricks, prog.instructions[ins.tricks_at])
    if not isinstance(ins, Tricks) or not core.tr_active:
        raise RuleRuntimeError(f"line {line}: {what} needs a trick play in progress")
    return ins


def _undo_first_lead_trump(tricks: Tricks, prog: Program, core: Core) -> None:
    """`the first card led sets trump`: the first lead is taken back, so is the trump it set."""
    if tricks.sets_trump and core.tr_no == 0:
        core.trump = NO_TRUMP
        core.ti = prog.tables.nsuits


def _emit(prog: Program, core: Core, event: dict[str, Any], laws: tuple[str, ...]) -> None:
    if laws:
        event["laws"] = list(laws)
    prog.emit(core, event)


class Leads(Instruction):
    """`P leads`: the cards played to the trick in progress go back to the hands of those
    who played them, and P leads it (a lead out of turn that stands, a lead taken back)."""

    def __init__(self, prog: Program, player: Fn) -> None:
        super().__init__(prog)
        self.player = player

    def run(self, core: Core) -> None:
        prog = self.prog
        tricks = _interrupted_tricks(prog, core, self.line, "'P leads'")
        p = self.player(core)
        back = list(zip(core.tr_players, core.tr_cards, strict=True))
        for q, c in back:
            core.zones[prog.hand + q].append(c)
            if core.tr_no == 0:
                core.played[q] = False  # it was his first card of the deal
        if back:
            _undo_first_lead_trump(tricks, prog, core)
        if tricks.window_slot >= 0:
            core.vars[tricks.window_slot] = None  # a window opened by the lead closes with it
        core.tr_cards = []
        core.tr_players = []
        core.tr_leader = core.tr_turn = p
        codes = prog.tables.codes
        _emit(prog, core, {"type": "leads", "player": p, "taken_back": [codes[c] for _, c in back]}, self.laws)
        core.pc += 1


class ReplayTricks(Instruction):
    """`replay the tricks`: every card played this deal goes back to the hand of the player
    who played it (from the tricks won and the trick in progress), the tricks won are
    forgotten, and trick play starts again from its first trick with its first leader."""

    def run(self, core: Core) -> None:
        prog = self.prog
        tricks = _interrupted_tricks(prog, core, self.line, "'replay the tricks'", finished=True)
        index = prog.tables.index
        played_by: dict[int, int] = {}
        for entry in core.events[core.deal_events:]:
            full = ev.render(prog, entry)[0]
            if full["type"] == "play":
                played_by[index[full["card"]]] = full["player"]
        returned: list[int] = []
        instances = len(prog.sides) if prog.won_kind == "side" else prog.n
        for z in range(prog.won, prog.won + instances):
            returned += [c for c in core.zones[z] if c in played_by]
            core.zones[z] = [c for c in core.zones[z] if c not in played_by]
        returned += core.tr_cards
        for c in returned:
            core.zones[prog.hand + played_by[c]].append(c)
            core.taken_by[c] = -1
        core.tricks_won = [0] * prog.n
        core.broken = [False] * len(prog.lead_patterns)
        core.played = [False] * prog.n
        core.tr_no = 0  # before undoing a trump set by the first lead
        _undo_first_lead_trump(tricks, prog, core)
        if tricks.window_slot >= 0:
            core.vars[tricks.window_slot] = None
        core.tr_active = False  # the trick play starts again when the remedy returns to it
        core.tr_cards = []
        core.tr_players = []
        _emit(prog, core, {"type": "replay", "count": len(returned)}, self.laws)
        core.pc += 1


class BecomesDealer(Instruction):
    """`P becomes dealer`: P is the dealer from now on; the roles defined from the dealer
    follow him, and the next deal passes on from him."""

    def __init__(self, prog: Program, player: Fn) -> None:
        super().__init__(prog)
        self.player = player

    def run(self, core: Core) -> None:
        prog = self.prog
        p = self.player(core)
        if p != core.dealer:
            core.dealer = p
            roles = {name: fn(core) for name, fn in prog.seat_roles.items()}
            _emit(prog, core, {"type": "dealer", "dealer": p, "roles": roles}, self.laws)
        core.pc += 1
