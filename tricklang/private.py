"""Folders no one else can change: the ground rules of tricklang's caches (the check
cache, :mod:`tricklang.checkcache`, and the native builds' cache, ``interpreter.native_cache``).

A cache's folder is used only if no other user can put, replace or remove a file in it,
nor swap the folder itself or any folder above it:

* every folder on its path, from the root down, belongs to this user or to the system
  (root), and none may be written by group or others; the one exception is a folder of
  the system with the sticky bit (``/tmp``), above the cache: there no one may rename or
  remove another user's entry;
* the cache's own folder belongs to this user;
* no folder on the path is a symbolic link.

The folders are opened one at a time, each relative to the one above and without
following links, and checked on the open descriptor, so the folder that was checked is
the folder that is used (:func:`open_private`). Where the system cannot do this
(no ``O_NOFOLLOW``, no ``dir_fd``: Windows), no folder is private and the caches are off.
This module imports nothing of tricklang.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

_FLAGS = getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | os.O_RDONLY
SUPPORTED = (hasattr(os, "getuid") and hasattr(os, "O_NOFOLLOW") and hasattr(os, "O_DIRECTORY")
             and os.open in os.supports_dir_fd and os.mkdir in os.supports_dir_fd)
"""Whether private folders can be checked here (POSIX systems)."""

MAX_DEPTH = 64
"""Folders on a path, at most."""


class NotPrivateError(Exception):
    """A folder that others could change (the message says which and why), or one that
    cannot be opened or made."""


def why_not(info: os.stat_result, own: bool) -> str | None:
    """Why a folder with this ``lstat``/``fstat`` result cannot be trusted (None if it can):
    ``own`` when it must belong to this user (else the system's will do)."""
    if not stat.S_ISDIR(info.st_mode):
        return "is a symbolic link or not a folder" if stat.S_ISLNK(info.st_mode) else "is not a folder"
    me = os.getuid()
    if info.st_uid != me and (own or info.st_uid != 0):
        return "belongs to another user"
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        if own or info.st_uid != 0 or not info.st_mode & stat.S_ISVTX:
            return "may be written by others"
    return None


def owned_file(info: os.stat_result) -> bool:
    """Whether an ``fstat``/``lstat`` result is a regular file of this user that no one else may write."""
    return (stat.S_ISREG(info.st_mode) and SUPPORTED and info.st_uid == os.getuid()
            and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def open_private(path: str | Path, *, create: bool = True) -> int:
    """Open the folder ``path`` as :mod:`this module <tricklang.private>` requires, making
    it (and missing folders above it, mode 0700) when ``create``; returns a descriptor of
    it (``O_DIRECTORY``), which the caller closes.

    Raises:
        NotPrivateError: a folder on the path is not private (or the path cannot be
            opened or made, or this system cannot check it); the message names it.
    """
    if not SUPPORTED:
        raise NotPrivateError("private folders cannot be checked on this system")
    absolute = os.path.abspath(os.fspath(path))
    parts = [p for p in absolute.split(os.sep) if p]
    if len(parts) > MAX_DEPTH:
        raise NotPrivateError(f"{absolute}: too many folders on the path")
    fd = os.open(os.sep, _FLAGS)
    where = os.sep
    try:
        problem = why_not(os.fstat(fd), own=not parts)
        if problem:
            raise NotPrivateError(f"{where} {problem}")
        for i, part in enumerate(parts):
            where = os.path.join(where, part)
            last = i == len(parts) - 1
            try:
                child = os.open(part, _FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise NotPrivateError(f"{where} does not exist") from None
                try:
                    os.mkdir(part, 0o700, dir_fd=fd)
                except FileExistsError:
                    pass  # (made meanwhile: checked below as any other)
                child = os.open(part, _FLAGS, dir_fd=fd)
            os.close(fd)
            fd = child
            problem = why_not(os.fstat(fd), own=last)
            if problem:
                raise NotPrivateError(f"{where} {problem}")
        return fd
    except NotPrivateError:
        os.close(fd)
        raise
    except OSError as err:
        os.close(fd)
        if err.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise NotPrivateError(f"{where} is a symbolic link or not a folder") from None
        raise NotPrivateError(f"{where} cannot be opened: {err.strerror or err}") from None


def check_private(path: str | Path) -> str | None:
    """Why the existing folder ``path`` is not private (None when it is); nothing is made."""
    try:
        fd = open_private(path, create=False)
    except NotPrivateError as err:
        return str(err)
    os.close(fd)
    return None


def read_owned(name: str, folder: int, limit: int) -> bytes | None:
    """The bytes of the file ``name`` in the open folder ``folder``, read through one
    descriptor: None unless it is a regular file (not a link) of this user that no one else may
    write, of at most ``limit`` bytes."""
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0),
                     dir_fd=folder)
    except (OSError, ValueError):
        return None
    try:
        info = os.fstat(fd)
        if not owned_file(info) or info.st_size > limit:
            return None
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def write_new(name: str, folder: int, data: bytes, mode: int = 0o600) -> None:
    """Write ``data`` to the file ``name`` in the open folder ``folder``, atomically: a new
    file made exclusively (``O_CREAT | O_EXCL``, no link followed) under a temporary name,
    then renamed over ``name``.

    Raises:
        OSError: it cannot be written (nothing is left behind).
    """
    temp = f".{name}.{os.getpid()}.{os.urandom(6).hex()}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0),
                 mode, dir_fd=folder)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.rename(temp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp, dir_fd=folder)
        raise


KEY_FILE = "key"
"""A private folder's secret (:func:`folder_key`)."""
PIN_SUFFIX = ".pin"


def file_identity(info: os.stat_result) -> list[int]:
    """What the system set when a file was written here and no program can set (a copy,
    a checkout or an archive gets its own): its device, inode and change time."""
    return [info.st_dev, info.st_ino, info.st_ctime_ns]


def folder_key(folder: int, *, create: bool = True) -> bytes | None:
    """The secret of the open private folder ``folder``: 32 random bytes in ``key``, made
    (when ``create``) the first time. It is trusted only beside its pin (``key.pin``:
    the key file's :func:`file_identity`, written when the key was), so a key that
    arrived with a checkout or a copy of the folder is replaced, and entries
    authenticated with it (HMAC) are no longer believed. None when there is no trusted
    key and one cannot (or may not) be made."""
    key = read_owned(KEY_FILE, folder, 64)
    pin = read_owned(KEY_FILE + PIN_SUFFIX, folder, 256)
    if key is not None and len(key) == 32 and pin is not None:
        try:
            info = os.stat(KEY_FILE, dir_fd=folder, follow_symlinks=False)
            if pin.decode("ascii") == " ".join(map(str, file_identity(info))):
                return key
        except (OSError, ValueError):
            pass
    if not create:
        return None
    fresh = os.urandom(32)
    try:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(KEY_FILE + PIN_SUFFIX, dir_fd=folder)
        write_new(KEY_FILE, folder, fresh)
        info = os.stat(KEY_FILE, dir_fd=folder, follow_symlinks=False)
        write_new(KEY_FILE + PIN_SUFFIX, folder, " ".join(map(str, file_identity(info))).encode("ascii"))
    except OSError:
        return None
    return fresh
