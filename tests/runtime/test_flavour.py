"""The CPython flavour of a generated module (``interpreter.codegen.flavour``).

In CPython a generated module runs flavoured: its small helpers inlined, its constants
written out, its ``cython.compiled`` branches decided. It must play exactly the module as
written (what a native build compiles): the same legal actions, draws, events and
observations for every bundled rule file; and a shape the pass does not know must leave
the function as it was, never break it.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Iterator
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter.codegen import flavour as flavour_module
from interpreter.codegen import generate
from interpreter.codegen.flavour import cpython_flavour, flavoured
from interpreter.codegen.inline import Inliner
from interpreter.state import compiled
from tricklang.catalog import bundled_games

GAMES = sorted(bundled_games())


@pytest.fixture
def game_made(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A function giving the Game of a ruleset with its module flavoured or as written,
    made afresh; the modules cached for the rest of the suite are left alone."""
    def make(rules: tricklang.Ruleset, flavoured: bool) -> interpreter.Game:
        with monkeypatch.context() as patch:
            for name in ("_MODULES", "_GAMES"):
                patch.setattr(compiled, name, type(getattr(compiled, name))())
            patch.setattr(compiled, "FLAVOUR", flavoured)
            return interpreter.Game.of(rules)
    yield make


def _trace(game: interpreter.Game, seed: int, limit: int = 250) -> list[Any]:
    """A seeded random match: each decision's legal actions and actor, the action drawn,
    the observations now and then, the events; then a playout and a batch from the same seeds."""
    state, rng = game.new_initial_state(seed=seed), random.Random(seed)
    out: list[Any] = []
    while not state.is_terminal() and state.action_count < limit:
        out.append((state.current_player, [a.text for a in state.legal_actions()]))
        action = state.sample_action(rng)
        out.append(action.text)
        state.apply(action)
        if state.action_count % 7 == 0:
            out.append([state.observation(p) for p in range(game.player_count)])
    out.append(state.events(None))
    out.append(state.scores)
    other = game.new_initial_state(seed=seed)
    out.append((other.playout(random.Random(seed), limit), list(other.actions)))
    batch = game.random_matches(2, seed=seed, rng=random.Random(seed), first_deal=True)
    out.append((batch.actions, batch.scores))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_bundled_game_plays_the_same_flavoured(name: str, game_made: Any) -> None:
    rules = tricklang.load(name)
    flavoured_game, written = game_made(rules, True), game_made(rules, False)
    assert flavoured_game.m is not written.m
    for seed in (1, 2):
        assert _trace(flavoured_game, seed) == _trace(written, seed)


@pytest.mark.parametrize("name", ["ecarte", "cinch", "bridge", "skat"])
def test_the_flavour_rewrites_every_function_of_a_bundled_game(name: str) -> None:
    """No function of a bundled game falls back to its text as written, no
    ``cython.compiled`` is left, and the hot helpers are inlined."""
    source = generate(tricklang.load(name)).source
    failed: set[str] = set()
    tree = flavoured(source, failed)
    assert failed == set()
    text = ast.unparse(tree)
    assert "cython.compiled" not in text and "cython.compiled" in source
    calls = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    assert not set(calls) & {"_low", "_forbidden", "_bits"}
    assert calls.count("_pc") < source.count("_pc(") / 4  # (left: a count of an argument that calls)


SMALL = '''
import cython
N = cython.declare(cython.longlong, 3)
WIDE = False

def _first(xs, p):
    q = p
    while q < N:
        if xs[q]:
            return q
        q += 1
    return -1

def _pick(a, b):
    if a > b:
        return a
    return b

def _twice(x):
    return x + x

def _log(out, v):
    out.append(v)
    if v > 5:
        return
    out.append(-v)

def _bump(out):
    out.append(len(out))
    return len(out)

def caller(xs, out):
    i = _first(xs, 0)
    m = _pick(len(out), i)
    _log(out, m)
    k = _twice(_bump(out))
    if cython.compiled and not WIDE:
        return -1
    return _pick(_twice(m), k)

def shadow(xs, out):
    N = 10
    return _first(xs, 0) + N
'''


def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_inlined_functions_do_what_their_calls_did() -> None:
    tree = flavoured(SMALL)
    fns = _functions(tree)
    called = {n.func.id for n in ast.walk(fns["caller"]) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert called == {"_first", "len", "_twice", "_bump"}  # (a return in a loop, an argument that calls: calls)
    assert "_first" in {n.func.id for n in ast.walk(fns["shadow"]) if isinstance(n, ast.Call)
                        and isinstance(n.func, ast.Name)}
    written = compiled.run_source(SMALL, "small", flavoured=False)
    fast = compiled.run_source(SMALL, "small", flavoured=True)
    for xs in ([0, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 7]):
        for out in ([], [1, 2, 3, 4, 5, 6, 7, 8]):
            a, b = list(out), list(out)
            assert (written["caller"](xs, a), a) == (fast["caller"](xs, b), b)
            assert written["shadow"](xs, a) == fast["shadow"](xs, b) == written["_first"](xs, 0) + 10


def test_a_function_the_pass_cannot_rewrite_is_left_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    real = Inliner.function

    def refuse(self: Inliner, fn: ast.FunctionDef) -> bool:
        if fn.name == "caller":
            raise ValueError("a shape this pass does not know")
        return real(self, fn)

    monkeypatch.setattr(Inliner, "function", refuse)
    failed: set[str] = set()
    tree = flavoured(SMALL, failed)
    assert failed == {"caller"}
    assert ast.unparse(_functions(tree)["caller"]) == ast.unparse(_functions(ast.parse(SMALL))["caller"])
    fast = compiled.run_source(ast.unparse(tree), "small", flavoured=False)
    assert fast["caller"]([0, 1, 0], []) == 6


def test_a_module_the_pass_fails_on_runs_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(source: str, failed: set[str], filename: str) -> Any:
        raise RecursionError

    monkeypatch.setattr(flavour_module, "_flavour", broken)
    namespace: dict[str, Any] = {}
    exec(cpython_flavour(SMALL), namespace)  # noqa: S102 - the test's own source
    assert namespace["caller"]([0, 1, 0], []) == 6
    assert compiled.run_source(SMALL, "small", flavoured=True)["caller"]([0, 1, 0], []) == 6


def test_the_source_a_native_build_compiles_is_not_flavoured() -> None:
    rules = tricklang.load("ecarte")
    game = interpreter.Game.of(rules)
    assert game.generated.source == generate(rules).source
    assert "cython.compiled" in game.generated.source
