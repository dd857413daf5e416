"""One open document, analysed: its diagnostics, its model, the files it extends.

Nothing here knows the Language Server Protocol: positions are the rule file's own
(1-based lines, 1-based columns counted in characters); :mod:`tricklang.lsp.server`
converts them for the client. An analysis never raises: whatever the text, the
worst outcome is a document with diagnostics and no model.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import model as m
from .. import walk
from ..check_cards import MAX_SUITS
from ..check_statements import MAX_CARDS
from ..deck import suit_rank_lists
from ..diagnostics import Diagnostic, RulesError, TrickLangError
from ..extend import MAX_EXTENDS_DEPTH, merge
from ..parser import parse
from ..ruleset import Ruleset, extended_file, loads, read_limited

NOT_A_FILE = "<string>"
"""The path of a document that is not a file on disk (an unsaved buffer)."""


@dataclass(frozen=True)
class Source:
    """One rule file of a document's `extends` chain: where it is, its text, its model."""

    path: str
    text: str
    rules: m.RuleFile


@dataclass
class Analysis:
    """What the server knows about one version of a document.

    ``chain`` is the document itself then each base it extends, nearest first
    (empty when the document does not parse); ``merged`` is the rules with every
    base applied; ``ruleset`` is set when the whole chain parses, even if the
    checker found errors, so that hovers still read the statements.
    """

    path: str
    text: str
    diagnostics: list[Diagnostic]
    chain: tuple[Source, ...] = ()
    merged: m.RuleFile | None = None
    ruleset: Ruleset | None = None
    extends_target: str | None = field(default=None)
    cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    """What features computed once for this version (symbols, spans), by name."""

    @property
    def own(self) -> m.RuleFile | None:
        """The document's own model (None when it does not parse)."""
        return self.chain[0].rules if self.chain else None

    @property
    def bases(self) -> tuple[Source, ...]:
        return self.chain[1:]


def analyse(text: str, path: str) -> Analysis:
    """Diagnose and model a document; never raises.

    The diagnostics are exactly those of ``tricklang check`` on the same text
    (errors then warnings), or one ``internal-error`` if checking itself failed.
    """
    diagnostics = diagnose(text, path)
    try:
        chain = tuple(_chain(text, path))
    except Exception:  # noqa: BLE001 - a model is a convenience; the diagnostics already say what is wrong
        chain = ()
    merged: m.RuleFile | None = None
    ruleset: Ruleset | None = None
    if chain:
        try:
            merged = chain[-1].rules
            for source in reversed(chain[:-1]):
                merged, _ = merge(merged, source.rules)
            options = {o.name: o.default for o in merged.options}
            ruleset = Ruleset(rules=merged, source=text, path=path, options=options,
                              bases=tuple(s.text for s in chain[1:]))
        except Exception:  # noqa: BLE001 - same reason as above
            merged, ruleset = None, None
    base = base_file(chain[0].rules, path) if chain and chain[0].rules.extends else None
    target = str(base) if base is not None else None
    return Analysis(path, text, diagnostics, chain, merged, ruleset, target)


def diagnose(text: str, path: str) -> list[Diagnostic]:
    """The diagnostics ``tricklang check`` reports for this text at this path."""
    try:
        return list(loads(text, path=path).warnings)
    except RulesError as err:
        return list(err.diagnostics) + list(err.warnings)
    except TrickLangError as err:
        return [Diagnostic("error", str(err), path=path)]
    except RecursionError:
        return [Diagnostic("too-deep", "the rule file is nested too deeply to check", path=path)]
    except Exception as err:  # noqa: BLE001 - the server must survive any text
        return [Diagnostic("internal-error", f"the checker failed on this text: {type(err).__name__}: {err}",
                           path=path, hint="please report this rule file")]


def _chain(text: str, path: str) -> Iterator[Source]:
    """The document and the files it extends, as far as they can be read and parsed.

    A base is found, confined and read exactly as loading does (the extending file's
    folder or a bundled game; regular files up to the size limit).
    """
    seen: set[Path] = set()
    for _ in range(MAX_EXTENDS_DEPTH + 1):
        rules = parse(text, path)
        yield Source(path, text, rules)
        if rules.extends is None:
            return
        try:
            base = extended_file(rules, path, text)
            if base in seen:
                return
            seen.add(base)
            text, path = read_limited(base, "base rule file"), str(base)
        except RulesError:
            return


def base_file(rules: m.RuleFile, path: str) -> Path | None:
    """The file a document's `extends` names, where loading would find it (None if nowhere)."""
    try:
        return extended_file(rules, path)
    except RulesError:
        return None


def deck_fits(deck: m.Deck | None) -> bool:
    """Whether a deck is within the checker's limits: only then are its cards listed
    (completion) or a pattern's cards worked out (hover). A deck the checker refuses
    (two million cards) gets its suits and ranks named, nothing per card."""
    return (deck is not None and len(deck.suits) <= MAX_SUITS
            and sum(len(ranks) for ranks in suit_rank_lists(deck)) <= MAX_CARDS)


def same_file(a: str, b: str) -> bool:
    """Whether two diagnostic paths name the same file."""
    if a == b:
        return True
    if NOT_A_FILE in (a, b):
        return False
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


# ---------------------------------------------------------------- walking the model


def nodes(root: Any) -> Iterator[m.Node]:
    """Every syntax node under ``root`` (a node, or a tuple of them), itself included, depth first."""
    if isinstance(root, m.Node):
        yield from walk.nodes(root)
    elif isinstance(root, (tuple, list)):
        for item in root:
            yield from nodes(item)


def contains(span: m.Span | None, line: int, column: int) -> bool:
    """Whether a 1-based position lies inside a span (its end included, for a cursor after a word)."""
    if span is None or span.line == 0:
        return False
    if not span.line <= line <= span.end_line:
        return False
    if line == span.line and column < span.column:
        return False
    return not (line == span.end_line and column > span.end_column)


def enclosing(analysis: Analysis, line: int, column: int) -> list[m.Node]:
    """The nodes of the document's own model whose span contains the position, outermost first."""
    spanned: list[tuple[m.Node, m.Span]] | None = analysis.cache.get("spanned")
    if spanned is None:
        spanned = [(n, span) for n in nodes(analysis.own) if isinstance(span := getattr(n, "span", None), m.Span)]
        analysis.cache["spanned"] = spanned
    return [node for node, span in spanned if contains(span, line, column)]


WORD_RE = re.compile(r"[^\W\d][\w']*|\d+")


def word_at(text: str, line: int, column: int) -> tuple[str, int, int]:
    """The word (a name or a number) at a 1-based position: the word, its first column, its end column."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return "", column, column
    for match in WORD_RE.finditer(lines[line - 1]):
        if match.start() + 1 <= column <= match.end() + 1:
            return match.group(), match.start() + 1, match.end() + 1
    return "", column, column


def name_column(text: str, span: m.Span, name: str) -> tuple[int, int, int]:
    """Where a declared name is written on its declaration line: (line, column, end column)."""
    lines = text.splitlines()
    if 0 < span.line <= len(lines):
        line = lines[span.line - 1]
        for match in re.finditer(rf"(?<![\w']){re.escape(name)}(?![\w'])", line):
            if match.start() + 1 >= span.column:
                return span.line, match.start() + 1, match.end() + 1
    return span.line, span.column, span.column + len(name)
