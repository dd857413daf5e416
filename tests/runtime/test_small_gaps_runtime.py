"""Issue 28, section 6, the runtime half: the smaller gaps, compiled once by the code generator.

Scripted deals of a small four-player game (partnerships, hearts trumps) whose deal computes
values with each construct and scores them under a label, so a test reads what was computed
(or the legal actions it changes); a construct that fails at run time raises
``RuleRuntimeError`` naming its line; the module compiled natively plays what CPython plays.
Before this, each construct was refused with ``unsupported-construct``.
"""

from __future__ import annotations

import random

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native

HEAD = """\
tricklang 1
game "Gaps"
players 4 in partnerships 0 2, 1 3
role eldest = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7
zone hand: per player, owner
zone stock: shared, hidden, pack
zone turnup: shared, public
zone kitty: shared, hidden
zone won: per side, public
"""
TOP = """\
match
  at most 2 deals
deal
  deal 8 to each
"""
PLAY = """\
  tricks 8, eldest leads first
    must follow suit
  for each side:
    side scores tricks(side)
"""

SUITS = "SHDC"
RANKS = "A K Q J 10 9 8 7".split()


def deck(hands: dict[int, str]) -> list[str]:
    """The pack for dealer 0: eight cards to each from the dealer's left (seats 1, 2, 3, 0)."""
    order = [card for seat in (1, 2, 3, 0) for card in hands[seat].split()]
    assert sorted(order) == sorted(r + s for s in SUITS for r in RANKS), "each card exactly once"
    return order


HANDS = deck({1: "AS KS QS JS 10S 9S 8S 7S",
              2: "AH 9H AD KD QD JD 10D 9D",
              3: "KH 10H 7H AC KC QC JC 10C",
              0: "QH JH 8H 8D 7D 9C 8C 7C"})


def game(deal: str, top: str = "", play: str = PLAY) -> str:
    """A rule file: the deal's own lines (indented two) between the dealing and the play."""
    return HEAD + top + TOP + deal + play


def new(text: str, pack: list[str] = HANDS) -> interpreter.State:
    return interpreter.new_game(tricklang.loads(text, path="gaps.trick"), deck=pack, dealer=0)


def scored(state: interpreter.State) -> dict[str, list[int]]:
    """Each label scored so far: the amounts, in order."""
    out: dict[str, list[int]] = {}
    for event in state.events(None):
        if event["type"] == "score":
            out.setdefault(event["label"], []).append(event["points"])
    return out


# ---------------------------------------------------------------- values


VALUES = """\
  trump is hearts
  dealer scores (deal_number - 8) / 2 "rounds down"
  dealer scores (deal_number + 8) / 2 "halves"
  dealer scores abs(deal_number - 8) "abs"
  dealer scores abs(deal_number) "abs of a positive"
  if trump == hearts and trump != spades:
    dealer scores 1 "trump is hearts"
  let s = trump
  if s == clubs:
    dealer scores 1 "a suit in a variable"
  if dealer == seat 0 and eldest == seat 1:
    side of seat 3 scores 1 "seat numbers"
  dealer scores count(hand of dealer matching (red and not Q)) "and"
  dealer scores count(hand of eldest matching 8 of black) "rank of a colour"
  dealer scores count(hand of dealer matching black) "a colour"
  dealer scores count(hand of dealer matching (8 and red and not trump)) "three parts"
"""


def test_division_abs_suits_seats_and_patterns_compute_their_values() -> None:
    state = new(game(VALUES))
    got = scored(state)
    assert got["rounds down"] == [-4]  # (1 - 8) / 2 rounds down, as Python's //
    assert got["halves"] == [4]
    assert got["abs"] == [7] and got["abs of a positive"] == [1]
    assert got["trump is hearts"] == [1] and "a suit in a variable" not in got
    assert got["seat numbers"] == [1]
    assert [e["side"] for e in state.events(None) if e["type"] == "score" and e["label"] == "seat numbers"] == [1]
    assert got["and"] == [4]  # JH 8H 8D 7D (not QH)
    assert got["rank of a colour"] == [1]  # 8S
    assert got["a colour"] == [3]  # 9C 8C 7C
    assert got["three parts"] == [1]  # 8D (8H is a trump)


def test_a_suit_value_compares_with_a_suit_variable() -> None:
    got = scored(new(game(VALUES.replace("trump is hearts", "trump is clubs").replace("8 and red", "8 and black"))))
    assert "trump is hearts" not in got and got["a suit in a variable"] == [1]
    assert "three parts" not in got  # seat 0's only black 8 is 8C, a trump now


def test_and_and_colours_narrow_the_cards_a_player_may_discard() -> None:
    state = new(game("  trump is hearts\n  dealer discards 1 matching (black and not 7) or 8 of red to kitty\n"))
    assert sorted(a.args[0] for a in state.legal_actions()) == ["8C", "8D", "8H", "9C"]


def test_division_by_zero_at_run_time_names_the_line() -> None:
    with pytest.raises(interpreter.RuleRuntimeError, match="line 17: '/' by zero"):
        new(game("  dealer scores 10 / (deal_number - 1)\n"))


TABLE = "table vulnerable = 0, 10, -10, 7\n"
LOOKUP = """\
  dealer scores vulnerable(deal_number) "lookup"
  dealer scores vulnerable(count(hand of dealer matching red) % 4) "lookup of a count"
"""


def test_a_lookup_table_is_read_by_position_from_zero() -> None:
    state = new(game(LOOKUP, top=TABLE))
    got = scored(state)
    assert got["lookup"] == [10]  # deal 1
    assert got["lookup of a count"] == [10]  # five red cards: entry 1


def test_a_lookup_out_of_range_at_run_time_names_the_line() -> None:
    with pytest.raises(interpreter.RuleRuntimeError, match="line 18: 'vulnerable' has no entry at that position"):
        new(game("  dealer scores vulnerable(deal_number + 3)\n", top=TABLE))


POINTS = """\
points
  "Aces" A = 11
  "Tens" 10 = 10
  "Kings" K = 4
  "Trump jack" J of trump = 20
"""
CARD_POINTS = """\
  trump is hearts
  dealer scores points(hand of dealer) "dealer's hand"
  dealer scores points(hand of eldest) "eldest's hand"
  dealer scores 3 "three"
  dealer scores deal_score(dealer) "so far"
  side of eldest scores deal_score(side of dealer) + score(side of dealer) "both"
"""
AFTER_TRICK = """\
    after each trick:
      winner scores points(winning_card) "the winning card"
      winner scores points(highest_trump) + 1 "the highest trump, and one"
"""


def test_points_of_a_zone_and_deal_score_compute_their_values() -> None:
    got = scored(new(game(CARD_POINTS, top=POINTS)))
    assert got["dealer's hand"] == [20]  # JH is the trump jack; QH, 8s, 7s and 9C count nothing
    assert got["eldest's hand"] == [25]  # AS, 10S, KS
    assert got["so far"] == [20 + 25 + 3]
    assert got["both"] == [2 * 96]  # side 0 has scored 48 + 48 this deal, all it has (deal 1)


def test_deal_score_starts_again_each_deal() -> None:
    state = new(game(CARD_POINTS, top=POINTS))
    rng = random.Random(3)
    while state.events(None)[-1]["type"] != "score" or len(scored(state)["so far"]) < 2:
        state.apply(state.sample_action(rng))
    deal_two = [e for e in state.events(None) if e["type"] == "score"]
    so_far = [e for e in deal_two if e["label"] == "so far"]
    assert so_far[1]["scores"][so_far[1]["side"]] > so_far[1]["points"]  # the side scored in deal 1 too
    three = next(e for e in reversed(deal_two) if e["label"] == "three")
    hands = [e["points"] for e in deal_two if e["label"] in ("dealer's hand", "eldest's hand")][2:]
    assert so_far[1]["points"] == sum(hands) + three["points"]


def test_points_of_a_card_read_the_trick() -> None:
    state = new(game("  trump is hearts\n", top=POINTS, play=PLAY.replace("    must follow suit\n",
                                                                           "    must follow suit\n" + AFTER_TRICK)))
    state.apply("play AS")
    state.apply("play AD")
    state.apply("play AC")
    state.apply("play 9C")
    got = scored(state)
    assert got["the winning card"] == [11]
    assert got["the highest trump, and one"] == [1]  # no trump played: no card, worth 0


COUNTERS = "counter roem: per side, per deal\ncounter kept: per side\n"
COUNTING = """\
  add 20 to roem of side of seat 0
  add 20 to kept of side of seat 0
  side of seat 0 scores roem of side of seat 0 "roem"
  side of seat 0 scores kept of side of seat 0 "kept"
"""


def test_a_counter_per_deal_starts_again_each_deal() -> None:
    state = new(game(COUNTING, top=COUNTERS))
    rng = random.Random(5)
    while len(scored(state).get("roem", [])) < 2:
        state.apply(state.sample_action(rng))
    got = scored(state)
    assert got["roem"] == [20, 20]
    assert got["kept"] == [20, 40]  # a counter not 'per deal' keeps its value across deals


BIDDING = """\
  auction until passes from eldest, bids 6..28 by 4
  eldest bids 0..12 by 5
"""


def bids(state: interpreter.State) -> list[str]:
    return [" ".join((a.verb, *a.args)) for a in state.legal_actions()]


def test_a_players_bid_by_a_step_offers_every_nth_number() -> None:
    state = new(game("  eldest bids 0..12 by 5\n  dealer scores bid_of_eldest \"bid\"\n".replace(
        "bid_of_eldest", "bids(eldest)")))
    assert bids(state) == ["bid 0", "bid 5", "bid 10"]
    state.apply("bid 10")
    assert scored(state)["bid"] == [10]


def test_an_auction_by_a_step_bids_on_its_grid_above_the_highest_bid() -> None:
    state = new(game("  auction until passes from eldest, bids 6..30 by 4\n"))
    assert bids(state) == ["pass", *(f"bid {b}" for b in range(6, 31, 4))]
    state.apply("bid 10")
    assert bids(state) == ["pass", "bid 14", "bid 18", "bid 22", "bid 26", "bid 30"]
    with pytest.raises(interpreter.IllegalActionError):
        state.apply("bid 12")
    state.apply("bid 26")
    assert bids(state) == ["pass", "bid 30"]


def test_an_auction_by_a_step_ends_when_no_bid_of_its_grid_is_left() -> None:
    state = new(game("  auction until passes from eldest, bids 6..28 by 4\n  maker scores bid \"contract\"\n"))
    state.apply("bid 26")  # 30 is beyond 28: nobody can bid above
    assert scored(state)["contract"] == [26]


CHOOSING = """\
  eldest chooses:
    hold when count(hand of eldest matching spades) > 6:
      eldest scores 1 "hold"
    fold when deal_number > 1:
      eldest scores 2 "fold"
    go:
      eldest scores 3 "go"
"""


def test_an_option_with_when_is_offered_only_while_it_holds() -> None:
    state = new(game(CHOOSING))  # eldest holds eight spades; deal 1
    assert [a.args[0] if a.args else a.verb for a in state.legal_actions()] == ["hold", "go"]
    with pytest.raises(interpreter.IllegalActionError):
        state.apply("fold")
    state.apply("hold")
    assert scored(state)["hold"] == [1]


def test_a_choice_offering_no_option_names_the_line() -> None:
    with pytest.raises(interpreter.RuleRuntimeError, match="line 17: no option of the choice is offered"):
        new(game(CHOOSING.replace("    go:\n      eldest scores 3 \"go\"\n", "")
                 .replace("> 6", "> 8"))).legal_actions()


# ---------------------------------------------------------------- native





ALL = VALUES + """\
  dealer discards 1 matching (black and not 7) or 8 of red to kitty
"""
"""Every construct the runtime plays of section 6 (one deal), for the native build."""


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    deal = ALL + LOOKUP + CARD_POINTS.replace("  trump is hearts\n", "") + COUNTING + BIDDING + CHOOSING
    play = PLAY.replace("    must follow suit\n", "    must follow suit\n" + AFTER_TRICK)
    rules = tricklang.loads(game(deal, top=TABLE + POINTS + COUNTERS, play=play), path="native.trick")
    assert_native_plays_as_cpython(rules, range(8), playout=False, step=True)
