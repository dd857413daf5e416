"""From rule-file text to the typed model: Lark parsing and tree transformation.

This is the only module that imports Lark. Syntax errors become
:class:`~tricklang.diagnostics.Diagnostic` objects with a position, the line, a
caret and what was expected.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, NamedTuple, cast

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import (
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
)
from lark.indenter import DedentError, Indenter

from . import model as m
from .diagnostics import Diagnostic, RulesError

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

MAX_DIGITS = 18
"""Numbers longer than this many digits are refused (``limit-exceeded``)."""


class _NumberTooLargeError(Exception):
    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


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


@lru_cache(maxsize=1)
def _lark() -> Lark:
    grammar = resources.files("tricklang").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(
        grammar,
        parser="lalr",
        postlex=_TrickIndenter(),
        propagate_positions=True,
        maybe_placeholders=False,
        cache=True,  # the grammar's analysis, kept in the temporary directory, keyed by grammar and Lark version
    )


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
    line = getattr(err, "line", 0) or 0
    column = getattr(err, "column", 0) or 0
    if isinstance(err, UnexpectedCharacters):
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
    if isinstance(err, UnexpectedToken):
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
    if isinstance(err, UnexpectedEOF):
        return Diagnostic(
            "syntax-error",
            f"unexpected end of file; expected {_describe_expected(set(err.expected or ()))}",
            line,
            column,
            path=path,
        )
    return Diagnostic("syntax-error", str(err).splitlines()[0], line, column, path=path)


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


def _span(meta: Any) -> m.Span:
    if getattr(meta, "empty", False) or not hasattr(meta, "line"):
        return m.NO_SPAN
    return m.Span(line=meta.line, column=meta.column, end_line=meta.end_line, end_column=meta.end_column)


def _tok_span(tok: Token) -> m.Span:
    return m.Span(
        line=tok.line or 0,
        column=tok.column or 0,
        end_line=tok.end_line or tok.line or 0,
        end_column=tok.end_column or (tok.column or 0) + len(tok),
    )


def _one(children: list[Any], kind: type) -> Any:
    for child in children:
        if isinstance(child, kind):
            return child
    return None


def _cite(children: list[Any]) -> m.Citation | None:
    c = _one(children, m.Citation)
    return c if isinstance(c, m.Citation) else None


def _exprs(children: list[Any]) -> list[Any]:
    return [c for c in children if isinstance(c, _EXPR_TYPES)]


_EXPR_TYPES = (m.IntLit, m.Name, m.Of, m.Call, m.BinOp, m.Not, m.Neg, m.Has, m.CardHolder)


def _stmts(children: list[Any]) -> tuple[Any, ...]:
    return tuple(c for c in children if isinstance(c, m.Stmt))


class _Block:
    """An indented suite, before it is attached to its statement."""

    def __init__(self, stmts: tuple[Any, ...], cite: m.Citation | None) -> None:
        self.stmts = stmts
        self.cite = cite


class _Tagged:
    """A keyword alternative (e.g. ``at_once``) passed up the tree."""

    def __init__(self, tag: str, value: Any = None) -> None:
        self.tag = tag
        self.value = value


@v_args(meta=True)
class _ToModel(Transformer[Token, m.RuleFile]):
    def __init__(self, path: str) -> None:
        super().__init__(visit_tokens=True)
        self.path = path

    # ------------------------------------------------------------ tokens
    def INT(self, tok: Token) -> Token:  # noqa: N802 - Lark naming
        if len(tok.lstrip("-")) > MAX_DIGITS:
            raise _NumberTooLargeError(tok)
        return tok

    def SIGNED_INT(self, tok: Token) -> Token:  # noqa: N802 - Lark naming
        return self.INT(tok)

    def CITE(self, tok: Token) -> m.Citation:  # noqa: N802 - Lark naming
        body = str(tok)[1:-1]
        laws = tuple(part.strip() for part in body.split(",") if part.strip())
        return m.Citation(laws=laws, span=_tok_span(tok))

    def cite(self, meta: Any, children: list[Any]) -> m.Citation:
        c: m.Citation = children[0]
        return c

    # ------------------------------------------------------------ header
    def start(self, meta: Any, children: list[Any]) -> m.RuleFile:
        fields: dict[str, Any] = {"path": self.path}
        roles: list[m.Role] = []
        options: list[m.Option] = []
        zones: list[m.Zone] = []
        irregularities: list[m.Irregularity] = []
        counters: list[m.Counter] = []
        points: list[m.PointCard] = []
        sections: list[tuple[str, m.Span]] = []
        for child in children:
            if isinstance(child, _Tagged):
                tag, (value, span) = child.tag, child.value
                sections.append((tag, span))
                if tag == "version":
                    fields["version"], fields["version_span"] = value, span
                elif tag == "deal":
                    fields["deal"], fields["deal_span"] = value, span
                elif tag == "points":
                    points.extend(value)
                elif tag == "extends":
                    fields["extends"], fields["extends_span"] = value, span
                elif tag in fields:
                    continue  # a duplicate section: the checker reports it from `sections`
                else:
                    fields[tag] = value
            elif isinstance(child, m.Role):
                roles.append(child)
            elif isinstance(child, m.Option):
                options.append(child)
            elif isinstance(child, m.Zone):
                zones.append(child)
            elif isinstance(child, m.Irregularity):
                irregularities.append(child)
            elif isinstance(child, m.Counter):
                counters.append(child)
        return m.RuleFile(
            **fields,
            roles=tuple(roles),
            options=tuple(options),
            zones=tuple(zones),
            points=tuple(points),
            irregularities=tuple(irregularities),
            counters=tuple(counters),
            sections=tuple(sections),
        )

    def extends(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("extends", (str(children[0])[1:-1], _span(meta)))

    def counter(self, meta: Any, children: list[Any]) -> m.Counter:
        return m.Counter(name=str(children[0]), owner=children[1].tag, cite=_cite(children), span=_span(meta))

    def version(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("version", (int(children[0]), _span(meta)))

    def game(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("game", (str(children[0])[1:-1], _span(meta)))

    def source(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("source", (str(children[0])[1:-1], _span(meta)))

    def players(self, meta: Any, children: list[Any]) -> _Tagged:
        teams = _one(children, tuple) or ()
        node = m.Players(count=int(children[0]), teams=teams, cite=_cite(children), span=_span(meta))
        return _Tagged("players", (node, _span(meta)))

    def partnerships(self, meta: Any, children: list[Any]) -> tuple[tuple[int, ...], ...]:
        return tuple(children)

    def team(self, meta: Any, children: list[Any]) -> tuple[int, ...]:
        return tuple(int(c) for c in children)

    def role(self, meta: Any, children: list[Any]) -> m.Role:
        return m.Role(name=str(children[0]), value=children[1], cite=_cite(children), span=_span(meta))

    # ------------------------------------------------------------ deck
    def deck(self, meta: Any, children: list[Any]) -> _Tagged:
        suits: tuple[m.SuitDecl, ...] = ()
        ranks: tuple[str, ...] = ()
        ranks_span = _span(meta)
        trump: tuple[Any, ...] | None = None
        trump_span = None
        for child in children:
            if isinstance(child, _Tagged):
                if child.tag == "suits":
                    suits = child.value
                elif child.tag == "ranks":
                    ranks, ranks_span = child.value
                elif child.tag == "trump_ranks":
                    trump, trump_span = child.value
        node = m.Deck(
            suits=suits,
            ranks=ranks,
            trump_ranks=trump,
            cite=_cite(children),
            span=_span(meta),
            ranks_span=ranks_span,
            trump_span=trump_span,
        )
        return _Tagged("deck", (node, _span(meta)))

    def suits(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("suits", tuple(c for c in children if isinstance(c, m.SuitDecl)))

    def suit_decl(self, meta: Any, children: list[Any]) -> m.SuitDecl:
        return m.SuitDecl(name=str(children[0]), colour=str(children[1]), span=_span(meta))

    def ranks(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("ranks", (tuple(str(c) for c in children if isinstance(c, Token)), _span(meta)))

    def trump_ranks(self, meta: Any, children: list[Any]) -> _Tagged:
        items: list[Any] = []
        for c in children:
            if isinstance(c, Token):
                items.append(str(c))
            elif isinstance(c, m.PatOr) and len(c.options) == 1:
                items.append(c.options[0])
            elif not isinstance(c, m.Citation):
                items.append(c)
        return _Tagged("trump_ranks", (tuple(items), _span(meta)))

    # ------------------------------------------------------------ options and zones
    def option(self, meta: Any, children: list[Any]) -> m.Option:
        name = str(children[0])
        kind, choices = children[1].value
        default_tok: Token = children[2]
        domain = _one(children, tuple)
        doc = next((str(c)[1:-1] for c in children[3:] if isinstance(c, Token) and c.type == "STRING"), "")
        default: int | bool | str
        text = str(default_tok)
        if default_tok.type == "SIGNED_INT":
            default = int(text)
        elif text in ("true", "false"):
            default = text == "true"
        else:
            default = text
        return m.Option(
            name=name,
            type=kind,
            default=default,
            choices=choices,
            low=domain[0] if domain else None,
            high=domain[1] if domain else None,
            doc=doc,
            cite=_cite(children),
            span=_span(meta),
        )

    def int_type(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("type", ("int", ()))

    def bool_type(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("type", ("bool", ()))

    def choice_type(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("type", ("choice", tuple(str(c) for c in children)))

    def opt_value(self, meta: Any, children: list[Any]) -> Token:
        tok: Token = children[0]
        return tok

    def domain(self, meta: Any, children: list[Any]) -> tuple[int, int]:
        return (int(children[0]), int(children[1]))

    def zone(self, meta: Any, children: list[Any]) -> m.Zone:
        return m.Zone(
            name=str(children[0]),
            owner=children[1].tag,
            visibility=children[2].tag,
            pack=any(isinstance(c, _Tagged) and c.tag == "pack" for c in children),
            cite=_cite(children),
            span=_span(meta),
        )

    def zone_pack(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("pack")

    def per_player(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("player")

    def per_side(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("side")

    def shared(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("shared")

    def public(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("public")

    def owner(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("owner")

    def hidden(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("hidden")

    def points(self, meta: Any, children: list[Any]) -> _Tagged:
        cite = _cite(children)
        table = next((str(c) for c in children if isinstance(c, Token) and c.type == "NAME"), "")
        lines = []
        for c in children:
            if isinstance(c, m.PointCard):
                update: dict[str, Any] = {"table": table}
                if c.cite is None and cite is not None:
                    update["cite"] = cite
                lines.append(c.model_copy(update=update))
        return _Tagged("points", (tuple(lines), _span(meta)))

    def point_line(self, meta: Any, children: list[Any]) -> m.PointCard:
        return m.PointCard(
            label=str(children[0])[1:-1],
            pattern=children[1],
            value=int(children[2]),
            cite=_cite(children),
            span=_span(meta),
        )

    # ------------------------------------------------------------ match
    def match(self, meta: Any, children: list[Any]) -> _Tagged:
        fields: dict[str, Any] = {}
        cites: list[m.Citation] = []
        for c in children:
            if isinstance(c, _Tagged):
                value, cite = c.value
                if c.tag == "target":
                    fields["target"], fields["target_when"] = value
                else:
                    fields[c.tag] = value
                if cite is not None:
                    cites.append(cite)
        node = m.Match(**fields, cite=_cite(children), cites=tuple(cites), span=_span(meta))
        return _Tagged("match", (node, _span(meta)))

    def first_dealer(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("first_dealer", (children[0].value, _cite(children)))

    def fd_random(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("fd", "random")

    def fd_seat(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("fd", int(children[0]))

    def rotation(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("rotation", (children[0].value, _cite(children)))

    def rot_left(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("rot", "left")

    def rot_right(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("rot", "right")

    def rot_never(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("rot", "never")

    def target(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("target", ((children[0], children[1].tag), _cite(children)))

    def at_once(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("at_once")

    def after_deal(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("after_deal")

    def ties(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("ties", (children[0], _cite(children)))

    def deal_limit(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("deal_limit", (int(children[0]), _cite(children)))

    def lowest_wins(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("lowest_wins", (True, _cite(children)))

    # ------------------------------------------------------------ the deal
    def deal_section(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("deal", (_stmts(children), _span(meta)))

    def stmt(self, meta: Any, children: list[Any]) -> Any:
        node = children[0]
        cite = _cite(children[1:])
        if cite is not None and isinstance(node, m.Stmt):
            return node.model_copy(update={"cite": cite})
        return node

    def inline_suite(self, meta: Any, children: list[Any]) -> _Block:
        node = children[0]
        cite = _cite(children[1:])
        if cite is not None:
            node = node.model_copy(update={"cite": cite})
        return _Block((node,), None)

    def block_suite(self, meta: Any, children: list[Any]) -> _Block:
        # A block's citation covers the statements in it that cite nothing themselves.
        cite = _cite(children)
        stmts = _stmts(children)
        if cite is not None:
            stmts = tuple(s if s.cite is not None else s.model_copy(update={"cite": cite}) for s in stmts)
        return _Block(stmts, cite)

    def deal_cards(self, meta: Any, children: list[Any]) -> m.DealCards:
        start = _one(children, _FromMarker)
        return m.DealCards(
            packets=tuple(_exprs(children)), first=start.expr if start else None, span=_span(meta)
        )

    def start_from(self, meta: Any, children: list[Any]) -> _FromMarker:
        return _FromMarker(children[0])

    def except_clause(self, meta: Any, children: list[Any]) -> _ExceptMarker:
        return _ExceptMarker(children[0])

    def turn_up(self, meta: Any, children: list[Any]) -> m.TurnUp:
        return m.TurnUp(count=children[0], to=children[1], span=_span(meta))

    def set_trump(self, meta: Any, children: list[Any]) -> m.SetTrump:
        src: _Tagged = children[0]
        if src.tag == "zone":
            return m.SetTrump(source="zone", zone=src.value, span=_span(meta))
        if src.tag == "none":
            return m.SetTrump(source="none", span=_span(meta))
        return m.SetTrump(source="fixed", suit=src.value, span=_span(meta))

    def trump_of_zone(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("zone", children[0])

    def trump_none(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("none")

    def trump_fixed(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("fixed", str(children[0]))

    def name_trump(self, meta: Any, children: list[Any]) -> m.NameTrump:
        exprs = _exprs(children)
        return m.NameTrump(player=exprs[0], exclude=exprs[1] if len(exprs) > 1 else None, span=_span(meta))

    def score(self, meta: Any, children: list[Any]) -> m.Score:
        label = str(children[2])[1:-1] if len(children) > 2 else ""
        return m.Score(who=children[0], amount=children[1], label=label, span=_span(meta))

    def lose(self, meta: Any, children: list[Any]) -> m.Score:
        label = str(children[2])[1:-1] if len(children) > 2 else ""
        return m.Score(who=children[0], amount=children[1], label=label, negative=True, span=_span(meta))

    def let_stmt(self, meta: Any, children: list[Any]) -> m.Let:
        return m.Let(name=str(children[0]), value=children[1], span=_span(meta))

    def set_stmt(self, meta: Any, children: list[Any]) -> m.Let:
        return m.Let(name=str(children[0]), value=children[1], rebind=True, span=_span(meta))

    def stop(self, meta: Any, children: list[Any]) -> m.StopLoop:
        return m.StopLoop(span=_span(meta))

    def pass_stmt(self, meta: Any, children: list[Any]) -> m.Pass:
        return m.Pass(span=_span(meta))

    def end_deal(self, meta: Any, children: list[Any]) -> m.EndDeal:
        return m.EndDeal(span=_span(meta))

    def end_match(self, meta: Any, children: list[Any]) -> m.EndMatch:
        return m.EndMatch(span=_span(meta))

    def discard(self, meta: Any, children: list[Any]) -> m.Discard:
        return m.Discard(
            player=children[0],
            count=children[1],
            matching=_one(children, _Matching) and _one(children, _Matching).pattern,
            to=children[-1],
            span=_span(meta),
        )

    def take(self, meta: Any, children: list[Any]) -> m.Take:
        verb = next((str(c) for c in children if isinstance(c, Token) and c.type == "NAME"), "take")
        matching = _one(children, _Matching)
        return m.Take(
            player=children[0],
            count=children[1],
            matching=matching.pattern if matching else None,
            source=_one(children, m.ZoneRef),
            verb=verb,
            span=_span(meta),
        )

    def keep(self, meta: Any, children: list[Any]) -> m.Keep:
        zones = [c for c in children if isinstance(c, m.ZoneRef)]
        verb = next((str(c) for c in children if isinstance(c, Token) and c.type == "NAME"), "take")
        return m.Keep(player=children[0], source=zones[0], count=children[2], verb=verb,
                      rest=zones[1] if len(zones) > 1 else None, span=_span(meta))

    def cut(self, meta: Any, children: list[Any]) -> m.Cut:
        return m.Cut(zone=children[0], span=_span(meta))

    def draw(self, meta: Any, children: list[Any]) -> m.Draw:
        zones = [c for c in children if isinstance(c, m.ZoneRef)]
        matching = _one(children, _Matching)
        return m.Draw(
            player=children[0],
            count=children[1],
            source=zones[0],
            fallback=zones[1] if len(zones) > 1 else None,
            fallback_matching=matching.pattern if matching else None,
            span=_span(meta),
        )

    def move(self, meta: Any, children: list[Any]) -> m.Move:
        zones = [c for c in children if isinstance(c, m.ZoneRef)]
        matching = _one(children, _Matching)
        mode, amount = children[0].value
        return m.Move(
            mode=mode,
            amount=amount,
            matching=matching.pattern if matching else None,
            source=zones[0],
            to=zones[1],
            bottom=any(isinstance(c, Token) and c.type == "BOTTOM" for c in children),
            span=_span(meta),
        )

    def move_all(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("count", ("all", None))

    def move_top(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("count", ("top", children[0]))

    def move_random(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("count", ("random", children[0]))

    def redeal(self, meta: Any, children: list[Any]) -> m.Redeal:
        return m.Redeal(same_dealer=children[0].tag == "same", span=_span(meta))

    def same_dealer(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("same")

    def next_dealer(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("next")

    def expose(self, meta: Any, children: list[Any]) -> m.Expose:
        return m.Expose(zone=children[0], span=_span(meta))

    def forbid(self, meta: Any, children: list[Any]) -> m.Forbid:
        kind: Literal["declare", "choice"] = "choice" if str(children[0]) == "choice" else "declare"
        return m.Forbid(kind=kind, declaration=str(children[1]), who=children[2], span=_span(meta))

    def forbid_bidding(self, meta: Any, children: list[Any]) -> m.Forbid:
        return m.Forbid(kind="bidding", declaration="bid", who=children[0], span=_span(meta))

    def cancel(self, meta: Any, children: list[Any]) -> m.Cancel:
        return m.Cancel(label=str(children[0])[1:-1], who=children[1], span=_span(meta))

    def irregularity(self, meta: Any, children: list[Any]) -> m.Irregularity:
        name = str(children[0])
        by = next((c for c in children[1:] if isinstance(c, (m.IntLit, m.Name, m.Of, m.Call, m.BinOp, m.Not, m.Neg, m.Has))), None)
        phases = tuple(str(c) for c in children[1:] if isinstance(c, Token) and c.type == "NAME")
        guard = _one(children, _Guard)
        cite = _cite(children)
        body = _stmts(children)
        if cite is not None:
            body = tuple(s if s.cite is not None else s.model_copy(update={"cite": cite}) for s in body)
        return m.Irregularity(
            name=name, by=by, phases=phases, guard=guard.expr if guard else None, body=body, cite=cite, span=_span(meta)
        )

    def count_exact(self, meta: Any, children: list[Any]) -> m.Count:
        return m.Count(kind="exact", low=children[0], span=_span(meta))

    def count_range(self, meta: Any, children: list[Any]) -> m.Count:
        return m.Count(kind="range", low=children[0], high=children[1], span=_span(meta))

    def count_at_least(self, meta: Any, children: list[Any]) -> m.Count:
        return m.Count(kind="at_least", low=children[0], span=_span(meta))

    def count_to(self, meta: Any, children: list[Any]) -> m.Count:
        return m.Count(kind="to", low=children[0], span=_span(meta))

    def matching(self, meta: Any, children: list[Any]) -> _Matching:
        return _Matching(children[0])

    def zone_ref(self, meta: Any, children: list[Any]) -> m.ZoneRef:
        owner = children[1] if len(children) > 1 else None
        return m.ZoneRef(name=str(children[0]), owner=owner, span=_span(meta))

    def if_stmt(self, meta: Any, children: list[Any]) -> m.If:
        branches = [(children[0], children[1].stmts)]
        orelse: tuple[Any, ...] = ()
        cite = children[1].cite
        for c in children[2:]:
            if isinstance(c, _Tagged) and c.tag == "elif":
                branches.append(c.value)
            elif isinstance(c, _Tagged) and c.tag == "else":
                orelse = c.value
        return m.If(branches=tuple(branches), orelse=orelse, cite=cite, span=_span(meta))

    def elif_clause(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("elif", (children[0], children[1].stmts))

    def else_clause(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("else", children[0].stmts)

    def repeat_stmt(self, meta: Any, children: list[Any]) -> m.Repeat:
        block: _Block = children[-1]
        cond = children[1] if len(children) == 3 else None
        return m.Repeat(bound=children[0], condition=cond, body=block.stmts, cite=block.cite, span=_span(meta))

    def for_stmt(self, meta: Any, children: list[Any]) -> m.ForEach:
        block: _Block = children[-1]
        kind = str(children[0])
        start = exclude = None
        for c in children[1:-1]:
            if isinstance(c, _FromMarker):
                start = c.expr
            elif isinstance(c, _ExceptMarker):
                exclude = c.expr
        return m.ForEach(
            kind="side" if kind == "side" else "player",
            start=start,
            exclude=exclude,
            body=block.stmts,
            cite=block.cite,
            span=_span(meta),
        )

    def choose_stmt(self, meta: Any, children: list[Any]) -> m.Choose:
        options = tuple(c for c in children if isinstance(c, m.ChoiceOption))
        return m.Choose(player=children[0], options=options, cite=_cite(children), span=_span(meta))

    def choice_option(self, meta: Any, children: list[Any]) -> m.ChoiceOption:
        block: _Block = children[1]
        body = block.stmts
        return m.ChoiceOption(name=str(children[0]), body=body, span=_span(meta))

    def auction_stmt(self, meta: Any, children: list[Any]) -> m.Auction:
        kind: _Tagged = children[0]
        exprs = _exprs(children[1:])
        fields: dict[str, Any] = {}
        allpass = next((c for c in children[1:] if isinstance(c, _Tagged)), None)
        if allpass is not None:
            if allpass.tag == "all_pass_maker":
                fields["all_pass"] = "maker"
                fields["all_pass_maker"], fields["all_pass_bid"], fields["all_pass_cite"] = allpass.value
            else:
                fields["all_pass"] = "redeal"
                fields["all_pass_cite"] = allpass.value
        return m.Auction(
            kind=kind.tag,  # type: ignore[arg-type]
            start=exprs[0],
            low=exprs[1],
            high=exprs[2],
            cite=next((c for c in children if isinstance(c, m.Citation)), None),
            span=_span(meta),
            **fields,
        )

    def once_around(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("once_around")

    def until_passes(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("until_passes")

    def all_pass_maker(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("all_pass_maker", (children[0], children[1], _cite(children)))

    def all_pass_redeal(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("all_pass_redeal", _cite(children))

    def tricks_stmt(self, meta: Any, children: list[Any]) -> m.Tricks:
        exprs = _exprs(children)
        return m.Tricks(
            count=exprs[0],
            leader=exprs[1],
            obligations=tuple(c for c in children if isinstance(c, m.Obligation)),
            declarations=tuple(c for c in children if isinstance(c, m.Declaration)),
            cite=_cite(children),
            span=_span(meta),
        )

    def lead_first(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("lead_first", children[0])

    def not_first_trick(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("not_first_trick", children[0])

    def first_lead_trump(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("first_lead_trump")

    def phase_stmt(self, meta: Any, children: list[Any]) -> m.Phase:
        cite = _cite(children)
        body = _stmts(children)
        if cite is not None:
            body = tuple(s if s.cite is not None else s.model_copy(update={"cite": cite}) for s in body)
        return m.Phase(name=str(children[0]), body=body, cite=cite, span=_span(meta))

    def bid_stmt(self, meta: Any, children: list[Any]) -> m.Bid:
        exprs = _exprs(children)
        return m.Bid(player=exprs[0], low=exprs[1], high=exprs[2],
                     forbidden=exprs[3] if len(exprs) > 3 else None, span=_span(meta))

    def add_stmt(self, meta: Any, children: list[Any]) -> m.Add:
        return m.Add(amount=children[0], counter=str(children[1]), owner=children[2], span=_span(meta))

    def card_any(self, meta: Any, children: list[Any]) -> m.CardChoice:
        return m.CardChoice(pattern=children[0], span=_span(meta))

    def card_highest(self, meta: Any, children: list[Any]) -> m.CardChoice:
        return m.CardChoice(ranking="highest", pattern=children[0], span=_span(meta))

    def card_lowest(self, meta: Any, children: list[Any]) -> m.CardChoice:
        return m.CardChoice(ranking="lowest", pattern=children[0], span=_span(meta))

    def holder_of(self, meta: Any, children: list[Any]) -> m.CardHolder:
        return m.CardHolder(kind="holder", card=children[0], span=_span(meta))

    def original_holder_of(self, meta: Any, children: list[Any]) -> m.CardHolder:
        return m.CardHolder(kind="original", card=children[0], span=_span(meta))

    def taker_of(self, meta: Any, children: list[Any]) -> m.CardHolder:
        return m.CardHolder(kind="taker", card=children[0], span=_span(meta))

    def obligation(self, meta: Any, children: list[Any]) -> m.Obligation:
        kind: _Tagged = children[0]
        guard = _one(children, _Guard)
        return m.Obligation(
            kind=kind.tag,  # type: ignore[arg-type]
            pattern=kind.value,
            guard=guard.expr if guard else None,
            cite=_cite(children),
            span=_span(meta),
        )

    def follow_suit(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("follow_suit")

    def may_trump(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("may_trump")

    def trump_if_void(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("trump_if_void")

    def beat_if_able(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("beat_if_able")

    def lead_until_broken(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("lead_until_broken", children[0])

    def guard(self, meta: Any, children: list[Any]) -> _Guard:
        return _Guard(children[0])

    def declaration(self, meta: Any, children: list[Any]) -> m.Declaration:
        block: _Block = children[-1]
        guard = _one(children, _Guard)
        deadline: _Tagged = children[2]
        cite = block.cite
        body = block.stmts
        if cite is None and len(body) == 1 and body[0].cite is not None:
            cite = body[0].cite
        return m.Declaration(
            name=str(children[0]),
            holding=children[1],
            deadline=deadline.tag,  # type: ignore[arg-type]
            guard=guard.expr if guard else None,
            body=body,
            cite=cite,
            span=_span(meta),
        )

    def before_first_card(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("before_first_card")

    def before_playing_it(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("before_playing_it")

    def after_leading_it(self, meta: Any, children: list[Any]) -> _Tagged:
        return _Tagged("after_leading_it")

    # ------------------------------------------------------------ patterns
    def pattern(self, meta: Any, children: list[Any]) -> Any:
        if len(children) == 1:
            return children[0]
        return m.PatOr(options=tuple(children), span=_span(meta))

    def pat_negate(self, meta: Any, children: list[Any]) -> m.PatNot:
        return m.PatNot(operand=children[0], span=_span(meta))

    def pat_word(self, meta: Any, children: list[Any]) -> m.PatWord:
        return m.PatWord(word=str(children[0]), span=_span(meta))

    def pat_card(self, meta: Any, children: list[Any]) -> m.PatCard:
        return m.PatCard(rank=str(children[0]), suit=children[1], span=_span(meta))

    def suit_named(self, meta: Any, children: list[Any]) -> m.SuitRef:
        return m.SuitRef(name=str(children[0]), span=_span(meta))

    def suit_same_colour(self, meta: Any, children: list[Any]) -> m.SuitRef:
        return m.SuitRef(name=str(children[0]), same_colour=True, span=_span(meta))

    # ------------------------------------------------------------ expressions
    def int_lit(self, meta: Any, children: list[Any]) -> m.IntLit:
        return m.IntLit(value=int(children[0]), span=_span(meta))

    def name(self, meta: Any, children: list[Any]) -> m.Name:
        return m.Name(name=str(children[0]), span=_span(meta))

    def of_expr(self, meta: Any, children: list[Any]) -> m.Of:
        return m.Of(name=str(children[0]), arg=children[1], span=_span(meta))

    def call(self, meta: Any, children: list[Any]) -> m.Call:
        args = tuple(c for c in children[1:] if isinstance(c, m.Arg))
        return m.Call(name=str(children[0]), args=args, span=_span(meta))

    def arg(self, meta: Any, children: list[Any]) -> m.Arg:
        matching = _one(children, _Matching)
        return m.Arg(value=children[0], matching=matching.pattern if matching else None, span=_span(meta))

    def _chain(self, meta: Any, children: list[Any], ops: list[str] | None = None) -> Any:
        node = children[0]
        i = 1
        while i < len(children):
            if ops is not None:
                op, right = ops[0], children[i]
                i += 1
            else:
                op, right = str(children[i]), children[i + 1]
                i += 2
            # Each link of a chain like `5 - 2 - 1` spans its own operands only.
            first, last = node.span, right.span
            span = m.Span(line=first.line, column=first.column, end_line=last.end_line, end_column=last.end_column)
            node = m.BinOp(op=cast(m.BinaryOp, op), left=node, right=right, span=span)
        return node

    def or_expr(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children, ["or"])

    def and_expr(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children, ["and"])

    def comparison(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children)

    def sum(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children)

    def product(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children)

    def not_op(self, meta: Any, children: list[Any]) -> m.Not:
        return m.Not(operand=children[0], span=_span(meta))

    def neg(self, meta: Any, children: list[Any]) -> m.Neg:
        return m.Neg(operand=children[0], span=_span(meta))

    def has(self, meta: Any, children: list[Any]) -> m.Has:
        return m.Has(zone=children[0], pattern=children[1], span=_span(meta))


class _Matching:
    def __init__(self, pattern: Any) -> None:
        self.pattern = pattern


class _Guard:
    def __init__(self, expr: Any) -> None:
        self.expr = expr


class _FromMarker:
    def __init__(self, expr: Any) -> None:
        self.expr = expr


class _ExceptMarker:
    def __init__(self, expr: Any) -> None:
        self.expr = expr


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
    if isinstance(err.orig_exc, _NumberTooLargeError):
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
    grammar = resources.files("tricklang").joinpath("grammar.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", postlex=_TrickIndenter(), keep_all_tokens=True, maybe_placeholders=False)


def source_tokens(source: str, path: str = "<string>") -> list[SourceToken]:
    """Every token of the rule file (keywords and punctuation included, newlines,
    indentation and comments not), in source order, each with its grammar rule.

    Raises:
        RulesError: the text does not parse (the diagnostics of :func:`parse`).
    """
    parse(source, path)
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
    return found
