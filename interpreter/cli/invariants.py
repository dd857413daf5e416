"""`tricklang test`: a rule file against the runtime's invariants (the harness as a command)."""

from __future__ import annotations

import argparse
import sys

from .common import Subparsers, count, integer, load


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``test`` to the ``tricklang`` parser."""
    p = sub.add_parser("test", parents=[opts], help="check a rule file against the runtime's invariants",
                       description="Play N seeded matches of a rule file with random choices, in strict and in "
                       "table mode, and check at every step the invariants every game must keep: terminal exactly "
                       "when no action is legal, unique and stable legal actions, illegal actions refused without "
                       "change, every card in one place, hand sizes and scores within the bounds derived from the "
                       "rule file, JSON round trips, observations that do not change when hidden cards are swapped. "
                       "On a failure, prints the shortest failing action sequence found and Python code to replay it.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.add_argument("--examples", type=count(1), default=20, metavar="N", help="matches to try (default 20)")
    p.add_argument("--seed", type=integer, default=0, help="first seed (default 0)")
    p.add_argument("--steps", type=count(1), default=150, metavar="S",
                   help="steps checked in full in each match (default 150; the rest of the match gets the cheap checks)")
    p.set_defaults(run=cmd_test)


def cmd_test(args: argparse.Namespace) -> int:
    from ..harness import check_invariants

    rules = load(args.file, args)
    failures = []
    checked = 0
    for i in range(args.examples):
        mode = "table" if i % 4 == 3 and rules.rules.irregularities else "strict"
        report = check_invariants(rules, seed=args.seed + i, max_actions=args.steps, mode=mode, finish=True)
        checked += len(report.actions)
        if not report.ok:
            failures.append((len(report.actions), args.seed + i, mode, report))
    if not failures:
        print(f"{args.file}: ok ({args.examples} matches, {checked} actions checked)")
        return 0
    failures.sort(key=lambda f: f[0])
    length, seed, mode, report = failures[0]
    print(f"{args.file}: {len(failures)} of {args.examples} matches broke an invariant", file=sys.stderr)
    print(f"shortest failure: seed {seed}, {mode} mode, after {length} actions", file=sys.stderr)
    print(report.summary(), file=sys.stderr)
    print("replay it with:", file=sys.stderr)
    print(report.replay_code(), file=sys.stderr)
    return 1
