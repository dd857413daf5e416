"""Card choices from a pack with copies (issue 28, design 3.4 "Equal cards"): a seat that lays
away or discards cards of a double pack (``copies 2``) chooses faces, so a choice is a multiset
of faces, offered once (``discard JH JH`` takes both jacks of hearts held); its ids count each
face's cards chosen; one-card mode offers a face again while a card of it is left; random play
conserves the pack; the adapters, the resampler and the native build take it.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from helpers import assert_native_plays_as_cpython
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter.errors import IllegalActionError
from interpreter.state.face_selection import FaceSelection
from interpreter.state.legal import Selection

GAME = """\
tricklang 1
game "Double laying away"
players 2
role elder = left of dealer
deck
  suits hearts red, spades black
  ranks A K Q J
  copies 2
zone hand: per player, owner
zone stock: shared, hidden, pack
zone laid_away: per player, hidden
zone won: per player, public
points
  "Ace" A = 11
  "King" K = 4
match
  at most 3 deals
deal
  deal 6 to each from elder
  dealer takes all from stock and keeps 6, the rest to laid_away of dealer
  elder discards 1..2 to laid_away of elder
  trump is hearts
  tricks count(hand of elder), elder leads first
    must follow suit
  for each player:
    player scores points(player)
"""
RULES = tricklang.loads(GAME, path="double-laying-away.trick")
TAKE_AND_SHOW = tricklang.loads(GAME.replace(
    "  deal 6 to each from elder\n  dealer takes all from stock and keeps 6, the rest to laid_away of dealer\n",
    "  deal 5 to each from elder\n  dealer takes 1..3 from stock\n  elder shows 1..2 matching hearts\n"),
    path="double-taking-and-showing.trick")
"""The other card choices: taking from the stock, showing cards (which stay in the hand)."""
FACES = [r + s for s in "HS" for r in "AKQJ"]


def hand(state: interpreter.State, seat: int) -> list[str]:
    return list(state.observation(seat)["zones"]["hand"][str(seat)]["cards"])


def laying_away(seed: int = 1, **kwargs: object) -> interpreter.State:
    """A new match at the dealer's choice of the 4 cards to lay away from 10."""
    state = interpreter.new_game(RULES, seed=seed, **kwargs)  # type: ignore[arg-type]
    decision = state.decision
    assert decision is not None and decision.kind == "select" and (decision.low, decision.high) == (4, 4)
    return state


def a_held_pair(state: interpreter.State) -> str:
    return next(face for face, k in Counter(hand(state, state.current_player)).items() if k == 2)


def pack_counts(state: interpreter.State) -> Counter[str]:
    """Every card in a zone or the trick, by face."""
    obs = state.observation(None)
    out: Counter[str] = Counter()
    for zone in obs["zones"].values():
        for part in zone.values() if "count" not in zone else [zone]:
            out.update(part.get("cards", []))
    out.update(card for _, card in obs["trick"])
    return out


def test_the_checker_takes_card_choices_from_a_pack_with_copies() -> None:
    assert RULES.rules.deck is not None and RULES.rules.deck.copies == 2


def test_a_choice_is_offered_once_per_multiset_of_faces() -> None:
    for seed in range(8):
        state = laying_away(seed)
        cards = hand(state, state.current_player)
        assert len(cards) == 10
        want = {tuple(c) for c in combinations(cards, 4)}  # the hand is listed in the selection's order
        texts = state.legal_actions().texts()
        assert len(texts) == len(set(texts)) == len(want) < 210  # not C(10, 4) index subsets
        assert set(texts) == {"discard " + " ".join(c) for c in want}
        assert [len(t.split()) for t in texts] == sorted(len(t.split()) for t in texts)


def test_discarding_a_face_twice_lays_away_both_cards_of_it() -> None:
    state = laying_away()
    seat, pair = state.current_player, a_held_pair(state)
    others = [c for c in dict.fromkeys(hand(state, seat)) if c != pair][:2]
    before = Counter(hand(state, seat))
    state.apply(f"discard {pair} {others[1]} {pair.lower()} {others[0]}")  # any order, any case
    after = Counter(hand(state, seat))
    assert after[pair] == 0 and before - after == Counter({pair: 2, others[0]: 1, others[1]: 1})
    laid = state.observation(None)["zones"]["laid_away"][str(seat)]["cards"]  # (hidden: the whole view)
    assert Counter(laid) == before - after


def test_a_face_named_more_times_than_held_is_refused_and_changes_nothing() -> None:
    state = laying_away()
    seat = state.current_player
    single = next(face for face, k in Counter(hand(state, seat)).items() if k == 1)
    pair = a_held_pair(state)
    saved = state.to_json()
    with pytest.raises(IllegalActionError, match="named more times than seat"):
        state.apply(f"discard {single} {single} {pair} {pair}")
    with pytest.raises(IllegalActionError):
        state.apply(f"discard {pair} {pair} {pair} {single}")
    assert state.to_json() == saved


def test_face_selection_ranks_and_unranks_every_choice() -> None:
    codes = ["AH", "AH", "KH", "KH", "QH", "QH"]
    sel = FaceSelection("discard", (0, 1, 2, 4, 5), 0, 3, codes)
    acts = list(sel)
    brute = sorted({tuple(codes[c] for c in combo) for k in range(4) for combo in combinations(sel.cards, k)},
                   key=lambda t: (len(t), [["AH", "KH", "QH"].index(f) for f in t]))
    assert [a.args for a in acts] == [("none",), *brute[1:]]
    for i, a in enumerate(acts):
        assert sel[i] == a and sel.find(a.args) == i and sel.rank(sel.unrank(i)) == i
        assert [codes[c] for c in sel.unrank(i)] == ([] if a.args == ("none",) else list(a.args))
    one = [0, 2, 4]  # one card of each face: exactly the subsets of Selection
    assert list(FaceSelection("d", tuple(one), 1, 2, codes)) == list(Selection("d", tuple(one), 1, 2, codes))


def test_ids_round_trip_and_count_each_faces_cards() -> None:
    state = laying_away()
    space_size = state.num_distinct_actions
    assert space_size >= 3 ** len(FACES)  # the cards block: a digit 0..2 per face
    ids = state.legal_action_ids()
    assert len(ids) == len(set(ids)) == len(state.legal_actions()) and ids == sorted(ids)
    for i in ids:
        action = state.action_from_id(i)
        assert state.action_id(action) == i and action in state.legal_actions()
    pair = a_held_pair(state)
    rest = [c for c in dict.fromkeys(hand(state, state.current_player)) if c != pair][:2]
    text = " ".join(sorted([pair, pair, *rest], key=hand(state, state.current_player).index))
    i = state.action_id(f"discard {text}")
    assert i in ids and state.action_from_id(i).text == f"discard {text}"
    seat = state.current_player
    state.apply_id(i)
    assert Counter(hand(state, seat))[pair] == 0


def test_one_card_mode_offers_a_face_again_while_a_card_of_it_is_left() -> None:
    state = laying_away(selections="one_card")
    seat, pair = state.current_player, a_held_pair(state)
    texts = state.legal_actions().texts()
    assert len(texts) == len(set(texts)) == len(set(hand(state, seat)))  # each face once; no `done` before 4
    face_id = state.action_id(f"discard {pair}")
    assert face_id in state.legal_action_ids()
    state.apply_id(face_id)
    assert f"discard {pair}" in state.legal_actions() and face_id in state.legal_action_ids()
    state.apply(f"discard {pair}")
    assert f"discard {pair}" not in state.legal_actions() and face_id not in state.legal_action_ids()
    with pytest.raises(IllegalActionError):
        state.apply(f"discard {pair}")
    rest = [c for c in dict.fromkeys(hand(state, seat)) if c != pair][:2]
    state.apply(f"discard {rest[0]}")
    assert state.picks == [pair, pair, rest[0]]
    back = interpreter.State.from_json(state.to_json())
    assert back.picks == state.picks and back.legal_actions() == state.legal_actions()
    state.apply(f"discard {rest[1]}")  # the fourth: the choice is made
    assert Counter(hand(state, seat))[pair] == 0 and len(hand(state, seat)) == 6
    # The elder's 1..2: `done` after one card, and a face of two may be picked twice.
    elder = state.current_player
    assert state.decision is not None and (state.decision.low, state.decision.high) == (1, 2)
    face = next(iter(hand(state, elder)))
    state.apply(f"discard {face}")
    assert "done" in state.legal_actions()
    state.apply_id(state.action_id("done"))
    assert len(hand(state, elder)) == 5


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), one_card=st.booleans(), rules=st.sampled_from([RULES, TAKE_AND_SHOW]))
def test_random_play_never_errs_and_conserves_the_pack(seed: int, one_card: bool, rules: tricklang.Ruleset) -> None:
    state = interpreter.new_game(rules, seed=seed, selections="one_card" if one_card else "all")
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        decision = state.decision
        if decision is not None and decision.kind == "select":
            texts = state.legal_actions().texts()
            assert len(texts) == len(set(texts))
        if rng.random() < 0.5:
            state.apply_id(rng.choice(state.legal_action_ids()))
        else:
            state.apply(state.sample_action(rng))
        assert pack_counts(state) == Counter({face: 2 for face in FACES})
        steps += 1
    assert steps > 10
    kinds = {e["type"] for e in state.events(None)}
    assert "shown" in kinds or rules is RULES


def test_a_laid_away_card_resamples_and_the_seat_sees_the_same() -> None:
    state = laying_away(3)
    state.apply(state.legal_actions()[5])
    state.apply(state.legal_actions()[0])
    redealt = []
    for seat in (0, 1):
        for k in range(4):
            world = state.resample(seat, random.Random(k))
            other = str(1 - seat)
            redealt.append(world.observation(None)["zones"]["laid_away"][other] !=
                           state.observation(None)["zones"]["laid_away"][other])
            assert world.observation(seat) == state.observation(seat)
            if seat == state.current_player:
                assert world.legal_actions() == state.legal_actions()
            assert pack_counts(world) == Counter({face: 2 for face in FACES})
    assert any(redealt)  # the other seat's laid-away cards, hidden, were dealt again


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Action mask numpy array is all zeros:UserWarning")
def test_the_adapters_take_a_double_pack_with_choices(tmp_path: Path) -> None:
    path = tmp_path / "double-laying-away.trick"
    path.write_text(GAME)
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.embedding.openspiel import load_game

    pyspiel.random_sim_test(load_game(path), num_sims=3, serialize=True, verbose=False)
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    from interpreter.embedding.pettingzoo import TrickEnv

    pettingzoo_test.api_test(TrickEnv(path), num_cycles=300)


@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_as_cpython() -> None:
    from interpreter import native

    if native.unavailable() is not None:
        pytest.skip(f"no native builds here: {native.unavailable()}")
    assert_native_plays_as_cpython(tricklang.loads(GAME, path="native-double-laying-away.trick"), range(4),
                                   playout=True, step=True)
