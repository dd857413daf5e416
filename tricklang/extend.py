"""Variant composition: a rule file that `extends` another replaces parts of it.

Options, zones, counters, roles and irregularities are replaced by name (new ones
are added); the deck, points tables, players and match sections are replaced
whole; a `deal` section in the extension may only hold `phase NAME:` blocks, each
replacing the base's phase of that name.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

from . import model as m
from .diagnostics import Diagnostic
from .walk import rebuild, statements

MAX_EXTENDS_DEPTH = 8

_N = TypeVar("_N", bound=Any)


def _by_name(base: Iterable[_N], child: Iterable[_N]) -> tuple[_N, ...]:
    merged: dict[str, _N] = {item.name: item for item in base}
    for item in child:
        merged[item.name] = item
    return tuple(merged.values())


def merge(base: m.RuleFile, child: m.RuleFile) -> tuple[m.RuleFile, list[Diagnostic]]:
    """The child rule file applied over its base, and any `unknown-override` errors."""
    problems: list[Diagnostic] = []
    phases = {st.name: st for st in _phases(base.deal)}
    replacements: dict[str, m.Phase] = {}
    for st in child.deal:
        if isinstance(st, m.Phase) and st.name in phases:
            replacements[st.name] = st
        elif isinstance(st, m.Phase):
            problems.append(Diagnostic(
                "unknown-override", f"the base rule file has no phase '{st.name}' to replace",
                st.span.line, st.span.column, path=child.path,
                hint="phases of the base: " + (", ".join(phases) or "none"),
            ))
        else:
            problems.append(Diagnostic(
                "unknown-override", "a rule file that extends another may only replace named phases of its deal",
                st.span.line, st.span.column, path=child.path, hint="wrap the statements in 'phase NAME:'",
            ))
    names = {n for n, _ in child.sections}
    child_tables = {p.table for p in child.points}  # a table named here replaces the base's
    points = tuple(p for p in base.points if p.table not in child_tables) + child.points
    fields: dict[str, Any] = {
        "path": child.path,
        "version": child.version if child.version is not None else base.version,
        "version_span": child.version_span or base.version_span,
        "game": child.game or base.game,
        "source": child.source or base.source,
        "players": child.players if "players" in names else base.players,
        "direction": child.direction if "direction" in names else base.direction,
        "deck": child.deck if "deck" in names else base.deck,
        "match": child.match if "match" in names else base.match,
        "roles": _by_name(base.roles, child.roles),
        "options": _by_name(base.options, child.options),
        "zones": _by_name(base.zones, child.zones),
        "counters": _by_name(base.counters, child.counters),
        "irregularities": _by_name(base.irregularities, child.irregularities),
        "points": points,
        "deal": _replace_phases(base.deal, replacements),
        "deal_span": base.deal_span,
        "sections": tuple((n, s) for n, s in base.sections if n not in ("extends",)),
    }
    return m.RuleFile.model_construct(**fields), problems


def stamp(node: _N, path: str) -> _N:
    """The node with every span that names no file marked as written in ``path``
    (a base file's nodes, before a variant is applied over them)."""

    def marked(n: m.Node) -> m.Node | None:
        if isinstance(n, m.Span) and n.path is None and n.line != 0:
            return n.model_copy(update={"path": path})
        return None
    return rebuild(node, marked)


def _phases(stmts: Iterable[m.Statement]) -> Iterable[m.Phase]:
    return (st for st in statements(stmts) if isinstance(st, m.Phase))


def _replace_phases(stmts: tuple[m.Statement, ...], new: dict[str, m.Phase]) -> tuple[m.Statement, ...]:
    """The block with each phase named in ``new`` replaced by it, at any depth."""
    return rebuild(stmts, lambda n: new.get(n.name) if isinstance(n, m.Phase) else None)
