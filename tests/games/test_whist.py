"""Whist (examples/whist.trick): scripted deals for the scoring edge cases, and whole
matches checked against an oracle written from the rules ([W..] tags), without the
interpreter's card tables.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import (
    ALL52,
    EXAMPLES,
    check_conserved_play,
    check_winner,
    deal_events,
    deals_of,
    letter,
    load_example,
    play_out,
    players,
    round_robin,
    scores_of,
    tricks_by_seat,
)

import interpreter
import tricklang
from interpreter import State

WHIST = load_example("whist.trick")


# Seats 0 and 2 hold most of the high cards; seats 1 and 3 hold A K Q J of hearts.
# The dealer, seat 1, is dealt JH last, so hearts are trumps.
WHIST_HANDS = {
    0: "10H 9H 8H 7H 6H AS KS QS JS AD KD QD JD".split(),
    2: "5H 4H 3H 2H AC KC QC JC 10S 9S 8S 7S 6S".split(),
    1: "AH KH QH 10C 9C 8C 7C 6C 5C 4C 3C 2C JH".split(),
    3: "10D 9D 8D 7D 6D 5D 4D 3D 2D 5S 4S 3S 2S".split(),
}


def whist_game(hands: dict[int, list[str]] = WHIST_HANDS, dealer: int = 1, seed: int = 5,
               **options: Any) -> State:
    return interpreter.new_game(WHIST, deck=round_robin(hands, dealer), dealer=dealer, seed=seed,
                                options=options)


def test_whist_deals_thirteen_one_at_a_time_and_the_dealers_last_card_is_trump() -> None:
    deck = list(ALL52)
    state = interpreter.new_game(WHIST, deck=deck, dealer=2)
    for seat in range(4):
        # one card at a time from the dealer's left [W2]
        assert sorted(state.hand(seat)) == sorted(deck[(seat - 3) % 4::4])
    assert deck[51] in state.hand(2)  # the last card falls to the dealer
    assert state.trump == "clubs" and deck[51] == "2C"  # ... and names trumps [W3]
    # It was shown to everybody, and is back in the dealer's hand.
    for seat in range(4):
        shown = [e for e in state.events(seat) if e["type"] == "move" and e["to"] == "turnup"]
        assert shown and shown[0]["cards"] == ["2C"]
    assert state.zone("turnup") == []
    assert state.current_player == 3 and state.phase == "play"  # the dealer's left leads [W4]


def test_trump_is_suit_of_hand_of_dealer_reads_the_last_card_dealt_to_him() -> None:
    """The simpler wording `trump is suit of hand of dealer` gives the same trump:
    the top of a hand is the card dealt last to it."""
    text = (EXAMPLES / "whist.trick").read_text(encoding="utf-8")
    old = ("  move 1 from hand of dealer to turnup                             [W3]\n"
           "  trump is suit of turnup                                          [W3]\n"
           "  move all from turnup to hand of dealer                           [W3]\n")
    assert old in text
    variant = tricklang.loads(text.replace(old, "  trump is suit of hand of dealer\n"), path="whist-variant.trick")
    for seed in range(12):
        rng = random.Random(seed)
        deck = list(ALL52)
        rng.shuffle(deck)
        dealer = seed % 4
        state = interpreter.new_game(variant, deck=deck, dealer=dealer)
        assert letter(state) == deck[51][-1]
        assert state.zone("hand", dealer)[-1] == deck[51]
        assert letter(interpreter.new_game(WHIST, deck=deck, dealer=dealer)) == deck[51][-1]


def test_whist_odd_tricks_then_four_honours_to_the_other_side() -> None:
    state = whist_game()
    assert state.trump == "hearts"
    play_out(state, strong={0, 2})
    won = tricks_by_seat(deal_events(state, 1))
    assert won[0] + won[2] == 9 and won[1] + won[3] == 4
    # Three odd tricks to seats 0 & 2 [W6]; the four honours were dealt to seats 1 & 3 [W7].
    assert scores_of(state, 1) == [(0, 3, "odd tricks"), (1, 4, "four honours")]
    assert state.scores == [3, 4] and not state.is_terminal()


def test_whist_tricks_score_before_honours() -> None:
    """Playing to 3, seats 0 & 2 go out on their odd tricks; the other side's four
    honours (which would have taken it to 4) are never counted [W8]."""
    state = whist_game(target=3)
    play_out(state, strong={0, 2})
    assert scores_of(state, 1) == [(0, 3, "odd tricks")]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 2) and outcome.scores == (3, 0)


# The second deal of the next test (seat 2 deals, his last card JS makes spades trumps):
# seats 1 & 3 hold A K Q of spades, three honours; seats 0 & 2 hold the rest of the power.
SECOND_HANDS = {
    0: "AH KH QH JH 10H AD KD QD JD 10D AC KC QC".split(),
    1: "AS KS QS 9H 8H 7H 6H 5H 9D 8D 7D 6D 5D".split(),
    2: "10S 9S 8S 7S 6S 5S 4S JC 10C 9C 8C 7C JS".split(),
    3: "3S 2S 4H 3H 2H 4D 3D 2D 6C 5C 4C 3C 2C".split(),
}


def test_whist_a_side_at_the_score_cannot_count_honours() -> None:
    """After the first deal seats 1 & 3 stand at 4, one short of game: in the second
    deal they hold three honours but score nothing for them [W8]."""
    state = whist_game()
    state.prearrange(2, round_robin(SECOND_HANDS, 2))
    play_out(state, strong={0, 2})
    assert state.scores == [3, 4] and state.deal_number == 2 and letter(state) == "S"
    dealt = {e["player"]: e["cards"] for e in deal_events(state, 2) if e["type"] == "dealt"}
    t = letter(state)
    honours_b = [r + t for r in "AKQJ" if r + t in dealt[1] + dealt[3]]
    assert len(honours_b) == 3  # the deck deals them three honours
    play_out(state, strong={0, 2})
    won = tricks_by_seat(deal_events(state, 2))
    assert won[1] + won[3] <= 6
    assert all(side == 0 for side, _, _ in scores_of(state, 2))


def test_whist_three_honours_score_two() -> None:
    hands = {s: list(h) for s, h in WHIST_HANDS.items()}
    hands[1][hands[1].index("QH")] = "10H"  # seats 1 & 3 keep A K J: three honours
    hands[0][hands[0].index("10H")] = "QH"
    state = whist_game(hands)
    play_out(state, strong={0, 2})
    won = tricks_by_seat(deal_events(state, 1))
    odd = won[0] + won[2] - 6
    assert 0 < odd < 5
    assert scores_of(state, 1) == [(0, odd, "odd tricks"), (1, 2, "three honours")]


def test_whist_without_honours_only_tricks_count() -> None:
    state = whist_game(honours=False)
    play_out(state, strong={0, 2})
    assert scores_of(state, 1) == [(0, 3, "odd tricks")]


def test_whist_one_side_holding_every_trump_takes_all_thirteen_and_the_game() -> None:
    # The dealer, seat 0, holds the thirteen hearts; his last card makes them trumps.
    hands = {s: [c for c in ALL52 if c[-1] == suit] for s, suit in enumerate("HSDC")}
    state = whist_game(hands, dealer=0)
    assert state.trump == "hearts"
    play_out(state, strong={1, 2, 3})
    assert tricks_by_seat(deal_events(state, 1))[0] == 13
    assert scores_of(state, 1) == [(0, 7, "odd tricks")]  # the match is over before honours [W8]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 2) and outcome.scores == (7, 0)


def whist_expected(events: list[dict[str, Any]], start: list[int], target: int, honours: bool) -> list[tuple[int, int, str]]:
    dealt = {e["player"]: e["cards"] for e in events if e["type"] == "dealt"}
    trump = next(e["suit"] for e in events if e["type"] == "trump")[0].upper()
    won = tricks_by_seat(events)
    scores = list(start)
    out: list[tuple[int, int, str]] = []

    def add(side: int, points: int, label: str) -> bool:
        out.append((side, points, label))
        scores[side] += points
        return scores[side] >= target

    for side in (0, 1):
        taken = won[side] + won[side + 2]
        if taken > 6 and add(side, taken - 6, "odd tricks"):  # [W6, W8]
            return out
    if honours:
        for side in (0, 1):
            held = sum(1 for r in "AKQJ" if r + trump in dealt[side] + dealt[side + 2])
            if start[side] < target - 1:  # [W8]
                if held == 4 and add(side, 4, "four honours"):
                    return out
                if held == 3 and add(side, 2, "three honours"):
                    return out
    return out


@pytest.mark.parametrize("kind", ["random", "heuristic", "mixed"])
@pytest.mark.parametrize("options", [{}, {"target": 7, "honours": False}])
def test_whist_matches_follow_the_oracle(kind: str, options: dict[str, Any]) -> None:
    for seed in range(6):
        state = interpreter.new_game(WHIST, seed=seed, options=options)
        check_conserved_play(state, players(kind, seed))
        target, honours = int(options.get("target", 5)), bool(options.get("honours", True))
        for number, events, start in deals_of(state):
            assert [(e["side"], e["points"], e["label"]) for e in events if e["type"] == "score"] == \
                whist_expected(events, start, target, honours), number
            # The trump is the suit of the card dealt last to the dealer [W3].
            dealer = (next(e for e in state.events(None) if e["type"] == "deal" and e["deal"] == number))["dealer"]
            last = next(e for e in events if e["type"] == "dealt" and e["player"] == dealer)["cards"][-1]
            assert next(e for e in events if e["type"] == "trump")["suit"][0].upper() == last[-1]
        check_winner(state, target, 40)
