"""The referee's pauses (interpreter/pauses.py): `during deal` and `during end_of_play`
checked by the language, offered in table mode only when an irregularity can be recorded
there, with `continue` as the one regular action, the dealer acting; strict play and
strict action ids untouched."""

from __future__ import annotations

import pytest

import interpreter
import tricklang
from interpreter.errors import IllegalActionError
from interpreter.state.spaces import ActionSpace, action_space

BASE = '''tricklang 1
game "Two-hand trial"
players 2
deck
  suits spades black, hearts red
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
match
  dealer passes left
  game to 3, after the deal
deal
  deal 2 to each
  tricks 2, left of dealer leads first
  if tricks(dealer) >= 1: dealer scores 1 "trick"
  if tricks(left of dealer) >= 1: left of dealer scores 1 "trick"
'''

PAUSED = BASE + '''
irregularity misdealt by dealer during deal when count(hand of dealer) == 2:
  redeal by same dealer

irregularity revoked during play, end_of_play:
  replay the tricks
'''


def load(text: str) -> tricklang.Ruleset:
    return tricklang.loads(text, path="trial.trick")


def codes(text: str) -> list[str]:
    with pytest.raises(tricklang.RulesError) as info:
        load(text)
    return [d.code for d in info.value.diagnostics if d.severity == "error"]


def test_the_moments_are_kinds_of_the_games_that_have_them() -> None:
    assert load(PAUSED).rules.irregularities[0].phases == ("deal",)
    no_tricks = BASE.replace("  tricks 2, left of dealer leads first\n", "")
    assert codes(no_tricks + "\nirregularity late during end_of_play:\n  redeal by same dealer\n") == ["undefined-name"]
    leads = BASE + "\nirregularity wrong_lead during play, end_of_play:\n  offender leads\n"
    assert codes(leads) == ["remedy-outside-play"]  # a lead needs a trick in progress
    replay = BASE + "\nirregularity too_soon during deal:\n  replay the tricks\n"
    assert codes(replay) == ["remedy-outside-play"]


def test_strict_mode_passes_over_the_pauses_and_table_mode_stops_there() -> None:
    rules = load(PAUSED)
    strict = interpreter.new_game(rules, seed=4, dealer=0)
    table = interpreter.new_game(rules, seed=4, dealer=0, mode="table")
    assert strict.phase == "play" and table.phase == "deal" and table.current_player == 0
    assert table.legal_actions().texts() == ["continue", "irregular misdealt 0"]
    assert table.decision is not None and table.decision.kind == "pause"
    with pytest.raises(IllegalActionError, match="referee's pause"):
        table.apply("play " + table.hand(1)[0])
    table.apply("continue")
    while strict.deal_number == 1:
        strict.apply(strict.legal_actions()[0])
        if table.phase == "play":
            table.apply(table.legal_actions()[0])
    assert table.phase == "end_of_play" and table.legal_actions().texts() == [
        "continue", "irregular revoked 0", "irregular revoked 1"]
    table.apply("continue")
    assert list(table.actions) == ["continue", *strict.actions[:4], "continue"]
    assert table.events(None) == strict.events(None) and table.phase == "deal" and table.deal_number == 2


def test_no_pause_when_nothing_can_be_recorded_there() -> None:
    rules = load(PAUSED.replace("when count(hand of dealer) == 2", "when count(hand of dealer) == 3"))
    assert interpreter.new_game(rules, seed=4, dealer=0, mode="table").phase == "play"


def test_table_ids_extend_the_strict_ids_with_the_referees_continue() -> None:
    rules = load(PAUSED)
    strict = interpreter.new_game(rules, seed=4, dealer=0, selections="one_card")
    table = interpreter.new_game(rules, seed=4, dealer=0, selections="one_card", mode="table")
    plain, paused = action_space(strict), action_space(table)
    assert [b for b in plain.blocks if b.name != "referee"] == paused.blocks[:-1] and paused.size == plain.size + 1
    assert all(b.size == 0 for b in plain.blocks if b.name == "referee")
    assert all(paused.action_of(i) == plain.action_of(i) for i in range(plain.size))
    assert table.legal_action_ids() == sorted(paused.id_of(a) for a in table.legal_actions())
    assert table.legal_action_ids()[-1] == paused.size - 1 and table.action_from_id(paused.size - 1).text == "continue"
    table.apply_id(paused.size - 1)
    assert table.phase == "play"
    assert ActionSpace(rules, strict.game, "one_card").blocks == plain.blocks


def test_the_tensors_at_a_pause_keep_the_strict_layout_with_no_decision_kind_set() -> None:
    from interpreter.state.tensors import KINDS, tensor_layout

    rules = load(PAUSED)
    strict = interpreter.new_game(rules, seed=4, dealer=0)
    table = interpreter.new_game(rules, seed=4, dealer=0, mode="table")
    assert table.tensor_shape == strict.tensor_shape
    start, size = next((s, n) for name, s, n in tensor_layout(table).segments if name == "decision")
    assert size == len(KINDS) and sum(table.observation_tensor(0)[start:start + size]) == 0.0
    table.apply("continue")
    assert table.observation_tensor(1) == strict.observation_tensor(1)
