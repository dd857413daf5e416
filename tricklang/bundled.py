"""What tools need to know of each bundled game without parsing it: its file, digest,
name, number of players and options with their defaults (:func:`bundled_facts`).

Parsing the sixteen bundled rule files takes about a second; the game-AI adapters
register every bundled game when they are imported, so they read these facts from
``tricklang/bundled_facts.py`` (written by ``tests/make_bundled_facts.py``) instead.
An entry is used only while the files it was made from (the rule file and those it
extends) read byte for byte the same; any other bundled game is loaded to learn them.

>>> facts = bundled_facts()["ecarte"]
>>> facts.file, facts.players, facts.options["target"]
('ecarte.trick', 2, 5)
"""

from __future__ import annotations

import hashlib
import pprint
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import catalog
from .diagnostics import TrickLangError
from .parser import MAX_SOURCE_BYTES
from .ruleset import Ruleset, load_tracked

__all__ = ["GameFacts", "bundled_facts", "facts_of", "stored_facts_source"]


@dataclass(frozen=True)
class GameFacts:
    """A bundled game as the adapters register it (see the module docstring)."""

    name: str
    """The bundled name (the file name without ``.trick``): ``ecarte``."""
    file: str
    """The file name: ``ecarte.trick``."""
    digest: str
    """:attr:`Ruleset.digest <tricklang.Ruleset.digest>` of its text and the texts it extends."""
    game: str
    """The game's name, from its ``game`` line."""
    players: int
    options: dict[str, Any]
    """Every option with its default value."""


def facts_of(ruleset: Ruleset, name: str) -> GameFacts:
    """The facts of a loaded rule file, under its bundled name."""
    assert ruleset.rules.players is not None
    return GameFacts(name, f"{name}{catalog.SUFFIX}", ruleset.digest, ruleset.name, ruleset.rules.players.count,
                     dict(ruleset.options))


def _file_digest(file: Path) -> str | None:
    try:
        with file.open("rb") as f:
            data = f.read(MAX_SOURCE_BYTES + 1)
    except OSError:
        return None
    return hashlib.sha256(data).hexdigest()


def _current(entry: dict[str, Any]) -> bool:
    """Whether the files an entry was made from still read the same."""
    files = entry.get("files")
    if not isinstance(files, dict) or not files:
        return False
    for file_name, digest in files.items():
        file = catalog.find_bundled(file_name)
        if file is None or _file_digest(file) != digest:
            return False
    return True


def _stored() -> dict[str, Any]:
    try:
        from .bundled_facts import FACTS
    except ImportError:  # pragma: no cover - the module ships with the package
        return {}
    return FACTS


@lru_cache(maxsize=1)
def bundled_facts() -> dict[str, GameFacts]:
    """Every bundled game's facts, by name: stored where current, else from loading the
    game (a game that does not load is left out: loading it by name reports why)."""
    stored = _stored()
    found: dict[str, GameFacts] = {}
    for name in catalog.bundled_games():
        entry = stored.get(name)
        if isinstance(entry, dict) and _current(entry):
            found[name] = GameFacts(name, entry["file"], entry["digest"], entry["game"], entry["players"],
                                    dict(entry["options"]))
            continue
        try:
            ruleset, _ = load_tracked(catalog.bundled_games()[name])
        except TrickLangError:
            continue
        found[name] = facts_of(ruleset, name)
    return found


def _entry(name: str, file: Path) -> dict[str, Any]:
    ruleset, bases = load_tracked(file)
    facts = facts_of(ruleset, name)
    files = {file.name: _file_digest(file)}
    for _, real in bases:
        files[real.name] = _file_digest(real)
    return {"file": facts.file, "files": files, "digest": facts.digest, "game": facts.game,
            "players": facts.players, "options": facts.options}


def stored_facts_source() -> str:
    """The text of ``tricklang/bundled_facts.py`` for the bundled games as they are now.

    Raises:
        RulesError: a bundled game does not load.
    """
    facts = {name: _entry(name, file) for name, file in catalog.bundled_games().items()}
    return ('"""The bundled games\' facts (see tricklang/bundled.py), written by tests/make_bundled_facts.py:\n'
            'do not edit. An entry is used only while its files read the same."""\n\n'
            "from typing import Any\n\n"
            f"FACTS: dict[str, Any] = {pprint.pformat(facts, width=110, sort_dicts=True)}\n")
