"""Table mode combined with the embedding modes (interpreter/modes.py): irregularities
offered at every step of a one-card selection (recording one withdraws the picks, the
remedy applying to the state before the selection), and never at an explicit chance node
(recorded at the next decision or referee's pause, as with automatic chance)."""

from __future__ import annotations

from pathlib import Path

import pytest

import interpreter
import tricklang
from interpreter import IllegalActionError, State
from interpreter.state.spaces import action_space

ROOT = Path(__file__).resolve().parents[2]
ECARTE = tricklang.load(ROOT / "rules/ecarte.trick")


def irregular(state: State) -> list[str]:
    return [t for t in state.legal_actions().texts() if t.startswith("irregular ")]


def at_the_elders_discard(selections: str) -> State:
    """Écarté, seed 42, table mode: the elder proposed, the dealer accepted; the elder discards."""
    state = interpreter.new_game(ECARTE, seed=42, dealer=0, mode="table", selections=selections)
    for text in ("continue", "propose", "accept"):
        state.apply(text)
    assert state.phase == "discard" and state.current_player == 1
    return state


def test_the_irregularities_of_a_selection_are_offered_at_every_one_card_step() -> None:
    whole = at_the_elders_discard("all")
    state = at_the_elders_discard("one_card")
    before = irregular(state)
    assert before == irregular(whole) and "irregular looked_at_discards 0" in before
    first, second = state.hand(1)[:2]
    state.apply(f"discard {first}")
    assert state.picks == [first] and irregular(state) == before
    state.apply(f"discard {second}")
    assert irregular(state) == before
    space = action_space(state)
    ids = state.legal_action_ids()
    irr = space.blocks[[b.name for b in space.blocks].index("irregular")]
    assert [state.action_from_id(i).text for i in ids if irr.start <= i < irr.start + irr.size] == before


def test_recording_one_mid_selection_withdraws_the_picks_and_plays_the_game_of_the_all_cards_mode() -> None:
    state = at_the_elders_discard("one_card")
    hand = state.hand(1)
    state.apply(f"discard {hand[0]}")
    state.apply(f"discard {hand[1]}")
    state.apply("irregular looked_at_discards 0")  # the dealer looked: the elder may expose his hand
    assert state.picks == [] and state.current_player == 1 and state.phase == "choice"
    assert state.observation(1).get("picks") is None and "picks" not in state.to_dict()
    state.apply("expose")
    assert state.phase == "discard" and state.picks == [] and state.hand(1) == hand  # started again from no card
    state.apply(f"discard {hand[2]}")
    state.apply("done")
    whole = at_the_elders_discard("all")
    for text in ("irregular looked_at_discards 0", "expose", f"discard {hand[2]}"):
        whole.apply(text)
    assert list(state.actions) == list(whole.actions)
    assert state.events(None) == whole.events(None) and state.hand(1) == whole.hand(1)
    again = State.from_json(state.to_json())
    assert again == state and again.legal_actions().texts() == state.legal_actions().texts()


def test_a_snapshot_taken_mid_selection_puts_the_picks_back_after_a_remedy() -> None:
    state = at_the_elders_discard("one_card")
    pick = state.hand(1)[3]
    state.apply(f"discard {pick}")
    snap, saved = state.snapshot(), state.to_json()
    state.apply("irregular looked_at_discards 0")
    state.apply("waive")
    assert state.picks == [] and len(state.actions) == 5
    state.restore(snap)
    assert state.picks == [pick] and state.to_json() == saved and len(state.actions) == 3
    assert State.from_json(saved).picks == [pick]
    state.apply("done")
    assert state.actions[-1] == f"discard {pick}"


def test_a_refused_irregularity_mid_selection_changes_nothing() -> None:
    state = at_the_elders_discard("one_card")
    state.apply(f"discard {state.hand(1)[0]}")
    saved = state.to_json()
    with pytest.raises(IllegalActionError, match="seat"):
        state.apply("irregular looked_at_discards 5")
    assert state.to_json() == saved and state.picks == [state.hand(1)[0]]


def test_strict_one_card_mode_offers_no_irregularity_mid_selection() -> None:
    state = interpreter.new_game(ECARTE, seed=42, dealer=0, selections="one_card")
    state.apply("propose")
    state.apply("accept")
    state.apply(f"discard {state.hand(1)[0]}")
    assert irregular(state) == [] and "referee" not in {b.name for b in action_space(state).blocks if b.size}
    with pytest.raises(IllegalActionError):
        state.apply("irregular looked_at_discards 0")


def test_no_irregularity_at_a_chance_node_the_referee_records_it_at_the_next_pause() -> None:
    state = interpreter.new_game(ECARTE, seed=5, dealer=0, mode="table", chance="explicit", selections="one_card")
    order: list[int] = []
    while state.is_chance_node():
        assert irregular(state) == [] and state.current_player == -1
        saved = state.to_json()
        with pytest.raises(IllegalActionError, match="not recorded at a chance node"):
            state.apply("irregular imperfect_pack 0")
        assert state.to_json() == saved
        outcomes = state.chance_outcomes()
        outcome = outcomes[len(order) % len(outcomes)][0]
        order.append(outcome)
        state.apply_chance_outcome(outcome)
    deck = [state.cards[c] for c in order]
    automatic = interpreter.new_game(ECARTE, deck=deck, dealer=0, mode="table", selections="one_card")
    assert state.phase == automatic.phase == "deal"
    assert state.legal_actions().texts() == automatic.legal_actions().texts()
    assert state.legal_action_ids() == automatic.legal_action_ids()


def test_a_remedy_that_needs_chance_waits_for_it_and_then_goes_on() -> None:
    state = interpreter.new_game(ECARTE, seed=5, dealer=0, mode="table", chance="explicit")
    while state.is_chance_node():
        state.apply_chance_outcome(state.chance_outcomes()[0][0])
    state.apply("irregular faced_card_in_pack 0")  # a fresh deal: a new shuffle
    assert state.is_chance_node() and irregular(state) == []
    while state.is_chance_node():
        state.apply_chance_outcome(state.chance_outcomes()[-1][0])
    assert state.current_player in (0, 1) and list(state.actions) == ["irregular faced_card_in_pack 0"]
    assert State.from_json(state.to_json()) == state
