"""Issue 28 step 8: `play passes right` (design 3.10, French Tarot [FT1]).

Under it the next seat is the one on the right in trick play, auctions, `for each player`
and `deal N to each` (which starts on the dealer's right); `left of` and `right of` keep
their table meaning. A file that says `play passes left`, or nothing, compiles to the very
same module as before; the native build plays what CPython plays.
"""

from __future__ import annotations

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native
from interpreter.codegen import generate
from interpreter.harness import check_invariants

GAME = """\
tricklang 1
game "Widdershins"
players 4
play passes right                                                  [FT1]
deck
  suits spades black, hearts red
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 2 deals
deal
  deal 1 then 1 to each
  auction once around from left of dealer, bids 1..3
    if all pass: dealer makes at 1
  for each player:
    player scores 1 "roll call"
  tricks 2, left of dealer leads first
    must follow suit
  for each player:
    player scores tricks(player)
"""
LEFT = GAME.replace("play passes right", "play passes left")
PLAIN = GAME.replace("play passes right                                                  [FT1]", "# (clockwise)")


def new(text: str = GAME) -> interpreter.State:
    return interpreter.new_game(tricklang.loads(text, path="w.trick"), seed=7, dealer=0)


def test_dealing_goes_right_from_the_dealers_right() -> None:
    dealt = [e["player"] for e in new().events(None) if e["type"] == "dealt"]
    assert dealt == [3, 2, 1, 0]  # (the packets of a seat in one event)
    dealt = [e["player"] for e in new(PLAIN).events(None) if e["type"] == "dealt"]
    assert dealt == [1, 2, 3, 0]


def test_the_auction_the_loops_and_the_tricks_go_right() -> None:
    state = new()
    bidders = []
    while state.phase == "auction":
        bidders.append(state.current_player)
        state.apply("pass")
    assert bidders == [1, 0, 3, 2]  # from the left of the dealer (a table seat), then to the right
    roll = [e["side"] for e in state.events(None) if e["type"] == "score" and e["label"] == "roll call"]
    assert roll == [3, 2, 1, 0]  # 'for each player' starts where dealing does
    turns = []
    while state.deal_number == 1 and not state.is_terminal():
        turns.append(state.current_player)
        state.apply(state.legal_actions()[0])
    assert turns[:4] == [1, 0, 3, 2]


def test_an_auction_over_a_bid_table_goes_right_too() -> None:
    text = GAME.replace("zone hand:", "bids contracts\n  petite worth 1\n  garde worth 2\nzone hand:").replace(
        "bids 1..3\n    if all pass: dealer makes at 1", "bids contracts\n    if all pass: redeal")
    state = new(text)
    bidders = []
    while state.phase == "auction":
        bidders.append(state.current_player)
        state.apply("bid petite" if not bidders[1:] else "pass")
    assert bidders == [1, 0, 3, 2]  # French Tarot's bidding [FT4]


def test_left_said_or_unsaid_compiles_to_the_same_module() -> None:
    plain = generate(tricklang.loads(PLAIN, path="w.trick")).source
    assert generate(tricklang.loads(LEFT, path="w.trick")).source == plain
    assert generate(tricklang.loads(GAME, path="w.trick")).source != plain


def test_the_harness_finds_no_violation() -> None:
    rules = tricklang.loads(GAME, path="w.trick")
    for seed in range(3):
        report = check_invariants(rules, seed=seed, max_actions=40, finish=True)
        assert report.ok, report





@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    rules = tricklang.loads(GAME, path="native-w.trick")
    assert_native_plays_as_cpython(rules, range(8))
