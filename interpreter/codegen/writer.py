"""Source lines for a generated game module, written so that no rule text can reach them.

Rule files are untrusted. Every identifier in a generated module is made by the code
generator (``b12``, ``PAT3``, ``c.v[4]``); every literal is an ``int`` (or a bool),
written with ``repr``; strings of the rule file (names, labels, laws) never appear: the
module logs their ids and the :class:`~interpreter.state.Game` turns ids into words.
:class:`Writer` checks both as it writes.

>>> w = Writer()
>>> with w.block("def f(c):"):
...     w.line("return " + lit(3))
>>> print(w.text())
def f(c):
    return 3
<BLANKLINE>
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_SAFE_LINE = re.compile(r"[ -~]*\Z")  # printable ASCII only: rule text (often accented) cannot pass unnoticed


def lit(value: int | bool) -> str:
    """An int or bool as source (nothing else may be written as a literal)."""
    if type(value) is bool:
        return "True" if value else "False"
    if type(value) is not int:
        raise TypeError(f"only ints are written into generated source, not {type(value).__name__}")  # pragma: no cover - a bug
    return repr(value)


def plus(base: int, index: str) -> str:
    """``base + index`` as source, or ``index`` alone when ``base`` is 0 (an index into an
    array whose rows the generator knows: no addition left for CPython to do).

    >>> plus(0, "p"), plus(3, "c.ti")
    ('p', '3 + c.ti')
    """
    return index if base == 0 else f"{lit(base)} + {index}"


def ints(values: Iterable[int]) -> str:
    """A list literal of ints."""
    return "[" + ", ".join(lit(v) for v in values) + "]"


def ident(name: str) -> str:
    """``name``, checked to be an identifier the generator made."""
    if not _IDENT.match(name):
        raise ValueError(f"not an identifier: {name!r}")  # pragma: no cover - a bug of the generator
    return name


class Writer:
    """Indented source lines (see the module docstring)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.level = 0

    def line(self, text: str = "") -> None:
        if not _SAFE_LINE.match(text):
            raise ValueError(f"generated source must be printable ASCII: {text[:80]!r}")  # pragma: no cover - a bug
        self.lines.append("    " * self.level + text if text else "")

    def comment(self, text: str) -> None:
        """A comment of the generator's own words (never rule text)."""
        self.line("# " + text)

    @contextmanager
    def block(self, head: str) -> Iterator[None]:
        self.line(head)
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    @contextmanager
    def indented(self) -> Iterator[None]:
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    def extend(self, other: Writer) -> None:
        """Append another writer's lines at this writer's indentation."""
        pad = "    " * self.level
        self.lines.extend(pad + ln if ln else "" for ln in other.lines)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def logged(entry: str) -> str:
    """The condition on which a core logs ``entry`` (the code of a compact event: a tuple
    whose first item names its kind, else a played card's int): it records that kind. A
    core that records nothing tests one field, as it always has."""
    kind = re.match(r"\(([A-Z][A-Z_]*), ", entry)
    return "c.rec and c.rec & 1" if kind is None else f"c.rec and c.rec >> {kind[1]} & 1"
