"""Issue 28 step 8: the number of players as an option (design 3.10), `players 3..7 = 4`.

The file declares an option ``players`` (int, its default and range from the line); each
value plays as a file that says ``players N`` (one game per value, as every option set);
``player_count`` reads the number in every file. The ``oh-hell-N`` files stay as they are.
"""

from __future__ import annotations

import pytest

import interpreter
import tricklang
from interpreter.harness import check_invariants
from tricklang.diagnostics import OptionError

OH = """\
tricklang 1
game "Oh"
players 3..7 = 4
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 2 deals
deal
  deal 4 to each
  tricks 4, left of dealer leads first
    must follow suit
  for each player:
    player scores tricks(player) * 10 + player_count
"""


def load(text: str = OH, **options: int) -> tricklang.Ruleset:
    return tricklang.loads(text, path="oh.trick", options=options or None)


def test_the_option_is_declared_with_the_lines_default_and_range() -> None:
    rules = load()
    (option,) = [o for o in rules.option_specs() if o.name == "players"]
    assert (option.type, option.default, option.low, option.high) == ("int", 4, 3, 7)
    assert rules.options["players"] == 4 and rules.player_count == 4


@pytest.mark.parametrize("count", [3, 5, 7])
def test_each_value_plays_as_that_many_players(count: int) -> None:
    rules = load(players=count)
    assert rules.player_count == count and rules.rules.players is not None and rules.rules.players.count == count
    state = interpreter.new_game(rules, seed=count)
    dealt = {e["player"] for e in state.events(None) if e["type"] == "dealt"}
    assert dealt == set(range(count))
    while state.deal_number == 1 and not state.is_terminal():
        state.apply(state.legal_actions()[0])
    firsts = [e for e in state.events(None) if e["type"] == "score"][:count]
    assert all(e["points"] % 10 == count for e in firsts)  # player_count is the number bound
    assert sum(e["points"] // 10 for e in firsts) == 4


def test_the_same_text_is_one_game_per_value() -> None:
    three, five = interpreter.new_game(load(players=3), seed=1), interpreter.new_game(load(players=5), seed=1)
    assert len(three.observation(None)["zones"]["hand"]) == 3
    assert len(five.observation(None)["zones"]["hand"]) == 5
    assert interpreter.new_game(load().with_options({"players": 3}), seed=1).observation(None) == three.observation(None)


def test_a_value_outside_the_range_is_refused() -> None:
    with pytest.raises(OptionError, match="players"):
        load(players=8)


def test_the_checker_counts_the_cards_for_the_largest_number_of_players() -> None:
    with pytest.raises(tricklang.RulesError, match="deck-too-small|7 players"):
        load(OH.replace("deal 4 to each", "deal 5 to each"))  # 35 cards for 7 players, 32 in the deck


def test_player_count_reads_the_fixed_number_too() -> None:
    fixed = OH.replace("players 3..7 = 4", "players 4")
    state = interpreter.new_game(load(fixed), seed=2)
    while state.deal_number == 1 and not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert all(e["points"] % 10 == 4 for e in state.events(None) if e["type"] == "score")


def test_the_harness_finds_no_violation_for_the_smallest_and_largest_count() -> None:
    for count in (3, 7):
        report = check_invariants(load(players=count), seed=count, max_actions=40, finish=True)
        assert report.ok, report


def test_the_oh_hell_files_are_as_they_were() -> None:
    for n in (3, 5):
        rules = tricklang.load(f"oh-hell-{n}")
        assert rules.rules.players is not None and rules.rules.players.kind == "fixed"
        assert rules.player_count == n and "players" not in rules.options
