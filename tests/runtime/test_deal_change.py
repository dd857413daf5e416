"""The change of deal and the limits on events.

The generated module counts every event it logs (``_ev``) on the live core, recorded or
not, against the events one deal and one match may log (``MAX_EV_DEAL``,
``MAX_EV_MATCH``: interpreter.codegen.module's limits). Passing one raises GameLimitError
at the very event that passes it (in a deal change too: the deal's end, the next one's
layout and dealing, the turn-up, the trump, a score), and the state is as before the
action. The core a state holds is a function of its log: a fresh replay builds it again,
field for field, across deal changes.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter import GameLimitError
from interpreter.codegen.module import MAX_EVENTS_PER_DEAL, MAX_EVENTS_PER_MATCH
from tricklang.catalog import bundled_games


def _core(c: Any) -> dict[str, Any]:
    return {name: (list(v) if isinstance(v := getattr(c, name), list) else v) for name in type(c).__slots__}


def _kept(state: interpreter.State) -> tuple[Any, ...]:
    return state.to_json(), state.events(None), list(state.actors), _core(state._c)


Call = tuple[int, int, int, str]
"""A counted event: (actions taken before it, events of the deal before it, of the match, the function logging it)."""


@contextmanager
def _counting(game: Any, state_of: list[interpreter.State]) -> Iterator[list[Call]]:
    """Every event the live core of ``state_of[0]`` counts, as a Call (the recorder's are left out)."""
    m = game.m
    real = m["_ev"]
    calls: list[Call] = []

    def ev(c: Any) -> None:
        if not c.rec:
            taken = state_of[0].action_count if state_of else -1
            calls.append((taken, c.nev, c.nevm + c.nev, sys._getframe(1).f_code.co_name))
        real(c)

    m["_ev"] = ev
    try:
        yield calls
    finally:
        m["_ev"] = real


def _match(rules: tricklang.Ruleset, seed: int, limit: int = 400) -> list[Call]:
    """The events a random match counts, action by action (-1: before the first)."""
    game = interpreter.Game.of(rules)
    holder: list[interpreter.State] = []
    with _counting(game, holder) as calls:
        state = interpreter.new_game(rules, seed=seed)
        holder.append(state)
        rng = random.Random(seed)
        while not state.is_terminal() and state.action_count < limit:
            state.apply(state.sample_action(rng))
    return calls


@contextmanager
def _limits(rules: tricklang.Ruleset, deal: int = MAX_EVENTS_PER_DEAL, match: int = MAX_EVENTS_PER_MATCH) -> Iterator[None]:
    m = interpreter.Game.of(rules).m
    saved = m["MAX_EV_DEAL"], m["MAX_EV_MATCH"]
    m["MAX_EV_DEAL"], m["MAX_EV_MATCH"] = deal, match
    try:
        yield
    finally:
        m["MAX_EV_DEAL"], m["MAX_EV_MATCH"] = saved


def _fails_at(rules: tricklang.Ruleset, seed: int, action: int, message: str) -> None:
    """Under the limits set, the random match of ``seed`` takes ``action`` actions, then
    the next one raises GameLimitError(message) and changes nothing; a playout stops there too."""
    if action < 0:
        with pytest.raises(GameLimitError, match=f"^{message}$"):
            interpreter.new_game(rules, seed=seed)
        return
    state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
    for _ in range(action):
        state.apply(state.sample_action(rng))
    before, twin = _kept(state), random.Random()
    twin.setstate(rng.getstate())
    with pytest.raises(GameLimitError, match=f"^{message}$"):
        state.apply(state.sample_action(rng))
    assert _kept(state) == before
    played = interpreter.new_game(rules, seed=seed)
    with pytest.raises(GameLimitError, match=f"^{message}$"):
        played.playout(random.Random(seed))
    assert _kept(played) == before


ECARTE = tricklang.load("ecarte")


def _deal_change(calls: list[Call]) -> list[Call]:
    """The events counted by the action that ends the first deal and lays out the second."""
    action = next(taken for taken, _, _, fn in calls if fn == "_end_deal")
    return [call for call in calls if call[0] == action]


def test_a_deal_change_counts_the_events_of_the_deals_end_and_the_next_ones_start() -> None:
    change = _deal_change(_match(ECARTE, seed=4))
    loggers = [fn for *_, fn in change]
    end = loggers.index("_end_deal")
    assert "_add_score" in loggers[:end]  # the deal scored first
    assert loggers[end:end + 2] == ["_end_deal", "start_deal"] and loggers.count("_deal") == 2  # dealt to each seat
    assert {"_set_trump", "b3"} <= set(loggers[end:])  # the turn-up (its block) and the trump
    totals = [total for _, _, total, _ in change]
    assert totals == list(range(totals[0], totals[0] + len(totals)))  # one by one, none uncounted
    deals = [nev for _, nev, _, _ in change[end:]]
    assert deals[0] > 0 and deals[1:] == list(range(len(deals) - 1))  # the new deal counts from 0


@pytest.mark.parametrize("at", range(7))
def test_the_match_event_limit_stops_a_deal_change_at_the_event_that_passes_it(at: int) -> None:
    change = _deal_change(_match(ECARTE, seed=4))
    if at >= len(change):  # pragma: no cover - Écarté's deal change logs 7 events or more
        pytest.fail(f"the deal change counts {len(change)} events")
    action, _, total, _ = change[at]
    with _limits(ECARTE, match=total):  # that event is one too many
        _fails_at(ECARTE, 4, action, f"the match logged more than {total} events")


@pytest.mark.parametrize("game", ["ecarte", "cinch", "euchre", "hearts"])
def test_the_deal_event_limit_stops_the_first_deal_that_passes_it(game: str) -> None:
    rules = tricklang.load(game)
    calls = _match(rules, seed=2, limit=300)
    most = max(nev for _, nev, _, _ in calls)  # the most events a deal counted before one more
    for limit in (1, 2, most // 2, most):
        action = next(taken for taken, nev, _, _ in calls if nev >= limit)
        with _limits(rules, deal=limit):
            _fails_at(rules, 2, action, f"the deal logged more than {limit} events")


def test_the_limits_are_those_of_the_code_generator() -> None:
    m = interpreter.Game.of(ECARTE).m
    assert (m["MAX_EV_DEAL"], m["MAX_EV_MATCH"]) == (MAX_EVENTS_PER_DEAL, MAX_EVENTS_PER_MATCH)


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_the_core_is_rebuilt_field_for_field_by_replaying_the_log(game: str) -> None:
    """Across deal changes (the deal's fields reset, the dealer passed on, scores carried),
    a fresh core that replays the log is the state's core; a clone's and a restored
    snapshot's are too."""
    rules = tricklang.load(game)
    for seed, mode in ((1, "strict"), (7, "table")):
        state, rng = interpreter.new_game(rules, seed=seed, mode=mode), random.Random(seed)
        deals = 0
        snapshot = state.snapshot()
        while not state.is_terminal() and state.action_count < 300:
            deal = state.deal_number
            state.apply(state.sample_action(rng))
            if state.deal_number != deal or state.action_count % 37 == 0:
                deals += state.deal_number != deal
                assert _core(state._replayed()) == _core(state._c)
                assert _core(state.clone()._c) == _core(state._c)
                twin = state.clone()
                twin.restore(snapshot)
                snapshot = state.snapshot()
        assert deals >= 1 or state.is_terminal()
