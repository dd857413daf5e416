"""Information-set sampling (State.resample): the replay definition on random states of
every shipped game, every consistent deal of a small position drawn, uniformity, bad input."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import IllegalActionError, RecordError, ResampleError, State, new_game
from interpreter.players import RandomAgent
from interpreter.state.resample import Resampler

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])
_RULES: dict[str, tricklang.Ruleset] = {}


def _rules(path: str) -> tricklang.Ruleset:
    if path not in _RULES:
        _RULES[path] = tricklang.load(ROOT / path)
    return _RULES[path]


def _views(state: State, seat: int) -> list[Any]:
    """What ``seat`` observes after each step, replaying the state from its definition
    (rules, options, seed, decks, first dealer, actions); raises if a step is illegal."""
    data = state.to_dict()
    decks = {int(k): v for k, v in data.get("decks", {}).items()} or None
    reseeds = {int(k): v for k, v in data.get("reseeds", {}).items()} or None
    replay = new_game(state.ruleset, seed=data["seed"], deck=data.get("deck"), decks=decks, reseeds=reseeds,
                      dealer=data["dealer"], mode=data.get("mode", "strict"))
    views = [replay.observation(seat)]
    for text in data["actions"]:
        replay.apply(text)
        views.append(replay.observation(seat))
    return views


def _random_state(path: str, seed: int, steps: int, mode: str = "strict") -> State:
    state = new_game(_rules(path), seed=seed, mode=mode)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(agent(state))
    return state


CASES = [(path, "strict") for path in RULE_FILES] + [
    (path, "table") for path in ("rules/ecarte.trick", "rules/cinch.trick", "examples/cinch-cutthroat.trick")]


@pytest.mark.parametrize(("path", "mode"), CASES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 70), seat=st.integers(0, 15))
def test_a_resampled_state_replays_legally_and_looks_the_same(path: str, mode: str, seed: int, steps: int,
                                                               seat: int) -> None:
    state = _random_state(path, seed, steps, mode)
    seat %= state.ruleset.player_count
    before = state.to_json()
    world = state.resample(seat, random.Random(seed))
    assert state.to_json() == before  # the state itself is unchanged
    assert len(world.actions) == len(state.actions) and world.mode == state.mode
    # The definition: replaying the sampled state's whole history is legal at every step
    # and gives the seat the same observation after every step.
    assert _views(world, seat) == _views(state, seat)


def test_hidden_cards_are_really_redealt() -> None:
    state = new_game(_rules("rules/ecarte.trick"), seed=11)
    hands = {tuple(state.resample(0, random.Random(k)).hand(1)) for k in range(10)}
    assert len(hands) > 5
    assert all(state.resample(0, random.Random(k)).hand(0) == state.hand(0) for k in range(3))


def test_later_deals_are_shuffled_afresh() -> None:
    state = _random_state("rules/ecarte.trick", 3, 30)
    assert state.deal_number > 1
    world = state.resample(0, random.Random(5))
    assert world.deal_deck(state.deal_number + 1) != state.deal_deck(state.deal_number + 1)
    assert State.from_json(world.to_json()) == world
    again = world.resample(0, random.Random(6))  # a sampled state (decks, a reseed) samples too
    assert _views(again, 0) == _views(state, 0)


# ---------------------------------------------------------------- a small handmade position

TINY = """\
tricklang 1
game "Tiny"
players 2
role elder = left of dealer

deck
  suits spades black, hearts red, clubs black
  ranks A K Q

zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public

match
  first dealer is 0
  at most 1 deals

deal
  deal 3 to each from elder
  tricks 3, elder leads first
    must follow suit
  for each player:
    player scores tricks(player) "tricks"
"""
# Seat 1 (elder) is dealt KS QS KC, seat 0 AS AH QC; KH QH AC stay in the stock.
TINY_DECK = ["KS", "QS", "KC", "AS", "AH", "QC", "KH", "QH", "AC"]
# Seat 1 leads KS, seat 0 wins with AS and leads AH, and seat 1 shows out of hearts.
TINY_PLAYS = ["play KS", "play AS", "play AH", "play QS"]


def _tiny() -> State:
    state = new_game(tricklang.loads(TINY, path="tiny.trick"), deck=TINY_DECK)
    for text in TINY_PLAYS:
        state.apply(text)
    return state


def _consistent_decks(state: State, seat: int) -> set[tuple[str, ...]]:
    """Every deck, by brute force over the cards the seat has not seen, whose replay is
    legal and shows the seat the same thing at every step (an oracle independent of the
    sampler)."""
    real = _views(state, seat)
    seen = {"AS", "AH", "QC", "KS", "QS"}
    slots = [i for i, c in enumerate(TINY_DECK) if c not in seen]
    out = set()
    for perm in itertools.permutations([TINY_DECK[i] for i in slots]):
        deck = list(TINY_DECK)
        for i, c in zip(slots, perm, strict=True):
            deck[i] = c
        trial = new_game(state.ruleset, deck=deck, dealer=0)
        views = [trial.observation(seat)]
        try:
            for text in TINY_PLAYS:
                trial.apply(text)
                views.append(trial.observation(seat))
        except IllegalActionError:
            continue
        if views == real:
            out.add(tuple(deck))
    return out


def test_every_consistent_deal_can_be_drawn_and_no_other() -> None:
    state = _tiny()
    consistent = _consistent_decks(state, 0)
    # KC must stay in seat 1's hand (he showed out of hearts); the stock is any order.
    assert len(consistent) == 12
    sampler = Resampler(state, 0, random.Random(0))
    rng = random.Random(1)
    drawn = {tuple(sampler.sample(rng).deal_deck(1)) for _ in range(400)}
    assert drawn == consistent


def test_draws_are_uniform_over_consistent_deals() -> None:
    """Chi-square goodness of fit over the 12 consistent deals, seeded (so it cannot fail
    by chance): the statistic must stay under the 0.1% critical value for 11 degrees
    of freedom, 31.26."""
    sampler = Resampler(_tiny(), 0, random.Random(0))
    rng = random.Random(2)
    n = 2400
    counts = Counter(tuple(sampler.sample(rng).deal_deck(1)) for _ in range(n))
    assert len(counts) == 12
    expected = n / 12
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 31.26, counts


def test_an_unconstrained_position_is_uniform_too() -> None:
    """Before any card is played seat 0 knows only its hand: the 6 unseen cards may lie
    in any order (720 deals); each of the 6 cards is seat 1's first card equally often."""
    state = new_game(tricklang.loads(TINY, path="tiny.trick"), deck=TINY_DECK)
    sampler = Resampler(state, 0, random.Random(0))
    rng = random.Random(3)
    n = 1200
    counts = Counter(sampler.sample(rng).deal_deck(1)[0] for _ in range(n))
    assert set(counts) == {"KS", "QS", "KC", "KH", "QH", "AC"}
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts.values())
    assert chi2 < 20.52, counts  # 0.1% critical value, 5 degrees of freedom


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("seat", [2, -1, 7, "0", None, True, 1.0])
def test_resample_for_a_seat_that_does_not_exist(seat: Any) -> None:
    state = _tiny()
    before = state.to_json()
    with pytest.raises(ResampleError, match="does not exist"):
        state.resample(seat, random.Random(0))
    assert state.to_json() == before
    with pytest.raises(interpreter.ArgumentError):  # the API's error for a bad seat
        state.resample(seat, random.Random(0))


def test_a_sampler_refuses_a_different_match() -> None:
    state = _tiny()
    sampler = Resampler(state, 0, random.Random(0))
    other = new_game(state.ruleset, deck=TINY_DECK)
    other.apply("play QS")
    with pytest.raises(ResampleError, match="does not continue"):
        sampler.update(other, random.Random(0))


# ---------------------------------------------------------------- prearranged later deals


def test_decks_prearrange_later_deals_and_survive_json() -> None:
    rules = _rules("rules/ecarte.trick")
    deck = new_game(rules, seed=1).deal_deck(1)
    state = new_game(rules, seed=9, decks={2: deck})
    assert state.deal_deck(2) == deck and state.deal_deck(3) != deck
    state2 = new_game(rules, seed=9)
    assert state2.deal_deck(2) != deck and state2.deal_deck(3) == state.deal_deck(3)
    agent = RandomAgent(0)
    while state.deal_number < 2:
        state.apply(agent(state))
    assert state.events(None)[-len(state.events(None)):]  # the second deal is under way
    back = State.from_json(state.to_json())
    assert back == state and back.deal_deck(2) == deck


def test_prearrange_a_deal_not_yet_laid_out() -> None:
    rules = _rules("rules/ecarte.trick")
    state = new_game(rules, seed=4)
    deck = list(reversed(state.deal_deck(1)))
    state.prearrange(3, deck)
    assert state.deal_deck(3) == deck
    clone = state.clone()
    clone.prearrange(2, deck)
    assert state.deal_deck(2) != deck  # clones do not share later changes
    for bad, message in [(1, "under way"), (0, "under way"), ("2", "cannot be prearranged")]:
        with pytest.raises(RecordError, match=message):
            state.prearrange(bad, deck)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="each of the 32 cards once"):
        state.prearrange(2, deck[:-1])
    with pytest.raises(interpreter.InvalidActionError):
        state.prearrange(2, ["ZZ"] + deck[1:])
    assert state.deal_deck(2) != deck


def test_new_game_refuses_bad_decks() -> None:
    rules = _rules("rules/ecarte.trick")
    deck = new_game(rules, seed=1).deal_deck(1)
    with pytest.raises(RecordError, match="deal number"):
        new_game(rules, decks={0: deck})
    with pytest.raises(RecordError, match="given twice"):
        new_game(rules, deck=deck, decks={1: deck})
    with pytest.raises(RecordError, match="repeated"):
        new_game(rules, decks={2: deck[:-1] + deck[:1]})


def test_allowed_plays_reasons_about_a_hypothetical_hand() -> None:
    state = new_game(tricklang.loads(TINY, path="tiny.trick"), deck=TINY_DECK)
    state.apply("play KS")  # seat 0 to play to a spade lead
    assert state.allowed_plays(["AH", "QC"]) == ["AH", "QC"]
    assert state.allowed_plays(["AH", "QS"]) == ["QS"]
    with pytest.raises(interpreter.InvalidActionError):
        state.allowed_plays(["ZZ"])
    ecarte = new_game(_rules("rules/ecarte.trick"), seed=4)
    with pytest.raises(IllegalActionError, match="no card is being played"):
        ecarte.allowed_plays(["KS"])


def test_reseed_changes_later_deals_only_and_survives_json() -> None:
    rules = _rules("rules/ecarte.trick")
    state = _random_state("rules/ecarte.trick", 3, 15)
    now = state.deal_number
    first = state.deal_deck(now)
    later = state.deal_deck(now + 1)
    state.reseed(77)
    assert state.deal_deck(now) == first and state.deal_deck(now + 1) != later
    assert State.from_json(state.to_json()) == state
    for bad, message in [((77, now), "under way"), (("x", None), "integer"), ((True, None), "integer")]:
        with pytest.raises(RecordError, match=message):
            state.reseed(*bad)  # type: ignore[arg-type]
    with pytest.raises(RecordError, match="deal number"):
        new_game(rules, reseeds={0: 5})


def test_resample_refuses_the_embedding_modes() -> None:
    state = new_game(_rules("rules/ecarte.trick"), seed=1, selections="one_card")
    with pytest.raises(ResampleError, match="default selections"):
        state.resample(0, random.Random(0))
    with pytest.raises(RecordError, match="default selections"):
        new_game(_rules("rules/ecarte.trick"), seed=1, chance="explicit", reseeds={2: 5})


def test_sampled_worlds_log_their_own_events() -> None:
    """The sampler checks each replayed world's events against the seat's: the worlds log
    them as they go (``record_events``) rather than rebuilding them by a second replay of
    the whole match for every world (the search player's largest cost, issue 27); the
    worlds of a later deal too, and what they show is what the real state shows."""
    rules = _rules("examples/euchre.trick")
    state = new_game(rules, seed=4)
    agents = [RandomAgent(s) for s in range(4)]
    rng = random.Random(1)
    sampler = None
    for _ in range(400):
        if state.is_terminal():
            break
        seat = state.current_player
        assert seat is not None
        if state.deal_number >= 2 and seat == 0 and state.phase == "play":
            if sampler is None:
                sampler = Resampler(state, 0, rng, redeal_past=False)
            else:
                sampler.update(state, rng)
            for world in sampler.pool(rng, 3):
                assert world._rec is None and world._c.rec  # no recorder: its own log
                assert world.observation(0) == state.observation(0)
        state.apply(agents[seat](state))
    assert sampler is not None


def test_the_sampler_compares_views_without_rendering_the_log_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A replayed world's events are compared one by one as it is replayed: its final check
    leaves them out rather than render the whole log again (State.observation) for every
    world; the observation itself keeps its keys and their order."""
    rules = _rules("examples/euchre.trick")
    state = new_game(rules, seed=2)
    agents = [RandomAgent(s) for s in range(4)]
    while not (state.phase == "play" and state.current_player == 1):
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    keys = list(state.observation(1))
    assert keys.index("events") == keys.index("zones") + 1 and "legal_actions" in keys[keys.index("events"):]
    rendered = []
    real = State.observation
    monkeypatch.setattr(State, "observation", lambda self, player: rendered.append(player) or real(self, player))
    sampler = Resampler(state, 1, random.Random(3), redeal_past=False)
    worlds = sampler.pool(random.Random(4), 5)
    assert len(worlds) == 5 and len(rendered) <= 1  # (the sampler reads the real view once)
    monkeypatch.undo()
    assert all(w.observation(1) == state.observation(1) for w in worlds)


def test_a_matching_counted_once_draws_as_sample_matching_does() -> None:
    """``Matching`` (the counting done once, for a search player's many worlds) makes the
    draws ``sample_matching`` makes, draw after draw, each within the exclusions; with
    card indices as with codes."""
    from interpreter.state.matching import Matching, sample_matching

    cards = ["a", "b", "c", "d", "e", "f"]
    excluded = {"a": {"b", "c"}, "b": {"a"}, "d": {"d", "e", "f"}, "e": {"d", "e", "f"}}
    once = Matching(cards, excluded)
    by_index = Matching(list(range(6)), {cards.index(x): {cards.index(y) for y in v} for x, v in excluded.items()})
    first, second, third = random.Random(5), random.Random(5), random.Random(5)
    seen = set()
    for _ in range(200):
        sigma = once.draw(first)
        assert sigma == sample_matching(cards, excluded, second)
        assert {cards.index(x): cards.index(y) for x, y in sigma.items()} == by_index.draw(third)
        assert sorted(sigma) == sorted(sigma.values()) == cards
        assert all(sigma[x] not in excluded.get(x, ()) for x in cards)
        seen.add(tuple(sigma[x] for x in cards))
    assert len(seen) > 20
