"""Auction Pitch (examples/auction-pitch.trick): the pitch sets trumps, Low to its
original holder, a tied Game point, the set-back and the pitcher going out first.
"""

from __future__ import annotations

import pytest
from helpers import deal_events, in_packets, legal_cards, load_example, play_deal_out, plays, scores_in_deal

import interpreter

PITCH = load_example("auction-pitch.trick")


# ---------------------------------------------------------------- Auction Pitch

# Seat 0 pitches hearts with AH KH QH and the top clubs and wins every trick; seat 1
# was dealt the two of hearts (Low), seat 2 the jack (captured by seat 0).
LOW = {
    0: ["AH", "KH", "QH", "AC", "KC", "QC"],
    1: ["2H", "3S", "4S", "5S", "6S", "7S"],
    2: ["JH", "3D", "4D", "5D", "6D", "7D"],
    3: ["8C", "9C", "10C", "8D", "9D", "10D"],
}

# Only the two of hearts is a trump (High and Low to seat 0), there is no jack, and
# seats 1 and 2 each take a ten: Game is tied.
TIE = {
    0: ["2H", "3C", "4C", "5C", "6C", "7C"],
    1: ["10C", "2D", "3S", "4S", "5S", "6S"],
    2: ["10D", "8C", "7S", "8S", "9S", "2S"],
    3: ["9C", "3D", "4D", "5D", "6D", "7D"],
}
TIE_PLAY = ["2H", "3S", "7S", "3D", "3C", "10C", "8C", "9C", "2D", "10D", "4D", "4C",
            "9S", "5D", "5C", "4S", "8S", "6D", "6C", "5S", "2S", "7D", "7C", "6S"]


def pitch(hands: dict[int, list[str]], bid: int, **options: object) -> interpreter.State:
    state = interpreter.new_game(PITCH, deck=in_packets(hands, dealer=3), dealer=3, options=options)
    assert [sorted(state.hand(p)) for p in range(4)] == [sorted(hands[p]) for p in range(4)]
    state.apply(f"bid {bid}")
    for _ in range(3):
        state.apply("pass")
    assert state.current_player == 0 and state.trump is None
    return state


def test_pitch_the_first_card_led_sets_trumps() -> None:
    state = pitch(LOW, 2)
    state.apply("play AH")
    assert state.trump == "hearts"  # [AP5]
    assert set(legal_cards(state)) == {"2H"}  # a trump is led: seat 1 must play his [AP6]
    state.apply("play 2H")
    state.apply("play JH")
    assert set(legal_cards(state)) == set(LOW[3])  # no trump: any card


@pytest.mark.parametrize(("low_point", "expected"), [("dealt", [3, 1, 0, 0]), ("taken", [4, 0, 0, 0])])
def test_pitch_low_goes_to_its_original_holder_even_when_captured(low_point: str, expected: list[int]) -> None:
    state = pitch(LOW, 2, low_point=low_point)
    state.apply("play AH")
    play_deal_out(state)
    assert state.scores == expected  # [AP8, AP10]
    labels = [(side, label) for side, _, label in scores_in_deal(state, 1)]
    assert labels[0] == (0, "made the bid")  # the pitcher is counted first [AP12]
    if low_point == "dealt":
        assert labels[1:] == [(1, "Low")]


def test_pitch_game_point_tie_scores_nobody() -> None:
    state = pitch(TIE, 2)
    plays(state, *TIE_PLAY)
    tricks = [e for e in deal_events(state, 1) if e["type"] == "trick"]
    assert [e["winner"] for e in tricks] == [0, 1, 2, 2, 2, 1]
    # High and Low are the same card, the pitcher's only trump; no jack; Game tied 10-10.
    assert state.scores == [2, 0, 0, 0]  # [AP9]
    assert [label for _, _, label in scores_in_deal(state, 1)] == ["made the bid"]


def test_pitch_set_back() -> None:
    state = pitch(TIE, 3)
    plays(state, *TIE_PLAY)
    assert state.scores == [-3, 0, 0, 0]  # two points won, three bid [AP10]
    state = pitch(LOW, 4)
    state.apply("play AH")
    play_deal_out(state)
    assert state.scores == [-4, 1, 0, 0]  # the others still score what they won


def test_pitch_the_pitcher_goes_out_first() -> None:
    state = pitch(LOW, 2, target=1)
    state.apply("play AH")
    play_deal_out(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.scores == (3, 0, 0, 0)  # Low never counted
    state = pitch(LOW, 4, target=1)
    state.apply("play AH")
    play_deal_out(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.scores == (-4, 1, 0, 0)  # [AP12]


def test_pitch_when_all_pass() -> None:
    state = interpreter.new_game(PITCH, seed=4, dealer=3)
    for _ in range(4):
        state.apply("pass")
    assert state.maker == 3 and state.bid == 2 and state.current_player == 3  # [AP4]
    state = interpreter.new_game(PITCH, seed=4, dealer=3, options={"all_pass": "redeal"})
    for _ in range(4):
        state.apply("pass")
    assert state.deal_number == 2 and state.dealer == 0 and state.phase == "auction"


# Counting out [AP12]: the pitcher (seat 0, one small trump) is set back, and several
# other players win points that each take them past a target of one. The first point
# in the order High, Low, Jack, Game wins; the later ones are never counted.
HIGH_BEFORE_LOW = {
    0: ["3H", "4C", "5C", "6C", "7C", "8C"],
    1: ["2H", "3S", "4S", "5S", "6S", "7S"],  # Low
    2: ["AH", "3D", "4D", "5D", "6D", "7D"],  # High
    3: ["9C", "10C", "8D", "9D", "10D", "8S"],  # the tens: Game
}
# The pitcher holds High (his, but he is set back), seat 1 Low, seat 3 the tens.
LOW_BEFORE_GAME = {
    0: ["AH", "3H", "4C", "5C", "6C", "7C"],
    1: ["2H", "3S", "4S", "5S", "6S", "7S"],  # Low
    2: ["8C", "3D", "4D", "5D", "6D", "7D"],
    3: ["9C", "10C", "8D", "9D", "10D", "10S"],  # the tens: Game
}


# Trick by trick, from the leader round to the left.
HIGH_BEFORE_LOW_PLAY = ["3H", "2H", "AH", "8S", "3D", "8D", "4C", "3S", "10C", "5C", "4S", "4D",
                        "10D", "6C", "5S", "5D", "9D", "7C", "6S", "6D", "9C", "8C", "7S", "7D"]
LOW_BEFORE_GAME_PLAY = ["AH", "2H", "3D", "9D", "3H", "3S", "4D", "8D", "4C", "4S", "8C", "10C",
                        "10D", "5C", "5S", "5D", "10S", "6C", "6S", "6D", "9C", "7C", "7S", "7D"]


@pytest.mark.parametrize(("hands", "bid", "cards", "winner", "counted"), [
    (HIGH_BEFORE_LOW, 2, HIGH_BEFORE_LOW_PLAY, 2, "High"),
    (LOW_BEFORE_GAME, 4, LOW_BEFORE_GAME_PLAY, 1, "Low"),
])
def test_pitch_counting_out_when_several_players_pass_the_target_in_one_deal(
        hands: dict[int, list[str]], bid: int, cards: list[str], winner: int, counted: str) -> None:
    state = pitch(hands, bid, target=1)
    plays(state, *cards)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == winner and outcome.deals == 1  # [AP12]
    labels = [(side, label) for side, _, label in scores_in_deal(state, 1)]
    assert labels == [(0, "set back"), (winner, counted)]  # nothing counted after the winning point
    assert outcome.scores == tuple(-bid if p == 0 else int(p == winner) for p in range(4))
    # Counted in full (a higher target), at least two of the others had passed a target of one.
    state = pitch(hands, bid, target=9)
    plays(state, *cards)
    assert state.scores[0] == -bid and sum(1 for s in state.scores[1:] if s >= 1) >= 2
