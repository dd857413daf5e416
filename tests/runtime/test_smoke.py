"""A first end-to-end check: both shipped rule files load and play a whole match."""

from pathlib import Path

import interpreter
import tricklang
from interpreter.players import HeuristicAgent, RandomAgent, play_match

RULES = Path(__file__).resolve().parents[2] / "rules"


def test_ecarte_match_ends_with_a_winner_at_the_target() -> None:
    rules = tricklang.load(RULES / "ecarte.trick")
    state = play_match(interpreter.new_game(rules, seed=11), [HeuristicAgent(1), RandomAgent(2)])
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None
    assert state.scores[outcome.winner] >= 5
    assert max(s for i, s in enumerate(state.scores) if i != outcome.winner) < 5


def test_words_after_a_verb_that_takes_none_are_not_read_as_cards() -> None:
    import pytest

    state = interpreter.new_game(tricklang.load(RULES / "ecarte.trick"), seed=1)
    before = state.to_json()
    with pytest.raises(interpreter.IllegalActionError, match="'stand' takes nothing after it"):
        state.apply("stand now")
    assert state.to_json() == before
