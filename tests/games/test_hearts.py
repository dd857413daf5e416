"""Hearts and its variants Black Maria and Omnibus Hearts (examples/hearts.trick,
black-maria.trick, omnibus-hearts.trick): scripted first deals for shooting the moon,
the first trick, breaking hearts, passing, Black Maria's spades and Omnibus's plus card.
"""

from __future__ import annotations

import random

import pytest
from helpers import (
    ALL52,
    deal_events,
    legal_cards,
    load_example,
    one_at_a_time,
    penalty_by_tricks,
    play_deal_out,
    plays,
    scores_in_deal,
    suit,
)

import interpreter
import tricklang
from interpreter.players import HeuristicAgent

HEARTS = load_example("hearts.trick")
BLACK_MARIA = load_example("black-maria.trick")
OMNIBUS = load_example("omnibus-hearts.trick")


# ---------------------------------------------------------------- Hearts

# Seat 0 holds every club, seat 1 every heart, seat 2 every spade, seat 3 every diamond.
BY_SUIT = {0: suit("C"), 1: suit("H"), 2: suit("S"), 3: suit("D")}


def hearts(hands: dict[int, list[str]], rules: tricklang.Ruleset = HEARTS, **options: object) -> interpreter.State:
    options.setdefault("passing", "none")
    return interpreter.new_game(rules, deck=one_at_a_time(hands, dealer=3), dealer=3, options=options)


@pytest.mark.parametrize(("moon", "expected"), [
    ("add_to_others", [0, 26, 26, 26]),
    ("subtract", [-26, 0, 0, 0]),
    ("off", [26, 0, 0, 0]),
])
def test_hearts_shooting_the_moon(moon: str, expected: list[int]) -> None:
    # Seat 0 leads clubs thirteen times and wins every trick: all 26 points [H10].
    state = hearts(BY_SUIT, moon=moon)
    play_deal_out(state)
    assert state.scores == expected
    labels = {label for _, _, label in scores_in_deal(state, 1)}
    assert labels == ({"penalty cards"} if moon == "off" else {"shot the moon"})


@pytest.mark.parametrize(("choice", "expected"), [("add_to_others", [0, 26, 26, 26]), ("subtract", [-26, 0, 0, 0])])
def test_hearts_the_shooter_may_choose(choice: str, expected: list[int]) -> None:
    state = hearts(BY_SUIT, moon="shooter_chooses")
    while state.phase == "play":
        state.apply(state.legal_actions()[0])
    assert state.current_player == 0 and state.legal_actions().texts() == ["add_to_others", "subtract"]
    state.apply(choice)
    assert state.scores == expected


def test_hearts_two_of_clubs_leads_and_no_points_on_the_first_trick() -> None:
    state = hearts(BY_SUIT)
    assert state.current_player == 0 and set(legal_cards(state)) == {"2C"}  # [H5]
    state.apply("play 2C")
    # Seat 1 holds nothing but hearts: he may play one [H7].
    assert set(legal_cards(state)) == set(suit("H"))
    state.apply("play AH")
    # Seat 2 is void in clubs: any spade but the queen [H7].
    assert set(legal_cards(state)) == set(suit("S")) - {"QS"}
    assert "first trick" in state.why_illegal("play QS")
    state.apply("play AS")
    state.apply("play AD")
    # The rule is for the first trick only; the queen may go on the second.
    assert state.current_player == 0
    state.apply("play 3C")
    state.apply("play KH")
    assert "QS" in legal_cards(state)


def test_hearts_points_on_the_first_trick_as_an_option() -> None:
    state = hearts(BY_SUIT, first_trick_points=True)
    plays(state, "2C", "AH")
    assert set(legal_cards(state)) == set(suit("S"))


def test_hearts_the_first_lead_without_the_two_of_clubs_rule() -> None:
    state = hearts(BY_SUIT, lead_two_of_clubs=False)
    assert state.current_player == 0 and set(legal_cards(state)) == set(suit("C"))  # eldest leads any card


# Seat 1 wins the first trick with AC and holds AH and eleven diamonds; seat 0 holds
# 2C and twelve hearts.
BROKEN = {
    0: ["2C"] + suit("H")[1:],
    1: ["AC", "AH"] + suit("D")[:11],
    2: suit("C")[1:12] + ["3D", "2D"],
    3: suit("S"),
}


def test_hearts_not_led_until_broken() -> None:
    state = hearts(BROKEN)
    plays(state, "2C", "AC", "3C", "2S")
    assert state.current_player == 1
    assert set(legal_cards(state)) == set(suit("D")[:11])  # [H8]
    assert "broken" in state.why_illegal("play AH")
    plays(state, "4D", "3D", "3S")
    assert set(legal_cards(state)) == set(suit("H")[1:])  # seat 0 holds only hearts: he discards one
    state.apply("play 2H")
    assert state.current_player == 1
    assert "AH" in legal_cards(state)  # broken


def test_hearts_may_be_led_at_any_time_as_an_option() -> None:
    state = hearts(BROKEN, hearts_broken=False)
    plays(state, "2C", "AC", "3C", "2S")
    assert "AH" in legal_cards(state)


def test_hearts_the_pass_to_the_left_is_chosen_before_it_is_received() -> None:
    state = hearts(BY_SUIT, passing="cycle")
    assert state.phase == "discard"
    for seat, cards in [(0, "2C 3C 4C"), (1, "2H 3H 4H"), (2, "2S 3S 4S")]:
        assert state.current_player == seat
        state.apply("discard " + cards)
    # Seat 3 has not yet received seat 2's spades when he chooses [H4].
    assert state.current_player == 3 and "2S" not in state.hand(3)
    assert state.observation(3)["zones"]["passed"]["2"] == {"count": 3}
    state.apply("discard 2D 3D 4D")
    assert sorted(state.hand(1)) == sorted(suit("H")[:10] + ["2C", "3C", "4C"])
    assert sorted(state.hand(0)) == sorted(suit("C")[:10] + ["2D", "3D", "4D"])
    # The two of clubs went to seat 1, who now leads it [H5].
    assert state.current_player == 1 and set(legal_cards(state)) == {"2C"}


def test_hearts_pass_cycle_left_right_across_hold() -> None:
    state = interpreter.new_game(HEARTS, seed=11, options={"target": 1000})
    agents = [HeuristicAgent(i) for i in range(4)]
    while state.deal_number <= 5:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    offsets = {1: 1, 2: -1, 3: 2, 5: 1}
    for deal in range(1, 6):
        moves = [e for e in deal_events(state, deal) if e["type"] == "move"]
        if deal == 4:
            assert moves == []
            continue
        assert len(moves) == 4
        for e in moves:
            giver = int(str(e["from"]).rsplit(" ", 1)[1])
            taker = int(str(e["to"]).rsplit(" ", 1)[1])
            assert taker == (giver + offsets[deal]) % 4


def test_hearts_match_ends_at_the_target_and_the_lowest_score_wins() -> None:
    state = interpreter.new_game(HEARTS, seed=5, options={"target": 30})
    agents = [HeuristicAgent(i) for i in range(4)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None
    assert max(outcome.scores) >= 30
    assert outcome.scores[outcome.winner] == min(outcome.scores)
    assert list(outcome.scores).count(min(outcome.scores)) == 1


# ---------------------------------------------------------------- Black Maria


def black_maria_pack(hands: dict[int, list[str]], dealer: int) -> list[str]:
    """Seventeen cards each, dealt singly; the two of clubs anywhere (it is taken out)."""
    order = [hands[(dealer + 1 + i) % 3][r] for r in range(17) for i in range(3)]
    return ["2C"] + order


def black_maria_value(card: str) -> int:
    return {"QS": 13, "KS": 10, "AS": 7}.get(card, 1 if card.endswith("H") else 0)


def test_black_maria_deal_pass_and_free_lead() -> None:
    rest = [c for c in ALL52 if c[-1] != "S" and c != "2C"]
    hands = {0: suit("S")[:6] + rest[:11], 1: suit("S")[6:12] + rest[11:22], 2: ["2S"] + rest[22:38]}
    state = interpreter.new_game(BLACK_MARIA, deck=black_maria_pack(hands, dealer=2), dealer=2)
    assert state.zone("removed") == ["2C"]  # [BM1]
    assert all(len(state.hand(p)) == 17 for p in range(3))
    # Every player passes three cards to his right [BM2].
    for seat, cards in [(0, "AS KS QS"), (1, "8S 7S 6S"), (2, "2S 5D 4D")]:
        assert state.current_player == seat
        state.apply("discard " + cards)
    assert {"AS", "KS", "QS"} <= set(state.hand(2))
    assert {"8S", "7S", "6S"} <= set(state.hand(0))
    assert {"2S", "5D", "4D"} <= set(state.hand(1))
    # The player at the dealer's left leads, anything, hearts included [BM3, BM4].
    assert state.current_player == 0
    assert set(legal_cards(state)) == set(state.hand(0))
    assert any(c.endswith("H") for c in legal_cards(state))


def test_black_maria_spade_values() -> None:
    # Seat 0 leads the ace of spades; the king and queen are the others' only spades.
    rest = [c for c in ALL52 if c[-1] != "S" and c != "2C"]
    hands = {0: ["AS"] + suit("S")[3:] + rest[:6], 1: ["KS"] + rest[6:22], 2: ["QS"] + rest[22:38]}
    state = interpreter.new_game(BLACK_MARIA, deck=black_maria_pack(hands, dealer=2), dealer=2,
                                 options={"passing": "none"})
    plays(state, "AS", "KS", "QS")
    first = next(e for e in deal_events(state, 1) if e["type"] == "trick")
    assert first["winner"] == 0 and first["cards"] == ["AS", "KS", "QS"]
    play_deal_out(state)
    expected = penalty_by_tricks(state, 1, black_maria_value)
    assert state.scores == [expected.get(p, 0) for p in range(3)]
    assert sum(state.scores) == 43  # [BM5]: 13 hearts, 13 + 10 + 7 in spades
    assert state.scores[0] >= 30


def test_black_maria_taking_everything_is_no_moon_by_default() -> None:
    # Seat 0 takes every trick (all the clubs but the removed two, led from the top).
    hands = {0: suit("C")[:12] + suit("D")[:5], 1: suit("H") + suit("D")[5:9], 2: suit("S") + suit("D")[9:]}
    state = interpreter.new_game(BLACK_MARIA, deck=black_maria_pack(hands, dealer=2), dealer=2,
                                 options={"passing": "none"})
    play_deal_out(state)
    assert state.scores == [43, 0, 0]  # [BM6]
    state = interpreter.new_game(BLACK_MARIA, deck=black_maria_pack(hands, dealer=2), dealer=2,
                                 options={"passing": "none", "moon": "add_to_others"})
    play_deal_out(state)
    assert state.scores == [0, 43, 43]


# ---------------------------------------------------------------- Omnibus Hearts


def omnibus_value(card: str) -> int:
    return -10 if card == "10D" else 13 if card == "QS" else 1 if card.endswith("H") else 0


def test_omnibus_plus_card_takes_ten_off() -> None:
    rng = random.Random(7)
    deck = list(ALL52)
    rng.shuffle(deck)
    state = interpreter.new_game(OMNIBUS, deck=deck, dealer=0, options={"passing": "none"})
    play_deal_out(state)
    expected = penalty_by_tricks(state, 1, omnibus_value)
    assert state.scores == [expected.get(p, 0) for p in range(4)]
    assert sum(state.scores) == 16  # 26 penalty points less the plus card's 10 [OM1]
    assert ("plus card" in {label for _, _, label in scores_in_deal(state, 1)})


@pytest.mark.parametrize(("moon", "expected"), [("subtract", [-26, 0, 0, 0]), ("add_to_others", [0, 26, 26, 26])])
def test_omnibus_slam(moon: str, expected: list[int]) -> None:
    # Seat 0 takes every trick: the hearts, the queen and the ten of diamonds [OM2].
    state = hearts(BY_SUIT, OMNIBUS, moon=moon)
    play_deal_out(state)
    assert state.scores == expected
    assert {label for _, _, label in scores_in_deal(state, 1)} == {"slam"}


def test_omnibus_jack_of_diamonds_variant() -> None:
    state = hearts(BY_SUIT, OMNIBUS, plus_card="jack_of_diamonds", moon="off")
    play_deal_out(state)
    assert state.scores == [16, 0, 0, 0]  # 26, less 10 for the jack of diamonds
