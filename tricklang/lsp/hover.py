"""Hover texts (Markdown): a statement's reading and laws, a card pattern's cards under
each trump, an option's type, default and doc, and what any other declared name is."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import model as m
from ..deck import NO_TRUMP, CardModel
from ..diagnostics import RulesError
from ..explain import allowed, cited_laws, explain_statement
from ..ruleset import read_limited
from . import symbols
from .analysis import NOT_A_FILE, Analysis, deck_fits, enclosing, same_file, word_at

PATTERNS = (m.PatWord, m.PatCard, m.PatNot, m.PatOr)
READABLE = (m.Stmt, m.Obligation, m.Declaration, m.Irregularity)


@dataclass(frozen=True)
class HoverText:
    """Markdown and the 1-based range it is about (one line)."""

    markdown: str
    line: int
    column: int
    end_column: int
    end_line: int = 0


def hover(analysis: Analysis, line: int, column: int) -> HoverText | None:
    """What to show for the position, or None."""
    own = analysis.own
    if own is None:
        return None
    word, start, end = word_at(analysis.text, line, column)
    option = symbols.find(analysis, word, kinds=("option",)) if word else None
    if option is not None and isinstance(option.node, m.Option):
        return HoverText(option_text(option.node, law_summaries(analysis)), line, start, end)
    path = enclosing(analysis, line, column)
    pattern = next((n for n in path if isinstance(n, PATTERNS)), None)
    deck = analysis.merged.deck if analysis.merged is not None else own.deck
    if pattern is not None and deck_fits(deck) and deck is not None and word not in ("matching", "has", "holding"):
        try:
            text = pattern_text(deck, pattern)
        except (ValueError, IndexError, KeyError):  # a rank or suit the deck does not have: the checker says so
            text = ""
        if text:
            span = pattern.span
            return HoverText(text, span.line, span.column, span.end_column, span.end_line)
    node = next((n for n in reversed(path) if isinstance(n, READABLE)), None)
    if node is not None and (reading := statement_text(analysis, node)):
        span = node.span
        return HoverText(reading, span.line, span.column, span.end_column, span.end_line)
    symbol = symbols.find(analysis, word) if word else None
    if symbol is not None:
        where = "" if same_file(symbol.path, analysis.path) else f" (in {Path(symbol.path).name})"
        declared = re.sub(r"\s{3,}", "  ", symbol.declared)
        shown = f"\n\n```\n{declared}\n```" if declared else ""
        laws = "\n".join(["", *law_lines(getattr(symbol.node, "cite", None), law_summaries(analysis))])
        return HoverText(f"**{symbol.kind}** `{symbol.name}`: {symbol.detail}{where}{shown}{laws}", line, start, end)
    return None


# ---------------------------------------------------------------- options


def option_text(o: m.Option, laws: dict[str, str] | None = None) -> str:
    """An option's type, default, allowed values, doc and laws."""
    default = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
    kind = f"choice({', '.join(o.choices)})" if o.type == "choice" else o.type
    out = [f"**option** `{o.name}`: {kind} = `{default}`", "", f"Allowed: {allowed(o)}."]
    if o.doc:
        out += ["", o.doc]
    out += law_lines(o.cite, laws)
    return "\n".join(out)


def law_lines(cite: m.Citation | None, summaries: dict[str, str] | None, extra: list[str] | None = None) -> list[str]:
    """``Laws: [E42]`` and, where a laws table beside the rule files has them, their summaries."""
    laws = list(dict.fromkeys([*(cite.laws if cite is not None else ()), *(extra or [])]))
    if not laws:
        return []
    out = ["", f"Laws: [{', '.join(laws)}]"]
    for law in laws:
        for one in _expand(law):
            summary = (summaries or {}).get(one)
            if summary:
                out.append(f"- **{one}**: {summary}")
    return out


def _expand(law: str) -> list[str]:
    """``E22-E25`` as ``E22 E23 E24 E25`` (at most 12), a single law as itself."""
    found = re.fullmatch(r"([A-Z]+)(\d+)-([A-Z]*)(\d+)", law)
    if found is None:
        return [law]
    prefix, low, high = found.group(1), int(found.group(2)), int(found.group(4))
    return [f"{prefix}{n}" for n in range(low, min(high, low + 11) + 1)]


MAX_LAWS_BYTES = 256_000
"""A larger ``laws.md`` is not read (as a rule file over the size limit)."""

LAW = re.compile(r"[A-Z]+\d+[a-z]?")


def _laws_table(folder: str) -> dict[str, str]:
    """Law summaries from a ``laws.md`` beside the rule files (``| E42 | summary | ...`` rows),
    read as rule files are read: a regular file (no FIFO, device or folder; never blocks),
    at most :data:`MAX_LAWS_BYTES`; read again only when it changes."""
    file = Path(folder) / "laws.md"
    try:
        info = file.stat()
    except (OSError, ValueError):
        return {}
    return _laws_of(str(file), info.st_ino, info.st_mtime_ns, info.st_size)


@lru_cache(maxsize=8)
def _laws_of(file: str, *changed: int) -> dict[str, str]:
    try:
        text = read_limited(Path(file), "laws table", MAX_LAWS_BYTES)
    except RulesError:
        return {}
    return parse_laws(text)


def parse_laws(text: str) -> dict[str, str]:
    """The ``| LAW | summary |`` rows of a Markdown table, in one pass over the lines.

    >>> parse_laws("| Law | Summary |\\n|---|---|\\n| E42 | The dealer deals five. | x |\\n| E7a|Cut.|")
    {'E42': 'The dealer deals five.', 'E7a': 'Cut.'}
    """
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = line.split("|", 3)
        if len(cells) < 4:
            continue
        law, summary = cells[1].strip(), cells[2].strip()
        if summary and LAW.fullmatch(law):
            out[law] = summary
    return out


def law_summaries(analysis: Analysis) -> dict[str, str]:
    """The law summaries of the ``laws.md`` beside the document or beside any file it extends."""
    out: dict[str, str] = {}
    for source in reversed(analysis.chain or ()):
        if source.path != NOT_A_FILE:
            out.update(_laws_table(str(Path(source.path).parent)))
    return out


# ---------------------------------------------------------------- statements


def statement_text(analysis: Analysis, node: m.Node) -> str:
    """A statement's plain-English reading (as ``tricklang explain`` words it) and its laws."""
    reading = ""
    if analysis.ruleset is not None:
        try:
            reading = read_statement(analysis, node)
        except Exception:  # noqa: BLE001 - a half-written statement may not read; the laws still show
            reading = ""
    cite = getattr(node, "cite", None)
    span = getattr(node, "span", None)
    if "laws" not in analysis.cache:
        analysis.cache["laws"] = cited_laws(analysis.text)
    on_line = analysis.cache["laws"].get(span.line, []) if span is not None else []
    lines = law_lines(cite, law_summaries(analysis), on_line)
    if not reading and not lines:
        return ""
    return "\n".join(([reading] if reading else []) + lines).strip()


def read_statement(analysis: Analysis, node: m.Node) -> str:
    """The reading of one node by ``tricklang explain`` (empty when it has none), at most 40 lines."""
    assert analysis.ruleset is not None
    lines = explain_statement(analysis.ruleset, node).splitlines()
    return "\n".join(lines[:40] + (["- …"] if len(lines) > 40 else []))


# ---------------------------------------------------------------- card patterns


def pattern_text(deck: m.Deck, pattern: m.Pattern) -> str:
    """The cards a pattern matches under each trump suit and with no trump."""
    cards = CardModel(deck)
    test = cards.pattern(pattern)
    rows: list[tuple[str, list[str]]] = []
    for t, suit in enumerate([*cards.suit_names, None]):
        label = f"{suit} trumps" if suit is not None else "no trump"
        trump = t if suit is not None else NO_TRUMP
        rows.append((label, [code for c, code in enumerate(cards.codes) if test(c, trump)]))
    head = "**card pattern**: the cards it matches"
    if all(found == rows[0][1] for _, found in rows):
        return f"{head}, whatever the trump: {_cards(rows[0][1])}"
    return "\n".join([f"{head} under each trump:", ""] + [f"- {label}: {_cards(found)}" for label, found in rows])


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "none"
