"""Helpers copied into every generated module after the prelude: the number of ways to
choose k cards of n (``_comb``: Pascal's triangle read, ``COMB_TAB``, for the packs of up
to 64 cards) and cards sorted by their stamps (``_sort_by_stamp``: natively an insertion
sort reading the stamps in C, with no call a card)."""

COUNTING_HELPERS = '''
# ---------------------------------------------------------------- counting and sorting cards


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


def _sort_by_stamp(c: Core, cards: list) -> None:
    """Sort cards by their stamps, oldest first (stable: list.sort's order)."""
    if not cython.compiled:
        _sort_by_stamp_py(c, cards)
        return
    n: cython.Py_ssize_t = len(cards)
    i: cython.Py_ssize_t
    j: cython.Py_ssize_t
    card: cython.int
    stamp: cython.longlong
    for i in range(1, n):
        card = cards[i]
        stamp = c.st[card]
        j = i
        while j > 0 and c.st[cython.cast(cython.int, cards[j - 1])] > stamp:
            cards[j] = cards[j - 1]
            j -= 1
        cards[j] = card


def _sort_by_stamp_py(c: Core, cards: list) -> None:
    cards.sort(key=lambda card: c.st[card])
'''
