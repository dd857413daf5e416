"""Euchre (examples/euchre.trick): scripted deals for making, going alone and the
bowers, and whole matches checked against an oracle written from the rules ([U..] tags).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import (
    SIDE_OF,
    check_conserved_play,
    check_winner,
    deal_events,
    deals_of,
    euchre_deck,
    legal,
    legal_cards,
    load_example,
    play_out,
    players,
    scores_of,
    tricks_by_seat,
)

import interpreter
from interpreter import State
from interpreter.embedding.infostate import information_state_string

EUCHRE = load_example("euchre.trick")


def euchre_game(hands: dict[int, list[str]], upcard: str, dealer: int = 3, seed: int = 1,
                **options: Any) -> State:
    return interpreter.new_game(EUCHRE, deck=euchre_deck(hands, dealer, upcard), dealer=dealer,
                                seed=seed, options=options)


# Seat 0 holds the five best hearts: right and left bowers, A K Q.
LONE_HANDS = {
    0: "JH JD AH KH QH".split(),
    1: "AS KS QS JS 10S".split(),
    2: "AC KC QC JC 10C".split(),
    3: "AD KD QD 10D 9D".split(),
}


def test_euchre_deal_and_upcard() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    for seat in range(4):
        assert sorted(state.hand(seat)) == sorted(LONE_HANDS[seat])
    assert state.zone("upcard") == ["9H"] and len(state.zone("kitty")) == 3
    assert state.current_player == 0 and legal(state) == ["order_up", "decline"]  # [U4]


def test_euchre_lone_march_scores_four() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    state.apply("order_up")
    assert state.trump == "hearts" and state.current_player == 0
    assert legal(state) == ["alone", "with_partner"]
    state.apply("alone")  # [U8]
    # The dealer takes up the nine and throws a card face down [U5].
    assert state.current_player == 3 and state.phase == "discard"
    assert "9H" in state.hand(3) and len(state.hand(3)) == 6 and state.zone("upcard") == []
    state.apply("discard 10D")
    assert state.hand(2) == [] and sorted(state.zone("out", 2)) == sorted(LONE_HANDS[2])
    play_out(state, strong={0}, bowers=True)
    events = deal_events(state, 1)
    assert all(len(e["cards"]) == 3 and 2 not in e["players"] for e in events if e["type"] == "trick")
    assert tricks_by_seat(events)[0] == 5
    assert scores_of(state, 1) == [(0, 4, "lone march")]  # [U11]


def test_euchre_the_dealer_cannot_refuse_the_card_he_is_ordered_to_take_up() -> None:
    """[U5]: ordered up, the dealer takes the up-card (`takes all ... and keeps 5`): there
    is no `take none`, his one decision is the card he discards, the up-card among them;
    and in whole matches the up-card never goes from the table to the kitty."""
    state = euchre_game(LONE_HANDS, "9H")
    state.apply("order_up")
    state.apply("with_partner")
    assert state.current_player == 3 and state.zone("upcard") == [] and "9H" in state.hand(3)
    assert legal(state) == ["discard " + c for c in state.hand(3)] and len(legal(state)) == 6
    for seed in range(6):
        rng = random.Random(seed)
        state = interpreter.new_game(EUCHRE, seed=seed)
        for _ in range(400):
            if state.is_terminal():
                break
            texts = legal(state)
            assert not any(t.startswith("take ") for t in texts)
            state.apply(rng.choice(texts))
        moves = [e for e in state.events(None) if e["type"] == "move" and e["from"] == "upcard"]
        assert moves and all(e["to"].startswith("hand of ") for e in moves)


def _views(state: State, seat: int) -> tuple[object, ...]:
    return (state.observation(seat), information_state_string(state, seat),
            state.information_state_tensor(seat), state.observation_tensor(seat))


def test_euchre_no_seat_can_tell_which_card_the_dealer_buried() -> None:
    """[U5] the dealer discards face down, unseen: whichever of his six cards (the up-card
    included) ends in the kitty, by any legal sequence of his decisions, every other
    seat's observation, information-state string and tensors are the same."""
    start = euchre_game(LONE_HANDS, "9H")
    start.apply("order_up")
    start.apply("with_partner")
    kitty = set(start.zone("kitty"))
    buried: list[tuple[str, list[tuple[object, ...]]]] = []
    frontier = [start]
    while frontier:
        state = frontier.pop()
        if state.current_player != 3:
            (card,) = set(state.zone("kitty")) - kitty
            buried.append((card, [_views(state, seat) for seat in range(3)]))
            continue
        for text in legal(state):
            after = state.clone()
            after.apply(text)
            frontier.append(after)
    first_card, first = buried[0]
    for card, views in buried[1:]:
        for seat in range(3):
            assert views[seat] == first[seat], f"seat {seat} can tell {first_card} buried from {card} buried"
    assert sorted(card for card, _ in buried) == sorted([*LONE_HANDS[3], "9H"])  # one way to bury each


def test_euchre_march_with_partner_scores_two() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    state.apply("order_up")
    state.apply("with_partner")
    state.apply("discard 10D")
    play_out(state, strong={0}, bowers=True)
    assert scores_of(state, 1) == [(0, 2, "march")]


def test_euchre_three_or_four_tricks_score_one() -> None:
    hands = {
        0: "JH JD AH 9S 9C".split(),   # three sure trumps and two nines
        1: "AS KS QS AC KC".split(),
        2: "10S 10C 10D 9D QD".split(),
        3: "AD KD QC JC JS".split(),
    }
    state = euchre_game(hands, "9H")
    state.apply("order_up")
    state.apply("with_partner")
    state.apply("discard JS")
    play_out(state, strong={0, 1, 3}, bowers=True)
    won = tricks_by_seat(deal_events(state, 1))
    assert won[0] + won[2] == 4  # the 9S wins too, once seat 1 is out of spades
    assert scores_of(state, 1) == [(0, 1, "made")]


def test_euchre_the_makers_euchred() -> None:
    """Seat 1 orders the dealer's card up; seat 0 holds the five best spades."""
    hands = {
        0: "JS JC AS KS QS".split(),
        1: "AH KH QH AD KD".split(),
        2: "AC KC QC 10C 9C".split(),
        3: "JH JD 10H 9H QD".split(),
    }
    state = euchre_game(hands, "9S")
    state.apply("decline")
    state.apply("order_up")  # seat 1 makes spades
    state.apply("with_partner")
    assert state.current_player == 3 and "9S" in state.hand(3)  # his partner, the dealer, took the nine
    state.apply("discard QD")
    play_out(state, strong={0}, bowers=True)
    won = tricks_by_seat(deal_events(state, 1))
    assert won[0] == 5
    assert scores_of(state, 1) == [(0, 2, "euchred")]  # the defenders score two [U11]


def test_euchre_bowers_belong_to_trumps() -> None:
    """Hearts trumps: the jack of diamonds is a heart, not a diamond [U2, U10]."""
    hands = {
        0: "AD AS KS QS JS".split(),
        1: "JD 10S 9S AC KC".split(),    # the left bower, no other heart or diamond
        2: "JH AH KH QH 10H".split(),
        3: "KD QD 10D 9D QC".split(),
    }
    state = euchre_game(hands, "9H")
    state.apply("decline")
    state.apply("decline")
    state.apply("order_up")  # seat 2
    state.apply("with_partner")
    state.apply("discard QC")
    assert state.current_player == 0
    state.apply("play AD")
    # Seat 1 is void in diamonds (his JD is a trump): he may play anything.
    assert sorted(legal_cards(state)) == sorted(hands[1])
    state.apply("play 10S")
    state.apply("play JH")   # seat 2 trumps with the right bower
    assert legal_cards(state) == ["KD", "QD", "10D", "9D"]  # the dealer follows suit
    state.apply("play KD")
    assert tricks_by_seat(deal_events(state, 1))[2] == 1
    state.apply("play AH")   # seat 2 leads a trump
    assert legal_cards(state) == ["9H"]
    state.apply("play 9H")
    assert legal_cards(state) == ["AS", "KS", "QS", "JS"]  # seat 0 has no trump
    state.apply("play JS")
    assert legal_cards(state) == ["JD"]  # seat 1 must follow with the left bower
    state.apply("play JD")
    last = [e for e in deal_events(state, 1) if e["type"] == "trick"][-1]
    assert last["winner"] == 1  # the left bower beats the ace of trumps


def test_euchre_second_round_names_another_suit() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    for _ in range(4):
        state.apply("decline")
    assert state.current_player == 0 and legal(state) == ["name_suit", "decline"]  # [U6]
    state.apply("name_suit")
    assert legal(state) == ["name spades", "name diamonds", "name clubs"]  # not hearts
    assert not state.is_legal("name hearts")
    state.apply("name diamonds")
    assert state.trump == "diamonds" and state.maker == 0
    state.apply("with_partner")
    # Nobody takes up the turned card in the second round.
    assert state.phase == "play" and len(state.hand(3)) == 5 and state.zone("upcard") == ["9H"]


def test_euchre_all_pass_twice_the_deal_passes() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    for _ in range(8):
        state.apply("decline")
    assert any(e["type"] == "redeal" for e in state.events(None))  # [U7]
    assert state.dealer == 0 and state.deal_number == 2
    assert state.scores == [0, 0] and state.current_player == 1


def test_euchre_stick_the_dealer() -> None:
    state = euchre_game(LONE_HANDS, "9H", stick_the_dealer=True)
    for _ in range(7):
        state.apply("decline")
    assert state.current_player == 3  # the dealer may not pass [U7]
    assert legal(state) == ["name spades", "name diamonds", "name clubs"]
    state.apply("name clubs")
    assert state.trump == "clubs" and state.maker == 3


def test_euchre_sitting_out_dealer_does_not_take_the_card_and_the_next_player_leads() -> None:
    # Seat 1 (the dealer's partner) orders up alone: the dealer sits out.
    hands = {0: "AS KS QS JS 10S".split(), 1: "JH JD AH KH QH".split(),
             2: "AC KC QC JC 10C".split(), 3: "AD KD QD 10D 9D".split()}
    state = euchre_game(hands, "9H")
    state.apply("decline")
    state.apply("order_up")
    state.apply("alone")
    assert state.phase == "play"
    assert state.zone("upcard") == ["9H"] and state.hand(3) == [] and len(state.zone("out", 3)) == 5  # [U8]
    assert state.current_player == 0
    # The dealer's left sitting out: the player after him leads [U9].
    state2 = euchre_game(LONE_HANDS, "9S", dealer=2)  # eldest is seat 3
    state2.apply("decline")  # seat 3
    state2.apply("decline")  # seat 0
    state2.apply("order_up")  # seat 1, partner of seat 3
    state2.apply("alone")
    state2.apply("discard " + state2.hand(2)[-1])
    assert state2.hand(3) == [] and state2.current_player == 0


def test_euchre_lone_defender_euchres_for_four() -> None:
    hands = {0: "AS KS QS 10S 9S".split(), 1: "JH JD AH KH QH".split(),
             2: "AC KC QC JC 10C".split(), 3: "AD KD QD 10D JS".split()}
    state = euchre_game(hands, "9H", defend_alone=True)
    state.apply("order_up")   # seat 0, with no trump at all
    state.apply("alone")
    assert state.current_player == 1 and legal(state) == ["defend_alone", "with_partner"]  # [U13]
    state.apply("defend_alone")
    # The dealer, seat 3, sits out: he does not take up the nine.
    assert state.phase == "play" and state.zone("upcard") == ["9H"]
    assert state.hand(2) == [] and state.hand(3) == [] and len(state.zone("out", 3)) == 5
    play_out(state, strong={1}, bowers=True)
    assert tricks_by_seat(deal_events(state, 1))[1] == 5
    assert scores_of(state, 1) == [(1, 4, "euchred by a lone defender")]


def euchre_expected(events: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    if any(e["type"] == "redeal" for e in events):
        return []
    maker = [e for e in events if e["type"] in ("contract", "maker")][-1]["maker"]
    choices = {(e["player"], e["choice"]) for e in events if e["type"] == "choice"}
    lone = (maker, "alone") in choices
    lone_defender = any(c == "defend_alone" for _, c in choices)
    won = tricks_by_seat(events)
    makers = SIDE_OF[maker]
    taken = won[makers] + won[makers + 2]
    if taken == 5:
        return [(makers, 4, "lone march")] if lone else [(makers, 2, "march")]
    if taken >= 3:
        return [(makers, 1, "made")]
    if lone_defender:
        return [(1 - makers, 4, "euchred by a lone defender")]
    return [(1 - makers, 2, "euchred")]


@pytest.mark.parametrize("kind", ["random", "heuristic", "mixed"])
@pytest.mark.parametrize("options", [{}, {"stick_the_dealer": True, "defend_alone": True}])
def test_euchre_matches_follow_the_oracle(kind: str, options: dict[str, Any]) -> None:
    for seed in range(6):
        state = interpreter.new_game(EUCHRE, seed=seed, options=options)
        check_conserved_play(state, players(kind, seed))
        for number, events, _ in deals_of(state):
            assert [(e["side"], e["points"], e["label"]) for e in events if e["type"] == "score"] == \
                euchre_expected(events), number
            sitting = {e["from"].split()[-1] for e in events if e["type"] == "move" and e["to"].startswith("out")}
            for e in events:
                if e["type"] == "trick":
                    assert len(e["cards"]) == 4 - len(sitting)
                    assert not sitting & {str(p) for p in e["players"]}
            if options.get("stick_the_dealer"):
                assert not any(e["type"] == "redeal" for e in events)
        check_winner(state, 10, 60)


def test_explain_describes_the_statements_inside_phases() -> None:
    from tricklang.explain import explain

    text = explain(EUCHRE)
    assert "order_up" in text  # the first round of making, inside `phase making:`
