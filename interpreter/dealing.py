"""Automatic instructions that move cards: dealing, turning up, trumps, drawing, moving."""

from __future__ import annotations

from . import events as ev
from . import seeding
from .cards import NO_TRUMP
from .chance import draw
from .core import Core
from .errors import RuleRuntimeError
from .flow import Instruction, _visible_mask
from .program import Fn, Program

# ---------------------------------------------------------------- cards


class DealCards(Instruction):
    def __init__(self, prog: Program, packets: list[Fn], first: Fn | None) -> None:
        super().__init__(prog)
        self.packets = packets
        self.first = first

    def run(self, core: Core) -> None:
        prog = self.prog
        n = prog.n
        first = self.first(core) if self.first is not None else (core.dealer + 1) % n
        pack = core.zones[prog.pack]
        got: list[list[int]] = [[] for _ in range(n)]
        for packet in self.packets:
            k = packet(core)
            for i in range(n):
                p = (first + i) % n
                if k > len(pack):
                    raise RuleRuntimeError(f"line {self.line}: the pack ran out while dealing")
                cards = [pack.pop() for _ in range(k)]
                core.zones[prog.hand + p].extend(cards)
                prog.note_hand(core, prog.hand + p, cards)
                got[p].extend(cards)
        for i in range(n):
            p = (first + i) % n
            prog.emit(core, (ev.DEALT, p, tuple(got[p])))
        core.pc += 1


class TurnUp(Instruction):
    def __init__(self, prog: Program, count: Fn, dest: Fn) -> None:
        super().__init__(prog)
        self.count = count
        self.dest = dest

    def run(self, core: Core) -> None:
        prog = self.prog
        pack = core.zones[prog.pack]
        k = self.count(core)
        if k > len(pack):
            raise RuleRuntimeError(f"line {self.line}: the pack ran out when turning up")
        dest = self.dest(core)
        cards = pack[-1:-k - 1:-1] if k > 0 else []  # the top card first
        del pack[len(pack) - len(cards):]
        core.zones[dest].extend(cards)
        prog.emit(core, (ev.TURN_UP, tuple(cards), dest, prog.zone_mask(core, dest)))
        core.pc += 1


class SetTrump(Instruction):
    def __init__(self, prog: Program, source: str, zone: Fn | None, suit: int) -> None:
        super().__init__(prog)
        self.source = source
        self.zone = zone
        self.suit = suit

    def run(self, core: Core) -> None:
        prog = self.prog
        if self.source == "zone":
            assert self.zone is not None
            cards = core.zones[self.zone(core)]
            if not cards:
                raise RuleRuntimeError(f"line {self.line}: 'trump is suit of' an empty zone")
            suit = prog.tables.suit[cards[-1]]
        elif self.source == "fixed":
            suit = self.suit
        else:
            suit = NO_TRUMP
        set_trump(prog, core, suit, None, self.laws)
        core.pc += 1


def set_trump(prog: Program, core: Core, suit: int, player: int | None, laws: tuple[str, ...]) -> None:
    core.trump = suit
    core.ti = suit if suit != NO_TRUMP else prog.tables.nsuits
    prog.emit(core, (ev.TRUMP, suit if suit != NO_TRUMP else -1, player, laws))


class Draw(Instruction):
    """Automatic drawing from the top of a zone, with an optional fallback zone."""

    def __init__(self, prog: Program, player: Fn, kind: str, amount: Fn, source: Fn, fallback: Fn | None, fallback_test: list[list[bool]] | None) -> None:
        super().__init__(prog)
        self.player = player
        self.kind = kind
        self.amount = amount
        self.source = source
        self.fallback = fallback
        self.fallback_test = fallback_test

    def run(self, core: Core) -> None:
        prog = self.prog
        p = self.player(core)
        hand = core.zones[prog.hand + p]
        want = self.amount(core)
        need = want - len(hand) if self.kind == "to" else want
        src = core.zones[self.source(core)]
        drawn: list[int] = []
        while need > 0 and src:
            drawn.append(src.pop())
            need -= 1
        back: list[int] = []
        if need > 0 and self.fallback is not None:
            fb = core.zones[self.fallback(core)]
            test = self.fallback_test[core.ti] if self.fallback_test is not None else None
            i = len(fb) - 1
            while need > 0 and i >= 0:
                c = fb[i]
                if test is None or test[c]:
                    back.append(fb.pop(i))
                    need -= 1
                i -= 1
        hand.extend(drawn)
        hand.extend(back)
        prog.note_hand(core, prog.hand + p, drawn + back)
        if drawn or back:
            mask = prog.zone_mask(core, prog.hand + p) | (1 << p)
            prog.emit(core, (ev.DRAW, p, tuple(drawn), tuple(back), self.laws, mask))
        core.pc += 1


class Move(Instruction):
    """Automatic movement: all (matching) cards, N from the top, or N at random."""

    def __init__(self, prog: Program, mode: str, amount: Fn | None, test: list[list[bool]] | None,
                 source: Fn, dest: Fn) -> None:
        super().__init__(prog)
        self.mode = mode
        self.amount = amount
        self.test = test
        self.source = source
        self.dest = dest

    def run(self, core: Core) -> None:
        prog = self.prog
        s, d = self.source(core), self.dest(core)
        src = core.zones[s]
        t = self.test[core.ti] if self.test is not None else None
        candidates = [i for i, c in enumerate(src) if t is None or t[c]]
        if self.mode == "all":
            chosen = candidates
        else:
            assert self.amount is not None
            k = max(0, min(self.amount(core), len(candidates)))
            if self.mode == "top":
                chosen = candidates[len(candidates) - k:][::-1] if k else []
            elif core.tape is not None:
                picked = draw(core, "sample", [src[i] for i in candidates], k)
                chosen = [src.index(c) for c in picked]
            else:
                core.chance += 1
                chosen = seeding.sample(seeding.chance_key(prog.seed_of(core, core.deal_no), core.deal_no, core.chance),
                                        candidates, k)
        moved = [src[i] for i in chosen]
        drop = set(chosen)
        core.zones[s] = [c for i, c in enumerate(src) if i not in drop]
        core.zones[d].extend(moved)
        prog.note_hand(core, d, moved)
        if moved:
            prog.emit(core, (ev.MOVE, s, d, tuple(moved), self.laws, _visible_mask(prog, core, d, s, -1)))
        core.pc += 1
