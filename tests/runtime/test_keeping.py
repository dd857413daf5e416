"""`P takes any|all from Z and keeps N`, `cut Z` and `move ... to bottom of Z`, on a small game."""

from __future__ import annotations

from itertools import combinations

import pytest

import interpreter
import tricklang
from interpreter.transcript import render

GAME = """tricklang 1
game "Widow"
players 2
deck
  suits spades black, hearts red
  ranks A K Q J 10 9
zone hand: per player, owner
zone stock: shared, hidden, pack
zone widow: shared, hidden
zone buried: per player, hidden
zone won: per player, public
deal
  deal 3 to each
  move 3 from stock to widow
  dealer takes any from widow and keeps 3 as pick, the rest to buried of dealer
  tricks 3, left of dealer leads first
"""
DECK = ["AS", "KS", "QS", "AH", "KH", "QH", "JS", "10S", "9S", "JH", "10H", "9H"]  # dealing order


def started() -> interpreter.State:
    return interpreter.new_game(tricklang.loads(GAME), deck=DECK, dealer=1)


def test_every_set_of_n_cards_of_hand_and_widow_together_can_be_kept() -> None:
    hand = set(started().hand(1))
    widow = set(started().zone("widow"))
    reachable = set()
    state = started()
    for take in state.legal_actions():
        after = state.clone()
        after.apply(take)
        for drop in after.legal_actions() if after.current_player == 1 and after.phase == "discard" else [None]:
            final = after.clone()
            if drop is not None:
                final.apply(drop)
            reachable.add(frozenset(final.hand(1)))
    assert reachable == {frozenset(c) for c in combinations(sorted(hand | widow), 3)}
    for kept in reachable:
        assert len(kept) == 3


def test_what_he_does_not_keep_goes_to_the_rest_zone_unseen_by_the_other_player() -> None:
    state = started()
    widow = list(state.zone("widow"))
    state.apply("pick " + widow[0])
    own = state.hand(1)[0]
    state.apply(f"discard {own}")
    assert sorted(state.zone("buried", 1)) == sorted([own, *widow[1:]]) and state.zone("widow") == []
    assert sum(len(state.hand(p)) for p in range(2)) == 6
    other = render(state, player=0)
    assert widow[1] not in other and own not in other
    assert "seat 1 picks 1 card" in other and "seat 1 discards 1 card" in other


TAKES_ALL = GAME.replace("takes any from widow and keeps 3 as pick", "takes all from widow and keeps 3")


def test_takes_all_puts_the_whole_widow_in_his_hand_and_his_one_choice_is_the_discard() -> None:
    """`takes all`: no choice of what to take; every set of three of hand and widow can
    still be kept, by the discard alone, and the other player learns only how many."""
    state = interpreter.new_game(tricklang.loads(TAKES_ALL), deck=DECK, dealer=1)
    both = set(started().hand(1)) | set(started().zone("widow"))
    assert state.current_player == 1 and state.phase == "discard" and set(state.hand(1)) == both
    assert state.zone("widow") == []
    kept = set()
    for drop in state.legal_actions():
        after = state.clone()
        after.apply(drop)
        kept.add(frozenset(after.hand(1)))
        assert sorted(after.zone("buried", 1)) == sorted(both - set(after.hand(1)))
        other = render(after, player=0)
        assert not (both - set(after.hand(0))) & set(other.split())  # no card of his named to seat 0
        assert "seat 1 discards 3 cards" in other
    assert kept == {frozenset(c) for c in combinations(sorted(both), 3)}


def test_with_no_more_cards_than_n_there_is_no_decision() -> None:
    text = GAME.replace("move 3 from stock to widow", "move 0 from stock to widow")
    state = interpreter.new_game(tricklang.loads(text), deck=DECK, dealer=1)
    assert state.phase == "play"


@pytest.mark.parametrize("seed", range(5))
def test_a_cut_moves_a_random_part_of_the_top_under_the_rest(seed: int) -> None:
    text = GAME.replace("  move 3 from stock to widow\n", "  cut stock\n  move 3 from stock to widow\n")
    plain = interpreter.new_game(tricklang.loads(GAME), seed=seed, dealer=1)
    cut = interpreter.new_game(tricklang.loads(text), seed=seed, dealer=1)
    before = plain.zone("widow")  # the top three of the uncut stock, top first
    [event] = [e for e in cut.events(None) if e["type"] == "cut"]
    assert 1 <= event["count"] <= 5
    stock_before = plain.zone("stock") + list(reversed(before))
    k = event["count"]
    expected = stock_before[len(stock_before) - k:] + stock_before[:len(stock_before) - k]
    assert cut.zone("stock") + list(reversed(cut.zone("widow"))) == expected


def test_cards_moved_to_the_bottom_go_under_the_others() -> None:
    text = GAME.replace("  move 3 from stock to widow\n", "  move 3 from stock to widow\n  move 1 from widow to bottom of stock\n")
    state = interpreter.new_game(tricklang.loads(text), deck=DECK, dealer=1)
    plain = interpreter.new_game(tricklang.loads(GAME), deck=DECK, dealer=1)
    top_of_widow = plain.zone("widow")[-1]
    assert state.zone("stock")[0] == top_of_widow and top_of_widow not in state.zone("widow")
    assert "to the bottom of stock" in render(state)
