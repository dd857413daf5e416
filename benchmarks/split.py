"""Where a random match's time goes, by kind of step: ``python -m benchmarks.split GAME``.

Plays random matches (``--deals`` for the first deal of each only) through the public
step ``state.apply(state.sample_action(rng))`` and times every call: ``new_game``, and
each decision's draw and carrying out by its phase (``play``, ``choice``, ``discard``,
``auction``...; an action after which a new deal has begun counts apart, as ``deal
change``: it takes the deal's scoring and the next deal's start). Times are the thread's
CPU time (``time.thread_time_ns``; ``--wall`` for ``time.perf_counter_ns``, cheaper to
read but counting the time the machine gives to others), the clock's own cost measured
and taken off each reading; the first half of the matches warms up and is not counted.
GAME is a bundled game's name or a rule file.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence

import interpreter
import tricklang

Clock = Callable[[], int]


def clock_cost(clock: Clock) -> int:
    """The median cost in ns of two readings of the clock in a row."""
    costs = []
    for _ in range(20_000):
        t = clock()
        costs.append(clock() - t)
    return int(statistics.median(costs))


def split(rules: tricklang.Ruleset, matches: int, first_deal_only: bool, seed: int = 1,
          clock: Clock = time.thread_time_ns) -> tuple[Counter[str], Counter[str]]:
    """Total ns and calls by kind of step over the second half of ``2 * matches`` random matches."""
    Timer = clock  # noqa: N806 - read as a constant below
    spent: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    cost = clock_cost(clock)
    rng = random.Random(seed)
    for m in range(2 * matches):
        if m == matches:  # the first half warms up
            spent.clear()
            calls.clear()
        t = Timer()
        state = interpreter.new_game(rules, seed=seed + m)
        spent["new_game"] += Timer() - t - cost
        calls["new_game"] += 1
        while not state.is_terminal() and not (first_deal_only and state.deal_number > 1):
            kind, deal = state.phase, state.deal_number  # (not state.decision: it lists the legal actions)
            t = Timer()
            action = state.sample_action(rng)
            drawn = Timer()
            state.apply(action)
            done = Timer()
            step = f"{kind} (deal change)" if state.deal_number != deal else kind
            spent[f"{step}: draw"] += drawn - t - cost
            spent[f"{step}: apply"] += done - drawn - cost
            calls[f"{step}: draw"] += 1
            calls[f"{step}: apply"] += 1
    return spent, calls


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game", help="a bundled game's name (e.g. ecarte) or a rule file")
    parser.add_argument("-n", "--matches", type=int, default=2000, help="matches timed (as many again warm up)")
    parser.add_argument("--deals", action="store_true", help="the first deal of each match only")
    parser.add_argument("--wall", action="store_true", help="wall-clock time (idle machine) instead of the thread's CPU time")
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches must be at least 1")
    try:
        rules = tricklang.load(args.game)
    except tricklang.TrickLangError as err:
        parser.exit(1, f"{err}\n")
    spent, calls = split(rules, args.matches, args.deals, clock=time.perf_counter_ns if args.wall else time.thread_time_ns)
    unit = "deal" if args.deals else "match"
    total = sum(spent.values())
    print(f"{args.game}: {total / args.matches / 1000:.1f} µs a {unit} in the timed calls ({args.matches} {unit}es)")
    print(f"| step | per {unit} | µs each | µs a {unit} | share |")
    print("|---|---|---|---|---|")
    for step, ns in spent.most_common():
        print(f"| {step} | {calls[step] / args.matches:.2f} | {ns / calls[step] / 1000:.2f} | "
              f"{ns / args.matches / 1000:.1f} | {ns / total:.0%} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
