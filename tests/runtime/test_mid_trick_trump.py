"""Issue 28, the runtime half of `trump is` in the middle of a trick (``InPlay.SetTrump``, design
3.6): a trump concealed until a player who cannot follow calls for it, as in Twenty-eight. The
trick in progress is decided under the order in force when it completes, and its suit led,
once set, is kept (design section 6, decision 5).

Scripted deals of a two-player game with no trump at first: a player void in the suit led may
declare `call_trump` (hearts become trumps) and then wins the trick with a small heart, which
would lose without the call; a `trump` event is logged; the next tricks are played with hearts
as trumps. The harness finds nothing wrong, and a native build plays what CPython plays.
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
game "Concealed"
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
  let revealed = false
  tricks 6, eldest leads first
    must follow suit
    declare call_trump, at own turn when not revealed and to_play != leader and not hand of declarer has led_suit:
      trump is hearts
      set revealed = true
    after leading 9 of spades when not revealed:
      trump is hearts
      set revealed = true
    after each trick:
      winner scores 1 "trick"
"""
RULES = tricklang.loads(GAME, path="concealed.trick")
ALL = [r + s for s in "SH" for r in "A K Q J 10 9".split()]
SCRIPT = "AS KS QS JS 10S 9S"  # seat 1 (eldest); seat 0: the hearts


def new(eldest: str = SCRIPT) -> interpreter.State:
    mine = eldest.split()
    return interpreter.new_game(RULES, deck=[*mine, *(c for c in ALL if c not in mine)], dealer=0)


def texts(state: interpreter.State) -> list[str]:
    return sorted(a.text for a in state.legal_actions())


def winners(state: interpreter.State) -> list[int]:
    return [e["winner"] for e in state.events(None) if e["type"] == "trick"]


def test_a_trump_called_in_the_middle_of_a_trick_decides_it() -> None:
    state = new()
    state.apply("play KS")
    assert "declare call_trump" in texts(state) and state.trump is None  # seat 0 cannot follow
    twin = state.clone()
    state.apply("declare call_trump")
    assert state.trump == "hearts" and [e for e in state.events(1) if e["type"] == "trump"]
    state.apply("play 9H")
    assert winners(state) == [0]  # the smallest trump takes the trick: hearts are trumps when it completes
    twin.apply("play 9H")
    assert winners(twin) == [1] and twin.trump is None  # without the call, a heart does not follow: it loses
    assert "declare call_trump" not in texts(state)  # (revealed)


def test_a_hook_on_a_card_sets_trumps_in_the_middle_of_the_trick() -> None:
    state = new()
    state.apply("play 9S")  # led: the hook makes hearts trumps; the suit led stays spades
    assert state.trump == "hearts" and state.current_trick == [(1, "9S")]
    assert "declare call_trump" not in texts(state)
    state.apply("play 9H")
    assert winners(state) == [0]


def test_the_harness_finds_nothing_wrong() -> None:
    for seed in range(4):
        report = check_invariants(RULES, seed=seed, finish=True, stop_on_first=False)
        assert report.violations == []



@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_changes_trumps_mid_trick_as_cpython_does() -> None:
    rules = tricklang.loads(GAME, path="native-concealed.trick")
    python = assert_native_plays_as_cpython(rules, range(12), step=True)
    assert any(e["type"] == "trump" for _, events in python for e in events)
