"""Issue 28, the runtime half of `for each` in the middle of trick play (``InPlay.ForEach``):
a hook's or a declaration's effect may loop over the players or the sides, as Doppelkopf's fox
could be written with a loop instead of seat by seat.

Scripted deals of a two-player game: after each trick, a loop over the players finds an ace
lost to the other party (a fox); after a king is played, a loop over the players but the one
who played it scores them, and `player` names the hook's player again after the loop; a
declaration's effect scores every side. The harness finds nothing wrong, and a native build
plays what CPython plays.
"""

from __future__ import annotations

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native
from interpreter.harness import check_invariants

GAME = """\
tricklang 1
game "Loops"
players 2
role eldest = left of dealer
deck
  suits spades black, hearts red
  ranks A K Q J 10 9
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 2 deals
deal
  deal 6 to each from eldest
  trump is hearts
  tricks 6, eldest leads first
    must follow suit
    declare hello, before own first card:
      for each side:
        side scores 5 "hello"
    after playing K:
      for each player except player:
        player scores 2 "saw a king"
      player scores 3 "played a king"
    after each trick:
      for each player:
        if the card played by player is A and player != winner:
          winner scores 1 "fox"
"""
RULES = tricklang.loads(GAME, path="loops.trick")
ALL = [r + s for s in "SH" for r in "A K Q J 10 9".split()]


def new(eldest: str, rules: tricklang.Ruleset = RULES) -> interpreter.State:
    """Dealer 0: seat 1 (eldest, who leads first) gets ``eldest``, seat 0 the other six cards."""
    mine = eldest.split()
    return interpreter.new_game(rules, deck=[*mine, *(c for c in ALL if c not in mine)], dealer=0)


def scores(state: interpreter.State) -> list[tuple[int, str, int]]:
    return [(e["side"], e["label"], e["points"]) for e in state.events(None) if e["type"] == "score"]


def test_a_loop_after_each_trick_finds_the_fox_and_a_loop_on_a_card_scores_the_others() -> None:
    state = new("AH KH QH JH 10H KS")  # seat 0: 9H AS QS JS 10S 9S
    state.apply("play AH")
    state.apply("play 9H")  # seat 1 wins with his own ace: no fox
    assert scores(state) == []
    state.apply("play KH")  # a king: seat 0 saw it, seat 1 played it (`player` is his again after the loop)
    assert scores(state) == [(0, "saw a king", 2), (1, "played a king", 3)]
    state.apply("play AS")  # seat 0 is void of hearts: his ace is lost to seat 1, a fox
    assert scores(state)[-1] == (1, "fox", 1)
    assert [s for s in scores(state) if s[1] == "fox"] == [(1, "fox", 1)]


def test_a_loop_in_a_declarations_effect_scores_every_side() -> None:
    state = new("AH KH QH JH 10H KS")
    state.apply("declare hello")
    assert scores(state) == [(0, "hello", 5), (1, "hello", 5)]


WAITING = GAME.replace('''      player scores 3 "played a king"
''', '''      player scores 3 "played a king"
      player shows 1
''')
assert WAITING != GAME


def test_in_a_hook_that_decides_the_loop_gives_the_hooks_player_back() -> None:
    rules = tricklang.loads(WAITING, path="waiting.trick")  # (its hooks on a card run as blocks)
    state = new("AH KH QH JH 10H KS", rules)
    state.apply("play AH")
    state.apply("play 9H")
    state.apply("play KH")
    assert scores(state) == [(0, "saw a king", 2), (1, "played a king", 3)]
    assert state.current_player == 1 and state.phase == "show"  # the hook's player shows a card


LOOP_WAITS = GAME.replace('''      for each player except player:
        player scores 2 "saw a king"
''', '''      for each player except player:
        player scores 2 "saw a king"
        player shows 1
''')
assert LOOP_WAITS != GAME


def test_a_loop_that_decides_in_a_hook_gives_the_hooks_player_back() -> None:
    rules = tricklang.loads(LOOP_WAITS, path="loop-waits.trick")  # (the loop itself runs as blocks)
    state = new("AH KH QH JH 10H KS", rules)
    for card in ("AH", "9H", "KH"):
        state.apply(f"play {card}")
    assert state.current_player == 0 and state.phase == "show"  # seat 0, in the loop, shows a card
    state.apply("show AS")
    assert scores(state) == [(0, "saw a king", 2), (1, "played a king", 3)]
    assert state.current_player == 0 and state.current_trick == [(1, "KH")]  # the trick goes on


@pytest.mark.parametrize("text", [GAME, WAITING, LOOP_WAITS], ids=["effects", "blocks", "loop-blocks"])
def test_the_harness_finds_nothing_wrong(text: str) -> None:
    rules = tricklang.loads(text, path="loops.trick")
    for seed in range(3):
        report = check_invariants(rules, seed=seed, finish=True, stop_on_first=False)
        assert report.violations == []



@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
@pytest.mark.parametrize("text", [GAME, WAITING, LOOP_WAITS], ids=["effects", "blocks", "loop-blocks"])
def test_the_native_build_loops_in_hooks_as_cpython_does(text: str) -> None:
    rules = tricklang.loads(text, path="native-loops.trick")
    python = assert_native_plays_as_cpython(rules, range(12), step=True)
    assert any(e["type"] == "score" and e["label"] == "fox" for _, events in python for e in events)
