"""Taking a trick, written out: ``finish_D(c)`` finds the trick's winner under the order in force
when it completes (the power of each card to the suit led), moves its cards to the winner's
`won` zone, logs its ``trick`` event, runs the hooks after it and starts the next trick (led
by the winner). Mixed into :class:`~.tricks.TrickPlay`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .hoist import hoisted
from .parts import Parts
from .writer import Writer, lit


class TrickTaking(Parts):
    """``finish_D`` of a trick play (see the module docstring)."""

    __slots__ = ()

    if TYPE_CHECKING:  # written by TrickPlay
        def power(self, card: str) -> str: ...

    def _finish(self, f: Writer, d: int, hooks: bool = False, blocks: tuple[int, int, int] | None = None) -> None:
        """``finish_D(c)``: the trick is taken (its winner, its cards to his zone, its event), the hooks
        after it run, and the next trick starts; with ``blocks`` (hooks that decide: the first block,
        the slots of the trick taken and its winner) the hooks and the next trick are left to the ready
        block (:meth:`~.hooks.TrickHooks._trick_hook_blocks`)."""
        with f.block(f"def finish_{d}(c: Core) -> None:"):
            body = Writer()  # (the core's arrays it indexes then read through locals: .hoist)
            self._take(body, d, hooks, blocks)
            f.extend(hoisted(body, self.lay.wide, ("tr_c", "st", "taken_by")))  # (those read in its loops)

    def _take(self, f: Writer, d: int, hooks: bool, blocks: tuple[int, int, int] | None) -> None:
        """The body of ``finish_D`` (:meth:`_finish`)."""
        lay = self.lay
        won = lay.zone_by_name.get("won")
        f.line("ti = c.ti")
        f.line("n = c.tr_n")
        f.line("led = c.tr_led if c.tr_led >= 0 else EFF[ti * NC + c.tr_c[0]]" if self.lay.keeps_led
               else "led = EFF[ti * NC + c.tr_c[0]]")
        f.line(f"base = (ti * {self.lay.led_stride} + led) * NC")
        f.line("best = 0")
        f.line(f"top = {self.power('c.tr_c[0]')}")
        f.line("for i in range(1, n):")
        tie = f" or ({self.power('c.tr_c[i]')} == top and {self.tie}(c, c.tr_c[i]))" if self.tie else ""
        f.line(f"    if {self.power('c.tr_c[i]')} > top{tie}:")
        f.line("        best = i")
        f.line(f"        top = {self.power('c.tr_c[i]')}")
        f.line("winner = c.tr_p[best]")
        f.line("cards = 0")
        if won is not None:
            owner = "SIDE_OF[winner]" if won.kind == "side" else ("winner" if won.kind == "player" else "0")
            f.line(f"w = {lit(won.base)} + {owner}" if won.kind != "shared" else f"w = {lit(won.base)}")
        stamps = won is not None and won.stack < 0  # (the cards stamped in the order taken)
        if stamps:
            f.line("tick: cython.longlong = c.tick")
        f.line("for i in range(n):")
        with f.indented():
            f.line("card = c.tr_c[i]")
            f.line("cards |= BIT[card]")
            if won is not None:
                if won.stack >= 0:
                    f.line(f"_push(c, {self.moves.stack_index(won, 'w')}, card)")
                else:
                    f.line("c.st[card] = tick")
                    f.line("tick += 1")
            if lay.uses.holders:
                f.line("c.taken_by[card] = winner")
        if stamps:
            f.line("c.tick = tick")
        if won is not None:
            f.line("c.z[w] |= cards")
        f.line("c.tw[winner] += 1")
        for k, pat in enumerate(lay.lead_patterns):
            f.line(f"if cards & PAT[{lit(pat)} * NT + ti]:")
            f.line(f"    c.broken |= {lit(1 << k)}")
        f.line("if c.rec and c.rec >> TRICK & 1: c.log.append((TRICK, c.tr_no + 1, winner, tuple([c.tr_c[i] for i in range(n)]), "
               "tuple([c.tr_p[i] for i in range(n)])))")
        if blocks is not None:
            f.line(f"c.v[{lit(blocks[2])}] = winner")
            f.line(f"c.v[{lit(blocks[1])}] = 1")
            return
        if hooks:
            f.line(f"after_trick_{d}(c)")
        f.line("c.tr_no += 1")
        f.line("c.tr_n = 0")
        f.line("c.tr_pm = 0")
        f.line("c.tr_leader = winner")
        f.line("c.tr_turn = winner")
        f.line("c.window = -1")
