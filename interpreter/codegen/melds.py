"""Meld tables, written out (design 3.8): the melds of each table as rows of integers per
order index, the one counting loop every reading shares, `P melds T [from Z]` (counted,
recorded for P, shown to everybody by a `meld` event), `melds(ZONE, T)` and `melded(X [, T])`.

Each table's lines name instances (:func:`tricklang.melds.instances`, the language's own
reading), resolved here under every order index: row ``i`` of ``MELD_MASK`` holds an
instance's cards, ``MELD_VAL`` its value, ``MELD_CLS`` its class (a number unique over the
file) and ``MELD_ROW`` where the Game finds its label and cards (:attr:`Layout.meld_rows`);
``MELD_AT[t * NT + ti]`` is the first row of table ``t`` under order ``ti``. Counting is
:func:`tricklang.melds.count` over card masks: for each class, from all the cards, each
row in turn counts when the cards left hold all of its cards, which it then uses up for
its class. With one copy of each card an instance counts at most once. With ``copies 2``
(a double pack) the cards are first read by face (:data:`HELPERS_COPIES`: a face held once
is its first copy's bit, twice both bits), each instance is a *double* row (both copies of
its cards, worth the line's ``double`` or twice its value, shown as ``double LABEL``) and
then a single row, whose ``MELD_TWO`` names the second copies to use up first. Nothing of
this is written for a file with no meld table; a file with a single pack gets exactly what
it got before.
"""

from __future__ import annotations

from tricklang import model as m
from tricklang.melds import instances

from .layout import Layout
from .parts import Parts
from .writer import Writer, lit

HELPERS = '''

@cython.cfunc
def _meld_count(c: Core, t: cython.int, cards: MASK, found: object) -> cython.longlong:
    """What ``cards`` are worth under meld table t in the order in force (greedy, in the
    order written); ``found`` (a list, or None) gets the row of each meld counted."""
    i: cython.int
    k: cython.int = t * NT + c.ti
    cls: cython.int = -1
    left: MASK = 0
    m: MASK
    total: cython.longlong = 0
    for i in range(MELD_AT[k], MELD_AT[k + 1]):
        if MELD_CLS[i] != cls:
            cls = MELD_CLS[i]
            left = cards
        m = MELD_MASK[i]
        if left & m == m:
            total += MELD_VAL[i]
            left ^= m
            if found is not None:
                found.append(MELD_ROW[i])
    return total


def _melded(c: Core, t: cython.int, p: cython.int) -> cython.longlong:
    """What seat p has melded this deal under table t (-1: every table)."""
    k: cython.int
    total: cython.longlong = 0
    if t >= 0:
        return c.mld[t * N + p]
    for k in range(NMELD):
        total += c.mld[k * N + p]
    return total


def _side_melded(c: Core, t: cython.int, s: cython.int) -> cython.longlong:
    """What side s has melded this deal under table t (-1: every table)."""
    i: cython.int
    total: cython.longlong = 0
    for i in range(SIDE_START[s], SIDE_START[s + 1]):
        total += _melded(c, t, SIDE_SEATS[i])
    return total
'''
"""The helpers a module with a meld table holds (after the prelude)."""

HELPERS_COPIES = HELPERS.replace('''    m: MASK
    total: cython.longlong = 0
    for i in range(MELD_AT[k], MELD_AT[k + 1]):
        if MELD_CLS[i] != cls:
            cls = MELD_CLS[i]
            left = cards
        m = MELD_MASK[i]
        if left & m == m:
            total += MELD_VAL[i]
            left ^= m
''', '''    m: MASK
    two: MASK
    total: cython.longlong = 0
    held: MASK = ((cards | cards >> 1) & FIRST) | ((cards & cards >> 1 & FIRST) << 1)  # by face
    for i in range(MELD_AT[k], MELD_AT[k + 1]):
        if MELD_CLS[i] != cls:
            cls = MELD_CLS[i]
            left = held
        m = MELD_MASK[i]
        if left & m == m:
            total += MELD_VAL[i]
            two = left & MELD_TWO[i]  # faces held twice give their second copy
            left ^= two | (m & ~(two >> 1))
''', 1)
"""The helpers of a module with a meld table and a double pack (``copies 2``)."""


def helpers(lay: Layout) -> str:
    """The meld helpers for this module (:data:`HELPERS`, or :data:`HELPERS_COPIES` for a double pack)."""
    assert HELPERS_COPIES != HELPERS  # pragma: no cover - the replaced text is HELPERS' own
    return HELPERS_COPIES if lay.tables.copies > 1 else HELPERS

RESET = "    for i in range(NMELD * N):  # what each player melded\n        c.mld[i] = 0\n"
"""What a new deal resets (written into ``_reset_deal`` of a module with a meld table)."""


def meld_rows(lay: Layout) -> dict[str, list[int]]:
    """The meld tables as rows per table and order index (see the module docstring); fills
    ``lay.meld_rows`` with each distinct row's (label, cards)."""
    at: list[int] = []
    cls_of: list[int] = []
    masks: list[int] = []
    values: list[int] = []
    rows: list[int] = []
    twos: list[int] = []
    double = lay.tables.copies > 1
    lay.meld_rows = []
    index: dict[tuple[str, tuple[int, ...]], int] = {}
    cls_base = 0
    for table in lay.rules.melds:
        for ti in range(lay.nt):
            at.append(len(masks))
            trump = lay.trump_of(ti)
            for k, group in enumerate(table.classes):
                for line in group.lines:
                    for inst in instances(line, lay.tables, trump):
                        need = {card: inst.count(card) for card in inst}
                        if max(need.values(), default=0) > lay.tables.copies:
                            continue  # (a card more times than the pack holds it: never held)
                        shapes: list[tuple[str, tuple[int, ...], int, int, int]] = []
                        if double and max(need.values(), default=0) == 1:  # both copies of each card
                            shapes.append((f"double {line.label}", inst + tuple(card + 1 for card in inst),
                                           sum(3 << card for card in inst), 0,
                                           line.double if line.double is not None else 2 * line.value))
                        mask = sum((3 if n == 2 else 1) << card for card, n in need.items())
                        two = sum(2 << card for card, n in need.items() if n == 1) if double else 0
                        shapes.append((line.label, inst, mask, two, line.value))
                        for label, shown, mask, two, value in shapes:
                            key = (label, shown)
                            if key not in index:
                                index[key] = len(lay.meld_rows)
                                lay.meld_rows.append(key)
                            cls_of.append(cls_base + k)
                            masks.append(mask)
                            twos.append(two)
                            values.append(value)
                            rows.append(index[key])
        cls_base += len(table.classes)
    at.append(len(masks))
    out = {"MELD_AT": at, "MELD_CLS": cls_of, "MELD_MASK": masks, "MELD_VAL": values, "MELD_ROW": rows}
    if double:
        out["MELD_TWO"] = twos
    return out


def meld_tables(gen: Parts, w: Writer, table: object) -> None:
    """The module's meld tables and their count (nothing for a file with none)."""
    lay = gen.lay
    if not lay.rules.melds:
        return
    emit = table  # module.table, passed in (this module is imported by it)
    w.line(f"NMELD = cython.declare(cython.int, {lit(len(lay.rules.melds))})")
    if lay.tables.copies > 1:  # the first copy of each face (cards 2f and 2f + 1)
        first = sum(1 << card for card in range(0, lay.nc, 2))
        w.line(f"FIRST = {lit(first)}" if lay.wide else f"FIRST = cython.declare(cython.ulonglong, {lit(first)})")
    for name, values in meld_rows(lay).items():
        if name in ("MELD_MASK", "MELD_TWO"):
            emit(w, name, "cython.ulonglong", values, lay.wide)  # type: ignore[operator]
        elif name == "MELD_VAL":
            emit(w, name, "cython.longlong", values)  # type: ignore[operator]
        else:
            emit(w, name, "cython.int", values)  # type: ignore[operator]


class MeldPlay(Parts):
    """`P melds T [from Z]` (mixed into the code generator)."""

    __slots__ = ()

    def visit_Melds(self, st: m.Melds, w: Writer) -> bool:  # noqa: N802 - one method per statement class
        """Count the melds of the zone (his hand) under the table, add them to what the player
        melded this deal, and show them to everybody (a `meld` event naming each meld counted)."""
        lay = self.lay
        t = lay.meld_index(st.table)
        w.line(f"p = {self.ex.seat(st.player, chr(39) + 'melds' + chr(39))}")
        if st.zone is None:
            w.line(f"cards = c.z[{lit(lay.hand)} + p]")
        else:
            w.line(f"cards = {self.ex.cards(st.zone)}")
        w.line("found = [] if c.rec and c.rec >> MELD & 1 else None")
        w.line(f"got = _meld_count(c, {lit(t)}, cards, found)")
        w.line(f"c.mld[{lit(t)} * N + p] += got")
        self.event(w, f"(MELD, p, {lit(t)}, got, tuple(found) if found is not None else (), {self.laws(st)})")
        return True
