"""Skat (examples/skat.trick) on scripted deals: the bidding by game values [SK3], the
contracts and their card orders (suit, grand, null) [SK4, SK5], the end of play in null
[SK10], the game value with matadors [SK7], overbidding [SK8] and the scoring [SK9]."""

from __future__ import annotations

import pytest
from helpers import load_example

import interpreter
import tricklang

RULES = load_example("skat.trick")
TOURNAMENT = tricklang.load(RULES.path, options={"scoring": "tournament"})
RANKS = "A 10 K Q J 9 8 7".split()


def deck(hands: dict[int, str], skat: str) -> list[str]:
    """The pack for dealer 0 (forehand 1, middlehand 2, rearhand 0): three cards to each,
    two to the skat, four to each, three to each [SK2]."""
    cards = {seat: hand.split() for seat, hand in hands.items()}
    order = [c for seat in (1, 2, 0) for c in cards[seat][0:3]] + skat.split()
    order += [c for lo, hi in ((3, 7), (7, 10)) for seat in (1, 2, 0) for c in cards[seat][lo:hi]]
    assert sorted(order) == sorted(r + s for s in "CSHD" for r in RANKS), "each card exactly once"
    return order


def new(pack: list[str], rules: tricklang.Ruleset = RULES) -> interpreter.State:
    return interpreter.new_game(rules, deck=pack, dealer=0)


def run(state: interpreter.State, *actions: str) -> interpreter.State:
    for action in actions:
        state.apply(action)
    return state


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def play_out(state: interpreter.State) -> interpreter.State:
    """Each player plays the first card he may, to the end of the deal."""
    while state.deal_number == 1 and not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state


def scores(state: interpreter.State) -> list[tuple[str, int, int]]:
    """(label, player, points) of the first deal's scores."""
    out: list[tuple[str, int, int]] = []
    for e in state.events(None):
        if e["type"] == "deal" and e["deal"] > 1:
            break
        if e["type"] == "score":
            out.append((e["label"], e["side"], e["points"]))
    return out


# Forehand (1) holds the four jacks and the top clubs; the skat holds two low hearts.
STRONG = deck({1: "JC JS JH JD AC 10C KC QC 9C AS",
               2: "AH 10H KH QH 9H AD 10D KD QD 9D",
               0: "8C 7C 10S KS QS 9S 8S 7S 8D 7D"}, "8H 7H")


def test_middlehand_names_game_values_in_order_to_forehand_who_holds_or_passes() -> None:
    state = new(STRONG)
    bids = [a.args[0] for a in state.legal_actions() if a.verb == "bid"]
    assert bids[:8] == ["18", "20", "22", "23", "24", "27", "30", "33"] and "19" not in bids  # [SK3]
    run(state, "bid 20")
    assert state.current_player == 1 and [str(a) for a in state.legal_actions()] == ["hold", "give_up"]
    run(state, "hold")
    assert state.current_player == 2 and "bid 20" not in state.legal_actions()  # higher values only [SK3]
    run(state, "pass")
    assert state.current_player == 0 and "bid 22" in state.legal_actions() and "bid 20" not in state.legal_actions()


def test_when_middlehand_and_rearhand_pass_forehand_plays_at_18_or_throws_in() -> None:
    state = run(new(STRONG), "pass", "pass")
    assert [str(a) for a in state.legal_actions()] == ["play", "throw_in"]  # [SK3]
    run(state, "throw_in")
    assert state.deal_number == 2  # the next dealer deals


def test_rearhand_who_outbids_the_survivor_becomes_declarer_at_his_value() -> None:
    state = run(new(STRONG), "bid 18", "hold", "pass", "bid 20", "give_up")
    assert state.decision is not None and state.decision.seat == 0  # rearhand declares [SK3]
    said = [(e["type"], e.get("maker", e.get("bid"))) for e in state.events(None) if e["type"] in ("maker", "contract_bid")]
    assert said == [("maker", 0), ("contract_bid", 20)]


def declare(pack: list[str], *announcement: str, rules: tricklang.Ruleset = RULES) -> interpreter.State:
    """Forehand declares at 18 (middlehand and rearhand pass) and announces."""
    return run(new(pack, rules), "pass", "pass", "play", *announcement)


def test_in_grand_the_jacks_are_the_only_trumps_and_belong_to_no_suit() -> None:
    state = declare(STRONG, "hand", "grand", "nothing")
    run(state, "play AS")  # forehand leads the ace of spades
    assert plays(state) == sorted("AH 10H KH QH 9H AD 10D KD QD 9D".split())  # void in spades [SK5]
    run(state, "play AH")
    assert plays(state) == sorted("10S KS QS 9S 8S 7S".split())  # spades; the club jack is not a spade [SK4]


def test_in_a_suit_game_the_jacks_are_trumps_above_the_ace() -> None:
    state = declare(STRONG, "hand", "hearts", "nothing")
    run(state, "play JD")  # the lowest jack, led: trumps are led
    assert plays(state) == ["10H", "9H", "AH", "KH", "QH"]  # hearts follow a jack [SK4, SK5]


def test_null_ranks_ten_below_jack_and_play_stops_at_the_declarers_first_trick() -> None:
    state = declare(STRONG, "hand", "null")
    run(state, "play AS", "play AH", "play 7S")  # forehand wins the first trick: null is lost [SK10]
    assert scores(state) == [("game lost", 1, -70)]  # null hand 35, doubled [SK7, SK9]
    assert state.deal_number == 2  # the play ended after one trick, the deal was scored [SK10]
    first = [e for e in state.events(None) if e["type"] == "trick"]
    assert len(first) == 1 and first[0]["winner"] == 1


def test_grand_hand_with_four_scores_its_value_and_schneider() -> None:
    state = play_out(declare(STRONG, "hand", "grand", "nothing"))
    taken = [e for e in state.events(None) if e["type"] == "trick" and e["winner"] == 1]
    assert taken, "forehand takes tricks"
    (label, player, points), = scores(state)
    assert (label, player) == ("game won", 1)
    # with 4, game 1, hand 1 = 6; schneider (90 or more) 7; schwarz 8 [SK6, SK7]
    assert points in (24 * 6, 24 * 7, 24 * 8)


POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}


def reference_hand_game(state: interpreter.State, declarer: int, skat: str, base: int, matadors: int,
                        bid: int) -> tuple[str, int]:
    """A suit game played hand, nothing announced, scored from the rules [SK6-SK9]: (label, points)."""
    tricks = [e for e in state.events(None) if e["type"] == "trick" and e["trick"] <= 10][:10]
    won = [t for t in tricks if t["winner"] == declarer]
    taken = sum(POINTS.get(c[:-1], 0) for t in won for c in t["cards"]) + sum(POINTS.get(c[:-1], 0) for c in skat.split())
    level = matadors + 1 + 1  # with or without N, game, hand
    level += taken >= 90 or taken <= 30  # schneider [SK6]
    level += len(won) in (0, 10)  # schwarz
    value = base * level
    if value < bid:  # overbid [SK8]
        return "game lost", -2 * ((bid + base - 1) // base * base)
    return ("game won", value) if taken >= 61 else ("game lost", -2 * value)


def test_an_overbid_game_is_lost_at_the_lowest_multiple_of_its_base_above_the_bid() -> None:
    # Middlehand (2) holds no jack and bids 66; diamonds hand "without 4" is worth 54 to 72 only
    # with schneider and schwarz: whatever he takes, he has overbid and loses 2 x 72 [SK8].
    pack = deck({1: "JC JS JH JD AC 10C KC QC 9C 8C",
                 2: "AH 10H KH QH 9H AD 10D KD QD 9D",
                 0: "AS 10S KS QS 9S 8S 7S 8H 7H 7C"}, "8D 7D")
    state = play_out(run(new(pack), "bid 66", "give_up", "pass", "hand", "diamonds", "nothing"))
    expected = reference_hand_game(state, 2, "8D 7D", 9, 4, 66)
    assert expected == ("game lost", -144)
    assert scores(state) == [(expected[0], 2, expected[1])]


def test_matadors_without_count_the_top_trumps_missing() -> None:
    # Forehand lacks the club jack and the spade jack, holds the heart jack: "without 2" [SK7].
    pack = deck({1: "JH AH 10H KH QH 9H 8H 7H AC 10C",
                 2: "JC JS JD AD 10D KD QD 9D 8D 7D",
                 0: "KC QC 9C 8C 7C AS 10S KS QS 9S"}, "8S 7S")
    state = play_out(declare(pack, "hand", "hearts", "nothing"))
    label, points = reference_hand_game(state, 1, "8S 7S", 10, 2, 18)
    assert scores(state) == [(label, 1, points)]
    with_three = reference_hand_game(state, 1, "8S 7S", 10, 3, 18)
    assert with_three != (label, points)  # the count of matadors shows in the value


@pytest.mark.parametrize("rules", [RULES, TOURNAMENT], ids=["classic", "tournament"])
def test_a_lost_game_costs_twice_its_value_and_tournament_scoring_pays_the_opponents(rules: tricklang.Ruleset) -> None:
    state = declare(STRONG, "hand", "null", rules=rules)
    run(state, "play AS", "play AH", "play 7S")
    got = scores(state)
    if rules is RULES:
        assert got == [("game lost", 1, -70)]  # [SK9]
    else:
        assert got == [("game lost", 1, -70), ("lost, tournament", 1, -50),
                       ("opponent of a loser", 2, 40), ("opponent of a loser", 0, 40)]  # [SK9]
