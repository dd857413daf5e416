"""`P shows COUNT [matching P[, else Q]]` (design 3.6), written out: a selection of P's cards
(the actions `show 10T 11T`, split card by card in the one-card mode as every selection is)
whose cards stay where they are, and a public ``shown`` event naming them, so that every
seat knows them from then on (observations, whose events every seat sees, and the tensors'
``seen`` plane, read from those events). With `matching P, else Q` (French Tarot's handful:
trumps, else the Excuse) the selection falls back as a discard's does (:mod:`.fallback`): the
P-cards are shown with the cards chosen among the Q-cards. The ready block is the one of every
selection (:meth:`~.decisions.Decisions.select`); only applying it differs."""

from __future__ import annotations

from tricklang import model as m

from .fallback import forced_cards
from .layout import DecisionPoint, ZoneDecl
from .parts import Parts
from .writer import lit


class Showing(Parts):
    """`shows` (mixed into the code generator)."""

    __slots__ = ()

    def shows(self, st: m.Shows, cont: int) -> int:
        """The selection (kind ``select``, verb ``show``, from and to the player's hand); returns its ready block."""
        return int(self.select(st, "show", st.player, st.count, st.matching, None, None, cont,  # type: ignore[attr-defined]
                               source_is_hand=True, dest_is_hand=True, fallback=st.fallback))

    def show_apply(self, dp: DecisionPoint, src_decl: ZoneDecl, cont: int, forced: str | None) -> None:
        """``apply_D(c, cards)``: the chosen cards (with the P-cards of a selection that fell back)
        are named by a public ``shown`` event; none of them moves."""
        f = self.funcs
        d = dp.id
        f.line()
        f.comment(f"line {dp.line}: showing cards")
        with f.block(f"def apply_{d}(c: Core, cards: list) -> None:"):
            f.line("p = c.actor")
            f.line("s = c.sel_src")
            if forced is not None:
                forced_cards(f, forced, self.moves.ordered(src_decl, "s"))
            self.event(f, f"(SHOWN, p, tuple(cards), {lit(dp.laws)})")
            f.line(f"c.pc = {lit(cont)}")
            f.line("advance(c)")
