"""Single figures for the speed table: start-up, from_json, a State's size, simulate's jobs.

Each process figure is the median of several runs of a new Python process, in
the CPU time of the child (user + system) and in wall time.
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import interpreter
import tricklang
from tricklang.parser import TABLES, stored_tables_match

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _child(argv: Sequence[str], runs: int, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Median (CPU seconds, wall seconds) of running a command ``runs`` times."""
    cpu, wall = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
        wall.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(cpu), statistics.median(wall)


def deep_size(obj: object, skip: tuple[type, ...]) -> int:
    """Bytes held by an object and everything it refers to, except objects of ``skip`` types."""
    seen: set[int] = set()
    todo = [obj]
    total = 0
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, skip) or isinstance(o, type):
            continue
        seen.add(id(o))
        total += sys.getsizeof(o)
        if isinstance(o, dict):
            todo.extend(o.keys())
            todo.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            todo.extend(o)
        slots = getattr(type(o), "__slots__", ())
        for name in slots:
            if hasattr(o, name):
                todo.append(getattr(o, name))
        if hasattr(o, "__dict__"):
            todo.append(o.__dict__)
    return total


def state_after_long_match() -> tuple[int, int, int]:
    """(bytes, deals, actions) of a Cinch State after 1000 deals of random play."""
    from interpreter.state.compiled import Compiled

    rules = tricklang.load(ROOT / "rules" / "cinch.trick", options={"target": 999})
    state = interpreter.new_game(rules, seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    size = deep_size(state, (Compiled, tricklang.Ruleset))
    return size, state.deal_number, len(state.actions)


def from_json_ms(runs: int) -> tuple[float, float, int]:
    """Median milliseconds of State.from_json for a new game and for one 200 actions on
    (the rule file already loaded once), and that action count."""
    rules = tricklang.load(ROOT / "rules" / "ecarte.trick", options={"target": 99})
    fresh = interpreter.new_game(rules, seed=3)
    played = interpreter.new_game(rules, seed=3)
    rng = random.Random(3)
    while not played.is_terminal() and len(played.actions) < 200:
        played.apply(played.sample_action(rng))
    out = []
    for state in (fresh, played):
        text = state.to_json()
        interpreter.State.from_json(text)
        times = []
        for _ in range(runs):
            start = time.process_time()
            interpreter.State.from_json(text)
            times.append(time.process_time() - start)
        out.append(statistics.median(times) * 1000)
    return out[0], out[1], len(played.actions)


def report(quick: bool = False) -> dict[str, Any]:
    """Print the single figures; return them."""
    runs = 3 if quick else 7
    figures: dict[str, Any] = {}
    base = _child([sys.executable, "-c", "pass"], runs)
    imp = _child([sys.executable, "-c", "import tricklang"], runs)
    imp_all = _child([sys.executable, "-c", "from interpreter import State"], runs)
    check = _child([str(BIN / "tricklang"), "check", "--no-cache", "rules/ecarte.trick"], runs)
    fmt = _child([str(BIN / "tricklang"), "fmt", "--check", "rules/ecarte.trick"], runs)
    with tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "TRICKLANG_CACHE_DIR": folder}
        _child([str(BIN / "tricklang"), "check", "rules/ecarte.trick"], 1, env)  # fills the cache
        cached = _child([str(BIN / "tricklang"), "check", "rules/ecarte.trick"], runs, env)
    print("| figure | CPU | wall |")
    print("|---|---|---|")
    print(f"| python -c pass (the floor) | {base[0]:.3f} s | {base[1]:.3f} s |")
    print(f"| import tricklang | {imp[0]:.3f} s | {imp[1]:.3f} s |")
    print(f"| from interpreter import State (the runtime) | {imp_all[0]:.3f} s | {imp_all[1]:.3f} s |")
    print(f"| cold tricklang check rules/ecarte.trick, in full (--no-cache) | {check[0]:.3f} s | {check[1]:.3f} s |")
    print(f"| cold tricklang check rules/ecarte.trick, answered from the cache | {cached[0]:.3f} s | {cached[1]:.3f} s |")
    print(f"| cold tricklang fmt --check rules/ecarte.trick | {fmt[0]:.3f} s | {fmt[1]:.3f} s |")
    stale = [name for name in TABLES if not stored_tables_match(name=name)]
    if stale:
        print(f"| (stored tables not for this Lark or grammar: {', '.join(stale)}; each process analysed the "
              "grammar; run tests/make_parse_tables.py) | | |")
    new_ms, replay_ms, n = from_json_ms(20 if quick else 50)
    print(f"| State.from_json, new game (rules loaded before) | {new_ms:.2f} ms | |")
    print(f"| State.from_json, {n} actions replayed | {replay_ms:.2f} ms | |")
    size, deals, actions = state_after_long_match()
    print(f"| State after a {deals - 1}-deal Cinch match ({actions} actions) | {size / 1e6:.2f} MB | |")
    n_sim = 500 if quick else 10_000
    sim = [str(BIN / "tricklang"), "simulate", "rules/ecarte.trick", "-n", str(n_sim), "--seats", "random"]
    one = _child([*sim, "--jobs", "1"], 1 if quick else 3)
    two = _child([*sim, "--jobs", "2"], 1 if quick else 3)
    print(f"| simulate {n_sim} Écarté matches, --jobs 1 / --jobs 2 | | {one[1]:.2f} s / {two[1]:.2f} s "
          f"= {one[1] / two[1]:.2f}x |")
    figures.update(import_s=imp[0], check_s=check[0], cached_check_s=cached[0], fmt_check_s=fmt[0],
                   from_json_ms=new_ms, state_mb=size / 1e6, jobs_speedup=one[1] / two[1])
    return figures
