"""An on-disk cache of successful checks, so that `tricklang check` of an unchanged file
answers without parsing it (nor importing the parser and the syntax model).

An entry is keyed by the SHA-256 of: this format, tricklang's version, the digest of
tricklang's own source (so that a checker changed in place, without a new version, never
answers from a verdict of the old one), the path as
given and the file's real path, the ``-o`` options, and the file's bytes. It records the
files the rule file extends (the path each was named by, its real path and the
SHA-256 of its bytes): the entry is used only while each of them still reads the same.
Only successful checks are stored (a failing check is checked again).

The cache lives in ``$TRICKLANG_CACHE_DIR``, else ``$XDG_CACHE_HOME/tricklang`` (else
``~/.cache/tricklang``); ``TRICKLANG_CACHE_DIR=off`` (or ``none``, ``0``, ``""``) turns it off.
Its contents are untrusted:

* the folder is used only if it is private (:mod:`tricklang.private`: this user's,
  writable by no one else, and so is every folder above it, none a symbolic link);
  otherwise nothing is read or stored;
* every entry carries an HMAC of its contents under the folder's secret
  (:func:`tricklang.private.folder_key`, which a checkout or a copy of the folder cannot
  bring): an entry this tool did not write is ignored and the file is checked in full,
  as is one that is not exactly what this module writes (any type, size or field out of
  place, or its own key not matching);
* nothing stored is printed as it is: an entry holds the warnings' fields (code,
  position, message...), validated on reading, and they are rendered again, escaped,
  as a full check renders them.

At most :data:`MAX_ENTRIES` entries are kept (the oldest are removed). This module imports
neither the parser nor pydantic.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from . import __version__, catalog
from .diagnostics import CODES, Diagnostic
from .private import NotPrivateError, folder_key, open_private, read_owned, write_new

FORMAT = 2
"""Bumped whenever what an entry holds, or how a check result is printed, changes."""

MAX_ENTRIES = 256
"""Entries kept; storing one more removes the oldest."""

MAX_ENTRY_BYTES = 1_000_000
"""A larger entry is not read."""

MAX_FILE_BYTES = 256_000
"""Rule files larger than this are not cached (the full check refuses them)."""

MAX_WARNINGS = 100
"""A check with more warnings than this is not cached."""


@dataclass(frozen=True)
class CheckResult:
    """What `tricklang check` found in a rule file that passed: the game's name and its
    warnings (rendered again, escaped, when printed)."""

    game: str
    warnings: tuple[Diagnostic, ...]


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


SOURCE_ROOT = Path(__file__).resolve().parent
"""The folder of tricklang's own source, whose digest is part of every key."""


@functools.lru_cache(maxsize=4)
def source_digest(root: Path = SOURCE_ROOT) -> str:
    """The SHA-256 of every ``.py`` and ``.lark`` file below ``root`` (names and bytes, in
    sorted order): the checker that gives the verdicts. Computed once per process."""
    h = hashlib.sha256()
    files = sorted(p for p in root.rglob("*") if p.suffix in (".py", ".lark") and "__pycache__" not in p.parts)
    for file in files:
        h.update(file.relative_to(root).as_posix().encode("utf-8", "surrogatepass") + b"\0")
        try:
            h.update(file.read_bytes())
        except OSError:
            h.update(b"(unreadable)")
        h.update(b"\0")
    return h.hexdigest()


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
    head = json.dumps([FORMAT, __version__, source_digest(), path, real, sorted(options.items())], ensure_ascii=True)
    return Key(_digest(head.encode() + b"\0" + data), text.removeprefix("\ufeff"))


def _entry_name(key: str) -> str:
    return f"check-{key}.json"


def _folder() -> int | None:
    """The cache's folder, open, if the cache is on and the folder is private; else None."""
    base = cache_dir()
    if base is None:
        return None
    try:
        return open_private(base)
    except NotPrivateError:
        return None


def _mac(secret: bytes, entry: Mapping[str, object]) -> str:
    body = json.dumps({k: v for k, v in entry.items() if k != "mac"}, sort_keys=True, ensure_ascii=True)
    return hmac.new(secret, body.encode("ascii"), hashlib.sha256).hexdigest()


def lookup(key: Key) -> CheckResult | None:
    """The stored result under ``key``, if there is one, this tool wrote it and it is still
    valid; else None."""
    folder = _folder()
    if folder is None:
        return None
    try:
        raw = read_owned(_entry_name(key.digest), folder, MAX_ENTRY_BYTES)
        secret = folder_key(folder, create=False) if raw is not None else None
    finally:
        os.close(folder)
    if raw is None or secret is None:
        return None
    try:
        entry = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or not isinstance(entry.get("mac"), str):
        return None
    if not hmac.compare_digest(entry["mac"], _mac(secret, entry)):
        return None
    return _valid(entry, key.digest)


_INTS = ("line", "column", "end_column")
_TEXTS = ("code", "message", "severity", "hint", "path", "note", "source_line")
MAX_FIELD_CHARS = 10_000


def _diagnostic(data: object) -> Diagnostic | None:
    """A warning read back from an entry, if every field is what a check gives."""
    if not isinstance(data, dict) or set(data) != set(_INTS) | set(_TEXTS):
        return None
    if not all(type(data[k]) is int and 0 <= data[k] < 10**9 for k in _INTS):
        return None
    if not all(isinstance(data[k], str) and len(data[k]) <= MAX_FIELD_CHARS for k in _TEXTS):
        return None
    if data["severity"] != "warning" or data["code"] not in CODES:
        return None
    return Diagnostic(**data)


def _valid(entry: dict[str, object], key: str) -> CheckResult | None:
    """The result an entry holds if it is well formed, its key is ``key`` and its base
    files are unchanged; else None."""
    if set(entry) != {"format", "key", "game", "bases", "warnings", "mac"}:
        return None
    if entry["format"] != FORMAT or entry["key"] != key or not isinstance(entry["game"], str):
        return None
    bases, warnings = entry["bases"], entry["warnings"]
    if not isinstance(bases, list) or not isinstance(warnings, list) or len(warnings) > MAX_WARNINGS:
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
    out: list[Diagnostic] = []
    for w in warnings:
        d = _diagnostic(w)
        if d is None:
            return None
        out.append(d)
    return CheckResult(entry["game"], tuple(out))


def store(key: Key, source: str, bases: Sequence[tuple[Path, Path]], texts: Sequence[str],
          result: CheckResult) -> None:
    """Remember a successful check of the text ``source`` (nothing is stored unless it is the
    text ``key`` was computed from), whose base files ``bases`` held ``texts``. Does
    nothing when the cache is off, not private or cannot be written."""
    if source != key.text or len(bases) != len(texts) or len(result.warnings) > MAX_WARNINGS:
        return
    folder = _folder()
    if folder is None:
        return
    try:
        secret = folder_key(folder)
        if secret is None:
            return
        listed = [[str(named), str(real), _digest(text.encode("utf-8", "surrogatepass"))]
                  for (named, real), text in zip(bases, texts, strict=True)]
        entry: dict[str, object] = {
            "format": FORMAT, "key": key.digest, "game": result.game, "bases": listed,
            "warnings": [{k: getattr(d, k) for k in (*_INTS, *_TEXTS)} for d in result.warnings]}
        entry["mac"] = _mac(secret, entry)
        write_new(_entry_name(key.digest), folder, json.dumps(entry, ensure_ascii=True).encode("ascii"))
        _prune(folder)
    except (OSError, ValueError, TypeError):
        return
    finally:
        os.close(folder)


def _prune(folder: int) -> None:
    """Keep the newest :data:`MAX_ENTRIES` entries."""
    entries = []
    for name in os.listdir(folder):
        if name.startswith("check-") and name.endswith(".json"):
            try:
                entries.append((os.stat(name, dir_fd=folder, follow_symlinks=False).st_mtime_ns, name))
            except OSError:
                continue
    for _, name in sorted(entries)[:max(0, len(entries) - MAX_ENTRIES)]:
        with contextlib.suppress(OSError):
            os.unlink(name, dir_fd=folder)
