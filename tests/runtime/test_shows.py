"""Issue 28, step 3, the runtime half of `P shows COUNT [matching P[, else Q]]` (design 3.6):
showing chosen cards without moving them (French Tarot's handful of trumps, the trumps laid
away "shown if so").

Scripted deals of a two-player game: the decision is a selection of the player's cards (actions
``show ...``), the cards stay in his hand, and a public ``shown`` event names them to every seat
(observations, the information-state tensor's ``seen`` plane, the transcript). With `matching P,
else Q` a player who holds too few P-cards shows all of them and chooses the rest among his
Q-cards. In a hook on a card the decision stops the trick in the middle and the trick goes on
after it. The harness finds no leak, and a native build plays what CPython plays.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native
from interpreter.harness import check_invariants
from interpreter.state.tensors import tensor_layout
from interpreter.transcript import render

GAME = """\
tricklang 1
game "Showing"
players 2
role eldest = left of dealer
deck
  suits spades black, hearts red
  ranks A K Q J 10 9
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 2 deals
deal
  deal 6 to each from eldest
  trump is hearts
  eldest shows 2 matching hearts, else spades
  tricks 6, eldest leads first
    must follow suit
    after leading K when trick_number == 1:
      player shows 1 matching spades
      player scores 1 "showed"
    after each trick:
      winner scores 1 "trick"
"""
RULES = tricklang.loads(GAME, path="showing.trick")
ALL = [r + s for s in "SH" for r in "A K Q J 10 9".split()]


def new(eldest: str, rules: tricklang.Ruleset = RULES, **kw: Any) -> interpreter.State:
    """Dealer 0: seat 1 (eldest) gets ``eldest``, seat 0 the other six cards."""
    mine = eldest.split()
    return interpreter.new_game(rules, deck=[*mine, *(c for c in ALL if c not in mine)], dealer=0, **kw)


def texts(state: interpreter.State) -> list[str]:
    return sorted(a.text for a in state.legal_actions())


def shown(state: interpreter.State, seat: int | None) -> list[dict[str, Any]]:
    return [e for e in state.events(seat) if e["type"] == "shown"]


def seen(state: interpreter.State, seat: int) -> set[str]:
    """The cards the information-state tensor of ``seat`` marks as seen this deal."""
    pos, size = tensor_layout(state).segment("seen")
    t = state.information_state_tensor(seat)
    return {state.cards[k] for k in range(size) if t[pos + k]}


def test_the_cards_shown_stay_in_the_hand_and_every_seat_sees_them() -> None:
    state = new("KS QS JS AH 10H 9H")
    assert state.current_player == 1 and state.phase == "show"
    assert texts(state) == ["show 10H 9H", "show AH 10H", "show AH 9H"]  # two of his hearts, no spade
    assert "AH" not in seen(state, 0)
    ids = state.legal_action_ids()
    assert sorted(state.action_from_id(i).text for i in ids) == texts(state)  # the actions have ids
    assert state.action_id("show AH 9H") in ids
    before = sorted(state.hand(1))
    state.apply("show AH 9H")
    assert sorted(state.hand(1)) == before  # nothing moved
    event = {"type": "shown", "player": 1, "cards": ["AH", "9H"]}
    assert shown(state, 0) == [event] and shown(state, 1) == [event] and shown(state, None) == [event]
    assert event in state.observation(0)["events"]
    assert {"AH", "9H"} <= seen(state, 0) and "10H" not in seen(state, 0)
    assert "seat 1 shows AH 9H" in render(state)


def test_too_few_p_cards_shows_them_all_and_the_rest_among_the_q_cards() -> None:
    state = new("KS QS JS 9S AH AS")  # one heart: AH is shown, and one spade of his choice
    assert texts(state) == ["show 9S", "show AS", "show JS", "show KS", "show QS"]
    state.apply("show JS")
    assert shown(state, 0) == [{"type": "shown", "player": 1, "cards": ["AH", "JS"]}]
    assert sorted(state.hand(1)) == sorted("KS QS JS 9S AH AS".split())


def test_showing_in_a_hook_stops_the_trick_and_it_goes_on_after() -> None:
    state = new("KS QS JS AH 10H 9H")
    state.apply("show AH 10H")
    state.apply("play KS")  # the hook: seat 1 shows one of his spades, in the middle of the trick
    assert state.current_player == 1 and texts(state) == ["show JS", "show QS"]
    assert state.current_trick == [(1, "KS")]
    again = interpreter.State.from_json(state.to_json())
    twin = state.clone()
    state.apply("show QS")
    assert shown(state, 0)[-1] == {"type": "shown", "player": 1, "cards": ["QS"]}
    assert state.current_player == 0 and "play AS" in texts(state)  # the trick goes on
    assert [e["points"] for e in state.events(None) if e["type"] == "score"] == [1]
    for s in (again, twin):
        s.apply("show QS")
        assert s.events(None) == state.events(None)


def test_one_card_mode_splits_the_showing() -> None:
    state = new("KS QS JS AH 10H 9H", selections="one_card")
    state.apply("show AH")
    assert state.current_player == 1 and "show AH" not in texts(state)
    state.apply("show 9H")
    assert shown(state, 0) == [{"type": "shown", "player": 1, "cards": ["AH", "9H"]}]


def test_the_harness_finds_nothing_wrong() -> None:
    for seed in range(4):
        report = check_invariants(RULES, seed=seed, finish=True, stop_on_first=False)
        assert report.violations == []



@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_shows_as_cpython_does() -> None:
    rules = tricklang.loads(GAME, path="native-showing.trick")
    python = assert_native_plays_as_cpython(rules, range(12), step=True)
    assert any(e["type"] == "shown" for _, events in python for e in events)
