"""Moving cards, written out: how a card enters or leaves a zone instance.

Every zone instance is a mask of its cards (``c.z[k]``). A zone declared a stack (the
pack, and zones drawn from or cut: cards leave them from the top) also keeps its cards
in order (``c.stk``, ``c.sl``); every other zone keeps the order its cards arrived in as
stamps (``c.st[card]``: a rising counter, or a falling one for cards put under the
others), so that the order a zone shows (``State.zone``) and the order its cards are
moved in are the same as if it were a list. A card entering a hand notes who was first
given it when a rule reads that (``original holder of``).
"""

from __future__ import annotations

from .layout import Layout, ZoneDecl
from .writer import Writer, lit


class CardMoves:
    """Source for card moves (see the module docstring)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout

    def stack_index(self, decl: ZoneDecl, z: str) -> str:
        """The stack of zone instance ``z`` (an index expression) of a stacked zone."""
        off = decl.stack - decl.base
        if off == 0:
            return z
        return f"({z} + {lit(off)})" if off > 0 else f"({z} - {lit(-off)})"

    def add(self, w: Writer, decl: ZoneDecl, z: str, card: str) -> None:
        """Put ``card`` on top of zone instance ``z`` of ``decl``."""
        if decl.stack >= 0:
            w.line(f"_push(c, {self.stack_index(decl, z)}, {card})")
        else:
            w.line(f"c.st[{card}] = c.tick")
            w.line("c.tick += 1")
        w.line(f"c.z[{z}] |= BIT[{card}]")
        if decl.name == "hand" and self.layout.uses.holders:
            w.line(f"if c.dealt_to[{card}] < 0:")
            w.line(f"    c.dealt_to[{card}] = {z} - {lit(decl.base)}")

    def enter(self, w: Writer, decl: ZoneDecl, z: str, card: str) -> None:
        """What :meth:`add` does for ``card`` but set its bit in the mask (the caller sets the
        bits of all the cards it moves at once)."""
        if decl.stack >= 0:
            w.line(f"_push(c, {self.stack_index(decl, z)}, {card})")
        else:
            w.line(f"c.st[{card}] = c.tick")
            w.line("c.tick += 1")
        if decl.name == "hand" and self.layout.uses.holders:
            w.line(f"if c.dealt_to[{card}] < 0:")
            w.line(f"    c.dealt_to[{card}] = {z} - {lit(decl.base)}")

    def leave(self, w: Writer, decl: ZoneDecl, z: str, card: str) -> None:
        """What :meth:`remove` does for ``card`` but clear its bit in the mask."""
        if decl.stack >= 0:
            w.line(f"_unstack(c, {self.stack_index(decl, z)}, {card})")

    def remove(self, w: Writer, decl: ZoneDecl, z: str, card: str) -> None:
        """Take ``card`` (which is there) out of zone instance ``z``."""
        if decl.stack >= 0:
            w.line(f"_unstack(c, {self.stack_index(decl, z)}, {card})")
        w.line(f"c.z[{z}] ^= BIT[{card}]")

    def ordered(self, decl: ZoneDecl, z: str) -> str:
        """The cards of zone instance ``z`` in order, bottom first (a list)."""
        if decl.stack >= 0:
            return f"_stack_list(c, {self.stack_index(decl, z)})"
        return f"_by_stamp(c, c.z[{z}])"
