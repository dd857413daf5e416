"""The trick in progress as rules read it (issue 28, design 3.1): the helpers a module gets
when a rule of its trick play reads the trick (``led_suit``, ``winner``, ``highest_trump``,
``C beats D``...), and the test of whether it does.

The helpers read the trick as the core keeps it (``c.tr_c``/``c.tr_p``: the cards played
and their players, ``c.tr_n`` of them; ``c.tr_turn``: the player to play) under the order
in force (``c.ti``), and compare cards by ``_power`` under the suit led, as the trick's
winner is found when the trick is taken (the first of equal cards wins). Nothing is kept
up to date card by card: a rule that reads the trick scans its few cards, so a file that
reads nothing pays nothing. ``-1`` is ``no_card``, ``no_suit`` and ``nobody``.
"""

from __future__ import annotations

from tricklang import model as m
from tricklang.kinds import TRICK_NAMES
from tricklang.types import declared_names
from tricklang.walk import nodes

TRICK_FORMS = (m.CardIs, m.CardBeats, m.CardPlayedBy, m.WhoPlayed)
"""The expression forms that read the trick in progress (or a card's place in it)."""

NAMES: dict[str, str] = {
    "to_play": "(c.tr_turn if c.tr_active else -1)",
    "led_suit": "_tr_led(c)",
    "led_card": "(c.tr_c[0] if c.tr_active and c.tr_n else -1)",
    "winner": "_tr_winner(c)",
    "winning_card": "_tr_winning_card(c)",
    "highest_trump": "_tr_top_card(c)",
    "trick_number": "(c.tr_no + 1)",
    "last_trick": "_tr_last(c)",
    "no_card": "-1",
    "no_suit": "-1",
}
"""The source of each trick name and no-value literal the runtime plays (``trick``, a zone, is
read through :data:`TRICK_MASK`)."""

TRICK_MASK = "_tr_mask(c)"
"""The cards of the trick in progress, as a mask (``count(trick)``, ``trick has P``)."""


def reads_the_trick(rules: m.RuleFile) -> bool:
    """Whether some rule may read the trick in progress (then the module gets the helpers): a
    trick name the file does not declare, a form of :data:`TRICK_FORMS` or an obligation that
    compares trumps, anywhere."""
    declared = declared_names(rules)
    for part in (*rules.deal, *rules.irregularities):
        for node in nodes(part):
            if isinstance(node, TRICK_FORMS):
                return True
            if isinstance(node, m.Obligation) and node.kind in ("overtrump_if_able", "no_undertrump"):
                return True
            if isinstance(node, m.Name) and node.name in TRICK_NAMES and node.name not in declared:
                return True
    return False


HELPERS = '''
# ---------------------------------------------------------------- the trick in progress, as rules read it


@cython.cfunc
def _tr_led(c: Core) -> cython.int:
    """The suit led to the trick in progress (its effective suit), -1 (no_suit) before a card."""
    if not c.tr_active or c.tr_n == 0:
        return -1
    return EFF[c.ti * NC + c.tr_c[0]]


@cython.cfunc
def _tr_best(c: Core) -> cython.int:
    """The place in the trick of the card winning it so far (the first of equal cards), -1 if none."""
    if not c.tr_active or c.tr_n == 0:
        return -1
    ti: cython.int = c.ti
    led: cython.int = EFF[ti * NC + c.tr_c[0]]
    best: cython.int = 0
    top: cython.int = _power(ti, led, c.tr_c[0])
    i: cython.int
    k: cython.int
    for i in range(1, c.tr_n):
        k = _power(ti, led, c.tr_c[i])
        if k > top:
            best = i
            top = k
    return best


@cython.cfunc
def _tr_winner(c: Core) -> cython.int:
    """The player whose card is winning the trick so far, -1 (nobody) before a card."""
    best: cython.int = _tr_best(c)
    return c.tr_p[best] if best >= 0 else -1


@cython.cfunc
def _tr_winning_card(c: Core) -> cython.int:
    """The card winning the trick so far, -1 (no_card) before a card."""
    best: cython.int = _tr_best(c)
    return c.tr_c[best] if best >= 0 else -1


@cython.cfunc
def _tr_top_card(c: Core) -> cython.int:
    """The strongest trump in the trick, -1 (no_card) if it holds none."""
    if not c.tr_active or c.tr_n == 0:
        return -1
    ti: cython.int = c.ti
    led: cython.int = EFF[ti * NC + c.tr_c[0]]
    out: cython.int = -1
    top: cython.int = -1
    i: cython.int
    k: cython.int
    for i in range(c.tr_n):
        if TRUMPS[ti] & BIT[c.tr_c[i]]:
            k = _power(ti, led, c.tr_c[i])
            if k > top:
                out = c.tr_c[i]
                top = k
    return out


@cython.cfunc
def _tr_last(c: Core) -> cython.bint:
    """Whether the trick in progress is the deal's last: the trick play's count is reached with
    it, or the hands run out with it (each player still to play to it holds one card at most)."""
    if not c.tr_active:
        return False
    if c.tr_no + 1 >= c.tr_total:
        return True
    p: cython.int
    for p in range(N):
        if _pc(c.z[HAND + p]) > (0 if c.tr_pm >> p & 1 else 1):
            return False
    return True


@cython.cfunc
def _tr_mask(c: Core) -> MASK:
    """The cards of the trick in progress (``trick``)."""
    out: MASK = 0
    i: cython.int
    if c.tr_active:
        for i in range(c.tr_n):
            out |= BIT[c.tr_c[i]]
    return out


@cython.cfunc
def _tr_played_by(c: Core, p: cython.int) -> cython.int:
    """The card player p played to the trick in progress, -1 (no_card) if none."""
    i: cython.int
    if c.tr_active:
        for i in range(c.tr_n):
            if c.tr_p[i] == p:
                return c.tr_c[i]
    return -1


@cython.cfunc
def _tr_who_card(c: Core, card: cython.int) -> cython.int:
    """The player who played ``card`` to the trick in progress, -1 (nobody) if no one."""
    i: cython.int
    if c.tr_active and card >= 0:
        for i in range(c.tr_n):
            if c.tr_c[i] == card:
                return c.tr_p[i]
    return -1


@cython.cfunc
def _tr_who(c: Core, pat: cython.int, ranking: cython.int) -> cython.int:
    """The player who played the first card of the trick matching pattern ``pat`` (``ranking`` 1:
    the strongest of them in this trick, 2: the weakest), -1 (nobody) if none matches."""
    if not c.tr_active or c.tr_n == 0:
        return -1
    ti: cython.int = c.ti
    led: cython.int = EFF[ti * NC + c.tr_c[0]]
    found: cython.int = -1
    best: cython.int = 0
    i: cython.int
    k: cython.int
    for i in range(c.tr_n):
        if PAT[pat * NT + ti] & BIT[c.tr_c[i]]:
            k = _power(ti, led, c.tr_c[i])
            if found < 0 or (ranking == 1 and k > best) or (ranking == 2 and k < best):
                found = i
                best = k
    return c.tr_p[found] if found >= 0 else -1


@cython.cfunc
def _card_is(c: Core, card: cython.int, pat: cython.int) -> cython.bint:
    """Whether a card (not no_card) matches card pattern ``pat`` under the order in force."""
    return card >= 0 and (PAT[pat * NT + c.ti] & BIT[card]) != 0


@cython.cfunc
def _beats(c: Core, a: cython.int, b: cython.int) -> cython.bint:
    """Whether card ``a`` would win over card ``b`` in the trick in progress (under its suit led,
    else ``a``'s effective suit); every card beats no_card, no_card beats none."""
    if a < 0:
        return False
    if b < 0:
        return True
    led: cython.int = _tr_led(c)
    if led < 0:
        led = EFF[c.ti * NC + a]
    return _power(c.ti, led, a) > _power(c.ti, led, b)
'''
"""The helpers (copied into a module whose rules read the trick: :func:`reads_the_trick`)."""
