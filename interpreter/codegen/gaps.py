"""Helpers of the smaller gaps of the language (issue 28, section 6), copied into every
generated module after the prelude: integer division (``/`` rounds down, as Python's
``//``, which Cython keeps without ``cdivision``) and reading a lookup table by position.
Each raises ``Fault(f)`` (a message naming the rule's line) where the value is undefined.
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
'''
