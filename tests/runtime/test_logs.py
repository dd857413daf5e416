"""The log of a State and what is rebuilt from it (interpreter/state/replay.py).

A state logs each action as one integer key (``dp | (code + 1) << 16``) in ``state._log``;
the texts of the actions, who took each and the event log are rebuilt lazily by a
Recorder that replays the keys when asked. Whatever happened in between (reads that
caught the recorder up half-way, clones, actions refused by a failing rule and rolled
back, snapshots restored, JSON round trips), what a state reads must be what a fresh
replay of its log reads.
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from helpers import MANY_DEALS
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import RuleRuntimeError
from interpreter.runtime.faults import Fault
from interpreter.state.replay import IRREGULAR_DP, Recorder, key_of


def _read(state: interpreter.State) -> tuple[Any, ...]:
    """What the recorder gives: the texts and actors of the actions, the events as each seat sees them."""
    seats = range(state.player_count)
    return (list(state.actions), list(state.actors), state.events(None), [state.events(p) for p in seats],
            state.event_count, state.history)


def _core(state: interpreter.State) -> dict[str, Any]:
    c = state._c
    return {name: (list(v) if isinstance(v := getattr(c, name), list) else v) for name in type(c).__slots__}


def _fresh(state: interpreter.State) -> tuple[Any, ...]:
    """The same, from a recorder made now for the state's log, and from a JSON round trip."""
    rec = Recorder(state._fresh(rec=True))
    rec.catch_up(state)
    seats = range(state.player_count)
    from interpreter.state.events import render

    def seen(p: int | None) -> list[dict[str, Any]]:
        out = []
        for entry in rec.core.log:
            full, public, mask = render(state.game, entry)
            out.append(full if p is None or public is None or mask >> p & 1 else public)
        return out

    mine = (list(rec.texts), list(rec.actors), seen(None), [seen(p) for p in seats], len(rec.core.log),
            list(zip(rec.actors, rec.texts, strict=True)))
    again = interpreter.State.from_json(state.to_json())
    assert _read(again) == mine
    return mine


@contextmanager
def _failing(state: interpreter.State) -> Iterator[list[int]]:
    """Every action the generated module carries out (``APPLY[dp]``, ``irr_start``) raises
    a rule failure once it is done (its changes made), the first time; the list yielded
    counts the failures."""
    m = state.game.m
    real_apply, real_irr = m["APPLY"], m["irr_start"]
    failed: list[int] = []

    def failing(fn: Callable[..., Any] | None) -> Callable[..., Any] | None:
        if fn is None:
            return None

        def call(*args: Any) -> Any:
            out = fn(*args)
            if not failed:
                failed.append(1)
                raise Fault(0)
            return out
        return call

    state.events(None)  # (the recorder caught up: only the live core acts below)
    m["APPLY"] = tuple(failing(fn) for fn in real_apply)
    m["irr_start"] = failing(real_irr)
    try:
        yield failed
    finally:
        m["APPLY"], m["irr_start"] = real_apply, real_irr


GAMES = {"ecarte": {}, "cinch": {}, "ecarte-table": {"mode": "table"}, "cinch-one-card": {"selections": "one_card"},
         "ecarte-chance": {"chance": "explicit"}}
RULES = {name: tricklang.load(name) for name in ("ecarte", "cinch")}
OPS = st.lists(st.sampled_from(["step", "step", "step", "step", "read", "clone", "json", "fail", "snapshot",
                                "restore", "playout"]), min_size=1, max_size=40)


@pytest.mark.parametrize("game", sorted(GAMES))
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), ops=OPS)
def test_what_a_state_reads_is_a_fresh_replay_of_its_log(game: str, seed: int, ops: list[str]) -> None:
    args = GAMES[game]
    state = interpreter.new_game(RULES[game.split("-")[0]], seed=seed, **args)
    rng = random.Random(seed)
    snapshot = state.snapshot()
    for op in ops:
        if state.is_terminal():
            break
        if op == "step":
            state.apply(state.sample_action(rng))
        elif op == "read":
            _read(state)
        elif op == "clone":
            _read(state)
            original, state = state, state.clone()
            if not original.is_terminal():  # the two go on apart, each with its own record
                original.apply(original.sample_action(random.Random(seed)))
                assert _read(original) == _fresh(original)
        elif op == "json":
            state = interpreter.State.from_json(state.to_json())
            snapshot = state.snapshot()  # (a snapshot is of one game: the reloaded one is another)
        elif op == "fail":
            before, core = _read(state), _core(state)
            with _failing(state) as failed:
                try:
                    state.apply(state.sample_action(rng))
                except RuleRuntimeError:
                    assert failed and _read(state) == before and _core(state) == core
                else:
                    assert not failed  # (a card picked in one-card mode: nothing carried out yet)
        elif op == "snapshot":
            snapshot = state.snapshot()
        elif op == "restore":
            state.restore(snapshot)
        elif op == "playout" and not state.is_chance_node():
            state.playout(rng, 5)
        assert _read(state) == _fresh(state), op


def test_the_log_holds_one_key_an_action() -> None:
    state, rng = interpreter.new_game(tricklang.load("cinch"), seed=3, mode="table"), random.Random(3)
    while state.action_count < 150 and not state.is_terminal():
        state.apply(state.sample_action(rng))
    assert len(state._log) == state.action_count == len(state.actions) == len(state.actors)
    assert all(type(key) is int for key in state._log)
    irregular = [key for key in state._log if key & 0xFFFF == IRREGULAR_DP]
    assert len(irregular) == sum(a.startswith("irregular ") for a in state.actions) > 0
    assert [key >> 16 for key in irregular] == [k + 1 for k in range(len(irregular))]  # their index in the state's list
    dps = {key & 0xFFFF for key in state._log} - {IRREGULAR_DP}
    assert dps <= set(range(len(state.game.dps)))
    assert key_of(3, -1) == 3 and key_of(3, 0) == 3 | 1 << 16  # a pass (code -1) and code 0 differ




def test_a_failed_action_rolls_back_after_many_deals() -> None:
    rules = tricklang.loads(textwrap.dedent(MANY_DEALS).lstrip(), path="<many>")
    state = interpreter.new_game(rules, seed=4)
    for _ in range(100):  # one deal per action
        state.apply("fine")
    assert state.deal_number == 101
    before, clone = _read(state), state.clone()
    with pytest.raises(RuleRuntimeError, match="read before it was given a value"):
        state.apply("broken")
    assert _read(state) == before and state.legal_actions().texts() == ["fine", "broken"]
    state.apply("fine")
    clone.apply("fine")
    assert _read(state) == _read(clone) == _fresh(state)
    assert state.observation(0) == interpreter.State.from_json(state.to_json()).observation(0)


def _long(rules: tricklang.Ruleset, seed: int, actions: int,
          on: Callable[[interpreter.State], None] = lambda s: None) -> interpreter.State:
    state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
    while state.action_count < actions:
        on(state)
        state.apply(state.sample_action(rng))
    return state


def test_a_long_match_reads_the_same_whenever_it_is_read() -> None:
    """Some twenty deals of Cinch: read all at the end, or a little after every action."""
    rules = tricklang.load("cinch", options={"target": 999})
    at_end = _long(rules, 9, 600)
    as_it_goes = _long(rules, 9, 600, lambda s: s.events(0, start=max(0, s.event_count - 3)))
    assert _read(at_end) == _read(as_it_goes) == _fresh(at_end)
    n = at_end.event_count
    assert n == len(at_end.events(None)) and at_end.events(0, start=n - 5) == at_end.events(0)[n - 5:]
    assert at_end.observation(1) == as_it_goes.observation(1) and at_end.to_json() == as_it_goes.to_json()
    snapshot: list[Any] = []
    state = _long(rules, 9, 600, lambda s: snapshot.append(s.snapshot()) if s.action_count == 100 else None)
    undone = state.clone()
    undone.restore(snapshot[0])
    assert undone.action_count == 100 and undone.actions == state.actions[:100]
    assert _read(undone) == _fresh(undone)
    assert _read(state) == _read(at_end)  # restoring a clone leaves the state alone
