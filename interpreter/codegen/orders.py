"""Named card orders (design 3.3, 5.1 item 1): what a module whose rule file declares
``order NAME`` adds to the tables and helpers every module has.

Order indices are the suits as trumps (``0..NS-1``), no trump (``NS``) and each named
order (``NS+1+k``, which is also the pseudo-suit of its trump group: Skat's grand puts the
four jacks there). A trick's led suit then ranges over every order index, so the tables
per suit led (``SUITS``, ``POWER``, ``ABOVE_CARD``) have ``NLED`` rows per order instead
of ``NS``; ``TSUIT[ti]`` is the effective suit of the trumps under ``ti`` (``-1`` for none),
``OPLAIN`` each order's plain strengths (Skat's null: A K Q J 10 9 8 7). ``trump is NAME``
sets the order index with :func:`_set_order`. A file without orders gets none of this, and
its module stays byte for byte what it was.
"""

from __future__ import annotations

from .layout import Layout

_REPLACED = (
    ("return POWER[(ti * NS + led) * NC + card]", "return POWER[(ti * NLED + led) * NC + card]"),
    ("if ti < NS and s == ti:\n        return 1000", "if s == TSUIT[ti]:\n        return 1000"),
    ("return PLAIN[card] if s == led else 0", "return OPLAIN[ti * NC + card] if s == led else 0"),
)

ORDER_HELPERS = '''

def _set_order(c: Core, o: cython.int, p: cython.int, laws: cython.int) -> None:
    """A named order is in force from now on (``trump is NAME``): its trumps' pseudo-suit
    (or -1 for an order without trumps) is the trump suit. A trick in progress is decided
    under the order in force when it completes; its suit led, once set, is kept."""
    c.trump = TSUIT[o]
    c.ti = o
    _ev(c)
    if c.rec and c.rec >> TRUMP & 1:
        c.log.append((TRUMP, o, p, laws))
'''


def order_prelude(prelude: str) -> str:
    """The prelude of a module with named orders: the card power read with the led stride
    ``NLED`` and each order's trumps and plain strengths, and :func:`_set_order`.

    Raises:
        AssertionError: the prelude no longer holds a line this module replaces.
    """
    for old, new in _REPLACED:
        assert old in prelude, old  # pragma: no cover - the prelude's own text
        prelude = prelude.replace(old, new)
    return prelude + ORDER_HELPERS


def order_tables(lay: Layout) -> list[tuple[str, list[int]]]:
    """The tables ``TSUIT`` and ``OPLAIN`` (see the module docstring), as (name, values)."""
    t = lay.tables
    return [("TSUIT", list(t.trump_suit)),
            ("OPLAIN", [t.plains[ti][c] for ti in range(lay.nt) for c in range(lay.nc)])]
