"""Issue 28, step 3, the runtime half: hooks on a card (`after playing P:`, `after leading P:`),
`end the play`, the deadlines `before own card N` and `at own turn`, declarations without
`holding`, and what a hook may run in the middle of trick play (counters, `expose`, melds),
written out by the code generator beside `after each trick:` (design 3.6).

Scripted deals of a two-player game: a hook runs right after each card matching its pattern,
with `player` and `card` naming who played it and the card; `after leading` only for a trick's
first card; `end the play` makes the trick just taken the last, the cards left stay in the hands
and the statements after the trick play score them; a declaration `before own card 2` is offered
for a player's first two cards only, one `at own turn` at each of his turns until he makes it. A
state in the middle of a deal with hooks survives a JSON round trip and a clone; the module
compiled natively plays what CPython plays.
"""

from __future__ import annotations

import random

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native
from interpreter.harness import check_invariants
from interpreter.transcript import render

GAME = """\
tricklang 1
game "Hooks"
players 2
role eldest = left of dealer
deck
  suits spades black, hearts red
  ranks A K Q J 10 9
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
counter queens: per player
melds marriages
  "marriage" K Q in any suit = 20
match
  at most 2 deals
deal
  deal 6 to each from eldest
  trump is hearts
  tricks 6, eldest leads first
    must follow suit
    declare early, before own card 2:
      declarer scores 1 "early"
    declare late, at own turn when trick_number >= 3:
      declarer scores 2 "at his turn"
    after playing Q:
      add 1 to queens of player
      if card is (Q of spades):
        player scores 5 "queen of spades"
    after playing A when trick_number == 1:
      player melds marriages
    after leading K when trick_number == 1:
      player scores 3 "led a king first"
      expose hand of player
    after each trick:
      if trick_number == 3 and winner == dealer:
        end the play
      winner scores 1 "trick"
  for each player:
    player scores count(hand of player) "left in hand"
"""
RULES = tricklang.loads(GAME, path="hooks.trick")
ALL = [r + s for s in "SH" for r in "A K Q J 10 9".split()]


def new(eldest: str, rules: tricklang.Ruleset = RULES) -> interpreter.State:
    """Dealer 0: seat 1 (eldest, who leads first) gets ``eldest``, seat 0 the other six cards."""
    mine = eldest.split()
    return interpreter.new_game(rules, deck=[*mine, *(c for c in ALL if c not in mine)], dealer=0)


def scores(state: interpreter.State) -> list[tuple[int, str, int]]:
    return [(e["side"], e["label"], e["points"]) for e in state.events(None) if e["type"] == "score"]


def texts(state: interpreter.State) -> list[str]:
    return [a.text for a in state.legal_actions()]


def plays(state: interpreter.State) -> list[str]:
    return sorted(t for t in texts(state) if t.startswith("play "))


# Seat 1: KS QS JS AH 10H 9H; seat 0: AS 10S 9S KH QH JH.
SCRIPT = "KS QS JS AH 10H 9H"


def test_after_leading_runs_for_a_first_card_only_and_after_playing_for_each_match() -> None:
    state = new(SCRIPT)
    state.apply("play KS")  # led: the king hook (trick 1), which exposes seat 1's hand
    assert scores(state) == [(1, "led a king first", 3)]
    assert state.observation(0)["zones"]["hand"]["1"]["cards"] != []  # exposed to seat 0
    state.apply("play AS")  # won by seat 0 (an ace in the first trick: he melds; not a queen, not led)
    [meld] = [e for e in state.events(1) if e["type"] == "meld"]
    assert (meld["player"], meld["cards"], meld["points"]) == (0, ["KH", "QH"], 20)
    state.apply("play QH")  # seat 0 leads a queen: the queens counter, no five
    assert state.counter("queens") == [1, 0]
    state.apply("play AH")  # seat 1 wins
    state.apply("play QS")  # seat 1 leads the queen of spades: five
    assert state.counter("queens") == [1, 1]
    assert (1, "queen of spades", 5) in scores(state)
    assert [s for s in scores(state) if s[1] == "led a king first"] == [(1, "led a king first", 3)]


def test_end_the_play_leaves_the_cards_in_the_hands_and_the_deal_scores() -> None:
    state = new(SCRIPT)
    for card in ("KS", "AS", "QH", "AH", "10H", "KH"):  # tricks to seat 0, seat 1, seat 0 (the dealer)
        state.apply(f"play {card}")
    tricks = [e for e in state.events(None) if e["type"] == "trick"]
    assert [t["winner"] for t in tricks] == [0, 1, 0]
    assert state.deal_number == 2  # no fourth trick: the deal went on past the trick play and ended
    first = [s for s in scores(state)]
    assert (0, "left in hand", 3) in first and (1, "left in hand", 3) in first
    assert [s for s in first if s[1] == "trick"] == [(0, "trick", 1), (1, "trick", 1)]  # not after `end the play`


def test_the_play_goes_on_when_the_dealer_does_not_take_the_third_trick() -> None:
    state = new(SCRIPT)
    for card in ("KS", "AS", "QH", "AH", "QS", "9S"):  # the third trick to seat 1
        state.apply(f"play {card}")
    assert state.deal_number == 1 and state.trick_number == 4


def test_before_own_card_n_and_at_own_turn() -> None:
    state = new(SCRIPT)
    assert "declare early" in texts(state) and "declare late" not in texts(state)
    state.apply("play KS")
    assert "declare early" in texts(state)  # seat 0's first card
    state.apply("play AS")
    state.apply("play QH")  # seat 0's second card: he made no declaration
    assert "declare early" in texts(state)  # seat 1's second card
    state.apply("declare early")
    assert (1, "early", 1) in scores(state)
    assert "declare early" not in texts(state)  # once a deal
    state.apply("play AH")  # trick 3: seat 1 leads his third card; `late` from trick 3 on
    assert "declare early" not in texts(state) and "declare late" in texts(state)
    state.apply("play 10H")
    assert "declare late" in texts(state) and "declare early" not in texts(state)  # seat 0's third card


def test_at_own_turn_is_offered_at_each_turn_until_made() -> None:
    state = new(SCRIPT)
    for card in ("KS", "AS", "QH", "AH", "QS", "9S"):
        state.apply(f"play {card}")
    assert state.trick_number == 4 and "declare late" in texts(state)  # seat 1 leads: offered
    state.apply("play 10H")
    assert "declare late" in texts(state)  # seat 0: offered again (never made)
    state.apply("declare late")
    assert (0, "at his turn", 2) in scores(state)
    assert "declare late" not in texts(state)


def test_a_deal_with_hooks_survives_json_and_clones_in_the_middle_of_a_trick() -> None:
    state = new(SCRIPT)
    state.apply("play KS")  # the hook ran in the middle of the trick
    again = interpreter.State.from_json(state.to_json())
    twin = state.clone()
    for s in (again, twin):
        assert s.observation(0) == state.observation(0)
        assert s.observation(None) == state.observation(None)
    rng = random.Random(3)
    state.playout(random.Random(3))
    twin.playout(rng)
    assert twin.events(None) == state.events(None)


@pytest.mark.parametrize("text", [GAME, "CHOOSING", "NAMING"], ids=["hooks", "a decision in a hook", "naming"])
def test_the_harness_finds_nothing_wrong(text: str) -> None:
    rules = tricklang.loads({"CHOOSING": CHOOSING, "NAMING": NAMING}.get(text, text), path="hooks.trick")
    for seed in range(3):
        report = check_invariants(rules, seed=seed, finish=True, stop_on_first=False)
        assert report.violations == []


# ---------------------------------------------------------------- native





@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    rules = tricklang.loads(GAME, path="native-hooks.trick")
    assert_native_plays_as_cpython(rules, range(12), step=True)


# ---------------------------------------------------------------- a decision in a hook

CHOOSING = GAME.replace('''    after leading K when trick_number == 1:
      player scores 3 "led a king first"
      expose hand of player
''', '''    after leading K when trick_number == 1:
      player scores 3 "led a king first"
      player chooses:
        show:
          expose hand of player
        keep:
          pass
      player scores 1 "chose"
''')
assert CHOOSING != GAME


def test_a_decision_in_a_hook_is_the_games_and_the_trick_goes_on_after_it() -> None:
    rules = tricklang.loads(CHOOSING, path="choosing.trick")
    state = new(SCRIPT, rules)
    state.apply("play KS")  # the hook stops for seat 1's choice, in the middle of the trick
    assert state.current_player == 1 and sorted(texts(state)) == ["keep", "show"]
    assert state.current_trick == [(1, "KS")]
    assert scores(state) == [(1, "led a king first", 3)]
    again = interpreter.State.from_json(state.to_json())
    twin = state.clone()
    assert again.observation(None) == state.observation(None) and twin.observation(0) == state.observation(0)
    state.apply("show")
    assert scores(state)[-1] == (1, "chose", 1)
    assert state.current_player == 0 and "play AS" in texts(state)  # the trick goes on: seat 0 follows
    assert any(e["type"] == "exposed" for e in state.events(0))
    again.apply("keep")
    assert again.current_player == 0 and not any(e["type"] == "exposed" for e in again.events(0))
    # A playout from the middle of the hook plays the match out, the same from a clone and from JSON.
    restored = interpreter.State.from_json(twin.to_json())
    twin.playout(random.Random(5))
    restored.playout(random.Random(5))
    assert twin.is_terminal() and [e for e in twin.events(None) if e["type"] == "trick"]
    assert restored.events(None) == twin.events(None)


def test_a_decision_the_runtime_cannot_make_after_each_trick_is_refused() -> None:
    # (a choice or a show after each trick is played: tests/runtime/test_hook_decisions.py)
    text = GAME.replace('''      winner scores 1 "trick"''', '''      winner names trump''')
    with pytest.raises(tricklang.RulesError, match="unsupported-construct"):
        tricklang.loads(text, path="later.trick")


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_decides_in_hooks_as_cpython_does() -> None:
    rules = tricklang.loads(CHOOSING, path="native-choosing.trick")
    assert_native_plays_as_cpython(rules, range(12), step=True)


# ---------------------------------------------------------------- naming the suit led

NAMING = GAME.replace('''    after leading K when trick_number == 1:
      player scores 3 "led a king first"
      expose hand of player
''', '''    after leading K when trick_number == 1:
      player names the suit led
''')
assert NAMING != GAME


def test_the_suit_named_is_the_suit_led_and_the_next_players_follow_it() -> None:
    rules = tricklang.loads(NAMING, path="naming.trick")
    state = new(SCRIPT, rules)
    state.apply("play KS")
    assert state.current_player == 1 and sorted(texts(state)) == ["name hearts", "name spades"]
    twin = state.clone()
    state.apply("name hearts")
    assert [e for e in state.events(0) if e["type"] == "suit_led"] == [{"type": "suit_led", "player": 1,
                                                                        "suit": "hearts"}]
    assert plays(state) == ["play JH", "play KH", "play QH"]  # seat 0 follows hearts, not spades
    assert "seat 1 names hearts as the suit led" in render(state)
    twin.apply("name spades")
    assert plays(twin) == ["play 10S", "play 9S", "play AS"]
    state.apply("play JH")
    [trick] = [e for e in state.events(None) if e["type"] == "trick"]
    assert trick["winner"] == 0
    assert plays(state) == ["play 10S", "play 9S", "play AS", "play KH", "play QH"]  # a new trick: no suit named


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_names_the_suit_led_as_cpython_does() -> None:
    rules = tricklang.loads(NAMING, path="native-naming.trick")
    assert_native_plays_as_cpython(rules, range(12), step=True)
