"""Issue 28 step 9, the runtime half: one seat plays another's cards (design 3.5, decision 2).

A small Bridge-like game: the dealer plays for the dummy (his partner), whose hand is
exposed to everybody once the first trick is over. Scripted deals check whose decision a
dummy's turn is, which cards are offered (the dummy's, under the obligations as they apply
to the dummy), the ``play`` event's ``by``, who sees the dummy's hand and when
(observations, tensors, the harness's swap invariant), the resampler, OpenSpiel's current
player, and that the native build plays what CPython plays.
"""

from __future__ import annotations

import random

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native, transcript
from interpreter.codegen import generate
from interpreter.harness import check_invariants

DUMMY = """\
tricklang 1
game "Dummy"
players 4 in partnerships 0 2, 1 3
role dummy = partner of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
match
  at most 2 deals
deal
  deal 4 to each
  tricks 4, left of dealer leads first
    must follow suit
    dealer plays for dummy
    after each trick when trick_number == 1:
      expose hand of dummy
  for each side:
    side scores tricks(side)
"""

# Dealer 0 (dummy 2); seat 1 leads. The dealer holds only clubs; the dummy holds spades.
HANDS = {1: "AS KS AH KH", 2: "QS JS AD KD", 3: "QH JH QD JD", 0: "AC KC QC JC"}
PACK = [card for seat in (1, 2, 3, 0) for card in HANDS[seat].split()]


def new(text: str = DUMMY) -> interpreter.State:
    return interpreter.new_game(tricklang.loads(text, path="dummy.trick"), deck=PACK, dealer=0)


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def seen(state: interpreter.State, viewer: int, owner: int) -> list[str] | None:
    """The cards of ``hand of owner`` in ``viewer``'s observation (None: only their count)."""
    cards: list[str] | None = state.observation(viewer)["zones"]["hand"][str(owner)].get("cards")
    return cards


def test_the_dummys_turn_is_the_dealers_decision_over_the_dummys_cards() -> None:
    state = new()
    assert state.current_player == 1
    state.apply("play AS")
    assert state.current_player == 0  # the dummy's turn, the dealer's decision
    # The dummy's spades: follow suit computed for the dummy's hand (the dealer holds no spade).
    assert plays(state) == ["JS", "QS"]
    assert "follow suit" in state.why_illegal("play AD")
    with pytest.raises(interpreter.IllegalActionError):
        state.apply("play AC")  # the dealer's own card is not the dummy's
    state.apply("play QS")
    assert state.hand(2) == ["JS", "AD", "KD"] and len(state.hand(0)) == 4
    assert state.current_player == 3


def test_the_play_event_names_who_played_the_card_for_its_seat() -> None:
    state = new()
    state.apply("play AS")
    state.apply("play JS")
    events = state.events(None)
    assert {"type": "play", "player": 2, "card": "JS", "trick": 1, "by": 0} in events
    assert {"type": "play", "player": 1, "card": "AS", "trick": 1} in events  # one's own card: no 'by'
    taken = [e for e in events if e["type"] == "takes_up"]
    assert taken == [{"type": "takes_up", "player": 0, "for": 2, "cards": ["QS", "JS", "AD", "KD"]}]
    assert [e for e in state.events(1) if e["type"] == "takes_up"] == [{"type": "takes_up", "player": 0, "for": 2}]
    text = transcript.render(state)
    assert "seat 0 plays JS for seat 2" in text
    assert "seat 0 takes up the hand of seat 2 to play it: QS JS AD KD" in text


def test_the_dummys_hand_is_seen_by_the_dealer_from_his_first_play_for_it_and_by_all_once_exposed() -> None:
    state = new()
    assert seen(state, 0, 2) is None  # before the dealer's first turn for the dummy
    state.apply("play AS")
    assert seen(state, 0, 2) == ["QS", "JS", "AD", "KD"]  # his decision: he sees what he plays from
    assert seen(state, 1, 2) is None and seen(state, 3, 2) is None
    before = state.observation_tensor(1)
    for card in ("JS", "QH", "AC"):
        state.apply(f"play {card}")
    assert [e["type"] for e in state.events(None)][-2:] == ["trick", "exposed"]
    for viewer in range(4):  # exposed after the first trick: everybody sees it
        assert seen(state, viewer, 2) == ["QS", "AD", "KD"]
    assert state.observation_tensor(1) != before


def test_the_dealer_sees_the_dummys_hand_in_his_tensor_and_the_others_do_not() -> None:
    state = new()
    state.apply("play AS")
    swapped = interpreter.new_game(tricklang.loads(DUMMY, path="dummy.trick"), dealer=0, deck=[
        *"AS KS AH KH".split(), *"QS JS QD KD".split(), *"QH JH AD JD".split(), *"AC KC QC JC".split()])
    swapped.apply("play AS")
    # The dummy's AD and the partner's QD change places: the dealer sees it, the leader does not.
    assert swapped.observation_tensor(0) != state.observation_tensor(0)
    assert swapped.observation_tensor(1) == state.observation_tensor(1)
    assert swapped.observation(1) == state.observation(1)


def test_the_harness_finds_no_violation_over_whole_matches() -> None:
    rules = tricklang.loads(DUMMY, path="dummy.trick")
    for seed in range(3):
        report = check_invariants(rules, seed=seed, max_actions=40, finish=True)
        assert report.ok, report


def test_a_seat_resampled_for_an_opponent_keeps_his_view() -> None:
    state = new()
    for card in ("AS", "JS", "QH"):
        state.apply(f"play {card}")
    for seat in (1, 3, 0):
        world = state.resample(seat, random.Random(seat))
        assert world.observation(seat) == state.observation(seat)
        assert world.current_player == state.current_player


def test_a_guarded_rule_applies_only_while_its_guard_holds() -> None:
    state = new(DUMMY.replace("    dealer plays for dummy\n", "    dealer plays for dummy when trick_number > 1\n"))
    state.apply("play AS")
    assert state.current_player == 2  # the first trick: the dummy plays his own card
    assert not [e for e in state.events(None) if e["type"] == "takes_up"]


def test_a_file_without_the_rule_gets_none_of_it() -> None:
    plain = generate(tricklang.load("ecarte")).source
    assert "TAKES_UP" not in plain and "c.zsee[" not in plain and "def turn_" not in plain
    source = generate(tricklang.loads(DUMMY, path="dummy.trick")).source
    assert "def turn_" in source and "c.zsee[" in source


def test_openspiels_current_player_is_the_controller() -> None:
    pytest.importorskip("pyspiel")
    from interpreter.embedding.openspiel import load_game

    game = load_game(tricklang.loads(DUMMY, path="dummy.trick"))
    state = game.new_initial_state()
    rng = random.Random(5)
    for_dummy = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        inner = state.tricklang
        assert state.current_player() == inner.current_player
        if inner.phase == "play":
            dealer = inner.observation(None)["dealer"]
            legal = {a.args[0] for a in inner.legal_actions()}
            if legal <= set(inner.hand((dealer + 2) % 4)):  # the dummy's turn
                assert state.current_player() == dealer
                for_dummy += 1
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    assert for_dummy == 4  # one card of the dummy's to each trick


# ---------------------------------------------------------------- native





@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    rules = tricklang.loads(DUMMY, path="native-dummy.trick")
    python = assert_native_plays_as_cpython(rules, range(8), step=True)
    assert any("by" in e for _, events in python for e in events)
