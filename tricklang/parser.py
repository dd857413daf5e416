"""From rule-file text to the typed model: Lark parsing and tree transformation.

The transformer's rules are in :mod:`tricklang.transform_sections` and :mod:`tricklang.transform_deal`;
with :mod:`tricklang.tree`, :mod:`tricklang.stored_parser` (Lark plugins for a quick start) and
:mod:`tricklang.expected` (what the grammar accepts at a cursor) they are the only modules that
import Lark. Syntax errors become :class:`~tricklang.diagnostics.Diagnostic` objects with a
position, the line, a caret and what was expected.
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Iterator
from functools import lru_cache
from importlib import import_module
from types import ModuleType
from typing import NamedTuple

import lark
from lark import Lark, Token, Tree
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.grammar import Rule
from lark.indenter import DedentError, Indenter
from lark.lexer import TerminalDef

from . import model as m
from . import stored_parser
from .diagnostics import Diagnostic, RulesError
from .transform_bids import BidRules
from .transform_deal import DealRules
from .transform_exprs import ExprRules
from .transform_sections import SectionRules
from .tree import MAX_DIGITS, BoundRules, NumberTooLargeError
from .words import STATEMENT_KEYWORDS

MAX_SOURCE_BYTES = 256_000
"""Rule files larger than this are refused before parsing."""

MAX_LINES = 3_000
"""Lines of rules (not counting blank and comment lines) in one file."""

MAX_LINE_CHARS = 4_000
"""Characters in one line."""

MAX_NESTING = 40
"""Indentation deeper than this many levels is refused (see ``too-deep``)."""

MAX_DEPTH = 150
"""Syntax trees nested deeper than this (long operator chains count once per
operator) are refused (see ``too-deep``), so that no later pass can overflow the stack."""

_CHAIN_RULES = frozenset({"or_expr", "and_expr", "comparison", "sum", "product"})


class _BadDedentError(DedentError):
    """A dedent to a column no enclosing block starts at, with the newline token
    that led to it (its end is the start of the offending line)."""

    def __init__(self, message: str, newline: Token, levels: tuple[int, ...]) -> None:
        super().__init__(message)
        self.newline = newline
        self.levels = levels


class _TrickIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def handle_NL(self, token: Token) -> Iterator[Token]:  # noqa: N802 - Lark naming
        levels = tuple(self.indent_level)
        try:
            yield from super().handle_NL(token)
        except DedentError as err:
            raise _BadDedentError(str(err), token, levels) from None


_PARSER_LOCK = threading.RLock()
"""The cached parser's indenter keeps state while it runs: one parse at a time."""


_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}
"""The checker's parser (:func:`_lark`)."""

_ALL_TOKENS_OPTIONS = {"parser": "lalr", "keep_all_tokens": True, "maybe_placeholders": False}
"""The formatter's parser (:func:`_lark_all_tokens`): its trees keep every token (keywords
and punctuation too), so its grammar compiles to other rules and LALR tables."""

TABLES = {"parse_tables": _OPTIONS, "fmt_parse_tables": _ALL_TOKENS_OPTIONS}
"""Each module of stored tables (in this package) and the Lark options its parser is made with."""


def _grammar() -> str:
    """The text of ``grammar.lark``, read beside this module (through ``importlib.resources``,
    which takes longer to import, only when the package is not plain files)."""
    try:
        with open(os.path.join(os.path.dirname(__file__), "grammar.lark"), encoding="utf-8") as file:
            return file.read()
    except OSError:
        from importlib import resources

        return resources.files("tricklang").joinpath("grammar.lark").read_text(encoding="utf-8")


def _options(name: str) -> dict[str, object]:
    """The Lark options of the tables module ``name``.

    Raises:
        ValueError: ``name`` is not one of :data:`TABLES`.
    """
    if name not in TABLES:
        raise ValueError(f"no stored parse tables named {name!r}")
    return dict(TABLES[name])


def _tables(name: str) -> ModuleType:
    _options(name)
    return import_module(f".{name}", __package__)


def _stored_or_analysed(name: str) -> Lark:
    """The parser of the tables module ``name``, rebuilt from its stored tables (plain
    Python literals, read like any module of the package; nothing is unpickled) when they
    were made from this grammar by this version of Lark, with the quick-start classes of
    :mod:`tricklang.stored_parser`; else analysed from the grammar by Lark alone."""
    grammar = _grammar()
    if stored_tables_match(grammar, name):
        tables = _tables(name)
        return stored_parser.load(tables.DATA, tables.MEMO, postlex=_TrickIndenter())
    return Lark(grammar, postlex=_TrickIndenter(), **_options(name))


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The checker's parser, from :mod:`tricklang.parse_tables` (see :func:`_stored_or_analysed`)."""
    return _stored_or_analysed("parse_tables")


def stored_tables_match(grammar: str | None = None, name: str = "parse_tables") -> bool:
    """Whether the tables module ``name`` (:mod:`tricklang.parse_tables` by default) was
    made from this grammar by the installed Lark, in the form this version reads.

    Raises:
        ValueError: ``name`` is not one of :data:`TABLES`.
    """
    tables, text = _tables(name), _grammar() if grammar is None else grammar
    made_with: tuple[object, ...] = (tables.LARK_VERSION, tables.GRAMMAR_SHA256, getattr(tables, "FORMAT", 1))
    return made_with == (lark.__version__, _sha256(text), stored_parser.TABLES_FORMAT)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def tables_source(name: str = "parse_tables") -> str:
    """The source of the tables module ``name`` (one of :data:`TABLES`): its parser's
    tables (Lark's own serialisation of its LALR analysis, made compact by
    :func:`tricklang.stored_parser.compact`, as Python literals) for the current grammar
    and Lark version. ``tests/make_parse_tables.py`` writes them.

    Raises:
        ValueError: ``name`` is not one of :data:`TABLES`.
    """
    grammar = _grammar()
    parser = Lark(grammar, postlex=_TrickIndenter(), **_options(name))
    data, memo = parser.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
    data, stored = stored_parser.compact(data, memo)
    user = "_lark" if name == "parse_tables" else "_lark_all_tokens"
    return "\n".join([
        f'"""The LALR tables of ``grammar.lark`` for the parser of :func:`tricklang.parser.{user}`, as Lark',
        "serialises them made compact (``stored_parser.compact``), by ``tests/make_parse_tables.py``: do not",
        'edit. They are used only while the grammar, the Lark version and the form are the ones below."""',
        "",
        "# fmt: off",
        f"LARK_VERSION = {lark.__version__!r}",
        f"GRAMMAR_SHA256 = {_sha256(grammar)!r}",
        f"FORMAT = {stored_parser.TABLES_FORMAT!r}",
        f"DATA = {data!r}",
        f"MEMO = {stored!r}",
        "",
    ])


# Friendly names for the grammar's terminals, used in "expected ..." messages.
_TERMINAL_NAMES = {
    "_NL": "end of line",
    "_INDENT": "an indented block",
    "_DEDENT": "end of block",
    "NAME": "a name",
    "INT": "a number",
    "SIGNED_INT": "a number",
    "STRING": 'a quoted string ("...")',
    "CITE": "a law citation like [E42]",
    "COLON": "':'",
    "COMMA": "','",
    "LPAR": "'('",
    "RPAR": "')'",
    "EQUAL": "'='",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*'",
    "MINUS": "'-'",
    "LOOP_KIND": "'player' or 'side'",
    "$END": "end of file",
}


def _describe_expected(expected: set[str]) -> str:
    names: list[str] = []
    for term in sorted(expected):
        if term in _TERMINAL_NAMES:
            name = _TERMINAL_NAMES[term]
        else:
            pattern = _lark().get_terminal(term).pattern if term in _terminal_names() else None
            value = getattr(pattern, "value", None)
            name = f"'{value}'" if isinstance(value, str) and pattern and pattern.type == "str" else term.lower()
        if name not in names:
            names.append(name)
    if not names:
        return "something else"
    if len(names) > 8:
        return ", ".join(names[:8]) + f" or one of {len(names) - 8} more"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]


@lru_cache(maxsize=1)
def _terminal_names() -> frozenset[str]:
    return frozenset(t.name for t in _lark().terminals)


_CITE_HINT = "cite laws as capital letters and a number: [E42], [C2, C25] or [E22-E31]"


def _line_of(text: str, line: int) -> str:
    lines = text.split("\n")  # as Lark counts lines
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _syntax_diagnostic(err: UnexpectedInput, path: str, text: str = "") -> Diagnostic:
    """The diagnostic for a Lark syntax error: what was found, where, and what was expected."""
    line = getattr(err, "line", 0) or 0
    column = getattr(err, "column", 0) or 0
    if isinstance(err, UnexpectedCharacters):
        return _unexpected_character(err, path, text, line, column)
    if isinstance(err, UnexpectedToken):
        return _reserved_word(err, path, text) or _unexpected_token(err, path, line, column)
    if isinstance(err, UnexpectedEOF):
        return Diagnostic(
            "syntax-error",
            f"unexpected end of file; expected {_describe_expected(set(err.expected or ()))}",
            line,
            column,
            path=path,
        )
    return Diagnostic("syntax-error", str(err).splitlines()[0], line, column, path=path)


def _unexpected_character(err: UnexpectedCharacters, path: str, text: str, line: int, column: int) -> Diagnostic:
    """A character no token starts with: an unterminated string, a bad citation, or any other."""
    char = err.char
    rest = _line_of(text, line)[column - 1 :] if column > 0 else ""
    if char == '"' and '"' not in rest[1:]:
        return Diagnostic(
            "syntax-error",
            "unterminated string",
            line,
            column,
            column + len(rest.rstrip()),
            hint='close the string with a \'"\' on the same line',
            path=path,
        )
    if char == "[":
        close = rest.find("]")
        shown = rest[: close + 1] if close >= 0 else rest.rstrip()
        what = "malformed law citation" if close >= 0 else "unclosed law citation"
        return Diagnostic(
            "syntax-error", f"{what} {shown!r}", line, column, column + len(shown), hint=_CITE_HINT, path=path
        )
    return Diagnostic(
        "syntax-error",
        f"unexpected character {char!r}",
        line,
        column,
        column + 1,
        hint="expected " + _describe_expected(set(err.allowed or ())),
        path=path,
    )


_AFTER_A_PLAYER = frozenset({"chooses", "scores", "loses", "discards", "takes", "draws", "bids", "names", "makes",
                              "leads", "becomes", "of", "=="})
"""Words that follow a player (or a role, a variable) at the start of a statement: after a
reserved word instead, the writer meant the reserved word as a name."""

_WORD = re.compile(r"[^\W\d][\w']*")


def _reserved_word(err: UnexpectedToken, path: str, text: str) -> Diagnostic | None:
    """A reserved word used as a name: as the name itself (``let turn = 1``), or at the start
    of a statement where a player's name would go (``turn chooses:``, with a role named
    ``turn``). The message says the word is reserved and names the statement it starts."""
    tok = err.token
    word, line = str(tok), tok.line or 0
    expected = set(err.accepts or err.expected or ())
    if word in STATEMENT_KEYWORDS and "NAME" in expected:
        start, end = tok.column or 1, (tok.column or 1) + len(word)
    else:
        source = _line_of(text, line)
        first = _WORD.match(source.lstrip())
        if first is None or first.group() not in STATEMENT_KEYWORDS or word not in _AFTER_A_PLAYER:
            return None
        start = len(source) - len(source.lstrip()) + 1
        rest = source[start - 1 + len(first.group()):]
        if (tok.column or 0) != start + len(first.group()) + len(rest) - len(rest.lstrip()):
            return None  # not the word right after the reserved one
        word, end = first.group(), start + len(first.group())
    return Diagnostic(
        "syntax-error",
        f"'{word}' is a reserved word: it starts the statement '{STATEMENT_KEYWORDS[word]}', "
        "so it cannot be used as a name here",
        line,
        start,
        end,
        hint=f"rename what you called '{word}' (a role, a variable, an option...), e.g. '{word}_player'",
        path=path,
    )


def _unexpected_token(err: UnexpectedToken, path: str, line: int, column: int) -> Diagnostic:
    """A token where the grammar wants another: a stray indentation, or what was expected."""
    tok = err.token
    expected = set(err.accepts or err.expected or ())
    if tok.type == "_INDENT":
        # The token borrows the position of the newline before it: point at the
        # indentation of the offending line instead.
        hint = "only a line ending in ':' or a section heading (deck, points, match, deal) opens a block"
        return Diagnostic(
            "bad-indent",
            "unexpected indentation: this line is indented more than the line before it",
            tok.end_line or line,
            1,
            max(2, tok.end_column or 2),
            hint=hint + (_TAB_NOTE if "\t" in str(tok) else ""),
            path=path,
        )
    if tok.type == "$END":
        what = "end of file"
    elif tok.type == "_NL":
        what = "end of line"
    elif tok.type == "_DEDENT":
        what = "end of block"
    else:
        what = repr(str(tok))
    hint = ""
    if "_INDENT" in expected and len(expected) == 1:
        hint = "a line ending in ':' (or a section heading) must be followed by an indented block"
    end = (tok.end_column or column + 1) if tok.type not in ("_NL", "_DEDENT", "$END") else column + 1
    return Diagnostic(
        "syntax-error",
        f"unexpected {what}; expected {_describe_expected(expected)}",
        tok.line or line,
        tok.column or column,
        end,
        hint=hint,
        path=path,
    )


_TAB_NOTE = "; a tab counts as 8 spaces, so indent with spaces only"


def _bad_dedent_diagnostic(err: _BadDedentError, path: str) -> Diagnostic:
    newline = err.newline
    indent_str = str(newline).rsplit("\n", 1)[-1]
    indent = indent_str.count(" ") + indent_str.count("\t") * _TrickIndenter.tab_len
    below = max((n for n in err.levels if n < indent), default=0)
    above = min((n for n in err.levels if n > indent), default=below)
    hint = f"indent it by {below} or {above} spaces, to line up with a line above it"
    return Diagnostic(
        "bad-indent",
        "this line's indentation does not match any enclosing block",
        newline.end_line or 0,
        1,
        1 + max(1, len(indent_str)),
        hint=hint + (_TAB_NOTE if "\t" in indent_str else ""),
        path=path,
    )


class _ToModel(BoundRules, SectionRules, DealRules, ExprRules, BidRules):
    """Lark's tree to the model; the rules are in the mixins."""

    def __init__(self, path: str) -> None:
        super().__init__(visit_tokens=True)
        self.path = path


def parse(source: str, path: str = "<string>") -> m.RuleFile:
    """Parse rule-file text into a :class:`~tricklang.model.RuleFile`.

    Raises:
        RulesError: with one ``syntax-error``, ``bad-indent``, ``too-deep``,
            ``limit-exceeded`` (a number of more than :data:`MAX_DIGITS` digits, more
            than :data:`MAX_LINES` lines, a line of more than :data:`MAX_LINE_CHARS`) or
            ``too-large`` diagnostic giving the position, the line, a caret and what
            was expected.
    """
    if len(source.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        raise RulesError(
            [Diagnostic("too-large", f"rule file is larger than {MAX_SOURCE_BYTES} bytes", path=path)],
            source=None,
        )
    _check_lines(source, path)
    depth = _max_indent_depth(source)
    if depth[0] > MAX_NESTING:
        raise RulesError(
            [
                Diagnostic(
                    "too-deep",
                    f"blocks are nested more than {MAX_NESTING} levels deep",
                    depth[1],
                    1,
                    path=path,
                )
            ],
            source,
        )
    text = source if source.endswith("\n") else source + "\n"
    try:
        with _PARSER_LOCK:
            tree = _lark().parse(text)
    except _BadDedentError as err:
        raise RulesError([_bad_dedent_diagnostic(err, path)], source) from None
    except UnexpectedInput as err:
        raise RulesError([_syntax_diagnostic(err, path, text)], source) from None
    deep = _too_deep(tree)
    if deep is not None:
        raise RulesError(
            [
                Diagnostic(
                    "too-deep",
                    f"this is nested more than {MAX_DEPTH} levels deep",
                    getattr(deep.meta, "line", 0),
                    getattr(deep.meta, "column", 0),
                    hint="split it up, e.g. with 'let'",
                    path=path,
                )
            ],
            source,
        )
    try:
        result = _ToModel(path).transform(tree)
    except VisitError as err:
        raise RulesError([_visit_diagnostic(err, path)], source) from None
    assert isinstance(result, m.RuleFile)
    return result


def _too_deep(tree: Tree[Token]) -> Tree[Token] | None:
    """The first subtree nested more than :data:`MAX_DEPTH` levels deep, if any.

    Iterative, so that it cannot itself overflow the stack. A chain like
    ``1 + 2 + 3`` is one flat tree but becomes nested nodes, one per operator."""
    stack: list[tuple[Tree[Token], int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            return node
        subtrees = [c for c in node.children if isinstance(c, Tree)]
        step = 1 + (len(subtrees) - 1 if node.data in _CHAIN_RULES and subtrees else 0)
        stack.extend((c, depth + step) for c in subtrees)
    return None


def _visit_diagnostic(err: VisitError, path: str) -> Diagnostic:
    if isinstance(err.orig_exc, NumberTooLargeError):
        tok = err.orig_exc.token
        return Diagnostic(
            "limit-exceeded",
            f"number is too large: numbers have at most {MAX_DIGITS} digits",
            tok.line or 0,
            tok.column or 0,
            tok.end_column or 0,
            path=path,
        )
    # Otherwise a bug in the transformer: still say where it happened.
    obj = err.obj
    meta = obj.meta if isinstance(obj, Tree) else obj
    return Diagnostic(
        "internal-error",
        f"could not build the model: {err.orig_exc}",
        getattr(meta, "line", 0) or 0,
        getattr(meta, "column", 0) or 0,
        path=path,
    )


def _check_lines(source: str, path: str) -> None:
    """Refuse, before the (slow) parse, a file of more than :data:`MAX_LINES` lines of
    code or with a line longer than :data:`MAX_LINE_CHARS` characters."""
    code = 0
    for number, line in enumerate(source.split("\n"), 1):
        if len(line) > MAX_LINE_CHARS:
            raise RulesError([Diagnostic("limit-exceeded", f"line {number} is longer than {MAX_LINE_CHARS} characters",
                                         number, 1, path=path, hint="split it (a long expression: with 'let')")])
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            code += 1
            if code > MAX_LINES:
                raise RulesError([Diagnostic("limit-exceeded", f"more than {MAX_LINES} lines of rules", number, 1,
                                             path=path)])


def _max_indent_depth(source: str) -> tuple[int, int]:
    levels = [0]
    deepest, where = 0, 0
    for number, line in enumerate(source.split("\n"), 1):
        stripped = line.lstrip(" \t")
        if not stripped.strip() or stripped.startswith("#"):
            continue
        lead = line[: len(line) - len(stripped)]
        indent = lead.count(" ") + lead.count("\t") * _TrickIndenter.tab_len  # as the indenter counts
        while levels and indent < levels[-1]:
            levels.pop()
        if not levels or indent > levels[-1]:
            levels.append(indent)
        if len(levels) - 1 > deepest:
            deepest, where = len(levels) - 1, number
    return deepest, where


# ---------------------------------------------------------------- tokens, for the formatter


class SourceToken(NamedTuple):
    """One significant token of a rule file, with the grammar rule it belongs to."""

    text: str
    kind: str
    """The terminal's name: ``NAME``, ``INT``, ``CITE``, ``LPAR``, ``MINUS``..."""
    rule: str
    """The rule of the tree node holding it: ``call``, ``neg``, ``sum``..."""
    line: int
    column: int


_LAYOUT_TOKENS = frozenset({"_NL", "_INDENT", "_DEDENT"})


@lru_cache(maxsize=1)
def _lark_all_tokens() -> Lark:
    """The formatter's parser, from :mod:`tricklang.fmt_parse_tables` (see :func:`_stored_or_analysed`)."""
    return _stored_or_analysed("fmt_parse_tables")


def source_tokens(source: str, path: str = "<string>") -> list[SourceToken]:
    """Every token of the rule file (keywords and punctuation included, newlines,
    indentation and comments not), in source order, each with its grammar rule.

    Raises:
        RulesError: the text does not parse (the diagnostics of :func:`parse`).
    """
    return parse_with_tokens(source, path)[1]


def parse_with_tokens(source: str, path: str = "<string>") -> tuple[m.RuleFile, list[SourceToken]]:
    """:func:`parse` and :func:`source_tokens` of one text, each parser reading it once.

    Raises:
        RulesError: the text does not parse (the diagnostics of :func:`parse`).
    """
    rules = parse(source, path)
    with _PARSER_LOCK:  # the parser's indenter keeps state while it runs
        tree = _lark_all_tokens().parse(source if source.endswith("\n") else source + "\n")
    found: list[SourceToken] = []
    stack: list[Tree[Token]] = [tree]
    while stack:
        node = stack.pop()
        for child in node.children:
            if isinstance(child, Tree):
                stack.append(child)
            elif isinstance(child, Token) and child.type not in _LAYOUT_TOKENS:
                found.append(SourceToken(str(child), child.type, str(node.data), child.line or 0, child.column or 0))
    found.sort(key=lambda t: (t.line, t.column))
    return rules, found
