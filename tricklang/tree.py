"""The pieces passed up Lark's tree while it becomes the model: spans, markers and
small helpers shared by the transformer's rules (:mod:`tricklang.transform_sections`,
:mod:`tricklang.transform_deal`)."""

from __future__ import annotations

from typing import Any

from lark import Token

from . import model as m

MAX_DIGITS = 18
"""Numbers longer than this many digits are refused (``limit-exceeded``)."""


class NumberTooLargeError(Exception):
    """A number longer than :data:`MAX_DIGITS` digits (reported as ``limit-exceeded``)."""

    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


def span_of(meta: Any) -> m.Span:
    if getattr(meta, "empty", False) or not hasattr(meta, "line"):
        return m.NO_SPAN
    return m.Span.model_construct(line=meta.line, column=meta.column, end_line=meta.end_line, end_column=meta.end_column)


def tok_span(tok: Token) -> m.Span:
    return m.Span.model_construct(
        line=tok.line or 0,
        column=tok.column or 0,
        end_line=tok.end_line or tok.line or 0,
        end_column=tok.end_column or (tok.column or 0) + len(tok),
    )


def one_of(children: list[Any], kind: type) -> Any:
    for child in children:
        if isinstance(child, kind):
            return child
    return None


def cite_of(children: list[Any]) -> m.Citation | None:
    c = one_of(children, m.Citation)
    return c if isinstance(c, m.Citation) else None


def exprs_of(children: list[Any]) -> list[Any]:
    return [c for c in children if isinstance(c, EXPR_TYPES)]


EXPR_TYPES = (m.IntLit, m.Name, m.Of, m.Call, m.BinOp, m.Not, m.Neg, m.Has, m.CardHolder)


def stmts_of(children: list[Any]) -> tuple[Any, ...]:
    return tuple(c for c in children if isinstance(c, m.Stmt))


class Block:
    """An indented suite, before it is attached to its statement."""

    def __init__(self, stmts: tuple[Any, ...], cite: m.Citation | None) -> None:
        self.stmts = stmts
        self.cite = cite


class Tagged:
    """A keyword alternative (e.g. ``at_once``) passed up the tree."""

    def __init__(self, tag: str, value: Any = None) -> None:
        self.tag = tag
        self.value = value


class Matching:
    def __init__(self, pattern: Any) -> None:
        self.pattern = pattern


class Guard:
    def __init__(self, expr: Any) -> None:
        self.expr = expr


class FromMarker:
    def __init__(self, expr: Any) -> None:
        self.expr = expr


class ExceptMarker:
    def __init__(self, expr: Any) -> None:
        self.expr = expr
