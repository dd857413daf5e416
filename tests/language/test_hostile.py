"""Hostile rule files: each is refused by the parser or the checker, or stopped by an
interpreter limit, with a clear message and in bounded time, never another exception.

The files are in ``tests/hostile/``; the first comment lines say what must happen:

* ``# expect: CODE [or CODE ...]``: a diagnostic code of the parser or checker
  (``limit-exceeded``, ``bad-bound``, ``deck-too-small``, ``too-deep``...);
* ``# expect-runtime: OUTCOME [or ...]``: the file loads and playing it (first legal
  action each time) ends in ``GameLimitError`` or ``RuleRuntimeError`` with a message,
  or ``abandoned``: the match ends without a winner at its deal limit (the documented
  way a match that cannot reach its target stops);
* ``# known-bug: WHERE AND WHY``: the file is not handled yet; the test is a strict
  xfail, so that fixing the bug makes it fail until the marker is removed.

Either kind of ``expect`` line may also name outcomes of the other kind, as in
``# expect: limit-exceeded or GameLimitError``: refusing the file or stopping it are
both acceptable.

A target of 10**18 has 19 digits and is refused by the parser (``limit-exceeded``);
the largest writable target (18 nines) with ``at most N deals`` ends abandoned.

Every case runs in a forked child with a memory cap (1.5 GB of address space) and
is killed after a hard timeout, so that a runaway file cannot take the test run
down with it; the work itself must take less than ``LIMIT`` seconds of CPU time. CPU
time, not wall time: the cases run at once in as many children, so their wall time
grows with the number of cases and with whatever else the machine is running, while the
bound asked of a hostile file is on the work it makes the tool do.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import resource
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter.errors import GameError

HERE = Path(__file__).resolve().parents[1]
HOSTILE = HERE / "hostile"
FILES = sorted(HOSTILE.glob("*.trick"))
LIMIT = 10.0
"""CPU seconds a hostile case may take (parse, check, and play up to MAX_ACTIONS)."""
HARD_TIMEOUT = 6 * LIMIT
"""Wall seconds after which a case still running has failed and its child is killed: a
safeguard against a runaway file, generous because thirty children share the cores."""
MEMORY = 1_500_000_000
MAX_ACTIONS = 20_000
LONG = os.environ.get("HYPOTHESIS_PROFILE") == "long"

_CODE = re.compile(r"^[a-z]+(-[a-z]+)*$")
_RUNTIME = {"GameLimitError", "RuleRuntimeError", "abandoned"}


# ------------------------------------------------------------------ running a case


def _play(source: str | Path) -> dict[str, Any]:
    """Load and play a rule file (a path) or rule text (a string); say how it ended (runs in
    the child, which is forked: its CPU time is its own work)."""
    started = time.process_time()
    out: dict[str, Any]
    try:
        rules = tricklang.load(source) if isinstance(source, Path) else tricklang.loads(source)
    except tricklang.RulesError as err:
        out = {"outcome": "rejected", "codes": err.codes, "message": str(err)}
    else:
        try:
            state = interpreter.new_game(rules, seed=0)
            n = 0
            while not state.is_terminal() and n < MAX_ACTIONS:
                state.apply(state.legal_actions()[0])
                n += 1
            result = state.outcome()
            if result is None:
                out = {"outcome": "running", "message": f"still going after {n} actions"}
            else:
                ended = [e for e in state.events() if e["type"] == "match_end"]
                reason = str(ended[-1].get("reason", "")) if ended else ""
                out = {"outcome": "abandoned" if result.winner is None else "over", "message": reason,
                       "deals": result.deals, "actions": n}
        except GameError as err:
            out = {"outcome": type(err).__name__, "message": str(err)}
    out["seconds"] = time.process_time() - started
    return out


def _child(conn: Connection, source: str | Path) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    try:
        out = _play(source)
    except BaseException as err:  # noqa: BLE001 - reported, and the test fails on it
        out = {"outcome": "crash", "message": f"{type(err).__name__}: {err}"}
    conn.send(out)
    conn.close()


class _Case:
    """A case running in a forked child with a memory cap; :meth:`result` waits for it."""

    def __init__(self, source: str | Path) -> None:
        ctx = multiprocessing.get_context("fork")
        self.receive, send = ctx.Pipe(duplex=False)
        self.child = ctx.Process(target=_child, args=(send, source), daemon=True)
        self.started = time.perf_counter()
        self.child.start()
        send.close()
        self.out: dict[str, Any] | None = None

    def result(self) -> dict[str, Any]:
        if self.out is None:
            self.out = self._wait()
        return self.out

    def _wait(self) -> dict[str, Any]:
        left = max(0.0, HARD_TIMEOUT - (time.perf_counter() - self.started))
        try:
            if self.receive.poll(left):
                try:
                    return dict(self.receive.recv())
                except EOFError:
                    return {"outcome": "died", "message": f"exit code {self.child.exitcode}",
                            "seconds": time.perf_counter() - self.started}
            return {"outcome": "timeout", "message": f"still running after {HARD_TIMEOUT:.0f} s",
                    "seconds": time.perf_counter() - self.started}
        finally:
            if self.child.is_alive():
                self.child.kill()
            self.child.join(5)
            self.receive.close()


def run_case(source: str | Path) -> dict[str, Any]:
    """The outcome of one case, from a forked child with a memory cap and a hard timeout."""
    tricklang.parse(HEAD)  # build the parser once, before forking
    return _Case(source).result()


@pytest.fixture(scope="module")
def file_cases() -> dict[Path, _Case]:
    """Every hostile file, run in two waves: first the cases expected to pass, all at
    once; then the known bugs, all at once, so that the runaway ones time out
    together rather than one after another (and do not slow the timed ones)."""
    tricklang.parse(HEAD)  # build the parser once, before forking
    cases: dict[Path, _Case] = {}
    buggy = [p for p in FILES if expectation_of(p.read_text(encoding="utf-8")).known_bug]
    for path in FILES:
        if path not in buggy:
            cases[path] = _Case(path)
    for case in cases.values():
        case.result()
    for path in buggy:
        cases[path] = _Case(path)
    return cases


# ------------------------------------------------------------------ expectations


@dataclass(frozen=True)
class Expectation:
    outcomes: tuple[str, ...]
    known_bug: str = ""


def expectation_of(text: str) -> Expectation:
    outcomes: list[str] = []
    bug = ""
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        key, _, value = line[1:].strip().partition(":")
        if key in ("expect", "expect-runtime"):
            outcomes += [w.strip() for w in value.split(" or ") if w.strip()]
        elif key == "known-bug":
            bug = value.strip()
    return Expectation(tuple(outcomes), bug)


def check_outcome(out: dict[str, Any], expected: Expectation) -> None:
    where = f"{out.get('outcome')}: {str(out.get('message', ''))[:500]}"
    assert out["outcome"] not in ("crash", "died", "timeout", "running"), where
    codes = [c for c in expected.outcomes if _CODE.match(c) and c not in _RUNTIME]
    outcomes = [o for o in expected.outcomes if o in _RUNTIME]
    assert codes or outcomes, f"no expectation understood in {expected.outcomes}"
    if out["outcome"] == "rejected":
        assert codes, f"refused, but it should have run: {where}"
        assert set(codes) & set(out["codes"]), f"expected one of {codes}, got {out['codes']}: {where}"
        for code in set(codes) & set(out["codes"]):
            assert f"[{code}]" in out["message"]  # rendered, compiler style
    else:
        assert out["outcome"] in outcomes, f"expected one of {expected.outcomes}, got {where}"
        assert out["message"].strip(), "the error says nothing"
    assert out["seconds"] < LIMIT, f"took {out['seconds']:.1f} s"


def _params() -> list[Any]:
    params = []
    for path in FILES:
        expected = expectation_of(path.read_text(encoding="utf-8"))
        marks = [pytest.mark.xfail(strict=True, reason=expected.known_bug)] if expected.known_bug else []
        params.append(pytest.param(path, id=path.stem, marks=marks))
    return params


def test_every_hostile_file_says_what_must_happen() -> None:
    assert len(FILES) >= 12
    for path in FILES:
        expected = expectation_of(path.read_text(encoding="utf-8"))
        assert expected.outcomes, f"{path.name} has no '# expect:' or '# expect-runtime:' line"
        for outcome in expected.outcomes:
            assert _CODE.match(outcome) or outcome in _RUNTIME, f"{path.name}: unknown outcome {outcome!r}"


@pytest.mark.parametrize("path", _params())
def test_hostile_file_is_refused_or_stopped(path: Path, file_cases: dict[Path, _Case]) -> None:
    expected = expectation_of(path.read_text(encoding="utf-8"))
    check_outcome(file_cases[path].result(), expected)


# ------------------------------------------------------------------ generated cases

HEAD = """tricklang 1
game "Generated"
players 2
deck
  suits spades black, hearts red
  ranks A K Q
zone hand: per player, owner
zone stock: shared, hidden, pack
deal
  deal 3 to each
"""


def _nested_ifs(depth: int) -> str:
    lines = ["  " * (i + 1) + "if count(stock) >= 0:\n" for i in range(depth)]
    return HEAD + "".join(lines) + "  " * (depth + 1) + "dealer scores 1\n"


def _bool_options(n: int) -> str:
    """n bool options, tested twelve at a time (the lints try combinations of them)."""
    options = "".join(f'option o{i}: bool = true "x"\n' for i in range(n))
    tests = "".join("  if " + " and ".join(f"o{j}" for j in range(i, i + 12)) + ":\n    dealer scores 1\n"
                    for i in range(0, n - 12, 10))
    return HEAD.replace("zone hand", options + "zone hand") + tests


GENERATED: dict[str, tuple[str, str]] = {
    "41 nested blocks": (_nested_ifs(41), "too-deep"),
    "a chain of 2000 additions": (HEAD + "  dealer scores " + " + ".join(["1"] * 2000) + "\n", "too-deep or limit-exceeded"),
    "1000 nots": (HEAD + "  if " + "not " * 1000 + "true:\n    dealer scores 1\n", "too-deep or limit-exceeded"),
    "a pattern nested 500 deep": (HEAD + "  if stock has " + "(not " * 500 + "K" + ")" * 500 + ":\n    pass\n",
                                  "too-deep"),
    "a file over 1 MB": (HEAD + "  pass\n" * 180_000, "too-large"),
    "a number of 40 digits": (HEAD + "  dealer scores " + "9" * 40 + "\n", "limit-exceeded"),
    "a zone name of 100 000 characters": (HEAD.replace("zone stock", "zone " + "z" * 100_000 + ": shared, public\nzone stock"),
                                          "limit-exceeded"),
    "an unterminated string a quarter of a megabyte long": (HEAD.replace('"Generated"', '"' + "x" * 250_000),
                                                            "syntax-error or limit-exceeded"),
    "10,000 statements in a deal": (HEAD + "  dealer scores 1\n" * 10_000, "limit-exceeded"),
    "2,500 statements in a deal": (HEAD + "  dealer scores 1\n" * 2_500, "limit-exceeded"),
    "8,000 matching patterns": (HEAD + "  let n = 0\n" + "  set n = count(stock matching K)\n" * 7_000, "limit-exceeded"),
    "one pattern of 18,000 alternatives": (HEAD + "  let n = count(stock matching (" + " or ".join(["A"] * 18_000) + "))\n",
                                           "limit-exceeded"),
    "2,000 bool options tested in combination": (_bool_options(2_000), "GameLimitError"),
    "a line of 5,000 characters": (HEAD + "# " + "x" * 5_000 + "\n", "limit-exceeded"),
}


@pytest.mark.parametrize("name", list(GENERATED))
def test_generated_hostile_text_is_refused(name: str) -> None:
    text, codes = GENERATED[name]
    check_outcome(run_case(text), Expectation(tuple(codes.split(" or "))))


def test_nesting_just_under_the_limit_is_accepted() -> None:
    out = run_case(_nested_ifs(39))
    assert out["outcome"] == "over" or out["outcome"] == "abandoned", out


LONG_NAME = "n" * 100_000
NAMED = {
    "role": HEAD.replace("deck\n", f"role {LONG_NAME} = left of dealer\ndeck\n") + f"  {LONG_NAME} scores 1\n",
    "option": HEAD.replace("zone hand", f'option {LONG_NAME}: int = 1 in 1..9 "x"\nzone hand') + f"  dealer scores {LONG_NAME}\n",
    "variable": HEAD + f"  let {LONG_NAME} = 1\n  dealer scores {LONG_NAME}\n",
    "choice": HEAD + f"  dealer chooses:\n    {LONG_NAME}:\n      pass\n    other:\n      pass\n",
    "suit": HEAD.replace("suits spades", f"suits s{LONG_NAME}"),
}


@pytest.mark.parametrize("kind", list(NAMED))
def test_a_name_of_100_000_characters_is_refused(kind: str) -> None:
    check_outcome(run_case(NAMED[kind]), Expectation(("limit-exceeded",)))


@pytest.mark.skipif(not LONG, reason="about 10 s: run with HYPOTHESIS_PROFILE=long")
def test_a_file_just_under_the_size_limit_loads_in_bounded_time() -> None:
    """Just under the 256 KB limit: accepted, and parsed in a few seconds (about 100 KB/s)."""
    out = _play(HEAD + "  pass\n" * 35_000)
    assert out["outcome"] in ("over", "abandoned"), out
    assert out["seconds"] < 3 * LIMIT
