"""Variant composition: a rule file that `extends` another replaces parts of it.

Options, zones, counters, roles and irregularities are replaced by name (new ones
are added); the deck, points tables, players and match sections are replaced
whole; a `deal` section in the extension may only hold `phase NAME:` blocks, each
replacing the base's phase of that name, `replace KEYWORD:` blocks, each replacing the
base's only top-level statement that keyword begins (or its phase of that name), and
`phase NAME after|before NAME:` blocks, each added next to the base's phase or top-level
statement of that name. A statement is top level when it is in the deal itself or in a
phase at top level (not in a branch, a loop or a choice).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import Any, TypeVar

from . import model as m
from .diagnostics import Diagnostic
from .walk import rebuild, statements
from .words import STATEMENT_KEYWORDS, statement_words

MAX_EXTENDS_DEPTH = 8

_N = TypeVar("_N", bound=Any)


def _by_name(base: Iterable[_N], child: Iterable[_N]) -> tuple[_N, ...]:
    merged: dict[str, _N] = {item.name: item for item in base}
    for item in child:
        merged[item.name] = item
    return tuple(merged.values())


def merge(base: m.RuleFile, child: m.RuleFile) -> tuple[m.RuleFile, list[Diagnostic]]:
    """The child rule file applied over its base, and any `unknown-override` or `ambiguous-override` errors."""
    problems: list[Diagnostic] = []
    phases = {st.name: st for st in _phases(base.deal)}
    replacements: dict[str, m.Phase] = {}
    for st in child.deal:
        if isinstance(st, m.Phase) and st.place is not None:
            continue  # placed below, once the phases named are replaced
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
                "unknown-override", "a rule file that extends another may only replace or add named parts of its deal",
                st.span.line, st.span.column, path=child.path,
                hint="wrap the statements in 'phase NAME:', 'replace KEYWORD:' or 'phase NAME after|before NAME:'",
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
        "deal": _placed(_replace_phases(base.deal, replacements), child, problems),
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


def keyword_of(st: m.Statement) -> str | None:
    """The keyword that begins a statement (``tricks``, ``auction``, ``deal``, ``turn``...), or None
    for one that begins with its subject (``dealer scores``)."""
    first = statement_words(st).split()[0]
    return first if first in STATEMENT_KEYWORDS else None


def _top_level(stmts: tuple[m.Statement, ...]) -> Iterator[m.Statement]:
    for st in stmts:
        yield st
        if isinstance(st, m.Phase):
            yield from _top_level(st.body)


def _splice(stmts: tuple[m.Statement, ...], target: m.Statement, new: tuple[m.Statement, ...]) -> tuple[m.Statement, ...]:
    """The block with statement ``target`` (at top level) replaced by the statements ``new``."""
    out: list[m.Statement] = []
    for st in stmts:
        if st is target:
            out.extend(new)
        elif isinstance(st, m.Phase):
            out.append(st.model_copy(update={"body": _splice(st.body, target, new)}))
        else:
            out.append(st)
    return tuple(out)


def _placed(deal: tuple[m.Statement, ...], child: m.RuleFile, problems: list[Diagnostic]) -> tuple[m.Statement, ...]:
    """The base's deal with the variant's `replace KEYWORD:` and `phase NAME after|before NAME:` taken in."""
    for st in child.deal:
        if not isinstance(st, m.Phase) or st.place is None or st.anchor is None:
            continue
        found: list[m.Statement] = [s for s in _top_level(deal) if isinstance(s, m.Phase) and s.name == st.anchor]
        if not found:
            found = [s for s in _top_level(deal) if keyword_of(s) == st.anchor]
        if len(found) != 1:
            problems.append(_placing_problem(deal, st, found, child.path))
            continue
        target = found[0]
        if st.place == "replace":
            new: tuple[m.Statement, ...] = st.body
            if isinstance(target, m.Phase) and target.name == st.anchor:
                new = (target.model_copy(update={"body": st.body, "cite": st.cite, "span": st.span}),)
        else:
            phase = st.model_copy(update={"place": None, "anchor": None})
            new = (phase, target) if st.place == "before" else (target, phase)
        deal = _splice(deal, target, new)
    return deal


def _placing_problem(deal: tuple[m.Statement, ...], st: m.Phase, found: list[m.Statement], path: str) -> Diagnostic:
    what = "replace" if st.place == "replace" else f"put a phase {st.place}"
    if found:
        lines = ", ".join(str(s.span.line) for s in found)
        where = f" of {PurePath(found[0].span.path).name}" if found[0].span.path else ""
        return Diagnostic(
            "ambiguous-override", f"cannot {what} '{st.anchor}': the base rule file has {len(found)} top-level "
            f"'{st.anchor}' statements (lines {lines}{where})", st.span.line, st.span.column, path=path,
            hint="put the one meant in a named phase of the base, and name that phase")
    phases = [s.name for s in _top_level(deal) if isinstance(s, m.Phase)]
    keywords = sorted({k for s in _top_level(deal) if (k := keyword_of(s)) is not None})
    return Diagnostic(
        "unknown-override", f"cannot {what} '{st.anchor}': the base rule file has no top-level phase or "
        "statement of that name", st.span.line, st.span.column, path=path,
        hint="phases of the base: " + (", ".join(phases) or "none") + "; statements: " + ", ".join(keywords))
