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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter import GameLimitError
from interpreter.codegen.module import MAX_EVENTS_PER_DEAL, MAX_EVENTS_PER_MATCH
from tricklang.catalog import bundled_games

pytestmark = pytest.mark.usefixtures("written_modules")
"""These tests replace ``_ev`` and the event limits in a module's namespace: they run the
modules as written (in their CPython flavour ``_ev`` is inlined and the limits written in)."""


def _core(c: Any) -> dict[str, Any]:
    return {name: (list(v) if isinstance(v := getattr(c, name), list) else v) for name in type(c).__slots__}


def _kept(state: interpreter.State) -> tuple[Any, ...]:
    return state.to_json(), state.events(None), list(state.actors), _core(state._c)


Call = tuple[int, int, int]
"""A counted event: (actions taken before it, events the deal counted before it, the match)."""


@contextmanager
def _counting(game: Any, state_of: list[interpreter.State]) -> Iterator[list[Call]]:
    """Every event the live core of ``state_of[0]`` counts, as a Call (the recorder's are left out)."""
    m = game.m
    real = m["_ev"]
    calls: list[Call] = []

    def ev(c: Any) -> None:
        if not c.rec:
            taken = state_of[0].action_count if state_of else -1
            calls.append((taken, c.nev, c.nevm + c.nev))
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


def _first_deal_change(rules: tricklang.Ruleset, seed: int) -> tuple[list[Call], list[str]]:
    """The events counted by the action that ends the first deal and lays out the second,
    and the types of the events it logs."""
    calls = _match(rules, seed)
    state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
    while state.deal_number == 1:
        n = state.event_count
        state.apply(state.sample_action(rng))
    action = state.action_count - 1
    return [call for call in calls if call[0] == action], [e["type"] for e in state.events(None, start=n)]


def test_a_deal_change_counts_each_event_it_logs_but_the_cards_played() -> None:
    """The events counted are those logged, but a card played and a trick taken (a deal's
    cards bound those); the new deal counts from 0, the match goes on counting."""
    change, logged = _first_deal_change(ECARTE, seed=4)
    assert logged[:2] == ["play", "trick"] and {"score", "deal_end", "deal", "dealt", "turn_up", "trump"} <= set(logged)
    counted = [kind for kind in logged if kind not in ("play", "trick")]
    assert len(change) == len(counted) >= 7
    totals = [total for _, _, total in change]
    assert totals == list(range(totals[0], totals[0] + len(totals)))  # one by one
    new_deal = counted.index("deal")
    deals = [nev for _, nev, _ in change]
    assert deals[new_deal:] == list(range(len(deals) - new_deal))  # the new deal counts from 0
    assert deals[:new_deal] == list(range(deals[0], deals[0] + new_deal)) and deals[0] > 0


@pytest.mark.parametrize("at", range(7))
def test_the_match_event_limit_stops_a_deal_change_at_the_event_that_passes_it(at: int) -> None:
    """Each of the seven events Écarté's first deal change counts (the score, the deal's
    end, the next deal, the cards dealt to each seat, the turn-up, the trump) in turn."""
    change, _ = _first_deal_change(ECARTE, seed=4)
    action, _, total = change[at]
    with _limits(ECARTE, match=total):  # that event is one too many
        _fails_at(ECARTE, 4, action, f"the match logged more than {total} events")


@pytest.mark.parametrize("game", ["ecarte", "cinch", "euchre", "hearts"])
def test_the_deal_event_limit_stops_the_first_deal_that_passes_it(game: str) -> None:
    rules = tricklang.load(game)
    calls = _match(rules, seed=2, limit=300)
    most = max(nev for _, nev, _ in calls)  # the most events a deal counted before one more
    for limit in (1, 2, most // 2, most):
        action = next(taken for taken, nev, _ in calls if nev >= limit)
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
