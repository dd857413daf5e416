"""Issue 28, section 3: cards moved in the middle of trick play (``InPlay.Move``), written as
`move` is in the deal. The use that needs it most: two-handed games in which, after each
trick, the winner and then the other player draw a card from the stock.

Scripted deals of such a game (three cards each, a stock of 26): the stock's top card goes to
the winner and the next one to the other player after every trick, until the stock is empty;
the players then play their hands out (16 tricks in all). A drawn card is seen by its new
holder only; the pack is whole at every step; the harness finds nothing wrong; a native build
plays what CPython plays; and 'move' in a declaration's effect moves as well.
"""

from __future__ import annotations

import random

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native
from interpreter.harness import check_invariants

GAME = """\
tricklang 1
game "Draw after each trick"
players 2
role elder = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
zone aside: per player, public
match
  at most 2 deals
deal
  deal 3 to each from elder
  tricks 16, elder leads first
    must follow suit
    declare lay_aside, at own turn when count(hand of declarer matching 7) > 0 and count(aside of declarer) == 0:
      move 1 matching 7 from hand of declarer to aside of declarer
    after each trick:
      if count(stock) > 0:
        move 1 from stock to hand of winner
        move 1 from stock to hand of left of winner
  for each player:
    player scores tricks(player)
"""
RULES = tricklang.loads(GAME, path="draw.trick")
ALL = [r + s for s in "SHDC" for r in "A K Q J 10 9 8 7".split()]


def new() -> interpreter.State:
    # Seat 1 (elder) is dealt AS KS QS, seat 0 JS 10S 9S; the stock's top is then 8S, 7S, AH...
    return interpreter.new_game(RULES, deck=ALL, dealer=0)


def hand(state: interpreter.State, seat: int) -> list[str]:
    cards: list[str] = state.observation(None)["zones"]["hand"][str(seat)]["cards"]
    return sorted(cards)


def test_the_winner_then_the_other_player_draw_from_the_stock_after_each_trick() -> None:
    state = new()
    state.apply("play AS")
    state.apply("play 9S")  # seat 1 wins with the ace
    assert hand(state, 1) == sorted(["KS", "QS", "8S"])
    assert hand(state, 0) == sorted(["JS", "10S", "7S"])
    assert state.observation(None)["zones"]["stock"]["count"] == 24
    state.apply("play KS")
    state.apply("play JS")  # seat 1 again: the ace of hearts, then the king
    assert "AH" in hand(state, 1) and "KH" in hand(state, 0)


def test_a_drawn_card_is_seen_by_its_new_holder_only() -> None:
    state = new()
    state.apply("play AS")
    state.apply("play 9S")
    mine = state.observation(1)["zones"]["hand"]
    assert "8S" in mine["1"]["cards"]
    assert mine["0"] == {"count": 3}  # the other hand: its size only
    assert state.observation(0)["zones"]["hand"]["1"] == {"count": 3}
    seen_by_0 = [e for e in state.events(0) if "8S" in str(e)]
    assert seen_by_0 == []


def pack(state: interpreter.State) -> list[str]:
    """Every card where it is now: the zones and the trick in progress."""
    view = state.observation(None)
    cards = [card for _, card in view["trick"]]
    for instances in view["zones"].values():
        for zone in instances.values() if "count" not in instances else [instances]:
            cards += zone["cards"]
    return sorted(cards)


def test_the_whole_deal_is_played_out_with_the_pack_whole_at_every_step() -> None:
    rng = random.Random(5)
    state = interpreter.new_game(RULES, seed=5)
    while not state.is_terminal():
        assert pack(state) == sorted(ALL)
        state.apply(state.sample_action(rng))
    tricks, aside = [0, 0], [0, 0]
    deal = -1
    for e in state.events(None):
        deal += e["type"] == "deal"
        tricks[deal] += e["type"] == "trick"
        aside[deal] += e["type"] == "declare"
    # The stock was drawn to the end: every card not laid aside was played (a trick whose second
    # player has no card left is played by the first alone)
    assert tricks == [(33 - aside[0]) // 2, (33 - aside[1]) // 2]
    assert aside != [0, 0]


def test_a_declaration_moves_a_card_aside() -> None:
    state = interpreter.new_game(RULES, deck=["7S", "AS", "KS", *[c for c in ALL if c not in ("7S", "AS", "KS")]],
                                 dealer=0)
    assert "declare lay_aside" in {a.text for a in state.legal_actions()}
    state.apply("declare lay_aside")
    assert state.observation(0)["zones"]["aside"]["1"]["cards"] == ["7S"]
    assert "7S" not in hand(state, 1) and len(hand(state, 1)) == 2


@pytest.mark.parametrize("seed", range(4))
def test_the_harness_finds_nothing_wrong(seed: int) -> None:
    report = check_invariants(RULES, seed=seed, finish=True, stop_on_first=False)
    assert report.violations == []


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_moves_as_cpython_does() -> None:
    rules = tricklang.loads(GAME, path="native-moves.trick")
    assert_native_plays_as_cpython(rules, range(6), step=True)
