"""The static facts live on the Game (issue 27: a Game apart from State): they need no
state, and they are what every state of the game and the OpenSpiel adapter say."""

from __future__ import annotations

import pytest

import interpreter
import tricklang
from interpreter.errors import ArgumentError
from interpreter.state.facts import Utilities
from interpreter.state.state import Game

GAMES = ["ecarte", "cinch", "euchre", "hearts", "whist"]


@pytest.mark.parametrize("name", GAMES)
def test_the_game_and_its_states_agree(name: str) -> None:
    rules = tricklang.load(name)
    game = Game.of(rules)
    for selections in ("all", "one_card"):
        state = interpreter.new_game(rules, seed=3, selections=selections)
        assert state.game is game
        assert game.num_distinct_actions(selections=selections) == state.num_distinct_actions
    state = interpreter.new_game(rules, seed=3)
    assert game.tensor_shape() == state.tensor_shape == (len(state.observation_tensor(0)),)
    assert game.information_state_tensor_shape() == (len(state.information_state_tensor(0)),)
    for ids in state.legal_action_ids():
        assert 0 <= ids < game.num_distinct_actions()


def test_a_whole_match_is_zero_sum_and_a_deal_is_bounded_by_its_scoring() -> None:
    ecarte = Game.of(tricklang.load("ecarte"))
    assert ecarte.utilities("match") == Utilities(-1.0, 1.0, 0.0)
    assert ecarte.utilities("deal") == Utilities(0.0, 4.0, None)  # (a vole with the king: 2 + 1 + ...)
    hearts = Game.of(tricklang.load("hearts"))
    assert hearts.utilities("match") == Utilities(-1 / 3, 1.0, 0.0)  # (four sides of one)
    assert ecarte.max_game_length("match") == ecarte.max_game_length("deal") * 1000  # (the default deal limit)


def test_a_deal_never_returns_outside_the_bounds() -> None:
    rules = tricklang.load("cinch")
    low, high, _ = Game.of(rules).utilities("deal")
    import random

    rng = random.Random(4)
    for seed in range(30):
        state = interpreter.new_game(rules, seed=seed)
        state.playout(rng, deal=True)
        before = interpreter.new_game(rules, seed=seed).scores
        for side, score in enumerate(state.scores):
            assert low <= score - before[side] <= high


@pytest.mark.parametrize("scope", ["round", "", "DEAL"])
def test_an_unknown_scope_is_an_argument_error(scope: str) -> None:
    game = Game.of(tricklang.load("ecarte"))
    with pytest.raises(ArgumentError, match="scope must be 'deal' or 'match'"):
        game.utilities(scope)
    with pytest.raises(ArgumentError, match="scope must be 'deal' or 'match'"):
        game.max_game_length(scope)
