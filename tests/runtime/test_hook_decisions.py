"""Issue 28, step 3, the runtime half of decisions after each trick and in a declaration's effect
(``InPlay.decision_after_trick.*``, design 3.6): a `chooses` or a `shows` in an `after each
trick:` hook or in what a declaration does is a decision of the game at that point.

Scripted deals of a two-player game. After each trick the winner decides (the right actor, the
choice's actions), while the trick's names still describe the trick taken, whose cards are in the
winner's zone and no longer in progress; the next trick is led by the winner once the hooks are
done; `end the play` there ends the trick play. A declaration made before one's first card shows
a handful of trumps (French Tarot's handful), then the player plays his card. A state stopped in
such a hook survives a JSON round trip and a clone, the harness finds nothing wrong, and a native
build plays what CPython plays.
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
game "Decisions"
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
    declare handful, before own first card when count(hand of declarer matching hearts) >= 2:
      declarer shows 2 matching hearts, else spades
      declarer scores 5 "handful"
    after each trick:
      winner scores trick_number "trick"
      if trick_number <= 2:
        winner chooses:
          more:
            winner scores 2 "more"
          enough:
            end the play
        winner scores 1 "after"
    after each trick when trick_number == 3:
      winner shows 1 matching spades
  for each player:
    player scores count(hand of player) "left in hand"
"""
RULES = tricklang.loads(GAME, path="decisions.trick")
ALL = [r + s for s in "SH" for r in "A K Q J 10 9".split()]
SCRIPT = "KS QS JS AH 10H 9H"  # seat 1 (eldest); seat 0: AS 10S 9S KH QH JH


def new(eldest: str = SCRIPT, rules: tricklang.Ruleset = RULES) -> interpreter.State:
    mine = eldest.split()
    return interpreter.new_game(rules, deck=[*mine, *(c for c in ALL if c not in mine)], dealer=0)


def texts(state: interpreter.State) -> list[str]:
    return sorted(a.text for a in state.legal_actions())


def scores(state: interpreter.State) -> list[tuple[int, str, int]]:
    return [(e["side"], e["label"], e["points"]) for e in state.events(None) if e["type"] == "score"]


def test_the_winner_decides_after_the_trick_and_then_leads_the_next() -> None:
    state = new()
    state.apply("play KS")
    state.apply("play AS")  # seat 0 wins the first trick: his choice
    assert state.current_player == 0 and state.phase == "choice" and texts(state) == ["enough", "more"]
    assert scores(state) == [(0, "trick", 1)]  # the trick's names describe the trick taken
    assert state.current_trick == [] and sorted(state.zone("won", 0)) == ["AS", "KS"]  # taken, not in progress
    state.apply("more")
    assert scores(state)[1:] == [(0, "more", 2), (0, "after", 1)]
    assert state.current_player == 0 and "play KH" in texts(state) and state.trick_number == 2  # he leads


def test_end_the_play_in_a_hook_that_decides() -> None:
    state = new()
    for action in ("play KS", "play AS", "more", "play QH", "play AH"):  # the second trick to seat 1
        state.apply(action)
    assert state.current_player == 1 and texts(state) == ["enough", "more"]
    state.apply("enough")  # no more tricks; the hook ends (no "after"), the deal scores the cards left
    first = [s for s in scores(state)]
    assert (1, "after", 1) not in first and (1, "trick", 2) in first
    assert (0, "left in hand", 4) in first and (1, "left in hand", 4) in first
    assert state.deal_number == 2


def test_a_show_after_the_third_trick() -> None:
    state = new()
    for action in ("play KS", "play AS", "more", "play QH", "play AH", "more", "play QS", "play 9S"):
        state.apply(action)
    assert state.current_player == 1 and state.phase == "show" and texts(state) == ["show JS"]
    state.apply("show JS")
    assert [e for e in state.events(0) if e["type"] == "shown"] == [{"type": "shown", "player": 1, "cards": ["JS"]}]
    assert state.current_player == 1 and state.trick_number == 4


def test_a_declaration_shows_a_handful_before_the_first_card() -> None:
    state = new()
    assert "declare handful" in texts(state)
    state.apply("declare handful")
    assert state.current_player == 1 and texts(state) == ["show 10H 9H", "show AH 10H", "show AH 9H"]
    state.apply("show AH 10H")
    assert [e["type"] for e in state.events(0)][-3:] == ["declare", "shown", "score"]
    assert scores(state) == [(1, "handful", 5)]
    assert state.current_player == 1 and "play KS" in texts(state) and "declare handful" not in texts(state)


def test_a_state_stopped_in_a_hook_after_a_trick_survives_json_clones_and_playouts() -> None:
    state = new()
    state.apply("play KS")
    state.apply("play AS")
    again = interpreter.State.from_json(state.to_json())
    twin = state.clone()
    assert again.observation(None) == state.observation(None) and twin.observation(1) == state.observation(1)
    for s in (state, again, twin):
        s.apply("enough")
    assert again.events(None) == state.events(None) == twin.events(None)
    other = new()
    other.apply("play KS")
    other.apply("play AS")
    restored = interpreter.State.from_json(other.to_json())
    other.playout(random.Random(4))
    restored.playout(random.Random(4))
    assert other.is_terminal() and restored.events(None) == other.events(None)


def test_the_harness_finds_nothing_wrong() -> None:
    for seed in range(4):
        report = check_invariants(RULES, seed=seed, finish=True, stop_on_first=False)
        assert report.violations == []



@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_decides_after_tricks_as_cpython_does() -> None:
    rules = tricklang.loads(GAME, path="native-decisions.trick")
    python = assert_native_plays_as_cpython(rules, range(12), step=True)
    kinds = {e["type"] for _, events in python for e in events}
    assert {"choice", "shown", "declare"} <= kinds
