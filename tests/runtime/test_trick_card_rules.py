"""Issue 28, the card rules that change the trick (design 3.2), the runtime half: French
Tarot's Excuse as ``a trick is never won by P`` and ``the suit led is not set by P``.

Scripted deals of a four-player game whose ace of clubs is an Excuse (it may be played at
any time, never wins a trick but the last, and does not set the suit led): the legal cards
after it is led, the trick's winner with it, the trick's names reading the suit it did not
set; random matches keep the rules; the native build plays what CPython plays.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import assert_native_plays_as_cpython
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import native

EXCUSE = """\
tricklang 1
game "Excuse"
players 4
role eldest = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 1 deals
deal
  deal 8 to each
  trump is diamonds
  tricks 8, eldest leads first
    must follow suit
    must trump if void
    may play (A of clubs) at any time
    a trick is never won by (A of clubs) when not last_trick
    the suit led is not set by (A of clubs)
    after each trick:
      if led_suit == no_suit:
        winner scores 100 "no suit led"
      if led_suit == hearts:
        winner scores 10 "hearts led"
  for each player:
    player scores tricks(player)
"""
NO_SETTING = EXCUSE.replace("    the suit led is not set by (A of clubs)\n", "")
ALWAYS_WINS = EXCUSE.replace("    a trick is never won by (A of clubs) when not last_trick\n", "")
assert NO_SETTING != EXCUSE != ALWAYS_WINS

LEADS_IT = {1: "AC AS KS QS AH KH QH JH",  # eldest (the dealer is seat 0) holds the Excuse
            2: "KC JS 10S 9S 10H 9H 8H 7H",
            3: "QC 8S 7S AD KD QD JD 10D",
            0: "JC 10C 9C 8C 7C 9D 8D 7D"}
PLAYS_IT = {**LEADS_IT, 1: LEADS_IT[1].replace("AC", "KC"), 2: LEADS_IT[2].replace("KC", "AC")}


def pack(hands: dict[int, str]) -> list[str]:
    order = [card for seat in (1, 2, 3, 0) for card in hands[seat].split()]
    assert sorted(order) == sorted(r + s for s in "SHDC" for r in "A K Q J 10 9 8 7".split())
    return order


def new(text: str, hands: dict[int, str]) -> interpreter.State:
    return interpreter.new_game(tricklang.loads(text, path="excuse.trick"), deck=pack(hands), dealer=0)


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def play(state: interpreter.State, *cards: str) -> interpreter.State:
    for card in cards:
        state.apply(f"play {card}")
    return state


def tricks(state: interpreter.State) -> list[dict[str, Any]]:
    return [e for e in state.events(None) if e["type"] == "trick"]


def labels(state: interpreter.State) -> list[tuple[int, str]]:
    return [(e["side"], e["label"]) for e in state.events(None) if e["type"] == "score" and e["label"] != "tricks"]


def test_after_the_excuse_is_led_the_next_card_sets_the_suit() -> None:
    state = play(new(EXCUSE, LEADS_IT), "AC")
    assert plays(state) == sorted(LEADS_IT[2].split())  # no suit led yet: as free as a leader
    play(state, "9H")
    assert plays(state) == ["10D", "AD", "JD", "KD", "QD"]  # hearts now: void, he must trump
    play(state, "10D", "9D")
    assert tricks(state)[-1]["winner"] == 3
    assert labels(state) == [(3, "hearts led")]  # the trick's led_suit is the suit the heart set


def test_without_the_rule_the_excuse_led_sets_clubs() -> None:
    state = play(new(NO_SETTING, LEADS_IT), "AC")
    assert plays(state) == ["KC"]


def test_the_excuse_never_wins_a_trick_but_the_last() -> None:
    state = play(new(EXCUSE, PLAYS_IT), "KC")
    assert plays(state) == sorted(PLAYS_IT[2].split())  # no club but the Excuse, no trump: any card
    play(state, "AC", "QC", "7C")
    assert tricks(state)[-1]["winner"] == 1  # the king of clubs: the ace is the Excuse
    always = play(new(ALWAYS_WINS, PLAYS_IT), "KC", "AC", "QC", "7C")
    assert tricks(always)[-1]["winner"] == 2
    last = play(new(EXCUSE.replace("tricks 8,", "tricks 1,"), PLAYS_IT), "KC", "AC", "QC", "7C")
    assert tricks(last)[-1]["winner"] == 2  # the guard: on the last trick the Excuse wins


def test_a_trick_of_cards_that_never_win_goes_to_its_leader() -> None:
    text = EXCUSE.replace("(A of clubs) when not last_trick", "clubs")
    state = play(new(text, PLAYS_IT), "KC", "AC", "QC", "7C")
    assert tricks(state)[-1]["winner"] == 1


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32))
def test_random_matches_keep_the_excuse_s_rules(seed: int) -> None:
    rng = random.Random(seed)
    state = interpreter.new_game(tricklang.loads(EXCUSE, path="excuse.trick"), seed=seed)
    trick: list[tuple[int, str]] = []
    number = 0
    while not state.is_terminal():
        seat = state.current_player
        hand = state.observation(seat)["zones"]["hand"][str(seat)]["cards"]
        legal = plays(state)
        if "AC" in hand:
            assert "AC" in legal  # playable at any time
        if trick and all(card == "AC" for _, card in trick):
            assert legal == sorted(hand)  # no suit led yet
        card = rng.choice(legal)
        state.apply(f"play {card}")
        trick.append((seat, card))
        if len(trick) == 4:
            number += 1
            winner = tricks(state)[-1]["winner"]
            if number < 8:
                assert ("AC" not in dict((c, s) for s, c in trick)) or dict((c, s) for s, c in trick)["AC"] != winner
            trick = []


# ---------------------------------------------------------------- native





@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    rules = tricklang.loads(EXCUSE, path="native.trick")
    assert_native_plays_as_cpython(rules, range(12))


def test_the_state_reads_the_trick_as_the_rules_do() -> None:
    state = play(new(EXCUSE, PLAYS_IT), "KC", "AC")
    assert state.trick_winner() == 1  # the Excuse on the king: the king still wins
    assert state.trick_power("AC") == 0 < state.trick_power("QC")
    state = play(new(EXCUSE, LEADS_IT), "AC", "9H")
    assert state.trick_winner() == 2 and state.trick_power("10H") > state.trick_power("9H") > 0
