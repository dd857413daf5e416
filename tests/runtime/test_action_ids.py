"""Integer action ids and one-card selections (interpreter.state.spaces, interpreter.state.modes)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import IllegalActionError, InvalidActionError, RecordError, State
from interpreter.state.spaces import action_space

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])
RULES = {p.stem: tricklang.load(p) for p in RULE_FILES}
# Games with multi-card selections (discards, passes, takes to six): the one-card mode matters there.
SELECTING = ["ecarte", "cinch", "hearts", "black-maria", "euchre", "cinch-cutthroat"]


def play_ids(state: State, rng: random.Random, steps: int) -> State:
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_id(rng.choice(state.legal_action_ids()))
    return state


def _without_legal(obs: dict[str, object]) -> dict[str, object]:
    return {k: v for k, v in obs.items() if k != "legal_actions"}


@pytest.mark.parametrize("name", sorted(RULES))
def test_ids_are_a_fixed_space_and_round_trip(name: str) -> None:
    rules = RULES[name]
    for selections in ("all", "one_card"):
        state = interpreter.new_game(rules, seed=11, selections=selections)
        space = action_space(state)
        assert state.num_distinct_actions == space.size == sum(b.size for b in space.blocks)
        rng = random.Random(3)
        for _ in range(120):
            if state.is_terminal():
                assert state.legal_action_ids() == []
                break
            ids = state.legal_action_ids()
            assert ids == sorted(set(ids)) and len(ids) == len(state.legal_actions())
            assert all(0 <= i < space.size for i in ids)
            for i in rng.sample(ids, min(len(ids), 6)):
                action = state.action_from_id(i)
                assert action in state.legal_actions()
                assert state.action_id(action) == i == state.action_id(action.text)
            state.apply_id(rng.choice(ids))


def test_ecarte_layout_is_documented() -> None:
    state = interpreter.new_game(RULES["ecarte"], seed=42, selections="one_card")
    space = action_space(state)
    assert [b.name for b in space.blocks if b.size] == ["card", "word", "declare", "irregular", "done"]
    assert space.id_of(interpreter.Action("play", ("KS",))) == 0  # the deck's first card
    assert state.action_from_id(0).text == "play KS"
    assert space.words[:2] == ["stand", "propose"]


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(SELECTING), seed=st.integers(0, 10_000))
def test_one_card_games_replay_as_whole_selections(name: str, seed: int) -> None:
    """A random one-card game's history is accepted, action for action, in the default mode."""
    rules = RULES[name]
    one = play_ids(interpreter.new_game(rules, seed=seed, selections="one_card"), random.Random(seed), 400)
    whole = interpreter.new_game(rules, seed=seed)
    for text in one.actions:
        whole.apply(text)
    assert whole.actions == one.actions
    if not one.picks:  # the same game, but the legal actions of a selection are listed differently
        assert _without_legal(whole.observation(None)) == _without_legal(one.observation(None))
    assert whole.scores == one.scores and whole.is_terminal() == one.is_terminal()


@settings(max_examples=12, deadline=None)
@given(name=st.sampled_from(SELECTING), seed=st.integers(0, 10_000))
def test_default_games_replay_card_by_card(name: str, seed: int) -> None:
    """A random default-mode game is accepted by the one-card mode, selection by selection."""
    rules = RULES[name]
    whole = play_ids(interpreter.new_game(rules, seed=seed), random.Random(seed), 300)
    one = interpreter.new_game(rules, seed=seed, selections="one_card")
    for text in whole.actions:
        verb, *cards = text.split()
        if one.phase != verb or verb == "play":  # not a selection (a selection's phase is its verb)
            one.apply(text)
            continue
        made = len(one.actions)
        for code in [] if cards == ["none"] else cards:
            one.apply(f"{verb} {code}")
        if len(one.actions) == made:  # fewer than the most: end the selection
            one.apply("done")
    assert one.actions == whole.actions
    assert _without_legal(one.observation(None)) == _without_legal(whole.observation(None))


def test_one_card_discard_steps_and_done() -> None:
    # Écarté, seed 42: seat 1 proposes, seat 0 accepts; seat 1 (the elder) discards 1..5.
    state = interpreter.new_game(RULES["ecarte"], seed=42, selections="one_card")
    state.apply("propose")
    state.apply("accept")
    assert state.phase == "discard"
    assert "done" not in state.legal_actions()  # at least one card
    hand = state.hand(state.current_player or 0)
    state.apply(f"discard {hand[0]}")
    assert state.picks == [hand[0]] and state.actions == ["propose", "accept"]
    assert state.observation(state.current_player)["picks"] == [hand[0]]
    assert "picks" not in state.observation(1 - (state.current_player or 0))
    assert "done" in state.legal_actions() and f"discard {hand[0]}" not in state.legal_actions()
    again = State.from_json(state.to_json())
    assert again == state and again.picks == state.picks
    state.apply("done")
    assert state.actions[-1] == f"discard {hand[0]}" and state.picks == []


def test_one_card_selection_is_made_at_its_largest_count() -> None:
    state = interpreter.new_game(RULES["ecarte"], seed=42, selections="one_card")
    state.apply("propose")
    state.apply("accept")
    seat = state.current_player
    for code in state.hand(seat or 0):
        state.apply(f"discard {code}")
    assert len(state.actions[-1].split()) == 6  # 'discard' and five cards, made without 'done'
    assert state.picks == []


def test_bad_ids_raise_naming_the_value_and_change_nothing() -> None:
    state = interpreter.new_game(RULES["ecarte"], seed=42, selections="one_card")
    before = state.to_json()
    size = state.num_distinct_actions
    for bad in (-1, size, 10**9):
        with pytest.raises(InvalidActionError, match=str(bad)):
            state.apply_id(bad)
    with pytest.raises(InvalidActionError, match="True"):
        state.apply_id(True)
    with pytest.raises(IllegalActionError, match=r"id 0 \(play KS\)"):
        state.apply_id(0)
    with pytest.raises(InvalidActionError):
        state.action_from_id(size)
    assert state.to_json() == before
    with pytest.raises(IllegalActionError, match="not a chance node"):
        state.apply_chance_outcome(3)
    assert state.to_json() == before and state.chance_outcomes() == [] and not state.is_chance_node()


def test_bad_mode_names_raise() -> None:
    with pytest.raises(RecordError, match="one_cards"):
        interpreter.new_game(RULES["ecarte"], selections="one_cards")
    with pytest.raises(RecordError, match="'random'"):
        interpreter.new_game(RULES["ecarte"], chance="random")


@pytest.mark.parametrize("selections", ["all", "one_card"])
def test_the_ids_of_a_decision_are_worked_out_once(selections: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.state.spaces as spaces

    calls = []
    pairs = spaces._pairs
    monkeypatch.setattr(spaces, "_pairs", lambda space, legal: calls.append(1) or pairs(space, legal))
    state = interpreter.new_game(RULES["cinch"], seed=5, selections=selections)
    rng = random.Random(5)
    for _ in range(40):
        before = len(calls)
        ids = state.legal_action_ids()
        assert sorted(state.action_from_id(i).text for i in ids) == sorted(state.legal_actions().texts())
        assert state.legal_action_ids() == ids and len(calls) == before + 1
        state.apply_id(rng.choice(ids))
        assert len(calls) == before + 1  # applying by id reads the same decision's ids
