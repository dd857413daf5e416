"""tricklang.private: the ground rules of the caches' folders (every folder on the path
this user's or the system's, writable by no one else, none a link) and of their files."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from tricklang import private
from tricklang.private import NotPrivateError, check_private, open_private, read_owned, write_new

pytestmark = pytest.mark.skipif(not private.SUPPORTED, reason="private folders cannot be checked on this system")


def test_a_private_folder_is_made_and_opened(tmp_path: Path) -> None:
    fd = open_private(tmp_path / "a" / "b")
    try:
        assert stat.S_IMODE(os.fstat(fd).st_mode) == 0o700
        write_new("x", fd, b"data")
        assert read_owned("x", fd, 10) == b"data" and read_owned("x", fd, 3) is None
        assert [p for p in os.listdir(fd)] == ["x"]  # (no temporary file left)
    finally:
        os.close(fd)
    assert check_private(tmp_path / "a" / "b") is None
    assert "does not exist" in (check_private(tmp_path / "missing") or "")


@pytest.mark.parametrize("mode", [0o775, 0o757, 0o777])
def test_a_folder_others_may_write_anywhere_on_the_path_is_refused(tmp_path: Path, mode: int) -> None:
    (tmp_path / "up" / "down").mkdir(parents=True)
    (tmp_path / "up").chmod(mode)
    with pytest.raises(NotPrivateError, match=f"{tmp_path / 'up'} may be written by others"):
        open_private(tmp_path / "up" / "down" / "cache")
    (tmp_path / "up").chmod(0o755)
    (tmp_path / "up" / "down").chmod(mode)
    with pytest.raises(NotPrivateError, match="may be written by others"):
        open_private(tmp_path / "up" / "down")


def test_a_sticky_folder_of_another_owner_than_the_system_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sticky").mkdir()
    (tmp_path / "sticky").chmod(0o1777)  # (this user's, not the system's: not let through)
    if os.getuid() == 0:
        pytest.skip("as root, this user is the system")
    with pytest.raises(NotPrivateError, match="may be written by others"):
        open_private(tmp_path / "sticky" / "cache")


def test_a_symbolic_link_on_the_path_is_refused(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(NotPrivateError, match="link is a symbolic link"):
        open_private(tmp_path / "link" / "cache")
    assert not (tmp_path / "real" / "cache").exists()


@pytest.mark.skipif(os.getuid() != 0, reason="making a folder of another user needs root")
def test_a_folder_of_another_user_is_refused(tmp_path: Path) -> None:
    (tmp_path / "theirs").mkdir(mode=0o755)
    os.chown(tmp_path / "theirs", 65534, 65534)
    with pytest.raises(NotPrivateError, match="belongs to another user"):
        open_private(tmp_path / "theirs")


def test_only_a_regular_file_of_this_user_no_one_else_may_write_is_read(tmp_path: Path) -> None:
    fd = open_private(tmp_path / "cache")
    try:
        folder = tmp_path / "cache"
        (folder / "f").write_bytes(b"ok")
        (folder / "f").chmod(0o644)
        assert read_owned("f", fd, 10) == b"ok"
        for mode in (0o664, 0o646):
            (folder / "f").chmod(mode)
            assert read_owned("f", fd, 10) is None
        (folder / "f").chmod(0o600)
        (folder / "link").symlink_to(folder / "f")
        os.mkfifo(folder / "fifo")
        assert read_owned("link", fd, 10) is None and read_owned("fifo", fd, 10) is None
        assert read_owned("missing", fd, 10) is None
    finally:
        os.close(fd)


def test_a_folder_key_is_kept_and_one_that_came_with_a_copy_is_replaced(tmp_path: Path) -> None:
    fd = open_private(tmp_path / "a")
    try:
        key = private.folder_key(fd)
        assert key is not None and len(key) == 32 and private.folder_key(fd) == key
    finally:
        os.close(fd)
    shutil.copytree(tmp_path / "a", tmp_path / "b")  # (a plain copy, as an archive or a checkout gives)
    fd = open_private(tmp_path / "b")
    try:
        assert private.folder_key(fd, create=False) is None
        fresh = private.folder_key(fd)
        assert fresh is not None and fresh != key
    finally:
        os.close(fd)
