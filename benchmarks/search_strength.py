"""The search player's strength by deal, printed (asserts nothing).

Plays ``-n`` first deals of a rule file for each configuration of the search player
given: the search player at every other seat (sides alternating from deal to deal)
against ``--against`` (the heuristic or the random player) at the others, deal ``d``
from ``new_game(rules, seed=d // 2)`` with the same players' seeds for every
configuration, and prints the search side's points minus the best other side's a deal,
with its standard error, and the CPU time. ``--native`` builds (or loads) the native
module first. Configurations: ``heuristic`` (heuristic rollouts, the default before
2 December 2026), ``random`` (random rollouts,
worlds redealt in place), ``random-replay`` (random rollouts, replayed worlds),
``greedy`` (greedy rollouts, worlds redealt in place: the default) and ``greedy-replay``.

``--against search-CONFIG`` plays a configuration head to head against another.

Run: ``python -m benchmarks.search_strength examples/euchre.trick -n 400 --native random random-replay``
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import tricklang
from interpreter import new_game
from interpreter.players import Agent, HeuristicAgent, RandomAgent
from interpreter.players.search import SearchAgent

CONFIGS: dict[str, dict[str, Any]] = {
    "heuristic": {"rollout": "heuristic"},
    "random": {"rollout": "random", "sampling": "in-place"},
    "random-replay": {"rollout": "random", "sampling": "replay"},
    "greedy": {"rollout": "greedy", "sampling": "in-place"},
    "greedy-replay": {"rollout": "greedy", "sampling": "replay"},
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("configs", nargs="+", choices=sorted(CONFIGS))
    parser.add_argument("-n", type=int, default=200, help="first deals a configuration")
    parser.add_argument("--budget", type=int, default=48)
    parser.add_argument("--against", choices=("heuristic", "random", *(f"search-{c}" for c in sorted(CONFIGS))),
                        default="heuristic",
                        help="the other seats' player: heuristic, random, or the search player of a configuration "
                             "(search-greedy, search-heuristic...: head to head, the same budget)")
    parser.add_argument("--native", action="store_true", help="build or load the native module first")
    args = parser.parse_args(argv)
    rules = tricklang.load(args.file)
    if args.native:
        from interpreter import native

        native.accelerate(rules)
    n = rules.player_count
    for name in args.configs:
        diffs: list[float] = []
        cpu = time.process_time()
        for d in range(args.n):
            side = d % 2
            agents: list[Agent] = [
                SearchAgent(1000 + d * n + s, budget=args.budget, **CONFIGS[name]) if s % 2 == side
                else _other(args.against, d * n + s, args.budget) for s in range(n)]
            state = new_game(rules, seed=d // 2)
            while not state.is_terminal() and state.deal_number == 1:
                seat = state.current_player
                assert seat is not None
                state.apply(agents[seat](state))
            scores = state.scores
            mine = next(i for i, members in enumerate(state.sides) if side in members)
            others = [v for i, v in enumerate(scores) if i != mine]
            diffs.append(scores[mine] - (max(others) if others else 0))
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        print(f"{rules.name}: search:{args.budget} {name} against {args.against}, {args.n} first deals: "
              f"{statistics.mean(diffs):+.3f} ± {error:.3f} points a deal (search side minus the best other), "
              f"{time.process_time() - cpu:.0f} s CPU", flush=True)


def _other(against: str, seed: int, budget: int) -> Agent:
    """The player of the other seats (``--against``), seeded ``seed`` (a search player's:
    ``1000 + seed``, as the configuration's own seats)."""
    if against.startswith("search-"):
        return SearchAgent(1000 + seed, budget=budget, **CONFIGS[against.removeprefix("search-")])
    return HeuristicAgent(seed) if against == "heuristic" else RandomAgent(seed)


if __name__ == "__main__":
    main()
