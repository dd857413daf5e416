"""What each page is sent: a seat's view is its observation and nothing more; the public
view is what every seat knows; no view changes when the cards hidden from its reader
trade places (at every step of seeded Écarté and Cinch matches, strict and table mode)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from serve_helpers import swapped

import tricklang
from interpreter.players import HeuristicAgent, RandomAgent
from interpreter.serve import views
from interpreter.state import State, new_game


def _steps(state: State, seed: int, limit: int) -> Any:
    """Play on with built-in players (a regular action in table mode), yielding each state."""
    agents = [HeuristicAgent(seed), RandomAgent(seed + 1)]
    rng = random.Random(seed)
    for _ in range(limit):
        yield state
        if state.is_terminal():
            return
        seat = state.current_player
        assert seat is not None
        action = agents[rng.randrange(2)](state)
        if action.verb == "irregular":
            action = next(a for a in state.legal_actions() if a.verb != "irregular")
        state.apply(action)


def test_seat_view_is_the_observation_and_the_decision() -> None:
    state = new_game(tricklang.load("ecarte"), seed=42)
    seat = state.current_player
    assert seat is not None
    view = views.seat_view(state, seat)
    obs = state.observation(seat)
    assert view["observation"] == {k: v for k, v in obs.items() if k not in ("events", "legal_actions")}
    assert [e["event"] for e in view["events"]] == obs["events"]
    assert view["hand"] == state.hand(seat)
    assert view["decision"]["actions"] == obs["legal_actions"] == ["stand", "propose"]
    other = views.seat_view(state, 1 - seat)
    assert other["decision"] is None and other["hand"] == state.hand(1 - seat)
    assert views.seat_view(state, seat, since=3)["events"][0]["n"] == 3


def test_play_decision_lists_the_playable_cards_and_why_the_others_are_not() -> None:
    state = new_game(tricklang.load("ecarte"), seed=42)
    for text in ("propose", "accept", "discard 10c 8D"):
        state.apply(text)
    while state.decision is not None and state.decision.kind != "play":
        state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])  # a lead: the next player must follow
    seat = state.current_player
    assert seat is not None
    decision = views.seat_view(state, seat)["decision"]
    assert decision["kind"] == "play"
    assert set(decision["playable"]) == {a.args[0] for a in state.legal_actions() if a.verb == "play"}
    assert set(decision["playable"]) | set(decision["refused"]) == set(state.hand(seat))
    for card, reason in decision["refused"].items():
        assert reason == state.why_illegal(f"play {card}") and reason


def test_selection_decision_carries_its_cards_and_bounds() -> None:
    state = new_game(tricklang.load("ecarte"), seed=42)
    state.apply("propose")
    state.apply("accept")
    seat = state.current_player
    assert seat is not None
    decision = views.seat_view(state, seat)["decision"]
    assert decision["selection"] == {"verb": "discard", "low": 1, "high": 5, "cards": state.hand(seat)}
    assert decision["actions"] == []


def test_public_view_shows_only_what_every_seat_sees() -> None:
    state = new_game(tricklang.load("ecarte"), seed=42)
    view = views.public_view(state)
    zones = view["observation"]["zones"]
    assert zones["hand"] == {"0": {"count": 5}, "1": {"count": 5}}
    assert zones["turnup"]["cards"] == state.zone("turnup")
    shown = views.public_cards(view)
    assert not shown & set(state.hand(0) + state.hand(1))
    dealt = [e["event"] for e in view["events"] if e["event"]["type"] == "dealt"]
    assert dealt and all("cards" not in e for e in dealt)


@pytest.mark.parametrize(("game", "mode", "seed", "limit"), [
    ("ecarte", "strict", 1, 400), ("ecarte", "table", 2, 400), ("ecarte", "strict", 3, 400),
    ("cinch", "strict", 4, 80), ("cinch", "table", 5, 80),
])
def test_no_view_changes_when_hidden_cards_trade_places(game: str, mode: str, seed: int, limit: int) -> None:
    state = new_game(tricklang.load(game), seed=seed, mode=mode)
    compared = 0
    for now in _steps(state, seed, limit):
        for seat in range(now.player_count):
            other = swapped(now, seat)
            if other is not None:
                assert views.seat_view(other, seat) == views.seat_view(now, seat), f"seat {seat} after {len(now.actions)}"
                compared += 1
        other = swapped(now, None)
        if other is not None:
            assert views.public_view(other) == views.public_view(now)
            assert views.referee_view(other) == views.referee_view(now)
            compared += 1
    assert compared > 50


def test_referee_view_offers_continue_at_a_pause_and_only_public_irregularities() -> None:
    state = new_game(tricklang.load("ecarte"), seed=42, mode="table")
    while state.decision is not None and state.decision.kind != "pause":
        state.apply(next(a for a in state.legal_actions() if a.verb != "irregular"))
    view = views.referee_view(state)
    decision = view["decision"]
    assert decision["pause"] and decision["actions"] == ["continue"]
    seen = views.public_cards(view)
    cards = set(state.cards)
    assert decision["irregularities"]
    for text in decision["irregularities"]:
        assert all(word in seen for word in text.split()[3:] if word in cards)
    hidden = [a.text for a in state.legal_actions().explicit if a.verb == "irregular" and a.text not in
              decision["irregularities"]]
    assert all(any(word in cards and word not in seen for word in text.split()[3:]) for text in hidden)
    assert views.seat_view(state, 0)["decision"] is None  # a pause is the referee's
