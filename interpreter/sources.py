"""Python source for the simplest expressions of a rule file, kept beside their closures.

:mod:`interpreter.expressions` compiles every expression to a closure; for the common
ones (numbers, variables, the dealer, ``left of P``, ``count(Z)``, ``tricks(P)``,
``min``/``max`` of such, comparisons, ``and``/``or``/``not``) it also registers here, keyed by the closure, a
:class:`Source`: one Python expression over ``core`` that computes the same value with
the same errors, without a call per node. The code generator writes it in place of
the closure's call (:func:`render`); an expression with any other node keeps its call.

No text of the rule file is ever part of a source: the text is made of the fixed
templates below, ints written by ``repr(int(...))`` and placeholders. What is not a
number (an error's message, ``isinstance``) is an object the generator hands to the
module under a generated name; ``{o<k>}`` placeholders name those objects and
``{t<k>}`` placeholders the temporaries (``:=``) a variable's or seat's check needs.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from .errors import RuleRuntimeError

Fn = Callable[[Any], Any]

_KEYS = itertools.count()
_PLACEHOLDER = re.compile(r"\{([ot][0-9]+)\}")

COMPARISONS = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
"""The comparison operators a source writes (the grammar's, each spelled here)."""


class Source:
    """An expression's source: ``text`` with placeholders, and the objects they name."""

    __slots__ = ("text", "objects")

    def __init__(self, text: str, objects: tuple[tuple[str, Any], ...] = ()) -> None:
        self.text = text
        self.objects = objects


_SOURCES: WeakKeyDictionary[Fn, Source] = WeakKeyDictionary()


def register(fn: Fn, text: str, *parts: Source, objects: tuple[tuple[str, Any], ...] = ()) -> Fn:
    """Record ``text`` (built from ``parts``' texts) as ``fn``'s source; returns ``fn``."""
    merged = objects + tuple(o for part in parts for o in part.objects)
    _SOURCES[fn] = Source(text, merged)
    return fn


def of(fn: Fn | None) -> Source | None:
    """The source registered for a closure, or None."""
    return None if fn is None else _SOURCES.get(fn)


def key(prefix: str) -> str:
    """A new placeholder key: ``o`` for an object, ``t`` for a temporary."""
    return f"{prefix}{next(_KEYS)}"


def raiser(message: str) -> Callable[[], Any]:
    """An object that raises :class:`RuleRuntimeError` with ``message`` when called."""

    def fail() -> Any:
        raise RuleRuntimeError(message)
    return fail


def number(value: object) -> str | None:
    """The source of an int or bool constant (``repr`` of the value), else None."""
    if type(value) is bool:
        return "True" if value else "False"
    if type(value) is int:
        return repr(int(value))
    return None


def variable(slot: int, message: str) -> Source:
    """``core.vars[slot]``, or a RuleRuntimeError with ``message`` while it holds no value."""
    t, fail = key("t"), key("o")
    return Source(f"({{{t}}} if ({{{t}}} := core.vars[{int(slot)}]) is not None else {{{fail}}}())",
                  ((fail, raiser(message)),))


def seat(inner: Source, n: int, message: str) -> Source:
    """``inner``'s value when it is a seat (an int 0 <= v < n), else a RuleRuntimeError."""
    t, fail, isinstance_ = key("t"), key("o"), key("o")
    text = (f"({{{t}}} if {{{isinstance_}}}({{{t}}} := {inner.text}, int) and 0 <= {{{t}}} < {int(n)} "
            f"else {{{fail}}}())")
    return Source(text, ((fail, raiser(message)), (isinstance_, isinstance)) + inner.objects)


ARITHMETIC = {"+": "+", "-": "-", "*": "*"}
"""The arithmetic operators a source writes (``%`` keeps its closure: its zero test)."""


def arithmetic(op: str, a: Source, b: Source, bound: int, message: str) -> Source:
    """``a op b`` (an operator of :data:`ARITHMETIC`), or a RuleRuntimeError with ``message``
    when the value leaves ``-bound..bound``; ``a`` is computed before ``b``, as the closure does."""
    t, fail = key("t"), key("o")
    text = (f"({{{t}}} if {-int(bound)} <= ({{{t}}} := ({a.text}) {ARITHMETIC[op]} ({b.text})) <= {int(bound)} "
            f"else {{{fail}}}())")
    return Source(text, ((fail, raiser(message)),) + a.objects + b.objects)


def render(source: Source, name_object: Callable[[Any], str]) -> str:
    """The source's text with its placeholders replaced: objects by the names
    ``name_object`` gives them in the module, temporaries by local names."""
    objects = dict(source.objects)
    names: dict[str, str] = {}
    temps = 0
    for match in _PLACEHOLDER.finditer(source.text):
        k = match.group(1)
        if k in names:
            continue
        if k[0] == "o":
            names[k] = name_object(objects[k])
        else:
            names[k] = f"_t{temps}"
            temps += 1
    return _PLACEHOLDER.sub(lambda mt: names[mt.group(1)], source.text)
