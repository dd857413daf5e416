"""One seat plays another's cards (design 3.5, `maker plays for dummy`): the controller of
each turn in a trick play, the hand shown to the controller from his first play for it,
and the hand shown to him (the seat mask per zone instance that `expose ... to` keeps, :mod:`.exposure`).

At a turn of seat ``p`` the first `P plays for Q` rule of the trick play whose ``Q`` is
``p`` and whose guard holds (asked then) makes ``P`` the actor: ``turn_D(c, p)``. The
cards offered are still ``p``'s, under the obligations as they apply to ``p``, and the
card goes to the trick as ``p``'s; its ``play`` entry carries the controller (``by``). The
first time ``P`` plays for ``p`` in a deal, ``hand of p`` is shown to ``P`` for the rest
of the deal (``c.zsee``, the seats-per-zone mask of :mod:`.exposure`, read by ``_zmask``) and a ``TAKES_UP`` entry is logged (design
decision 2). A file without the rule gets none of this: its module is unchanged.

`play passes right` (design 3.10) turns the same way every seat that comes next: in trick
play, auctions, `for each player` and `deal N to each` (:func:`onward`); `left of` and
`right of` keep their table meaning.
"""

from __future__ import annotations

from tricklang import model as m

from .layout import Layout
from .parts import Parts
from .writer import Writer, lit

BY_SHIFT = 25
"""Where a played card's entry keeps its controller plus one (an entry is ``trick << 15 |
card << 5 | seat``; a trick number stays below 1024, as there are at most 1024 cards)."""


def onward(lay: Layout, seat: str, steps: str = "1") -> str:
    """The seat ``steps`` turns after ``seat`` in the direction of play (an expression): to the
    left, ``(seat + steps) % N`` as ever; under `play passes right`, to the right."""
    if not lay.rightward:
        return f"({seat} + {steps}) % {lit(lay.n)}"
    step = lit(lay.n - 1) if steps == "1" else f"{lit(lay.n - 1)} * {steps}"
    return f"({seat} + {step}) % {lit(lay.n)}"


RIGHTWARD_PRELUDE = (("(p + 1) % N", "(p + N - 1) % N"), ("(q + 1) % N", "(q + N - 1) % N"),
                     ("(first + i) % N", "(first + (N - 1) * i) % N"))
"""The prelude's turns to the left (the next seat with cards, dealing), and the same to the right."""


def rightward_prelude(prelude: str) -> str:
    """The prelude of a module whose play passes right: the next seat with cards and the deal go right."""
    for old, new in RIGHTWARD_PRELUDE:
        assert old in prelude, "the prelude's turns changed: adapt interpreter/codegen/seats.py"  # pragma: no cover - the prelude's own text
        prelude = prelude.replace(old, new)
    return prelude


class SeatControl(Parts):
    """``turn_D`` of a trick play with `plays for` rules (mixed into :class:`~.tricks.TrickPlay`)."""

    __slots__ = ()

    @staticmethod
    def actor_of(controlled: bool, d: int, seat: str) -> str:
        """Who decides at the turn of ``seat`` (an expression): the seat itself, or (``controlled``:
        the trick play has `plays for` rules) ``turn_D``'s answer."""
        return f"turn_{d}(c, {seat})" if controlled else seat

    @staticmethod
    def play_entry(controlled: bool) -> str:
        """The logged entry of a card played by ``p`` (and chosen by ``c.actor``)."""
        plain = "(c.tr_no + 1) << 15 | card << 5 | p"
        if not controlled:
            return plain
        return f"{plain} | ((c.actor + 1) << {lit(BY_SHIFT)} if c.actor != p else 0)"

    def controllers(self, f: Writer, d: int, st: m.Tricks) -> None:
        """``turn_D(c, p)``: the seat that plays ``p``'s card now (and the hand shown on the first time)."""
        if not st.plays_for:
            return
        hand = lit(self.lay.hand)
        with f.block(f"def turn_{d}(c: Core, p: cython.int) -> cython.int:"):
            f.line("q: cython.int = p")
            f.line("found: cython.bint = False")
            f.line("laws: cython.int = 0")
            for rule in st.plays_for:
                self.line = rule.span.line
                test = self.ex.cond(rule.guard)
                if test is False:
                    continue  # switched off by an option
                f.comment(f"line {rule.span.line}: plays for")
                whom = self.ex.expr(rule.player)
                cond = f"not found and p == {whom}" + ("" if test is True else f" and ({test})")
                with f.block(f"if {cond}:"):
                    f.line("found = True")
                    f.line(f"q = {self.ex.seat(rule.controller, repr('plays for'))}")
                    f.line(f"laws = {self.laws(rule)}")
            with f.block(f"if q != p and not (c.zsee[{hand} + p] >> q & 1):"):
                f.line(f"c.zsee[{hand} + p] |= 1 << q")
                self.event(f, f"(TAKES_UP, q, p, tuple(_in_order(c, c.z[{hand} + p])), laws)")
            f.line("return q")
        f.line()
