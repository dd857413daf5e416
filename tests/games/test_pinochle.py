"""Partnership Auction Pinochle (examples/pinochle.trick) on scripted deals: the double pack and
the deal [PN1, PN2], the auction and the stuck dealer [PN3], melds of both partners with the
double melds [PN4], counters and the last trick [PN6], a side's meld only with a trick [PN7],
making the bid or going set [PN8] and the target [PN9]."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import load_example

import interpreter
import tricklang

RULES = load_example("pinochle.trick")
RANKS = "A 10 K Q J 9".split()
FACES = [r + s for s in "SHCD" for r in RANKS]


def deck(hands: dict[int, str]) -> list[str]:
    """The pack for dealer 0: three cards at a time to each from his left, four times [PN2]."""
    cards = {seat: hand.split() for seat, hand in hands.items()}
    order = [card for lo in (0, 3, 6, 9) for seat in (1, 2, 3, 0) for card in cards[seat][lo:lo + 3]]
    assert sorted(order) == sorted(FACES * 2), "each face exactly twice"  # [PN1]
    return order


def deal_events(state: interpreter.State, kind: str, deal: int = 1) -> list[dict[str, Any]]:
    at, out = 0, []
    for e in state.events(None):
        at += e["type"] == "deal"
        if at == deal and e["type"] == kind:
            out.append(e)
    return out


def play_deal(state: interpreter.State, rng: random.Random | None = None) -> interpreter.State:
    """Each player plays the first card he may (or a random one), to the end of the deal."""
    while state.deal_number == 1 and not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[0] if rng is None else rng.choice(actions))
    return state


def reference(state: interpreter.State) -> dict[int, tuple[str, int]]:
    """The first deal's scores by side, read from its events as the rules say [PN6-PN8]."""
    [contract] = deal_events(state, "contract")
    makers = contract["maker"] % 2
    took = {0: 0, 1: 0}
    tricks = {0: 0, 1: 0}
    last = 0
    for t in deal_events(state, "trick"):
        side = t["winner"] % 2
        tricks[side] += 1
        took[side] += 10 * sum(card[:-1] in ("A", "10", "K") for card in t["cards"])  # [PN6]
        last = side
    took[last] += 10  # the last trick [PN6]
    for m in deal_events(state, "meld"):
        if tricks[m["player"] % 2] > 0:  # [PN7]
            took[m["player"] % 2] += m["points"]
    made = ("made the bid", took[makers]) if took[makers] >= contract["bid"] else ("set", -contract["bid"])
    return {makers: made, 1 - makers: ("points", took[1 - makers])}


def scores(state: interpreter.State) -> dict[int, tuple[str, int]]:
    return {e["side"]: (e["label"], e["points"]) for e in deal_events(state, "score")}


# Seat 1 holds a double run in hearts with both nines of hearts; seat 3, his partner, a
# double pinochle and a marriage of spades; seats 2 and 0 a marriage of clubs each.
MELDS = deck({1: "AH AH 10H 10H KH KH QH QH JH JH 9H 9H",
              2: "KS KC KD AC 10C 10C QC JC 9C 9C 10D 9D",
              3: "QS QS JD JD AS AC AD KS 10S JS 9S KD",
              0: "AS 10S JS 9S KC QC JC AD 10D QD QD 9D"})


def test_melds_of_both_partners_count_with_the_double_melds() -> None:
    state = interpreter.new_game(RULES, deck=MELDS, dealer=0)
    state.apply("bid 250")  # seat 1 [PN3]
    for _ in range(3):
        state.apply("pass")
    state.apply("name hearts")  # the maker names trumps [PN4]
    melds = {m["player"]: m for m in deal_events(state, "meld")}
    assert sorted(x["name"] for x in melds[1]["melds"]) == ["double dix", "double run"]
    assert melds[1]["points"] == 1500 + 2 * 10  # a double run; the dix twice [PN4]
    assert sorted(x["name"] for x in melds[3]["melds"]) == ["double pinochle", "marriage"]
    assert melds[3]["points"] == 300 + 20  # a pinochle twice is the double [PN4]
    assert melds[2]["points"] == melds[0]["points"] == 20  # a marriage in clubs (not trumps) [PN4]
    play_deal(state)
    got = scores(state)
    assert got[1] == reference(state)[1]
    assert got[1][0] == "made the bid" and got[1][1] >= 1520 + 320  # both partners' melds [PN4, PN8]
    # The bidding side's score comes first and reaches the target: the match ends there [PN9].
    assert 0 not in got and state.is_terminal()
    assert deal_events(state, "match_end")[0]["winner"] == 1


def test_a_side_that_fails_its_bid_loses_the_bid_and_the_others_score_theirs() -> None:
    state = interpreter.new_game(RULES, deck=MELDS, dealer=0)
    state.apply("pass")  # seat 1
    state.apply("bid 650")  # seat 2: the top bid ends the auction; a marriage and counters cannot make it
    state.apply("name clubs")
    play_deal(state)
    got = scores(state)
    assert got[0] == ("set", -650)  # [PN8]
    assert got == reference(state)
    assert got[1][0] == "points" and got[1][1] > 0  # the other side scores what it made [PN8]


def test_the_stuck_dealer_must_bid_when_the_first_three_pass() -> None:
    state = interpreter.new_game(RULES, deck=MELDS, dealer=0)
    for _ in range(3):
        state.apply("pass")
    legal = [str(a) for a in state.legal_actions()]
    assert "pass" not in legal and legal[0] == "bid 250"  # [PN3]
    with pytest.raises(interpreter.IllegalActionError):
        state.apply("pass")
    state.apply("bid 250")
    [contract] = deal_events(state, "contract")
    assert (contract["maker"], contract["bid"]) == (0, 250)


def test_without_the_stuck_dealer_a_deal_all_pass_is_dealt_again() -> None:
    rules = tricklang.load(RULES.path, options={"stuck_dealer": "false"})
    state = interpreter.new_game(rules, deck=MELDS, dealer=0)
    for _ in range(4):
        state.apply("pass")
    assert state.deal_number == 2 and deal_events(state, "contract") == []  # [PN3]


def test_a_passed_player_bids_no_more_and_bids_go_up_in_tens() -> None:
    state = interpreter.new_game(RULES, deck=MELDS, dealer=0)
    legal = [str(a) for a in state.legal_actions()]
    assert legal[:3] == ["pass", "bid 250", "bid 260"] and legal[-1] == "bid 650"  # [PN3]
    state.apply("pass")  # seat 1
    state.apply("bid 300")  # seat 2
    state.apply("bid 310")  # seat 3
    state.apply("bid 320")  # seat 0
    state.apply("pass")  # seat 2 (seat 1 is out)
    assert [str(a) for a in state.legal_actions()][:2] == ["pass", "bid 330"]  # seat 3


@pytest.mark.parametrize("seed", range(6))
def test_random_deals_score_as_the_rules_say(seed: int) -> None:
    rng = random.Random(seed)
    state = interpreter.new_game(RULES, seed=seed, dealer=0)
    play_deal(state, rng)
    if deal_events(state, "contract"):
        assert scores(state) == reference(state)  # [PN6, PN7, PN8]
