"""`python -m interpreter.demo`: a full match between built-in players, as a transcript."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import tricklang

from .agents import make_agent, play_match
from .state import new_game
from .transcript import render

DEFAULT_RULES = Path(__file__).resolve().parent.parent / "rules" / "ecarte.trick"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m interpreter.demo",
        description="Play a whole match between built-in players and print it as a transcript.",
    )
    parser.add_argument("rules", nargs="?", default=str(DEFAULT_RULES), help="rule file (default: Écarté)")
    parser.add_argument("--seed", type=int, default=2026, help="seed for the shuffles and the players (default 2026)")
    parser.add_argument("--seats", default="heuristic,random", help="comma-separated players per seat: heuristic, random")
    args = parser.parse_args(argv)
    try:
        rules = tricklang.load(args.rules)
    except tricklang.RulesError as err:
        print(err, file=sys.stderr)
        return 1
    names = args.seats.split(",")
    if len(names) != rules.player_count:
        print(f"--seats needs {rules.player_count} players, got {len(names)}", file=sys.stderr)
        return 2
    try:
        agents = [make_agent(n.strip(), args.seed + i) for i, n in enumerate(names)]
    except ValueError as err:
        print(err, file=sys.stderr)
        return 2
    state = play_match(new_game(rules, seed=args.seed), agents)
    print(render(state))
    print("seats: " + ", ".join(f"{i} = {n}" for i, n in enumerate(names)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
