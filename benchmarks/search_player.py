"""The search player's time per decision, printed (asserts nothing).

Plays a few seeded matches of a rule file, the search player (``--budget`` rollouts a
decision) against the heuristic player, and prints the searched decisions, the wall
time per searched decision (a decision with one legal action, or more than the
player's ``max_candidates``, is not searched; CPU time is the figure to compare on a
loaded machine) and the search side's wins. Win rates
worth quoting come from ``tricklang simulate`` over hundreds of matches (docs/performance.md, "The search player").

Run: ``python -m benchmarks.search_player rules/ecarte.trick --budget 100 -n 10``
(``--rollout``: greedy, the default, or random rollouts are played inside the generated
module, from worlds redealt in place unless ``--sampling replay``; heuristic rollouts play
the heuristic player over a State, from replayed worlds).
"""

from __future__ import annotations

import argparse
import time

import tricklang
from interpreter import new_game
from interpreter.players import Agent, HeuristicAgent, play_match
from interpreter.players.search import DEFAULT_ROLLOUT, ROLLOUTS, SearchAgent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--budget", type=int, default=48)
    parser.add_argument("-n", type=int, default=6, help="matches (the search side alternates)")
    parser.add_argument("--rollout", choices=ROLLOUTS, default=DEFAULT_ROLLOUT,
                        help="the rollout policy (SearchAgent's rollout)")
    parser.add_argument("--sampling", choices=("replay", "in-place"), default=None,
                        help="how the worlds are drawn (SearchAgent's sampling; in-place needs greedy or random "
                             "rollouts, and is their default)")
    args = parser.parse_args(argv)
    rules = tricklang.load(args.file)
    wins = decisions = 0
    seconds = cpu = 0.0
    started = time.perf_counter()
    for m in range(args.n):
        side = m % 2
        agents: list[Agent] = []
        searchers = []
        for seat in range(rules.player_count):
            if seat % 2 == side:
                searcher = SearchAgent(1000 * m + seat, budget=args.budget, rollout=args.rollout,
                                       sampling=args.sampling)
                searchers.append(searcher)
                agents.append(searcher)
            else:
                agents.append(HeuristicAgent(1000 * m + seat))
        outcome = play_match(new_game(rules, seed=m), agents).outcome()
        assert outcome is not None
        wins += outcome.winner is not None and outcome.winners[0] % 2 == side
        decisions += sum(s.decisions for s in searchers)
        seconds += sum(s.seconds for s in searchers)
        cpu += sum(s.cpu_seconds for s in searchers)
    total = time.perf_counter() - started
    print(f"{rules.name}: search:{args.budget} ({args.rollout} rollouts) against heuristic, {args.n} matches in {total:.1f} s")
    print(f"  searched decisions: {decisions} ({decisions / args.n:.1f} a match)")
    print(f"  time per searched decision: {1000 * seconds / max(1, decisions):.1f} ms wall clock, "
          f"{1000 * cpu / max(1, decisions):.1f} ms CPU")
    print(f"  search side won {wins} of {args.n} (too few matches for a rate: see tricklang simulate)")


if __name__ == "__main__":
    main()
