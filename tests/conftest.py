"""Test-suite settings: hypothesis runs are reproducible by default.

The default profile ``repeatable`` derandomizes every property test (the same
examples on every run, so that CI never fails by chance) and keeps no example
database. ``HYPOTHESIS_PROFILE=random`` explores new examples on each run;
``HYPOTHESIS_PROFILE=long`` is the long harness run (see tests/runtime/test_harness.py).
"""

from __future__ import annotations

import multiprocessing
import os
import resource
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

import tricklang
from interpreter import native
from interpreter.state import compiled

settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
settings.register_profile("random", derandomize=False, database=None, print_blob=True)
settings.load_profile("random" if os.environ.get("HYPOTHESIS_PROFILE") in ("random", "long") else "repeatable")

# `tricklang check` keeps a cache of results (tricklang.checkcache): off for the suite,
# so that every check runs in full and nothing is written to the user's cache; the
# cache's own tests point it at a temporary folder.
os.environ["TRICKLANG_CACHE_DIR"] = "off"


# ------------------------------------------------------------------ a sandboxed child

SANDBOX_MEMORY = 1_000_000_000
"""Address space a sandboxed call may use (bytes), beyond what the test process already
maps when it forks (which grows with the optional extras a run has imported)."""
SANDBOX_SECONDS = 5.0
"""CPU seconds a sandboxed call may use; it must finish in well under this."""


def _mapped_bytes() -> int:
    """The address space this process maps now (0 where /proc is not available)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _sandbox_child(conn: Any, call: Callable[[], Any]) -> None:
    cap = _mapped_bytes() + SANDBOX_MEMORY
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    resource.setrlimit(resource.RLIMIT_CPU, (int(SANDBOX_SECONDS) + 1, int(SANDBOX_SECONDS) + 2))
    started = time.perf_counter()
    try:
        value = call()
        out = {"outcome": "returned", "value": repr(value)[:2000]}
    except MemoryError:
        out = {"outcome": "capped", "error": "MemoryError", "message": "the memory cap was reached"}
    except BaseException as err:  # noqa: BLE001 - reported to the test, which judges it
        out = {"outcome": "raised", "error": type(err).__name__, "message": str(err)[:20000],
               "codes": list(getattr(err, "codes", []))}
    out["seconds"] = time.perf_counter() - started
    conn.send(out)
    conn.close()


def run_sandboxed(call: Callable[[], Any]) -> dict[str, Any]:
    """Run ``call`` in a forked child with a memory and CPU cap and a wall-clock timeout.

    Returns ``outcome`` ('returned', 'raised', 'capped', 'died' or 'timeout'), the
    error's type name, message and diagnostic codes, and the seconds taken."""
    tricklang.parse("tricklang 1\n")  # build the parser before forking
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_sandbox_child, args=(send, call), daemon=True)
    started = time.perf_counter()
    child.start()
    send.close()
    try:
        if receive.poll(SANDBOX_SECONDS * 2):
            try:
                return dict(receive.recv())
            except EOFError:
                return {"outcome": "died", "message": f"exit code {child.exitcode}"}
        return {"outcome": "timeout", "seconds": time.perf_counter() - started}
    finally:
        if child.is_alive():
            child.kill()
        child.join(5)
        receive.close()


def expect_refused(out: dict[str, Any], error: str, code: str | None = None, seconds: float = 2.0) -> str:
    """Assert a sandboxed call raised ``error`` (with diagnostic ``code``) in time, under its caps."""
    assert out["outcome"] == "raised", out
    assert out["error"] == error, out
    if code is not None:
        assert code in out["codes"], out
    assert out["seconds"] < seconds, out
    return str(out["message"])


@pytest.fixture
def sandbox() -> Callable[[Callable[[], Any]], dict[str, Any]]:
    """:func:`run_sandboxed`, as a fixture."""
    return run_sandboxed


@pytest.fixture
def written_modules(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Generated modules run as written during the test, not in their CPython flavour
    (interpreter.codegen.flavour): for a test that replaces a function in a module's
    namespace, which an inlined call would no longer look up."""
    for name in ("_MODULES", "_GAMES"):
        monkeypatch.setattr(compiled, name, type(getattr(compiled, name))())
    monkeypatch.setattr(compiled, "FLAVOUR", False)
    yield


@pytest.fixture
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """The native build is forgotten after the test (the rest of the suite runs CPython)."""
    for name in ("_NATIVE", "_MODULES", "_GAMES"):
        monkeypatch.setattr(compiled, name, type(getattr(compiled, name))())
    monkeypatch.setattr(native, "_BUILDS", {})
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path))
    yield
