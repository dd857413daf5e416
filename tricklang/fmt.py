"""The canonical layout of a rule file, in the manner of ``black`` or ``gofmt``.

:func:`format_text` re-lays a rule file out without changing what it means: two spaces
per block level, one space between words (none inside parentheses, before ``,`` and ``:``,
around ``..``, after a unary minus or between a function and its ``(``), law citations
written ``[C2, C25]`` and aligned at column :data:`CITATION_COLUMN` (or two spaces after a
longer line), every comment kept (a trailing comment follows two spaces after the code),
at most one blank line in a row, no trailing spaces and one final newline. A line broken
inside parentheses or with a backslash is joined, unless a comment sits inside it; then its
lines are only re-indented. A joined line whose code is longer than :data:`MAX_WIDTH` is
broken again with backslashes, preferably before a clause (:func:`_wrapped`).

>>> print(format_text('tricklang 1\\ndeck   [E2]\\n    suits s black,h red   # two\\n    ranks A K\\n'), end="")
tricklang 1
deck                                                               [E2]
  suits s black, h red  # two
  ranks A K
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .diagnostics import Diagnostic, RulesError
from .model import RuleFile
from .parser import SourceToken, parse, parse_with_tokens

CITATION_COLUMN = 67
"""Where a law citation starts (0-based: the 68th character of its line)."""

INDENT = "  "

MAX_WIDTH = 120
"""Longest line of code (its law citation and comment aside) left whole; a longer one is
broken with backslashes."""

CONTINUATION = "    "
"""The extra indentation of a continued line."""

_CLAUSE_WORDS = frozenset({"when", "and", "or", "during", "then", "by"})

_NO_SPACE_BEFORE = frozenset({",", ")", ":", ".."})
_NO_SPACE_AFTER = frozenset({"(", ".."})
_CALL_RULES = frozenset({"call", "choice_type"})


@dataclass
class _Line:
    """One logical line of code: its tokens and the physical lines it spans."""

    tokens: list[SourceToken]
    first: int  # 0-based index of its first physical line
    last: int  # ... and of its last
    column: int = 0  # its original indentation (tabs count 8)


def format_text(text: str, path: str = "<string>") -> str:
    """The canonical layout of rule-file text (``path`` names it in diagnostics).

    The result parses to the same model as ``text`` (spans aside; this is checked
    whenever the layout changes), and formatting it again changes nothing.

    Raises:
        RulesError: the text does not parse (syntax, indentation or a parser limit),
            or (``format-failed``, a bug in the formatter) the layout would change
            its meaning; nothing is formatted.
    """
    before, tokens = parse_with_tokens(text, path)
    physical = text.splitlines()
    result = _render(_logical_lines(tokens, physical), physical)
    if result == text:  # already formatted: the same text means the same
        return result
    try:
        after = parse(result, path)
    except RulesError:
        after = None
    if after is None or meaning(after) != meaning(before):
        message = "the formatter would change what this file means (a bug in tricklang fmt); left as it is"
        raise RulesError([Diagnostic("format-failed", message, path=path)], text)
    return result


_SPAN_KEYS = frozenset({"line", "column", "end_line", "end_column", "path"})


def meaning(rules: RuleFile) -> Any:
    """The model of a parsed rule file as plain data without source positions: two
    layouts of the same rules have equal meanings."""
    return _without_spans(rules.model_dump())


def _without_spans(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == _SPAN_KEYS:
            return None
        return {key: _without_spans(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_without_spans(item) for item in value]
    return value


def _indent_width(line: str) -> int:
    width = 0
    for char in line:
        if char == " ":
            width += 1
        elif char == "\t":
            width += 8
        elif char != "\f":
            break
    return width


def _logical_lines(tokens: Sequence[SourceToken], physical: list[str]) -> list[_Line]:
    """Group the tokens into logical lines (a line continues inside parentheses or after a backslash)."""
    lines: list[_Line] = []
    depth = 0
    current: _Line | None = None
    for tok in tokens:
        row = tok.line - 1
        if current is None or (depth == 0 and row > current.last and not _continued(physical[current.last])):
            current = _Line([], row, row, _indent_width(physical[row]))
            lines.append(current)
        current.tokens.append(tok)
        current.last = max(current.last, row)
        if tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth -= 1
    return lines


def _continued(line: str) -> bool:
    return _code_part(line).rstrip().endswith("\\")


def _comment_after(line: str, column: int) -> str:
    """The comment (``# ...``) in ``line`` after the 0-based ``column``, or ''."""
    rest = line[column:].strip()
    return rest if rest.startswith("#") else ""


def _render(lines: list[_Line], physical: list[str]) -> str:
    out: list[str] = []
    stack = [0]
    row = 0
    for line in lines:
        levels = _levels(stack, line.column)
        _comments(out, physical[row : line.first], stack, line.column, levels)
        out.extend(_code(line, physical, levels))
        row = line.last + 1
    _comments(out, physical[row:], stack, 0, 0)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def _levels(stack: list[int], column: int) -> int:
    """The block level of a code line at ``column``, updating the stack of open blocks' columns."""
    if column > stack[-1]:
        stack.append(column)
    while column < stack[-1]:
        stack.pop()
    return len(stack) - 1


def _comments(out: list[str], rows: list[str], stack: list[int], next_column: int, next_level: int) -> None:
    """Blank and comment-only lines before a code line: blank runs become one blank line;
    a comment keeps its block if it is indented deeper than the next line, else takes
    the next line's level."""
    for raw in rows:
        text = raw.strip()
        if not text:
            if out and out[-1]:
                out.append("")
            continue
        column = _indent_width(raw)
        level = next_level
        if column > next_column:
            deeper = [lvl for lvl, col in enumerate(stack) if col <= column and lvl >= next_level]
            level = max(deeper, default=next_level)
        out.append(INDENT * level + text)


def _code(line: _Line, physical: list[str], level: int) -> list[str]:
    """The formatted physical line(s) of one logical line."""
    tokens = line.tokens
    cite = tokens[-1] if tokens[-1].kind == "CITE" else None
    body = tokens[:-1] if cite else tokens
    last_tok = tokens[-1]
    comment = _comment_after(physical[line.last], last_tok.column - 1 + len(last_tok.text))
    if any(_code_part(physical[r]) != physical[r] for r in range(line.first, line.last)):
        return _reindented(line, physical, level)
    out = _wrapped(INDENT * level, body)
    if cite is not None:
        out[-1] = _with_citation(out[-1], _citation(cite.text))
    if comment:
        out[-1] += "  " + comment
    return out


def _code_part(line: str) -> str:
    """``line`` without its comment (a ``#`` outside a string starts one)."""
    in_string = False
    for index, char in enumerate(line):
        if char == '"':
            in_string = not in_string
        elif char == "#" and not in_string:
            return line[:index]
    return line


def _reindented(line: _Line, physical: list[str], level: int) -> list[str]:
    """A logical line with comments inside it: its lines shifted to the new indentation, else unchanged."""
    shift = len(INDENT) * level - line.column
    out = []
    for raw in physical[line.first : line.last + 1]:
        width = _indent_width(raw)
        out.append(" " * max(0, width + shift) + raw.strip())
    return out


def _chunks(tokens: Sequence[SourceToken]) -> list[tuple[str, int]]:
    """The line's words as the layout spaces them: (text, how good a break before it is),
    2 for a break at a clause (before `when`, `and`, `or`, `during`, `then`, `by`, a string,
    or after a comma, outside parentheses), 1 elsewhere outside parentheses, 0 inside them."""
    chunks: list[tuple[str, int]] = []
    depth = 0
    prev: SourceToken | None = None
    for tok in tokens:
        text = " ".join(tok.text.split()) if not tok.text.startswith('"') else tok.text
        if prev is None or not _spaced(prev, tok):
            if chunks:
                chunks[-1] = (chunks[-1][0] + text, chunks[-1][1])
            else:
                chunks.append((text, 0))
        else:
            clause = tok.text in _CLAUSE_WORDS or tok.kind == "STRING" or prev.text == ","
            chunks.append((text, 0 if depth else 2 if clause else 1))
        depth += (tok.text == "(") - (tok.text == ")")
        prev = tok
    return chunks


def _wrapped(indent: str, tokens: Sequence[SourceToken]) -> list[str]:
    """The line's code, broken with ``\\`` before words where it is longer than
    :data:`MAX_WIDTH` (continuation lines indented :data:`CONTINUATION` more), at the
    last clause boundary that leaves at least half the width used, else at the last
    word that fits; a word longer than the width (a string) stands alone on its line."""
    joined = indent + _join(tokens)
    if len(joined) <= MAX_WIDTH or not tokens:
        return [joined]
    chunks = _chunks(tokens)
    lines: list[str] = []
    start, lead = 0, indent
    while start < len(chunks):
        width = len(lead) + len(chunks[start][0])
        end = start + 1
        while end < len(chunks) and width + 1 + len(chunks[end][0]) + 2 <= MAX_WIDTH:
            width += 1 + len(chunks[end][0])
            end += 1
        if end < len(chunks):  # a break is due: the best place before ``end``
            end = _best_break(chunks, start, end, len(lead))
        text = lead + " ".join(c[0] for c in chunks[start:end])
        lines.append(text + (" \\" if end < len(chunks) else ""))
        start, lead = end, indent + CONTINUATION
    return lines


def _best_break(chunks: list[tuple[str, int]], start: int, end: int, lead: int) -> int:
    """Where to break a line of ``chunks[start:end]`` (all that fits): before the last
    clause, else before the last word outside parentheses, that leaves the line at least
    half the width long; else before ``end``."""
    lengths = [lead + sum(len(c[0]) + 1 for c in chunks[start:k]) - 1 for k in range(start + 1, end + 1)]
    for goodness in (2, 1):
        for k in range(end, start, -1):
            if chunks[k][1] >= goodness and lengths[k - start - 1] >= MAX_WIDTH // 2:
                return k
    return end


def _join(tokens: Sequence[SourceToken]) -> str:
    parts: list[str] = []
    prev: SourceToken | None = None
    for tok in tokens:
        if prev is not None and _spaced(prev, tok):
            parts.append(" ")
        parts.append(" ".join(tok.text.split()) if not tok.text.startswith('"') else tok.text)  # `bottom  of`: one space
        prev = tok
    return "".join(parts)


def _spaced(prev: SourceToken, tok: SourceToken) -> bool:
    """Whether a space separates two adjacent tokens of a line."""
    if tok.text in _NO_SPACE_BEFORE or prev.text in _NO_SPACE_AFTER:
        return False
    if prev.text == "-" and prev.rule == "neg":
        return False
    if tok.text == "(" and tok.rule == "irr_params":  # `irregularity name(extra: count 1..3)`
        return False
    return not (tok.text == "(" and prev.rule in _CALL_RULES and tok.rule in _CALL_RULES)


def _citation(text: str) -> str:
    """``[C2,C25]`` as ``[C2, C25]`` (the laws, as the parser reads them, are the same)."""
    laws = [part.strip() for part in text[1:-1].split(",") if part.strip()]
    return "[" + ", ".join(laws) + "]"


def _with_citation(code: str, cite: str) -> str:
    if len(code) <= CITATION_COLUMN - 2:
        return code.ljust(CITATION_COLUMN) + cite
    return code + "  " + cite
