"""The native builds' cache (interpreter.native_cache) cannot be planted: an extension is
loaded only from a private folder, only if this tool stored it there (its record fits),
and only as the bytes that were verified. A foreign, truncated or shipped file is built
again in its place and its code never runs; the build's child has a memory limit.

Skipped where Cython, setuptools or a C compiler is missing. The modules built here are
tiny (a few seconds each).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter import native, native_cache
from interpreter.errors import NativeBuildError
from interpreter.state import compiled

pytestmark = pytest.mark.skipif(native.unavailable() is not None,
                                reason=f"native builds cannot be made here: {native.unavailable()}")

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in ("_NATIVE", "_MODULES", "_GAMES"):
        monkeypatch.setattr(compiled, name, type(getattr(compiled, name))())
    monkeypatch.setattr(native, "_BUILDS", {})
    yield


def legit(tag: str) -> tuple[str, str]:
    """A module's source (a value of 42) and its name, unique to the test."""
    source = f"VALUE = 41 + 1\nTAG = {tag!r}\n"
    return source, native.module_name(source, "tricklang_native_t")


def foreign_extension(tmp: Path, name: str, marker: Path) -> bytes:
    """The bytes of an extension module called ``name`` whose code writes ``marker`` when it runs."""
    work = tmp / "foreign-build"
    work.mkdir()
    built = native._compile(f"open({str(marker)!r}, 'w').write('ran')\nVALUE = 666\n", "", work, name, 300)
    data = built.read_bytes()
    shutil.rmtree(work)
    return data


def cached_files(base: Path) -> list[str]:
    return sorted(p.name for p in (base / "native").iterdir() if not p.name.startswith((".load-", "build-")))


def test_a_foreign_extension_under_the_expected_name_is_built_again_and_never_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout that ships `.cache/tricklang/native/<name>.so` (its name is a digest of
    public data): the file is this user's and no one else may write it, but this tool did
    not store it; its code must not run."""
    base = tmp_path / "checkout" / ".cache" / "tricklang"
    (base / "native").mkdir(parents=True, mode=0o700)
    source, name = legit("foreign")
    marker = tmp_path / "foreign-code-ran"
    planted = base / "native" / (name + native_cache.SUFFIX)
    planted.write_bytes(foreign_extension(tmp_path, name, marker))
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(base))
    build, ns = native._built(source, "", name, 300)
    assert not marker.exists(), "the planted extension's code ran"
    assert ns["VALUE"] == 42 and ns["TAG"] == "foreign" and not build.cached
    assert planted.read_bytes() != b"" and native_cache.NativeCache.open(base).read(planted.name) is not None


def test_a_shipped_extension_with_a_forged_record_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkout can ship a record too, with the SHA-256 and size of its file: what it
    cannot ship is the identity this system gave the file when this tool wrote it."""
    base = tmp_path / "cache"
    folder = base / "native"
    folder.mkdir(parents=True, mode=0o700)
    source, name = legit("forged")
    marker = tmp_path / "forged-code-ran"
    file = name + native_cache.SUFFIX
    data = foreign_extension(tmp_path, name, marker)
    (folder / file).write_bytes(data)
    other = tmp_path.stat()  # (any file's identity: the checkout cannot know the real one)
    for identity in ([other.st_dev, other.st_ino, other.st_ctime_ns], [0, 0, 0]):
        (folder / (file + native_cache.RECORD_SUFFIX)).write_text(json.dumps({
            "format": native_cache.RECORD_FORMAT, "file": file, "sha256": hashlib.sha256(data).hexdigest(),
            "size": len(data), "identity": identity}), encoding="utf-8")
        assert native_cache.NativeCache.open(base).read(file) is None
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(base))
    build, ns = native._built(source, "", name, 300)
    assert not marker.exists() and ns["VALUE"] == 42 and not build.cached


def test_a_copied_cache_is_not_trusted_the_original_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source, name = legit("copied")
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path / "first"))
    build, ns = native._built(source, "", name, 300)
    assert ns["VALUE"] == 42 and build.path.parent == tmp_path / "first" / "native"
    file = build.path.name
    assert native_cache.NativeCache.open(tmp_path / "first").read(file) is not None  # (what it stored, it trusts)
    shutil.copytree(tmp_path / "first", tmp_path / "second")  # (as a checkout or an archive would bring it)
    assert native_cache.NativeCache.open(tmp_path / "second").read(file) is None


def test_a_truncated_cached_extension_is_built_again_not_a_crash(tmp_path: Path) -> None:
    """Cut to a few kilobytes, a cached extension used to crash every later run (SIGBUS
    when loaded): now its record does not fit and it is built again."""
    script = textwrap.dedent("""
        import json
        from interpreter import native
        source = "VALUE = 6 * 7\\n"
        build, ns = native._built(source, "", native.module_name(source, "tricklang_native_trunc"), 300)
        print(json.dumps([build.cached, ns["VALUE"]]))
    """)
    env = {**os.environ, "TRICKLANG_CACHE_DIR": str(tmp_path)}

    def run() -> list[object]:
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300,
                              check=False)
        assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
        return list(json.loads(done.stdout))

    assert run() == [False, 42]
    assert run() == [True, 42]
    [ext] = [p for p in (tmp_path / "native").glob("tricklang_native_trunc*") if not p.name.endswith(".record")]
    for size in (12_000, 4096, 1):
        data = ext.read_bytes()
        ext.write_bytes(data[:size])
        assert run() == [False, 42]
        assert ext.stat().st_size == len(data)


def test_a_cache_below_a_folder_others_may_write_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone who may write the cache's parent can swap `native/` for his own folder
    during a build: such a cache is not used at all (the build is not kept)."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # (no sticky bit: anyone may rename what is in it)
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(shared / "cache"))
    source, name = legit("shared")
    build, ns = native._built(source, "", name, 300)
    assert ns["VALUE"] == 42 and not build.cached
    assert build.not_kept is not None and "may be written by others" in build.not_kept and str(shared) in build.not_kept
    assert not (shared / "cache" / "native").exists() or not any((shared / "cache" / "native").iterdir())


def test_a_cache_reached_through_a_symbolic_link_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tmp_path / "real"
    (real / "native").mkdir(parents=True, mode=0o700)
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path / "link"))
    source, name = legit("link")
    build, ns = native._built(source, "", name, 300)
    assert ns["VALUE"] == 42 and build.not_kept is not None and "symbolic link" in build.not_kept
    assert list((real / "native").iterdir()) == []
    (real / "native").rmdir()
    (tmp_path / "cache").mkdir(mode=0o700)
    (tmp_path / "cache" / "native").symlink_to(real)  # (native/ itself swapped for a link)
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path / "cache"))
    source, name = legit("native-link")
    build, ns = native._built(source, "", name, 300)
    assert ns["VALUE"] == 42 and build.not_kept is not None and "symbolic link" in build.not_kept
    assert list(real.iterdir()) == []


def test_what_is_loaded_is_the_bytes_that_were_verified(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cached file replaced right after it was verified (by a concurrent process, or
    an attacker who won a race): the verified bytes are what runs."""
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path / "cache"))
    source, name = legit("verified")
    build, _ = native._built(source, "", name, 300)
    marker = tmp_path / "swapped-code-ran"
    swapped = foreign_extension(tmp_path, name, marker)
    real_read = native_cache.NativeCache.read

    def read_then_swap(self: native_cache.NativeCache, file: str) -> bytes | None:
        data = real_read(self, file)
        (self.path / file).write_bytes(swapped)
        return data

    monkeypatch.setattr(native_cache.NativeCache, "read", read_then_swap)
    monkeypatch.setattr(native_cache, "_LOADED_NAMES", set())  # (as in a new process)
    again, ns = native._built(source, "", name, 300)
    assert again.cached and ns["VALUE"] == 42 and not marker.exists()


def test_the_build_child_has_a_memory_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", "off")
    monkeypatch.setattr(native, "MEMORY_LIMIT", 60_000_000)
    source, name = legit("memory")
    with pytest.raises(NativeBuildError, match=r"needed more than 60 MB of memory"):
        native._built(source, "", name, 300)
