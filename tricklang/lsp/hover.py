"""Hover texts (Markdown): a statement's reading and laws, a card pattern's cards under
each trump, an option's type, default and doc, and what any other declared name is."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import model as m
from ..ruleset import card_codes
from . import symbols
from .analysis import Analysis, enclosing, word_at

PATTERNS = (m.PatWord, m.PatCard, m.PatNot, m.PatOr)
READABLE = (m.Stmt, m.Obligation, m.Declaration, m.Irregularity, m.Role, m.Zone, m.PointCard)


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
        return HoverText(option_text(option.node, _laws_file(option.path)), line, start, end)
    path = enclosing(own, line, column)
    pattern = next((n for n in path if isinstance(n, PATTERNS)), None)
    deck = analysis.merged.deck if analysis.merged is not None else own.deck
    if pattern is not None and deck is not None and word not in ("matching", "has", "holding"):
        text = pattern_text(deck, pattern)
        if text:
            span = pattern.span
            return HoverText(text, span.line, span.column, span.end_column, span.end_line)
    node = next((n for n in reversed(path) if isinstance(n, READABLE)), None)
    if node is not None and (reading := statement_text(analysis, node)):
        span = node.span
        return HoverText(reading, span.line, span.column, span.end_column, span.end_line)
    symbol = symbols.find(analysis, word) if word else None
    if symbol is not None:
        return HoverText(f"**{symbol.kind}** `{symbol.name}`: {symbol.detail}", line, start, end)
    return None


# ---------------------------------------------------------------- options


def allowed(o: m.Option) -> str:
    """The values an option accepts, in words."""
    if o.type == "bool":
        return "true or false"
    if o.type == "choice":
        return " or ".join(f"`{c}`" for c in o.choices)
    if o.low is not None and o.high is not None:
        return f"a number in {o.low}..{o.high}"
    return "a number"


def option_text(o: m.Option, laws: dict[str, str] | None = None) -> str:
    """An option's type, default, allowed values, doc and laws."""
    default = str(o.default).lower() if isinstance(o.default, bool) else str(o.default)
    kind = f"choice({', '.join(o.choices)})" if o.type == "choice" else o.type
    out = [f"**option** `{o.name}`: {kind} = `{default}`", "", f"Allowed: {allowed(o)}."]
    if o.doc:
        out += ["", o.doc]
    out += law_lines(o.cite, laws)
    return "\n".join(out)


def law_lines(cite: m.Citation | None, laws: dict[str, str] | None) -> list[str]:
    """``Laws: [E42]`` and, where the laws table beside the rule file has them, their summaries."""
    if cite is None:
        return []
    out = ["", f"Laws: {cite}"]
    for law in cite.laws:
        for one in _expand(law):
            summary = (laws or {}).get(one)
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


@lru_cache(maxsize=8)
def _laws_table(folder: str) -> dict[str, str]:
    """Law summaries from a ``laws.md`` beside the rule files (``| E42 | summary | ...`` rows)."""
    try:
        text = (Path(folder) / "laws.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    rows = re.findall(r"^\|\s*([A-Z]+\d+[a-z]?)\s*\|\s*([^|]+?)\s*\|", text, flags=re.MULTILINE)
    return dict(rows)


def _laws_file(path: str) -> dict[str, str]:
    return _laws_table(str(Path(path).parent)) if path else {}


# ---------------------------------------------------------------- statements


def statement_text(analysis: Analysis, node: m.Node) -> str:
    """A statement's plain-English reading (as ``tricklang explain`` words it) and its laws."""
    laws = _laws_file(analysis.path)
    reading = ""
    if analysis.ruleset is not None:
        try:
            reading = read_statement(analysis, node)
        except Exception:  # noqa: BLE001 - a half-written statement may not read; the laws still show
            reading = ""
    cite = getattr(node, "cite", None)
    lines = law_lines(cite, laws)
    if not reading and not lines:
        return ""
    return "\n".join(([reading] if reading else []) + lines).strip()


def read_statement(analysis: Analysis, node: m.Node) -> str:
    """The reading of one node by the explain module (empty when it has none for it)."""
    from ..explain import explain_statement  # type: ignore[import-not-found, unused-ignore]

    assert analysis.ruleset is not None
    return str(explain_statement(analysis.ruleset, node))


# ---------------------------------------------------------------- card patterns


def pattern_text(deck: m.Deck, pattern: m.Pattern) -> str:
    """The cards a pattern matches under each trump suit and with no trump."""
    codes = card_codes(deck)
    test = _compile(deck, pattern)
    rows: list[tuple[str, list[str]]] = []
    for t, suit in enumerate([*deck.suits, None]):
        label = f"{suit.name} trumps" if suit is not None else "no trump"
        rows.append((label, [codes[c] for c in range(len(codes)) if test(c, t if suit is not None else -1)]))
    head = "**card pattern**: the cards it matches"
    if all(cards == rows[0][1] for _, cards in rows):
        return f"{head}, whatever the trump: {_cards(rows[0][1])}"
    return "\n".join([f"{head} under each trump:", ""] + [f"- {label}: {_cards(cards)}" for label, cards in rows])


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "none"


Test = Callable[[int, int], bool]


def _compile(deck: m.Deck, p: m.Pattern) -> Test:
    """``test(card, trump)`` for a pattern (cards by deck index, trump a suit index or -1 for none)."""
    ranks, suits = list(deck.ranks), [s.name for s in deck.suits]
    nr = len(ranks)

    def rank(c: int) -> int:
        return c % nr

    def suit(c: int) -> int:
        return c // nr

    trumps = [_trump_cards(deck, t) for t in range(len(suits))]

    def effective(c: int, t: int) -> int:
        return t if t >= 0 and c in trumps[t] else suit(c)

    def build(p: m.Pattern) -> Test:
        if isinstance(p, m.PatWord):
            w = p.word
            if w == "any":
                return lambda c, t: True
            if w == "trump":
                return lambda c, t: t >= 0 and effective(c, t) == t
            if w in suits:
                s = suits.index(w)
                return lambda c, t: effective(c, t) == s
            r = ranks.index(w) if w in ranks else -1
            return lambda c, t: rank(c) == r
        if isinstance(p, m.PatCard):
            r = ranks.index(p.rank) if p.rank in ranks else -1
            if p.suit.same_colour:
                colours = [s.colour for s in deck.suits]
                return lambda c, t: (t >= 0 and rank(c) == r and suit(c) != t
                                     and colours[suit(c)] == colours[t])
            if p.suit.name == "trump":
                return lambda c, t: t >= 0 and rank(c) == r and suit(c) == t
            s = suits.index(p.suit.name) if p.suit.name in suits else -1
            return lambda c, t: rank(c) == r and suit(c) == s
        if isinstance(p, m.PatNot):
            inner = build(p.operand)
            return lambda c, t: not inner(c, t)
        tests = [build(o) for o in p.options]
        return lambda c, t: any(f(c, t) for f in tests)

    return build(p)


def _trump_cards(deck: m.Deck, t: int) -> set[int]:
    """The cards of the trump suit when suit ``t`` is trumps: its ranks, or those `trump ranks`
    lists (words are ranks of that suit, patterns add other suits' cards, as the Left Pedro)."""
    nr = len(deck.ranks)
    if deck.trump_ranks is None:
        return {t * nr + r for r in range(nr)}
    plain = m.Deck(suits=deck.suits, ranks=deck.ranks, span=deck.span, ranks_span=deck.ranks_span)
    cards: set[int] = set()
    for item in deck.trump_ranks:
        if isinstance(item, str):
            if item in deck.ranks:
                cards.add(t * nr + deck.ranks.index(item))
        else:
            test = _compile(plain, item)
            cards |= {c for c in range(len(deck.suits) * nr) if test(c, t)}
    return cards
