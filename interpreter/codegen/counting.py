"""Helpers copied into every generated module after the prelude: the number of ways to
choose k cards of n (``_comb``: Pascal's triangle read, ``COMB_TAB``, for the packs of up
to 64 cards; counted out beyond)."""

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

'''
