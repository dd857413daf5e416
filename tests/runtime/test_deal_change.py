"""The change of deal as generated code (interpreter/codegen_deals.py): the end of a deal,
the next one's start and the scores log the same events as the generic methods, stop at
the event limits exactly where ``Program.emit`` stops, and go through an ``emit``
installed on the program (the invariant harness's hook)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from interpreter.compiler import compile_ruleset
from interpreter.program import Program

import interpreter
import tricklang
from interpreter import codegen
from interpreter import program as program_module
from interpreter.state.events import DEAL, DEAL_END, DEALT, SCORE, TRUMP, TURN_UP
from tricklang.catalog import bundled_games

_TEXT = bundled_games()["ecarte"].read_text(encoding="utf-8")


def _play(rules: tricklang.Ruleset, seed: int) -> tuple[str, Any, int]:
    """A random match until it ends or fails: the error's type and message, the state, the actions taken."""
    state = interpreter.new_game(rules, seed=seed)
    rng = random.Random(seed)
    error = ""
    while not state.is_terminal():
        action = state.sample_action(rng)
        try:
            state.apply(action)
        except interpreter.GameError as err:
            error = f"{type(err).__name__}: {err}"
            break
    return error, state.to_json(), len(state.actions)


def _kind(entry: Any) -> int:
    return entry[0] if type(entry) is tuple and type(entry[0]) is int else -1


@pytest.mark.parametrize("kind", [DEALT, TURN_UP, TRUMP, SCORE, DEAL_END, DEAL])
def test_the_match_event_limit_stops_a_deal_change_where_the_generic_methods_stop(
        kind: int, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = 4
    events = interpreter.new_game(tricklang.load("ecarte"), seed=seed)
    rng = random.Random(seed)
    while not events.is_terminal():
        events.apply(events.sample_action(rng))
    log = list(events.core.events)
    first_end = next(i for i, e in enumerate(log) if _kind(e) == DEAL_END)
    at = next(i for i, e in enumerate(log) if i > first_end and _kind(e) == kind)  # in the second deal's change
    monkeypatch.setattr(program_module, "MAX_EVENTS_PER_MATCH", at)  # that event is one too many
    refused: list[int] = []
    real = Program.emit

    def emit(self: Program, core: Any, full: Any, public: Any = None, mask: int = 0) -> None:
        try:
            real(self, core, full, public, mask)
        except interpreter.GameLimitError:
            refused.append(_kind(full))
            raise

    monkeypatch.setattr(Program, "emit", emit)  # generated code calls it when a limit would be passed
    generated = _play(tricklang.loads(_TEXT, path=f"limit-{kind}.trick"), seed)
    assert generated[0] == f"GameLimitError: the match logged more than {at} events"
    assert refused[0] == kind
    assert "run" in vars(compile_ruleset(tricklang.loads(_TEXT, path=f"limit-{kind}.trick")).instructions[0])
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert _play(tricklang.loads(_TEXT, path=f"limit-{kind}.trick"), seed) == generated
    assert refused[-1] == kind


def test_an_emit_installed_on_the_program_sees_every_event_of_a_deal_change() -> None:
    state = interpreter.new_game(tricklang.load("ecarte"), seed=2)
    prog = state.program
    assert prog.__dict__["end_deal"].__name__ == "z_end_deal"  # generated
    seen: list[Any] = []

    def emit(core: Any, full: Any, public: Any = None, mask: int = 0) -> None:
        seen.append(full)
        Program.emit(prog, core, full, public, mask)

    rng = random.Random(2)
    prog.__dict__["emit"] = emit
    try:
        start = len(state.core.events)
        while state.deal_number < 3 and not state.is_terminal():
            state.apply(state.sample_action(rng))
    finally:
        del prog.__dict__["emit"]
    logged = [e for e in list(state.core.events)[start:] if type(e) is not int]  # a card played is not emitted
    assert seen == logged
    assert {DEALT, TURN_UP, TRUMP, SCORE, DEAL_END, DEAL} <= {_kind(e) for e in seen}


def _fields(core: Any) -> dict[str, Any]:
    out = {name: getattr(core, name) for name in type(core).__slots__}
    out["events"] = list(core.events)
    return out


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_a_generated_new_core_and_deal_change_set_every_field_as_the_generic_methods(
        game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load(game)
    prog = compile_ruleset(rules)
    monkeypatch.setattr(codegen, "ENABLED", False)
    plain = compile_ruleset(rules)
    assert prog.__dict__["new_core"].__name__ == "z_new_core" and "new_core" not in plain.__dict__
    for seed, dealer, table in ((1, None, False), (7, 1, True), (123456789, None, True)):
        generated = prog.new_core(seed, None, dealer, table=table)
        generic = plain.new_core(seed, None, dealer, table=table)
        assert _fields(generated) == _fields(generic)
        for _ in range(3):  # the deals' changes (the deals unplayed: their fields reset all the same)
            generated.scores[0] += 1
            generic.scores[0] += 1
            prog.end_deal(generated)
            plain.end_deal(generic)
            assert _fields(generated) == _fields(generic)


def _room_allowed(core: Any) -> int:
    """The most entries the open tail may hold before a limit on events is near."""
    events = core.events
    return min(core.deal_events + program_module.MAX_EVENTS_PER_DEAL,
               program_module.MAX_EVENTS_PER_MATCH) - events._sealed


@pytest.mark.parametrize("game", ["ecarte", "cinch", "hearts"])
def test_the_room_generated_code_logs_into_never_passes_the_limits(game: str) -> None:
    # Generated code appends an event without Program.emit's checks only while the open
    # tail is shorter than core.ev_room: after every action, and after a rolled-back
    # failure (whose log is cut back), that room is never more than the limits allow.
    rules = tricklang.load(game)
    rng = random.Random(7)
    for seed in range(3):
        state = interpreter.new_game(rules, seed=seed)
        checked = 0
        while not state.is_terminal() and checked < 400:
            state.apply(state.sample_action(rng))
            checked += 1
            assert 0 <= state.core.ev_room <= _room_allowed(state.core)
        assert checked > 20


def test_a_rollback_leaves_no_more_room_for_events_than_the_cut_log_has() -> None:
    for seed in range(6):
        state = interpreter.new_game(tricklang.load("ecarte"), seed=seed)
        rng = random.Random(seed)
        for _ in range(70):  # past the first checkpoint (64 actions), sealed events behind
            if state.is_terminal():
                break
            state.apply(state.sample_action(rng))
        twin = state.clone()
        state.core = state._replay_core()  # what a failed action leaves (State._rolled_back)
        assert 0 <= state.core.ev_room <= _room_allowed(state.core)
        while not state.is_terminal():  # on from there, as the twin that never failed
            action = state.sample_action(rng)
            twin.apply(action)
            state.apply(action)
            assert 0 <= state.core.ev_room <= _room_allowed(state.core)
        assert state.to_json() == twin.to_json() and state.events(None) == twin.events(None)
