"""An on-disk cache of successful checks, so that `tricklang check` of an unchanged file
answers without parsing it (nor importing the parser and the syntax model).

An entry is keyed by the SHA-256 of: this format, tricklang's version, the path as
given and the file's real path, the ``-o`` options, and the file's bytes. It records the
files the rule file extends (the path each was named by, its real path and the
SHA-256 of its bytes): the entry is used only while each of them still reads the same.
Only successful checks are stored (a failing check is checked again).

The cache lives in ``$TRICKLANG_CACHE_DIR``, else ``$XDG_CACHE_HOME/tricklang`` (else
``~/.cache/tricklang``); ``TRICKLANG_CACHE_DIR=off`` (or ``none``, ``0``, ``""``) turns it off.
Its contents are untrusted: an entry that is not exactly what this module writes (any
type, size or field out of place, or its own key not matching) is ignored and the file
is checked in full. At most :data:`MAX_ENTRIES` entries are kept (the oldest are removed).
This module imports neither the parser nor pydantic.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import __version__, catalog

FORMAT = 1
"""Bumped whenever what an entry holds, or how a check result is printed, changes."""

MAX_ENTRIES = 256
"""Entries kept; storing one more removes the oldest."""

MAX_ENTRY_BYTES = 1_000_000
"""A larger entry is not read."""

MAX_FILE_BYTES = 256_000
"""Rule files larger than this are not cached (the full check refuses them)."""


@dataclass(frozen=True)
class CheckResult:
    """What `tricklang check` printed for a rule file that passed: the game's name and
    each warning, rendered (as printed to stderr) and as a JSON-able dict (``--json``)."""

    game: str
    warnings: tuple[tuple[str, dict[str, object]], ...]


def cache_dir() -> Path | None:
    """Where entries live, or None when the cache is off."""
    chosen = os.environ.get("TRICKLANG_CACHE_DIR")
    if chosen is not None:
        return None if chosen.strip().lower() in ("", "off", "none", "0") else Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "tricklang"


def _read_bytes(path: Path, limit: int) -> bytes | None:
    """A regular file's bytes, or None (missing, not regular, larger than ``limit``, unreadable)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        data = os.read(fd, limit + 1)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class Key:
    """What an entry is stored under, and the rule file's text it was computed from."""

    digest: str
    text: str


def key_of(path: str, options: Mapping[str, str]) -> Key | None:
    """The key of checking the rule file ``path`` (a path or a bundled game's name) with
    these ``-o`` options; None when it cannot be read as UTF-8 (nothing is cached then)."""
    file = catalog.resolve(path)
    data = _read_bytes(file, MAX_FILE_BYTES)
    if data is None:
        return None
    try:
        real = os.path.realpath(file)
        text = data.decode("utf-8")
    except (OSError, ValueError):
        return None
    head = json.dumps([FORMAT, __version__, path, real, sorted(options.items())], ensure_ascii=True)
    return Key(_digest(head.encode() + b"\0" + data), text.removeprefix("\ufeff"))


def _entry_path(folder: Path, key: str) -> Path:
    return folder / f"check-{key}.json"


def lookup(key: Key) -> CheckResult | None:
    """The stored result under ``key``, if there is one and it is still valid; else None."""
    folder = cache_dir()
    if folder is None:
        return None
    raw = _read_bytes(_entry_path(folder, key.digest), MAX_ENTRY_BYTES)
    if raw is None:
        return None
    try:
        entry = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    return _valid(entry, key.digest)


def _valid(entry: object, key: str) -> CheckResult | None:
    """The result an entry holds if it is well formed, its key is ``key`` and its base
    files are unchanged; else None."""
    if not isinstance(entry, dict) or set(entry) != {"format", "key", "game", "bases", "warnings"}:
        return None
    if entry["format"] != FORMAT or entry["key"] != key or not isinstance(entry["game"], str):
        return None
    bases, warnings = entry["bases"], entry["warnings"]
    if not isinstance(bases, list) or not isinstance(warnings, list):
        return None
    for base in bases:
        if not (isinstance(base, list) and len(base) == 3 and all(isinstance(x, str) for x in base)):
            return None
        named, real, digest = base
        try:
            if os.path.realpath(named) != real:
                return None
        except (OSError, ValueError):
            return None
        data = _read_bytes(Path(real), MAX_FILE_BYTES)
        if data is None or _digest(data) != digest:
            return None
    out: list[tuple[str, dict[str, object]]] = []
    for w in warnings:
        if not (isinstance(w, list) and len(w) == 2 and isinstance(w[0], str) and isinstance(w[1], dict)):
            return None
        out.append((w[0], w[1]))
    return CheckResult(entry["game"], tuple(out))


def store(key: Key, source: str, bases: Sequence[tuple[Path, Path]], texts: Sequence[str],
          result: CheckResult) -> None:
    """Remember a successful check of the text ``source`` (nothing is stored unless it is the
    text ``key`` was computed from), whose base files ``bases`` held ``texts``. Does
    nothing when the cache is off or cannot be written."""
    folder = cache_dir()
    if folder is None or source != key.text or len(bases) != len(texts):
        return
    listed = [[str(named), str(real), _digest(text.encode("utf-8", "surrogatepass"))]
              for (named, real), text in zip(bases, texts, strict=True)]
    entry = {"format": FORMAT, "key": key.digest, "game": result.game, "bases": listed,
             "warnings": [[text, data] for text, data in result.warnings]}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".check-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(entry, out, ensure_ascii=False)
            os.replace(temp, _entry_path(folder, key.digest))
        except BaseException:
            os.unlink(temp)
            raise
        _prune(folder)
    except (OSError, ValueError, TypeError):
        return


def _prune(folder: Path) -> None:
    """Keep the newest :data:`MAX_ENTRIES` entries."""
    entries = []
    for name in os.listdir(folder):
        if name.startswith("check-") and name.endswith(".json"):
            try:
                entries.append((os.stat(folder / name).st_mtime_ns, name))
            except OSError:
                continue
    for _, name in sorted(entries)[:max(0, len(entries) - MAX_ENTRIES)]:
        try:
            os.unlink(folder / name)
        except OSError:
            continue
