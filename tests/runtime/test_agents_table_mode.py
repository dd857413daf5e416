"""The heuristic player in table mode, where every decision also offers the rule file's
irregularities: it plays regular actions only, at every kind of decision (Cinch's
naming of trumps and its bids offered such actions beside its own and used to crash it)."""

from __future__ import annotations

import pytest

import tricklang
from interpreter.players import HeuristicAgent
from interpreter.state import new_game


@pytest.mark.parametrize(("game", "seed"), [("cinch", 5), ("cinch", 6), ("ecarte", 5)])
def test_heuristic_player_plays_regular_actions_in_table_mode(game: str, seed: int) -> None:
    state = new_game(tricklang.load(game), seed=seed, mode="table")
    agents = [HeuristicAgent(seed + seat) for seat in range(state.player_count)]
    kinds = set()
    while state.deal_number <= 2 and not state.is_terminal():
        decision = state.decision
        assert decision is not None
        kinds.add(decision.kind)
        action = agents[decision.seat](state)
        assert action.verb != "irregular", action.text
        state.apply(action)
    assert "play" in kinds
    assert game != "cinch" or {"auction", "name_trump", "select"} <= kinds
