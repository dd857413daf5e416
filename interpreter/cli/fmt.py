"""`tricklang fmt`: rewrite rule files in the canonical layout (see :mod:`tricklang.fmt`).

``tricklang fmt FILE...`` rewrites each file that is not yet formatted; ``--check``
changes nothing and exits 1 when a file would change; ``--diff`` prints the change
instead of writing it. A file with errors is reported (exit 1) and left as it is.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from tricklang import RulesError
from tricklang.fmt import format_text
from tricklang.ruleset import read_limited

from .common import Subparsers, plural


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``fmt`` to the ``tricklang`` parser."""
    p = sub.add_parser("fmt", help="rewrite rule files in the canonical layout",
                       description="Re-lay rule files out canonically (indentation, spacing, citation column) "
                       "without changing their meaning; comments and citations are kept. "
                       "Exit status 1 if a file has errors, or with --check if one would change.")
    p.add_argument("files", nargs="+", metavar="FILE", help="rule files (.trick)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true", help="change nothing; exit 1 if a file would change")
    what.add_argument("--diff", action="store_true", help="change nothing; print the changes as a unified diff")
    p.set_defaults(run=cmd_fmt)


def cmd_fmt(args: argparse.Namespace) -> int:
    """Format, check or diff each file; 1 if any has errors (or would change, with --check)."""
    changed: list[str] = []
    failed = 0
    for name in args.files:
        try:
            text = read_limited(Path(name), shown=name)
            out = format_text(text, name)
        except RulesError as err:
            print(err.render(), file=sys.stderr)
            failed += 1
            continue
        if out == text:
            continue
        changed.append(name)
        if args.diff:
            sys.stdout.writelines(difflib.unified_diff(
                text.splitlines(keepends=True), out.splitlines(keepends=True), f"{name} (now)", f"{name} (formatted)"))
        elif args.check:
            print(f"{name}: would be reformatted", file=sys.stderr)
        else:
            Path(name).write_text(out, encoding="utf-8")
    done = "would reformat" if args.check or args.diff else "reformatted"
    summary = f"{done} {plural(len(changed), 'file')}, {plural(len(args.files) - len(changed) - failed, 'file')} unchanged"
    print(summary + (f", {plural(failed, 'file')} with errors" if failed else ""), file=sys.stderr)
    return 1 if failed or (args.check and changed) else 0
