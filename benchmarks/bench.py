"""The speed figures of issue 27, each beside its target: ``make bench``.

Every paired line times tricklang and a reference in this one process: each side is
given enough work to run at least ``--min-seconds`` (0.5 s) of CPU time
(``time.process_time``) a repetition, the repetitions (``--reps``, at least 5) are
interleaved (every line once a repetition, both sides in turn), and the figure is the
median over repetitions of the paired ratio: tricklang's rate divided by the
reference's in the same repetition (for ``simulate``: its time over the bare loop's).
The spread is the smallest and largest paired ratio. Both sides play uniformly random
legal actions (the decisions per unit are printed, to show the work is equal).

- pure Python, Écarté matches and Cinch deals against the hand-written playouts of this
  folder: the public step ``apply(sample_action(rng))``, the loop most embedders write
  (``legal_actions()``, one drawn, ``apply``) and ``State.playout``;
- native (the generated module compiled by Cython: ``interpreter.native``), when it can
  be built here: Écarté by ``State.playout`` and by ``Game.random_matches`` against the
  hand-written playout; Euchre, Hearts, Spades and Oh Hell first deals by
  ``Game.random_matches`` against OpenSpiel's C++ games (``pyspiel.evaluate_bots``, uniform
  random bots, one call a deal), and by the integer-id step (``legal_action_ids`` +
  ``apply_id``) against OpenSpiel driven from Python (``legal_actions`` + ``apply_action``).
  OpenSpiel's games have their own rules: the figures are deals per second of deals of
  the same size;
- ``simulate`` against the bare loop (the same matches, the same players);
- the search player's searched decisions per second against OpenSpiel's IS-MCTS at the
  same budget, both on Euchre;
- single figures: the CPU time of a native build's child processes with the cache off,
  and the wall time of a cold ``tricklang check`` (a new process, ``.pyc`` files written).

Then (unless ``--skip-startup``) ``benchmarks/startup.py``'s figures, in the report too. This prints
figures; it asserts nothing. ``--results FILE`` also writes them, with the date and the
machine, as Markdown (``make bench`` writes ``benchmarks/RESULTS.md``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import tricklang
from benchmarks import handwritten_cinch, handwritten_ecarte, startup
from benchmarks import workloads as w

ROOT = w.ROOT
BIN = Path(sys.executable).parent
SEARCH_BUDGET = 48
"""Rollouts (our search player) and simulations (IS-MCTS) per searched decision."""


# ---------------------------------------------------------------- measuring
@dataclass
class Side:
    """One side of a paired line: its runner, the units a run plays, what each run measured."""

    runner: w.Runner
    n: int = 1
    rates: list[float] = field(default_factory=list)
    """Units per CPU second, one a repetition."""
    decisions: list[float] = field(default_factory=list)
    """Decisions per unit, one a repetition."""

    def calibrate(self, seconds: float) -> None:
        """Find a unit count whose run takes at least ``seconds`` of CPU (after a run of
        one unit that warms the side up; the runs made on the way are not kept)."""
        n, self.n = self.n, 1
        self.measure(record=False)
        self.n = n
        while True:
            took = self.measure(record=False)
            if took >= seconds:
                return
            self.n = max(self.n + 1, int(self.n * min(10.0, 1.2 * seconds / max(took, 1e-3))))

    def measure(self, record: bool = True) -> float:
        start = time.process_time()
        decisions = self.runner(self.n)
        took = time.process_time() - start
        if record:
            self.rates.append(self.n / took)
            self.decisions.append(decisions / self.n)
        return took


@dataclass
class Line:
    """A figure of the table: a paired ratio (``ours`` and ``theirs``), or a single
    measured value (``measure``); with its target."""

    name: str
    group: str
    unit: str
    reference: str
    target: float
    lower_is_better: bool = False
    ours: Side | None = None
    theirs: Side | None = None
    prepare: Callable[[], None] | None = None
    """Called once before the line is timed (a native build, or the load from the cache)."""
    measure: Callable[[int], list[float]] | None = None
    """A single figure: measured ``runs`` times, in seconds."""
    skipped: str | None = None
    """Why the line was not measured."""
    inverse: bool = False
    """The figure is theirs over ours (a time ratio: ``simulate``'s time over the bare loop's)."""
    same_work: bool = False
    """Both sides play the same number of units a run (the larger of their calibrations)."""
    their_decisions: Callable[[], float] | None = None
    """Decisions per unit of the reference, when its runner cannot count them (C++)."""
    values: list[float] = field(default_factory=list)
    note: str = ""

    def ratios(self) -> list[float]:
        assert self.ours is not None and self.theirs is not None
        pairs = zip(self.ours.rates, self.theirs.rates, strict=True)
        return [b / a if self.inverse else a / b for a, b in pairs]

    def figure(self) -> float | None:
        if self.skipped is not None:
            return None
        values = self.ratios() if self.ours is not None else self.values
        return statistics.median(values) if values else None

    def spread(self) -> tuple[float, float] | None:
        values = self.ratios() if self.ours is not None and self.skipped is None else self.values
        return (min(values), max(values)) if values else None

    def met(self) -> bool | None:
        got = self.figure()
        if got is None:
            return None
        return got <= self.target if self.lower_is_better else got >= self.target

    def target_text(self) -> str:
        return f"≤ {self.target:g}" if self.lower_is_better else f"≥ {self.target:g}"


def paired(name: str, group: str, unit: str, ours: w.Runner, theirs: w.Runner, reference: str, target: float,
           **more: Any) -> Line:
    return Line(name, group, unit, reference, target, ours=Side(ours), theirs=Side(theirs), **more)


# ---------------------------------------------------------------- the lines
def lines(native: bool = True) -> list[Line]:
    """Every line of the table, in order; the native and OpenSpiel lines are there but
    skipped (with the reason) where they cannot run."""
    out: list[Line] = []
    ecarte, cinch = tricklang.load(w.ECARTE), tricklang.load(w.CINCH)
    hw = "hand-written Python"
    for label, rules, unit, module, runners in (
        ("Écarté", ecarte, "matches", handwritten_ecarte,
         (w.step_matches, w.legal_loop_matches, w.playout_matches)),
        ("Cinch", cinch, "deals", handwritten_cinch,
         (w.step_running_deals, w.legal_loop_running_deals, w.playout_running_deals)),
    ):
        for kind, runner, target in zip(("step", "legal loop", "playout"), runners, (1.0, 0.7, 1.5), strict=True):
            out.append(paired(f"{label} {kind}", "pure Python", unit, runner(rules),
                              w.hand_written(module), hw, target))
    why_not_native = "--no-native" if not native else native_unavailable()
    pyspiel = w.pyspiel_module()
    why_not_spiel = None if pyspiel is not None else "OpenSpiel not installed (pip install -e '.[bench]')"
    out.extend(native_lines(why_not_native, why_not_spiel))
    out.append(paired("simulate vs bare loop", "simulate", "matches", w.simulate_runs(ecarte),
                      w.bare_loop_runs(ecarte), "the bare loop", 1.2, lower_is_better=True, inverse=True, same_work=True,
                      note="Écarté, --seats random, the same matches; time ratio"))
    euchre = tricklang.load(ROOT / "examples" / "euchre.trick")
    for rollout, label in (("greedy", ", greedy rollouts (the default)"), ("random", ", random rollouts"),
                           ("heuristic", ", heuristic rollouts")):
        search = Line(f"search player{label} (Euchre)", "search", "decisions", "OpenSpiel IS-MCTS (C++)", 0.5,
                      note=f"budget {SEARCH_BUDGET} rollouts a decision, rollout={rollout!r}"
                      + (", worlds redealt in place" if rollout != "heuristic" else ", worlds replayed"))
        if why_not_spiel is not None:
            search.skipped = why_not_spiel
        else:
            from interpreter.players.search import MAX_CANDIDATES

            search.ours = Side(w.search_decisions(euchre, SEARCH_BUDGET, rollout))
            search.theirs = Side(w.ismcts_decisions("euchre", SEARCH_BUDGET, MAX_CANDIDATES))
        out.append(search)
    build = Line("native build (rules/ecarte.trick)", "single", "s CPU", "", 20.0, lower_is_better=True,
                 measure=build_cpu_seconds, note="CPU of the build's child processes, TRICKLANG_CACHE_DIR=off")
    if why_not_native is not None:
        build.skipped = why_not_native
    out.append(build)
    out.append(Line("cold check (rules/ecarte.trick)", "single", "s wall", "", 0.25, lower_is_better=True,
                    measure=cold_check_seconds, note="tricklang check --no-cache, a new process, .pyc written"))
    return out


def native_lines(why_not_native: str | None, why_not_spiel: str | None) -> list[Line]:
    """Écarté native against the hand-written playout, the OpenSpiel games native against OpenSpiel."""
    out: list[Line] = []
    hw = "hand-written Python"
    box: dict[str, tricklang.Ruleset] = {}

    def native_rules(path: Path) -> Callable[[], tricklang.Ruleset]:
        def get() -> tricklang.Ruleset:
            if path.name not in box:
                from interpreter import native

                rules = w.native_copy(path)
                build = native.accelerate(rules)
                if not build.cached:
                    print(f"  (built the native module of {path.name} in {build.seconds:.0f} s)", file=sys.stderr,
                          flush=True)
                box[path.name] = rules
            return box[path.name]
        return get

    def lazy(make: Callable[[tricklang.Ruleset], w.Runner], rules: Callable[[], tricklang.Ruleset]) -> tuple[
            w.Runner, Callable[[], None]]:
        """A runner made once the native build is there (prepare builds it)."""
        made: list[w.Runner] = []

        def prepare() -> None:
            if not made:
                made.append(make(rules()))

        def run(n: int) -> int:
            return made[0](n)
        return run, prepare

    ecarte = native_rules(w.ECARTE)
    for kind, make in (("playout", w.playout_matches), ("batch", w.batch_matches)):
        runner, prepare = lazy(make, ecarte)
        line = paired(f"Écarté native {kind}", "native", "matches", runner, w.hand_written(handwritten_ecarte),
                      hw, 10.0, prepare=prepare, skipped=why_not_native)
        line.note = "State.playout" if kind == "playout" else "Game.random_matches"
        out.append(line)
    for label, file, spiel, params in w.OPENSPIEL_GAMES:
        rules = native_rules(ROOT / "examples" / f"{file}.trick")
        why = why_not_native or why_not_spiel
        shown = spiel + "".join(f" {k}={v}" for k, v in params.items())
        batch, prepare = lazy(lambda r: w.batch_matches(r, first_deal=True), rules)
        cpp: w.Runner = (lambda n: 0) if why else w.openspiel_cpp_deals(spiel, params)
        out.append(paired(f"{label} native batch", "native", "deals", batch, cpp,
                          f"OpenSpiel C++ {shown} (evaluate_bots, random bots)", 0.5, prepare=prepare, skipped=why,
                          their_decisions=(lambda s=spiel, p=params: w.openspiel_decisions(s, p)),
                          note="Game.random_matches(first_deal=True)"))
        ids, prepare = lazy(w.id_step_deals, rules)
        py: w.Runner = (lambda n: 0) if why else w.openspiel_python_deals(spiel, params)
        out.append(paired(f"{label} native id step", "native", "deals", ids, py,
                          f"OpenSpiel {shown} driven from Python", 2.0, prepare=prepare, skipped=why,
                          note="legal_action_ids + apply_id"))
    why = why_not_native or why_not_spiel
    for rollout in ("greedy", "random"):
        searched, prepare = lazy(partial(searcher, rollout=rollout), native_rules(ROOT / "examples" / "euchre.trick"))
        ismcts: w.Runner = nothing
        if why is None:
            from interpreter.players.search import MAX_CANDIDATES

            ismcts = w.ismcts_decisions("euchre", SEARCH_BUDGET, MAX_CANDIDATES)
        default = " (the default)" if rollout == "greedy" else ""
        out.append(paired(f"search player native, {rollout} rollouts{default} (Euchre)", "search", "decisions", searched,
                          ismcts, "OpenSpiel IS-MCTS (C++)", 0.5, prepare=prepare, skipped=why,
                          note=f"budget {SEARCH_BUDGET} rollouts a decision, rollout={rollout!r}, worlds redealt in place"))
    return out


def searcher(rules: tricklang.Ruleset, rollout: str) -> w.Runner:
    """The search player's decisions with ``rollout`` rollouts, budget :data:`SEARCH_BUDGET`."""
    return w.search_decisions(rules, SEARCH_BUDGET, rollout)


def nothing(n: int) -> int:
    """A runner that runs nothing (the reference of a skipped line)."""
    return 0


def native_unavailable() -> str | None:
    """Why the native lines are left out, or None."""
    from interpreter import native

    return native.unavailable()


_BUILD_CHILD = """
import json, resource, sys, time
import tricklang
from interpreter import native
rules = tricklang.load(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_CHILDREN)
build = native.accelerate(rules)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"cpu": after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime,
                  "cached": build.cached}))
"""


def build_cpu_seconds(runs: int) -> list[float]:
    """CPU seconds of the child processes of a native build of Écarté (Cython and the C
    compiler), the cache off; one new process a run.

    Raises:
        RuntimeError: the build failed, or came from a cache.
    """
    env = {**os.environ, "TRICKLANG_CACHE_DIR": "off"}
    out = []
    for _ in range(max(1, runs // 3)):  # (a build takes 10-30 s of CPU: fewer runs)
        done = subprocess.run([sys.executable, "-c", _BUILD_CHILD, str(w.ECARTE)], env=env, cwd=ROOT,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"the native build failed: {done.stderr.strip()[-500:]}")
        got = json.loads(done.stdout.strip().splitlines()[-1])
        if got["cached"]:
            raise RuntimeError("the native build came from a cache although TRICKLANG_CACHE_DIR=off")
        out.append(float(got["cpu"]))
    return out


def cold_check_seconds(runs: int) -> list[float]:
    """Wall seconds of ``tricklang check --no-cache rules/ecarte.trick`` in new processes,
    after one run that writes the ``.pyc`` files."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    argv = [str(BIN / "tricklang"), "check", "--no-cache", "rules/ecarte.trick"]
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)  # writes the .pyc files
    out, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
        out.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    COLD_CHECK_CPU[:] = cpu
    return out


COLD_CHECK_CPU: list[float] = []
"""The CPU seconds (user + system) of the cold checks last timed, beside their wall time."""


# ---------------------------------------------------------------- selecting and running
def folded(text: str) -> str:
    """``text`` lower-cased without accents, for matching line names (``Écarté`` as ``ecarte``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


def selected(work: Sequence[Line], only: Sequence[str]) -> list[Line]:
    """The lines whose name holds one of the words of ``only`` (all when it is empty).

    Raises:
        ValueError: a word matches no line (the message lists the names).
    """
    if not only:
        return list(work)
    for word in only:
        if not any(folded(word) in folded(line.name) for line in work):
            raise ValueError(f"--only {word!r} matches no line; the lines: " + ", ".join(x.name for x in work))
    return [line for line in work if any(folded(word) in folded(line.name) for word in only)]


def run_lines(work: Sequence[Line], reps: int, seconds: float, quick: bool = False) -> None:
    """Measure every line: the paired ones calibrated, then ``reps`` interleaved
    repetitions; then the single figures. A line that fails is skipped with the reason."""
    timed = []
    for line in work:
        if line.skipped is not None:
            continue
        if line.measure is not None:
            continue
        try:
            if line.prepare is not None:
                line.prepare()
            assert line.ours is not None and line.theirs is not None
            line.ours.calibrate(seconds)
            line.theirs.calibrate(seconds)
            if line.same_work:
                line.ours.n = line.theirs.n = max(line.ours.n, line.theirs.n)
        except Exception as err:  # noqa: BLE001 - a failed line is reported, the others still run
            line.skipped = f"failed: {type(err).__name__}: {err}"
            continue
        timed.append(line)
    for _ in range(reps):  # interleaved: every line once a repetition, both sides in turn
        for line in timed:
            assert line.ours is not None and line.theirs is not None
            line.ours.measure()
            line.theirs.measure()
    for line in work:
        if line.measure is None or line.skipped is not None:
            continue
        if quick and line.group == "single" and line.name.startswith("native build"):
            line.skipped = "--quick (a build takes 10-30 s of CPU)"
            continue
        try:
            line.values = line.measure(3 if quick else 7)
        except Exception as err:  # noqa: BLE001 - as above
            line.skipped = f"failed: {type(err).__name__}: {err}"


# ---------------------------------------------------------------- output
def machine() -> dict[str, Any]:
    """The machine: CPU model, cores, Python, system, the load average now."""
    model = platform.processor() or platform.machine()
    try:
        for text in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if text.startswith("model name"):
                model = text.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = list(os.getloadavg())
    except OSError:
        load = []
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "system": f"{platform.system()} {platform.machine()}", "load": load}


def _num(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.2f}" if x >= 1 else f"{x:.3f}"


def table(work: Sequence[Line], reps: int) -> list[str]:
    """The Markdown table, one row a line."""
    rows = [f"| figure | tricklang | reference | median of {reps} paired | spread | target | |",
            "|---|---|---|---|---|---|---|"]
    for line in work:
        got, spread = line.figure(), line.spread()
        if line.skipped is not None or got is None:
            why = line.skipped or "not measured"
            rows.append(f"| {line.name} | | {line.reference} | | | {line.target_text()} | skipped: {why} |")
            continue
        verdict = "met" if line.met() else "missed"
        low, high = spread or (got, got)
        if line.ours is None:
            rows.append(f"| {line.name} | {got:.3f} {line.unit} | | | {low:.3f}..{high:.3f} | "
                        f"{line.target_text()} {line.unit.split()[0]} | {verdict} |")
            continue
        assert line.theirs is not None
        ours, theirs = statistics.median(line.ours.rates), statistics.median(line.theirs.rates)
        rows.append(f"| {line.name} | {_num(ours)} {line.unit}/s | {_num(theirs)} /s: {line.reference} | "
                    f"**{got:.2f}** | {low:.2f}..{high:.2f} | {line.target_text()} | {verdict} |")
    return rows


def notes(work: Sequence[Line]) -> list[str]:
    """What each paired line played: decisions per unit on both sides, and its notes."""
    out = []
    for line in work:
        if line.skipped is not None:
            continue
        if line.ours is None:
            text = f"- {line.name}: {line.note}; runs: " + ", ".join(f"{v:.3f}" for v in line.values)
            if line.measure is cold_check_seconds and COLD_CHECK_CPU:
                text += f" (CPU of the same runs: median {statistics.median(COLD_CHECK_CPU):.3f} s)"
            out.append(text)
            continue
        assert line.theirs is not None
        unit = {"matches": "match", "deals": "deal", "decisions": "decision"}.get(line.unit, line.unit)
        ours = statistics.median(line.ours.decisions)
        theirs = line.their_decisions() if line.their_decisions is not None else statistics.median(line.theirs.decisions)
        text = f"- {line.name}"
        if line.note:
            text += f" ({line.note})"
        if line.unit != "decisions":
            text += f": decisions per {unit}: tricklang {ours:.1f}, reference {theirs:.1f}"
        text += f"; {line.ours.n} / {line.theirs.n} {line.unit} a run"
        out.append(text)
    return out


METHOD = """\
How it was measured (`python -m benchmarks.bench`, `benchmarks/bench.py`): every paired line
runs tricklang and its reference in the same process, each side given enough units to take
at least {seconds} s of CPU time (`time.process_time`) a repetition, the {reps} repetitions
interleaved (every line once a repetition, the two sides in turn); the figure is the median
of the paired ratios (tricklang's rate over the reference's in the same repetition; for
`simulate`, its time over the bare loop's), the spread their smallest and largest. Both
sides play uniformly random legal actions. OpenSpiel's games have their own rules: their
lines compare deals per second of deals of the same size (Oh Hell with 10 tricks,
`num_tricks_fixed=10`); the decisions per deal of both sides are listed below the table
(OpenSpiel's C++ side counted apart, driven from Python). The search line counts searched
decisions (2 to 8 legal actions) on Euchre at every seat, budget {budget}: our search player's
rollouts against IS-MCTS's simulations (one random rollout each, C++, driven from Python).
The native build is the CPU time of the build's child processes (Cython and the C compiler)
with `TRICKLANG_CACHE_DIR=off`; the cold check is the median wall time of new processes
after one that writes the `.pyc` files. A loaded machine slows both sides of a pair alike;
the single figures it slows outright."""


def report(work: Sequence[Line], reps: int, seconds: float, started: dict[str, Any], command: str) -> str:
    """The whole report as Markdown (what ``--results`` writes)."""
    now = datetime.now(UTC)
    began = started.get("at", now)
    load = ", ".join(f"{x:.2f}" for x in started["load"]) or "unknown"
    end = machine()["load"]
    end_load = ", ".join(f"{x:.2f}" for x in end) or "unknown"
    busy = any(x[0] > (started["cores"] or 1) for x in (started["load"], end) if x)
    head = [
        "# Speed: issue 27's figures",
        "",
        f"Measured {began:%Y-%m-%d %H:%M}-{now:%H:%M} UTC by `{command}`, on {started['cpu']}, "
        f"{started['cores']} cores, {started['system']}, Python {started['python']}; "
        f"load average at the start {load} (1, 5, 15 min), at the end {end_load}"
        + (": more runnable processes than cores, the machine was shared while this ran." if busy else "."),
        "",
    ]
    body = [*table(work, reps), "", *notes(work), "", METHOD.format(seconds=seconds, reps=reps, budget=SEARCH_BUDGET)]
    return "\n".join(head + body) + "\n"


def as_json(work: Sequence[Line], reps: int, started: dict[str, Any]) -> dict[str, Any]:
    out = []
    for line in work:
        item: dict[str, Any] = {"name": line.name, "group": line.group, "unit": line.unit,
                                "reference": line.reference, "target": line.target_text(),
                                "figure": line.figure(), "spread": line.spread(), "met": line.met(),
                                "skipped": line.skipped, "note": line.note}
        if line.ours is not None and line.theirs is not None and line.skipped is None:
            item.update(ratios=line.ratios(), ours_rates=line.ours.rates, theirs_rates=line.theirs.rates)
        elif line.values:
            item["values"] = line.values
        out.append(item)
    machine_now = {k: v for k, v in started.items() if k != "at"}
    return {"date": datetime.now(UTC).isoformat(timespec="seconds"), "machine": machine_now, "repetitions": reps,
            "lines": out}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="interleaved repetitions of every paired line (default 5)")
    parser.add_argument("--min-seconds", type=float, default=0.5, help="CPU seconds per side and repetition")
    parser.add_argument("--quick", action="store_true",
                        help="a fast smoke run: 2 repetitions of 0.05 s, no native build timed, 3 cold checks")
    parser.add_argument("--skip-startup", action="store_true", help="leave out benchmarks/startup.py's figures")
    parser.add_argument("--no-native", action="store_true", help="leave out the native lines (they build or load "
                        "the games' native modules with Cython)")
    parser.add_argument("--only", default="", metavar="WORDS",
                        help="only the lines whose name holds one of these comma-separated words "
                             "(accents and case aside: --only ecarte,simulate)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of the table")
    parser.add_argument("--results", metavar="FILE", help="also write the report (date, machine, table, method) "
                        "as Markdown to FILE")
    args = parser.parse_args(argv)
    if args.reps < 1 or args.min_seconds <= 0:
        parser.error("--reps must be at least 1 and --min-seconds above 0")
    reps, seconds = (2, 0.05) if args.quick else (args.reps, args.min_seconds)
    started = {**machine(), "at": datetime.now(UTC)}
    try:
        work = selected(lines(not args.no_native), [x.strip() for x in args.only.split(",") if x.strip()])
    except ValueError as err:
        parser.error(str(err))
    run_lines(work, reps, seconds, args.quick)
    command = shlex.join(["python", "-m", "benchmarks.bench", *(argv if argv is not None else sys.argv[1:])])
    text = report(work, reps, seconds, started, command)
    if args.json:
        print(json.dumps(as_json(work, reps, started), indent=1))
    else:
        print(text, end="")
    if not args.skip_startup and not args.json:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            startup.report(quick=args.quick)
        more = "\n## Start-up, memory and processes (`benchmarks/startup.py`)\n\n" + printed.getvalue()
        print(more, end="")
        text += more
    if args.results:
        Path(args.results).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
