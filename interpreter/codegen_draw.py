"""Generated code for drawing (``elder draws to 5 from stock, then from discards``): the
``run`` of one :class:`~interpreter.dealing.Draw` instruction, written with what is known
when compiling (drawing to a count or a number of cards, the fallback zone and its
pattern as one bitmask per trump), as the generic method does it: the same cards in the
same order, the same event. The block of automatic steps it belongs to calls it (see
:mod:`interpreter.codegen_flow`). No text of the rule file reaches the source (see
:mod:`interpreter.codegen`).
"""

from __future__ import annotations

from . import events as ev
from .codegen_base import InstructionGen, card_mask, plus
from .codegen_deals import emit
from .dealing import Draw


class DrawGen(InstructionGen):
    """Writes the ``run`` of one drawing instruction (prefix ``r<pc>_``)."""

    PREFIX = "r"
    ins: Draw

    def write(self) -> list[tuple[int, str, str]]:
        w, ins, prog = self.w, self.ins, self.prog
        w.line()
        w.rule_line(ins.line, f"draw cards, {'up to a count in the hand' if ins.kind == 'to' else 'a number'} "
                              f"(instruction {self.pc})")
        if ins.fallback_test is not None:
            w.const(self.name("TEST"), tuple(card_mask(row) for row in ins.fallback_test))
        seen = w.const(self.name("SEEN"), tuple(int(z.mask) for z in prog.zones))
        fn = self.name("run")
        w.line()
        with w.block(f"def {fn}(core):"):
            w.line(f"p = {self.value('PLAYER', ins.player)}")
            w.line("zones = core.zones")
            w.line(f"h = {plus(prog.hand, 'p')}")
            w.line("hand = zones[h]")
            amount = self.value("AMOUNT", ins.amount)
            w.line(f"need = {amount} - len(hand)" if ins.kind == "to" else f"need = {amount}")
            w.line(f"src = zones[{self.value('SOURCE', ins.source)}]")
            w.line("k = need if need < len(src) else len(src)  # from the top (the end), one by one")
            with w.block("if k > 0:"):
                w.line("drawn = src[:-k - 1:-1]")
                w.line("del src[-k:]")
                w.line("need -= k")
            with w.block("else:"):
                w.line("drawn = []")
            w.line("back = []")
            if ins.fallback is not None:
                self._fallback()
            w.line("hand.extend(drawn)")
            w.line("hand.extend(back)")
            if prog.holders:  # who was first given each card, kept only where a rule reads it (Program.note_hand)
                w.line("dealt_to = core.dealt_to")
                with w.block("for c in drawn + back:"):
                    with w.block("if dealt_to[c] < 0:"):
                        w.line("dealt_to[c] = p")
            with w.block("if drawn or back:"):
                every = int(prog.all_mask)
                w.line(f"mask = ({every} if h in core.exposed else {seen}[h]) | 1 << p")
                emit(w, prog, f"({int(ev.DRAW)}, p, tuple(drawn), tuple(back), {self.obj('LAWS', ins.laws)}, mask)")
            w.line("core.pc += 1")
        return [(self.pc, "run", fn)]

    def _fallback(self) -> None:
        """Then from the fallback zone, from its top down, the cards that match."""
        w, ins = self.w, self.ins
        with w.block("if need > 0:"):
            w.line(f"fb = zones[{self.value('FALLBACK', ins.fallback)}]")
            if ins.fallback_test is not None:
                w.line(f"m = {self.name('TEST')}[core.ti]")
            w.line("i = len(fb) - 1")
            with w.block("while need > 0 and i >= 0:"):
                if ins.fallback_test is not None:
                    with w.block("if m >> fb[i] & 1:"):
                        w.line("back.append(fb.pop(i))")
                        w.line("need -= 1")
                else:
                    w.line("back.append(fb.pop(i))")
                    w.line("need -= 1")
                w.line("i -= 1")
