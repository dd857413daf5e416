"""What every example game in examples/ must do: load without warnings, play whole
matches with the built-in players keeping every card and ending with a winner, and
replay from JSON; plus regressions for interpreter bugs found while writing them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import Cautious, all_cards_conserved, legal_cards, load_example, players

import interpreter
import tricklang
from interpreter import State
from interpreter.errors import RuleRuntimeError
from interpreter.players import HeuristicAgent, RandomAgent
from interpreter.state.actions import Action
from interpreter.transcript import render

ROOT = Path(__file__).resolve().parents[2]
WHIST = load_example("whist.trick")
EUCHRE = load_example("euchre.trick")
SPADES = load_example("spades.trick")
HEARTS = load_example("hearts.trick")
BLACK_MARIA = load_example("black-maria.trick")
OMNIBUS = load_example("omnibus-hearts.trick")


PART2 = {
    "hearts.trick": 4,
    "black-maria.trick": 3,
    "omnibus-hearts.trick": 4,
    "oh-hell.trick": 4,
    "oh-hell-3.trick": 3,
    "oh-hell-5.trick": 5,
    "oh-hell-6.trick": 6,
    "oh-hell-7.trick": 7,
    "auction-pitch.trick": 4,
}


def test_the_examples_load_without_warnings() -> None:
    for rules in (WHIST, EUCHRE, SPADES):
        assert rules.warnings == ()
        assert rules.player_count == 4
    assert len(WHIST.cards) == len(SPADES.cards) == 52 and len(EUCHRE.cards) == 24
    assert WHIST.options == {"target": 5, "honours": True}
    assert EUCHRE.options == {"target": 10, "stick_the_dealer": False, "defend_alone": False}
    assert SPADES.options["target"] == 500 and SPADES.options["failed_nil_tricks"] == "lost"


@pytest.mark.parametrize("name", sorted(PART2))
def test_rule_file_loads_without_warnings(name: str) -> None:
    rules = load_example(name)
    assert rules.warnings == ()
    assert rules.player_count == PART2[name]
    assert len(rules.cards) == 52
    assert rules.rules.source and "pagat.com" in rules.rules.source


def test_variants_inherit_the_base_and_replace_by_name() -> None:
    assert BLACK_MARIA.options["passing"] == "right" and HEARTS.options["passing"] == "cycle"
    assert BLACK_MARIA.options["moon"] == "off" and OMNIBUS.options["moon"] == "subtract"
    assert set(HEARTS.options) < set(OMNIBUS.options)
    seven = load_example("oh-hell-7.trick")
    assert seven.options["max_cards"] == 7
    with pytest.raises(tricklang.OptionError):
        seven.with_options({"max_cards": 8})  # 8 x 7 = 56 cards: not in the pack


# ---------------------------------------------------------------- properties

PROPERTY_RUNS = [
    ("hearts.trick", "heuristic", 3),
    ("hearts.trick", "random", 3),
    ("black-maria.trick", "heuristic", 3),
    ("black-maria.trick", "random", 3),
    ("omnibus-hearts.trick", "random", 3),
    ("oh-hell.trick", "random", 3),
    ("oh-hell.trick", "heuristic", 2),
    ("oh-hell-3.trick", "random", 1),
    ("oh-hell-7.trick", "random", 1),
    ("auction-pitch.trick", "cautious-heuristic", 3),
    ("auction-pitch.trick", "cautious-random", 3),
]
DEAL_BOUND = {"hearts.trick": 60, "black-maria.trick": 40, "omnibus-hearts.trick": 80, "auction-pitch.trick": 150}


def make_agent(kind: str, seed: int) -> Callable[[interpreter.State], Action]:
    if kind == "heuristic":
        return HeuristicAgent(seed)
    if kind == "random":
        return RandomAgent(seed)
    return Cautious(HeuristicAgent(seed) if kind.endswith("heuristic") else RandomAgent(seed))


@pytest.mark.parametrize(("name", "kind", "matches"), PROPERTY_RUNS)
def test_matches_conserve_cards_and_end_with_a_winner(name: str, kind: str, matches: int) -> None:
    rules = load_example(name)
    n = rules.player_count
    for seed in range(matches):
        state = interpreter.new_game(rules, seed=seed)
        agents = [make_agent(kind, 100 * seed + i) for i in range(n)]
        while not state.is_terminal():
            assert all_cards_conserved(state)
            seat = state.current_player
            assert seat is not None and state.legal_actions()
            state.apply(agents[seat](state))
        assert all_cards_conserved(state)
        outcome = state.outcome()
        assert outcome is not None, render(state)[-2000:]
        bound = DEAL_BOUND.get(name)
        if bound is None:  # Oh Hell: the series of deals; a tie for first is a draw
            bound = 2 * int(rules.options["max_cards"])
            if outcome.winner is None:
                assert list(outcome.scores).count(max(outcome.scores)) > 1
        else:
            assert outcome.winner is not None, render(state)[-2000:]
        assert outcome.deals <= bound


@pytest.mark.parametrize("name", ["black-maria.trick", "oh-hell-5.trick", "auction-pitch.trick"])
def test_variants_replay_from_json(name: str) -> None:
    rules = load_example(name)
    state = interpreter.new_game(rules, seed=9)
    agents = [RandomAgent(i) for i in range(rules.player_count)]
    for _ in range(60):
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    assert interpreter.State.from_json(state.to_json()) == state


@pytest.mark.parametrize("rules", [WHIST, EUCHRE], ids=["whist", "euchre"])
def test_json_round_trip_replays_the_same_game(rules: tricklang.Ruleset) -> None:
    state = interpreter.new_game(rules, seed=9)
    agents = players("mixed", 9)
    for _ in range(400):
        if state.is_terminal():
            break
        state.apply(agents[state.current_player](state))  # type: ignore[index]
    again = State.from_json(state.to_json())
    assert again == state and render(again) == render(state)


# ---------------------------------------------------------------- interpreter bugs


TWO_PLAYS = """tricklang 1
game "Two plays"
players 2
deck
  suits spades black, hearts red, clubs black
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  first dealer is 0
  game to 100, after the deal
deal
  deal 4 to each
  trump is none
  tricks 1, left of dealer leads first
    may not lead spades until broken
  tricks 3, left of dealer leads first
    may not lead clubs until broken
"""


def test_a_suit_broken_in_one_tricks_statement_does_not_break_another_suit_later() -> None:
    rules = tricklang.loads(TWO_PLAYS, path="two-plays.trick")
    # Seat 1 leads AH; seat 0, void in hearts, throws AS: spades are broken, clubs are not.
    state = interpreter.new_game(rules, deck=["AH", "KH", "AC", "KC", "AS", "KS", "QS", "JS",
                                              "QH", "JH", "QC", "JC"], dealer=0)
    state.apply("play AH")
    state.apply("play AS")
    assert state.current_player == 1
    assert legal_cards(state) == ["KH"]  # no club has been played: clubs may not be led


NOBODY_LEADS = """tricklang 1
game "Three hands, the two of clubs out"
players 3
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7 6 5 4 3 2
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
zone out: shared, public
deal
  move all matching 2 of clubs from stock to out
  deal 17 to each
  tricks 17, holder of 2 of clubs leads first
    must follow suit
"""


def test_a_leader_of_nobody_is_a_runtime_error() -> None:
    # As Black Maria would be with `lead_two_of_clubs` and no guard in hearts.trick.
    rules = tricklang.loads(NOBODY_LEADS)
    with pytest.raises(RuleRuntimeError):
        state = interpreter.new_game(rules, seed=1)
        state.legal_actions()


def test_opponents_of_with_three_sides_is_reported_when_loading(tmp_path: Path) -> None:
    # The cut-throat Cinch (C37) cannot simply extend rules/cinch.trick: its
    # counting says `opponents of maker`, which needs two sides.
    variant = tmp_path / "cinch-3.trick"
    variant.write_text(f'tricklang 1\nextends "{ROOT / "rules" / "cinch.trick"}"\ngame "Cinch for three"\nplayers 3\n')
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.load(variant)
    assert "type-error" in err.value.codes and "two sides" in str(err.value)
