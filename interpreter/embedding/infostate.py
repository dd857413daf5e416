"""Information-state and observation strings that depend on what a seat knows, not on
the order in which the cards happened to come.

A seat's event log (:meth:`State.events`) lists the cards of a packet, a draw, a
discard, a move or an exposed zone in the order the runtime handled them: for a dealt
packet that is the order of the shuffled pack, which the seat cannot know and which
tells it nothing. Keyed by that order, tabular algorithms (CFR) would learn one
information set per order of every hand. :func:`canonical_events` puts such card lists
in deck order:

* ``dealt``, ``draw`` (``cards`` and ``taken_back``), ``select`` (a discard, a pass, a
  keep: a set of cards), ``move``, ``turn_up`` and ``exposed``: the cards in deck order,
  unless the cards go to (or show) the rule file's pack, whose order is information
  (which card will be drawn or turned next);
* a run of consecutive ``dealt`` events (one packet after another, nothing between):
  the cards each seat received in the run are pooled in deck order and handed back to
  its events in the run, each event keeping its size (dealing one card at a time gives
  the same string as dealing the hand at once would, for each order of the pack);
* everything whose order is information stays as it is: plays, tricks (cards with the
  seats that played them), bids, choices, the order of the events themselves.

The pending picks of a one-card selection are a set as well (the selection's future
depends on the cards picked, not on their order), and so are shown in deck order.

>>> events = [{"type": "dealt", "player": 0, "cards": ["KS"]},
...           {"type": "dealt", "player": 1, "count": 1},
...           {"type": "dealt", "player": 0, "cards": ["AS"]},
...           {"type": "play", "player": 0, "card": "KS", "trick": 1}]
>>> [e.get("cards") for e in canonical_events(events, {"AS": 0, "KS": 1})]
[['AS'], None, ['KS'], None]
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..state.state import State

SET_EVENTS = frozenset({"dealt", "draw", "select", "move", "turn_up", "exposed"})
"""The kinds of event whose ``cards`` are a set (unless they go to the pack)."""


def pack_zone(state: State) -> str | None:
    """The name of the rule file's pack zone (its stock), or None."""
    return next((z.name for z in state.ruleset.rules.zones if z.pack), None)


def card_order(state: State) -> dict[str, int]:
    """Each card code's place in the deck (the fixed order of canonical card lists)."""
    return {code: i for i, code in enumerate(state.cards)}


def canonical_events(events: Sequence[Mapping[str, Any]], order: Mapping[str, int],
                     pack: str | None = None) -> list[dict[str, Any]]:
    """A copy of a seat's events with the card lists that are sets in deck order (see
    the module docstring); ``order`` maps each card code to its place, ``pack`` names
    the pack zone (a move or turn-up to it keeps its order)."""
    out = [dict(e) for e in events]

    def key(code: str) -> int:
        return order.get(code, len(order))

    for e in out:
        if e.get("type") not in SET_EVENTS or pack is not None and pack in (e.get("to"), e.get("zone")):
            continue
        for field in ("cards", "taken_back"):
            if isinstance(e.get(field), list):
                e[field] = sorted(e[field], key=key)
    i = 0
    while i < len(out):
        j = i
        while j < len(out) and out[j].get("type") == "dealt":
            j += 1
        if j - i > 1:
            _pool_run(out[i:j], key)
        i = max(j, i + 1)
    return out


def _pool_run(run: list[dict[str, Any]], key: Any) -> None:
    """Hand each seat's cards of a run of ``dealt`` events back in deck order, sizes kept."""
    pooled: dict[Any, list[str]] = {}
    for e in run:
        if isinstance(e.get("cards"), list):
            pooled.setdefault(e.get("player"), []).extend(e["cards"])
    for cards in pooled.values():
        cards.sort(key=key)
    for e in run:
        if isinstance(e.get("cards"), list):
            cards = pooled[e.get("player")]
            e["cards"], pooled[e.get("player")] = cards[:len(e["cards"])], cards[len(e["cards"]):]


def information_state(state: State, player: int, *, events: bool = True,
                      observation: dict[str, Any] | None = None) -> dict[str, Any]:
    """A seat's observation with canonical events (``events=False``: without the log)
    and its pending picks in deck order. ``observation``: ``state.observation(player)``
    when the caller has it already (it is changed in place), saving a replay of the events.

    Raises:
        TypeError, ArgumentError: ``player`` is not a seat of this game.
    """
    obs = state.observation(player) if observation is None else observation
    order = card_order(state)
    if events:
        obs["events"] = canonical_events(obs["events"], order, pack_zone(state))
    else:
        del obs["events"]
    if isinstance(obs.get("picks"), list):
        obs["picks"] = sorted(obs["picks"], key=lambda c: order.get(c, len(order)))
    return obs


def information_state_string(state: State, player: int) -> str:
    """The seat's information state as canonical JSON (keys sorted; see the module docstring).

    Raises:
        TypeError, ArgumentError: ``player`` is not a seat of this game.
    """
    return json.dumps(information_state(state, player), sort_keys=True, ensure_ascii=False)


def observation_string(state: State, player: int) -> str:
    """The seat's observation without the event log, as canonical JSON.

    Raises:
        TypeError, ArgumentError: ``player`` is not a seat of this game.
    """
    return json.dumps(information_state(state, player, events=False), sort_keys=True, ensure_ascii=False)
