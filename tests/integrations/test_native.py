"""Native builds (interpreter.native): a rule file's generated module compiled by Cython
plays exactly the matches of the same module in CPython (the same draws, actions, events
and states), its C parts (the seeded shuffles, the Mersenne Twister) draw what Python
draws, and a build is cached, checked and refused clearly.

Skipped where Cython, setuptools or a C compiler is missing (``pip install -e '.[native]'``).
Each game is built once a test session (about 15 s of CPU each).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_id_step_is_the_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from make_golden import golden_path, transcript

import interpreter
import tricklang
from interpreter import native, native_cache
from interpreter.cli import main
from interpreter.codegen import generate
from interpreter.errors import ArgumentError
from interpreter.native import NativeBuildError
from interpreter.runtime import seeding
from interpreter.state import compiled
from interpreter.state.compiled import module_of

pytestmark = pytest.mark.skipif(native.unavailable() is not None,
                                reason=f"native builds cannot be made here: {native.unavailable()}")

ROOT = Path(__file__).resolve().parents[2]
ECARTE = ROOT / "rules" / "ecarte.trick"
SMALL = ROOT / "examples" / "oh-hell-5.trick"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch, cache: Path) -> Iterator[None]:
    """Rulesets made native by a test are forgotten after it (the rest of the suite runs
    CPython); the extensions stay loaded (a process loads each once) and are found again."""
    for name in ("_NATIVE", "_MODULES", "_GAMES"):
        monkeypatch.setattr(compiled, name, type(getattr(compiled, name))())
    monkeypatch.setattr(native, "_BUILDS", {})
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(cache))
    yield


def is_native(rules: tricklang.Ruleset) -> bool:
    """Whether new games of ``rules`` run an extension module (not source run by CPython)."""
    return type(module_of(rules)[1]["advance"]).__name__ == "builtin_function_or_method"


def matches(rules: tricklang.Ruleset, seeds: range, how: str) -> list[Any]:
    """Each seed's match, to its end, as JSON with its events; ``how``: 'playout' (the
    module's own loop), 'step' (the public random step) or 'ids' (legal_action_ids and
    apply_id), and the state of the random generator after it."""
    out = []
    for seed in seeds:
        state = interpreter.new_game(rules, seed=seed)
        rng = random.Random(seed)
        if how == "playout":
            state.playout(rng)
        elif how == "step":
            while not state.is_terminal():
                state.apply(state.sample_action(rng))
        else:
            while not state.is_terminal():
                ids = state.legal_action_ids()
                state.apply_id(ids[rng.randrange(len(ids))])
        out.append((state.to_json(), state.events(None), rng.getstate()))
    return out


@pytest.mark.parametrize("game", ["ecarte", "cinch", "euchre", "hearts", "whist", "auction-pitch"])
def test_native_matches_are_the_python_matches_action_for_action(game: str) -> None:
    rules = tricklang.load(game)
    assert not is_native(rules)  # (CPython first, so that the comparison means something)
    python = {how: matches(rules, range(n), how) for how, n in (("playout", 40), ("step", 6), ("ids", 6))}
    batch: list[tuple[int, ...]] = []
    taken = module_of(rules)[1]["random_matches"](100, 10, random.Random(5), batch, False)
    native.accelerate(rules)
    assert is_native(rules)
    for how, n in (("playout", 40), ("step", 6), ("ids", 6)):
        assert matches(rules, range(n), how) == python[how], how
    again: list[tuple[int, ...]] = []
    assert module_of(rules)[1]["random_matches"](100, 10, random.Random(5), again, False) == taken
    assert again == batch
    state = interpreter.State.from_json(python["step"][3][0])  # a state rebuilt from JSON runs the native module too
    assert state.to_json() == python["step"][3][0]


def greedy_rollouts(rules: tricklang.Ruleset, seeds: range) -> list[Any]:
    """From a point of each seed's first deal (random actions), the module's greedy
    playout (the search player's greedy rollouts) to the end of the deal on a copy of the
    core: its log, the scores, and the state of the random generator after it."""
    out = []
    m = module_of(rules)[1]
    for seed in seeds:
        state = interpreter.new_game(rules, seed=seed)
        rng = random.Random(seed)
        state.playout(rng, seed % 12)
        c = m["copy"](state._c)
        c.rec = False
        log: list[int] = []
        m["greedy_playout"](c, rng, 1 << 62, log, c.deal_no)
        out.append((log, m["scores"](c), c.terminal, rng.getstate()))
    return out


@pytest.mark.parametrize("game", ["ecarte", "cinch", "euchre", "hearts"])
def test_native_greedy_rollouts_are_the_python_ones(game: str) -> None:
    """The search player's greedy rollouts make the same draws and take the same actions
    natively as in CPython (the same generated source, compiled)."""
    rules = tricklang.load(game)
    assert not is_native(rules)
    python = greedy_rollouts(rules, range(40))
    assert sum(len(log) for log, *_ in python) > 40 * 5
    native.accelerate(rules)
    assert is_native(rules)
    assert greedy_rollouts(rules, range(40)) == python


def logs_read_after_playouts(rules: tricklang.Ruleset, seeds: range) -> list[Any]:
    """Each seed's match played out in pieces (to the end of a deal, a few actions, to the
    end), its log read only afterwards, through a clone, a snapshot, JSON and the log
    itself, then one playout more (none is left): what a native playout's deferred keys
    must give exactly as CPython's appended ones."""
    out = []
    for seed in seeds:
        state = interpreter.new_game(rules, seed=seed)
        rng = random.Random(seed)
        taken = [state.playout(rng, deal=True), state.playout(rng, seed % 7), state.playout(rng)]
        clone = state.clone()
        snapshot = state.snapshot()
        log = list(state._log)
        taken.append(state.playout(rng))
        state.restore(snapshot)
        out.append((taken, log, clone._log, snapshot.log, state._log, clone.to_json(), state.to_json()))
    return out


def test_a_native_playouts_log_read_later_is_the_python_log() -> None:
    rules = tricklang.load(ECARTE)
    python = logs_read_after_playouts(rules, range(30))
    assert all(taken[-1] == 0 and len(log) == sum(taken) for taken, log, *_ in python)
    native.accelerate(rules)
    assert is_native(rules)
    assert logs_read_after_playouts(rules, range(30)) == python


def test_the_native_match_is_the_golden_transcript() -> None:
    native.accelerate(tricklang.load(ECARTE))
    assert is_native(tricklang.load(ECARTE))
    assert transcript(ECARTE) == golden_path(ECARTE).read_text(encoding="utf-8")


def test_random_games_on_the_game_object_are_the_states_matches() -> None:
    rules = tricklang.load(ECARTE)
    native.accelerate(rules)
    game = interpreter.Game.of(rules)
    result = game.random_matches(12, seed=400, rng=random.Random(2))
    rng = random.Random(2)
    scores = []
    for seed in range(400, 412):
        state = interpreter.new_game(rules, seed=seed)
        state.playout(rng)
        scores.append(tuple(state.scores))
    assert [tuple(s) for s in result.scores] == scores


@pytest.mark.parametrize("game", ["euchre", "hearts", "spades", "oh-hell-3"])
def test_the_native_id_step_lists_and_plays_what_the_general_path_does(game: str) -> None:
    """Natively, ``legal_action_ids`` maps the legal codes to ids and lists a selection's
    choices in C (the module's ``code_ids`` and ``select_ids``): the same ids, in the same
    order, as the general listing, and ``apply_id`` the same matches as ``apply``."""
    rules = tricklang.load(game)
    native.accelerate(rules)
    assert is_native(rules) and module_of(rules)[1]["is_native"]() is True
    assert assert_id_step_is_the_step(rules, range(4)) > 100


def test_the_native_selection_ids_are_every_subset_in_order() -> None:
    from itertools import combinations
    from math import comb

    from interpreter.codegen.module import MAX_CHOICES

    rules = tricklang.load("hearts")
    native.accelerate(rules)
    m = module_of(rules)[1]
    c = m["copy"](interpreter.new_game(rules, seed=3)._c)
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(52), rng.randrange(0, 19))
        lo = rng.randrange(-1, 8)
        hi = lo + rng.randrange(-1, 5)
        start = rng.randrange(0, 300)
        bits = [1 << k for k in sorted(cards)]
        sizes = range(max(lo, 0), min(hi, len(bits)) + 1)
        expected = None if sum(comb(len(bits), k) for k in sizes) > MAX_CHOICES else sorted(
            start + sum(chosen) for k in sizes for chosen in combinations(bits, k))
        c.sel_cards, c.sel_lo, c.sel_hi = sum(bits), lo, hi
        assert m["select_ids"](c, start) == expected, (cards, lo, hi)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(-(1 << 63), (1 << 63) - 1), deal_no=st.integers(0, 10**6))
def test_the_packs_and_first_dealers_drawn_in_c_are_pythons(seed: int, deal_no: int) -> None:
    rules = tricklang.load("hearts")  # (52 cards: the words of four permutations)
    native.accelerate(rules)
    m = module_of(rules)[1]
    core = m["make_core"](seed, None, False, None, None, None, False)
    assert m["_pack_order"](core, deal_no) == seeding.deal_order(seed, deal_no, 52)
    assert m["_shuffled_in_c"](core) is True
    if abs(seed) < 10**18:  # (a seed new_game takes)
        assert m["new_core"](seed, None, None, False, None, None, None, False).first_dealer == \
            seeding.first_dealer(seed, 4)


def test_the_packs_of_later_deals_drawn_four_at_once_are_pythons() -> None:
    # A native module may draw four keys' words at once and keep them (per thread) for the
    # same seed, draw and pack size (the first dealer's and the first three deals', or four
    # later deals'): in order, out of order, and two pack sizes and seeds in turn, every pack
    # is still the one Python draws.
    modules = []
    for name, size in (("hearts", 52), (ECARTE, 32)):
        rules = tricklang.load(name)
        native.accelerate(rules)
        modules.append((module_of(rules)[1], size))
    for seed in (0, 7, -3, 10**17):
        for deal_no in (1, 2, 3, 4, 5, 9, 6, 2, 0, 12, 13, 11):
            for m, size in modules:
                core = m["make_core"](seed, None, False, None, None, None, False)
                assert m["_pack_order"](core, deal_no) == seeding.deal_order(seed, deal_no, size), (seed, deal_no)
                assert m["_pack_order"](core, deal_no + 1) == seeding.deal_order(seed, deal_no + 1, size)


@pytest.mark.parametrize("simd", ["none", "avx2"])
def test_every_path_of_the_c_draws_draws_pythons_packs_and_dealers(simd: str) -> None:
    # The processor picks the path (plain or BMI Keccak, four lanes with AVX2 or AVX-512VL);
    # TRICKLANG_NATIVE_SIMD takes the ones this machine would not: the same words on each.
    for name in ("hearts", str(ECARTE)):
        native.accelerate(tricklang.load(name))  # (built here, or from the cache: loaded below)
    script = textwrap.dedent(f"""
        import json, tricklang
        from interpreter import native
        from interpreter.state.compiled import module_of
        out = []
        for name, size, players in (("hearts", 52, 4), ({str(ECARTE)!r}, 32, 2)):
            rules = tricklang.load(name)
            native.accelerate(rules)
            m = module_of(rules)[1]
            for seed in (0, 7, -3, 10**17):
                core = m["new_core"](seed, None, None, False, None, None, None, False)
                packs = [m["_pack_order"](core, d) for d in (0, 1, 5, 3, 2, 9)]
                out.append([core.first_dealer, packs])
        print(json.dumps(out))
    """)
    env = {**os.environ, "TRICKLANG_NATIVE_SIMD": simd}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True,
                          timeout=300)
    expected = [[seeding.first_dealer(seed, players), [seeding.deal_order(seed, d, size) for d in (0, 1, 5, 3, 2, 9)]]
                for size, players in ((52, 4), (32, 2)) for seed in (0, 7, -3, 10**17)]
    assert json.loads(done.stdout) == expected


def test_the_mersenne_twister_in_c_draws_what_random_draws() -> None:
    rules = tricklang.load(ECARTE)
    native.accelerate(rules)
    m = module_of(rules)[1]
    assert m["_mt_in_c"]() is True  # (CPython's layout, checked against its own draws)
    for seed in range(5):
        mine, theirs = random.Random(seed), random.Random(seed)
        drawn = [m["_randbelow"](mine, n) for n in range(1, 3000)]
        assert drawn == [theirs.randrange(n) for n in range(1, 3000)]
        assert mine.getstate() == theirs.getstate()


def test_an_extension_is_never_loaded_twice_in_a_process() -> None:
    build = native.accelerate(tricklang.load(ECARTE))
    with pytest.raises(NativeBuildError, match="is loaded already in this process"):
        native_cache.load_extension(b"", build.name, {})


def test_accelerate_again_gives_the_build_in_use() -> None:
    rules = tricklang.load(ECARTE)
    first = native.accelerate(rules)
    assert native.accelerate(tricklang.load(ECARTE)) is first
    copy = tricklang.loads(ECARTE.read_text(encoding="utf-8"), path="elsewhere/ecarte.trick")
    assert native.accelerate(copy) is first  # the same source: the module already loaded serves it
    assert is_native(copy)


def test_another_process_loads_the_build_from_the_cache(cache: Path) -> None:
    native.accelerate(tricklang.load(ECARTE))
    script = textwrap.dedent(f"""
        import json, random, tricklang, interpreter
        from interpreter import native, native_cache
        rules = tricklang.load({str(ECARTE)!r})
        build = native.accelerate(rules)
        state = interpreter.new_game(rules, seed=11)
        state.playout(random.Random(11))
        print(json.dumps([build.cached, build.seconds, state.to_json()]))
    """)
    env = {**os.environ, "TRICKLANG_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True, timeout=300)
    cached, seconds, state = json.loads(done.stdout)
    assert cached is True and seconds == 0.0
    assert state == matches(tricklang.load(ECARTE), range(11, 12), "playout")[0][0]


def test_a_damaged_cached_extension_is_built_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    source = "VALUE = 40 + 2\n"
    name = native.module_name(source, "tricklang_native_damaged_")
    script = textwrap.dedent(f"""
        import json
        from interpreter import native, native_cache
        build, ns = native._built({source!r}, "", {name!r}, 300)
        print(json.dumps([build.cached, ns["VALUE"]]))
    """)
    env = {**os.environ, "TRICKLANG_CACHE_DIR": str(tmp_path)}
    run = lambda: json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,  # noqa: E731
                                            env=env, check=True, timeout=300).stdout)
    assert run() == [False, 42]
    [ext] = [p for p in (tmp_path / "native").glob(name + "*") if p.suffix != ".record"]
    assert run() == [True, 42]
    ext.write_bytes(ext.read_bytes()[:100])  # truncated: it cannot be loaded
    assert run() == [False, 42]
    assert ext.stat().st_size > 100


def test_the_cache_keeps_at_most_max_cached_extensions(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "MAX_CACHED", 2)
    folder = tmp_path / "native"
    folder.mkdir(mode=0o700)
    for age, stem in enumerate(("tricklang_native_old", "tricklang_native_newer")):
        (folder / f"{stem}.so").write_bytes(b"\0")
        os.utime(folder / f"{stem}.so", (1_000_000 + age, 1_000_000 + age))
    source = "VALUE = 41 + 1\n"
    build, ns = native._built(source, "", native.module_name(source, "tricklang_native_t"), 300)
    assert ns["VALUE"] == 42 and not build.cached
    assert sorted(p.name for p in folder.iterdir()) == sorted([build.path.name, build.path.name + ".record",
                                                               "tricklang_native_newer.so"])


def test_with_the_cache_off_the_build_leaves_nothing_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", "off")
    source = "VALUE = 6 * 7\n"
    build, ns = native._built(source, "", native.module_name(source, "tricklang_native_off"), 300)
    assert ns["VALUE"] == 42 and not build.cached
    assert not build.path.parent.exists()  # (its folder and the C source went; the process keeps it mapped)


def test_simulate_native_gives_the_same_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "ecarte.trick"
    copy.write_text(ECARTE.read_text(encoding="utf-8"), encoding="utf-8")
    summaries = []
    for extra in ([], ["--native"]):
        assert main(["simulate", str(copy), "-n", "30", "--seats", "random,heuristic", "--json", *extra]) == 0
        summary = json.loads(capsys.readouterr().out)
        del summary["timing"]
        summaries.append(summary)
    assert summaries[0] == summaries[1]
    assert is_native(tricklang.load(copy))


def test_compile_native_builds_once_and_then_finds_the_build(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path))
    game = str(ROOT / "examples" / "oh-hell-7.trick")  # (a game no other test builds: not loaded yet)
    assert main(["compile", game, "--native"]) == 0
    path, how = capsys.readouterr().out.strip().split(" (", 1)
    assert Path(path).is_file() and Path(path).parent == tmp_path / "native" and how.startswith("built in ")
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "compile", game, "--native"], capture_output=True,
                          text=True, env={**os.environ, "TRICKLANG_CACHE_DIR": str(tmp_path)}, timeout=300, check=True)
    assert done.stdout.strip() == f"{path} (from the cache)"
    off = subprocess.run([sys.executable, "-m", "interpreter.cli", "compile", str(ROOT / "examples" / "oh-hell-6.trick"),
                          "--native"], capture_output=True, text=True, env={**os.environ, "TRICKLANG_CACHE_DIR": "off"},
                         timeout=300, check=True)
    assert off.stdout.startswith("built in ") and "not kept: the cache is off" in off.stdout


def test_a_failed_build_is_reported_and_the_rules_stay_python(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load(SMALL)
    monkeypatch.setattr(native, "CFLAGS", ("-fno-such-option-tricklang",))
    with pytest.raises(NativeBuildError, match="(?s)the native build failed:.*no-such-option"):
        native.accelerate(rules)
    assert not is_native(rules)
    assert interpreter.new_game(rules, seed=1).playout(random.Random(1)) > 0


def test_a_build_over_its_time_limit_is_stopped() -> None:
    rules = tricklang.load(SMALL)
    with pytest.raises(NativeBuildError, match=r"took more than 0\.2 s"):
        native.accelerate(rules, timeout=0.2)
    assert not is_native(rules)


@pytest.mark.parametrize("timeout", [0, -1.0, float("nan"), float("inf"), "60", True])
def test_a_bad_time_limit_is_refused_before_anything_is_built(timeout: object) -> None:
    with pytest.raises(ArgumentError, match="timeout must be a positive number of seconds"):
        native.accelerate(tricklang.load(SMALL), timeout=timeout)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="takes a Ruleset"):
        native.accelerate("ecarte")  # type: ignore[arg-type]


def test_without_cython_the_error_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    real = native.importlib.util.find_spec
    monkeypatch.setattr(native.importlib.util, "find_spec", lambda name, *a: None if name == "Cython" else real(name, *a))
    assert "tricklang[native]" in (native.unavailable() or "")
    rules = tricklang.load(SMALL)
    with pytest.raises(NativeBuildError, match=r"Cython not installed \(pip install 'tricklang\[native\]'\)"):
        native.accelerate(rules)
    assert main(["simulate", str(SMALL), "-n", "2", "--seats", "random", "--native"]) == 1
    err = capsys.readouterr().err
    assert "tricklang[native]" in err and "Traceback" not in err


def test_the_source_check_refuses_stray_names_builtins_and_dunder_attributes() -> None:
    with pytest.raises(NativeBuildError, match="__import__"):
        native.check_source("def f(core):\n    return __import__('os')\n")
    with pytest.raises(NativeBuildError, match="open"):
        native.check_source("x = open('/etc/passwd')\n")
    with pytest.raises(NativeBuildError, match="getattr"):  # (a builtin, but not one a generated module reads)
        native.check_source("def f(core):\n    return getattr(core, 'x')\n")
    with pytest.raises(NativeBuildError, match="dunder attribute: __class__"):
        native.check_source("def f(core):\n    return core.__class__\n")
    with pytest.raises(NativeBuildError, match="dunder attribute: __new__"):
        native.check_source("def f(core):\n    return object.__new__(object)\n")
    native.check_source("T = (1,)\ndef g(c):\n    return c\ndef f(core):\n    return len(T) + g(core)\n")


def test_every_game_and_hostile_rules_give_a_source_that_passes_the_check() -> None:
    for path in sorted((ROOT / "rules").glob("*.trick")) + sorted((ROOT / "examples").glob("*.trick")):
        native.check_source(generate(tricklang.load(path)).source)
    hostile = (ROOT / "tests" / "hostile" / "looks-like-code.trick")
    if hostile.exists():
        native.check_source(generate(tricklang.load(hostile)).source)


def test_native_rulesets_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load(SMALL)
    native.accelerate(tricklang.load(ECARTE))
    monkeypatch.setattr(native, "MAX_NATIVE", 1)
    with pytest.raises(NativeBuildError, match="at most 1 rulesets"):
        native.accelerate(rules)
    assert not is_native(rules)
    assert native.accelerate(tricklang.load(ECARTE)).path.is_file()  # (one already native is still given)
