"""Cards as values, written out (issue 28, section 6, design 3.11): ``for each card in Z
[matching P]:`` (a loop whose variable ``card`` holds each card the zone held when the loop
started, in deck order), ``suit of`` a card, and card patterns that name a suit held by a
variable (``K of s``), which no fixed table can hold: such a pattern is a mask computed when
it is read, from the fixed tables of the pattern with each suit of the deck in the
variable's place.

A loop whose body may wait for a decision runs as blocks, like ``for each player``: the
cards it is to visit are kept in variable slots (62 cards a slot), with the position of the
next card to look at. The helpers here are written into a module only when it calls them
(``Layout.uses.helpers``), so that a module that uses none is as before.
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

CHUNK = 62
"""Cards a variable slot holds of a loop's cards (a slot is a signed 64-bit int)."""

HELPERS = {
    "card_suit": '''

def _card_suit(card: cython.int) -> cython.int:
    """'suit of' a card (no card: no suit, -1)."""
    if card < 0:
        return -1
    return SUIT[card]
''',
    "pat_of": '''

def _pat_of(c: Core, ids: tuple, s: cython.int) -> MASK:
    """The cards of the pattern that names suit s (``ids``: its table for each suit; no suit: none)."""
    if s < 0 or s >= NS:
        return 0
    return PAT[ids[s] * NT + c.ti]
''',
}
"""Helpers by name (see the module docstring)."""


class CardLoops(_Base):
    """``for each card`` (a mixin of the code generator; see the module docstring)."""

    __slots__ = ()

    def card_loop_cards(self, st: m.ForCard) -> str:
        """The cards a loop visits, as a mask (read when the loop starts)."""
        ex = self.ex
        cards = ex.cards(st.zone)
        if st.matching is None:
            return cards
        return f"({cards} & {ex.pattern_mask(st.matching)})"

    def visit_ForCard(self, st: m.ForCard, w: Writer) -> bool:  # noqa: N802 - one method per statement
        """A loop over cards whose body never waits: a Python loop over the deck's indices."""
        var = self.lay.slot("card")
        k = self.lay.hidden_slot("for")  # (a local would do; a slot keeps names unique)
        w.line(f"_m{k} = {self.card_loop_cards(st)}")
        w.line(f"for _i{k} in range(NC):")
        with w.indented():
            w.line(f"if not (_m{k} >> _i{k}) & 1:")
            w.line("    continue")
            w.line("c.steps += 1")  # a loop's turn is an automatic step (the work budget between decisions)
            w.line("if c.steps > MAX_STEPS:")
            w.line("    _too_many_steps()")
            w.line(f"c.v[{lit(var)}] = _i{k}")
            saved = dict(self.context)
            self.context["card"] = Kind.CARD
            self.loops.append(-1)
            self.seq(st.body, w, None)
            self.loops.pop()
            self.context = saved
        return True

    def card_loop_blocks(self, st: m.ForCard, w: Writer, cont: int) -> None:
        """A loop over cards whose body may wait: its cards in slots, a head block that finds the next."""
        lay = self.lay
        chunks = [lay.hidden_slot("for") for _ in range((lay.nc + CHUNK - 1) // CHUNK)]
        pos = lay.hidden_slot("for")
        var = lay.slot("card")
        w.line(f"m = {self.card_loop_cards(st)}")
        for j, slot in enumerate(chunks):
            w.line(f"c.v[{lit(slot)}] = (m >> {lit(CHUNK * j)}) & {lit((1 << CHUNK) - 1)}")
        w.line(f"c.v[{lit(pos)}] = 0")
        head = self.block(st.span.line, "a loop over each card")
        w.line(f"return {lit(head.id)}")
        hw = head.w
        hw.line(f"i = c.v[{lit(pos)}]")
        hw.line("x = -1")
        hw.line("while i < NC:")
        hw.line(f"    j = i // {lit(CHUNK)}")
        cases = "".join(f"c.v[{lit(slot)}] if j == {lit(j)} else " for j, slot in enumerate(chunks[:-1]))
        hw.line(f"    bits = {cases}c.v[{lit(chunks[-1])}]")
        hw.line(f"    if (bits >> (i % {lit(CHUNK)})) & 1:")
        hw.line("        x = i")
        hw.line("        i += 1")
        hw.line("        break")
        hw.line("    i += 1")
        hw.line(f"c.v[{lit(pos)}] = i")
        hw.line("if x < 0:")
        hw.line(f"    return {lit(cont)}")
        hw.line(f"c.v[{lit(var)}] = x")
        saved = dict(self.context)
        self.context["card"] = Kind.CARD
        self.loops.append(cont)
        self.seq(st.body, hw, head.id)
        self.loops.pop()
        self.context = saved
