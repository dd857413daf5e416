"""Fuzzing the other inputs a stranger can hand us: game records, saved states and
option values. Each must load, or be refused with the library's typed error
(RecordError, OptionError) and a message, never another exception.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import RecordError, State
from interpreter.players import HeuristicAgent, RandomAgent, play_match
from interpreter.record import Record
from tricklang import OptionError

ROOT = Path(__file__).resolve().parents[2]
ECARTE = ROOT / "rules" / "ecarte.trick"
RULES = tricklang.load(ECARTE)
SETTINGS = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)


def _short_match() -> State:
    state = interpreter.new_game(RULES, seed=5)
    agents = [HeuristicAgent(0), RandomAgent(1)]
    for _ in range(25):
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    return state


STATE = _short_match()
STATE_DATA: dict[str, Any] = json.loads(STATE.to_json())
RECORD_DATA: dict[str, Any] = json.loads(Record.from_state(STATE, seats=["heuristic", "random"]).to_json())


def _mutate(data: dict[str, Any], draw: st.DrawFn) -> dict[str, Any]:
    """Delete, replace or retype one field, possibly inside a list."""
    out = json.loads(json.dumps(data))
    key = draw(st.sampled_from(sorted(out)))
    how = draw(st.sampled_from(["delete", "replace", "action"]))
    if how == "delete":
        del out[key]
    elif how == "replace" or not isinstance(out.get("actions"), list) or not out["actions"]:
        out[key] = draw(json_values)
    else:
        actions = out["actions"]
        i = draw(st.integers(0, len(actions) - 1))
        actions[i] = draw(json_values)
    return out


@SETTINGS
@given(st.data())
def test_mutated_states_load_or_raise_record_error(data: st.DataObject) -> None:
    mutated = _mutate(STATE_DATA, data.draw)
    try:
        state = State.from_json(json.dumps(mutated))
    except RecordError as err:
        assert str(err)
        return
    # Accepted: it must be a playable state whose JSON is stable.
    assert State.from_json(state.to_json()) == state


@SETTINGS
@given(st.data())
def test_mutated_records_load_or_raise_record_error(data: st.DataObject) -> None:
    mutated = _mutate(RECORD_DATA, data.draw)
    try:
        record = Record.from_json(json.dumps(mutated), base_dir=ROOT / "tests")
        record.replay(RULES, check_result=False)
    except RecordError as err:
        assert str(err)


@SETTINGS
@given(st.text(max_size=200))
def test_any_text_as_a_state_or_record_raises_record_error(text: str) -> None:
    for read in (State.from_json, Record.from_json):
        try:
            read(text)
        except RecordError as err:
            assert str(err)


@SETTINGS
@given(name=st.sampled_from([o.name for o in RULES.option_specs()] + ["nonsense", ""]),
       value=st.one_of(st.text(max_size=10), st.integers(-10**6, 10**6), st.booleans(), st.none(), st.floats()))
def test_option_values_load_or_raise_option_error(name: str, value: Any) -> None:
    try:
        rules = RULES.with_options({name: value})
    except OptionError as err:
        assert name in str(err)
        return
    state = interpreter.new_game(rules, seed=1)
    play_match(state, [RandomAgent(0), RandomAgent(1)])
    assert state.is_terminal()


def test_option_errors_name_the_option_and_the_value() -> None:
    for given_value, expected in (({"target": "many"}, "target"), ({"first_packet": 9}, "2..3"),
                                  ({"stock_shortfall": "maybe"}, "own_discard"), ({"colour": 1}, "unknown option")):
        try:
            RULES.with_options(given_value)
        except OptionError as err:
            assert expected in str(err)
        else:  # pragma: no cover - the test fails
            raise AssertionError(f"{given_value} was accepted")
