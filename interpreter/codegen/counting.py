"""Helpers copied into every generated module after the prelude: the number of ways to
choose k cards of n (``_comb``: Pascal's triangle read, ``COMB_TAB``, for the packs of up
to 64 cards; counted out beyond); natively, the cards of a mask in the order of their
stamps (``_stamp_sorted``, which ``_by_stamp`` calls: a C insertion sort, stable as
``list.sort`` is, where CPython sorts by a key function)."""

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
