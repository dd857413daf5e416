"""Shipped games end under their default players (issue 10): Spades' losing score, and
built-in heuristic players that bid what their hands can make."""

from __future__ import annotations

from pathlib import Path

import pytest

import interpreter
import tricklang
from interpreter.players import make_agent, play_match

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("seed", range(3))
def test_spades_ends_when_a_side_falls_to_the_losing_score(seed: int) -> None:
    rules = tricklang.load(ROOT / "examples" / "spades.trick", options={"losing_score": -60})
    state = interpreter.new_game(rules, seed=seed)
    play_match(state, [make_agent("random", seed * 10 + i) for i in range(4)])
    outcome = state.outcome()
    assert outcome is not None
    scores = list(outcome.scores)
    assert max(scores) >= 500 or min(scores) <= -60
    if min(scores) <= -60 and max(scores) < 500 and scores[0] != scores[1]:
        assert outcome.winner == scores.index(max(scores))  # the side that fell loses


@pytest.mark.parametrize("name", ["auction-pitch.trick", "spades.trick"])
def test_heuristic_players_finish_a_contract_game_in_few_deals(name: str) -> None:
    rules = tricklang.load(ROOT / "examples" / name)
    for seed in range(2):
        state = interpreter.new_game(rules, seed=seed)
        play_match(state, [make_agent("heuristic", seed * 10 + i) for i in range(rules.player_count)])
        outcome = state.outcome()
        assert outcome is not None and outcome.winner is not None
        assert outcome.deals <= 60  # they were set back for hundreds of deals before
