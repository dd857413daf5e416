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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]


CODES: dict[str, str] = {
    # reading and parsing (tricklang.ruleset, tricklang.parser)
    "unreadable-file": "the rule file cannot be read (missing, not UTF-8, not a regular file)",
    "too-large": "the rule file is over the size limit",
    "too-deep": "the rule file is nested too deeply to parse",
    "syntax-error": "the text does not follow the grammar (tricklang/grammar.lark)",
    "bad-indent": "indentation that does not match an enclosing block",
    "internal-error": "the parser failed unexpectedly (a bug: please report it)",
    # extending a base (tricklang.extend, tricklang.ruleset)
    "bad-extends": "the base named by 'extends' cannot be found, is not allowed, or extends itself",
    "unknown-override": "a variant replaces something its base does not have (a phase or statement of that name)",
    "ambiguous-override": "a variant names a statement its base has several of at top level ('replace tricks:')",
    # the checker (tricklang.checker, tricklang.check_statements, tricklang.types)
    "missing-version": "the file does not start with 'tricklang 1'",
    "unsupported-version": "a language version this release does not know",
    "missing-section": "a required section (players, deck, deal, game, hand zone...) is missing",
    "duplicate-section": "a section appears twice",
    "duplicate-name": "a name declared twice, or reusing a built-in or another kind of name",
    "undefined-name": "a name, zone, function, counter, choice or declaration that is not declared",
    "type-error": "an expression of the wrong type (a player where a number is needed...)",
    "bad-rank": "a rank (or trump rank) that is not in the deck, or listed twice",
    "bad-suit": "a suit that is not in the deck, or whose code letter is ambiguous",
    "bad-colour": "an unknown suit colour",
    "ambiguous-card-code": "two cards (or suits, or ranks) whose codes cannot be told apart, or a code that is not 1 to 3 letters or digits",
    "bad-deck": "a 'remove' that leaves no card or takes out an extra card, or 'copies' outside 1..4",
    "ambiguous-card": "'holder of', 'original holder of' or 'taker of' a card of a pack with copies (two cards have that face)",
    "bad-option-default": "an option's default outside its type, range or choices",
    "bad-partnerships": "partnerships that do not divide the seats into equal teams",
    "missing-pack": "no zone (or more than one) is marked 'pack'",
    "bad-zone": "a zone used against its declaration (owner, seat, pack)",
    "deck-too-small": "dealing or turning up more cards than the deck holds",
    "stop-outside-loop": "'stop' outside 'repeat' or 'for each'",
    "duplicate-choice": "a choice offered twice in one 'chooses'",
    "reserved-name": "a choice or option value named with a word the engine's actions reserve ('pass', 'continue', 'done')",
    "bad-count": "an empty or negative card count, or a range where an exact count is needed",
    "verb-without-choice": "'as VERB' names a choice the statement does not offer ('takes all ... and keeps N as rob')",
    "nobody-is-no-seat": "'nobody' where a seat must act or be named (tricks(nobody), nobody chooses...)",
    "bad-declaration-body": "a declaration's effect (or a hook) sets maker or bid",
    "bad-hook-statement": "a statement that cannot run in the middle of trick play, or a hook's statement out of its hook",
    "bad-bound": "a loop bound that is not a plain number",
    "limit-exceeded": "a number, name, loop, file or work budget over the language's limits",
    "bad-parameter": "an irregularity parameter with an empty or out-of-bounds count range, named twice, or a card used where it cannot be",
    "bad-call": "a function called with the wrong number or kind of arguments",
    "bad-seat": "'seat N' with no such seat",
    "bad-bids": "a bid table with a code twice, a strain that is no suit nor order, a worth that is not constant, or a misplaced bid",
    "bad-auction": "an auction rule that does not fit the game (doubling without partnerships...) or all-pass rules twice",
    "bad-order": "a card order whose trumps name a card twice or a word that is no rank, suit or colour, whose "
                 "'ranks' line is not an order of the deck's ranks, or that says neither 'trumps' nor 'no trumps'",
    "bad-meld": "a meld line naming a rank, suit or card the deck does not have, or a card more times than the pack has it",
    "meld-order": "(warning) a meld line all of whose cards a later line of its class holds: the later one never counts in full",
    "bad-index": "a lookup table read at a constant position it does not have",
    "ambiguous-pattern-word": "a card-pattern word that is both a colour of the deck's suits and a rank or a suit",
    "unsupported-construct": "a construct of the language that this runtime cannot play yet (tricklang/support.py)",
    "remedy-outside-play": "'P leads' or 'replay the tricks' outside an irregularity offered only during play",
    "unreachable-code": "(warning) a statement after 'stop' or 'end the deal'",
    "unused-order": "(warning) a card order that no 'trump is' selects",
    "unused-option": "(warning) an option that is never read",
    "unused-variable": "(warning) a variable that is never read",
    # the lints (tricklang.lints), warnings
    "cards-exceed-deck": "(warning) a draw or take needs more cards than the pack can still hold",
    "no-legal-card": "(warning) more tricks to play than cards in each hand",
    "point-total-mismatch": "(warning) the top bid is not what the point cards are worth",
    "phase-unreachable": "(warning) a branch, loop, obligation, declaration or irregularity that can never run",
    "rule-matches-nothing": "(warning) a card rule whose pattern matches no card, or a tie rule in a deck without equal cards",
    "bad-players": "'players LO..HI = D' with bounds outside 2..16, a default outside them, or partnerships",
    "plays-for-self": "'P plays for P': a seat named to play its own cards for itself",
    "not-a-zone-instance": "a team's zone (the union of its members' zones) where one zone is needed: a move's "
                           "source or destination, 'expose', 'suit of'",
    "not-in-trick": "a name or form of the trick in progress used outside trick play",
    "ambiguous-name": "a variable named like a name of the trick in progress, read in trick play",
    # the limits of untrusted rule files (tricklang.safety)
    "circular-role": "a role defined through itself",
    "division-by-zero": "'%' or '/' by a constant zero",
    # the formatter (tricklang.fmt)
    "format-failed": "the formatter would change what the file means (a bug in tricklang fmt)",
    # the command line (interpreter.cli)
}
"""Every diagnostic code, with what it means: the one list (a test keeps it complete).
Codes are stable; messages may improve."""


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


def quoted(value: object, limit: int = 60) -> str:
    """A value read from a stranger (a record, a state), quoted for a message: at most ``limit`` characters of
    its JSON (encoded no further than that), and how long it was when that is not all.

    >>> quoted([1, 2, 3])
    '[1, 2, 3]'
    >>> quoted(list(range(10**6)), 20)
    '[0, 1, 2, 3, 4, 5, 6… (a list of 1,000,000 items)'
    >>> quoted("x" * 500, 10)
    '"xxxxxxxxx… (500 characters)'
    """
    import json  # (here: a check that passes quotes nothing, and json is not otherwise imported by it)

    pieces: list[str] = []
    size = 0
    try:
        for piece in json.JSONEncoder(ensure_ascii=False).iterencode(value):
            pieces.append(piece)
            size += len(piece)
            if size > limit:
                break
    except (TypeError, ValueError):
        return printable(brief(value, limit))
    text = "".join(pieces)
    if size <= limit:
        return printable(text)
    if isinstance(value, str):
        how = f"{len(value):,} characters"
    elif isinstance(value, list):
        how = f"a list of {len(value):,} item{'' if len(value) == 1 else 's'}"
    elif isinstance(value, dict):
        how = f"an object of {len(value):,} field{'' if len(value) == 1 else 's'}"
    else:
        how = f"{len(text):,}+ characters"
    return f"{printable(text[:limit])}… ({how})"


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

    def render(self, source: str | Sequence[str] | None = None) -> str:
        """Return the message as ``path:line:col: severity: message [code]``,
        followed by the source line with a caret and the hint, where known.
        ``source`` is the text, or its lines (split at newlines only, as the parser
        counts them: :func:`source_lines`), for rendering many diagnostics of one text."""
        where = f"{self.path}:{self.line}:{self.column}" if self.line else self.path
        out = [printable(f"{where}: {self.severity}: {self.message} [{self.code}]")]
        lines = source_lines(source) if isinstance(source, str) else (source or ())
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


MAX_SHOWN = 100
"""Diagnostics rendered in full by :meth:`RulesError.render` (and ``tricklang check``);
the rest are counted."""


def source_lines(source: str) -> list[str]:
    """A text's lines as diagnostics number them: split at newlines only."""
    return source.split("\n")


def shown_and_counted(diagnostics: Sequence[Diagnostic], limit: int = MAX_SHOWN) -> tuple[list[Diagnostic], str]:
    """The first ``limit`` diagnostics, and a line counting the others by severity
    (empty when none is left out)."""
    rest = diagnostics[limit:]
    if not rest:
        return list(diagnostics), ""
    errors = sum(d.severity == "error" for d in rest)
    parts = [f"{n:,} more {word}{'' if n == 1 else 's'}" for n, word in ((errors, "error"),
                                                                          (len(rest) - errors, "warning")) if n]
    return list(diagnostics[:limit]), f"... and {' and '.join(parts)} not shown ({len(diagnostics):,} in all)"


@dataclass
class RulesError(TrickLangError):
    """A rule file could not be loaded: it carries every diagnostic found.

    ``str(error)`` renders the first :data:`MAX_SHOWN` with source lines and carets
    and counts the rest; nothing is rendered until it is asked for.
    """

    diagnostics: list[Diagnostic]
    source: str | None = None
    warnings: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        first = self.diagnostics[0] if self.diagnostics else None
        super().__init__(f"{first.path}: {first.code}" if first is not None else "")  # (``str`` renders)

    def render(self, limit: int = MAX_SHOWN) -> str:
        """The first ``limit`` diagnostics rendered, then a line counting the rest."""
        shown, more = shown_and_counted(self.diagnostics, limit)
        lines = source_lines(self.source) if self.source is not None else None
        return "\n".join([*(d.render(lines) for d in shown), *([more] if more else [])])

    def __str__(self) -> str:
        return self.render()

    def __reduce__(self) -> tuple[type, tuple[list[Diagnostic], str | None, list[Diagnostic]]]:
        return (type(self), (self.diagnostics, self.source, self.warnings))

    @property
    def codes(self) -> list[str]:
        """The codes of the diagnostics, in order."""
        return [d.code for d in self.diagnostics]


class OptionError(TrickLangError, ValueError):
    """An unknown option name, or an option value of the wrong type or range."""
