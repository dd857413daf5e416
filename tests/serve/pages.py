"""Pages of a table driven through Starlette's TestClient websockets (no browser)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

from serve_helpers import choose
from starlette.testclient import TestClient

from interpreter.serve.tables import Table


@contextlib.contextmanager
def serving(app: Any) -> Iterator[TestClient]:
    """A TestClient of ``app`` whose pages are closed before it stops (an open socket
    would keep its handler waiting)."""
    with TestClient(app) as client:
        client.pages = []  # type: ignore[attr-defined]
        try:
            yield client
        finally:
            for page in client.pages:  # type: ignore[attr-defined]
                page.close()


class Page:
    """One open page (a websocket) and the last view it received."""

    def __init__(self, client: TestClient, token: str) -> None:
        self.context = client.websocket_connect(f"/ws/{token}")
        self.socket = self.context.__enter__()
        self.open = True
        getattr(client, "pages", []).append(self)
        self.view: dict[str, Any] = {}
        self.received: list[dict[str, Any]] = []
        self.log: list[dict[str, Any]] = []
        self.next()

    def next(self) -> dict[str, Any]:
        """The next message (a view is kept as the page's view)."""
        message: dict[str, Any] = self.socket.receive_json()
        self.received.append(message)
        if message["type"] == "view":
            if message["events"] and message["events"][0]["n"] == 0:
                self.log = []
            self.log.extend(message["events"])
            self.view = message
        return message

    def act(self, action: str, turn: int | None = None) -> dict[str, Any]:
        """Send an action (at the page's turn unless told) and return the reply to it."""
        self.socket.send_json({"type": "act", "action": action, "turn": self.view["turn"] if turn is None else turn})
        return self.next()

    def close(self) -> None:
        if self.open:
            self.open = False
            with contextlib.suppress(Exception):
                self.context.__exit__(None, None, None)


def settle(table: Table, pages: list[Page], timeout: float = 30.0) -> None:
    """Wait until no built-in player is to act, then let every page catch up."""
    deadline = time.monotonic() + timeout
    while table.bot_seat() is not None:
        assert time.monotonic() < deadline, "the built-in players did not finish"
        time.sleep(0.005)
    turn = len(table.state.actions)
    for page in pages:
        while page.view["turn"] != turn:
            page.next()


def play_until(table: Table, pages: dict[int, Page], others: list[Page], done: Any, limit: int = 2000,
               referee: Page | None = None) -> int:
    """Let the human pages choose actions (serve_helpers.choose; the referee continues at
    a referee's pause) until ``done(table)``; returns how many actions they took."""
    taken = 0
    everyone = [*pages.values(), *others, *([referee] if referee is not None else [])]
    settle(table, everyone)
    while not done(table):
        assert taken < limit, "the match did not end"
        decision = table.state.decision
        assert decision is not None
        if decision.kind == "pause":
            assert referee is not None
            page, action = referee, "continue"
        else:
            page = pages[decision.seat]
            action = choose(page.view)
        reply = page.act(action)
        assert reply["type"] == "view", reply
        for other in everyone:
            if other is not page:
                other.next()
        settle(table, everyone)
        taken += 1
    return taken
