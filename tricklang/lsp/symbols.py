"""Declarations of a rule file and of the files it extends: for outlines, definitions, completion."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .. import model as m
from ..explain import strip_comment
from .analysis import Analysis, Source, contains, name_column, nodes, word_at

KINDS = ("option", "zone", "role", "counter", "irregularity", "phase", "suit", "variable", "points",
         "choice", "declaration", "table", "melds", "bids", "order")


@dataclass(frozen=True)
class Symbol:
    """A declared name: what it is, where (file, 1-based line, columns of the name), its node."""

    name: str
    kind: str
    path: str
    line: int
    column: int
    end_column: int
    node: m.Node
    end_line: int = 0
    declared: str = ""
    """The declaration's first line as written (without comment)."""

    @property
    def detail(self) -> str:
        """A short description for outlines and completion lists."""
        node = self.node
        if isinstance(node, m.Option):
            return f"{node.type} option, default {_show(node.default)}"
        if isinstance(node, m.Zone):
            return f"zone, {'per ' + node.owner if node.owner != 'shared' else 'shared'}, {node.visibility}" + (
                ", pack" if node.pack else "") + (", bookkeeping (not in transcripts)" if node.bookkeeping else "")
        if isinstance(node, m.Counter):
            return f"counter per {node.owner}" + (", from 0 every deal" if node.per_deal else "") + (
                ", bookkeeping (not in transcripts)" if node.bookkeeping else "")
        if isinstance(node, m.BidTable):
            return "the bid table"
        if isinstance(node, m.MeldTable):
            return f"meld table, {sum(len(g.lines) for g in node.classes)} lines in {len(node.classes)} class(es)"
        if isinstance(node, m.Order):
            return "card order, " + ("no trumps" if node.trumps is None else f"{len(node.trumps)} trump item(s)")
        if isinstance(node, m.Table):
            return f"table of {len(node.values)} numbers, read by position from 0"
        return self.kind


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def declarations(source: Source) -> Iterator[Symbol]:
    """Every name one rule file declares, in source order by kind."""
    rules, text, path = source.rules, source.text, source.path

    lines = text.splitlines()

    def symbol(name: str, kind: str, node: m.Node, span: m.Span) -> Symbol:
        line, col, end = name_column(text, span, name)
        written = strip_comment(lines[line - 1]).strip() if 0 < line <= len(lines) else ""
        return Symbol(name, kind, path, line, col, end, node, span.end_line, written)

    for role in rules.roles:
        yield symbol(role.name, "role", role, role.span)
    if rules.deck is not None:
        for suit in rules.deck.suits:
            yield symbol(suit.name, "suit", suit, suit.span)
    for option in rules.options:
        yield symbol(option.name, "option", option, option.span)
    for zone in rules.zones:
        yield symbol(zone.name, "zone", zone, zone.span)
    for counter in rules.counters:
        yield symbol(counter.name, "counter", counter, counter.span)
    for table in rules.tables:
        yield symbol(table.name, "table", table, table.span)
    for melds in rules.melds:
        yield symbol(melds.name, "melds", melds, melds.span)
    for bids in rules.bids:
        yield symbol(bids.name, "bids", bids, bids.span)
    for order in rules.orders:
        yield symbol(order.name, "order", order, order.span)
    for point in rules.points:
        if point.table:
            yield symbol(point.table, "points", point, point.span)
    seen: set[tuple[str, str]] = set()
    for irr in rules.irregularities:
        yield symbol(irr.name, "irregularity", irr, irr.span)
    for node in nodes((rules.deal, tuple(i.body for i in rules.irregularities))):
        found: tuple[str, str] | None = None
        if isinstance(node, m.Phase):
            found = (node.name, "phase")
        elif isinstance(node, m.Let) and not node.rebind:
            found = (node.name, "variable")
        elif isinstance(node, m.ChoiceOption):
            found = (node.name, "choice")
        elif isinstance(node, m.Declaration):
            found = (node.name, "declaration")
        if found is None or (found in seen and found[1] != "phase"):
            continue
        seen.add(found)
        yield symbol(found[0], found[1], node, node.span)  # type: ignore[attr-defined]


def per_file(analysis: Analysis) -> list[list[Symbol]]:
    """The declarations of each file of the chain (computed once per analysis)."""
    found: list[list[Symbol]] | None = analysis.cache.get("symbols")
    if found is None:
        found = [list(declarations(source)) for source in analysis.chain]
        analysis.cache["symbols"] = found
    return found


def all_symbols(analysis: Analysis) -> list[Symbol]:
    """The declarations of the document then of its bases (nearest first): the first of a name wins."""
    return [s for declared in per_file(analysis) for s in declared]


def find(analysis: Analysis, name: str, *, kinds: tuple[str, ...] = KINDS, skip_own: bool = False) -> Symbol | None:
    """The declaration a name refers to, the document's own first, then its bases'."""
    files = per_file(analysis)
    for declared in files[1:] if skip_own else files:
        for s in declared:
            if s.name == name and s.kind in kinds:
                return s
    return None


@dataclass(frozen=True)
class Target:
    """Where a definition is: a file and a 1-based range on one line."""

    path: str
    line: int
    column: int
    end_column: int


def definition(analysis: Analysis, line: int, column: int) -> Target | None:
    """What the name under the cursor is declared as: `extends` goes to the base file,
    a variant's `phase NAME` to the base phase it replaces, any other name to its declaration."""
    own = analysis.own
    if own is None:
        return None
    span = own.extends_span
    if own.extends is not None and span is not None and span.line == line and analysis.extends_target:
        return Target(analysis.extends_target, 1, 1, 1)
    word, _, _ = word_at(analysis.text, line, column)
    if not word:
        return None
    replaced = _replaced_phase(analysis, word, line)
    if replaced is not None:
        return Target(replaced.path, replaced.line, replaced.column, replaced.end_column)
    symbol = find(analysis, word)
    if symbol is None:
        return None
    return Target(symbol.path, symbol.line, symbol.column, symbol.end_column)


def _replaced_phase(analysis: Analysis, word: str, line: int) -> Symbol | None:
    """On the `phase NAME:` line of a variant, the base's phase of that name."""
    own = analysis.own
    if own is None or own.extends is None:
        return None
    for node in nodes(own.deal):
        if isinstance(node, m.Phase) and node.name == word and node.span.line == line:
            return find(analysis, word, kinds=("phase",), skip_own=True)
    return None


def outline(analysis: Analysis) -> list[Symbol]:
    """The document's own phases, options, zones, counters, roles and irregularities, in source order."""
    if analysis.own is None:
        return []
    shown = ("phase", "option", "zone", "counter", "role", "irregularity", "table", "melds", "bids", "order")
    return sorted((s for s in per_file(analysis)[0] if s.kind in shown), key=lambda s: (s.line, s.column))


def in_span(symbol: Symbol, line: int, column: int) -> bool:
    """Whether a position lies inside the declaration of a symbol."""
    return contains(getattr(symbol.node, "span", None), line, column)
