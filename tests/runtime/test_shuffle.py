"""The randomness a seed gives (interpreter.runtime.seeding): each deal's pack, the first dealer
and the random remedies, derived from SHAKE-256 of a text key, the same on every machine,
each deal on its own."""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter.players import RandomAgent
from interpreter.runtime import seeding

ECARTE = tricklang.load("rules/ecarte.trick")

# SHAKE-256 of b"1/deal/0", the first 32 bytes (from `openssl dgst -shake256 -xoflen 32`),
# and its four little-endian 64-bit words read by hand:
DIGEST = "f3a616a9623f9b6cab6ae14d46e5b5f36d441492e760e24b06eba5af84445fcb"
WORDS = [0x6C9B3F62A916A6F3, 0xF3B5E5464DE16AAB, 0x4BE260E79214446D, 0xCB5F4484AFA5EB06]
# Sorted by word: w2 (0x4b..) < w0 (0x6c..) < w3 (0xcb..) < w1 (0xf3..).
PACK_OF_4 = [2, 0, 3, 1]
# SHAKE-256 of b"1/first-dealer" begins b5 7b 78 7e 70 de ef dd: the word 0xddefde707e787bb5,
# whose top two bits (times 4, shifted down 64) are 0b11.
FIRST_DEALER_OF_4 = 3


def test_a_deal_is_the_pinned_digest_derived_order_on_every_machine() -> None:
    assert hashlib.shake_256(b"1/deal/0").hexdigest(32) == DIGEST
    assert seeding.words("1/deal/0", 4) == WORDS
    assert seeding.deal_order(1, 0, 4) == PACK_OF_4
    assert seeding.first_dealer(1, 4) == FIRST_DEALER_OF_4
    assert all(seeding.first_dealer(seed, n) == seeding.below(f"{seed}/first-dealer", n)
               for seed in range(50) for n in (2, 3, 4, 7))


def test_the_portable_reading_of_the_words_is_the_one_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where array('Q') is not 64 bits wide the words are read with int.from_bytes: the same words."""
    native = seeding.deal_order(3, 2, 32), seeding.words("3/deal/2", 32)
    monkeypatch.setattr(seeding, "_NATIVE_WORDS", False)
    assert seeding.words("1/deal/0", 4) == WORDS
    assert seeding.deal_order(1, 0, 4) == PACK_OF_4
    assert (seeding.deal_order(3, 2, 32), seeding.words("3/deal/2", 32)) == native


def test_a_permutation_is_read_from_a_prefix_of_the_digest() -> None:
    """More cards read more of the same digest: the first words do not change."""
    assert seeding.words("1/deal/0", 2) == WORDS[:2]
    assert seeding.words("1/deal/0", 40)[:4] == WORDS


@given(st.integers(0, 10**18), st.integers(0, 200), st.integers(0, 110))
def test_every_deal_is_a_permutation_and_the_same_each_time(seed: int, deal: int, size: int) -> None:
    order = seeding.deal_order(seed, deal, size)
    assert sorted(order) == list(range(size))
    assert order == seeding.permutation(f"{seed}/deal/{deal}", size)
    assert seeding.deal_order(seed, deal, size) == order


def test_different_deals_and_seeds_give_different_packs() -> None:
    packs = {tuple(seeding.deal_order(seed, deal, 32)) for seed in range(20) for deal in range(20)}
    assert len(packs) == 400


def test_every_order_of_a_small_pack_comes_about_as_often() -> None:
    """4,800 deals of 4 cards: each of the 24 orders is expected 200 times; a chi-square
    statistic over 50 (23 degrees of freedom; p < 0.001) would show a visible bias."""
    counts = Counter(tuple(seeding.deal_order(seed, 0, 4)) for seed in range(4800))
    assert set(counts) == set(permutations(range(4)))
    chi2 = sum((c - 200) ** 2 / 200 for c in counts.values())
    assert chi2 < 50, counts


def test_every_card_reaches_every_place_of_a_pack() -> None:
    places = Counter((card, place) for deal in range(3000)
                     for place, card in enumerate(seeding.deal_order(7, deal, 6)))
    assert len(places) == 36
    assert all(abs(c - 500) < 5 * math.sqrt(500) for c in places.values()), places


def test_draws_below_a_bound_are_about_uniform() -> None:
    counts = Counter(seeding.below(f"k/{i}", 3) for i in range(3000))
    assert sorted(counts) == [0, 1, 2]
    assert all(abs(c - 1000) < 5 * math.sqrt(1000) for c in counts.values()), counts
    assert seeding.below("x", 1) == 0


def test_a_sample_is_distinct_members_in_the_order_drawn() -> None:
    population = list("abcdefg")
    picked = seeding.sample("s", population, 3)
    assert len(set(picked)) == 3 and set(picked) <= set(population)
    order = seeding.permutation("s", 7)
    assert picked == [population[i] for i in order[:3]]
    assert seeding.sample("s", population, 0) == []


def test_a_games_deals_are_the_seeded_orders_without_replaying_earlier_deals() -> None:
    state = interpreter.new_game(ECARTE, seed=11)
    codes = state.cards
    size = len(state.cards)
    for n in (1, 2, 5):
        assert state.deal_deck(n) == [codes[c] for c in reversed(seeding.deal_order(11, n - 1, size))]


def test_reseed_and_prearranged_decks_still_decide_later_deals() -> None:
    state = interpreter.new_game(ECARTE, seed=11)
    codes = state.cards
    size = len(state.cards)
    state.reseed(99, 3)
    assert state.deal_deck(2) == [codes[c] for c in reversed(seeding.deal_order(11, 1, size))]
    assert state.deal_deck(3) == [codes[c] for c in reversed(seeding.deal_order(99, 2, size))]
    assert state.deal_deck(4) == [codes[c] for c in reversed(seeding.deal_order(99, 3, size))]
    deck = list(reversed(state.deal_deck(4)))
    state.prearrange(4, deck)
    assert state.deal_deck(4) == deck
    # the reseeds and decks survive a round trip through JSON, and the deals played follow them
    agent = RandomAgent(0)
    while not state.is_terminal() and state.deal_number < 4:
        state.apply(agent(state))
    assert state.deal_number == 4  # seed 11's match lasts 4 deals or more
    assert state.deal_deck() == deck
    assert sorted(state.hand(0) + state.hand(1)) == sorted(deck[:10])  # the hands dealt from it
    again = interpreter.State.from_json(state.to_json())
    assert again.deal_deck(3) == state.deal_deck(3) and again.deal_deck(4) == deck
