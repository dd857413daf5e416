"""Observation and information-state tensors (interpreter.state.tensors)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import interpreter
import tricklang
from interpreter import GameError, State
from interpreter.harness import check_invariants
from interpreter.state import tensors as tz

ROOT = Path(__file__).resolve().parents[2]
RULES = {p.stem: tricklang.load(p) for p in sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])}


def plane(tensor: list[float], layout: tz.TensorLayout, name: str) -> list[float]:
    start, size = layout.segment(name)
    return tensor[start:start + size]


def cards_of(values: list[float], state: State) -> set[str]:
    return {state.cards[c] for c, v in enumerate(values) if v}


@pytest.mark.parametrize("name", sorted(RULES))
def test_shapes_are_fixed_by_the_rule_file(name: str) -> None:
    rng = random.Random(name)
    state = interpreter.new_game(RULES[name], seed=4, selections="one_card")
    layout = tz.tensor_layout(state)
    assert [s for _, s, _ in layout.segments] == [0] + [s + k for _, s, k in layout.segments][:-1]  # contiguous
    for _ in range(60):
        for p in range(state.player_count):
            assert len(state.observation_tensor(p)) == state.tensor_shape[0] == layout.observation_size
            info = state.information_state_tensor(p)
            assert len(info) == layout.size and info[:layout.observation_size] == state.observation_tensor(p)
        if state.is_terminal():
            break
        state.apply_id(rng.choice(state.legal_action_ids()))


def test_ecarte_tensor_shows_own_hand_trick_and_trump() -> None:
    state = interpreter.new_game(RULES["ecarte"], seed=42)
    layout = tz.tensor_layout(state)
    for p in (0, 1):
        t = state.observation_tensor(p)
        assert cards_of(plane(t, layout, "zone hand 0"), state) == set(state.hand(p))
        assert not any(plane(t, layout, "zone hand 1")) and plane(t, layout, "zone hand 1 count") == [5.0]
        assert plane(t, layout, "trump")[state.suits.index(state.trump or "")] == 1.0
        assert plane(t, layout, "to act")[(1 - p) % 2 if p == 0 else 0] == 1.0  # seat 1 (elder) acts
    state.apply("stand")
    lead = state.legal_actions()[0]
    state.apply(lead)
    for p in (0, 1):
        t = state.observation_tensor(p)
        k = (1 - p) % 2  # seat 1 led: 1 place to seat 0's left, 0 places from itself
        assert cards_of(plane(t, layout, f"trick {k}"), state) == {lead.args[0]}
        info = state.information_state_tensor(p)
        assert cards_of(plane(info, layout, f"played {k}"), state) == {lead.args[0]}
        assert lead.args[0] in cards_of(plane(info, layout, "seen"), state)
        assert plane(info, layout, f"choices {k}")[layout.words.index("stand")] == 1.0


def test_picks_are_seen_by_the_picking_seat_only() -> None:
    state = interpreter.new_game(RULES["ecarte"], seed=42, selections="one_card")
    state.apply("propose")
    state.apply("accept")
    seat = state.current_player
    assert seat is not None
    card = state.hand(seat)[0]
    state.apply(f"discard {card}")
    layout = tz.tensor_layout(state)
    assert cards_of(plane(state.observation_tensor(seat), layout, "picks"), state) == {card}
    other = state.observation_tensor(1 - seat)
    assert not any(plane(other, layout, "picks")) and plane(other, layout, "picks count") == [1.0]


def test_chance_node_tensor_hides_the_dealt_cards() -> None:
    state = interpreter.new_game(RULES["ecarte"], chance="explicit", dealer=0)
    layout = tz.tensor_layout(state)
    empty = state.observation_tensor(1)
    for o in (5, 9, 30):
        state.apply_chance_outcome(o)
    assert state.observation_tensor(1) == empty  # the cards drawn so far are nowhere yet
    assert plane(empty, layout, "to act")[-2] == 1.0 and plane(empty, layout, "decision")[tz.KINDS.index("chance")] == 1.0


@pytest.mark.parametrize("name", ["ecarte", "cinch", "hearts", "euchre"])
def test_hidden_card_swaps_change_no_tensor(name: str) -> None:
    """The invariant harness compares the tensors too when it swaps hidden cards."""
    report = check_invariants(RULES[name], seed=3, max_actions=40)
    assert report.ok, report.summary()


def test_a_leaking_tensor_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    original = tz.observation_tensor

    def leaky(state: State, player: int) -> list[float]:
        out = original(state, player)
        other = state.hand((player + 1) % state.player_count)
        if other:  # the place in the deck of the next seat's best card
            out[-1] += state.cards.index(other[0])
        return out

    monkeypatch.setattr(tz, "observation_tensor", leaky)
    report = check_invariants(RULES["ecarte"], seed=1, max_actions=10)
    assert "observation-leak" in report.codes
    assert report.first is not None and "observation_tensor" in report.first.message


def test_a_seat_that_does_not_exist_is_refused() -> None:
    state = interpreter.new_game(RULES["ecarte"], seed=1)
    for bad in (2, -1, True, "0"):
        with pytest.raises(GameError, match=f"no seat {bad!r}"):
            state.observation_tensor(bad)  # type: ignore[arg-type]
        with pytest.raises(GameError, match=f"no seat {bad!r}"):
            state.information_state_tensor(bad)  # type: ignore[arg-type]
