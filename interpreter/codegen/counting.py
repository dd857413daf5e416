"""Helpers copied into every generated module after the prelude: the number of ways to
choose k cards of n (``_comb``: Pascal's triangle read, ``COMB_TAB``, for the packs of up
to 64 cards; counted out beyond); natively, the cards of a mask in the order of their
stamps (``_stamp_sorted``, which ``_by_stamp`` calls: a C insertion sort, stable as
``list.sort`` is, where CPython sorts by a key function); and the tables CPython's
``_in_order`` reads (:func:`in_order_tables`)."""

from __future__ import annotations

from .layout import Layout
from .writer import Writer, ints

BYTE_WISE_MAX = 512
"""The largest pack whose cards CPython's ``_in_order`` reads a byte at a time from a table
(256 entries a byte of the mask); a larger one loops over its cards as natively."""


def in_order_tables(lay: Layout, w: Writer) -> None:
    """CPython's tables for ``_in_order`` (a native build loops over the mask's bits, with no
    call a card, and has none of them): ``BYTE_CARDS[256 * j + b]``, the cards of byte ``b``
    at byte ``j`` of a mask, increasing; ``ORDER_KEY[ti]``, the sort key of the cards listed
    under order index ``ti``: a trump's place among the trumps, strongest first, then every
    other card after them in deck order."""
    nc = lay.nc
    keys = []
    for trumps in lay.trump_order():
        key = [nc + card for card in range(nc)]
        for place, card in enumerate(trumps):
            key[card] = place
        keys.append(key)
    with w.block("if not cython.compiled:  # (CPython: _in_order reads a mask a byte at a time, trumps sorted first)"):
        if nc > BYTE_WISE_MAX:
            w.line("BYTE_CARDS = ()")
            return
        w.line("NBYTES = (NC + 7) // 8")
        w.line("BYTE_CARDS = tuple([tuple([j * 8 + i for i in range(8) if b >> i & 1]) for j in range(NBYTES) "
               "for b in range(256)])")
        w.line("ORDER_KEY = tuple([dict(enumerate(row)).get for row in (" + "".join(ints(k) + ", " for k in keys) + ")])")

COUNTING_HELPERS = '''
# ---------------------------------------------------------------- counting subsets


def _comb(n: cython.longlong, k: cython.longlong) -> cython.longlong:
    """The number of ways to choose k of n, or COMB_CAP when it is larger."""
    if k < 0 or k > n:
        return 0
    if n < COMB_N:
        return COMB_TAB[n * COMB_N + k]
    if k > n - k:
        k = n - k
    r: cython.longlong = 1
    i: cython.longlong
    for i in range(1, k + 1):
        if r > COMB_CAP // (n - k + i):
            return COMB_CAP
        r = r * (n - k + i) // i
    return r


def _select_total(c: Core) -> cython.longlong:
    """How many subsets the selection pending offers (MAX_CHOICES + 1 when more)."""
    n: cython.longlong = _pc(c.sel_cards)
    total: cython.longlong = 0
    k: cython.longlong
    if 0 <= c.sel_lo and c.sel_hi <= n < COMB_N:  # (Pascal's triangle read: no call a size)
        for k in range(n * COMB_N + c.sel_lo, n * COMB_N + c.sel_hi + 1):
            total += COMB_TAB[k]
            if total > MAX_CHOICES:
                return MAX_CHOICES + 1
        return total
    for k in range(c.sel_lo, c.sel_hi + 1):
        total += _comb(n, k)
        if total > MAX_CHOICES:
            return MAX_CHOICES + 1
    return total


def _draw_select(c: Core, rng: object, total: cython.longlong, out: list) -> MASK:
    """The cards of a subset of the selection pending drawn at random (``total`` of them):
    the draw of the state's listed selection, ``randbelow(total)``-th in its order (smaller
    subsets first, then in the order of the cards as listed). Its cards are appended to
    ``out`` in that order; returns their mask. (Natively each is found in the mask, _ith: no
    list of the cards.)"""
    sel: MASK = c.sel_cards
    cards: list = None if cython.compiled else _in_order(c, sel)
    n: cython.longlong = _pc(sel)
    i: cython.longlong = _randbelow(rng, total)
    k: cython.longlong = c.sel_lo
    cnt: cython.longlong = _comb(n, k)
    while i >= cnt:
        i -= cnt
        k += 1
        cnt = _comb(n, k)
    mask: MASK = 0
    j: cython.longlong = 0
    block: cython.longlong
    card: cython.int
    at: cython.longlong = (n - 1) * COMB_N + k - 1  # (the entry of _comb(n - j - 1, k - 1), while n < COMB_N)
    while k:
        block = COMB_TAB[at] if n < COMB_N else _comb(n - j - 1, k - 1)
        if i < block:
            card = _ith(c, sel, j) if cython.compiled else cards[j]
            out.append(card)
            mask |= BIT[card]
            k -= 1
            at -= COMB_N + 1
        else:
            i -= block
            at -= COMB_N
        j += 1
    return mask


def _stamp_sorted(c: Core, m: MASK) -> list:
    """Natively: the cards of ``m`` by their stamps ``c.st`` (equal stamps in card order),
    as ``_by_stamp_py`` sorts them."""
    cards: list = []
    k: cython.int
    x: cython.int
    s: cython.longlong
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    while m:
        k = _low(m)
        cards.append(k)
        m ^= BIT[k]
    for i in range(1, len(cards)):
        x = cards[i]
        s = c.st[x]
        j = i - 1
        while j >= 0 and c.st[cards[j]] > s:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = x
    return cards

'''
