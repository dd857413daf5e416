"""The names of Cython's pure-Python mode, as no-ops, for generated modules run in CPython.

A generated module (:mod:`interpreter.codegen`) is written once, with the types Cython
reads (``@cython.cclass``, ``x: cython.int``, ``cython.declare(cython.int[4], [...])``):
compiled by Cython (:mod:`interpreter.native`) the types make it C; executed by
CPython it gets this module as ``cython``, whose decorators return what they decorate,
whose ``declare`` returns the value given, and whose ``compiled`` is False, so that the
same source runs unchanged. Cython itself need not be installed.

>>> cython.declare(cython.int[3], [1, 2, 3]), cython.compiled
([1, 2, 3], False)
>>> @cython.cfunc
... def f(x: cython.int) -> cython.int:
...     return x + 1
>>> f(1)
2
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


class _Type:
    """A C type's name: subscripted for arrays (``cython.int[4]``), called for casts."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __getitem__(self, size: object) -> _Type:
        return _Type(f"{self.name}[]")

    def __call__(self, value: Any) -> Any:
        return value

    def __repr__(self) -> str:
        return f"cython.{self.name}"


def _identity(fn: F) -> F:
    return fn


class _Cython:
    """The ``cython`` module as generated code sees it in CPython."""

    compiled = False

    def __init__(self) -> None:
        # An attribute of the instance, not only of the class: generated code tests
        # ``cython.compiled`` at every step, and CPython reads an instance's own attribute
        # several times faster than its class's.
        self.compiled = False
    int = _Type("int")
    uint = _Type("uint")
    char = _Type("char")
    schar = _Type("schar")
    short = _Type("short")
    long = _Type("long")
    longlong = _Type("longlong")
    ulonglong = _Type("ulonglong")
    bint = _Type("bint")
    double = _Type("double")

    cclass = staticmethod(_identity)
    cfunc = staticmethod(_identity)
    ccall = staticmethod(_identity)
    inline = staticmethod(_identity)
    final = staticmethod(_identity)

    @staticmethod
    def locals(**types: Any) -> Callable[[F], F]:
        return _identity

    @staticmethod
    def exceptval(*args: Any, **kwargs: Any) -> Callable[[F], F]:
        return _identity

    @staticmethod
    def boundscheck(flag: bool) -> Callable[[F], F]:
        return _identity

    @staticmethod
    def wraparound(flag: bool) -> Callable[[F], F]:
        return _identity

    @staticmethod
    def declare(ctype: Any, value: Any = None, **kwargs: Any) -> Any:
        return value

    @staticmethod
    def cast(ctype: Any, value: Any) -> Any:
        return value

    @staticmethod
    def typedef(ctype: Any) -> Any:
        return ctype


cython = _Cython()
