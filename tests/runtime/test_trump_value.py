"""`trump is EXPR` (design 3.3, 3.7): a suit or a card order as a value selects the trumps, as
Bridge's `trump is strain of bid` does; a strain that is a named order puts that order in force."""

from __future__ import annotations

import pytest

import interpreter
import tricklang
from tricklang.diagnostics import RulesError

GAME = """\
tricklang 1
game "Strains"
players 4 in partnerships 0 2, 1 3
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9
order grand
  trumps (J of spades) (J of hearts) (J of diamonds) (J of clubs)
bids calls
  levels 1..2 in clubs, hearts, spades, no_trump "NT", grand "G"
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
match
  at most 1 deals
deal
  deal 6 to each
  auction until 3 passes from dealer, bids calls
    if all pass: no contract
  if bid != no_bid:
    trump is strain of bid
  tricks 6, left of dealer leads first
    must follow suit
  for each side:
    side scores tricks(side)
"""


def contract(call: str) -> interpreter.State:
    state = interpreter.new_game(tricklang.loads(GAME, path="strains.trick"), seed=4, dealer=0)
    for action in (call, "pass", "pass", "pass"):
        state.apply(action)
    return state


@pytest.mark.parametrize(("call", "trump"), [("bid 1S", "spades"), ("bid 2H", "hearts"), ("bid 1C", "clubs")])
def test_a_suit_strain_makes_that_suit_trumps(call: str, trump: str) -> None:
    state = contract(call)
    assert [e["suit"] for e in state.events(None) if e["type"] == "trump"] == [trump]
    assert state.observation(None)["trump"] == trump


def test_no_trump_leaves_no_trump_suit() -> None:
    state = contract("bid 1NT")
    assert state.observation(None)["trump"] in (None, "none")
    assert not any(state.is_trump(c) for c in state.hand(1))


def test_a_strain_that_is_a_named_order_puts_the_order_in_force() -> None:
    state = contract("bid 2G")
    events = [e for e in state.events(None) if e["type"] == "trump"]
    assert len(events) == 1 and events[0].get("order") == "grand"
    jacks = [c for p in range(4) for c in state.hand(p) if c.startswith("J")]
    others = [c for p in range(4) for c in state.hand(p) if not c.startswith("J")]
    assert all(state.is_trump(c) for c in jacks) and not any(state.is_trump(c) for c in others)


def test_trump_is_a_number_is_a_type_error() -> None:
    with pytest.raises(RulesError) as err:
        tricklang.loads(GAME.replace("trump is strain of bid", "trump is 3"), path="strains.trick")
    assert "type-error" in str(err.value) or "expected a suit" in str(err.value)


def test_an_order_that_is_only_a_strain_is_not_unused() -> None:
    rules = tricklang.loads(GAME, path="strains.trick")
    assert not [w for w in rules.warnings if w.code == "unused-order"]
    unused = tricklang.loads(GAME.replace(', grand "G"', ""), path="strains.trick")
    assert [w.code for w in unused.warnings] == ["unused-order"]
