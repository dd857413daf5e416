"""Embedding the interpreter: a self-play data set and a one-step look-ahead player.

Run from the repository root::

    .venv/bin/python examples/embedding.py --games 20 --out /tmp/ecarte.jsonl
    .venv/bin/python examples/embedding.py --rules examples/euchre.trick --games 5

It shows the API an AI or game-research tool needs:

- ``tricklang.load`` a rule file (any of them: nothing here knows the game);
- ``interpreter.new_game(..., seed=...)`` for reproducible games;
- ``state.observation(seat)``: what that seat may know, JSON-able, never a hidden card;
- ``state.legal_actions()`` in a fixed order, ``state.apply``, ``state.clone()``;
- ``state.outcome()`` and the event log.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from pathlib import Path

import interpreter
import tricklang
from interpreter import Action, State
from interpreter.players import HeuristicAgent

ROOT = Path(__file__).resolve().parent.parent


class GreedyScorePlayer:
    """Tries each legal action on a clone and keeps the one after which its side's
    score is highest once the other seats have played on with the heuristic for a
    few steps. It is a cheating player (clones see every card), which is fine for a
    baseline or for testing the API, not for a fair opponent."""

    def __init__(self, seat: int, horizon: int = 12, seed: int = 0) -> None:
        self.seat = seat
        self.horizon = horizon
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        side = next(i for i, members in enumerate(state.sides) if self.seat in members)
        best, best_value = legal[0], float("-inf")
        for action in legal[:40]:  # bound the work on long lists (card selections)
            trial = state.clone()
            trial.apply(action)
            helpers = [HeuristicAgent(self.rng.randrange(1 << 30)) for _ in range(trial.player_count)]
            for _ in range(self.horizon):
                if trial.is_terminal():
                    break
                seat = trial.current_player
                assert seat is not None
                trial.apply(helpers[seat](trial))
            value = trial.scores[side] - max(s for i, s in enumerate(trial.scores) if i != side)
            if value > best_value:
                best, best_value = action, value
        return best


def collect(rules: tricklang.Ruleset, games: int, seed: int, out: Path | None) -> dict[str, int]:
    """Self-play: one JSON line per decision (seat, observation, legal actions, choice)."""
    wins = {"greedy": 0, "heuristic": 0, "none": 0}
    lines = 0
    sink = out.open("w", encoding="utf-8") if out is not None else None
    try:
        for g in range(games):
            state = interpreter.new_game(rules, seed=seed + g)
            seat0 = g % rules.player_count  # the greedy player changes seat every game
            players = {p: HeuristicAgent(seed + 10 * g + p) for p in range(rules.player_count)}
            greedy = GreedyScorePlayer(seat0, seed=seed + g)
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                action = greedy(state) if seat == seat0 else players[seat](state)
                if sink is not None:
                    row = {"game": g, "seat": seat, "observation": state.observation(seat),
                           "legal": [a.text for a in state.legal_actions()], "action": action.text}
                    sink.write(json.dumps(row, ensure_ascii=False) + "\n")
                lines += 1
                state.apply(action)
            outcome = state.outcome()
            assert outcome is not None
            if outcome.winner is None:
                wins["none"] += 1
            elif seat0 in outcome.winners:
                wins["greedy"] += 1
            else:
                wins["heuristic"] += 1
    finally:
        if sink is not None:
            sink.close()
    return {**wins, "decisions": lines}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=str(ROOT / "rules" / "ecarte.trick"), help="rule file")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="write the decisions as JSON lines to this file")
    args = parser.parse_args(argv)
    rules = tricklang.load(args.rules)
    result = collect(rules, args.games, args.seed, args.out)
    print(f"{rules.name}: {args.games} games; the look-ahead player won {result['greedy']}, "
          f"the heuristic {result['heuristic']}, no winner {result['none']}; {result['decisions']} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
