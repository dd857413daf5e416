"""Blocks: the deal's statements cut where a player decides.

The deal runs as a state machine. A *block* is a generated function ``bK(c)`` that runs
statements straight through and returns the next block to run, or -1 when a player must
decide (or the match is over); ``advance(c)`` runs blocks from ``c.pc`` until then.
Statements that never wait (scores, moves, conditions and loops without a decision
inside) are written inline, as Python ``if``/``for``/``while``; a statement that waits
(a decision, or a condition or loop with one inside) ends its block, and what follows
it starts a new one. A decision's *ready block* works out who decides and what, and
waits; re-entering it (after an irregularity's remedy, or the next card of a trick)
asks again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tricklang import model as m

from .writer import Writer


@dataclass
class Block:
    """A generated block function: its id, where it comes from, and its body."""

    id: int
    line: int
    what: str
    w: Writer = field(default_factory=Writer)

    @property
    def name(self) -> str:
        return f"b{self.id}"


DECISIONS = (m.Choose, m.Discard, m.Take, m.Keep, m.NameTrump, m.Bid, m.Auction, m.Tricks, m.TableAuction, m.TableBid,
             m.NameLed, m.Shows)
"""The statements at which a player decides."""


MAX_INLINE_LOOPS = 8
"""The most loops written inline (Python ``for``) one inside another: a loop with that many
nested in it is written as blocks, as a loop that waits is (CPython compiles at most 20
loops nested in one function: 21 nested ``repeat`` were a SyntaxError)."""


def loop_depth(stmts: tuple[m.Statement, ...]) -> int:
    """How many loops nest in one another in these statements (0: none)."""
    deepest = 0
    for st in stmts:
        if isinstance(st, (m.Repeat, m.ForEach, m.ForCard)):
            deepest = max(deepest, 1 + loop_depth(st.body))
        elif isinstance(st, m.Phase):
            deepest = max(deepest, loop_depth(st.body))
        elif isinstance(st, m.If):
            deepest = max(deepest, loop_depth(st.orelse), *(loop_depth(body) for _, body in st.branches))
    return deepest


def waits(st: m.Statement, pauses: frozenset[str]) -> bool:
    """Whether a statement may wait for a decision (``pauses``: the referee's moments
    the rule file's irregularities name, after which a pause may wait), or is written as
    blocks all the same (a loop with MAX_INLINE_LOOPS loops nested in it)."""
    if isinstance(st, DECISIONS):
        return True
    if isinstance(st, m.DealCards):
        return "deal" in pauses
    if isinstance(st, m.If):
        return any(waits_any(body, pauses) for _, body in st.branches) or waits_any(st.orelse, pauses)
    if isinstance(st, (m.Repeat, m.ForEach, m.ForCard)):
        return waits_any(st.body, pauses) or loop_depth(st.body) >= MAX_INLINE_LOOPS
    if isinstance(st, m.Phase):
        return waits_any(st.body, pauses)
    return False


def waits_any(stmts: tuple[m.Statement, ...], pauses: frozenset[str]) -> bool:
    return any(waits(st, pauses) for st in stmts)


def jumps(st: m.Statement) -> bool:
    """Whether control never goes on past this statement (it leaves the deal or the loop)."""
    return isinstance(st, (m.StopLoop, m.EndDeal, m.Redeal))
