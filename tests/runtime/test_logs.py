"""The compact logs of a State (interpreter.logs): they read exactly as the lists they
replace, through appends, pops, sealing, rollbacks and copies."""

from __future__ import annotations

import pickle
import random
import textwrap

import interpreter.logs
import pytest
from hypothesis import given
from hypothesis import strategies as st
from interpreter.logs import ActionLog, EventLog

import interpreter
import tricklang
from interpreter import RuleRuntimeError

WORDS = st.sampled_from(["play", "discard", "bid", "10H", "KS", "none", "", "7", "irregular", "é"])
TEXTS = st.lists(WORDS, min_size=1, max_size=6).map(" ".join)


@given(st.lists(st.one_of(TEXTS, st.just(None)), max_size=120))
def test_an_action_log_reads_as_the_list_of_its_texts(steps: list[str | None]) -> None:
    log, model = ActionLog(), []
    copies: list[tuple[ActionLog, list[str]]] = []
    for text in steps:
        if text is None:  # take one back, and keep a copy
            if model:
                assert log.pop() == model.pop()
            copies.append((log.copy(), list(model)))
        else:
            log.append(text)
            model.append(text)
    assert log == model and list(log) == model and len(log) == len(model)
    assert [log[i] for i in range(-len(model), len(model))] == model + model if model else True
    assert log[3:17] == model[3:17] and log[::2] == model[::2]
    assert pickle.loads(pickle.dumps(log)) == model
    for copy, then in copies:  # copies are independent of what the log did later
        assert copy == then


def test_an_action_log_refuses_what_a_list_refuses() -> None:
    log = ActionLog(["pass"])
    with pytest.raises(IndexError):
        log[1]  # noqa: B018
    log.pop()
    with pytest.raises(IndexError):
        log.pop()
    with pytest.raises(TypeError):
        hash(log)


def test_an_action_log_with_many_words_widens_its_codes() -> None:
    texts = [f"bid {i} {i + 1}" for i in range(40_000)]
    log = ActionLog(texts)
    assert log[39_999] == "bid 39999 40000" and list(log) == texts


ENTRIES = st.one_of(st.integers(0, 1 << 20), st.tuples(st.integers(0, 12), st.integers(0, 3), st.text(max_size=3)))


@given(st.lists(st.one_of(ENTRIES, st.sampled_from(["seal", "cut", "set", "copy"])), max_size=150),
       st.randoms(use_true_random=False))
def test_an_event_log_reads_as_the_list_of_its_entries(steps: list[object], rng: random.Random) -> None:
    log, model = EventLog(), []
    copies: list[tuple[EventLog, list[object]]] = []
    saved = interpreter.logs.SEAL_AT_LEAST
    interpreter.logs.SEAL_AT_LEAST = 3
    try:
        for step in steps:
            if step == "seal":
                log.seal()
            elif step == "cut":
                n = rng.randint(0, len(model))
                del log[n:]
                del model[n:]
            elif step == "set":
                if len(model) > log._sealed:
                    model[-1] = log[-1] = ("replaced",)
            elif step == "copy":
                copies.append((log.copy(), list(model)))
            else:
                log.append(step)  # type: ignore[arg-type]
                model.append(step)
            assert len(log) == len(model)
    finally:
        interpreter.logs.SEAL_AT_LEAST = saved
    assert log == model and list(log) == model
    assert [log[i] for i in range(len(model))] == model
    if model:
        start = rng.randint(0, len(model))
        assert log[start:] == model[start:] and log[-1] == model[-1] and log[1:3] == model[1:3]
    assert pickle.loads(pickle.dumps(log)) == model
    for copy, then in copies:
        assert copy == then


def test_an_event_log_refuses_to_rewrite_sealed_entries() -> None:
    log = EventLog(range(300))
    log.seal()
    with pytest.raises(IndexError):
        log[5] = 0
    with pytest.raises(TypeError):
        del log[3:5]
    with pytest.raises(IndexError):
        log[300]  # noqa: B018


MANY_DEALS = """
    tricklang 1
    game "Unset, many times"
    players 2
    deck
      suits spades black, hearts red
      ranks A K Q J
    zone hand: per player, owner
    zone stock: shared, hidden, pack
    match
      game to 1000, after the deal
    deal
      deal 2 to each
      dealer chooses:
        fine:
          let x = 1
        broken:
          pass
      dealer scores x
"""


def test_a_failed_action_rolls_back_across_sealed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(interpreter.logs, "SEAL_AT_LEAST", 1)  # every deal seals the ones before
    rules = tricklang.loads(textwrap.dedent(MANY_DEALS).lstrip(), path="<many>")
    state = interpreter.new_game(rules, seed=4)
    for _ in range(100):  # past a checkpoint (every 64 actions), one deal per action
        state.apply("fine")
    assert state.core.events._sealed > 0
    before, events, clone = state.to_json(), state.events(None), state.clone()
    with pytest.raises(RuleRuntimeError):
        state.apply("broken")
    assert state.to_json() == before and state.events(None) == events
    state.apply("fine")
    clone.apply("fine")
    fresh = interpreter.State.from_json(state.to_json())
    assert state.events(None) == clone.events(None) == fresh.events(None)
    assert state.observation(0) == fresh.observation(0)


def test_a_long_match_reads_the_same_sealed_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load("rules/cinch.trick", options={"target": 999})

    def play() -> interpreter.State:
        state = interpreter.new_game(rules, seed=9)
        rng = random.Random(9)
        snapshot = None
        while len(state.actions) < 600:  # some twenty deals
            if len(state.actions) == 100:
                snapshot = state.snapshot()
            state.apply(state.sample_action(rng))
        assert snapshot is not None
        undone = state.clone()
        undone.restore(snapshot)
        assert len(undone.actions) == 100 and undone.actions == state.actions[:100]
        return state

    sealed = play()
    monkeypatch.setattr(interpreter.logs, "SEAL_AT_LEAST", 10**9)
    unsealed = play()
    assert sealed.core.events._sealed > 0 and unsealed.core.events._sealed == 0
    assert sealed.events(None) == unsealed.events(None)
    n = sealed.event_count
    assert n == len(sealed.events(None)) and sealed.events(0, start=n - 5) == sealed.events(0)[n - 5:]
    assert sealed.observation(1) == unsealed.observation(1)
    assert sealed.to_json() == unsealed.to_json() and sealed.history == unsealed.history
