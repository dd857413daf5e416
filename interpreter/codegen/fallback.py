"""Selections with a fallback, written out (issue 28, section 6, design 3.11):
``P discards N matching P, else Q to Z`` (also ``takes``). The chosen cards are P-cards while
the player holds enough of them; else all his P-cards go, and he chooses the rest among his
Q-cards (French Tarot's lay-away: no king, no trump unless forced).

When the selection falls back, the P-cards are not chosen (there is no choice about them):
the decision offers the rest among the Q-cards that are not P-cards, its bounds less the
P-cards, and applying it moves the P-cards first, then the cards chosen; the ``select``
event lists every card that moved, so the selection is of the stated size. Nothing happens
between the decision and its action, so applying it tells the two cases apart by what it
offered: P-cards (enough of them), or none of them (fallen back).
"""

from __future__ import annotations

from .writer import Writer


def fallback_bounds(w: Writer) -> None:
    """Into a selection's ready block, after its bounds (``lo``, ``hi``) were clamped to the P- and
    Q-cards together (``n``): with fewer P-cards (``elig``) than ``lo``, offer the rest among ``q``."""
    w.line("f = _pc(elig)")
    w.line("if f < lo:")
    w.line("    elig = q")
    w.line("    lo -= f")
    w.line("    hi -= f")
    w.line("elif hi > f:")
    w.line("    hi = f")


def forced_cards(f: Writer, pattern: str, ordered: str) -> None:
    """Into a selection's apply function: the P-cards (``pattern``, a mask) go first when the selection
    fell back (it offered no P-card); ``ordered``: the source zone's cards in order."""
    f.line(f"t = {pattern}")
    f.line("if not (c.sel_cards & t):")
    f.line(f"    cards = [card for card in {ordered} if t & BIT[card]] + list(cards)")
