"""Information states through the OpenSpiel adapter: the partitions of a small game's
states that the strings, the tensors, the observations and the hands make, by
enumerating every deal (extra 'openspiel').

A seat of these fixtures knows the cards it was dealt (as a set: the order of the pack
is not shown to anybody) and every play. ``_knowledge`` is that, written down
independently of the adapter: two states a seat cannot tell apart must give the same
string and tensor, two it can tell apart must differ.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from interpreter.embedding.infostate import canonical_events  # noqa: E402
from interpreter.embedding.openspiel import load_game  # noqa: E402

GAMES = Path(__file__).resolve().parent / "games"
TINY = GAMES / "tiny-trick.trick"  # 2 players, 6 cards, 3 tricks: 720 orders of the pack
MINI = GAMES / "mini-trick.trick"  # 2 players, 4 cards, 2 tricks: 24 orders


def _deals(game: Any) -> Iterator[Any]:
    """The first decision after each way the chance nodes can deal the pack."""
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
        else:
            yield state


def _tree(state: Any) -> Iterator[Any]:
    """Every decision and terminal node below a state (depth first)."""
    yield state
    if not state.is_terminal():
        for a in state.legal_actions():
            yield from _tree(state.child(a))


def _partition(states: list[Any], key: Callable[[Any], Hashable]) -> set[frozenset[int]]:
    classes: dict[Hashable, set[int]] = defaultdict(set)
    for i, s in enumerate(states):
        classes[key(s)].add(i)
    return {frozenset(c) for c in classes.values()}


def _refines(fine: set[frozenset[int]], coarse: set[frozenset[int]]) -> bool:
    """Every class of ``fine`` lies inside one class of ``coarse``."""
    return all(any(c <= k for k in coarse) for c in fine)


def _knowledge(state: Any, p: int) -> Hashable:
    """What seat p knows in these fixtures: its cards as dealt (a set) and every play."""
    dealt = sorted(c for e in state.tricklang.events(p) if e["type"] == "dealt" for c in e.get("cards", ()))
    plays = tuple(pa.action for pa in state.full_history() if pa.player != pyspiel.PlayerId.CHANCE)
    return tuple(dealt), plays


KEYS: dict[str, Callable[[Any, int], Hashable]] = {
    "information_state_string": lambda s, p: s.information_state_string(p),
    "information_state_tensor": lambda s, p: tuple(s.information_state_tensor(p)),
    "observation_string": lambda s, p: s.observation_string(p),
    "observation_tensor": lambda s, p: tuple(s.observation_tensor(p)),
}


@pytest.mark.parametrize("kind", KEYS)
def test_every_deal_of_the_tiny_game_partitions_like_the_hands(kind: str) -> None:
    """720 orders of the pack give 20 hands per seat, and so 20 strings and tensors
    (before: 120 information-state strings, one per order of each seat's packet)."""
    deals = list(_deals(load_game(TINY)))
    assert len(deals) == 720
    for p in (0, 1):
        hands = _partition(deals, lambda s, p=p: tuple(s.tricklang.hand(p)))
        assert len(hands) == 20
        assert _partition(deals, lambda s, p=p: KEYS[kind](s, p)) == hands


def _nodes(path: Path, every: int) -> list[Any]:
    """Every decision and terminal node of every ``every``-th deal."""
    return [node for i, deal in enumerate(_deals(load_game(path))) if i % every == 0 for node in _tree(deal)]


@pytest.mark.parametrize(("path", "every"), [(MINI, 1), (TINY, 45)], ids=["mini, every deal", "tiny, 16 deals"])
def test_the_information_state_string_is_exactly_what_the_seat_knows(path: Path, every: int) -> None:
    nodes = _nodes(path, every)
    for p in (0, 1):
        known = _partition(nodes, lambda s, p=p: _knowledge(s, p))
        assert _partition(nodes, lambda s, p=p: s.information_state_string(p)) == known


@pytest.mark.parametrize(("path", "every"), [(MINI, 1), (TINY, 45)], ids=["mini, every deal", "tiny, 16 deals"])
def test_tensors_and_observations_never_tell_apart_what_the_seat_cannot(path: Path, every: int) -> None:
    """The tensors and the observations are functions of what the seat knows, and the
    observation string and tensor carry the same information."""
    nodes = _nodes(path, every)
    for p in (0, 1):
        known = _partition(nodes, lambda s, p=p: _knowledge(s, p))
        observed = _partition(nodes, lambda s, p=p: s.observation_string(p))
        assert _partition(nodes, lambda s, p=p: tuple(s.observation_tensor(p))) == observed
        assert _refines(known, observed)
        assert _refines(known, _partition(nodes, lambda s, p=p: tuple(s.information_state_tensor(p))))


def test_the_information_state_tensor_tells_apart_a_seats_decisions_on_the_mini_game() -> None:
    nodes = _nodes(MINI, 1)
    for p in (0, 1):
        mine = [s for s in nodes if not s.is_terminal() and s.current_player() == p]
        known = _partition(mine, lambda s, p=p: _knowledge(s, p))
        assert _partition(mine, lambda s, p=p: tuple(s.information_state_tensor(p))) == known


def test_the_information_state_tensor_tells_apart_the_order_of_the_tricks() -> None:
    nodes = _nodes(TINY, 45)
    for p in (0, 1):
        mine = [s for s in nodes if not s.is_terminal() and s.current_player() == p]
        known = _partition(mine, lambda s, p=p: _knowledge(s, p))
        assert _partition(mine, lambda s, p=p: tuple(s.information_state_tensor(p))) == known


def test_card_lists_that_are_sets_are_in_deck_order_and_plays_keep_theirs() -> None:
    order = {c: i for i, c in enumerate(["AS", "KS", "QS", "AH", "KH", "QH"])}
    events = [
        {"type": "dealt", "player": 1, "cards": ["QS", "AH"]},
        {"type": "dealt", "player": 0, "count": 2},
        {"type": "dealt", "player": 1, "cards": ["AS"]},
        {"type": "move", "from": "hand of seat 1", "to": "stock", "cards": ["KH", "KS"], "count": 2},
        {"type": "move", "from": "hand of seat 1", "to": "discards", "cards": ["KH", "KS"], "count": 2},
        {"type": "draw", "player": 1, "cards": ["QH", "KS"], "count": 2, "taken_back": ["KH", "AS"]},
        {"type": "play", "player": 1, "card": "QS", "trick": 1},
        {"type": "trick", "trick": 1, "winner": 0, "cards": ["QS", "AS"], "players": [1, 0]},
        {"type": "dealt", "player": 1, "cards": ["QH", "KS"]},
    ]
    out = canonical_events(events, order, pack="stock")
    assert [e.get("cards") for e in out] == [
        ["AS", "QS"], None, ["AH"],  # one run of packets: seat 1's three cards pooled, sizes kept
        ["KH", "KS"],  # to the pack: its order is information
        ["KS", "KH"], ["KS", "QH"], None,
        ["QS", "AS"],  # a trick: the cards with the seats that played them
        ["KS", "QH"],  # after other events: a run of its own
    ]
    assert out[5]["taken_back"] == ["AS", "KH"] and events[0]["cards"] == ["QS", "AH"]  # the input is not changed
