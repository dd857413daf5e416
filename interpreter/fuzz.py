"""Fuzzers for untrusted input: rule text generated from the grammar, mutated saved
states and records, and the language server driven with random documents and messages
(:mod:`interpreter.fuzz_lsp`). Every input must be answered with a documented error
(:class:`tricklang.RulesError`, :class:`tricklang.OptionError`, a
:class:`interpreter.GameError`) or play normally, and every request to the language
server answered in time without an internal error; anything else is a finding.

``python -m interpreter.fuzz --seconds 60 --seed 1`` (``make fuzz``, ``FUZZ_SECONDS``)
runs each for as long as asked and prints, per fuzzer, how many inputs ran and how
many of them parsed, loaded and played (or were answered); findings are written to ``--out``.

The grammar fuzzer expands ``tricklang/grammar.lark``'s own rules (the statement
rule) with names drawn from a small valid game, and appends the statements to that
game's deal, so that most inputs parse and many reach the checker, the compiler and
the run time.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import tricklang
from tricklang.catalog import find_bundled
from tricklang.diagnostics import TrickLangError

from .record import Record
from .state.state import State, new_game

BASE = """tricklang 1
game "Fuzz"
players 3
role elder = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7
option target: int = 5 in 1..99 "Target"
option fast: bool = false "Fast"
option style: choice(plain, fancy) = plain "Style"
zone hand: per player, owner
zone stock: shared, hidden, pack
zone turnup: shared, public
zone discards: per player, hidden
zone won: per player, public
counter bags: per player
points
  "high" A of trump = 1
match
  first dealer is random
  dealer passes left
  game to target, after the deal
  at most 20 deals
deal
  deal 3 then 2 to each from elder
  let n = 0
"""
NAMES = ("dealer", "elder", "maker", "nobody", "player", "n", "hand", "stock", "turnup", "discards", "won",
         "bags", "target", "fast", "style", "plain", "fancy", "trump", "bid", "spades", "hearts", "A", "K",
         "x", "deal_number", "true", "false", "high", "side", "declarer", "offender")
NAMES_IN: dict[str, tuple[str, ...]] = {
    # The names that fit where a rule of the grammar takes one (any name, now and then).
    "atom": ("dealer", "elder", "maker", "player", "n", "n", "target", "fast", "bid", "deal_number", "true", "nobody"),
    "word": ("A", "K", "Q", "J", "10", "7", "trump", "hearts", "any"),
    "suit_ref": ("trump", "spades", "hearts", "clubs"),
    "zone_ref": ("hand", "stock", "turnup", "discards", "won"),
    "trump_source": ("hand", "turnup", "stock", "spades"),
    "let_stmt": ("n", "m", "k"), "set_stmt": ("n", "n", "maker", "bid"), "add_stmt": ("bags",),
    "choice_option": ("a", "b", "c"), "phase_stmt": ("p1", "p2"), "declaration": ("king", "bonus"),
    "take": ("rob",), "forbid": ("king", "a"),
}
MEMORY = 2_000_000_000
PER_INPUT_SECONDS = 5.0


class _SlowError(Exception):
    """An input ran longer than :data:`PER_INPUT_SECONDS`."""


@dataclass
class Tally:
    """What one fuzzer did: inputs run, how far they got, and the findings."""

    name: str
    inputs: int = 0
    stages: dict[str, int] = field(default_factory=dict)
    findings: list[dict[str, str]] = field(default_factory=list)

    def reached(self, stage: str) -> None:
        self.stages[stage] = self.stages.get(stage, 0) + 1

    def summary(self) -> dict[str, Any]:
        return {"fuzzer": self.name, "inputs": self.inputs, "without_undocumented_exception": self.inputs - len(self.findings),
                "stages": dict(sorted(self.stages.items())), "findings": len(self.findings)}


# ------------------------------------------------------------------ the grammar


def _pending_statements(rules: dict[str, list[list[tuple[bool, str]]]]) -> frozenset[str]:
    """The grammar's rules that write a statement kind the runtime does not play yet (the checker
    refuses it, ``unsupported-construct``: :mod:`tricklang.support`), by the rule's name
    (``for_card`` writes ``ForCard``)."""
    from tricklang import model as m
    from tricklang.support import RUNTIME

    out = set()
    for name in rules:
        kind = getattr(m, "".join(part.title() for part in name.split("_")), None)
        if isinstance(kind, type) and issubclass(kind, m.Stmt) and kind is not m.Stmt and kind.__name__ not in RUNTIME \
                and not any(key.startswith(kind.__name__ + ".") for key in RUNTIME):
            out.add(name)
    return frozenset(out)


class Grammar:
    """Random sentences of the grammar's rules (its compiled LALR rules)."""

    def __init__(self, rng: random.Random, playable: bool = False) -> None:
        """``playable``: mostly leave out the statements the runtime does not play yet (so that more
        inputs reach the run time)."""
        from tricklang.parser import _lark

        lark = _lark()
        self.rng = rng
        self.rules: dict[str, list[list[tuple[bool, str]]]] = {}
        for rule in lark.rules:
            expansion = [(type(s).__name__ == "Terminal", s.name) for s in rule.expansion]
            self.rules.setdefault(rule.origin.name, []).append(expansion)
        self.literals = {t.name: t.pattern.value for t in lark.terminals if t.pattern.type == "str"}
        self.cost = self._costs()
        self.pending = _pending_statements(self.rules) if playable else frozenset()

    def _costs(self) -> dict[str, int]:
        """The smallest expansion depth of each rule, so deep expansions can finish."""
        cost = {name: 10**6 for name in self.rules}
        changed = True
        while changed:
            changed = False
            for name, options in self.rules.items():
                best = min(1 + max((0 if t else cost[s] for t, s in opt), default=0) for opt in options)
                if best < cost[name]:
                    cost[name], changed = best, True
        return cost

    def terminal(self, name: str, origin: str = "") -> str:
        rng = self.rng
        if name in self.literals:
            return str(self.literals[name])
        if name == "NAME" and origin in NAMES_IN and rng.random() < 0.95:
            return rng.choice(NAMES_IN[origin])
        samples: dict[str, Callable[[], str]] = {
            "NAME": lambda: rng.choice(NAMES),
            "INT": lambda: str(rng.choice([0, 1, 2, 3, 5, 13, 40, 100, 10**17])),
            "SIGNED_INT": lambda: str(rng.choice([-1, 0, 1, 7, 99])),
            "STRING": lambda: rng.choice(['"x"', '"high"', '""', '"king"']),
            "CITE": lambda: "[E1]",
            "COMP_OP": lambda: rng.choice(["==", "!=", "<", ">=", "<=", ">"]),
            "ADD_OP": lambda: rng.choice(["+", "-"]),
            "MUL_OP": lambda: rng.choice(["*", "%"]),
            "LOOP_KIND": lambda: rng.choice(["player", "side"]),
            "FORBID_KIND": lambda: rng.choice(["declare", "choice"]),
        }
        return samples.get(name, lambda: "x")()

    def tokens(self, symbol: str, depth: int) -> Iterator[str]:
        options = self.rules[symbol]
        if symbol == "comparison" and self.rng.random() < 0.85:  # `atom has pattern` mostly fails the types
            options = [o for o in options if ("has" not in {n.lower() for _, n in o})] or options
        played = [o for o in options if not any(not t and n in self.pending for t, n in o)] if self.pending else options
        if len(played) < len(options) and played and self.rng.random() < 0.9:
            options = played  # (mostly: a statement the runtime does not play yet stops at 'parsed')
        if depth <= 0 or (len(options) > 1 and self.rng.random() < 0.5):  # deep, or half the time: the simplest
            options = [min(options, key=lambda o: max((0 if t else self.cost[s] for t, s in o), default=0))]
        for is_terminal, name in self.rng.choice(options):
            if is_terminal:
                yield name if name in ("_NL", "_INDENT", "_DEDENT") else self.terminal(name, symbol)
            else:
                yield from self.tokens(name, depth - 1)

    def statements(self, count: int, depth: int) -> str:
        """``count`` statements of the deal, inside a loop (so that `stop` fits)."""
        out: list[str] = ["  repeat at most 3 times:\n"]
        level, fresh = 2, True
        for _ in range(count):
            for tok in self.tokens("stmt", depth):
                if tok == "_NL":
                    out.append("\n")
                    fresh = True
                elif tok == "_INDENT":
                    level += 1
                elif tok == "_DEDENT":
                    level -= 1
                else:
                    out.append(("  " * level if fresh else " ") + tok)
                    fresh = False
        return "".join(out)


# ------------------------------------------------------------------ running one input


def _documented(err: BaseException) -> bool:
    return isinstance(err, TrickLangError)


def _alarm(_signum: int, _frame: FrameType | None) -> None:
    raise _SlowError


def _guarded(tally: Tally, text: str, work: Callable[[], None]) -> None:
    signal.signal(signal.SIGALRM, _alarm)
    tally.inputs += 1
    signal.setitimer(signal.ITIMER_REAL, PER_INPUT_SECONDS)
    try:
        work()
    except _SlowError:
        tally.findings.append({"kind": f"slower than {PER_INPUT_SECONDS} s", "input": text})
    except Exception as err:  # noqa: BLE001 - a finding unless documented
        if not _documented(err):
            tally.findings.append({"kind": f"{type(err).__name__}: {str(err)[:300]}", "input": text})
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def _play(tally: Tally, rules: tricklang.Ruleset, seed: int) -> None:
    state = new_game(rules, seed=seed)
    tally.reached("started")
    rng = random.Random(seed)
    for _ in range(300):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    tally.reached("played")
    State.from_json(state.to_json())
    tally.reached("round-tripped")


def fuzz_grammar(seed: int, seconds: float, limit: int | None = None) -> Tally:
    """Rule files: the base game with generated statements appended to its deal."""
    rng = random.Random(seed)
    grammar = Grammar(rng, playable=True)
    tally = Tally("grammar")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (limit is None or tally.inputs < limit):
        text = BASE + grammar.statements(rng.randint(1, 4), rng.randint(2, 7))

        def work(text: str = text) -> None:
            try:
                tricklang.parse(text)
            except TrickLangError:
                raise
            tally.reached("parsed")
            rules = tricklang.loads(text)
            tally.reached("loaded")
            _play(tally, rules, rng.randrange(1000))

        _guarded(tally, text, work)
    return tally


# ------------------------------------------------------------------ states and records


def _json_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 3 else 6)
    simple: list[Any] = [None, True, -1, 10**rng.randint(1, 40), "", "x" * rng.randint(1, 300)]
    if kind < 6:
        return simple[kind]
    if kind == 6:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if kind == 7:
        return {rng.choice(["rules", "source", "path", "x"]): _json_value(rng, depth + 1)}
    return "play " + rng.choice(["KS", "ks", "10h", "th", "", "ZZ", "KS KS"])


def _mutate(data: Any, rng: random.Random) -> Any:
    """One random change deep inside a JSON value."""
    if isinstance(data, dict) and data and rng.random() < 0.7:
        key = rng.choice(sorted(data))
        how = rng.randrange(4)
        if how == 0:
            del data[key]
        elif how == 1:
            data[key] = _json_value(rng)
        else:
            data[key] = _mutate(data[key], rng)
        return data
    if isinstance(data, list) and data and rng.random() < 0.7:
        i = rng.randrange(len(data))
        if rng.random() < 0.3:
            del data[i]
        else:
            data[i] = _mutate(data[i], rng)
        return data
    if isinstance(data, str) and data and rng.random() < 0.6:
        i = rng.randrange(len(data))
        return data[:i] + rng.choice(["", "\0", "\n", "é", "../", "/etc/passwd", data[i:i + 5]]) + data[i + 1:]
    if isinstance(data, int) and not isinstance(data, bool):
        return rng.choice([data + 1, -data, 10**rng.randint(18, 30), 0])
    return _json_value(rng)


def _samples() -> tuple[str, str, Path]:
    found = find_bundled("ecarte")  # the bundled game, in a source tree and an installed package alike
    rule_file = found if found is not None else Path("ecarte.trick")  # without it: the base game, states only
    state = new_game(tricklang.load(rule_file) if found is not None else tricklang.loads(BASE), seed=5)
    rng = random.Random(5)
    for _ in range(30):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    record = Record.from_state(state, seats=["random"] * state.ruleset.player_count) if found is not None else None
    return state.to_json(), record.to_json() if record else "{}", rule_file.parent


def fuzz_saves(seed: int, seconds: float, limit: int | None = None) -> Tally:
    """Saved states and records with one to three random changes."""
    rng = random.Random(seed)
    state_text, record_text, base_dir = _samples()
    tally = Tally("states-and-records")
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (limit is None or tally.inputs < limit):
        is_state = rng.random() < 0.5
        data = json.loads(state_text if is_state else record_text)
        for _ in range(rng.randint(1, 3)):
            data = _mutate(data, rng)
        text = json.dumps(data, ensure_ascii=False)

        def work(text: str = text, is_state: bool = is_state) -> None:
            if is_state:
                State.from_json(text)
            else:
                Record.from_json(text, base_dir=base_dir).replay()
            tally.reached("accepted")

        _guarded(tally, text, work)
    return tally


# ------------------------------------------------------------------ the language server


def fuzz_language_server(seed: int, seconds: float, limit: int | None = None) -> Tally:
    """The language server over stdio: random documents (generated rule files, shipped
    ones mid-edit) and random messages (:mod:`interpreter.fuzz_lsp`); ``limit`` counts
    messages. Without the ``lsp`` extra it runs nothing (its stages say why)."""
    from . import fuzz_lsp

    tally = Tally("language-server")
    why = fuzz_lsp.available()
    if why is not None:
        tally.reached(f"skipped: {why}")
        return tally
    grammar = Grammar(random.Random(seed))

    def documents(rng: random.Random) -> str:
        grammar.rng = rng
        return BASE + grammar.statements(rng.randint(1, 4), rng.randint(2, 7))

    def record(kind: str, text: str) -> None:
        tally.findings.append({"kind": kind, "input": text})

    def count() -> None:
        tally.inputs += 1

    fuzz_lsp.run(seed, seconds, limit, documents, record, tally.reached, count, PER_INPUT_SECONDS)
    return tally


# ------------------------------------------------------------------ command line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m interpreter.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="time for each fuzzer (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default="fuzz-findings", help="folder for the inputs that found something")
    args = parser.parse_args(argv)
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    found = 0
    for fuzzer in (fuzz_grammar, fuzz_saves, fuzz_language_server):
        tally = fuzzer(args.seed, args.seconds)
        print(json.dumps(tally.summary()))
        if tally.findings:
            out = Path(args.out)
            out.mkdir(parents=True, exist_ok=True)
            for i, finding in enumerate(tally.findings):
                (out / f"{tally.name}-{args.seed}-{i}.json").write_text(json.dumps(finding, ensure_ascii=False, indent=1),
                                                                       encoding="utf-8")
        found += len(tally.findings)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
