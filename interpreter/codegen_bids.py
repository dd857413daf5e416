"""Generated code for auctions (``auction once around | until one is left``): its
``ready``, ``actor``, ``legal``, ``apply`` (which returns the bidder, so it is ``take``
too) and the random step's ``fast_draw``, written for one instruction with what is
known when compiling (the number of players, how the auction ends, bounds that are
constants). The end of the auction (the contract, or a redeal when all pass) and an
irregularity's forfeited bid call the generic methods; the legal actions are the same
objects, in the same order. No text of the rule file reaches the source (see
:mod:`interpreter.codegen`).
"""

from __future__ import annotations

from . import events as ev
from .codegen_base import InstructionGen
from .decisions import Auction
from .legal import LegalActions, randbelow


class AuctionGen(InstructionGen):
    """Writes the functions of one auction (prefix ``a<pc>_``)."""

    PREFIX = "a"
    ins: Auction

    def write(self) -> list[tuple[int, str, str]]:
        w, ins = self.w, self.ins
        w.line()
        how = "once around" if ins.once_around else "until one is left"
        w.rule_line(ins.line, f"an auction, {how} (instruction {self.pc})")
        self.obj("INS", ins)
        self.obj("AUCTION", Auction)  # its methods: the generic paths, looked up when called
        ready, actor, legal, draw, apply = self._ready(), self._actor(), self._legal(), self._draw(), self._apply()
        return [(self.pc, "ready", ready), (self.pc, "actor", actor), (self.pc, "legal", legal),
                (self.pc, "fast_draw", draw), (self.pc, "apply", apply), (self.pc, "take", apply)]

    def _finished(self) -> str:
        """The source of :meth:`Auction._finished`'s test."""
        n = int(self.prog.n)
        if self.ins.once_around:
            return f"core.au_pos >= {n}"
        high = self.value("HIGH", self.ins.high)
        return (f"(core.au_passed.count(False) <= 1 or core.au_high >= {high}) if core.au_bidder >= 0 "
                "else core.au_passed.count(False) == 0")

    def _ready(self) -> str:
        w, n, fn = self.w, int(self.prog.n), self.name("ready")
        w.line()
        with w.block(f"def {fn}(core):"):
            with w.block("if not core.au_active:"):
                w.line("core.au_active = True")
                w.line(f"first = {self.value('START', self.ins.start)}")
                w.line("core.au_order = [" + ", ".join(f"(first + {i}) % {n}" for i in range(n)) + "]")
                w.line("core.au_pos = 0")
                w.line("core.au_high = 0")
                w.line("core.au_bidder = -1")
                w.line("core.au_passed = [" + ", ".join("False" for _ in range(n)) + "]")
            with w.block(f"if {self._finished()}:"):
                w.line(f"{self.name('AUCTION')}._resolve({self.name('INS')}, core)")
                w.line("return False")
            w.line("return True")
        return fn

    def _actor(self) -> str:
        w, n, fn = self.w, int(self.prog.n), self.name("actor")
        w.line()
        with w.block(f"def {fn}(core):"):
            w.line("order = core.au_order")
            w.line("passed = core.au_passed")
            w.line("pos = core.au_pos")
            with w.block(f"while passed[order[pos % {n}]]:"):
                w.line("pos += 1")
            w.line("core.au_pos = pos")
            w.line(f"return order[pos % {n}]")
        return fn

    def _bids(self) -> None:
        """``actions``: pass and the bids open now (each tuple made once, kept when small)."""
        w, ins = self.w, self.ins
        w.line(f"low = {self.value('LOW', ins.low)}")
        w.line("lo = max(low, core.au_high + 1 if core.au_bidder >= 0 else low)")
        w.line(f"hi = {self.value('HIGH', ins.high)}")
        w.line(f"actions = {self.obj('MADE', ins.legal_made)}.get((lo, hi))")
        with w.block("if actions is None:"):
            w.line(f"actions = {self.name('INS')}._bids(lo, hi)")

    def _legal(self) -> str:
        w, ins, fn = self.w, self.ins, self.name("legal")
        legal = self.obj("LegalActions", LegalActions)
        w.line()
        with w.block(f"def {fn}(core):"):
            key = self.obj("FORBIDDEN", "auction:bid")
            with w.block(f"if core.declared and ({key}, {self.name('actor')}(core)) in core.declared:"):
                w.line(f"return {legal}(({self.obj('PASS', ins.pass_action)},))  # he has lost his bid")
            self._bids()
            w.line(f"return {legal}(actions)")
        return fn

    def _draw(self) -> str:
        """``fast_draw``: the action ``legal``'s would give for ``randbelow(rng, len)``."""
        w, fn = self.w, self.name("draw")
        w.line()
        with w.block(f"def {fn}(core, rng):"):
            with w.block("if core.declared:"):
                w.line("return None  # a bid may be lost: drawn from the listed actions")
            self._bids()
            w.line(f"return actions[{self.obj('randbelow', randbelow)}(rng, len(actions))]")
        return fn

    def _apply(self) -> str:
        w, ins, fn = self.w, self.ins, self.name("apply")
        prog = self.obj("PROG", self.prog)  # its emit looked up when called
        w.line()
        with w.block(f"def {fn}(core, action):"):
            w.line(f"p = {self.name('actor')}(core)")
            with w.block(f"if action is {self.obj('PASS', ins.pass_action)} or action.verb == {self.obj('PASS_VERB', 'pass')}:"):
                w.line("core.au_passed[p] = True")
                w.line(f"{prog}.emit(core, ({int(ev.PASS)}, p))")
            with w.block("else:"):
                w.line("high = core.au_high = int(action.args[0])")
                w.line("core.au_bidder = p")
                w.line("core.bids[p] = high  # bids(P): his highest bid in the auction")
                w.line(f"{prog}.emit(core, ({int(ev.BID)}, p, high, ()))")
            w.line("core.au_pos += 1")
            with w.block(f"if {self._finished()}:"):
                w.line(f"{self.name('AUCTION')}._resolve({self.name('INS')}, core)")
            w.line("return p")
        return fn
