"""The cache of native builds (:mod:`interpreter.native`): where built extensions are kept,
which of them may be loaded, and loading exactly the bytes that were checked.

An extension is machine code: loading one runs it. So a cached extension is loaded only
when all of this holds:

* its folder (``native/`` in :func:`tricklang.checkcache.cache_dir`) is private
  (:mod:`tricklang.private`: this user's, writable by no one else, and so is every
  folder above it, none a symbolic link); it is opened once and every file is reached
  through that descriptor, never by a path that could be swapped meanwhile;
* the file is a regular file of this user that no one else may write, read once
  through one descriptor;
* beside it is the **record** this module wrote when it stored the file (``NAME.record``):
  the SHA-256 and size of its bytes and the identity the system gave the file when it
  was written here (device, inode and change time, which no program can set: a
  checkout, an archive or a copy cannot bring a record that fits), and the bytes read
  match it.

A file that fails any of this (another program's, a truncated or damaged one, one
shipped in a repository's ``.cache``) is never loaded: :meth:`NativeCache.read` answers
None and the caller builds the extension again, which replaces it. What is loaded is a
private copy of the verified bytes (:func:`load_extension`), made exclusively in a new
folder only this user may enter and removed once loaded, so the code that runs is the
code that was checked, whatever happens to the cached file meanwhile.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import stat
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tricklang.private import NotPrivateError, file_identity, open_private, owned_file, read_owned, write_new

from .errors import NativeBuildError

RECORD_FORMAT = 1
"""Bumped whenever what a record holds changes (older records are then not trusted)."""

RECORD_SUFFIX = ".record"
MAX_RECORD_BYTES = 4096
MAX_EXTENSION_BYTES = 1 << 30
"""A larger cached file is not read (a real extension is a few megabytes)."""

STALE_SECONDS = 3600.0
"""Leftover build and load folders older than this are removed when the cache is pruned."""

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
"""The file name ending of an extension module here (``.cpython-311-x86_64-linux-gnu.so``)."""

_LOADED_NAMES: set[str] = set()
"""The extensions loaded in this process (one load each: :func:`load_extension`)."""


@dataclass
class NativeCache:
    """The private ``native`` folder of the cache, open (see the module docstring).

    Use :meth:`open`; close it (or use it as a context manager) when done.
    """

    path: Path
    fd: int

    @classmethod
    def open(cls, base: Path) -> NativeCache:
        """The cache's ``native`` folder under ``base`` (made, mode 0700, where missing).

        Raises:
            NotPrivateError: ``base/native`` or a folder above it is not private; the
                message says which and why (the caller builds without the cache).
        """
        folder = Path(os.path.abspath(base)) / "native"
        return cls(folder, open_private(folder))

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def __enter__(self) -> NativeCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ reading

    def read(self, file: str) -> bytes | None:
        """The bytes of the cached extension ``file`` (a file name, no folder), if this
        module stored them and they are intact: see the module docstring. None otherwise
        (missing, foreign, damaged): the caller builds it again."""
        record = self._record(file)
        if record is None:
            return None
        try:
            fd = os.open(file, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), dir_fd=self.fd)
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not owned_file(info) or file_identity(info) != record["identity"] or info.st_size != record["size"]:
                return None
            if info.st_size > MAX_EXTENSION_BYTES:
                return None
            data = _read_all(fd, info.st_size)
        except OSError:
            return None
        finally:
            os.close(fd)
        if data is None or hashlib.sha256(data).hexdigest() != record["sha256"]:
            return None
        with contextlib.suppress(OSError):  # (recently used: kept longest; the record's time, not the file's)
            os.utime(file + RECORD_SUFFIX, dir_fd=self.fd, follow_symlinks=False)
        return data

    def _record(self, file: str) -> dict[str, Any] | None:
        raw = read_owned(file + RECORD_SUFFIX, self.fd, MAX_RECORD_BYTES)
        if raw is None:
            return None
        try:
            record = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):
            return None
        if not (isinstance(record, dict) and set(record) == {"format", "file", "sha256", "size", "identity"}
                and record["format"] == RECORD_FORMAT and record["file"] == file
                and isinstance(record["sha256"], str) and type(record["size"]) is int
                and isinstance(record["identity"], list) and len(record["identity"]) == 3
                and all(type(x) is int for x in record["identity"])):
            return None
        return record

    # ------------------------------------------------------------ storing

    def store(self, file: str, data: bytes) -> Path:
        """Keep ``data`` as the extension ``file``, with its record; returns its path.

        Raises:
            OSError: it cannot be stored (nothing is left half written: the file and
                its record are each replaced atomically, the record last).
        """
        with contextlib.suppress(FileNotFoundError):
            os.unlink(file + RECORD_SUFFIX, dir_fd=self.fd)
        write_new(file, self.fd, data)
        info = os.stat(file, dir_fd=self.fd, follow_symlinks=False)
        if not stat.S_ISREG(info.st_mode) or info.st_size != len(data):
            raise OSError(f"{file} changed while it was stored")
        record = {"format": RECORD_FORMAT, "file": file, "sha256": hashlib.sha256(data).hexdigest(),
                  "size": len(data), "identity": file_identity(info)}
        write_new(file + RECORD_SUFFIX, self.fd, json.dumps(record).encode())
        return self.path / file

    def prune(self, keep: str, most: int, prefix: str = "tricklang_native_") -> None:
        """Remove the least recently used extensions beyond ``most`` (never ``keep``), and
        leftover build and load folders older than :data:`STALE_SECONDS`. A file removed
        while another process runs it stays mapped there."""
        try:
            names = os.listdir(self.fd)
        except OSError:
            return
        found = []
        for name in names:
            if name.startswith(prefix) and not name.endswith(RECORD_SUFFIX) and name != keep:
                try:
                    info = os.stat(name + RECORD_SUFFIX, dir_fd=self.fd, follow_symlinks=False)
                except OSError:
                    try:
                        info = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
                    except OSError:
                        continue
                found.append((info.st_mtime, name))
            elif name.startswith((".load-", "build-")):
                with contextlib.suppress(OSError):
                    if time.time() - os.stat(name, dir_fd=self.fd, follow_symlinks=False).st_mtime > STALE_SECONDS:
                        shutil.rmtree(self.path / name, ignore_errors=True)
            elif name.endswith(RECORD_SUFFIX) and name[: -len(RECORD_SUFFIX)] not in names:
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=self.fd)
        found.sort()
        for _, old in found[: max(0, len(found) + 1 - most)]:
            for name in (old + RECORD_SUFFIX, old):
                with contextlib.suppress(OSError):
                    os.unlink(name, dir_fd=self.fd)

    def workspace(self, prefix: str) -> Path:
        """A new folder inside the cache, this user's only (for a build, or a private copy).

        Raises:
            OSError: it cannot be made.
        """
        return Path(tempfile.mkdtemp(prefix=prefix, dir=self.path))


def _read_all(fd: int, size: int) -> bytes | None:
    chunks = []
    left = size + 1
    while left > 0:
        chunk = os.read(fd, min(left, 1 << 22))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    data = b"".join(chunks)
    return data if len(data) == size else None


def built_bytes(path: Path) -> bytes:
    """The bytes of an extension just built in a private folder (read once).

    Raises:
        NativeBuildError: it cannot be read, or is not a regular file of this user.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise NativeBuildError(f"the built extension cannot be read: {err.strerror or err}") from None
    try:
        info = os.fstat(fd)
        data = _read_all(fd, info.st_size) if owned_file(info) and info.st_size <= MAX_EXTENSION_BYTES else None
    finally:
        os.close(fd)
    if data is None:
        raise NativeBuildError("the built extension is not a regular file of this user")
    return data


def is_loaded(name: str) -> bool:
    """Whether the extension module ``name`` was loaded in this process."""
    return name in _LOADED_NAMES


def load_extension(data: bytes, name: str, namespace: dict[str, Any], where: Path | None = None) -> dict[str, Any]:
    """Load the extension module ``name`` whose bytes are ``data`` (verified by the caller),
    not into ``sys.modules``, with ``namespace``'s objects handed to it first; returns its
    namespace. The bytes are written to a new file, made exclusively in a new folder only
    this user may enter (in ``where``, else the system's temporary folder), which is
    loaded and then removed (the process keeps it mapped).

    Raises:
        NativeBuildError: it cannot be loaded, or a module of that name is loaded already
            in this process (an extension module cannot be loaded twice).
    """
    if name in _LOADED_NAMES:  # (a second load would give the first module, its objects replaced)
        raise NativeBuildError(f"the native module {name} is loaded already in this process")
    try:
        private = Path(tempfile.mkdtemp(prefix=".load-", dir=where))
    except OSError as err:
        raise NativeBuildError(f"no private folder to load the native module from: {err.strerror or err}") from None
    try:
        copy = private / (name + SUFFIX)
        try:
            fd = os.open(copy, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o700)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
        except OSError as err:
            raise NativeBuildError(f"cannot copy the native module to load it: {err.strerror or err}") from None
        spec = importlib.util.spec_from_file_location(name, copy)
        if spec is None or spec.loader is None:
            raise NativeBuildError(f"cannot load the native module {name}")
        try:
            module = importlib.util.module_from_spec(spec)
            module.__dict__.update(namespace)
            spec.loader.exec_module(module)
        except (ImportError, OSError) as err:
            raise NativeBuildError(f"cannot load the native module {name}: {err}") from None
        _LOADED_NAMES.add(name)
        return module.__dict__
    finally:
        shutil.rmtree(private, ignore_errors=True)


__all__ = ["NativeCache", "NotPrivateError", "built_bytes", "is_loaded", "load_extension"]
