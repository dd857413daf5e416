"""``new_game(..., record_events=True)``: the events logged as the match is played are
exactly those a replay rebuilds, whatever happened to the state (clones going on apart,
snapshots restored, an action that failed and was rolled back, playouts)."""

from __future__ import annotations

import random
import textwrap

import pytest
from helpers import MANY_DEALS
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter.errors import ArgumentError, RecordError, RuleRuntimeError
from interpreter.state.replay import Recorder

GAMES = ["ecarte", "cinch", "euchre", "hearts", "whist", "auction-pitch"]


def replayed_events(state: interpreter.State) -> list[object]:
    """The events of a state that does not record them (rebuilt by a replay)."""
    plain = interpreter.State.from_json(state.to_json())
    return [plain.events(seat) for seat in (None, *range(state.player_count))]


def live_events(state: interpreter.State) -> list[object]:
    """The events a recording state read from its own log: reading them must replay nothing
    (a state that lost its recording, after a rollback or a restore, would replay)."""
    catch_up = Recorder.catch_up

    def no_replay(self: Recorder, state: object) -> None:
        raise AssertionError("the events were rebuilt by a replay: the state no longer records them")

    Recorder.catch_up = no_replay  # type: ignore[method-assign]
    try:
        return [state.events(seat) for seat in (None, *range(state.player_count))]
    finally:
        Recorder.catch_up = catch_up  # type: ignore[method-assign]


@settings(max_examples=25, deadline=None)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 10**6), steps=st.integers(0, 120))
def test_live_events_are_the_replayed_ones(game: str, seed: int, steps: int) -> None:
    rules = tricklang.load(game)
    rng = random.Random(seed)
    state = interpreter.new_game(rules, seed=seed, record_events=True)
    snap = state.snapshot()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(state.sample_action(rng))
        if rng.random() < 0.1:
            snap = state.snapshot()
    assert live_events(state) == replayed_events(state)
    assert state.event_count == len(state.events())
    twin = state.clone()
    if not twin.is_terminal():
        twin.playout(rng, deal=True)
    assert live_events(twin) == replayed_events(twin)
    state.restore(snap)
    assert live_events(state) == replayed_events(state)


def test_a_failed_action_rolls_the_recorded_events_back() -> None:
    rules = tricklang.loads(textwrap.dedent(MANY_DEALS).lstrip(), path="<many>")
    state = interpreter.new_game(rules, seed=4, record_events=True)
    for _ in range(30):
        state.apply("fine")
    before = live_events(state)
    with pytest.raises(RuleRuntimeError, match="read before it was given a value"):
        state.apply("broken")  # (it scored nothing, dealt nothing: its events are gone)
    assert live_events(state) == before == replayed_events(state)
    state.apply("fine")
    assert live_events(state) == replayed_events(state) and state.event_count > len(before[0])


def test_record_events_needs_the_default_modes() -> None:
    rules = tricklang.load("ecarte")
    with pytest.raises(RecordError, match="record_events need the default selections"):
        interpreter.new_game(rules, seed=1, record_events=True, selections="one_card")
    with pytest.raises(RecordError, match="record_events need the default selections"):
        interpreter.new_game(rules, seed=1, record_events=True, chance="explicit")


@pytest.mark.parametrize("game", GAMES)
def test_events_of_some_types_are_those_events(game: str) -> None:
    state = interpreter.new_game(tricklang.load(game), seed=11, record_events=True)
    state.playout(random.Random(2))
    for seat in (None, *range(state.player_count)):
        every = state.events(seat)
        for kinds in ({"play"}, {"score", "match_end"}, {"deal", "trump", "choice", "bid", "pass"}):
            assert state.events(seat, types=kinds) == [e for e in every if e["type"] in kinds]


def test_an_unknown_event_type_is_an_argument_error() -> None:
    state = interpreter.new_game(tricklang.load("ecarte"), seed=1)
    with pytest.raises(ArgumentError, match="no event has the type 'scores'"):
        state.events(None, types={"score", "scores"})
    with pytest.raises(ArgumentError, match="types must be a collection"):
        state.events(None, types="score")


SOME = frozenset({"score", "match_end", "choice", "bid", "pass", "trump", "declare"})


@pytest.mark.parametrize("game", GAMES)
def test_recording_some_types_logs_those_and_reads_the_rest_by_a_replay(game: str) -> None:
    """``record_events=TYPES`` logs the events of those types only: reading those types
    replays nothing; any other reading (every event, a count, from an event number on)
    replays the match, as a state that records nothing does, and finds the same."""
    rules = tricklang.load(game)
    some = interpreter.new_game(rules, seed=5, record_events=SOME)
    plain = interpreter.new_game(rules, seed=5)
    rng = random.Random(3)
    while not some.is_terminal():
        action = some.sample_action(rng)
        some.apply(action)
        plain.apply(action.text)
    assert some._c.log is not None and all(type(e) is not int for e in some._c.log)  # (no play logged)
    seats = (None, *range(some.player_count))
    kinds = (SOME, {"score"}, {"bid", "pass"})
    expected = [plain.events(seat, types=k) for seat in seats for k in kinds]
    catch_up = Recorder.catch_up

    def no_replay(self: Recorder, state: object) -> None:
        raise AssertionError("the events of the types recorded were rebuilt by a replay")

    Recorder.catch_up = no_replay  # type: ignore[method-assign]
    try:
        assert [some.events(seat, types=k) for seat in seats for k in kinds] == expected
    finally:
        Recorder.catch_up = catch_up  # type: ignore[method-assign]
    assert some.events(None) == plain.events(None) and some.event_count == plain.event_count
    assert some.events(None, types={"play", "score"}) == plain.events(None, types={"play", "score"})
    half = plain.event_count // 2
    assert some.events(None, half, types=SOME) == plain.events(None, half, types=SOME)
    twin = some.clone()
    assert twin.events(None, types={"score"}) == plain.events(None, types={"score"})


def test_record_events_takes_a_bool_or_event_types() -> None:
    rules = tricklang.load("ecarte")
    with pytest.raises(ArgumentError, match="no event has the type 'scores'"):
        interpreter.new_game(rules, seed=1, record_events={"scores"})
    with pytest.raises(ArgumentError, match="record_events must be true, false or a collection"):
        interpreter.new_game(rules, seed=1, record_events=1)  # type: ignore[arg-type]
    assert interpreter.new_game(rules, seed=1, record_events=set())._c.log is None  # (nothing to log)


def test_shared_renders_give_the_same_events() -> None:
    from interpreter.state.events import Renders

    memo = Renders()
    for game, seed in (("ecarte", 1), ("cinch", 2), ("ecarte", 3)):
        state = interpreter.new_game(tricklang.load(game), seed=seed, record_events=True)
        state.playout(random.Random(seed))
        for seat in (None, 0, 1):
            assert state.events(seat, memo=memo) == state.events(seat)
            assert state.events(seat, types=SOME, memo=memo) == state.events(seat, types=SOME)
