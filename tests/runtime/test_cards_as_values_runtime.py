"""Issue 28, section 6, the rest of the runtime half (design 3.11): loops over cards, `suit of` a
card, patterns naming a suit held by a variable (`K of s`), options named `pass`, selections with a
fallback (`matching P, else Q`), and `expose ... matching` / `expose ... to`.

The same small four-player game as ``test_small_gaps_runtime.py`` (dealer 0 holds QH JH 8H 8D 7D
9C 8C 7C, eldest holds the eight spades). Before this, each construct was refused with
``unsupported-construct``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from helpers import assert_native_plays_as_cpython
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import native
from interpreter.harness.driver import check_invariants

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
zone kitty: shared, hidden
zone won: per side, public
match
  at most 2 deals
deal
  deal 8 to each
  trump is hearts
"""
PLAY = """\
  tricks 8, eldest leads first
    must follow suit
  for each side:
    side scores tricks(side)
"""
SUITS = "SHDC"
RANKS = "A K Q J 10 9 8 7".split()
HANDS = {1: "AS KS QS JS 10S 9S 8S 7S", 2: "AH 9H AD KD QD JD 10D 9D",
         3: "KH 10H 7H AC KC QC JC 10C", 0: "QH JH 8H 8D 7D 9C 8C 7C"}
PACK = [card for seat in (1, 2, 3, 0) for card in HANDS[seat].split()]
assert sorted(PACK) == sorted(r + s for s in SUITS for r in RANKS)


def game(deal: str, play: str = PLAY) -> str:
    return HEAD + deal + play


def new(text: str) -> interpreter.State:
    return interpreter.new_game(tricklang.loads(text, path="gaps.trick"), deck=PACK, dealer=0)


def scored(state: interpreter.State) -> dict[str, list[int]]:
    """Each label scored so far: the amounts, in order."""
    out: dict[str, list[int]] = {}
    for event in state.events(None):
        if event["type"] == "score":
            out.setdefault(event["label"], []).append(event["points"])
    return out


# ---------------------------------------------------------------- for each card, suit of a card


LOOP = """\
  for each card in hand of dealer matching not trump:
    move all from hand of dealer to kitty
    dealer scores 1 "seen"
    if suit of card == clubs:
      dealer scores 10 "a club"
      stop
"""


def test_a_loop_over_a_zone_visits_its_cards_in_deck_order_as_they_were_when_it_started() -> None:
    got = scored(new(game(LOOP)))
    # 8D 7D (diamonds come before clubs in the deck), then 9C stops it; the hand emptied on the
    # first card, but the loop visits the cards the zone held when it started
    assert got["seen"] == [1, 1, 1] and got["a club"] == [10]
    full = scored(new(game(LOOP.replace("      stop\n", ""))))
    assert len(full["seen"]) == 5 and len(full["a club"]) == 3


def test_a_loop_over_cards_whose_body_waits_for_a_decision() -> None:
    state = new(game("""\
  for each card in hand of dealer matching clubs:
    eldest chooses:
      hold:
        eldest scores points(card) "held"
      go:
        stop
  eldest scores 100 "after"
""".replace("points(card)", "count(hand of dealer matching (9 or 8))")))
    for _ in range(2):
        assert [a.args[0] if a.args else a.verb for a in state.legal_actions()] == ["hold", "go"]
        state.apply("hold")
    state.apply("go")  # the third club: the loop stops
    got = scored(state)
    assert got["held"] == [4, 4] and got["after"] == [100]
    state = new(game("  for each card in hand of dealer matching clubs:\n    eldest chooses:\n      hold:\n"
                     "        eldest scores 1 \"held\"\n      go:\n        pass\n"))
    for _ in range(3):
        state.apply("hold")
    assert scored(state)["held"] == [1, 1, 1]
    assert state.legal_actions()[0].verb == "play"  # three clubs, three choices, then the tricks


# ---------------------------------------------------------------- a suit held by a variable in a pattern


SUIT_VARIABLE = """\
  let s = trump
  dealer scores count(hand of dealer matching (J of s or 8 of s)) "rank of s"
  dealer scores count(hand of dealer matching not s) "not s"
  if hand of eldest has (A of s):
    dealer scores 1 "eldest has the ace"
  if hand of dealer has s:
    dealer scores 1 "dealer has s"
  for each card in hand of dealer:
    if card is (Q of s):
      dealer scores 1 "the queen"
"""


def test_a_pattern_naming_a_suit_variable_matches_that_suit() -> None:
    got = scored(new(game(SUIT_VARIABLE)))
    assert got["rank of s"] == [2] and got["not s"] == [5]
    assert "eldest has the ace" not in got and got["dealer has s"] == [1] and got["the queen"] == [1]
    clubs = scored(new(game(SUIT_VARIABLE.replace("let s = trump", "let s = clubs"))))
    assert clubs["rank of s"] == [1] and clubs["not s"] == [5] and "the queen" not in clubs


def test_a_selection_matching_a_suit_variable_offers_that_suits_cards() -> None:
    state = new(game("  let s = suit of hand of dealer\n  dealer discards 1 matching s to kitty\n"))
    # the suit of a zone is its top card's, here the last dealt: 7C
    assert sorted(a.args[0] for a in state.legal_actions()) == ["7C", "8C", "9C"]


@pytest.mark.parametrize(("deal", "play", "line"), [
    ("  if holder of (A of s) == dealer:\n    dealer scores 1\n", PLAY, 18),
    ("", PLAY.replace("    must follow suit\n", "    must follow suit\n    may play (7 of s) at any time\n"), 20),
    ("", PLAY.replace("    must follow suit\n", "    must follow suit\n    may not lead s until broken\n"), 20),
])
def test_a_suit_variable_where_patterns_are_fixed_tables_is_refused_at_its_line(deal: str, play: str, line: int) -> None:
    """Trick-play rules, declarations, hooks, 'holder of' and 'who played' compile patterns to fixed tables:
    a suit variable there is refused by the checker (it was a ValueError from the code generator)."""
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.loads(game("  let s = clubs\n" + deal, play), path="gaps.trick")
    assert [(d.code, d.line) for d in info.value.diagnostics] == [("unsupported-construct", line)]
    assert "a suit named by a variable in a pattern of a trick-play rule" in str(info.value)


# ---------------------------------------------------------------- an option named pass


PASSING = """\
  eldest chooses:
    hold:
      eldest scores 1 "hold"
    pass:
      eldest scores 2 "passed"
  auction once around from eldest, bids 1..3
"""


def test_an_option_named_pass_is_the_word_pass_with_the_auctions_id() -> None:
    state = new(game(PASSING))
    assert [str(a) for a in state.legal_actions()] == ["hold", "pass"]
    choice_ids = dict(zip([str(a) for a in state.legal_actions()], state.legal_action_ids(), strict=True))
    state.apply("pass")
    assert scored(state)["passed"] == [2]
    assert [e for e in state.events(None) if e["type"] == "choice"][-1]["choice"] == "pass"
    auction_ids = dict(zip([str(a) for a in state.legal_actions()], state.legal_action_ids(), strict=True))
    assert choice_ids["pass"] == auction_ids["pass"]  # one action, one id, in the choice and the auction


# ---------------------------------------------------------------- matching P, else Q


def test_a_discard_with_enough_p_cards_offers_only_p_cards() -> None:
    state = new(game("  dealer discards 4 matching not (trump or Q), else not Q to kitty\n"))
    assert len(state.legal_actions()) == 5  # four of 8D 7D 9C 8C 7C
    state.apply("discard 8D 7D 9C 8C")
    assert [e["cards"] for e in state.events(None) if e["type"] == "select"] == [["8D", "7D", "9C", "8C"]]


def test_a_discard_without_enough_p_cards_takes_them_all_and_the_rest_among_q_cards() -> None:
    state = new(game("  dealer discards 6 matching not trump, else not Q to kitty\n"))
    assert [str(a) for a in state.legal_actions()] == ["discard JH", "discard 8H"]  # QH is neither
    state.apply("discard 8H")
    assert [e["cards"] for e in state.events(None) if e["type"] == "select"] == [["8D", "7D", "9C", "8C", "7C", "8H"]]
    assert state.zone("hand", 0) == ["QH", "JH"]


PATTERNS: dict[str, Callable[[str, str], bool]] = {  # (rank, suit) -> matches, hearts trumps: an oracle
    "trump": lambda r, s: s == "H", "not trump": lambda r, s: s != "H", "clubs": lambda r, s: s == "C",
    "(K or Q)": lambda r, s: r in "KQ", "black": lambda r, s: s in "SC",
    "not (trump or 8)": lambda r, s: s != "H" and r != "8", "any": lambda r, s: True, "7": lambda r, s: r == "7",
}


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), count=st.integers(1, 8), p=st.sampled_from(sorted(PATTERNS)), q=st.sampled_from(sorted(PATTERNS)),
       verb=st.sampled_from(["discards", "takes"]), pick=st.integers(0, 10_000))
def test_matching_p_else_q_always_moves_a_selection_of_the_stated_size(
        seed: int, count: int, p: str, q: str, verb: str, pick: int) -> None:
    """Whatever the hand: the cards that move are as many as stated (or every P- and Q-card held, when
    there are fewer), P-cards only when there are enough, else every P-card and the rest Q-cards."""
    pack = list(PACK)
    random.Random(seed).shuffle(pack)
    where = "to kitty" if verb == "discards" else "from hand of left of dealer"
    state = interpreter.new_game(tricklang.loads(game(f"  dealer {verb} {count} matching {p}, else {q} {where}\n"),
                                                 path="fallback.trick"), deck=pack, dealer=0)
    source = state.zone("hand", 0 if verb == "discards" else 1)
    pm, qm = ([card for card in source if PATTERNS[x](card[:-1], card[-1])] for x in (p, q))
    if not pm and not qm:
        assert not [e for e in state.events(None) if e["type"] == "select"]
        return
    actions = state.legal_actions()
    state.apply(actions[pick % len(actions)])
    moved = [e for e in state.events(None) if e["type"] == "select"][-1]["cards"]
    assert len(moved) == min(count, len(set(pm) | set(qm)))
    if len(pm) >= count:
        assert set(moved) <= set(pm)
    else:
        assert set(pm) <= set(moved) and set(moved) - set(pm) <= set(qm)


# ---------------------------------------------------------------- expose ... matching, expose ... to


def exposed(state: interpreter.State, seat: int | None) -> list[dict[str, Any]]:
    return [e for e in state.events(seat) if e["type"] == "exposed"]


def test_expose_matching_shows_those_cards_now_and_the_zone_stays_hidden() -> None:
    state = new(game("  expose hand of dealer matching 8\n"))
    for seat in (None, 0, 1, 2, 3):
        assert [e["cards"] for e in exposed(state, seat)] == [["8H", "8D", "8C"]]
    assert "cards" not in state.observation(1)["zones"]["hand"]["0"]  # only those cards, once


SHOWN = "  expose hand of dealer to eldest\n"


def test_expose_to_is_seen_by_that_seat_only() -> None:
    before, after = new(game("")), new(game(SHOWN))
    assert after.observation(1)["zones"]["hand"]["0"]["cards"] == HANDS[0].split()
    assert "cards" not in before.observation(1)["zones"]["hand"]["0"]
    for seat in (0, 2, 3):  # the others' views differ only by the event saying eight cards were shown to seat 1
        assert after.observation(seat)["zones"] == before.observation(seat)["zones"]
        assert exposed(after, seat) == [{"type": "exposed", "zone": "hand of seat 0", "to": 1, "count": 8}]
    assert exposed(after, 1)[0]["cards"] == HANDS[0].split()
    after.apply("play AS")  # seat 1 leads; seat 0's hand stays shown to him while the deal lasts
    assert after.observation(1)["zones"]["hand"]["0"]["count"] == 8
    assert "cards" not in after.observation(3)["zones"]["hand"]["0"]


def test_expose_to_ends_with_the_deal() -> None:
    state = new(game("  if deal_number == 1:\n  " + SHOWN))
    rng = random.Random(1)
    while state.deal_number == 1:
        state.apply(state.sample_action(rng))
    assert "cards" not in state.observation(1)["zones"]["hand"]["0"]


def test_expose_matching_to_one_seat_shows_those_cards_to_him_alone() -> None:
    state = new(game("  expose hand of eldest matching (A or K) to dealer\n"))
    assert exposed(state, 0)[0]["cards"] == ["AS", "KS"]
    assert [("cards" in e, e["count"]) for s in (1, 2, 3) for e in exposed(state, s)] == [(False, 2)] * 3
    assert "cards" not in state.observation(0)["zones"]["hand"]["1"]  # shown now, not for the deal


@pytest.mark.parametrize("seed", range(4))
def test_the_harness_invariants_hold_with_expose_to(seed: int) -> None:
    deal = SHOWN + "  expose hand of eldest matching (A or K) to dealer\n  move 2 at random from hand of dealer to kitty\n"
    report = check_invariants(tricklang.loads(game(deal), path="shown.trick"), seed=seed, max_actions=40)
    assert report.violations == [], report


# ---------------------------------------------------------------- native





ALL = "  eldest discards 3 matching (K or Q), else not 7 to kitty\n" + LOOP + SUIT_VARIABLE + PASSING + SHOWN + """\
  expose hand of dealer matching 8
  expose hand of eldest matching (A or K) to dealer
  for each card in hand of eldest matching (K or Q):
    eldest chooses:
      hold:
        eldest scores 1 "held"
      go:
        stop
"""
"""Every construct of this file (one deal), for the native build."""


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    rules = tricklang.loads(game(ALL), path="native.trick")
    assert_native_plays_as_cpython(rules, range(6), playout=False, step=True)
