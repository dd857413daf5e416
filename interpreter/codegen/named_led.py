"""`P names the suit led [except S]` (design 3.6), written out: a decision of P among the suits
(the actions of naming trumps, `name hearts`) that sets the suit led of the trick in progress
(``c.tr_led``, -1 until named; every trick starts with it unset), a public `suit_led` event.
Where a module reads the suit led (the legal-play chain, the trick's winner, the trick's names) it
reads ``_led(c)``: the suit named, else the first card's effective suit. Nothing of this is
written for a file that names no suit led."""

from __future__ import annotations

from tricklang import model as m

from .decisions import wait
from .parts import Parts
from .writer import lit

LED_HELPERS = '''

@cython.cfunc
def _led(c: Core) -> cython.int:
    """The suit led to the trick in progress: the suit named, else the first card's effective suit."""
    if c.tr_led >= 0:
        return c.tr_led
    return EFF[c.ti * NC + c.tr_c[0]]
'''
"""The one reading of the suit led, in a module that may name it."""


def named_led(text: str) -> str:
    """Helpers' text reading the suit led through ``_led``."""
    return text.replace("EFF[c.ti * NC + c.tr_c[0]]", "_led(c)").replace("EFF[ti * NC + c.tr_c[0]]", "_led(c)")


class NamedLed(Parts):
    """`names the suit led` (mixed into the code generator)."""

    __slots__ = ()

    def name_led(self, st: m.NameLed, cont: int) -> int:
        """The decision (kind ``name_trump``: its actions are those of naming a suit); returns its ready block."""
        lay = self.lay
        dp = self.new_dp("name_trump", "naming", st)  # type: ignore[attr-defined]
        w = self.ready(dp, "naming the suit led")  # type: ignore[attr-defined]
        w.line(f"p = {self.ex.seat(st.player)}")
        wait(w, dp, "p")
        f = self.funcs
        d = dp.id
        f.line()
        f.comment(f"line {dp.line}: naming the suit led")
        with f.block(f"def legal_{d}(c: Core) -> list:"):
            banned = self.ex.expr(st.exclude) if st.exclude is not None else "-1"
            f.line(f"banned = {banned}")
            f.line(f"return [s for s in range({lit(lay.ns)}) if s != banned]")
        with f.block(f"def apply_{d}(c: Core, s: cython.int) -> None:"):
            f.line("c.tr_led = s")
            self.event(f, f"(SUIT_LED, c.actor, s, {lit(dp.laws)})")
            f.line(f"c.pc = {lit(cont)}")
            f.line("advance(c)")
        with f.block(f"def sample_{d}(c: Core, rng: object) -> cython.int:"):
            f.line(f"legal = legal_{d}(c)")
            f.line("return legal[_randbelow(rng, len(legal))]")
        return int(dp.extra["ready"])
