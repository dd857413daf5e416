"""The interpreter's speed, measured side by side with references in one process.

Paired workloads (uniform random legal actions on both sides; CPU time,
``time.process_time``; every side run at least ``--min-seconds`` a repetition; the
repetitions interleaved; the ratio is the median over repetitions of
tricklang's rate divided by the reference's rate in the same repetition):

- Écarté matches against ``benchmarks/handwritten_ecarte.py`` (plain Python);
- Cinch deals against ``benchmarks/handwritten_cinch.py`` (plain Python);
- Euchre, Hearts, Spades and Oh Hell (three players) single deals against
  OpenSpiel's C++ games driven from Python (``pyspiel``, chance outcomes sampled),
  when the optional ``open-spiel`` package is installed (``pip install -e '.[bench]'``).

The extra lines marked ``State.playout`` play the same workloads with
:meth:`interpreter.State.playout` (the same draws, less work a card) instead of the
public ``apply(sample_action(rng))`` step, which the main lines measure. The lines
marked ``native`` play the same workloads with the generated modules compiled by
Cython (:mod:`interpreter.native`), when Cython, setuptools and a C compiler are there
(``pip install -e '.[native]'``; the first run builds the modules, about two minutes).

Then single figures: a cold ``tricklang check``, ``import tricklang``,
``State.from_json``, the size of a State after a 1000-deal match, and
``tricklang simulate`` with one and two jobs. This prints figures; it asserts nothing.
Run: ``make bench`` or ``python -m benchmarks.bench [--quick] [--only ecarte,euchre]``.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import interpreter
import tricklang
from benchmarks import handwritten_cinch, handwritten_ecarte, startup

ROOT = Path(__file__).resolve().parent.parent
Runner = Callable[[int], int]  # plays n units, returns the decisions taken


def tricklang_matches(path: Path, options: dict[str, object] | None = None) -> Runner:
    rules = tricklang.load(path, options=options)

    def run(n: int, _seeds: list[int] = [0]) -> int:  # noqa: B006 - a counter kept across calls
        rng, actions = random.Random(_seeds[0]), 0
        for _ in range(n):
            _seeds[0] += 1
            state = interpreter.new_game(rules, seed=_seeds[0])
            while not state.is_terminal():
                state.apply(state.sample_action(rng))
                actions += 1
        return actions
    return run


def tricklang_deals(path: Path) -> Runner:
    """Single deals: a new match each time, played until its first deal is over."""
    rules = tricklang.load(path)

    def run(n: int, _seeds: list[int] = [0]) -> int:  # noqa: B006 - a counter kept across calls
        rng, actions = random.Random(_seeds[0]), 0
        for _ in range(n):
            _seeds[0] += 1
            state = interpreter.new_game(rules, seed=_seeds[0])
            while not state.is_terminal() and state.deal_number == 1:
                state.apply(state.sample_action(rng))
                actions += 1
        return actions
    return run


def tricklang_playouts(path: Path, deal: bool) -> Runner:
    """As :func:`tricklang_matches` (or :func:`tricklang_deals` with ``deal``), each game
    played by ``State.playout`` (the same draws, the search players' rollout)."""
    rules = tricklang.load(path)

    def run(n: int, _seeds: list[int] = [0]) -> int:  # noqa: B006 - a counter kept across calls
        rng, actions = random.Random(_seeds[0]), 0
        for _ in range(n):
            _seeds[0] += 1
            actions += interpreter.new_game(rules, seed=_seeds[0]).playout(rng, deal=deal)
        return actions
    return run


def tricklang_native(path: Path, mode: str, box: dict[str, tricklang.Ruleset]) -> tuple[Runner, Callable[[], None]]:
    """As :func:`tricklang_matches` (``mode`` "match"), :func:`tricklang_playouts`
    ("playout") or :func:`tricklang_deals` ("deal"), the generated module compiled with
    Cython (:mod:`interpreter.native`); and the function that builds it (or loads it from
    the cache), called before the workload is timed. The rule file is loaded under another
    path, so that the other lines stay Python; ``box`` keeps it (one box a rule file)."""

    def prepare() -> None:
        if "rules" not in box:
            from interpreter import native
            rules = tricklang.loads(path.read_text(encoding="utf-8"), path=f"{path} (native)")
            build = native.accelerate(rules)
            if not build.cached:
                print(f"  (built the native module of {path.name} in {build.seconds:.0f} s)", flush=True)
            box["rules"] = rules

    def run(n: int, _seeds: list[int] = [0]) -> int:  # noqa: B006 - a counter kept across calls
        rng, actions = random.Random(_seeds[0]), 0
        rules = box["rules"]
        for _ in range(n):
            _seeds[0] += 1
            state = interpreter.new_game(rules, seed=_seeds[0])
            if mode == "playout":
                actions += state.playout(rng)
                continue
            while not state.is_terminal() and (mode == "match" or state.deal_number == 1):
                state.apply(state.sample_action(rng))
                actions += 1
        return actions
    return run, prepare


def tricklang_running_deals(path: Path) -> Runner:
    """Deals of long matches (a new match when one ends), like the hand-written Cinch."""
    rules = tricklang.load(path)
    box: dict[str, interpreter.State] = {}
    rng = random.Random(7)

    def run(n: int) -> int:
        actions = 0
        for _ in range(n):
            state = box.get("state")
            if state is None or state.is_terminal():
                state = box["state"] = interpreter.new_game(rules, seed=rng.randrange(1 << 30))
            deal = state.deal_number
            while not state.is_terminal() and state.deal_number == deal:
                state.apply(state.sample_action(rng))
                actions += 1
        return actions
    return run


def openspiel_deals(name: str) -> Runner | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(0)

    def run(n: int) -> int:
        actions = 0
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                else:
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                    actions += 1
                state.apply_action(action)
        return actions
    return run


def hand_written(module: object) -> Runner:
    def run(n: int, _seeds: list[int] = [0]) -> int:  # noqa: B006 - a counter kept across calls
        _seeds[0] += 1
        _, _, actions = module.run(n, _seeds[0])  # type: ignore[attr-defined]
        return int(actions)
    return run


@dataclass
class Side:
    runner: Runner
    n: int = 1
    rates: list[float] = field(default_factory=list)
    actions: list[float] = field(default_factory=list)

    def calibrate(self, seconds: float) -> None:
        """Find a unit count whose run takes at least ``seconds`` of CPU."""
        while True:
            took = self.measure(record=False)
            if took >= seconds:
                return
            self.n = max(self.n + 1, int(self.n * min(10.0, 1.2 * seconds / max(took, 1e-3))))

    def measure(self, record: bool = True) -> float:
        start = time.process_time()
        actions = self.runner(self.n)
        took = time.process_time() - start
        if record:
            self.rates.append(self.n / took)
            self.actions.append(actions / self.n)
        return took


@dataclass
class Pair:
    name: str
    unit: str
    ours: Side
    theirs: Side | None
    reference: str
    prepare: Callable[[], None] | None = None
    """Called once before the workload is timed (a native build)."""

    def ratios(self) -> list[float]:
        assert self.theirs is not None
        return [a / b for a, b in zip(self.ours.rates, self.theirs.rates, strict=True)]


def pairs(native: bool = True) -> list[Pair]:
    """Every workload; the native lines only with ``native`` and where they can be built."""
    ex = ROOT / "examples"
    out = [
        Pair("Écarté", "matches", Side(tricklang_matches(ROOT / "rules" / "ecarte.trick")),
             Side(hand_written(handwritten_ecarte)), "hand-written Python"),
        Pair("Cinch", "deals", Side(tricklang_running_deals(ROOT / "rules" / "cinch.trick")),
             Side(hand_written(handwritten_cinch)), "hand-written Python"),
    ]
    games = (("Euchre", "euchre", "euchre"), ("Hearts", "hearts", "hearts"),
             ("Spades", "spades", "spades"), ("Oh Hell (3)", "oh-hell-3", "oh_hell"))
    for label, file, spiel in games:
        theirs = openspiel_deals(spiel)
        out.append(Pair(label, "deals", Side(tricklang_deals(ex / f"{file}.trick")),
                        Side(theirs) if theirs is not None else None, f"OpenSpiel 2.0.2 {spiel}"))
    # The extra lines: the same workloads played by State.playout instead of the public step.
    out.append(Pair("Écarté (State.playout)", "matches", Side(tricklang_playouts(ROOT / "rules" / "ecarte.trick", False)),
                    Side(hand_written(handwritten_ecarte)), "hand-written Python"))
    for label, file, spiel in games:
        theirs = openspiel_deals(spiel)
        out.append(Pair(f"{label} (State.playout)", "deals", Side(tricklang_playouts(ex / f"{file}.trick", True)),
                        Side(theirs) if theirs is not None else None, f"OpenSpiel 2.0.2 {spiel}"))
    # The generated modules compiled by Cython, when they can be built here.
    if native and native_unavailable() is None:
        box: dict[str, tricklang.Ruleset] = {}  # (one build for both of Écarté's lines)
        for label, mode in (("Écarté (native)", "match"), ("Écarté (State.playout, native)", "playout")):
            runner, prepare = tricklang_native(ROOT / "rules" / "ecarte.trick", mode, box)
            out.append(Pair(label, "matches", Side(runner), Side(hand_written(handwritten_ecarte)),
                            "hand-written Python", prepare))
        for label, file, spiel in games:
            theirs = openspiel_deals(spiel)
            runner, prepare = tricklang_native(ex / f"{file}.trick", "deal", {})
            out.append(Pair(f"{label} (native)", "deals", Side(runner), Side(theirs) if theirs is not None else None,
                            f"OpenSpiel 2.0.2 {spiel}", prepare))
    return out


def native_unavailable() -> str | None:
    """Why the native lines are left out, or None."""
    from interpreter import native
    return native.unavailable()


def folded(text: str) -> str:
    """``text`` lower-cased without accents, for matching workload names (``Écarté`` as ``ecarte``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).lower()


def selected(work: Sequence[Pair], only: Sequence[str]) -> list[Pair]:
    """The workloads whose name holds one of the words of ``only`` (all when it is empty).

    Raises:
        ValueError: a word matches no workload (the message lists the names).
    """
    if not only:
        return list(work)
    for word in only:
        if not any(folded(word) in folded(p.name) for p in work):
            raise ValueError(f"--only {word!r} matches no workload; the workloads: "
                             + ", ".join(p.name for p in work))
    return [p for p in work if any(folded(word) in folded(p.name) for word in only)]


def run_pairs(reps: int, seconds: float, only: Sequence[str] = (), native: bool = True) -> list[Pair]:
    work = selected(pairs(native), only)
    for pair in work:
        if pair.prepare is not None:
            pair.prepare()
        for side in (pair.ours, pair.theirs):
            if side is not None:
                side.calibrate(seconds)
    for _ in range(reps):  # interleaved: every workload once per repetition
        for pair in work:
            pair.ours.measure()
            if pair.theirs is not None:
                pair.theirs.measure()
    return work


def print_table(work: Sequence[Pair], reps: int, native: bool = True) -> None:
    print(f"{date.today()} on {platform.machine()} {platform.processor() or ''}, Python {platform.python_version()}; "
          f"{reps} interleaved repetitions, CPU time")
    print()
    print("| workload | tricklang /s | reference /s | reference | tricklang / reference (median) | min..max |")
    print("|---|---|---|---|---|---|")
    for p in work:
        ours = statistics.median(p.ours.rates)
        if p.theirs is None:
            print(f"| {p.name} {p.unit} | {ours:,.0f} | absent | {p.reference}: not installed "
                  "(pip install -e '.[bench]') | - | - |")
            continue
        r = p.ratios()
        print(f"| {p.name} {p.unit} | {ours:,.0f} | {statistics.median(p.theirs.rates):,.0f} | {p.reference} | "
              f"**{statistics.median(r):.2f}** | {min(r):.2f}..{max(r):.2f} |")
    why = native_unavailable() if native else "--no-native"
    if why is not None:
        print(f"\n  The native lines (the generated modules compiled by Cython) are left out: {why}.")
    print()
    for p in work:
        theirs = f", reference {statistics.median(p.theirs.actions):.1f}" if p.theirs is not None else ""
        print(f"  {p.name}: decisions per {p.unit.removesuffix('es').removesuffix('s')}: tricklang {statistics.median(p.ours.actions):.1f}{theirs}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="repetitions of every paired workload (default 5)")
    parser.add_argument("--min-seconds", type=float, default=0.5, help="CPU seconds per side and repetition")
    parser.add_argument("--quick", action="store_true", help="a fast smoke run: 2 repetitions of 0.1 s")
    parser.add_argument("--skip-startup", action="store_true", help="only the paired workloads")
    parser.add_argument("--no-native", action="store_true",
                        help="leave out the native lines (which build the games' modules with Cython, if not cached)")
    parser.add_argument("--only", default="", metavar="WORDS",
                        help="only the workloads whose name holds one of these comma-separated words "
                             "(accents and case aside: --only ecarte,euchre)")
    args = parser.parse_args(argv)
    if args.reps < 1 or args.min_seconds <= 0:
        parser.error("--reps must be at least 1 and --min-seconds above 0")
    reps, seconds = (2, 0.1) if args.quick else (args.reps, args.min_seconds)
    try:
        work = run_pairs(reps, seconds, [w.strip() for w in args.only.split(",") if w.strip()], not args.no_native)
    except ValueError as err:
        parser.error(str(err))
    print_table(work, reps, not args.no_native)
    if not args.skip_startup:
        print()
        startup.report(quick=args.quick)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
