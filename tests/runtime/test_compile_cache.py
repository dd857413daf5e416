"""Game.of's caches (interpreter.state.compiled): one Game per (rule text, path, option
values), shared by the states made from it, and one generated module per (rule text,
option values), shared by the games of the same text."""

from __future__ import annotations

import copy
import json
import pickle

import pytest

import interpreter
import tricklang
from interpreter.state import Game


def test_the_same_ruleset_gets_its_own_game_back_and_other_options_another() -> None:
    rules = tricklang.load("euchre")
    five = rules.with_options({"target": 5})
    game = Game.of(rules)
    assert Game.of(rules) is game
    other = Game.of(five)
    assert other is not game and other.m is not game.m
    assert other.ruleset.options["target"] == 5 and game.ruleset.options["target"] == 10
    assert Game.of(rules) is game  # not the one made last
    assert Game.of(tricklang.load("euchre")) is game  # the same text and options: the cached game
    assert Game.of(rules.with_options({"target": 10})) is game  # the default, given: the same options


def test_a_rulesets_option_values_cannot_change_under_its_game() -> None:
    # Game.of finds the game of the ruleset it made last by the identity of its option values:
    # they cannot be changed in place, only by with_options (another ruleset, another game).
    rules = tricklang.load("euchre")
    game = Game.of(rules)
    for change in (lambda o: o.__setitem__("target", 5), lambda o: o.update(target=5), lambda o: o.pop("target"),
                   lambda o: o.clear(), lambda o: o.setdefault("x", 1), lambda o: o.__delitem__("target")):
        with pytest.raises(TypeError, match="with_options"):
            change(rules.options)
    assert rules.options["target"] == 10 and Game.of(rules) is game
    made = tricklang.Ruleset(rules=rules.rules, source=rules.source, path=rules.path, options=dict(rules.options))
    assert isinstance(made.options, tricklang.OptionValues) and made.options == rules.options
    assert copy.deepcopy(rules.options) == pickle.loads(pickle.dumps(rules.options)) == rules.options
    assert type(pickle.loads(pickle.dumps(rules.options))) is tricklang.OptionValues
    assert json.loads(json.dumps(rules.options)) == dict(rules.options)


def test_states_share_their_game_and_the_options_given_to_new_game_choose_it() -> None:
    rules = tricklang.load("euchre")
    one, two = interpreter.new_game(rules, seed=1), interpreter.new_game(rules, seed=2)
    assert one.game is two.game is Game.of(rules)
    assert one.clone().game is one.game
    short = interpreter.new_game(rules, seed=1, options={"target": 5})
    assert short.game is Game.of(rules.with_options({"target": 5})) and short.game is not one.game
    assert Game.of(rules).new_initial_state(seed=3).game is one.game


def test_the_same_text_under_another_path_is_another_game_over_the_same_module() -> None:
    text = tricklang.load("whist").source
    a = Game.of(tricklang.loads(text, path="a.trick"))
    b = Game.of(tricklang.loads(text, path="b.trick"))
    assert a is not b and a.ruleset.path != b.ruleset.path  # the path names the game (records, messages)
    assert a.m is b.m and a.generated is b.generated  # compiled once per rule text and options


def test_a_game_of_something_else_is_refused() -> None:
    with pytest.raises(TypeError, match="a Game is made from a Ruleset"):
        Game.of("euchre")  # type: ignore[arg-type]
