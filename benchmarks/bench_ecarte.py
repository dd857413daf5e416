"""Benchmark: random Écarté matches through the public API, beside a hand-written playout.

Prints matches/second and actions/second for both and their ratio. This is a
measurement, not a test: run it with `make bench` or
`python -m benchmarks.bench_ecarte -n 1000 --seed 1` (from the repository's root).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path

import interpreter
import tricklang
from benchmarks import handwritten_ecarte

ROOT = Path(__file__).resolve().parent.parent


def run_interpreter(n: int, seed: int, *, checked: bool = True) -> tuple[float, int, int]:
    """Play n random matches; return (seconds, matches, actions)."""
    rules = tricklang.load(ROOT / "rules" / "ecarte.trick")
    rng = random.Random(seed)
    actions = 0
    start = time.perf_counter()
    for i in range(n):
        state = interpreter.new_game(rules, seed=seed * 1_000_003 + i)
        while not state.is_terminal():
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            if checked:
                state.apply(action)
            else:
                state.apply_unchecked(action)
            actions += 1
    return time.perf_counter() - start, n, actions


def _line(name: str, seconds: float, matches: int, actions: int) -> str:
    return (f"{name:<24} {matches} matches in {seconds:.2f} s = {matches / seconds:,.0f} matches/s, "
            f"{actions / seconds:,.0f} actions/s ({actions / matches:.1f} actions/match)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000, help="matches to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.n < 1:
        parser.error("-n must be at least 1")
    run_interpreter(20, args.seed)  # warm up: compile the rules once
    t_api, m_api, a_api = run_interpreter(args.n, args.seed)
    t_fast, m_fast, a_fast = run_interpreter(args.n, args.seed, checked=False)
    t_hand, m_hand, a_hand = handwritten_ecarte.run(args.n, args.seed)
    print(_line("interpreter (apply)", t_api, m_api, a_api))
    print(_line("interpreter (unchecked)", t_fast, m_fast, a_fast))
    print(_line("hand-written", t_hand, m_hand, a_hand))
    ratio = (a_api / t_api) / (a_hand / t_hand)
    ratio_fast = (a_fast / t_fast) / (a_hand / t_hand)
    print(f"actions/s ratio interpreter/hand-written: {ratio:.2f} (apply), {ratio_fast:.2f} (unchecked)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
