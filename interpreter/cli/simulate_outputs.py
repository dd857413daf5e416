"""The outputs of `tricklang simulate` beyond its summary: ``--per-match FILE.jsonl``
(one line per match), ``--report FILE.html`` (figures, :mod:`.report`), ``--progress``,
and the arguments of ``--compare`` (:mod:`.simulate_compare`)."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import PROG, UsageError
from .match_stats import per_match_rows, write_per_match

if TYPE_CHECKING:
    from tricklang import Ruleset


@dataclass(frozen=True)
class Variant:
    """One simulation of a comparison (the only one without ``--compare``): its label
    (``target=7``, ``seats random,heuristic``; empty alone), rules, seats and results."""

    label: str
    ruleset: Ruleset
    seats: list[str]
    summary: dict[str, Any]
    results: list[dict[str, Any]]


def add_report_arguments(p: argparse.ArgumentParser) -> None:
    """Add --per-match, --report, --compare and --progress to ``simulate``."""
    p.add_argument("--per-match", metavar="FILE.jsonl",
                   help="write one JSON line per match: its number, seed, final scores, winning side, deals, "
                   "actions and choices (with --compare, each line names its variant)")
    p.add_argument("--report", metavar="FILE.html",
                   help="write a self-contained HTML report with figures (needs the 'report' extra: matplotlib)")
    p.add_argument("--compare", action="store_true",
                   help="compare simulations: each value of an option given more than once (-o target=5 "
                   "-o target=7) and each --seats given is a simulation of its own, all with the same seeds; "
                   "the summaries (and the report) side by side")
    p.add_argument("--progress", dest="progress", action="store_const", const="on", default="auto",
                   help="show progress even when stderr is not a terminal (a plain line every few seconds); "
                   "on a terminal a bar shows the count, the rate and the time left")
    p.add_argument("--no-progress", dest="progress", action="store_const", const="off",
                   help="show no progress")


def check_single(args: argparse.Namespace) -> None:
    """Without --compare, an option or --seats given twice is a mistake: say so.

    Raises:
        UsageError: naming what was given twice.
    """
    names = [name for name, _ in args.options]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"-o {twice[0]} is given more than once: add --compare to compare its values")
    if args.seats is not None and len(args.seats) > 1:
        raise UsageError("--seats is given more than once: add --compare to compare them")
    if args.report is not None:
        check_report_path(args.report)


def check_report_path(path: str) -> None:
    """Refuse, before any match is played, a report that cannot be written or drawn.

    Raises:
        UsageError: its folder is missing, or matplotlib is not installed.
    """
    if not Path(path).resolve().parent.is_dir():
        raise UsageError(f"--report {path}: no such directory {str(Path(path).parent)!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError("--report needs matplotlib: pip install 'tricklang[report]'") from None


def write_outputs(args: argparse.Namespace, variants: list[Variant]) -> None:
    """Write the per-match lines and the report that ``args`` asks for.

    Raises:
        UsageError: a file cannot be written.
    """
    if args.per_match is not None:
        rows = [row for v in variants for row in per_match_rows(v.results, v.label if args.compare else None)]
        try:
            write_per_match(args.per_match, rows)
        except OSError as err:
            raise UsageError(f"--per-match {args.per_match}: cannot write it: {err.strerror or err}") from None
    if args.report is not None:
        from .report import write_report

        try:
            write_report(args.report, variants)
        except OSError as err:
            raise UsageError(f"--report {args.report}: cannot write it: {err.strerror or err}") from None
        print(f"{PROG} simulate: report written to {args.report}", file=sys.stderr)
