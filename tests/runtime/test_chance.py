"""Explicit chance (interpreter.runtime.chance, interpreter.state.modes)."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import IllegalActionError, State
from interpreter.runtime.chance import CHANCE_PLAYER

ROOT = Path(__file__).resolve().parents[2]
RULES = {p.stem: tricklang.load(p) for p in sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])}


def sample_chance(state: State, rng: random.Random) -> list[int]:
    """Apply sampled outcomes until a decision; return them."""
    taken = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        o = rng.choice(outcomes)[0]
        state.apply_chance_outcome(o)
        taken.append(o)
    return taken


@settings(max_examples=15, deadline=None)
@given(name=st.sampled_from(sorted(RULES)), seed=st.integers(0, 10_000))
def test_sampled_chance_is_the_prearranged_deck(name: str, seed: int) -> None:
    """A deal played from sampled chance outcomes is the same deal as new_game(deck=...)."""
    rules = RULES[name]
    rng = random.Random(seed)
    explicit = interpreter.new_game(rules, chance="explicit", dealer=seed % rules.player_count)
    assert explicit.current_player == CHANCE_PLAYER and explicit.phase == "chance"
    outcomes = sample_chance(explicit, rng)
    codes = rules.cards
    assert sorted(outcomes) == list(range(len(codes)))  # one outcome per card: the deck in dealing order
    fixed = interpreter.new_game(rules, deck=[codes[o] for o in outcomes], dealer=seed % rules.player_count)
    while not fixed.is_terminal() and fixed.deal_number == 1:
        assert explicit.observation(None) == fixed.observation(None)
        action = rng.choice(fixed.legal_actions())
        fixed.apply(action)
        explicit.apply(action.text)
    assert explicit.scores == fixed.scores
    if not fixed.is_terminal():  # the next deal is a chance node again
        assert explicit.is_chance_node() and explicit.deal_number == 2
        assert len(explicit.chance_outcomes()) == len(codes)


def test_random_first_dealer_is_a_chance_node() -> None:
    # Hearts' first dealer is random (`first dealer is random`): one outcome per seat.
    state = interpreter.new_game(RULES["hearts"], chance="explicit")
    assert state.chance_outcomes() == [(s, 0.25) for s in range(4)]
    assert state.chance_probabilities()[0] == (0, Fraction(1, 4))
    assert [a.text for a in state.legal_actions()] == [f"chance seat {s}" for s in range(4)]
    state.apply("chance seat 2")
    assert state.dealer == 2 and state.is_chance_node() and len(state.chance_outcomes()) == 52
    state.apply("chance qs")  # the first card dealt
    assert state.chance_outcomes()[0][1] == pytest.approx(1 / 51)
    again = State.from_json(state.to_json())
    assert again == state and again.chance_outcomes() == state.chance_outcomes()


def test_whole_match_json_round_trip_with_outcomes() -> None:
    rng = random.Random(5)
    state = interpreter.new_game(RULES["ecarte"], chance="explicit", seed=1)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_chance_outcome(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert state.deal_number > 1
    assert State.from_json(state.to_json()) == state


def test_chance_and_decisions_refuse_each_other() -> None:
    state = interpreter.new_game(RULES["ecarte"], chance="explicit", dealer=0)
    before = state.to_json()
    assert state.legal_action_ids() == []  # chance acts here: its outcomes are not action ids
    assert [o for o, _ in state.chance_outcomes()] == list(range(32))
    with pytest.raises(IllegalActionError, match="chance node"):
        state.apply_id(33)
    with pytest.raises(IllegalActionError, match="'propose'.*chance node"):
        state.apply("propose")
    with pytest.raises(IllegalActionError, match="chance outcome 32"):
        state.apply_chance_outcome(32)
    state.apply_chance_outcome(0)
    with pytest.raises(IllegalActionError, match="chance outcome 0"):
        state.apply_chance_outcome(0)  # already drawn
    assert state.to_json() != before
    for o in list(range(1, 32)):
        state.apply_chance_outcome(o)
    assert not state.is_chance_node()
    assert state.legal_action_ids() and all(state.action_from_id(i) in state.legal_actions() for i in state.legal_action_ids())
    decided = state.to_json()
    with pytest.raises(IllegalActionError, match="chance outcome 5.*not a chance node"):
        state.apply_chance_outcome(5)
    assert state.to_json() == decided
