"""What every subcommand of `tricklang` shares: the argument parser class, argument
types, the usage error, loading a rule file with ``-o`` options, and small formatters."""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NoReturn, Protocol

import tricklang
from tricklang.diagnostics import printable

if TYPE_CHECKING:
    from tricklang import Ruleset

PROG = "tricklang"


class UsageError(Exception):
    """A bad command line: reported in one line, exit status 2."""


class Parser(argparse.ArgumentParser):
    """Argparse with one-line errors that name the subcommand."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


class Subparsers(Protocol):
    """The object ``ArgumentParser.add_subparsers`` returns (only what the commands use)."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


def option_pair(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` of ``-o``; raises argparse.ArgumentTypeError otherwise."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, e.g. -o target=7, not {text!r}")
    return name.strip(), value.strip()


def count(low: int) -> Callable[[str], int]:
    """An argument type: a whole number at least ``low`` (argparse.ArgumentTypeError otherwise)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return parse


def integer(text: str) -> int:
    """An argument type: any whole number (argparse.ArgumentTypeError otherwise)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def seat_list(text: str, ruleset: Ruleset, option: str = "--seats") -> list[str]:
    """The players of ``--seats P,P,...``, one per seat in order, lower-cased; a single
    player fills every seat (``--seats heuristic``). Raises UsageError for another count."""
    names = [n.strip().lower() for n in text.split(",")]
    if len(names) == 1:
        names *= ruleset.player_count
    if len(names) != ruleset.player_count:
        raise UsageError(f"{option}: {ruleset.name} has {ruleset.player_count} seats, {len(names)} players given "
                         "(give one per seat, or one for every seat)")
    return names


def load(path: str, args: argparse.Namespace) -> Ruleset:
    """Load a rule file with the ``-o`` options (RulesError / OptionError propagate)."""
    return tricklang.load(path, options=dict(args.options) if getattr(args, "options", None) else None)


def error(args: argparse.Namespace, message: str) -> None:
    """Print a one-line error naming the subcommand (control and bidi characters escaped)."""
    print(printable(f"{PROG} {getattr(args, 'command', '') or ''}: error: {message}".replace("  ", " "),
                    keep_newlines=True), file=sys.stderr)


_NOT_ASCII = re.compile("[^\x00-\x7e]")


def json_text(data: object, indent: int | None = 2) -> str:
    """JSON for the terminal or a file: non-ASCII text kept (``Écarté``), but every control,
    format and bidi character (which ``json.dumps`` leaves raw above U+001F) written as a
    ``\\uXXXX`` escape, as JSON allows in any string.

    >>> json_text({"game": "Écarté\u202e\x9b"}, indent=None)
    '{"game": "Écarté\\\\u202e\\\\u009b"}'
    """
    import json  # (here: only --json needs it, and the short commands start quicker without)

    text = json.dumps(data, ensure_ascii=False, indent=indent)
    return _NOT_ASCII.sub(_escaped, text)


def _escaped(found: re.Match[str]) -> str:
    ch = found.group()
    if unicodedata.category(ch) not in ("Cc", "Cf", "Zl", "Zp", "Cs"):
        return ch
    n = ord(ch)
    units = (n,) if n <= 0xFFFF else (0xD800 + ((n - 0x10000) >> 10), 0xDC00 + ((n - 0x10000) & 0x3FF))
    return "".join(f"\\u{unit:04x}" for unit in units)


def plural(n: int, word: str) -> str:
    """``1 match``, ``2 matches``, ``2 irregularities``."""
    if n == 1:
        return f"{n} {word}"
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return f"{n} {word[:-1]}ies"
    return f"{n} {word}{'es' if word.endswith(('ch', 's')) else 's'}"


def show(value: object) -> str:
    """An option value as written in a rule file (``true``, not ``True``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)
