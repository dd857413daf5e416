"""Information-set sampling with equal cards (``copies 2``: Doppelkopf, Pinochle).

A seat sees faces, never which copy of a face a card is; the sampler keeps the cards the
seat has seen where they were and redeals the others by face, copy indices assigned
canonically. Properties on random positions of the two shipped games (the seat's
observation and legal actions, the hand sizes, the voids shown), and on a tiny double
pack with a meld, an exact check against every consistent deal: the draws are uniform
over the real (physical) deals, which a meld that shows one of two equal cards tests.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tricklang
from interpreter import IllegalActionError, State, new_game
from interpreter.players import RandomAgent
from interpreter.state.resample import Resampler

ROOT = Path(__file__).resolve().parents[2]
GAMES = {name: tricklang.load(ROOT / "examples" / f"{name}.trick") for name in ("doppelkopf", "pinochle")}


def _random_state(name: str, seed: int, steps: int) -> State:
    state = new_game(GAMES[name], seed=seed)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(agent(state))
    return state


def _views(state: State, seat: int) -> list[Any]:
    """What ``seat`` observes after each step, replaying the state from its definition."""
    data = state.to_dict()
    decks = {int(k): v for k, v in data.get("decks", {}).items()} or None
    reseeds = {int(k): v for k, v in data.get("reseeds", {}).items()} or None
    replay = new_game(state.ruleset, seed=data["seed"], deck=data.get("deck"), decks=decks, reseeds=reseeds,
                      dealer=data["dealer"])
    views = [replay.observation(seat)]
    for text in data["actions"]:
        replay.apply(text)
        views.append(replay.observation(seat))
    return views


def _suit(name: str, card: str, trump: str | None) -> str:
    """A card's effective suit, written independently of the runtime: Doppelkopf's trumps
    are every diamond, queen and jack and the ten of hearts; Pinochle's the named suit."""
    rank, suit = card[:-1], card[-1]
    if name == "doppelkopf" and (suit == "D" or rank in ("Q", "J") or card == "10H"):
        return "trump"
    if name == "pinochle" and trump is not None and suit == trump[0].upper():
        return "trump"
    return suit


def _voids(name: str, state: State) -> dict[int, set[str]]:
    """The suits each seat has shown out of in the deal under way (it did not follow the lead)."""
    trump = state.observation(None)["trump"]
    voids: dict[int, set[str]] = {}
    led: dict[int, str] = {}
    events = state.events(None)
    start = max(i for i, e in enumerate(events) if e["type"] == "deal")
    for e in events[start:]:
        if e["type"] != "play":
            continue
        suit = _suit(name, e["card"], trump)
        if e["trick"] not in led:
            led[e["trick"]] = suit
        elif suit != led[e["trick"]]:
            voids.setdefault(e["player"], set()).add(led[e["trick"]])
    return voids


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80), seat=st.integers(0, 3))
def test_a_resampled_state_with_equal_cards_is_one_the_seat_cannot_tell(name: str, seed: int, steps: int,
                                                                       seat: int) -> None:
    state = _random_state(name, seed, steps)
    before = state.to_json()
    world = state.resample(seat, random.Random(seed))
    assert state.to_json() == before
    assert world.observation(seat) == state.observation(seat)
    assert _views(world, seat) == _views(state, seat)  # every step replays, the seat sees the same
    if state.current_player == seat:
        assert [a.text for a in world.legal_actions()] == [a.text for a in state.legal_actions()]
    trump = state.observation(None)["trump"]
    for p, suits in _voids(name, state).items():
        assert len(world.hand(p)) == len(state.hand(p))
        if p != seat:
            assert not {_suit(name, c, trump) for c in world.hand(p)} & suits, (p, suits, world.hand(p))
    assert sorted(c for p in range(4) for c in world.hand(p)) == sorted(c for p in range(4) for c in state.hand(p)) \
        or state.deal_number != world.deal_number


@pytest.mark.parametrize(("name", "steps"), [("doppelkopf", 9), ("pinochle", 14)])
def test_hidden_equal_cards_are_really_redealt(name: str, steps: int) -> None:
    state = _random_state(name, 5, steps)
    seat = state.current_player
    assert seat is not None and state.phase == "play"
    sampler = Resampler(state, seat, random.Random(0))
    rng = random.Random(1)
    worlds = [sampler.sample(rng) for _ in range(30)]
    other = (seat + 1) % 4
    hands = Counter(tuple(sorted(w.hand(other))) for w in worlds)
    assert len(hands) > 20  # not degenerate: many different hands for a seat it cannot see
    assert all(w.hand(seat) == state.hand(seat) for w in worlds)
    # a face of which the seat holds one copy: its other copy lands with different seats
    face = next(c for c in state.hand(seat) if state.hand(seat).count(c) == 1 and any(
        c in state.hand(q) for q in range(4) if q != seat))
    holders = {next(q for q in range(4) if q != seat and face in w.hand(q)) for w in worlds
               if any(face in w.hand(q) for q in range(4) if q != seat)}
    assert len(holders) >= 2


def test_a_search_world_of_a_past_deal_with_copies_is_consistent() -> None:
    state = _random_state("pinochle", 3, 75)
    assert state.deal_number >= 2
    world = state.resample(1, random.Random(2))
    assert _views(world, 1) == _views(state, 1)


# ---------------------------------------------------------------- a tiny double pack, exactly

TINY = """\
tricklang 1
game "Tiny double"
players 2
role elder = left of dealer

deck
  suits spades black, hearts red
  ranks K Q
  copies 2

melds tiny
  others:
    "marriage" (K of spades) (Q of spades) = 20

zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public

match
  first dealer is 0
  at most 1 deals

deal
  deal 3 to each from elder
  trump is hearts
  for each player from elder:
    player melds tiny
  tricks 3, elder leads first
    must follow suit
  for each player:
    player scores tricks(player) "tricks"
"""
RULES = tricklang.loads(TINY, path="tiny-double.trick")
# Seat 1 (elder) is dealt KS KS QS and melds a marriage: one king of spades shown, the
# other hidden. Seat 0 holds QS KH QH; KH QH stay in the stock.
DECK = ["KS", "KS", "QS", "QS", "KH", "QH", "KH", "QH"]
SEAT0 = (3, 4, 5)  # the slots of seat 0's cards


def _tiny(actions: list[str]) -> State:
    state = new_game(RULES, deck=DECK)
    for text in actions:
        state.apply(text)
    return state


def _consistent(state: State) -> Counter[tuple[str, ...]]:
    """Seat 1's hand in every deal seat 0 cannot tell from the real one, by brute force over
    the face orders of the five cards it has not seen (each face order stands for the same
    number of orders of the physical cards, so counting them is counting real deals)."""
    real = _views(state, 0)
    slots = [i for i in range(len(DECK)) if i not in SEAT0]
    out: Counter[tuple[str, ...]] = Counter()
    for faces in set(itertools.permutations([DECK[i] for i in slots])):
        deck = list(DECK)
        for i, c in zip(slots, faces, strict=True):
            deck[i] = c
        trial = new_game(RULES, deck=deck)
        views = [trial.observation(0)]
        try:
            for text in state.actions:
                trial.apply(text)
                views.append(trial.observation(0))
        except IllegalActionError:
            continue
        if views == real:
            out[tuple(sorted(trial.hand(1)))] += 1
    return out


@pytest.mark.parametrize("actions", [[], ["play KS", "play QS"]])
def test_draws_are_uniform_over_the_real_deals_when_a_meld_shows_one_of_two_equal_cards(actions: list[str]) -> None:
    """Seat 1 showed one king of spades; whether it holds the other is hidden. Of the real
    deals, those where it holds both are half as many per hand as those where it holds
    one (two kings can be split two ways): the draws must follow the exact counts.
    Chi-square, seeded; the bound is the 0.1% critical value for the degrees of freedom."""
    state = _tiny(actions)
    expected = _consistent(state)
    assert len(expected) >= 2 and len(set(expected.values())) == 2  # the weights differ
    sampler = Resampler(state, 0, random.Random(0))
    rng = random.Random(7)
    n = 1500
    counts = Counter(tuple(sorted(sampler.sample(rng).hand(1))) for _ in range(n))
    assert set(counts) == set(expected)
    total = sum(expected.values())
    chi2 = sum((counts[h] - n * w / total) ** 2 / (n * w / total) for h, w in expected.items())
    critical = {1: 10.83, 2: 13.82, 3: 16.27, 4: 18.47}[len(expected) - 1]
    assert chi2 < critical, (counts, expected)
