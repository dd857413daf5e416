"""`tricklang simulate`: many matches between built-in players (in worker processes if
asked), summarised with confidence intervals, the first dealer's advantage and throughput."""

from __future__ import annotations

import argparse
import functools
import gc
import hashlib
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import tricklang
from tricklang import Ruleset
from tricklang.diagnostics import TrickLangError, brief, printable

from ..errors import GameLimitError, RecordError
from ..players import AGENTS, MAX_ACTIONS_PER_MATCH, agent_name_problem, is_agent_name, make_agent
from ..record import Record, bundled_game_of
from ..state.actions import Action
from ..state.events import Renders
from ..state.state import new_game
from .common import PROG, Subparsers, UsageError, count, integer, json_text, load, plural, show
from .match_stats import distributions, tally
from .progress import Progress
from .simulate_outputs import Variant, add_report_arguments, check_single, write_outputs


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``simulate`` to the ``tricklang`` parser."""
    p = sub.add_parser("simulate", parents=[opts], help="play many matches between built-in players",
                       description="Play N matches between built-in players and summarise them: wins per side "
                       "with 95% confidence intervals (Wilson), the first dealer's advantage, deals and actions, "
                       "how often each score label awarded points, abandoned matches and throughput. Match i is "
                       "seeded from --seed and i, so the result does not depend on --jobs.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.add_argument("-n", "--matches", type=count(1), default=100, metavar="N", help="number of matches (default 100)")
    p.add_argument("--seed", type=integer, default=0, help="base seed (default 0)")
    p.add_argument("--seats", action="append", metavar="P,P,...",
                   help=f"comma-separated built-in players per seat ({', '.join(AGENTS)}; search:N for N "
                   "rollouts per decision, search:N:ROLLOUT or search:ROLLOUT for greedy (the default), "
                   "heuristic or random rollouts), or one for every seat (default heuristic); with "
                   "--compare, repeatable")
    p.add_argument("-j", "--jobs", type=count(0), default=1, metavar="J",
                   help="worker processes (default 1; 0: one per CPU)")
    p.add_argument("--max-deals", type=count(1), metavar="D",
                   help="abandon a match after D deals (default: the rule file's limit)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--record", metavar="DIR", help="save a record of every match in DIR")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="run the matches on a Dask cluster, e.g. tcp://host:8786 (needs the 'cluster' extra; "
                   "--jobs is then ignored); the results are those of a local run")
    p.add_argument("--native", action="store_true",
                   help="compile the rules' generated module to C with Cython first (needs the 'native' extra and "
                   "a C compiler; the first build takes some seconds, later ones come from the cache); "
                   "the results are the same")
    add_report_arguments(p)
    p.set_defaults(run=cmd_simulate)


@dataclass(frozen=True)
class _Job:
    path: str
    options: tuple[tuple[str, str], ...]
    digest: str
    seats: tuple[str, ...]
    base_seed: int
    index: int
    max_deals: int | None
    record: bool
    source: str | None = None
    """The rule text (and ``bases``, the texts it extends), for workers that cannot read ``path``."""
    bases: tuple[str, ...] = ()
    native: bool = False
    """Whether the worker runs the native build of the rules (built or loaded once a process)."""


def match_seed(base: int, index: int) -> int:
    """The seed of match ``index`` of a simulation with seed ``base`` (independent of --jobs)."""
    digest = hashlib.sha256(f"tricklang-simulate/{base}/{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


_RULES: dict[tuple[str, tuple[tuple[str, str], ...], str], Ruleset] = {}


def _rules_for(job: _Job) -> Ruleset:
    key = (job.path, job.options, job.digest)
    ruleset = _RULES.get(key)
    if ruleset is None:
        options = dict(job.options) or None
        if job.source is None:
            ruleset = tricklang.load(job.path, options=options)
        else:
            ruleset = tricklang.loads(job.source, path=job.path, bases=job.bases, options=options)
        if ruleset.digest != job.digest:
            raise RecordError(f"the rule file {job.path!r} changed while the simulation was running")
        _RULES[key] = ruleset
    if job.native:  # (at once when the rules are native already)
        from ..native import accelerate

        accelerate(ruleset)
    return ruleset


def simulate_match(job: _Job) -> dict[str, Any]:
    """Play one match of a simulation; returns its summary (JSON-able) and, if the job
    asks for one, its :class:`Record` under ``record`` (saved by the caller)."""
    seed = match_seed(job.base_seed, job.index)
    error = None
    failed: tuple[int, str] | None = None
    last: Action | None = None
    abandoned_early = False
    try:
        ruleset = _rules_for(job)
        agents = [make_agent(kind, match_seed(seed, seat)) for seat, kind in enumerate(job.seats)]
        state = new_game(ruleset, seed=seed, record_events=SUMMARY_EVENTS)  # (read once, below: no replay)
    except TrickLangError as err:
        return {"record": None, "index": job.index, "seed": seed, "winner": None, "first_dealer_side": None,
                "deals": 0, "actions": 0, "awards": [], "error": str(err)}
    actors: list[int] | None = [] if job.record else None  # (who took each action: for the record only)
    seat: int | None = None
    max_deals, taken = job.max_deals, 0
    try:
        while (seat := state.current_player) is not None:  # (None: the match is over)
            if max_deals is not None and state.deal_number > max_deals:
                abandoned_early = True
                break
            last = agents[seat](state)
            state.apply(last)
            last = None
            if actors is not None:
                actors.append(seat)
            taken += 1
            if taken > MAX_ACTIONS_PER_MATCH:
                raise GameLimitError(f"the match took more than {MAX_ACTIONS_PER_MATCH} actions")
    except TrickLangError as err:
        error = str(err)
        if seat is not None and last is not None:
            failed = (seat, last.text)  # the action that failed, so that the record reproduces the error
    outcome = state.outcome()
    events = state.events(None, types=SUMMARY_EVENTS, memo=_RENDERS)  # (shared dicts: only read)
    side_of = {p: s for s, members in enumerate(state.sides) for p in members}
    deals = outcome.deals if outcome is not None else state.deal_number - (1 if abandoned_early else 0)
    record = Record.from_state(state, seats=list(job.seats), actors=actors, failed=failed,
                               rules_path=job.path) if job.record else None
    summed = tally(events)
    drawn = outcome is not None and outcome.winner is None and bool(summed.end.get("drawn"))
    return {
        "record": record,
        "index": job.index,
        "seed": seed,
        "winner": outcome.winner if outcome is not None else None,
        "drawn": drawn,
        "first_dealer_side": side_of[state.first_dealer],
        "deals": deals,
        "actions": state.action_count,
        "awards": [[label, list(laws), n, points] for (label, laws), (n, points) in summed.awards.items()],
        "error": error, "scores": list(state.scores), "choices": summed.choices,  # (--per-match, --report)
    }


SUMMARY_EVENTS = frozenset({"score", "match_end", "choice", "bid", "pass", "trump", "declare"})
"""The events a match's summary reads (its awards, how it ended, the choices made): the only
ones its states log (the others cost the play about a fifth of its time to log)."""

_RENDERS = Renders()
"""The summary's events of this process's matches, each distinct one built once."""


def awards_of(events: Sequence[dict[str, Any]]) -> list[list[Any]]:
    """The points a match's score events awarded, by label and laws: ``[label, laws, times, points]``."""
    return [[label, list(laws), n, points] for (label, laws), (n, points) in tally(events).awards.items()]


RESULT_KEYS = frozenset({"record", "index", "seed", "winner", "drawn", "first_dealer_side", "deals", "actions",
                         "awards", "error"})
"""The fields of one match's result (:func:`simulate_match`), all of them always there."""

DETAIL_KEYS = frozenset({"scores", "choices"})
"""The fields of a match that was played (as :func:`interpreter.cli.match_stats.match_details` gives them)."""

MAX_RESULT_CHARS = 2_000_000
"""The longest JSON text one match may come back as from a cluster's worker (its record included)."""


def simulate_matches(jobs: list[_Job]) -> str:
    """Play a chunk of matches (one task of a cluster run, on a worker) and return them as
    JSON text: each match's result with its record as a JSON object. Never raises: a
    failure is the match's ``error`` (what a worker sends back is data, never a Python
    object; :func:`read_matches` checks it on the other side)."""
    out = []
    for job in jobs:
        try:
            result = simulate_match(job)
        except Exception as err:  # noqa: BLE001 - a bug, reported as the match's error, as text
            result = {"record": None, "index": job.index, "seed": match_seed(job.base_seed, job.index),
                      "winner": None, "first_dealer_side": None, "deals": 0, "actions": 0, "awards": [],
                      "error": f"{type(err).__name__}: {err}"[:2000]}
        result.setdefault("drawn", False)
        record = result.pop("record")
        result["record"] = record.to_dict() if record is not None else None
        out.append(result)
    return json.dumps(out, ensure_ascii=True)


def read_matches(text: object, jobs: list[_Job], *, sides: int) -> list[dict[str, Any]]:
    """The results a cluster's worker returned for ``jobs`` (as :func:`simulate_matches`
    writes them), each checked against the summary's schema: every field there and of
    its type and range, the matches and seeds those asked for, a record (read as any
    untrusted record is) of these rules, this seed and these seats.

    Raises:
        ValueError: anything else (what the worker sent is not used).
    """
    if not isinstance(text, str):
        raise ValueError(f"not JSON text but {type(text).__name__}")
    if len(text) > MAX_RESULT_CHARS * max(1, len(jobs)):
        raise ValueError(f"{len(text):,} characters for {plural(len(jobs), 'match')}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise ValueError(f"not JSON ({err})") from None
    if not isinstance(data, list) or len(data) != len(jobs):
        raise ValueError(f"not a list of {plural(len(jobs), 'match')}")
    return [_read_match(item, job, sides) for item, job in zip(data, jobs, strict=True)]


def _is_count(value: object, high: int) -> bool:
    return type(value) is int and 0 <= value <= high


def _read_match(item: object, job: _Job, sides: int) -> dict[str, Any]:
    if not isinstance(item, dict) or not RESULT_KEYS <= set(item) <= RESULT_KEYS | DETAIL_KEYS:
        raise ValueError("a match without exactly the fields of a result")
    scores, choices = item.get("scores", []), item.get("choices", {})
    if not (isinstance(scores, list) and len(scores) <= 64 and all(type(x) is int and abs(x) < 10**18 for x in scores)):
        raise ValueError("'scores' is not a list of scores")
    if not (isinstance(choices, dict) and len(choices) <= 10_000 and all(
            isinstance(k, str) and len(k) <= 1000 and _is_count(v, 10**9) for k, v in choices.items())):
        raise ValueError("'choices' is not a count of each choice")
    seed = match_seed(job.base_seed, job.index)
    if item["index"] != job.index or item["seed"] != seed:
        raise ValueError(f"match {brief(item['index'])} (seed {brief(item['seed'])}) where match {job.index} was asked for")
    for key in ("winner", "first_dealer_side"):
        if item[key] is not None and not _is_count(item[key], sides - 1):
            raise ValueError(f"'{key}' is not a side: {brief(item[key])}")
    if type(item["drawn"]) is not bool:
        raise ValueError(f"'drawn' is not true or false: {brief(item['drawn'])}")
    for key in ("deals", "actions"):
        if not _is_count(item[key], MAX_ACTIONS_PER_MATCH + 1):
            raise ValueError(f"'{key}' is not a count: {brief(item[key])}")
    awards = item["awards"]
    if not isinstance(awards, list) or len(awards) > 10_000 or not all(
            isinstance(a, list) and len(a) == 4 and isinstance(a[0], str) and len(a[0]) <= 1000
            and isinstance(a[1], list) and len(a[1]) <= 100 and all(isinstance(law, str) and len(law) <= 100 for law in a[1])
            and _is_count(a[2], 10**9) and type(a[3]) is int and abs(a[3]) < 10**18 for a in awards):
        raise ValueError("'awards' is not a list of [label, laws, times, points]")
    if item["error"] is not None and not (isinstance(item["error"], str) and len(item["error"]) <= 10_000):
        raise ValueError("'error' is not a message")
    record = item["record"]
    if (record is None) == job.record:
        raise ValueError("a record where none was asked for, or none where one was")
    out = dict(item)
    if record is not None:
        try:
            read = Record.from_json(record)
        except (RecordError, TypeError) as err:
            raise ValueError(f"a record that does not read: {err}") from None
        named = (read.rules_path == job.path and read.bundled is None) or (
            read.rules_path == "" and read.bundled is not None
            and read.bundled == bundled_game_of(Path(job.path), job.digest))
        if not named or read.rules_sha256 != job.digest or read.seed != seed or read.seats != list(job.seats):
            raise ValueError("a record of other rules, another seed or other seats than the match asked for")
        out["record"] = read
    return out


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95% by default).

    >>> wilson(50, 100)
    (0.4038, 0.5962)
    """
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def _run_jobs(jobs: list[_Job], workers: int, progress: Progress) -> Iterator[dict[str, Any]]:
    if workers <= 1 or len(jobs) <= 1:
        for done, job in enumerate(jobs, 1):
            yield simulate_match(job)
            progress.update(done)
        return
    methods = multiprocessing.get_all_start_methods()
    fork = sys.platform == "linux" and "fork" in methods
    context = multiprocessing.get_context("fork" if fork else None)
    if fork:
        # Load and compile the rules once, here: forked workers inherit them. Frozen,
        # these objects are left alone by the collector, so their pages stay shared.
        try:
            new_game(_rules_for(jobs[0]), seed=0)
        except TrickLangError:
            pass  # each match reports the error
        gc.freeze()
    chunk = max(1, len(jobs) // (workers * 16))
    with context.Pool(workers) as pool:
        for done, result in enumerate(pool.imap(simulate_match, jobs, chunksize=chunk), 1):
            yield result
            progress.update(done)


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.compare:
        from .simulate_compare import cmd_compare

        return cmd_compare(args, run_simulation, seat_names, _print_summary)
    check_single(args)
    ruleset = load(args.file, args)
    names = seat_names(ruleset, args.seats[0] if args.seats else "heuristic")
    played = run_simulation(args, ruleset, names)
    if played is None:
        return 1
    summary, results = played
    if args.json:
        print(json_text(summary))
    else:
        _print_summary(summary)
    write_outputs(args, [Variant("", ruleset, names, summary, results)])
    for failure in summary["errors"][:10]:
        print(printable(f"{PROG} simulate: match {failure['match']} (seed {failure['seed']}): {failure['error']}"),
              file=sys.stderr)
    return 1 if summary["errors"] else 0


def seat_names(ruleset: Ruleset, seats: str) -> list[str]:
    """The built-in player of every seat, from ``--seats`` (one name fills every seat).

    Raises:
        UsageError: the wrong number of players, or one that is not a built-in player.
    """
    names = [s.strip().lower() for s in seats.split(",")]
    if len(names) == 1:
        names *= ruleset.player_count
    if len(names) != ruleset.player_count:
        raise UsageError(f"--seats: {ruleset.name} has {ruleset.player_count} seats, {len(names)} players given")
    for name in names:
        if name.startswith("search:") and (problem := agent_name_problem(name)):
            raise UsageError(f"--seats: {problem}")
        if not is_agent_name(name):
            raise UsageError(f"--seats: unknown player {name!r}; simulate plays {', '.join(AGENTS)}, search:N[:ROLLOUT]")
    return names


def run_simulation(args: argparse.Namespace, ruleset: Ruleset,
                   names: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """Play the matches ``args`` asks for; the summary (with its distributions and timing)
    and each match's result, in order; None when interrupted (after saying so)."""
    workers = args.jobs or os.cpu_count() or 1
    record_dir = Path(args.record) if args.record is not None else None
    if record_dir is not None:
        try:
            record_dir.mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UsageError(f"--record {args.record}: cannot create the directory: {err.strerror or err}") from None
        taken = next((record_dir / record_name(i) for i in range(args.matches)
                      if os.path.lexists(record_dir / record_name(i))), None)
        if taken is not None:  # (each file is made new: nothing there is overwritten, no link followed)
            raise UsageError(f"--record {args.record}: {taken.name} is there already; simulate never writes over "
                             "a file: choose an empty folder")
    jobs = _jobs(args, ruleset, names)
    if args.native:  # built here once (forked workers inherit it; others load it from the cache)
        _rules_for(jobs[0])
    progress = Progress(len(jobs), args.progress)
    start = time.perf_counter()
    results: list[dict[str, Any]] = []
    try:
        if args.cluster:
            from .cluster import run_on_cluster

            sides = len(ruleset.rules.players.teams) if ruleset.rules.players and ruleset.rules.players.teams \
                else ruleset.player_count
            played = run_on_cluster(args.cluster, simulate_matches, jobs, functools.partial(read_matches, sides=sides),
                                    progress.update)
        else:
            played = _run_jobs(jobs, workers, progress)
        for result in played:
            record = result.pop("record", None)
            if record is not None and record_dir is not None:
                record.save(record_dir / record_name(result["index"]), exclusive=True)
            results.append(result)
    except KeyboardInterrupt:
        progress.close()
        print(f"{PROG} simulate: interrupted", file=sys.stderr)
        return None
    finally:
        progress.close()
    results.sort(key=lambda r: int(r["index"]))
    seconds = time.perf_counter() - start
    summary = summarise(ruleset, names, args.seed, results)
    summary.update(distributions(results, len(summary["sides"])))
    actions = summary["actions"]["total"]
    summary["timing"] = {
        "seconds": round(seconds, 3),
        "jobs": workers if not args.cluster else None,
        "matches_per_second": round(len(results) / seconds, 1) if seconds > 0 else None,
        "actions_per_second": round(actions / seconds, 1) if seconds > 0 else None,
    }
    if args.cluster:
        summary["timing"]["cluster"] = args.cluster
    return summary, results


def record_name(index: int) -> str:
    """The file name of match ``index``'s record in ``--record DIR``."""
    return f"match-{index:05d}.json"


def _jobs(args: argparse.Namespace, ruleset: Ruleset, seats: list[str]) -> list[_Job]:
    """One job per match; for a cluster, with the rule text (workers need not have the file)."""
    options = tuple(sorted(dict(args.options).items()))
    path = str(Path(ruleset.path).resolve()) if args.cluster else ruleset.path
    source, bases = (ruleset.source, tuple(ruleset.bases)) if args.cluster else (None, ())
    return [_Job(path, options, ruleset.digest, tuple(seats), args.seed, i, args.max_deals, args.record is not None,
                 source, bases, args.native) for i in range(args.matches)]


def summarise(ruleset: Ruleset, seats: Sequence[str], seed: int, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of a simulation (everything but its timing)."""
    teams = ruleset.rules.players.teams if ruleset.rules.players else ()
    sides = [list(t) for t in teams] if teams else [[p] for p in range(ruleset.player_count)]
    n = len(results)
    wins = [0] * len(sides)
    errors = [{"match": r["index"], "seed": r["seed"], "error": r["error"]} for r in results if r["error"]]
    draws = sum(1 for r in results if r.get("drawn") and not r["error"])
    abandoned = sum(1 for r in results if r["winner"] is None and not r["error"] and not r.get("drawn"))
    first_wins = decided = 0
    awards: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for r in results:
        if r["winner"] is not None:
            wins[r["winner"]] += 1
            decided += 1
            first_wins += r["winner"] == r["first_dealer_side"]
        for label, laws, times, points in r["awards"]:
            tally = awards.setdefault((label, tuple(laws)), [0, 0])
            tally[0] += times
            tally[1] += points
    deals = sum(r["deals"] for r in results)
    actions = sum(r["actions"] for r in results)
    return {
        "game": ruleset.name,
        "rules": ruleset.path,
        "sha256": ruleset.digest,
        "options": dict(ruleset.options),
        "seed": seed,
        "matches": n,
        "seats": list(seats),
        "sides": [
            {"side": s, "seats": members, "players": [seats[p] for p in members], "wins": wins[s],
             "rate": round(wins[s] / n, 4) if n else 0.0, "ci95": list(wilson(wins[s], n))}
            for s, members in enumerate(sides)
        ],
        "draws": draws,
        "abandoned": abandoned,
        "errors": errors,
        "first_dealer": {"wins": first_wins, "decided": decided,
                         "rate": round(first_wins / decided, 4) if decided else None,
                         "ci95": list(wilson(first_wins, decided)), "no_advantage": round(1 / len(sides), 4)},
        "deals": {"total": deals, "per_match": round(deals / n, 3) if n else 0.0},
        "actions": {"total": actions, "per_deal": round(actions / deals, 3) if deals else 0.0},
        "points": [
            {"label": label, "laws": list(laws), "times": times, "points": points,
             "per_match": round(times / n, 3) if n else 0.0}
            for (label, laws), (times, points) in sorted(awards.items(), key=lambda kv: (-kv[1][0], kv[0]))
        ],
    }


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _print_summary(s: dict[str, Any], out: TextIO | None = None) -> None:
    def say(text: str = "") -> None:  # (labels, names and paths escaped: no control or bidi character reaches the terminal)
        print(printable(text), file=out or sys.stdout)

    n = s["matches"]
    opts = ", ".join(f"{k}={show(v)}" for k, v in s["options"].items())
    say(f"{s['game']} ({s['rules']}): {plural(n, 'match')}, seed {s['seed']}, seats: "
        + ", ".join(f"{i} {name}" for i, name in enumerate(s["seats"])))
    if opts:
        say(f"options: {opts}")
    say()
    say(f"{'wins':<28}{'matches':>8}{'rate':>9}   95% CI")
    for side in s["sides"]:
        who = ("seat " if len(side["seats"]) == 1 else "seats ") + "+".join(map(str, side["seats"]))
        label = f"{who} ({', '.join(dict.fromkeys(side['players']))})"
        lo, hi = side["ci95"]
        say(f"  {label:<26}{side['wins']:>8}{_pct(side['rate']):>9}   [{_pct(lo)}, {_pct(hi)}]")
    if s["draws"]:
        say(f"  {'drawn (tied)':<26}{s['draws']:>8}{_pct(s['draws'] / n if n else 0.0):>9}")
    if s["abandoned"] or s["errors"]:
        say(f"  {'abandoned':<26}{s['abandoned']:>8}")
    if s["errors"]:
        say(f"  {'failed with an error':<26}{len(s['errors']):>8}")
    fd = s["first_dealer"]
    lo, hi = fd["ci95"]
    say(f"first dealer's side won {fd['wins']} of {fd['decided']} decided: {_pct(fd['rate'])} [{_pct(lo)}, {_pct(hi)}]"
        f" (no advantage: {_pct(fd['no_advantage'])})")
    say(f"deals per match: {s['deals']['per_match']:.2f}; actions per deal: {s['actions']['per_deal']:.2f}")
    if s["points"]:
        say()
        say(f"{'points awarded':<40}{'times':>8}{'per match':>11}{'points':>9}")
        for p in s["points"]:
            laws = f" [{', '.join(p['laws'])}]" if p["laws"] else ""
            label = (p["label"] or "(no label)") + laws
            say(f"  {label:<38}{p['times']:>8}{p['per_match']:>11.2f}{p['points']:>9}")
    t = s.get("timing")
    if t:
        say()
        where = f"on the cluster at {t['cluster']}" if t.get("cluster") else f"with {plural(t['jobs'], 'job')}"
        say(f"throughput: {n} matches in {t['seconds']:.2f} s {where}: "
            f"{t['matches_per_second'] or 0:,.1f} matches/s, {t['actions_per_second'] or 0:,.0f} actions/s")
