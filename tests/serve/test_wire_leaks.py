"""The leak check on the wire: every message the server sends to a page is checked
against what the holder of that link may know. At the moment it was sent, the cards
hidden from its reader (a seat; for spectators and the referee, every card some seat
does not see) are made to trade places, and the message built from that other world
must be the very message the page received."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from pages import Page, play_until, serving
from serve_helpers import make_table, reader_of, swapped, tokens

from interpreter.serve.app import create_app
from interpreter.serve.tables import Role, Table


class WireTap:
    """Keeps, for every view sent, the reader, a copy of the game at that moment and the message."""

    def __init__(self) -> None:
        self.sent: list[tuple[Table, Role, int, Any, dict[str, Any]]] = []

    def __call__(self, table: Table, role: Role, since: int, message: dict[str, Any]) -> None:
        self.sent.append((table, role, since, table.state.clone(), message))

    def check(self, received: dict[Role, list[dict[str, Any]]]) -> int:
        """Check every message; returns how many were compared in a swapped world."""
        by_role: dict[Role, list[dict[str, Any]]] = {}
        compared = 0
        for table, role, since, state, message in self.sent:
            by_role.setdefault(role, []).append(message)
            other = swapped(state, reader_of(role))
            if other is None:
                continue
            elsewhere = dataclasses.replace(table, state=other)
            elsewhere.error, elsewhere.failed = table.error, table.failed
            assert elsewhere.view(role, since) == message, f"{role} at turn {message['turn']}"
            compared += 1
        for role, messages in received.items():  # the pages got exactly what was checked
            views = [m for m in messages if m["type"] == "view"]
            assert views == by_role[role][:len(views)] and views
        return compared


def _received(pages: dict[Role, Page]) -> dict[Role, list[dict[str, Any]]]:
    return {role: page.received for role, page in pages.items()}


def test_every_message_of_a_whole_ecarte_match_hides_what_its_reader_may_not_know(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"], seed=23)
    keys = tokens(table)
    tap = WireTap()
    with serving(create_app(manager, pace=0, observer=tap, rate=1000, burst=1000)) as client:
        seats = {0: Page(client, str(keys[0])), 1: Page(client, str(keys[1]))}
        watcher = Page(client, str(keys["spectator"]))
        play_until(table, seats, [watcher], lambda t: t.over)
        pages = {Role("seat", 0): seats[0], Role("seat", 1): seats[1], Role("spectator"): watcher}
        received = _received(pages)
    assert tap.check(received) > 0.8 * len(tap.sent) > 80


@pytest.mark.parametrize("seed", [4, 9])
def test_every_message_at_a_cinch_table_with_a_referee_hides_what_its_reader_may_not_know(
        tmp_path: Path, seed: int) -> None:
    manager, table = make_table(tmp_path, "cinch", ["human", "heuristic", "human", "heuristic"], seed=seed,
                                mode="table")
    keys = tokens(table)
    tap = WireTap()
    with serving(create_app(manager, pace=0, observer=tap, rate=1000, burst=1000)) as client:
        seats = {0: Page(client, str(keys[0])), 2: Page(client, str(keys[2]))}
        referee = Page(client, str(keys["referee"]))
        watcher = Page(client, str(keys["spectator"]))
        play_until(table, seats, [watcher], lambda t: t.state.deal_number > 2 or t.over, referee=referee)
        pages = {Role("seat", 0): seats[0], Role("seat", 2): seats[2], Role("referee"): referee,
                 Role("spectator"): watcher}
        received = _received(pages)
    kinds = {m["decision"]["kind"] for m in received[Role("seat", 0)] if m.get("decision")}
    assert {"auction", "select", "play"} <= kinds
    assert tap.check(received) > 0.8 * len(tap.sent) > 150


def test_the_check_finds_a_leak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that sent a seat one card of the stock would be caught."""
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"], seed=23)
    original = Table.view

    def leaky(self: Table, role: Role, since: int = 0) -> dict[str, Any]:
        out = original(self, role, since)
        out["peek"] = self.state.zone("stock")[-1:]
        return out

    monkeypatch.setattr(Table, "view", leaky)
    keys = tokens(table)
    tap = WireTap()
    with serving(create_app(manager, pace=0, observer=tap)) as client:
        page = Page(client, str(keys[0]))
        received = {Role("seat", 0): page.received}
    with pytest.raises(AssertionError):
        tap.check(received)
