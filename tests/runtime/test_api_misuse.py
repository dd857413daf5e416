"""Misusing the Python API gives the documented typed errors, never another exception,
and a failed call leaves the state exactly as it was."""

from __future__ import annotations

import json
import random
import threading
from pathlib import Path
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter import ArgumentError, GameError, RecordError, RuleRuntimeError, State

ROOT = Path(__file__).resolve().parents[2]
ECARTE = tricklang.load(ROOT / "rules" / "ecarte.trick")
HOSTILE = ROOT / "tests" / "hostile"


@pytest.fixture
def state() -> State:
    return interpreter.new_game(ECARTE, seed=1)


@pytest.mark.parametrize("call, error", [
    (lambda s: s.hand(2), ArgumentError), (lambda s: s.hand(99), ArgumentError), (lambda s: s.hand(-1), ArgumentError),
    (lambda s: s.observation(True), TypeError), (lambda s: s.observation("0"), TypeError),
    (lambda s: s.observation(10**100), ArgumentError), (lambda s: s.events(7), ArgumentError),
    (lambda s: s.zone("nope"), ArgumentError), (lambda s: s.zone("hand", 5), ArgumentError),
    (lambda s: s.zone(3), TypeError), (lambda s: s.apply(None), TypeError), (lambda s: s.apply(3), TypeError),
    (lambda s: s.apply("play " + "K" * 10_000), interpreter.InvalidActionError),
])
def test_bad_arguments_raise_documented_errors(state: State, call: Any, error: type[Exception]) -> None:
    before = state.to_json()
    with pytest.raises(error):
        call(state)
    assert state.to_json() == before


@pytest.mark.parametrize("kwargs, error", [
    ({"seed": 10**5000}, RecordError), ({"seed": -(10**19)}, RecordError), ({"seed": "7"}, RecordError),
    ({"deck": [1, 2, 3]}, RecordError), ({"deck": list(range(32))}, interpreter.InvalidActionError),
    ({"deck": "KS QS"}, RecordError), ({"deck": ["KS"] * 240_000}, RecordError),
    ({"deck": ["KS"] * 32}, RecordError), ({"dealer": 10**100}, RecordError), ({"mode": "x" * 10_000}, RecordError),
    ({"options": {"target": 10**5000}}, tricklang.OptionError), ({"options": {"target": "9" * 5000}}, tricklang.OptionError),
    ({"options": [1]}, tricklang.OptionError),
])
def test_bad_new_game_arguments_raise_documented_errors(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error) as info:
        interpreter.new_game(ECARTE, **kwargs)
    assert len(str(info.value)) < 2000


def test_a_prearranged_deck_of_240000_cards_is_refused_at_once() -> None:
    import time
    started = time.perf_counter()
    with pytest.raises(RecordError, match="holds 240000 cards"):
        interpreter.new_game(ECARTE, deck=["KS"] * 240_000)
    data = json.loads(interpreter.new_game(ECARTE, seed=1).to_json())
    data["deck"] = ["KS"] * 240_000
    with pytest.raises(RecordError):
        State.from_json(json.dumps(data))
    assert time.perf_counter() - started < 2


def test_load_of_bad_arguments() -> None:
    with pytest.raises(tricklang.RulesError, match="unreadable-file"):
        tricklang.load("")
    with pytest.raises(tricklang.RulesError, match="NUL"):
        tricklang.load("rules/ecarte\0.trick")
    with pytest.raises(TypeError):
        tricklang.load(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tricklang.loads(b"tricklang 1")  # type: ignore[arg-type]
    with pytest.raises(tricklang.RulesError):
        tricklang.loads("tricklang 1\n\0\n")


def test_a_failed_apply_leaves_the_state_exactly_as_it_was() -> None:
    """`%` by zero inside apply: RuleRuntimeError naming the line; nothing changed."""
    rules = tricklang.load(HOSTILE / "modulo_zero_variable.trick")
    state = interpreter.new_game(rules, seed=0)
    before, seat, legal = state.to_json(), state.current_player, state.legal_actions().texts()
    with pytest.raises(RuleRuntimeError, match=r"line \d+: '%' by zero"):
        state.apply("go")
    assert state.to_json() == before and state.current_player == seat and state.legal_actions().texts() == legal
    assert State.from_json(state.to_json()) == state


def test_loading_from_many_threads_at_once() -> None:
    text = (ROOT / "rules" / "ecarte.trick").read_text(encoding="utf-8")
    failures: list[BaseException] = []

    def work() -> None:
        for _ in range(3):
            try:
                assert tricklang.loads(text).name == "Écarté"
            except BaseException as err:  # noqa: BLE001 - collected and asserted below
                failures.append(err)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:3]


def test_apply_unchecked_with_another_games_action_is_checked_by_value(state: State) -> None:
    other = interpreter.new_game(tricklang.load(ROOT / "examples" / "hearts.trick"), seed=1)
    foreign = other.legal_actions()[0]
    before = state.to_json()
    with pytest.raises(GameError), pytest.warns(DeprecationWarning, match="use State.apply"):
        state.apply_unchecked(foreign)
    assert state.to_json() == before


def test_a_forged_action_is_refused_by_value_and_clones_share_no_list(state: State) -> None:
    legal = state.legal_actions()
    with pytest.raises((AttributeError, TypeError)):
        legal.append(interpreter.Action("play", ("KS",)))  # type: ignore[attr-defined]
    clone = state.clone()
    assert clone.legal_actions() is not legal or not hasattr(legal, "sort")
    forged = interpreter.Action("play", ("KS",))  # not legal now: the elder must choose
    before = state.to_json()
    with pytest.raises(interpreter.IllegalActionError):
        state.apply(forged)
    assert state.to_json() == before and clone.to_json() == before


def test_every_mode_works_when_only_the_state_module_is_imported() -> None:
    """``interpreter`` imports its runtime on first use of a name (so that `tricklang check`
    starts fast), and nothing registers itself by being imported: a program that imports
    only ``interpreter.state`` plays in every mode."""
    import subprocess
    import sys

    code = ("import tricklang\nfrom interpreter.state import new_game\n"
            "rules = tricklang.load('ecarte')\n"
            "print(new_game(rules, selections='one_card').selections, new_game(rules, chance='explicit').chance)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["one_card explicit"]


def test_a_cores_copy_has_every_field_and_its_own_lists() -> None:
    """The generated module's ``copy`` copies every field of the core; a list is never
    shared (the same values, another object), so that a clone's play cannot touch the original."""
    state, rng = interpreter.new_game(tricklang.load("cinch"), seed=4), random.Random(4)
    for _ in range(30):  # into trick play: an auction, discards and cards on the table behind
        state.apply(state.sample_action(rng))
    m, core = state.game.m, state._c
    copy = m["copy"](core)
    shared = {"deck", "decks", "reseeds", "tape", "log"}  # replaced, never mutated in place
    for name in m["Core"].__slots__:
        value = getattr(core, name)
        assert getattr(copy, name) == value, name
        if isinstance(value, (list, set, dict)) and name not in shared:
            assert getattr(copy, name) is not value, name
    clone = state.clone()
    before = state.to_json()
    clone.playout(rng)
    assert state.to_json() == before and clone.is_terminal()


def test_is_legal_takes_actions_and_their_text_alike(state: State) -> None:
    """``is_legal`` answers for an :class:`Action` as for its text (the browser table
    and embedders pass either)."""
    for action in state.legal_actions():
        assert state.is_legal(action) and state.is_legal(action.text)
    assert not state.is_legal("play KS") and not state.is_legal("nonsense words")
