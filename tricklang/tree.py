"""The pieces passed up Lark's tree while it becomes the model: spans, markers and
small helpers shared by the transformer's rules (:mod:`tricklang.transform_sections`,
:mod:`tricklang.transform_deal`)."""

from __future__ import annotations

import typing
from typing import Any

from lark import Token, Transformer, Tree

from . import model as m
from .words import snake

MAX_DIGITS = 18
"""Numbers longer than this many digits are refused (``limit-exceeded``)."""


class NumberTooLargeError(Exception):
    """A number longer than :data:`MAX_DIGITS` digits (reported as ``limit-exceeded``)."""

    def __init__(self, token: Token) -> None:
        super().__init__(str(token))
        self.token = token


class BoundRules(Transformer[Token, m.RuleFile]):
    """A transformer that binds each of its rules' methods once (per transformer) and keeps
    it on the instance: Lark looks a method up by name for every node and token, and
    looking up a ``v_args`` method makes a new wrapper (``functools.update_wrapper``) each time."""

    def _bind(self, name: str) -> None:
        if name not in self.__dict__:
            method = getattr(self, name, None)
            if method is not None:
                self.__dict__[name] = method  # (shadows the class's wrapper, which binds anew at each lookup)

    def _call_userfunc(self, tree: Tree[Token], new_children: list[Any] | None = None) -> Any:
        self._bind(tree.data)
        return super()._call_userfunc(tree, new_children)  # type: ignore[no-untyped-call]

    def _call_userfunc_token(self, token: Token) -> Any:
        self._bind(token.type)
        return super()._call_userfunc_token(token)  # type: ignore[no-untyped-call]


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


EXPR_TYPES: tuple[type[m.Expr], ...] = typing.get_args(m.Expr)
"""The classes of expressions (the members of :data:`tricklang.model.Expr`)."""


def stmts_of(children: list[Any]) -> tuple[Any, ...]:
    return tuple(c for c in children if isinstance(c, m.Stmt))


class Block:
    """An indented suite, before it is attached to its statement."""

    def __init__(self, stmts: tuple[Any, ...], cite: m.Citation | None) -> None:
        self.stmts = stmts
        self.cite = cite


class Tagged:
    """A keyword alternative (e.g. ``at_once``) passed up the tree."""

    def __init__(self, tag: str, value: Any = None, span: m.Span | None = None) -> None:
        self.tag = tag
        self.value = value
        self.span = span


class Matching:
    def __init__(self, pattern: Any) -> None:
        self.pattern = pattern


class Fallback:
    """`, else Q` after `matching P`."""

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


# ---------------------------------------------------------------- statements built by convention

_MARKERS: dict[type, tuple[str, str]] = {Matching: ("matching", "pattern"), Guard: ("guard", "expr"),
                                         FromMarker: ("start", "expr"), ExceptMarker: ("exclude", "expr"),
                                         Fallback: ("fallback", "pattern")}
"""Each marker, the field it fills, and the marker's attribute holding the value."""


def build_statement(cls: type[m.Stmt], children: list[Any], span: m.Span) -> m.Stmt:
    """A statement from its grammar rule's children, by convention: a citation is its ``cite``,
    a marker (``matching``, ``when``, ``from``, ``except``) fills the field of that name, a block
    its ``body``, and every other child (a node, a name, a string without its quotes) the next
    field not yet filled, in the order the class declares them. A statement whose rule follows
    this needs no method of its own in the transformer (see docs/architecture-language.md).

    Raises:
        TypeError: the children do not fit the fields (a grammar rule and a model class that
            disagree: a bug, which the tests of every statement kind find).
    """
    values: dict[str, Any] = {"span": span}
    order = [name for name in cls.model_fields if name not in ("cite", "span")]
    rest: list[Any] = []
    for child in children:
        if isinstance(child, m.Citation):
            values["cite"] = child
        elif type(child) in _MARKERS:
            field, attr = _MARKERS[type(child)]
            values[field] = getattr(child, attr)
        elif isinstance(child, Block):
            values["body"] = child.stmts
            if child.cite is not None:
                values.setdefault("cite", child.cite)
        elif isinstance(child, str) and child.startswith('"'):
            rest.append(child[1:-1])
        elif isinstance(child, str):
            rest.append(str(child))
        else:
            rest.append(child)
    free = [name for name in order if name not in values]
    if len(rest) > len(free) or any(name not in cls.model_fields for name in values):
        raise TypeError(f"the grammar's {snake(cls.__name__)} does not fit the fields of {cls.__name__}")
    values.update(zip(free, rest, strict=False))
    return cls.model_construct(**values)
