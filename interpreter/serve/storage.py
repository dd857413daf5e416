"""Tables on disk: one JSON file per table in ``DIR/tables/``, rewritten after every action.

A table file holds the server's part (the seat kinds, the links' tokens, the rule file
a record names) and the game as :meth:`State.to_json` writes it (the rule text with the
texts it extends, the options, the seed, the first dealer and every action), so that a
server started again on the same folder puts every table back where it was, replaying
and re-checking every action (:meth:`State.from_json`). A file is written to a temporary
name, flushed to disk and then renamed over the old one, so that a crash leaves either the
old or the new file. Files are read as untrusted input (size-bounded; every field checked);
a file that does not fit is reported and left alone. The folder and the files are made
readable by their owner only: the tokens in them are the seats' keys.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from tricklang.diagnostics import TrickLangError

from ..state import State
from ..state.saved import MAX_JSON_CHARS
from .tables import HUMAN, Role, Table, TableError, parse_kinds

TABLE_FORMAT = "tricklang-table"
TABLE_VERSION = 1
_ID = re.compile(r"[0-9a-f]{12}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")


class Storage:
    """The tables' folder (created, owner-only, on first use)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.tables = self.folder / "tables"
        self.rules = self.folder / "rules"

    def prepare(self) -> None:
        """Create the folders.

        Raises:
            OSError: they cannot be created.
        """
        for folder in (self.folder, self.tables, self.rules):
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)

    def save(self, table: Table) -> None:
        """Write a table's file atomically.

        Raises:
            OSError: it cannot be written.
        """
        self.prepare()
        data = to_dict(table)
        final = self.tables / f"{table.id}.json"
        temporary = final.with_suffix(".json.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, final)

    def save_rules(self, text: str, digest: str) -> str:
        """Keep an uploaded rule text (named by its digest); returns its path, for records.

        Raises:
            OSError: it cannot be written.
        """
        self.prepare()
        path = self.rules / f"{digest}.trick"
        if not path.exists():
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(text)
        return str(path.resolve())

    def load_all(self) -> tuple[list[Table], list[str]]:
        """Every table of the folder, and a line for each file that could not be read."""
        tables: list[Table] = []
        problems: list[str] = []
        if not self.tables.is_dir():
            return tables, problems
        for file in sorted(self.tables.glob("*.json")):
            try:
                tables.append(self.load(file))
            except (TableError, TrickLangError, OSError, ValueError) as err:
                problems.append(f"{file.name}: {err}")
        return tables, problems

    def load(self, file: Path) -> Table:
        """One table from its file.

        Raises:
            TableError: the file is not a table file of this version, or a field does not fit.
            RecordError: the game it holds does not replay.
            OSError: it cannot be read.
        """
        if file.stat().st_size > MAX_JSON_CHARS * 4:
            raise TableError("the file is too large")
        with open(file, encoding="utf-8") as source:
            text = source.read(MAX_JSON_CHARS + 1)
        if len(text) > MAX_JSON_CHARS:
            raise TableError("the file is too large")
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise TableError("not JSON") from None
        return from_dict(data, file.stem)


def to_dict(table: Table) -> dict[str, Any]:
    """A table as its file holds it."""
    seats: list[str | None] = [None] * len(table.kinds)
    spectator = referee = None
    for token, role in table.tokens.items():
        if role.kind == "seat" and role.seat is not None:
            seats[role.seat] = token
        elif role.kind == "spectator":
            spectator = token
        else:
            referee = token
    return {
        "format": TABLE_FORMAT,
        "version": TABLE_VERSION,
        "id": table.id,
        "created": table.created,
        "kinds": list(table.kinds),
        "tokens": {"seats": seats, "spectator": spectator, "referee": referee},
        "rules_path": table.rules_path,
        "failed": list(table.failed) if table.failed is not None else None,
        "error": table.error,
        "state": table.state.to_dict(),
    }


def from_dict(data: Any, expected_id: str) -> Table:
    """A table from what its file holds, every field checked.

    Raises:
        TableError: a field is missing or does not fit.
        RecordError: the game does not replay.
    """
    if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT or data.get("version") != TABLE_VERSION:
        raise TableError(f"not a {TABLE_FORMAT} file of version {TABLE_VERSION}")
    table_id = data.get("id")
    if not isinstance(table_id, str) or not _ID.fullmatch(table_id) or table_id != expected_id:
        raise TableError("the table's id does not fit its file name")
    saved = data.get("state")
    if not isinstance(saved, dict):
        raise TableError("'state' must be a saved game")
    state = State.from_json(saved)
    kinds = data.get("kinds")
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise TableError("'kinds' must be a list of player names")
    kinds = parse_kinds(kinds, state.player_count)
    tokens = _tokens(data.get("tokens"), kinds, state.mode)
    rules_path = data.get("rules_path")
    created = data.get("created")
    failed = data.get("failed")
    error = data.get("error")
    if not isinstance(rules_path, str) or len(rules_path) > 4096:
        raise TableError("'rules_path' must be a path")
    if isinstance(created, bool) or not isinstance(created, (int, float)):
        raise TableError("'created' must be a time")
    if failed is not None and not (isinstance(failed, list) and len(failed) == 2 and isinstance(failed[0], int)
                                   and isinstance(failed[1], str) and len(failed[1]) <= 400):
        raise TableError("'failed' must be null or [seat, action]")
    if error is not None and (not isinstance(error, str) or len(error) > 400):
        raise TableError("'error' must be null or a short text")
    table = Table(table_id, state, kinds, tokens, rules_path, created=float(created))
    table.failed = (failed[0], failed[1]) if failed is not None else None
    table.error = error
    return table


def _tokens(data: Any, kinds: list[str], mode: str) -> dict[str, Role]:
    if not isinstance(data, dict):
        raise TableError("'tokens' must be an object")
    seats = data.get("seats")
    if not isinstance(seats, list) or len(seats) != len(kinds):
        raise TableError("'tokens.seats' must list a token or null per seat")
    tokens: dict[str, Role] = {}
    for seat, (token, kind) in enumerate(zip(seats, kinds, strict=True)):
        if (token is None) != (kind != HUMAN):
            raise TableError(f"seat {seat}: a human seat has a token, a built-in player none")
        if token is not None:
            tokens[_token(token)] = Role("seat", seat)
    tokens[_token(data.get("spectator"))] = Role("spectator")
    referee = data.get("referee")
    if (referee is not None) != (mode == "table"):
        raise TableError("a table-mode table has a referee's token, and only it")
    if referee is not None:
        tokens[_token(referee)] = Role("referee")
    if len(tokens) != len([s for s in seats if s is not None]) + 1 + (referee is not None):
        raise TableError("two links share a token")
    return tokens


def _token(value: Any) -> str:
    if not isinstance(value, str) or not _TOKEN.fullmatch(value):
        raise TableError("a token must be 20 to 64 URL-safe characters")
    return value
