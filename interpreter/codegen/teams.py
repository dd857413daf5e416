"""Per-deal teams (design 3.9), written out: ``teams A, B``, ``P joins T``, ``team of P``, and a
team wherever a side is read or scores.

A team is an int, its index among the file's team names (``no_team`` is -1: see
:meth:`.expressions.ExprWriter.e_Name`). The core holds
``team[seat]`` (the team each seat is in this deal), set to -1 for every seat when a deal starts
(:data:`RESET`, written into ``_reset_deal``) and by ``P joins T`` (no event: membership is hidden
state, which no observation, tensor or event shows). What a team has is summed over its members in
loops over the seats (:data:`HELPERS`): ``tricks(T)``, ``points(T [, table])``, ``deal_score(T)``,
``melded(T [, table])``, ``ZONE of T`` for a per-player zone (the union of the members' zones, read
by ``count``, ``has``, ``points`` and ``for each card in``), and ``T scores N`` (each member's side
scores N once: in a game without partnerships, each member). Nothing of this is written for a file
without ``teams``: its module is what it was.
"""

from __future__ import annotations

from tricklang import model as m

from .layout import Layout
from .parts import Parts
from .writer import Writer

HELPERS = '''

def _team_sides(c: Core, t: cython.int) -> cython.longlong:
    """The sides of team t's members, as a mask of side numbers."""
    p: cython.int
    sides: cython.longlong = 0
    for p in range(N):
        if c.team[p] == t:
            sides |= 1 << SIDE_OF[p]
    return sides


def _team_tricks(c: Core, t: cython.int) -> cython.int:
    """The tricks team t's members have won this deal."""
    p: cython.int
    total: cython.int = 0
    for p in range(N):
        if c.team[p] == t:
            total += c.tw[p]
    return total


def _team_cards(c: Core, base: cython.int, t: cython.int) -> MASK:
    """The cards of a per-player zone (its first instance: base) held by team t's members."""
    p: cython.int
    cards: MASK = 0
    for p in range(N):
        if c.team[p] == t:
            cards |= c.z[base + p]
    return cards


def _team_zone_points(c: Core, tab: cython.int, base: cython.int, t: cython.int) -> cython.longlong:
    """What the cards of a per-player zone held by team t's members are worth (points table tab)."""
    p: cython.int
    total: cython.longlong = 0
    for p in range(N):
        if c.team[p] == t:
            total += _points_of(c, tab, base + p)
    return total


def _team_points(c: Core, tab: cython.int, t: cython.int) -> cython.longlong:
    """``points(T)``: what team t's members have taken (points table tab)."""
    s: cython.int
    sides: cython.longlong
    total: cython.longlong = 0
    if WON < 0:
        return 0
    if not WON_PER_SIDE:
        return _team_zone_points(c, tab, WON, t)
    sides = _team_sides(c, t)
    for s in range(NSIDES):
        if (sides >> s) & 1:
            total += _points_of(c, tab, WON + s)
    return total


def _team_deal_score(c: Core, t: cython.int) -> cython.longlong:
    """``deal_score(T)``: what the sides of team t's members have scored since the deal began."""
    s: cython.int
    sides: cython.longlong = _team_sides(c, t)
    total: cython.longlong = 0
    for s in range(NSIDES):
        if (sides >> s) & 1:
            total += c.sc[s] - c.dsc[s]
    return total


def _team_score(c: Core, t: cython.int, amount: cython.longlong, sign: cython.int, label: cython.int,
                laws: cython.int, f: cython.int, nobody: cython.int) -> None:
    """``T scores N``: the side of each member of team t scores N (once per side)."""
    s: cython.int
    sides: cython.longlong = _team_sides(c, t)
    for s in range(NSIDES):
        if (sides >> s) & 1:
            _score(c, s, amount, sign, label, laws, f, nobody)
'''
"""The helpers of a module whose file declares teams (after the prelude)."""

MELD_HELPERS = '''

def _team_melded(c: Core, tab: cython.int, t: cython.int) -> cython.longlong:
    """``melded(T [, table])``: what team t's members have melded this deal."""
    p: cython.int
    total: cython.longlong = 0
    for p in range(N):
        if c.team[p] == t:
            total += _melded(c, tab, p)
    return total
'''
"""The helper of a module with teams and meld tables (after the meld helpers)."""

RESET = "    for i in range(N):  # no seat is in a team\n        c.team[i] = -1\n"
"""What a new deal resets (written into ``_reset_deal`` of a module with teams)."""


def helpers(lay: Layout) -> str:
    """The team helpers of this module ("" for a file without teams)."""
    if not lay.rules.teams:
        return ""
    return HELPERS + (MELD_HELPERS if lay.rules.melds else "")


def reset(lay: Layout, match_text: str) -> str:
    """The match's flow with the deal's reset of the teams (unchanged for a file without teams)."""
    if not lay.rules.teams:
        return match_text
    assert "    c.exp = 0\n" in match_text  # pragma: no cover - the reset's own line
    return match_text.replace("    c.exp = 0\n", "    c.exp = 0\n" + RESET, 1)


def fields(lay: Layout) -> list[tuple[str, str, int]]:
    """The core's arrays for teams: ``team[seat]`` (none for a file without teams)."""
    return [("team", "int", lay.n)] if lay.rules.teams else []


class TeamPlay(Parts):
    """`P joins T` (mixed into the code generator; `T scores N` calls ``_team_score`` from its ``visit_Score``)."""

    __slots__ = ()

    def visit_Joins(self, st: m.Joins, w: Writer) -> bool:  # noqa: N802 - one method per statement class
        """Put the player in the team for the rest of the deal; hidden, so no event is logged."""
        w.line(f"c.team[{self.ex.seat(st.player, chr(39) + 'joins' + chr(39))}] = {self.ex.expr(st.team)}")
        return True
