"""The web application of ``tricklang serve`` (Starlette, ASGI; served by uvicorn).

Pages (plain HTML, CSS and JavaScript shipped in ``static/``, nothing fetched from
elsewhere): ``/`` the front page (the tables, and a form for a new one), ``/t/TOKEN`` a
table as the holder of that link sees it. ``/ws/TOKEN`` is the page's websocket: the
server sends a ``view`` message (:mod:`interpreter.serve.views`, through
:meth:`Table.view`) on connecting and after every action, with only the events the page
has not had yet; the page sends ``{"type": "act", "action": TEXT, "turn": N}`` and gets
a ``refused`` message with the reason when the action is not taken. ``/record/TOKEN``
downloads a finished match's record; ``/api/games`` and ``/api/tables`` serve the front
page.

Bounds: a websocket message of at most :data:`MAX_MESSAGE_BYTES` (longer: the socket is
closed), :data:`RATE` messages a second on average with bursts of :data:`BURST` (more are
refused; a page that keeps on is disconnected), :data:`MAX_CONNECTIONS` sockets a table,
request bodies of at most :data:`MAX_BODY_BYTES`. Every page is sent with a strict
content security policy and no referrer (a link's token is in its path).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from tricklang.diagnostics import TrickLangError

from .games import GameCatalog, NewTableError
from .tables import ActionRefusedError, Role, Table, TableError, TableManager

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE_BYTES = 4096
"""The largest websocket message a page may send."""
MAX_BODY_BYTES = 300_000
"""The largest request body (a new table with an uploaded rule file of at most 256 KB)."""
RATE = 8.0
"""Messages a second a page may send on average."""
BURST = 24
"""Messages a page may send at once."""
MAX_STRIKES = 40
"""Messages refused for the rate before the socket is closed."""
MAX_CONNECTIONS = 32
"""Sockets open at one table."""
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                               "style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}

Observer = Callable[[Table, Role, int, dict[str, Any]], None]
"""Called with every view sent (table, role, the ``since`` it was built with, the message): for tests."""


@dataclass(eq=False)
class _Connection:
    socket: WebSocket
    role: Role
    rate: float = RATE
    burst: int = BURST
    sent: int = 0
    tokens: float = BURST
    stamp: float = field(default_factory=time.monotonic)
    strikes: int = 0

    def allow(self) -> bool:
        """The token bucket: whether one more message may be taken now."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False


class Hub:
    """The live side of the tables: their sockets, one lock each, the built-in players' pace."""

    def __init__(self, manager: TableManager, *, pace: float, observer: Observer | None = None,
                 rate: float = RATE, burst: int = BURST) -> None:
        self.manager = manager
        self.pace = pace
        self.observer = observer
        self.rate = rate
        self.burst = burst
        self.connections: dict[str, set[_Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}

    def lock(self, table: Table) -> asyncio.Lock:
        return self.locks.setdefault(table.id, asyncio.Lock())

    async def send_view(self, table: Table, conn: _Connection) -> None:
        """Send a connection the view of its role, with the events it has not had."""
        view = table.view(conn.role, conn.sent)
        if self.observer is not None:
            self.observer(table, conn.role, conn.sent, view)
        await conn.socket.send_json(view)
        conn.sent = int(view["event_count"])

    async def broadcast(self, table: Table) -> None:
        for conn in list(self.connections.get(table.id, ())):
            try:
                await self.send_view(table, conn)
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.connections.get(table.id, set()).discard(conn)

    def kick(self, table: Table) -> None:
        """Start the built-in players of a table if one is to act (and none is running)."""
        running = self.drivers.get(table.id)
        if (running is None or running.done()) and table.bot_seat() is not None:
            self.drivers[table.id] = asyncio.get_running_loop().create_task(self._drive(table))

    async def _drive(self, table: Table) -> None:
        while (seat := table.bot_seat()) is not None:
            await asyncio.sleep(self.pace)
            async with self.lock(table):
                if table.bot_seat() != seat:
                    continue
                await asyncio.to_thread(table.bot_act)  # a search player may think for a while
                self.manager.save(table)
                await self.broadcast(table)

    async def stop(self) -> None:
        for task in self.drivers.values():
            task.cancel()
        for task in self.drivers.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------ a page's socket
    async def serve_socket(self, socket: WebSocket) -> None:
        found = self.manager.find(socket.path_params.get("token", ""))
        if found is None:
            await socket.close(code=4404, reason="no such table")
            return
        table, role = found
        conns = self.connections.setdefault(table.id, set())
        if len(conns) >= MAX_CONNECTIONS:
            await socket.close(code=1013, reason="too many pages at this table")
            return
        await socket.accept()
        conn = _Connection(socket, role, self.rate, self.burst, tokens=self.burst)
        try:
            async with self.lock(table):
                conns.add(conn)
                await self.send_view(table, conn)
            await self._listen(table, conn)
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the page went away (RuntimeError: a send after it closed)
        finally:
            conns.discard(conn)

    async def _listen(self, table: Table, conn: _Connection) -> None:
        socket = conn.socket
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                data = message.get("bytes") or b""
                text = data.decode("utf-8", "replace") if len(data) <= MAX_MESSAGE_BYTES else None
            if text is None or len(text.encode("utf-8", "replace")) > MAX_MESSAGE_BYTES:
                await socket.close(code=1009, reason="message too big")
                return
            if not conn.allow():
                if conn.strikes > MAX_STRIKES:
                    await socket.close(code=1008, reason="too many messages")
                    return
                await socket.send_json({"type": "refused", "reason": "too many messages: slow down"})
                continue
            await self._handle(table, conn, text)

    async def _handle(self, table: Table, conn: _Connection, text: str) -> None:
        try:
            request = json.loads(text)
        except (ValueError, RecursionError):
            request = None
        if not isinstance(request, dict) or request.get("type") not in ("act", "refresh"):
            await conn.socket.send_json({"type": "refused", "reason": "not understood: send {\"type\": \"act\", "
                                         "\"action\": TEXT, \"turn\": N}"})
            return
        async with self.lock(table):
            if request["type"] == "refresh":
                conn.sent = 0
                await self.send_view(table, conn)
                return
            try:
                table.act(conn.role, request.get("action"), request.get("turn"))
            except ActionRefusedError as err:
                if conn.socket.application_state == WebSocketState.CONNECTED:
                    await conn.socket.send_json({"type": "refused", "reason": err.reason,
                                                 "action": str(request.get("action"))[:100]})
                return
            self.manager.save(table)
            await self.broadcast(table)
        self.kick(table)


def create_app(manager: TableManager, *, pace: float = 1.0, catalog: GameCatalog | None = None,
               observer: Observer | None = None, rate: float = RATE, burst: int = BURST) -> Starlette:
    """The ASGI application serving ``manager``'s tables; built-in players wait ``pace``
    seconds before each action; ``catalog`` makes new tables (none: the front page cannot);
    a page may send ``rate`` messages a second, ``burst`` at once."""
    hub = Hub(manager, pace=pace, observer=observer, rate=rate, burst=burst)
    site = _Site(manager, hub, catalog)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in manager.tables.values():
            hub.kick(table)
        yield
        await hub.stop()

    routes = [
        Route("/", site.front),
        Route("/favicon.ico", lambda request: Response(status_code=204, headers=HEADERS)),
        Route("/t/{token}", site.table_page),
        Route("/record/{token}", site.record),
        Route("/api/games", site.games),
        Route("/api/tables", site.tables, methods=["GET", "POST"]),
        WebSocketRoute("/ws/{token}", hub.serve_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app


class _Site:
    """The HTTP side: pages, the record, the front page's data and new tables."""

    def __init__(self, manager: TableManager, hub: Hub, catalog: GameCatalog | None) -> None:
        self.manager = manager
        self.hub = hub
        self.catalog = catalog

    async def front(self, request: Request) -> Response:
        return _page("index.html")

    async def table_page(self, request: Request) -> Response:
        if self.manager.find(request.path_params["token"]) is None:
            return Response("No table has this link (it may be mistyped).", status_code=404,
                            media_type="text/plain", headers=HEADERS)
        return _page("table.html")

    async def record(self, request: Request) -> Response:
        found = self.manager.find(request.path_params["token"])
        if found is None:
            return _error("no such table", 404)
        table, _ = found
        async with self.hub.lock(table):
            try:
                text = self.manager.record_text(table)
            except ActionRefusedError as err:
                return _error(err.reason, 409)
            except TrickLangError as err:
                return _error(str(err), 500)
        name = f"{table.ruleset.name.lower().replace(' ', '-')}-{table.id}.json"
        return Response(text, media_type="application/json",
                        headers={**HEADERS, "Content-Disposition": f"attachment; filename=\"{_ascii(name)}\""})

    async def games(self, request: Request) -> Response:
        if self.catalog is None:
            return JSONResponse({"games": [], "upload": False}, headers=HEADERS)
        listed = await asyncio.to_thread(self.catalog.games)
        return JSONResponse({"games": listed, "upload": self.catalog.allow_upload}, headers=HEADERS)

    async def tables(self, request: Request) -> Response:
        if request.method == "POST":
            return await self.new_table(request)
        listed = [{**t.summary(), "watch": f"/t/{_spectator(t)}"} for t in self.manager.tables.values()]
        listed.sort(key=lambda t: (t["over"], t["id"]))
        return JSONResponse({"tables": listed}, headers=HEADERS)

    async def new_table(self, request: Request) -> Response:
        catalog = self.catalog
        if catalog is None:
            return _error("this server makes no new tables", 403)
        origin = request.headers.get("origin")
        if origin is not None and origin.split("://", 1)[-1] != request.headers.get("host"):
            return _error("a table is made from this server's own page", 403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return _error("send JSON", 415)
        body = await _bounded_body(request)
        if body is None:
            return _error(f"the request is over {MAX_BODY_BYTES} bytes", 413)
        try:
            data = json.loads(body)
            wanted = await asyncio.to_thread(catalog.prepare, data)  # loading rules takes a moment
            table = self.manager.create(wanted.ruleset, wanted.kinds, rules_path=wanted.rules_path, mode=wanted.mode)
        except (ValueError, RecursionError) as err:
            return _error(str(err) if isinstance(err, NewTableError) else "send a JSON object", 400)
        except TableError as err:
            return _error(str(err), 400)
        except OSError as err:
            return _error(f"the table cannot be kept: {err.strerror or err}", 500)
        self.hub.kick(table)
        return JSONResponse({"id": table.id, "links": links(table)}, headers=HEADERS)


def _error(reason: str, status: int) -> Response:
    return JSONResponse({"error": reason}, status_code=status, headers=HEADERS)


def links(table: Table, base: str = "") -> list[dict[str, Any]]:
    """The table's links (path, or URL under ``base``), each with its role and seat."""
    return [{"role": role.kind, "seat": role.seat, "url": f"{base}/t/{token}"} for role, token in table.links()]


def _spectator(table: Table) -> str:
    return next(token for role, token in table.links() if role.kind == "spectator")


def _page(name: str) -> Response:
    return FileResponse(STATIC / name, media_type="text/html", headers=HEADERS)


def _ascii(text: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "-" for c in text)


async def _bounded_body(request: Request) -> bytes | None:
    """The request's body, or None when it is over :data:`MAX_BODY_BYTES`."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY_BYTES:
            return None
    return bytes(body)
