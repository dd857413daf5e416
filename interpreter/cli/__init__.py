"""`tricklang`: the command for variant writers.

Subcommands: ``check`` (load and check rule files), ``options`` (list a rule
file's options), ``play`` (play at the terminal against the built-in players),
``simulate`` (many matches between built-in players, with statistics),
``test`` (play seeded matches and check the runtime's invariants), ``explain``
(the rules as Markdown prose), ``replay`` (re-check a game record and print its
transcript), ``demo`` (a match between built-in players, as a transcript), ``lsp``
(a language server for editors), ``list`` (the bundled games), ``fmt`` (rewrite rule
files in the canonical layout), ``compile`` (print the Python generated for a rule file) and
``serve`` (a table in the browser: a web server). Wherever a rule file is expected, a bundled game's name
(``ecarte``, ``cinch``, ``euchre``...) also works; a path to an existing file wins.
Every subcommand takes ``--help``; the ones that load rules take
``-o name=value`` (repeatable) to set options.

This module only dispatches: each subcommand lives in its own module of this
package (``check``, ``table``, ``simulate``, ``invariants``, ``replay``, ``demo``,
``games``, ``fmt``, ``source``, ``serve``)
and adds its parser through a ``register`` function.

Exit status: 0 ok, 1 an error in the rules, the game or a record, 2 a usage error.

>>> main(["check", "rules/ecarte.trick"])
rules/ecarte.trick: ok
0
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

from tricklang import OptionError, RulesError, __version__
from tricklang.diagnostics import TrickLangError

from .common import PROG, Parser, UsageError, error, option_pair

if TYPE_CHECKING:
    from .simulate import match_seed, summarise, wilson

__all__ = ["PROG", "UsageError", "build_parser", "demo_main", "main", "match_seed", "summarise", "wilson"]

COMMANDS = "check, options, play, simulate, test, explain, replay, demo, lsp, list, fmt, compile or serve"


def __getattr__(name: str) -> Any:
    if name in ("match_seed", "summarise", "wilson"):  # imported on first use: simulate loads the runtime
        return getattr(import_module(".simulate", __name__), name)
    raise AttributeError(f"module 'interpreter.cli' has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tricklang`` command; returns the exit status.

    A short command (:data:`SHORT_COMMANDS`) runs with the cyclic garbage collector paused:
    what it makes (the modules it imports, the parser's tables, the rules it reads) lives
    until it ends and holds no garbage worth a collection (checking every bundled rule file
    takes 1% more memory without it). Run as the program (``argv`` None), it then freezes
    them (``gc.freeze``), so that Python's collection at exit does not go through them all.
    Called with ``argv`` (in a process that goes on), it only restores the collector.
    """
    program = argv is None
    argv = list(sys.argv[1:] if argv is None else argv)
    pause = bool(argv) and argv[0] in SHORT_COMMANDS and gc.isenabled()
    if pause:
        gc.disable()
    try:
        return _run(argv)
    finally:
        if pause:
            if program:
                gc.freeze()
            gc.enable()


def _run(argv: list[str]) -> int:
    # The commands that need no runtime (`check` answers from its cache, `fmt`...) build
    # only their own parser, so that the other command modules are not imported.
    parser = build_parser(only=argv[0] if argv and argv[0] in LIGHT_COMMANDS else None)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 2)
    command: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if command is None:
        parser.print_usage(sys.stderr)
        print(f"{PROG}: error: choose a command: {COMMANDS}", file=sys.stderr)
        return 2
    try:
        return command(args)
    except (UsageError, OptionError) as err:
        error(args, str(err))
        return 2
    except RulesError as err:
        print(err.render(), file=sys.stderr)
        return 1
    except TrickLangError as err:
        error(args, str(err))
        return 1
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`tricklang explain x | head`): not an error of ours.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces the closed pipe until exit
        except OSError:
            pass
        return 0


def demo_main(argv: Sequence[str] | None = None) -> int:
    """The ``tricklang-demo`` script: ``tricklang demo`` under its old name."""
    return main(["demo", *(sys.argv[1:] if argv is None else argv)])


LIGHT_COMMANDS = {"check": ("check", "register"), "options": ("check", "register"),
                  "explain": ("check", "register_explain"), "fmt": ("fmt", "register"),
                  "list": ("games", "register"), "lsp": ("lsp", "register")}
"""The commands whose modules import no runtime: each with its module and its ``register``."""

SHORT_COMMANDS = frozenset(LIGHT_COMMANDS) - {"lsp"}
"""The commands that read some files, print and end (the language server runs on)."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The ``tricklang`` argument parser, one subparser per command module (with ``only``,
    one of :data:`LIGHT_COMMANDS`, just that command's: the other modules import the runtime)."""
    parser = Parser(
        prog=PROG,
        description="Check, explain, play and simulate trick-taking games written in the tricklang rules language.",
        epilog="Run 'tricklang COMMAND --help' for the options of a command. "
        "Exit status: 0 ok, 1 error in the rules, game or record, 2 usage error.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    opts = Parser(add_help=False)
    opts.add_argument(
        "-o", "--option", dest="options", metavar="NAME=VALUE", action="append", type=option_pair, default=[],
        help="set an option of the rule file (repeatable); see 'tricklang options FILE'",
    )
    if only is not None:
        module, function = LIGHT_COMMANDS[only]
        getattr(import_module(f".{module}", __name__), function)(sub, opts)
        return parser
    from . import check, demo, fmt, games, invariants, lsp, replay, serve, simulate, source, table

    for register in (check.register, table.register, simulate.register, invariants.register,
                     check.register_explain, replay.register, demo.register, lsp.register,
                     games.register, fmt.register, source.register, serve.register):
        register(sub, opts)
    return parser
