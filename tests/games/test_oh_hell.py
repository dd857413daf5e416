"""Oh Hell for 3 to 7 players (examples/oh-hell*.trick): the turn-up, exact bids, the
dealer's hook, the scoring variants and the series of hand sizes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from helpers import ALL52, deal_events, load_example, one_at_a_time, play_deal_out, plays

import interpreter
from interpreter.players import RandomAgent
from interpreter.transcript import render

OH_HELL = load_example("oh-hell.trick")


# ---------------------------------------------------------------- Oh Hell

# Three cards each; seat 0 holds the top three spades and the turn-up is the two of
# spades, so seat 0 takes all three tricks.
OH_HANDS = {0: ["AS", "KS", "QS"], 1: ["AH", "KH", "QH"], 2: ["AD", "KD", "QD"], 3: ["AC", "KC", "QC"]}


def oh_hell(hands: dict[int, list[str]] = OH_HANDS, turnup: str = "2S", **options: object) -> interpreter.State:
    options.setdefault("max_cards", len(hands[0]))
    return interpreter.new_game(OH_HELL, deck=one_at_a_time(hands, dealer=3, extra=[turnup]), dealer=3,
                                options=options)


def bid_round(state: interpreter.State, bids: Iterable[int]) -> None:
    for seat, b in zip([0, 1, 2, 3], bids, strict=True):
        assert state.current_player == seat and state.phase == "bidding"
        state.apply(f"bid {b}")


def test_oh_hell_turn_up_and_exact_bids() -> None:
    state = oh_hell()
    assert state.trump == "spades" and state.zone("turnup") == ["2S"]  # [OH4]
    assert all(len(state.hand(p)) == 3 for p in range(4))
    bid_round(state, [3, 0, 0, 1])
    play_deal_out(state)
    # Exact: 10 + tricks (3), 10 + 0, 10 + 0; the dealer bid 1 and took none [OH8].
    assert state.scores == [13, 10, 10, 0]


def test_oh_hell_hook_forbids_the_dealer_one_bid() -> None:
    state = oh_hell()
    for b in (1, 0, 0):
        state.apply(f"bid {b}")
    assert state.current_player == 3
    # Bids so far total 1 of 3 tricks: the dealer may not bid 2 [OH6].
    assert state.legal_actions().texts() == ["bid 0", "bid 1", "bid 3"]
    assert not state.is_legal("bid 2")
    free = oh_hell(hook=False)
    for b in (1, 0, 0):
        free.apply(f"bid {b}")
    assert free.is_legal("bid 2")


@pytest.mark.parametrize(("scoring", "expected"), [
    ("exact_only", [0, 10, 0, 0]),
    ("every_trick", [3, 10, 0, 0]),
    ("minus_difference", [-1, 10, -1, -1]),
])
def test_oh_hell_scoring_variants(scoring: str, expected: list[int]) -> None:
    state = oh_hell(scoring=scoring)
    for b in (2, 0, 1):
        state.apply(f"bid {b}")
    assert not state.is_legal("bid 0")  # 2 + 0 + 1 + 0 would make 3 [OH6]
    state.apply("bid 1")
    play_deal_out(state)
    assert state.scores == expected


def test_oh_hell_full_pack_is_played_without_trumps() -> None:
    rng = random.Random(3)
    deck = list(ALL52)
    rng.shuffle(deck)
    state = interpreter.new_game(OH_HELL, deck=deck, dealer=3, options={"max_cards": 13})
    assert state.trump is None and state.zone("turnup") == [] and state.zone("stock") == []
    last = interpreter.new_game(OH_HELL, deck=deck, dealer=3,
                                options={"max_cards": 13, "no_turnup_trump": "dealers_last_card"})
    assert last.trump == {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[deck[51][-1]]


@pytest.mark.parametrize(("sequence", "sizes"), [
    ("down", [3, 2, 1]),
    ("up", [1, 2, 3]),
    ("down_up", [3, 2, 1, 2, 3]),
    ("up_down", [1, 2, 3, 2, 1]),
])
def test_oh_hell_hand_sizes_and_the_end_of_the_series(sequence: str, sizes: list[int]) -> None:
    state = interpreter.new_game(OH_HELL, seed=21, options={"max_cards": 3, "sequence": sequence})
    agents = [RandomAgent(i) for i in range(4)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    outcome = state.outcome()
    assert outcome is not None
    dealt = [sum(1 for e in deal_events(state, d) if e["type"] == "dealt") // 4 for d in range(1, outcome.deals + 1)]
    assert dealt == sizes  # [OH2]: the series, and no more
    top = max(outcome.scores)
    if outcome.winner is None:  # a tie for first is a drawn match [OH9]
        assert list(outcome.scores).count(top) > 1
    else:
        assert outcome.scores[outcome.winner] == top and list(outcome.scores).count(top) == 1


def test_oh_hell_last_deal_ends_the_match_highest_score_wins() -> None:
    hands = {0: ["AS"], 1: ["2H"], 2: ["2D"], 3: ["2C"]}
    state = oh_hell(hands, turnup="3S")
    bid_round(state, [1, 0, 0, 1])  # the dealer may not bid 0
    plays(state, "AS", "2H", "2D", "2C")
    assert state.is_terminal()
    assert state.scores == [11, 10, 10, 0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.deals == 1


def test_oh_hell_a_tie_for_first_is_a_drawn_match() -> None:
    hands = {0: ["AS"], 1: ["2H"], 2: ["2D"], 3: ["2C"]}
    state = oh_hell(hands, turnup="3S")
    bid_round(state, [0, 0, 0, 0])  # total 0 of 1 trick: the dealer may bid 0
    plays(state, "AS", "2H", "2D", "2C")
    assert state.scores == [0, 10, 10, 10]
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.deals == 1
    assert state.events(None)[-1]["drawn"] is True


@pytest.mark.parametrize("name", ["oh-hell-3.trick", "oh-hell-5.trick", "oh-hell-6.trick", "oh-hell-7.trick"])
def test_oh_hell_other_player_counts(name: str) -> None:
    rules = load_example(name)
    n = rules.player_count
    top = next(o.high for o in rules.option_specs() if o.name == "max_cards")
    assert top is not None
    assert top == 52 // n if n != 3 else 17
    state = interpreter.new_game(rules, seed=n, options={"max_cards": top, "sequence": "down_up"})
    assert all(len(state.hand(p)) == top for p in range(n))
    agents = [RandomAgent(i) for i in range(n)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None and outcome.deals >= 2 * top - 1


def test_the_last_deal_of_oh_hell_is_marked_in_transcripts() -> None:
    state = interpreter.new_game(OH_HELL, seed=2, options={"max_cards": 1})
    text = render(state)
    assert "{'type'" not in text
    assert "this is the last deal of the match  [OH9]" in text
