"""Showing cards, written out (issue 28, section 6, design 3.11): ``expose Z`` (the zone is
shown to everybody for the rest of the deal), ``expose Z matching P`` (those cards are
shown now, an ``exposed`` event; the zone stays as it is), ``expose Z to S`` (seat S sees
the zone for the rest of the deal) and ``expose Z matching P to S`` (those cards are shown
to S only, now).

The seats a zone instance is shown to by ``to`` are kept per instance (``c.zsee[z]``, a
seat mask, cleared when a deal starts) and added to the seats that see it
(``_zmask``), which every view reads: observations, events, tensors, the hidden cards a
seat may not tell apart. Only a module whose rule file says ``expose ... to`` gets the
field and that ``_zmask``; every other module is as before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricklang import model as m
from tricklang.types import Kind

from .writer import Writer, lit

if TYPE_CHECKING:
    from .parts import Parts

    _Base = Parts
else:
    _Base = object

_ZMASK = '''def _zmask(c: Core, z: cython.int) -> cython.longlong:
    return ALL if c.exp >> z & 1 else ZMASK[z]
'''
_ZMASK_SHOWN = '''def _zmask(c: Core, z: cython.int) -> cython.longlong:
    return ALL if c.exp >> z & 1 else ZMASK[z] | c.zsee[z]


def shown_to(c: Core, z: cython.int) -> cython.longlong:
    """The seats zone instance z is shown to by 'expose ... to' this deal (a mask)."""
    return c.zsee[z]
'''
_RESET = "    c.exp = 0\n"
_RESET_SHOWN = "    c.exp = 0\n    for i in range(NZ):\n        c.zsee[i] = 0\n"


def prelude(text: str, shown: bool) -> str:
    """The prelude, whose ``_zmask`` adds the seats a zone is shown to when ``shown``."""
    if not shown:
        return text
    assert _ZMASK in text  # pragma: no cover - the prelude's own text
    return text.replace(_ZMASK, _ZMASK_SHOWN)


def match_text(text: str, shown: bool) -> str:
    """The match's flow, which clears the seats zones are shown to when a deal starts, when ``shown``."""
    if not shown:
        return text
    assert _RESET in text  # pragma: no cover - the match flow's own text
    return text.replace(_RESET, _RESET_SHOWN)


class Exposure(_Base):
    """``expose`` (a mixin of the code generator; see the module docstring)."""

    __slots__ = ()

    def visit_Expose(self, st: m.Expose, w: Writer) -> bool:  # noqa: N802 - one method per statement
        if st.zone.owner is None and self.context.get(st.zone.name) == Kind.CARD:  # a card parameter
            slot = self.lay.slot(st.zone.name)
            w.line(f"card = c.v[{lit(slot)}]")
            w.line("self_z = _zone_of(c, card)")
            self.event(w, f"(EXPOSED, self_z, (card,), {self.laws(st)})")
            return True
        decl = self.lay.zone_by_name[st.zone.name]
        w.line(f"z = {self.ex.zone(st.zone)}")
        cards = self.moves.ordered(decl, "z")
        if st.matching is not None:
            w.line(f"t = {self.ex.pattern_mask(st.matching)}")
            cards = f"[card for card in {cards} if t & BIT[card]]"
        if st.to is not None:
            w.line(f"p = {self.ex.seat(st.to, chr(39) + 'expose ... to' + chr(39))}")
            if st.matching is None:
                w.line("c.zsee[z] |= 1 << p")
            self.event(w, f"(EXPOSED, z, tuple({cards}), {self.laws(st)}, 1 << p)")
            return True
        if st.matching is None:
            w.line("c.exp |= ZBIT[z]")
        self.event(w, f"(EXPOSED, z, tuple({cards}), {self.laws(st)})")
        return True
