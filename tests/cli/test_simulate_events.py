"""`tricklang simulate` asks for a match's events once: ``State.events`` replays the match
to rebuild them at every call, and three calls a match made ``simulate`` about 3x the bare
loop (``benchmarks.bench``'s line)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from interpreter import State
from interpreter.cli import main


def test_simulate_asks_each_match_for_its_events_once(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[int] = []
    events = State.events

    def counted(self: State, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return events(self, *args, **kwargs)

    monkeypatch.setattr(State, "events", counted)
    assert main(["simulate", "ecarte", "-n", "5", "--seed", "2", "--seats", "random", "--json"]) == 0
    assert len(calls) == 5
    summary = json.loads(capsys.readouterr().out)
    assert summary["matches"] == 5 and summary["choices"] and summary["points"]


def test_simulate_replays_no_match(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Its states record their events as they are played (``record_events``): reading them
    replays nothing (the replay cost simulate as much as playing the match)."""
    from interpreter.state import replay

    replays: list[int] = []
    catch_up = replay.Recorder.catch_up

    def counted(self: replay.Recorder, state: Any) -> None:
        replays.append(1)
        catch_up(self, state)

    monkeypatch.setattr(replay.Recorder, "catch_up", counted)
    assert main(["simulate", "cinch", "-n", "3", "--seed", "2", "--seats", "random", "--json"]) == 0
    assert replays == []
    assert json.loads(capsys.readouterr().out)["matches"] == 3


def test_simulate_logs_only_the_events_its_summary_reads(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Logging every event costs a random match about a fifth of its time: its states log
    the types the summary reads (``SUMMARY_EVENTS``), no played card, no trick, no deal."""
    from interpreter.cli import simulate
    from interpreter.state.events import render

    states: list[State] = []
    new_game = simulate.new_game

    def kept(*args: Any, **kwargs: Any) -> State:
        states.append(new_game(*args, **kwargs))
        return states[-1]

    monkeypatch.setattr(simulate, "new_game", kept)
    assert main(["simulate", "euchre", "-n", "3", "--seed", "2", "--seats", "random", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["choices"]
    assert len(states) == 3
    for state in states:
        logged = {render(state.game, entry)[0]["type"] for entry in state._c.log}
        assert logged and logged <= simulate.SUMMARY_EVENTS
        assert state.events(None, types={"score"}) == State.from_json(state.to_json()).events(None, types={"score"})
