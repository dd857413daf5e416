"""Diagnostics and the error hierarchy of the rules language.

Every problem found in a rule file is a :class:`Diagnostic` with a stable ``code``
(tests assert codes, so wording may improve), a severity, a position and a hint.
:class:`RulesError` carries all of them and renders them compiler-style::

    rules/x.trick:12:5: error: undefined name 'eldr' [undefined-name]
       12 |     eldr chooses:
          |     ^^^^
      hint: did you mean 'elder'?
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


def printable(text: str, keep_newlines: bool = False) -> str:
    """Text from a file made safe to print: control and format characters
    (escape sequences, NUL, line and paragraph separators, bidi overrides...)
    are shown as escapes (``\\x1b``, ``\\u2028``); tabs are kept."""
    out = []
    for ch in text:
        if ch == "\n" and keep_newlines:
            out.append(ch)
        elif ch == "\t":
            out.append(ch)
        elif unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def brief(value: object, limit: int = 40) -> str:
    """A short, printable repr of a value from a stranger, safe for any size
    (a 5,000-digit number is not converted to text)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 100:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, (list, dict, tuple, set)):
        return f"a {type(value).__name__} of {len(value)} items"
    try:
        text = repr(value)
    except ValueError:
        text = f"a {type(value).__name__}"
    text = printable(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class Diagnostic:
    """One problem in a rule file."""

    code: str
    message: str
    line: int = 0
    column: int = 0
    end_column: int = 0
    severity: Severity = "error"
    hint: str = ""
    path: str = "<string>"
    note: str = ""  # e.g. where inherited code comes from: "in base.trick, inherited by variant.trick"
    source_line: str = ""  # the text of the line, when it is not in the source given to render()

    def render(self, source: str | None = None) -> str:
        """Return the message as ``path:line:col: severity: message [code]``,
        followed by the source line with a caret and the hint, where known."""
        where = f"{self.path}:{self.line}:{self.column}" if self.line else self.path
        out = [printable(f"{where}: {self.severity}: {self.message} [{self.code}]")]
        lines = [] if source is None else source.split("\n")  # only a newline ends a line, as the parser counts them
        if self.source_line or source is not None and self.line:
            if self.source_line or 0 < self.line <= len(lines):
                raw = self.source_line.rstrip() or lines[self.line - 1].rstrip()
                text = printable(raw)
                gutter = f"{self.line:>5} | "
                out.append(gutter + text)
                start = len(printable(raw[: max(0, self.column - 1)]))
                width = max(1, (self.end_column or self.column + 1) - self.column)
                width = len(printable(raw[self.column - 1: self.column - 1 + width])) or 1
                width = min(width, max(1, len(text) - start))
                out.append(" " * (len(gutter) - 2) + "| " + " " * start + "^" * width)
        if self.note:
            out.append(printable(f"  note: {self.note}"))
        if self.hint:
            out.append(printable(f"  hint: {self.hint}"))
        return "\n".join(out)

    def to_dict(self) -> dict[str, object]:
        """A JSON-able form, for editors and CI."""
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_column": self.end_column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            **({"note": self.note} if self.note else {}),
        }


def origin(path: str, written_in: str | None) -> tuple[str, str]:
    """(the path to report, a note) for a diagnostic about code written in ``written_in``
    (None: in ``path`` itself) found while checking ``path``: inherited code is reported
    in its own file, with a note naming the variant that inherits it."""
    if written_in is None or written_in == path:
        return path, ""
    return written_in, f"in {written_in}, inherited by {path}"


class TrickLangError(Exception):
    """Base class of every error raised by tricklang and its interpreter."""


@dataclass
class RulesError(TrickLangError):
    """A rule file could not be loaded: it carries every diagnostic found.

    ``str(error)`` renders them all with source lines and carets.
    """

    diagnostics: list[Diagnostic]
    source: str | None = None
    warnings: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(d.render(self.source) for d in self.diagnostics)

    def __str__(self) -> str:
        return self.render()

    @property
    def codes(self) -> list[str]:
        """The codes of the diagnostics, in order."""
        return [d.code for d in self.diagnostics]


class OptionError(TrickLangError, ValueError):
    """An unknown option name, or an option value of the wrong type or range."""
