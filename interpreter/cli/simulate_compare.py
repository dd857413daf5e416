"""`tricklang simulate --compare`: several simulations, one per value of each option
given more than once (``-o target=5 -o target=7``; two such options: every combination)
and per ``--seats`` given, each with the same seeds; their summaries side by side."""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .common import PROG, UsageError, load
from .simulate_outputs import Variant, check_report_path, write_outputs

if TYPE_CHECKING:
    from tricklang import Ruleset

Played = tuple[dict[str, Any], list[dict[str, Any]]] | None

MAX_VARIANTS = 16


def variants_of(options: list[tuple[str, str]], seats: list[str] | None) -> list[tuple[str, list[tuple[str, str]], str]]:
    """(label, options, seats) of each simulation to compare.

    >>> [label for label, _, _ in variants_of([("target", "5"), ("target", "7"), ("first_packet", "2")], None)]
    ['target=5', 'target=7']
    >>> variants_of([("target", "5")], ["random", "heuristic"])[1]
    ('seats heuristic', [('target', '5')], 'heuristic')

    Raises:
        UsageError: nothing to compare, or more than MAX_VARIANTS simulations.
    """
    values: dict[str, list[str]] = {}
    for name, value in options:
        values.setdefault(name, [])
        if value not in values[name]:
            values[name].append(value)
    fixed = [(name, vs[0]) for name, vs in values.items() if len(vs) == 1]
    varied = [(name, vs) for name, vs in values.items() if len(vs) > 1]
    seat_lists = seats or ["heuristic"]
    out = []
    for combo in itertools.product(*(vs for _, vs in varied)):
        for seat_list in seat_lists:
            chosen = [(name, v) for (name, _), v in zip(varied, combo, strict=True)]
            label = ", ".join([f"{n}={v}" for n, v in chosen] + ([f"seats {seat_list}"] if len(seat_lists) > 1 else []))
            out.append((label, fixed + chosen, seat_list))
    if len(out) < 2:
        raise UsageError("--compare needs something to compare: an option given with two values "
                         "(-o target=5 -o target=7) or --seats given twice")
    if len(out) > MAX_VARIANTS:
        raise UsageError(f"--compare: {len(out)} simulations asked for; at most {MAX_VARIANTS}")
    return out


def cmd_compare(args: argparse.Namespace,
                run_simulation: Callable[[argparse.Namespace, Ruleset, list[str]], Played],
                seat_names: Callable[[Ruleset, str], list[str]],
                print_summary: Callable[[dict[str, Any]], None]) -> int:
    """Run the simulations to compare (with simulate's own ``run_simulation``,
    ``seat_names`` and ``print_summary``, passed in: this module does not import it)."""
    if args.report is not None:
        check_report_path(args.report)
    if args.record is not None:
        raise UsageError("--record is not taken with --compare (run each simulation on its own to keep records)")
    planned = variants_of(list(args.options), args.seats)
    variants: list[Variant] = []
    for label, options, seats in planned:  # every rule set is loaded first: an error stops before any match
        one = argparse.Namespace(**{**vars(args), "options": options})
        ruleset = load(args.file, one)
        variants.append(Variant(label, ruleset, seat_names(ruleset, seats), {}, []))
    done: list[Variant] = []
    for variant, (label, options, _) in zip(variants, planned, strict=True):
        print(f"{PROG} simulate: {label}", file=sys.stderr)
        one = argparse.Namespace(**{**vars(args), "options": options})
        played = run_simulation(one, variant.ruleset, variant.seats)
        if played is None:
            return 1
        summary, results = played
        summary["variant"] = label
        done.append(Variant(label, variant.ruleset, variant.seats, summary, results))
    _show(args, done, print_summary)
    write_outputs(args, done)
    errors = [f for v in done for f in v.summary["errors"]]
    for failure in errors[:10]:
        print(f"{PROG} simulate: match {failure['match']} (seed {failure['seed']}): {failure['error']}", file=sys.stderr)
    return 1 if errors else 0


def _show(args: argparse.Namespace, done: list[Variant], print_summary: Callable[[dict[str, Any]], None]) -> None:
    if args.json:
        data: dict[str, Any] = {"compare": [v.summary for v in done]}
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for i, v in enumerate(done):
        if i:
            print()
        print(f"== {v.label}")
        print_summary(v.summary)
