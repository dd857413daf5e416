"""Helpers of the smaller gaps of the language (issue 28, section 6), copied into every
generated module after the prelude: integer division (``/`` rounds down, as Python's
``//``, which Cython keeps without ``cdivision``), reading a lookup table by position,
the step of a bid range and what one card is worth. Each raises ``Fault(f)`` (a message
naming the rule's line) where the value is undefined.
"""

GAPS_HELPERS = '''
# ---------------------------------------------------------------- helpers of the smaller gaps


def _at(t: tuple, i: cython.longlong, f: cython.int) -> cython.longlong:
    """Entry ``i`` of a lookup table (``NAME(i)``), counted from 0."""
    if i < 0 or i >= len(t):
        raise Fault(f)
    return t[i]


def _div(a: cython.longlong, b: cython.longlong, f: cython.int) -> cython.longlong:
    """'/' rounds down (Python's //, which Cython keeps without cdivision)."""
    if b == 0:
        raise Fault(f)
    return a // b


def _step(step: cython.longlong, f: cython.int) -> cython.longlong:
    """The step of a bid range ('by N'), at least 1."""
    if step < 1:
        raise Fault(f)
    return step


def _card_points(c: Core, t: cython.int, card: cython.int) -> cython.longlong:
    """What one card is worth under points table ``t`` and the order in force (no card: 0)."""
    if card < 0:
        return 0
    return POINTS[(t * NT + c.ti) * NC + card]
'''
