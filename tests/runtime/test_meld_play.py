"""Issue 28, step 4, the runtime half: meld tables (design 3.8), written out by the code generator.

Pinochle's and Klaverjas' tables over hand-built hands (scripted deals: a card serving in melds
of several classes, a line counting in every suit, the runtime against the language's one
reading, :func:`tricklang.melds.count`); what a player melded is recorded for the deal and
read by ``melded()``; ``melds(ZONE, T)`` reads a zone shown to nobody; the `meld` event names
exactly the cards counted and every seat sees it (observations, tensors, the harness).
Hypothesis: what a hand melds never falls when it holds more cards and does not depend on the
order they came in. A module compiled natively melds what CPython melds.
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
from interpreter.harness import check_invariants
from interpreter.state.tensors import tensor_layout
from interpreter.transcript import render
from tricklang.deck import NO_TRUMP, CardModel
from tricklang.melds import count

GAME = """\
tricklang 1
game "Melding"
players 2
role eldest = left of dealer
deck
  suits spades black, hearts red, clubs black, diamonds red
  ranks A 10 K Q J 9
option size: int = 12 in 1..12 "cards to each"
melds pinochle
  sequences:
    "run" A 10 K Q J of trump = 150
    "royal marriage" K Q of trump = 40
    "marriage" K Q in any suit except trump = 20
  arounds:
    "aces around" A in every suit = 100
    "kings around" K in every suit = 80
    "queens around" Q in every suit = 60
    "jacks around" J in every suit = 40
  others:
    "pinochle" (Q of spades) (J of diamonds) = 40
    "dix" 9 of trump = 10
melds roem
  sequences:
    "four in sequence" sequence of 4 in A K Q J 10 9 = 50
    "three in sequence" sequence of 3 in A K Q J 10 9 = 20
  stuk:
    "stuk" K Q of trump = 20
  fours:
    "four of a kind" (A or K or Q or J) in every suit = 100
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 2 deals
deal
  deal size to each from eldest
  trump is hearts
  for each player from eldest:
    player melds pinochle
    player melds roem
  dealer scores melds(hand of eldest, pinochle) "eldest's hand, unshown"
  eldest scores melded(eldest, roem) "roem melded"
  dealer scores melded(dealer) "melded in all"
  tricks size, eldest leads first
    must follow suit
"""
RULES = tricklang.loads(GAME, path="melding.trick")
CARDS = CardModel(RULES.rules.deck)  # type: ignore[arg-type]
TABLES = {t.name: t for t in RULES.rules.melds}
ALL = [r + s for s in "SHCD" for r in "A 10 K Q J 9".split()]


def new(eldest: list[str], size: int = 12, rules: tricklang.Ruleset = RULES) -> interpreter.State:
    """Dealer 0: seat 1 (eldest) gets ``eldest``, the first cards of the pack, seat 0 the next."""
    rest = [c for c in ALL if c not in eldest]
    if size != 12:
        rules = tricklang.loads(GAME, path="melding.trick", options={"size": size})
    return interpreter.new_game(rules, deck=[*eldest, *rest], dealer=0)


def melds(state: interpreter.State, seat: int, table: str, deal: int = 1) -> dict[str, Any]:
    at = 0
    for e in state.events(None):
        at += e["type"] == "deal"
        if at == deal and e["type"] == "meld" and e["player"] == seat and e["table"] == table:
            return e
    raise AssertionError(f"no meld of seat {seat} under {table}")


def scores(state: interpreter.State, deal: int = 1) -> dict[str, int]:
    at, out = 0, {}
    for e in state.events(None):
        at += e["type"] == "deal"
        if at == deal and e["type"] == "score":
            out[e["label"]] = e["points"]
    return out


def reference(cards: list[str], table: str, trump: str | None = "H") -> tuple[int, list[tuple[str, list[str]]]]:
    t = NO_TRUMP if trump is None else "SHCD".index(trump)
    found = count(TABLES[table], [CARDS.index[c] for c in cards], CARDS, t)
    return found.points, [(label, [CARDS.codes[c] for c in inst]) for label, inst in found.melds]


# ---------------------------------------------------------------- scripted hands

# The run and the dix in hearts, a marriage in spades, aces around (the ace of hearts serves in
# the run too: another class), the pinochle (the queen of spades serves in the marriage too).
PINOCHLE_HAND = "AH 10H KH QH JH 9H KS QS AS AC AD JD".split()


def test_a_card_serves_in_one_meld_of_each_class() -> None:
    state = new(PINOCHLE_HAND)
    event = melds(state, 1, "pinochle")
    assert [(m["name"], m["cards"]) for m in event["melds"]] == [
        ("run", ["AH", "10H", "KH", "QH", "JH"]), ("marriage", ["KS", "QS"]),
        ("aces around", ["AS", "AH", "AC", "AD"]), ("pinochle", ["QS", "JD"]), ("dix", ["9H"])]
    assert event["points"] == 150 + 20 + 100 + 40 + 10
    assert event["cards"] == [c for m in event["melds"] for c in m["cards"]]
    assert (event["points"], [(m["name"], m["cards"]) for m in event["melds"]]) == reference(PINOCHLE_HAND, "pinochle")


def test_the_royal_marriage_comes_only_when_the_run_does_not_use_it() -> None:
    hand = "KH QH KS QS KC QC 9H 9S 9C 9D AS 10S".split()
    event = melds(new(hand), 1, "pinochle")
    # three marriages in the plain suits... but only one royal: hearts are trumps; no run (no AH).
    assert sorted(m["name"] for m in event["melds"]) == ["dix", "marriage", "marriage", "royal marriage"]
    assert event["points"] == 40 + 20 + 20 + 10
    hand = "AH 10H KH QH JH KS QS KC QC KD QD 9S".split()
    event = melds(new(hand), 1, "pinochle")  # the run uses KH QH: no royal marriage; kings and queens around
    assert sorted(m["name"] for m in event["melds"]) == ["kings around", "marriage", "marriage", "marriage",
                                                          "queens around", "run"]
    assert event["points"] == 150 + 3 * 20 + 80 + 60


def test_klaverjas_roem_sequences_stuk_and_four_of_a_kind() -> None:
    hand = "AS KS QS JS 10S KH QH JH JC JD 9C 9D".split()
    event = melds(new(hand), 1, "roem")
    # A K Q J of spades in sequence (50; the three that 10S would add is used up in the class),
    # K Q J of hearts (20), stuk in hearts (its own class), four jacks (the class of fours).
    names = sorted(m["name"] for m in event["melds"])
    assert names == ["four in sequence", "four of a kind", "stuk", "three in sequence"]
    assert event["points"] == 50 + 20 + 20 + 100
    assert (event["points"], [(m["name"], m["cards"]) for m in event["melds"]]) == reference(hand, "roem")


def test_melded_is_kept_per_player_and_table_for_the_deal_and_melds_shows_nothing() -> None:
    state = new(PINOCHLE_HAND)
    roem = melds(state, 1, "roem")["points"]
    got = scores(state)
    assert got["eldest's hand, unshown"] == melds(state, 1, "pinochle")["points"]
    assert got["roem melded"] == roem
    assert got["melded in all"] == melds(state, 0, "pinochle")["points"] + melds(state, 0, "roem")["points"]


def test_what_was_melded_starts_again_every_deal() -> None:
    state = new(PINOCHLE_HAND)
    while state.deal_number == 1:
        state.apply(state.legal_actions()[0])
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    # (the second deal: seat 1 deals, seat 0 is eldest; a score of 0 logs nothing)
    assert scores(state, 2).get("roem melded", 0) == melds(state, 0, "roem", 2)["points"]
    assert scores(state, 2).get("melded in all", 0) == (melds(state, 1, "pinochle", 2)["points"]
                                                         + melds(state, 1, "roem", 2)["points"])


def test_without_trumps_the_lines_of_trump_name_nothing() -> None:
    rules = tricklang.loads(GAME.replace("  trump is hearts\n", ""), path="melding.trick")
    state = interpreter.new_game(rules, deck=[*PINOCHLE_HAND, *(c for c in ALL if c not in PINOCHLE_HAND)], dealer=0)
    event = melds(state, 1, "pinochle")
    assert (event["points"], [(m["name"], m["cards"]) for m in event["melds"]]) == reference(PINOCHLE_HAND, "pinochle", None)
    assert "run" not in {m["name"] for m in event["melds"]}


def test_every_seat_sees_the_meld_and_the_transcript_reads_it() -> None:
    state = new(PINOCHLE_HAND)
    event = melds(state, 1, "pinochle")
    assert event in state.observation(0)["events"]  # the other seat sees the melded cards
    tensor = state.information_state_tensor(0)
    seen, _ = tensor_layout(state).segment("seen")
    assert all(tensor[seen + CARDS.index[c]] == 1.0 for c in event["cards"])
    text = render(state)
    assert "seat 1 melds run (AH 10H KH QH JH), marriage (KS QS), aces around (AS AH AC AD), " \
           "pinochle (QS JD), dix (9H): 320" in text


def test_the_harness_finds_no_leak_in_melding() -> None:
    for seed in range(3):
        report = check_invariants(RULES, seed=seed, finish=True, stop_on_first=False)
        assert report.violations == []


# ---------------------------------------------------------------- invariants

@settings(max_examples=40, deadline=None)
@given(st.permutations(ALL), st.integers(1, 11), st.sampled_from(["pinochle", "roem"]))
def test_melding_is_the_one_reading_monotone_and_blind_to_order(pack: list[str], size: int, table: str) -> None:
    small = new(pack[:size], size)
    large = new(pack[:size + 1], size + 1)
    event = melds(small, 1, table)
    assert (event["points"], [(m["name"], m["cards"]) for m in event["melds"]]) == reference(pack[:size], table)
    assert set(event["cards"]) <= set(pack[:size])  # the counted cards, all held
    assert melds(large, 1, table)["points"] >= event["points"]  # one card more never counts less
    shuffled = pack[:size]
    random.Random(size).shuffle(shuffled)
    assert melds(new(shuffled, size), 1, table) == event  # the order they came in does not matter


# ---------------------------------------------------------------- native





@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_melds_what_cpython_melds() -> None:
    rules = tricklang.loads(GAME, path="native-melds.trick")
    assert_native_plays_as_cpython(rules, range(8))
