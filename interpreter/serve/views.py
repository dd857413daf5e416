"""What the server sends to each page: a seat's view, the public view (spectators) and
the referee's view, each built only from the public API of :class:`~interpreter.State`.

A seat's view is ``state.observation(seat)`` (its hand, the public zones, the trick, the
scores, the events that seat has seen, rendered as the transcript renders them) and, at
that seat's own decision, what the decision offers (``state.decision``, the legal actions
but the irregularities, a card selection's candidates and bounds, and ``why_illegal`` for
each card of its own hand it may not play). Nothing else of the state is read for it.

The public view is what *every* seat may know: the parts of the seats' observations that
are the same for all of them (a zone whose cards one seat does not see shows only its
size; an event some seat sees only in part shows that part). It is what a spectator sees,
and what the referee of a table sees, with the irregularities on offer whose arguments
are all public.

Every function here is pure: the same state gives the same view, and the tests check that
a view does not change when cards hidden from its reader trade places (the wire leak check).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..transcript import event_lines

if TYPE_CHECKING:
    from ..state import State

MAX_LISTED_ACTIONS = 400
"""Beyond this many regular actions (not a card selection) only their count is sent."""

_OWN = ("seat", "legal_actions", "events", "zones")
"""Observation fields that differ by seat by design, or are built apart in the public view."""


def seat_view(state: State, seat: int, since: int = 0) -> dict[str, Any]:
    """What the page of ``seat`` receives: its observation, the events from number ``since``
    on (rendered), and at its own decision the choices it has.

    Raises:
        TypeError, ArgumentError: ``seat`` is not a seat of the game (as ``observation``).
    """
    obs = state.observation(seat)
    events = obs.pop("events")
    obs.pop("legal_actions", None)
    view: dict[str, Any] = {
        "role": "seat",
        "seat": seat,
        "turn": len(state.actions),
        "observation": obs,
        "hand": _hand(obs, seat),
        "events": _rendered(state, events, since),
        "event_count": len(events),
        "decision": None,
        "over": state.is_terminal(),
    }
    decision = state.decision
    if decision is not None and decision.seat == seat and decision.kind != "pause":
        view["decision"] = _decision_for(state, seat, view["hand"])
    return view


def public_view(state: State, since: int = 0) -> dict[str, Any]:
    """What every seat may know (for spectators): the fields of the seats' observations
    that are the same for all, zones whose cards every seat sees, and each event as the
    seat that sees least of it sees it."""
    count = state.player_count
    views = [state.observation(p) for p in range(count)]
    common: dict[str, Any] = {}
    for key, value in views[0].items():
        if key not in _OWN and all(v.get(key) == value for v in views[1:]):
            common[key] = value
    common["seat"] = None
    common["zones"] = _common_zones([v["zones"] for v in views])
    events = _common_events(state, [v["events"] for v in views])
    return {
        "role": "spectator",
        "seat": None,
        "turn": len(state.actions),
        "observation": common,
        "hand": [],
        "events": _rendered(state, events, since),
        "event_count": len(events),
        "decision": None,
        "over": state.is_terminal(),
    }


def referee_view(state: State, since: int = 0) -> dict[str, Any]:
    """The public view, and (in table mode, while the match goes on) what the referee may
    record now: ``continue`` at a referee's pause, and the irregularities on offer whose
    card arguments are all public (others are recorded through the forms of
    :func:`irregularity_forms`)."""
    view = public_view(state, since)
    view["role"] = "referee"
    decision = state.decision
    if state.mode != "table" or decision is None:
        return view
    seen = public_cards(view)
    cards = set(state.cards)
    offered = [a.text for a in state.legal_actions().explicit
               if a.verb == "irregular" and all(x in seen for x in a.args if x in cards)]
    view["decision"] = {
        "kind": "referee",
        "pause": decision.kind == "pause",
        "phase": decision.phase,
        "actions": ["continue"] if decision.kind == "pause" else [],
        "irregularities": offered,
    }
    return view


def public_cards(view: dict[str, Any]) -> set[str]:
    """The card codes a (public) view shows where they lie now: its zones and the trick
    (not its events: a card seen earlier may since have gone where it is hidden)."""
    found: set[str] = set()
    _collect_strings(view["observation"].get("zones", {}), found)
    _collect_strings(view["observation"].get("trick", []), found)
    return found


def _collect_strings(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _collect_strings(v, out)
    elif isinstance(value, list):
        for v in value:
            _collect_strings(v, out)


def _hand(obs: dict[str, Any], seat: int) -> list[str]:
    """The seat's own hand as its observation shows it (trumps first, then by suit)."""
    hands = obs["zones"].get("hand", {})
    own = hands.get(str(seat), {}) if isinstance(hands, dict) else {}
    cards = own.get("cards", []) if isinstance(own, dict) else []
    return list(cards)


def _rendered(state: State, events: Sequence[dict[str, Any]], since: int) -> list[dict[str, Any]]:
    """Events from number ``since`` on, each with the transcript's lines for it."""
    start = max(0, min(since, len(events)))
    return [{"n": n, "event": e, "lines": [line.strip() for line in event_lines(state, e)]}
            for n, e in enumerate(events[start:], start)]


def _decision_for(state: State, seat: int, hand: list[str]) -> dict[str, Any]:
    """The decision pending for ``seat`` as its page shows it: the kind and bounds, the
    regular actions (as buttons), a selection's candidate cards, and for trick play the
    cards it may play and why each other card of its hand may not be played."""
    decision = state.decision
    assert decision is not None
    legal = state.legal_actions()
    regular = [a for a in legal.explicit if a.verb != "irregular"]
    out: dict[str, Any] = {"kind": decision.kind, "phase": decision.phase,
                           "low": decision.low, "high": decision.high}
    selection = legal.selection
    if selection is not None:
        out["selection"] = {"verb": selection.verb, "low": selection.lo, "high": selection.hi,
                            "cards": [selection.codes[c] for c in selection.cards]}
    plays = [a for a in regular if a.verb == "play" and len(a.args) == 1]
    if plays:
        playable = [a.args[0] for a in plays]
        out["playable"] = playable
        out["refused"] = {card: state.why_illegal(f"play {card}") for card in hand if card not in playable}
    others = [a for a in regular if a not in plays]
    out["action_count"] = len(others)
    out["actions"] = [a.text for a in others] if len(others) <= MAX_LISTED_ACTIONS else []
    return out


def _common_zones(zones: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Each zone as every seat sees it: its cards if all see the same cards, else its size."""
    out: dict[str, Any] = {}
    for name, value in zones[0].items():
        values = [z.get(name) for z in zones]
        if "count" in value and not isinstance(value["count"], dict):
            out[name] = _common_zone(values)
        else:
            out[name] = {owner: _common_zone([v.get(owner) if isinstance(v, dict) else None for v in values])
                         for owner in value}
    return out


def _common_zone(values: Sequence[Any]) -> dict[str, Any]:
    first = values[0]
    if all(v == first for v in values[1:]):
        return dict(first)
    return {"count": first["count"]}


def _common_events(state: State, logs: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each event as the seat that sees least of it sees it (the fewest card codes)."""
    cards = frozenset(state.cards)
    out = []
    for versions in zip(*logs, strict=True):
        first = versions[0]
        if all(v == first for v in versions[1:]):
            out.append(first)
        else:
            out.append(min(versions, key=lambda e: (_card_mentions(e, cards), len(str(e)))))
    return out


def _card_mentions(value: Any, cards: frozenset[str]) -> int:
    found: set[str] = set()
    _collect_strings(value, found)
    return len(found & cards)


def irregularity_forms(state: State) -> list[dict[str, Any]]:
    """The irregularities the rule file declares, for the referee's forms: name, laws,
    the phases they may be recorded in and their parameters (count bounds, card, suit)."""
    forms = []
    for irr in state.ruleset.rules.irregularities:
        forms.append({
            "name": irr.name,
            "laws": list(irr.cite.laws) if irr.cite else [],
            "phases": list(irr.phases),
            "params": [{"name": p.name, "kind": p.kind, "low": p.low, "high": p.high} for p in irr.params],
        })
    return forms
