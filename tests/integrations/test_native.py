"""Native builds (interpreter.native): Écarté's generated module compiled with Cython plays
exactly the matches of the Python module; a build is cached, checked and refused clearly.

Skipped where Cython, setuptools or a C compiler is missing (``pip install -e '.[native]'``).
One build of Écarté (about half a minute) serves the whole module.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import FunctionType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from make_golden import golden_path, transcript

import interpreter
import tricklang
from interpreter import codegen, compiler, native, native_cache, seeding
from interpreter.cli import main
from interpreter.errors import ArgumentError
from interpreter.native import NativeBuildError

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
    """Native programs pinned by a test are forgotten after it (the rest of the suite runs Python)."""
    monkeypatch.setattr(compiler, "_PINNED", {})
    monkeypatch.setattr(compiler, "_LAST", [None, None, None])
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(cache))
    yield


def python_matches(rules: tricklang.Ruleset, seeds: range, playout: bool) -> list[str]:
    out = []
    for seed in seeds:
        state = interpreter.new_game(rules, seed=seed)
        rng = random.Random(seed)
        if playout:
            state.playout(rng)
        else:
            while not state.is_terminal():
                state.apply(state.sample_action(rng))
        out.append(state.to_json())
    return out


def compiled(prog: object) -> list[str]:
    """The generated functions the program's instructions hold that are not Python functions."""
    return [name for ins in prog.instructions  # type: ignore[attr-defined]
            for name in ("fast_run", "fast_draw", "take_step", "run")
            if getattr(ins, name, None) is not None and type(getattr(ins, name)) is not FunctionType
            and type(getattr(ins, name)).__name__ != "method"]


def test_native_matches_are_the_python_matches_action_for_action() -> None:
    rules = tricklang.load(ECARTE)
    assert not compiled(compiler.compile_ruleset(rules))  # (Python, so the comparison means something)
    by_playout = python_matches(rules, range(120), playout=True)
    by_step = python_matches(rules, range(30), playout=False)
    build = native.accelerate(rules)
    prog = compiler.compile_ruleset(rules)
    assert compiled(prog) and prog is compiler.pinned(rules)
    assert build.path.is_file() and build.path.name.startswith(build.name)
    assert python_matches(rules, range(120), playout=True) == by_playout
    assert python_matches(rules, range(30), playout=False) == by_step
    again = interpreter.State.from_json(by_step[3])  # a state rebuilt from JSON runs the native module too
    assert again.to_json() == by_step[3]


def test_a_partnership_game_plays_the_same_natively() -> None:
    rules = tricklang.load(ROOT / "examples" / "whist.trick")  # its sides' tables once hit a Cython bug
    before = python_matches(rules, range(20), playout=True)
    native.accelerate(rules)
    assert compiled(compiler.compile_ruleset(rules))
    assert python_matches(rules, range(20), playout=True) == before


def test_rules_that_differ_only_in_a_label_get_their_own_module() -> None:
    text = (ROOT / "examples" / "whist.trick").read_text(encoding="utf-8")
    assert '"odd tricks"' in text
    plain = tricklang.loads(text, path="whist.trick")
    renamed = tricklang.loads(text.replace('"odd tricks"', '"tricks over the book"'), path="renamed/whist.trick")
    gens = [codegen.generate(compiler.compile_bare(r)).source for r in (plain, renamed)]
    assert gens[0] == gens[1]  # (the label is an object handed to the module: the same source)
    first, second = native.accelerate(plain), native.accelerate(renamed)
    assert first.name != second.name and compiler.compile_ruleset(plain) is not compiler.compile_ruleset(renamed)
    labels = []
    for rules in (plain, renamed):
        state = interpreter.new_game(rules, seed=4)
        state.playout(random.Random(4))
        labels.append({e.get("label") for e in state.events(None) if e.get("type") == "score"})
    assert "odd tricks" in labels[0] and "tricks over the book" not in labels[0]
    assert "tricks over the book" in labels[1] and "odd tricks" not in labels[1]


def test_the_native_match_is_the_golden_transcript() -> None:
    native.accelerate(tricklang.load(ECARTE))
    assert compiled(compiler.compile_ruleset(tricklang.load(ECARTE)))
    assert transcript(ECARTE) == golden_path(ECARTE).read_text(encoding="utf-8")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(-10**18, 10**18), deal_no=st.integers(0, 10**6),
       size=st.one_of(st.integers(0, 64), st.integers(0, 1100)))
def test_the_packs_in_c_are_the_packs_in_python(seed: int, deal_no: int, size: int) -> None:
    order = native._pack_order(native.TIMEOUT)  # (built once a process; the fallback deals 0, 1 and > 1024)
    assert type(order) is not FunctionType
    assert order(seed, deal_no, size) == seeding.deal_order(seed, deal_no, size)


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
    assert compiler.compile_ruleset(copy) is compiler.compile_ruleset(rules)


def test_another_process_loads_the_build_from_the_cache(cache: Path) -> None:
    native.accelerate(tricklang.load(ECARTE))
    script = textwrap.dedent(f"""
        import json, random, tricklang, interpreter
        from interpreter import native
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
    assert state == python_matches(tricklang.load(ECARTE), range(11, 12), playout=True)[0]


def test_a_damaged_cached_extension_is_built_again(tmp_path: Path) -> None:
    script = textwrap.dedent("""
        import json
        from interpreter import native, seeding
        order = native._pack_order(300)
        print(json.dumps(order(5, 1, 32) == seeding.deal_order(5, 1, 32)))
    """)
    env = {**os.environ, "TRICKLANG_CACHE_DIR": str(tmp_path)}
    run = lambda: subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env,  # noqa: E731
                                 check=True, timeout=300).stdout.strip()
    assert run() == "true"
    [ext] = [p for p in (tmp_path / "native").glob("tricklang_native_pack_*") if p.suffix != ".record"]
    built = ext.stat().st_mtime_ns
    ext.write_bytes(ext.read_bytes()[:100])  # truncated: it cannot be loaded
    assert run() == "true"
    assert ext.stat().st_size > 100 and ext.stat().st_mtime_ns != built


def test_the_cache_keeps_at_most_max_cached_extensions(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "MAX_CACHED", 2)
    folder = tmp_path / "native"
    folder.mkdir(mode=0o700)
    for age, stem in enumerate(("tricklang_native_old", "tricklang_native_newer")):
        (folder / f"{stem}.so").write_bytes(b"\0")
        os.utime(folder / f"{stem}.so", (1_000_000 + age, 1_000_000 + age))
    source = "VALUE = 41 + 1\n"
    build, ns = native._built(source, native.module_name(source, "tricklang_native_t"), ".py", {}, 300)
    assert ns["VALUE"] == 42 and not build.cached
    assert sorted(p.name for p in folder.iterdir()) == sorted([build.path.name, build.path.name + ".record",
                                                               "tricklang_native_newer.so"])


def test_with_the_cache_off_the_build_leaves_nothing_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", "off")
    source = "VALUE = 6 * 7\n"
    build, ns = native._built(source, native.module_name(source, "tricklang_native_off"), ".py", {}, 300)
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
    assert compiled(compiler.compile_ruleset(tricklang.load(copy)))


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
    assert compiler.pinned(rules) is None
    assert not compiled(compiler.compile_ruleset(rules))
    assert interpreter.new_game(rules, seed=1).playout(random.Random(1)) > 0


def test_a_build_over_its_time_limit_is_stopped() -> None:
    rules = tricklang.load(SMALL)
    with pytest.raises(NativeBuildError, match=r"took more than 0\.2 s"):
        native.accelerate(rules, timeout=0.2)
    assert compiler.pinned(rules) is None


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


def test_the_source_check_refuses_stray_names_and_dunder_attributes() -> None:
    with pytest.raises(NativeBuildError, match="__import__"):
        native.check_source("def f(core):\n    return __import__('os')\n", set())
    with pytest.raises(NativeBuildError, match="open"):
        native.check_source("x = open('/etc/passwd')\n", set())
    with pytest.raises(NativeBuildError, match="dunder attribute: __class__"):
        native.check_source("def f(core):\n    return core.__class__\n", set())
    native.check_source("def f(core):\n    return len(T) + g(core)\n", {"T", "g"})  # given names and builtins pass


def test_hostile_rules_give_a_source_that_passes_the_check() -> None:
    spec = importlib.util.spec_from_file_location("codegen_tests", ROOT / "tests" / "runtime" / "test_codegen.py")
    assert spec is not None and spec.loader is not None
    tests = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tests)  # its HOSTILE: names and strings made to look like code
    prog = compiler.compile_bare(tricklang.loads(tests.HOSTILE, path="hostile.trick"))
    gen = codegen.generate(prog)
    native.check_source(gen.source, set(gen.namespace))
    assert all(not name.startswith("__") for name in gen.namespace)


def test_native_rulesets_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load(SMALL)
    native.accelerate(tricklang.load(ECARTE))
    monkeypatch.setattr(native, "MAX_NATIVE", 1)
    with pytest.raises(NativeBuildError, match="at most 1 rulesets"):
        native.accelerate(rules)
    assert compiler.pinned(rules) is None
    assert native.accelerate(tricklang.load(ECARTE)).path.is_file()  # (one already native is still given)
