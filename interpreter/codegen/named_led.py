"""`P names the suit led [except S]` (design 3.6), written out: a decision of P among the suits
(the actions of naming trumps, `name hearts`) that sets the suit led of the trick in progress,
and a public `suit_led` event. A file that names the suit led keeps it in ``c.tr_led``, as one
with the card rules of :mod:`.trick_cards` does (set by the first card, read by the legal-play
chain, the trick's winner and the trick's names); the hook names it after the card that set it."""

from __future__ import annotations

from tricklang import model as m

from .decisions import wait
from .parts import Parts
from .writer import lit


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
