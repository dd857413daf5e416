"""Issue 28, design 3.3's `suit_ranks` and 3.4's Tarot deck, the runtime half: a suit with ranks
of its own (`ranks in atouts 21 20 ... 1`), played by the one code generator.

Scripted deals of a small game whose atouts have their own ranks (21 20 19 18 17 1) prove the
trick is won by 21T over 20T, players follow the atouts suit and trump with it, a plain suit's
K beats its Q, and the cards' codes (`21T`, `1T`) are in actions, events and records. The full
78-card pack (a wide pack: more than 64 cards) deals every card once; the native build plays
what CPython plays, for both.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native
from interpreter.record import Record

ATOUTS = """\
tricklang 1
game "Atouts"
players 3
deck
  suits spades black, hearts red, atouts "T" special
  ranks K Q J 10
  ranks in atouts 21 20 19 18 17 1
  card excuse "EX"
zone hand: per player, owner
zone won: per player, public
zone stock: shared, hidden, pack
points
  "oudlers" 21 of atouts or 1 of atouts or excuse = 9
  "kings" K = 5
  "no such card" K of atouts or 21 of spades = 100
match
  at most 2 deals
deal
  deal 5 to each
  trump is atouts
  tricks 5, left of dealer leads first
    must follow suit
    must trump if void
  for each player:
    player scores points(player)
"""
FACES = ([r + "S" for r in "K Q J 10".split()] + [r + "H" for r in "K Q J 10".split()]
         + [f"{n}T" for n in (21, 20, 19, 18, 17, 1)] + ["EX"])
HANDS = {1: "20T 1T KS QH JH", 2: "21T 19T QS KH 10H", 0: "18T 17T JS 10S EX"}


def pack(hands: dict[int, str] = HANDS) -> list[str]:
    order = [card for seat in (1, 2, 0) for card in hands[seat].split()]
    assert sorted(order) == sorted(FACES), "each card of the pack exactly once"
    return order


def new(text: str = ATOUTS) -> interpreter.State:
    return interpreter.new_game(tricklang.loads(text, path="atouts.trick"), deck=pack(), dealer=0)


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def play(state: interpreter.State, *cards: str) -> interpreter.State:
    for card in cards:
        state.apply(f"play {card}")
    return state


def winners(state: interpreter.State) -> list[int]:
    return [e["winner"] for e in state.events(None) if e["type"] == "trick"]


def test_the_pack_is_each_suit_s_own_ranks() -> None:
    state = new()
    assert state.cards == FACES
    assert state.hand(2) == ["21T", "19T", "QS", "KH", "10H"]  # trumps first, high to low


def test_21_of_atouts_wins_over_20_and_the_atouts_are_followed() -> None:
    state = play(new(), "20T")
    assert plays(state) == ["19T", "21T"]  # atouts led: seat 2 follows with its atouts
    play(state, "21T")
    assert plays(state) == ["17T", "18T"]  # the Excuse is in no suit: it does not follow atouts
    play(state, "17T")
    assert winners(state) == [2]
    assert state.card_strength("21T") > state.card_strength("1T") > 1000


def test_a_void_player_trumps_with_an_atout_and_a_king_beats_a_queen() -> None:
    state = play(new(), "20T", "21T", "17T", "KH")
    assert plays(state) == ["18T"]  # void in hearts: he must trump
    play(state, "18T", "QH")
    assert winners(state) == [2, 0]
    play(state, "JS")
    assert plays(state) == ["KS"]
    play(state, "KS", "QS")
    assert winners(state) == [2, 0, 1]  # the king of spades over the queen


def test_under_a_plain_trump_the_atouts_are_a_plain_suit_ranked_by_their_own_order() -> None:
    state = play(new(ATOUTS.replace("trump is atouts", "trump is hearts")), "20T", "21T", "18T")
    assert winners(state) == [2]
    assert not state.is_trump("21T") and state.is_trump("KH")


def test_the_points_read_the_atouts_by_their_own_ranks() -> None:
    state = new()
    state.playout(random.Random(1), deal=True)
    deal_end = next(e for e in state.events(None) if e["type"] == "deal_end")
    assert sum(deal_end["scores"]) == 3 * 9 + 2 * 5  # no card is the king of atouts or the 21 of spades


def test_codes_are_in_actions_events_and_records(tmp_path: Path) -> None:
    state = play(new(), "20T", "21T")
    assert [e["card"] for e in state.events(None) if e["type"] == "play"] == ["20T", "21T"]
    space = [state.action_from_id(i).text for i in range(state.num_distinct_actions)]
    assert [t for t in space if t.startswith("play ")] == [f"play {c}" for c in FACES]
    path = tmp_path / "atouts.trick"
    path.write_text(ATOUTS, encoding="utf-8")
    played = interpreter.new_game(tricklang.load(path), seed=4)
    played.playout(random.Random(4))
    saved = Record.from_state(played).save(tmp_path / "game.json")
    assert Record.load(saved).replay().to_dict() == played.to_dict()


def test_resampling_redeals_the_hidden_atouts() -> None:
    state = play(new(), "20T", "21T")
    seen = set()
    for k in range(10):
        world = state.resample(0, random.Random(k))
        assert world.observation(0) == state.observation(0)
        seen.add(tuple(sorted(world.hand(1))))
    assert len(seen) > 1 and all("20T" not in hand for hand in seen)  # played cards stay where they are


TAROT = """\
tricklang 1
game "Tarot pack"
players 4
deck
  suits spades black, hearts red, diamonds red, clubs black, atouts "T" special
  ranks K Q C J 10 9 8 7 6 5 4 3 2 1
  ranks in atouts 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1
  card excuse "EX"
zone hand: per player, owner
zone won: per player, public
zone stock: shared, hidden, pack
points
  "oudlers" 21 of atouts or 1 of atouts or excuse = 9
  "kings" K = 9
match
  at most 1 deals
deal
  deal 18 to each
  trump is atouts
  tricks 18, left of dealer leads first
    must follow suit
    must trump if void
    may play excuse at any time
    the suit led is not set by excuse
    a trick is never won by excuse when not last_trick
  for each player:
    player scores points(player)
"""


def test_the_78_card_pack_deals_every_card_once_and_the_21_is_never_beaten() -> None:
    for seed in range(3):
        state = interpreter.new_game(tricklang.loads(TAROT, path="tarot.trick"), seed=seed)
        assert len(state.cards) == 78 and state.cards[56] == "21T" and state.cards[-1] == "EX"
        held = [c for p in range(4) for c in state.hand(p)]
        assert len(held) == len(set(held)) == 72
        state.playout(random.Random(seed))
        events = state.events(None)
        for trick in (e for e in events if e["type"] == "trick"):
            if "21T" in trick["cards"]:
                assert trick["winner"] == trick["players"][trick["cards"].index("21T")]
        played = [e["card"] for e in events if e["type"] == "play"]
        worth = sum(9 for c in played if c in ("21T", "1T", "EX") or c.startswith("K"))
        assert len(played) == 72 and sum(state.scores) == worth  # the six cards of the stock count for no one


# ---------------------------------------------------------------- native


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
@pytest.mark.parametrize(("text", "path"), [(ATOUTS, "native-atouts.trick"), (TAROT, "native-tarot.trick")])
def test_the_native_build_plays_what_cpython_plays(text: str, path: str) -> None:
    ruleset = tricklang.loads(text, path=path)
    assert_native_plays_as_cpython(ruleset, range(6))
