"""`tricklang serve`: a web server with a table in the browser for any rule file.

Starts the application of :mod:`interpreter.serve.app` with uvicorn on the loopback
address (unless ``--host`` says otherwise), keeps the tables in ``--data`` after every
action, and prints one link per human seat, one for spectators and, in table mode, one
for the referee. Given a game, it makes a table for it, or takes up the unfinished table
of the same rules, options and seats that the folder holds (so the same command after a
restart returns every seat to where it was). Needs the ``serve`` extra."""

from __future__ import annotations

import argparse
import ipaddress
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .common import PROG, Subparsers, UsageError, count, integer, load

if TYPE_CHECKING:
    from tricklang import Ruleset

    from ..serve.tables import Table, TableManager

DEFAULT_PORT = 8765


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``serve`` to the ``tricklang`` parser."""
    p = sub.add_parser("serve", parents=[opts], help="a table in the browser (a web server)",
                       description="Serve tables in the browser: each human seat gets a link of its own (keep it "
                       "private: it is the seat's key), spectators and, in table mode, the referee get theirs. "
                       "Built-in players fill the other seats. Every table is kept in --data after every action, "
                       "so a reload or a restart loses nothing; a finished match offers its record. Needs "
                       "pip install 'tricklang[serve]'.")
    p.add_argument("file", metavar="GAME|FILE", nargs="?",
                   help="make (or take up) a table for this game; without it, serve the front page and the "
                   "tables the folder holds")
    p.add_argument("--seats", metavar="P,P,...",
                   help="who plays each seat: human or a built-in player (heuristic, random, search:N[:ROLLOUT]); one name "
                   "fills every seat (default: seat 0 human, the others heuristic)")
    p.add_argument("--table", action="store_true",
                   help="table mode: a referee's link records the rule file's irregularities")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=count(0), default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    p.add_argument("--data", metavar="DIR",
                   help="the folder that keeps the tables (default: $XDG_DATA_HOME/tricklang/tables, "
                   "i.e. ~/.local/share/tricklang/tables)")
    p.add_argument("--pace", type=float, default=1.0, metavar="SECONDS",
                   help="how long a built-in player waits before acting (default 1.0)")
    p.add_argument("--seed", type=integer, help="seed of a new table's deals (default: random)")
    p.add_argument("--allow-upload", action="store_true",
                   help="let the front page make tables from rule files pasted into it (untrusted text, read "
                   "with the command line's limits)")
    p.add_argument("--max-tables", type=count(1), default=100, metavar="N",
                   help="the most tables the server holds (default 100)")
    p.set_defaults(run=cmd_serve)


def default_folder() -> Path:
    """Where tables are kept by default."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "tricklang" / "tables"


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from ..serve.app import create_app
    except ImportError as err:
        print(f"{PROG} serve: needs the 'serve' extra (pip install 'tricklang[serve]'): {err}", file=sys.stderr)
        return 1
    from ..serve.games import GameCatalog
    from ..serve.storage import Storage
    from ..serve.tables import TableError, TableManager, parse_kinds

    if not 0 <= args.pace <= 60:
        raise UsageError("--pace: give a number of seconds from 0 to 60")
    storage = Storage(args.data if args.data is not None else default_folder())
    try:
        storage.prepare()
    except OSError as err:
        raise UsageError(f"--data {storage.folder}: cannot create the folder: {err.strerror or err}") from None
    manager = TableManager(storage, max_tables=args.max_tables)
    tables, problems = storage.load_all()
    for kept in tables:
        manager.add(kept)
    for problem in problems:
        print(f"{PROG} serve: a table file is left aside: {problem}", file=sys.stderr)
    table: Table | None = None
    if args.file is not None:
        ruleset = load(args.file, args)
        try:
            kinds = parse_kinds(args.seats, ruleset.player_count)
            table = _take_up(manager, ruleset, kinds, args.table) or manager.create(
                ruleset, kinds, rules_path=str(Path(ruleset.path).resolve()), mode="table" if args.table else "strict",
                seed=args.seed)
        except TableError as err:
            raise UsageError(str(err)) from None
    sock = _bind(args.host, args.port)
    host, port = sock.getsockname()[:2]
    base = f"http://{_url_host(host)}:{port}"
    catalog = GameCatalog(storage, allow_upload=args.allow_upload)
    app = create_app(manager, pace=args.pace, catalog=catalog)
    _announce(base, storage.folder, manager, table, args.host)
    return run_server(app, sock)


def _take_up(manager: TableManager, ruleset: Ruleset, kinds: list[str], table_mode: bool) -> Table | None:
    """The unfinished table of the same rules, options, seats and mode, if the folder holds one."""
    mode = "table" if table_mode else "strict"
    for table in manager.tables.values():
        if (not table.over and table.ruleset.digest == ruleset.digest and table.ruleset.options == ruleset.options
                and table.kinds == kinds and table.state.mode == mode):
            return table
    return None


def _bind(host: str, port: int) -> socket.socket:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as err:
        raise UsageError(f"--host {host}: {err.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as err:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {err.strerror or err}") from None
    sock.listen(128)
    return sock


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _announce(base: str, folder: Path, manager: TableManager, table: Table | None, host: str) -> None:
    from ..serve.app import links

    print(f"{PROG} serve: {base}/ (tables kept in {folder}; Ctrl-C stops the server)")
    if not _is_loopback(host):
        print(f"{PROG} serve: listening on {host}: anyone who reaches it may watch the tables and make new ones; "
              "a seat is played only through its link")
    if table is not None:
        state = table.state
        print(f"{table.ruleset.name}, table {table.id}" + (" (table mode)" if state.mode == "table" else "")
              + (f", taken up at deal {state.deal_number}" if state.actions else ""))
        for link in links(table, base):
            who = f"seat {link['seat']}" if link["role"] == "seat" else link["role"]
            print(f"  {who:<10} {link['url']}")
        bots = [f"seat {s} {k}" for s, k in enumerate(table.kinds) if k != "human"]
        if bots:
            print("  built-in players: " + ", ".join(bots))
    others = len(manager.tables) - (table is not None)
    if others:
        print(f"{others} other table{'s' if others != 1 else ''} at {base}/")
    sys.stdout.flush()


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def server_for(app: Any) -> Any:
    """A uvicorn server for ``app`` (websockets through the sans-I/O implementation; a
    websocket frame over MAX_MESSAGE_BYTES closes the socket)."""
    import uvicorn

    from ..serve.app import MAX_MESSAGE_BYTES

    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio", ws_max_size=MAX_MESSAGE_BYTES,
                            lifespan="on", timeout_graceful_shutdown=2, limit_concurrency=512)
    return uvicorn.Server(config)


def run_server(app: Any, sock: socket.socket) -> int:
    """Serve ``app`` on the bound socket until interrupted (uvicorn)."""
    try:
        server_for(app).run(sockets=[sock])
    finally:
        sock.close()
    return 0
