"""Klaverjas (examples/klaverjas.trick) on scripted deals: the Rotterdam and Amsterdam rules of
trumping [KJ6-KJ8], the card points and the last trick [KJ9], roem in the trick (a meld table) [KJ10], pit
[KJ11], nat [KJ12] and the length of the match [KJ13]."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import load_example

import interpreter
import tricklang

RULES = load_example("klaverjas.trick")
AMSTERDAM = tricklang.load(RULES.path, options={"city": "amsterdam"})
RANKS = "A 10 K Q J 9 8 7".split()


def deck(hands: dict[int, str]) -> list[str]:
    """The pack for dealer 0: three, two, then three cards to each from his left [KJ3]."""
    cards = {seat: hand.split() for seat, hand in hands.items()}
    order = [card for lo, hi in ((0, 3), (3, 5), (5, 8)) for seat in (1, 2, 3, 0) for card in cards[seat][lo:hi]]
    assert sorted(order) == sorted(r + s for s in "SHDC" for r in RANKS), "each card exactly once"
    return order


def new(pack: list[str], trump: str, rules: tricklang.Ruleset = RULES) -> interpreter.State:
    state = interpreter.new_game(rules, deck=pack, dealer=0)
    state.apply(f"name {trump}")  # eldest, seat 1 [KJ4]
    return state


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def play(state: interpreter.State, *cards: str) -> interpreter.State:
    for card in cards:
        state.apply(f"play {card}")
    return state


def play_deal(state: interpreter.State) -> interpreter.State:
    """Each player plays the first card he may, to the end of the deal."""
    while state.deal_number == 1 and not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state


def deal_scores(state: interpreter.State) -> list[tuple[str, int, int]]:
    """(label, side, points) of the first deal's scores (a side scoring 0 logs nothing)."""
    out: list[tuple[str, int, int]] = []
    for e in state.events(None):
        if e["type"] == "deal" and e["deal"] > 1:
            break
        if e["type"] == "score":
            out.append((e["label"], e["side"], e["points"]))
    return out


# Seat 1 leads the ace of spades; seat 3 (his partner) is void in spades and holds hearts,
# seat 2 holds no trump and no spade. Hearts are trumps.
PARTNER_WINS = deck({1: "AS 10S KS QS JS 9S 8S 7S",
                     2: "AD 10D KD QD JD 9D 8D 7D",
                     3: "KH 10H 7H AC 10C KC QC JC",
                     0: "AH JH QH 9H 8H 9C 8C 7C"})


def test_rotterdam_a_void_player_trumps_his_partners_winning_card() -> None:
    state = play(new(PARTNER_WINS, "hearts"), "AS", "7D")
    assert plays(state) == ["10H", "7H", "KH"]  # [KJ6]


def test_amsterdam_a_void_player_whose_partner_wins_may_play_anything() -> None:
    state = play(new(PARTNER_WINS, "hearts", AMSTERDAM), "AS", "7D")
    assert plays(state) == ["10C", "10H", "7H", "AC", "JC", "KC", "KH", "QC"]  # [KJ7]


@pytest.mark.parametrize("rules", [RULES, AMSTERDAM], ids=["rotterdam", "amsterdam"])
def test_against_an_opponents_trump_a_player_overtrumps_or_may_not_undertrump(rules: tricklang.Ruleset) -> None:
    state = play(new(PARTNER_WINS, "hearts", rules), "AS", "7D", "KH")
    assert plays(state) == ["9H", "AH", "JH"]  # the jack, nine and ace of trumps beat the king [KJ2, KJ6, KJ7]
    pack = deck({1: "AS 10S KS QS JS 9S 8S 7S",
                 2: "AD 10D KD QD JD 9D 8D 7D",
                 3: "JH 10H 7H AC 10C KC QC JC",
                 0: "AH KH QH 9H 8H 9C 8C 7C"})
    state = play(new(pack, "hearts", rules), "AS", "7D", "JH")
    assert plays(state) == ["7C", "8C", "9C"]  # nothing beats the jack: no undertrumping while he has clubs [KJ8]


def test_after_a_trump_lead_each_player_must_beat_the_highest_trump() -> None:
    pack = deck({1: "9H AS 10S KS QS JS 9S 8S",
                 2: "AH KH AD KD QD JD 9D 8D",
                 3: "JH 10H 7H AC 10C KC QC 7S",
                 0: "QH 8H 7D 10D JC 9C 8C 7C"})
    for rules in (RULES, AMSTERDAM):
        state = play(new(pack, "hearts", rules), "9H")
        assert plays(state) == ["AH", "KH"]  # follow trumps; nothing beats the nine: any trump [KJ8]
        play(state, "KH")
        assert plays(state) == ["JH"]  # his partner wins, yet after a trump lead he must beat it [KJ8]


def total(state: interpreter.State, trump: str) -> int:
    """What a deal is worth: 162 in the cards and the last trick [KJ9], the roem [KJ10], a pit [KJ11]."""
    tricks = [e for e in state.events(None) if e["type"] == "trick"][:8]
    pit = 100 if len({t["winner"] % 2 for t in tricks}) == 1 else 0
    return 162 + _roem(tricks, trump) + pit


@pytest.mark.parametrize("trump", ["spades", "hearts", "diamonds", "clubs"])
def test_a_deal_counts_162_points_and_the_makers_score_what_they_took(trump: str) -> None:
    state = play_deal(new(PARTNER_WINS, trump))
    scores = deal_scores(state)
    assert sum(points for _, _, points in scores) == total(state, trump[0].upper())
    if scores[0][0] == "makers":
        assert scores[0][1] == 1 and all(points < scores[0][2] for _, _, points in scores[1:])
    else:
        assert [(label, side) for label, side, _ in scores] == [("nat", 0)]


def test_pit_a_side_taking_every_trick_scores_100_more() -> None:
    pack = deck({1: "JH 9H AH 10H KH QH 8H 7H",
                 2: "AS 10S KS QS AD 10D KD QD",
                 3: "JS 9S 8S 7S JD 9D 8D 7D",
                 0: "AC 10C KC QC JC 9C 8C 7C"})
    state = play_deal(new(pack, "hearts"))
    tricks = [e for e in state.events(None) if e["type"] == "trick"]
    assert len(tricks) == 8 and {t["winner"] for t in tricks} == {1}
    roem = _roem(tricks, "H")
    assert deal_scores(state) == [("makers", 1, 162 + 100 + roem)]  # the defenders score nothing [KJ11]


def test_nat_the_defenders_score_everything_when_the_makers_fall_short() -> None:
    pack = deck({1: "7S 8S 9S 7H 8H 9H 7D 8D",
                 2: "AS 10S KS AH 10H KH AD 10D",
                 3: "7C 8C 9C 9D QD QS QH QC",
                 0: "AC 10C KC JC JS JH JD KD"})
    state = play_deal(new(pack, "diamonds"))
    tricks = [e for e in state.events(None) if e["type"] == "trick"]
    [(label, side, points)] = deal_scores(state)
    assert (label, side) == ("nat", 0)  # [KJ12]
    assert points == 162 + _roem(tricks, "D") + (100 if {t["winner"] % 2 for t in tricks} == {0} else 0)


def test_roem_four_jacks_and_stuk_go_to_the_side_taking_the_trick() -> None:
    pack = deck({1: "JS AS 10S KS QS 9S 8S 7S",
                 2: "JH AH 10H KH QH 9H 8H 7H",
                 3: "JD AD 10D KD QD 9D 8D 7D",
                 0: "JC AC 10C KC QC 9C 8C 7C"})
    state = play(new(pack, "spades"), "JS", "JH", "JD", "JC")  # four jacks: 200 to the side of seat 1 [KJ10]
    play(state, "KS", "KH", "KD", "KC")  # four kings: 100, and ... no stuk (the queen of trumps is not here)
    play(state, "QS", "QH", "QD", "QC")  # four queens: 100
    state = play_deal(state)
    tricks = [e for e in state.events(None) if e["type"] == "trick"]
    assert [t["cards"] for t in tricks[:3]] == [["JS", "JH", "JD", "JC"], ["KS", "KH", "KD", "KC"],
                                                ["QS", "QH", "QD", "QC"]]
    assert _roem(tricks[:3], "S") == 400
    scores = deal_scores(state)
    assert sum(points for _, _, points in scores) == total(state, "S")
    assert scores[0][:2] == ("makers", 1) and scores[0][2] >= 400 + 2 + 4 * 3 + 3  # the first three tricks are his


SEQUENCE = "A K Q J 10 9 8 7".split()
"""The order of cards in sequence, for roem [KJ10] (not the order of play)."""


def _roem(tricks: list[dict[str, Any]], trump: str) -> int:
    """The roem in the tricks [KJ10]: four of a kind, stuk, and the longest run of one suit."""
    total = 0
    for t in tricks:
        ranks = [card[:-1] for card in t["cards"]]
        if ranks.count("J") == 4:
            total += 200
        elif any(ranks.count(r) == 4 for r in ("A", "10", "K", "Q")):
            total += 100
        if f"K{trump}" in t["cards"] and f"Q{trump}" in t["cards"]:
            total += 20
        for suit in "SHDC":
            held = {SEQUENCE.index(card[:-1]) for card in t["cards"] if card[-1] == suit}
            run = max((n for start in held for n in range(1, 5)
                       if all(start + i in held for i in range(n))), default=0)
            total += 50 if run >= 4 else 20 if run == 3 else 0
    return total


def test_roem_cards_in_sequence_in_the_trick() -> None:
    pack = deck({1: "KD AS 10S JS 9S 8S 7S AH",
                 2: "QD AC 10H KH QH 9H 8H 7H",
                 3: "JD 10D AD KS QS 9D 8D 7D",
                 0: "JH JC 10C KC QC 9C 8C 7C"})
    state = play(new(pack, "spades"), "KD", "QD", "JD")  # K Q J of diamonds in sequence: 20 [KJ10]
    play(state, "7C")
    state = play_deal(state)
    tricks = [e for e in state.events(None) if e["type"] == "trick"]
    assert tricks[0]["cards"] == ["KD", "QD", "JD", "7C"]
    assert _roem(tricks[:1], "S") == 20
    assert sum(points for _, _, points in deal_scores(state)) == total(state, "S")


def test_stuk_the_king_and_queen_of_trumps_in_one_trick() -> None:
    pack = deck({1: "KS AS 10S JS 9S 8S 7S AD",
                 2: "QS AH 10H KH QH 9H 8H 7H",
                 3: "JH 10D KD QD JD 9D 8D 7D",
                 0: "JC AC 10C KC QC 9C 8C 7C"})
    state = play(new(pack, "spades"), "KS", "QS")  # the queen of trumps falls on the king: stuk
    state = play_deal(state)
    tricks = [e for e in state.events(None) if e["type"] == "trick"]
    assert tricks[0]["cards"][:2] == ["KS", "QS"]
    assert _roem(tricks[:1], "S") == 20
    assert sum(points for _, _, points in deal_scores(state)) == total(state, "S")


def test_a_match_is_sixteen_deals_and_the_higher_total_wins() -> None:
    state = interpreter.new_game(tricklang.load(RULES.path, options={"deals": 2}), seed=4)
    state.playout(random.Random(4))
    assert state.is_terminal() and state.deal_number == 2  # [KJ13]
    full = interpreter.new_game(RULES, seed=4)
    full.playout(random.Random(4))
    assert full.deal_number == 16 and sum(full.scores) >= 16 * 162
