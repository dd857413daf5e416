"""The games a server offers for new tables: the bundled games (with their options), and
with ``--allow-upload`` a rule file sent from the front page, read as untrusted text
with the limits of the command line (:func:`tricklang.loads` without a path: no file is
read, ``extends`` may name only a bundled game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import tricklang
from tricklang import OptionError, RulesError
from tricklang.catalog import bundled_games
from tricklang.diagnostics import TrickLangError
from tricklang.parser import MAX_SOURCE_BYTES

from .tables import TableError, parse_kinds

if TYPE_CHECKING:
    from tricklang import Ruleset

    from .storage import Storage

MAX_OPTIONS = 64


class NewTableError(ValueError):
    """A request for a new table that does not fit (its message says what)."""


@dataclass(frozen=True)
class NewTable:
    """What a new table needs, checked: the rules with their options, the seats, the mode."""

    ruleset: Ruleset
    kinds: list[str]
    mode: str
    rules_path: str


class GameCatalog:
    """The bundled games, loaded on first use, and the reading of new-table requests."""

    def __init__(self, storage: Storage | None = None, *, allow_upload: bool = False) -> None:
        self.storage = storage
        self.allow_upload = allow_upload
        self._games: list[dict[str, Any]] | None = None

    def games(self) -> list[dict[str, Any]]:
        """Each bundled game: name, title, seats, whether it has irregularities, its options."""
        if self._games is None:
            listed = []
            for name, path in sorted(bundled_games().items()):
                try:
                    ruleset = tricklang.load(path)
                except TrickLangError:
                    continue
                listed.append({"name": name, "title": ruleset.name, "players": ruleset.player_count,
                               "irregularities": bool(ruleset.rules.irregularities),
                               "options": [_option(o) for o in ruleset.option_specs()]})
            self._games = listed
        return self._games

    def prepare(self, data: Any) -> NewTable:
        """Read a new-table request: ``{"game": NAME or "rules": TEXT, "options": {...},
        "seats": [...], "mode": "strict" | "table"}``.

        Raises:
            NewTableError: anything that does not fit, said in a line (a rule file's
                diagnostics as the command line shows them).
        """
        if not isinstance(data, dict):
            raise NewTableError("send a JSON object")
        options = data.get("options") or {}
        if not isinstance(options, dict) or len(options) > MAX_OPTIONS or not all(
                isinstance(k, str) and isinstance(v, (str, int, bool)) for k, v in options.items()):
            raise NewTableError("'options' must map option names to values")
        mode = data.get("mode", "strict")
        if mode not in ("strict", "table"):
            raise NewTableError("'mode' is \"strict\" or \"table\"")
        ruleset, rules_path = self._rules(data, options)
        seats = data.get("seats")
        if seats is not None and not (isinstance(seats, list) and len(seats) <= 16
                                      and all(isinstance(s, str) and len(s) <= 40 for s in seats)):
            raise NewTableError("'seats' must list a player per seat")
        try:
            kinds = parse_kinds(seats, ruleset.player_count)
        except TableError as err:
            raise NewTableError(str(err)) from None
        return NewTable(ruleset, kinds, mode, rules_path)

    def _rules(self, data: dict[str, Any], options: dict[str, Any]) -> tuple[Ruleset, str]:
        game, text = data.get("game"), data.get("rules")
        try:
            if isinstance(text, str) and text.strip():
                if not self.allow_upload:
                    raise NewTableError("this server takes no rule files (start it with --allow-upload)")
                if len(text.encode("utf-8")) > MAX_SOURCE_BYTES:
                    raise NewTableError(f"a rule file is at most {MAX_SOURCE_BYTES} bytes")
                ruleset = tricklang.loads(text, options=options)
                if self.storage is None:
                    raise NewTableError("this server keeps no files: no rule file can be taken")
                return ruleset, self.storage.save_rules(text, ruleset.digest)
            known = bundled_games()
            if not isinstance(game, str) or game not in known:
                raise NewTableError("choose one of the bundled games: " + ", ".join(sorted(known)))
            ruleset = tricklang.load(known[game], options=options)
            return ruleset, str(known[game])
        except RulesError as err:
            raise NewTableError(err.render()) from None
        except OptionError as err:
            raise NewTableError(str(err)) from None
        except OSError as err:
            raise NewTableError(f"the rule file cannot be kept: {err.strerror or err}") from None


def _option(spec: Any) -> dict[str, Any]:
    return {"name": spec.name, "type": spec.type, "default": spec.default, "low": spec.low, "high": spec.high,
            "choices": list(spec.choices), "doc": spec.doc}
