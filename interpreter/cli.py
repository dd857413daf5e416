"""`tricklang`: the command for variant writers.

Subcommands: ``check`` (load and check rule files), ``options`` (list a rule
file's options), ``play`` (play at the terminal against the built-in players),
``simulate`` (many matches between built-in players, with statistics),
``explain`` (the rules as Markdown prose) and ``replay`` (re-check a game record
and print its transcript). Every subcommand takes ``--help``; the ones that load
rules take ``-o name=value`` (repeatable) to set options.

Exit status: 0 ok, 1 an error in the rules, the game or a record, 2 a usage error.

>>> main(["check", "rules/ecarte.trick"])
rules/ecarte.trick: ok
0
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import secrets
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn, TextIO

import tricklang
from tricklang import OptionError, RulesError, Ruleset, __version__
from tricklang.diagnostics import Diagnostic, TrickLangError

from .agents import AGENTS, MAX_ACTIONS_PER_MATCH, Agent, make_agent
from .errors import GameError, GameLimitError, RecordError
from .explain import allowed, explain
from .record import Record, rebuild
from .state import new_game
from .transcript import event_lines
from .transcript import render as render_transcript

PROG = "tricklang"
HUMAN = "human"
MAX_LISTED = 30
"""Legal actions listed with numbers; beyond this only examples are shown."""


class UsageError(Exception):
    """A bad command line: reported in one line, exit status 2."""


# ---------------------------------------------------------------- entry point


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tricklang`` command; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 2)
    command: Callable[[argparse.Namespace], int] | None = getattr(args, "run", None)
    if command is None:
        parser.print_usage(sys.stderr)
        print(f"{PROG}: error: choose a command: check, options, play, simulate, explain or replay", file=sys.stderr)
        return 2
    try:
        return command(args)
    except UsageError as err:
        _error(args, str(err))
        return 2
    except OptionError as err:
        _error(args, str(err))
        return 2
    except RulesError as err:
        print(err.render(), file=sys.stderr)
        return 1
    except TrickLangError as err:
        _error(args, str(err))
        return 1
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`tricklang explain x | head`): not an error of ours.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces the closed pipe until exit
        except OSError:
            pass
        return 0


def _error(args: argparse.Namespace, message: str) -> None:
    print(f"{PROG} {getattr(args, 'command', '') or ''}: error: {message}".replace("  ", " "), file=sys.stderr)


# ---------------------------------------------------------------- the parser


class _Parser(argparse.ArgumentParser):
    """Argparse with one-line errors that name the subcommand."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def _option_pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, e.g. -o target=7, not {text!r}")
    return name.strip(), value.strip()


def _count(low: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value

    return parse


def _integer(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Check, explain, play and simulate trick-taking games written in the tricklang rules language.",
        epilog="Run 'tricklang COMMAND --help' for the options of a command. "
        "Exit status: 0 ok, 1 error in the rules, game or record, 2 usage error.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    opts = _Parser(add_help=False)
    opts.add_argument(
        "-o", "--option", dest="options", metavar="NAME=VALUE", action="append", type=_option_pair, default=[],
        help="set an option of the rule file (repeatable); see 'tricklang options FILE'",
    )

    p = sub.add_parser("check", parents=[opts], help="check rule files and report every problem",
                       description="Parse and check rule files. Prints 'FILE: ok' (warnings go to stderr), "
                       "or every diagnostic with its source line.")
    p.add_argument("files", nargs="+", metavar="FILE", help="rule files (.trick)")
    p.add_argument("--json", action="store_true", help="print the results as JSON (for editors and CI)")
    p.set_defaults(run=cmd_check)

    p = sub.add_parser("options", parents=[opts], help="list a rule file's options",
                       description="List the options of a rule file: type, default, allowed values, meaning and laws.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.add_argument("--json", action="store_true", help="print the options as JSON")
    p.set_defaults(run=cmd_options)

    p = sub.add_parser("play", parents=[opts], help="play a match at the terminal",
                       description="Play a whole match at the terminal against the built-in players. "
                       "At your turn type a number or an action ('play KS'); '?' or '? KS' explains why a card "
                       "may not be played; 'undo' takes back your last move while no hidden card has been seen since; "
                       "'log' shows the game so far; 'quit' (or Ctrl-D) leaves.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.add_argument("--seat", dest="seats", metavar="N=PLAYER", action="append", default=[],
                   help=f"who plays seat N: {HUMAN}, {', '.join(AGENTS)} (repeatable; default: seat 0 is "
                   f"{HUMAN}, the other seats heuristic)")
    p.add_argument("--seed", type=_integer, help="seed of the shuffles and the players (default: random, printed)")
    p.add_argument("--dealer", type=_integer, metavar="N", help="the seat that deals first (default: the rule file's)")
    p.add_argument("--record", metavar="OUT", help="save a record of the game to OUT (also when you leave early)")
    p.set_defaults(run=cmd_play)

    p = sub.add_parser("simulate", parents=[opts], help="play many matches between built-in players",
                       description="Play N matches between built-in players and summarise them: wins per side "
                       "with 95%% confidence intervals (Wilson), the first dealer's advantage, deals and actions, "
                       "how often each score label awarded points, abandoned matches and throughput. Match i is "
                       "seeded from --seed and i, so the result does not depend on --jobs.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.add_argument("-n", "--matches", type=_count(1), default=100, metavar="N", help="number of matches (default 100)")
    p.add_argument("--seed", type=_integer, default=0, help="base seed (default 0)")
    p.add_argument("--seats", default="heuristic", metavar="P,P,...",
                   help=f"comma-separated built-in players per seat ({', '.join(AGENTS)}), or one for every "
                   "seat (default heuristic)")
    p.add_argument("-j", "--jobs", type=_count(0), default=1, metavar="J",
                   help="worker processes (default 1; 0: one per CPU)")
    p.add_argument("--max-deals", type=_count(1), metavar="D",
                   help="abandon a match after D deals (default: the rule file's limit)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--record", metavar="DIR", help="save a record of every match in DIR")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser("test", parents=[opts], help="check a rule file against the runtime's invariants",
                       description="Play N seeded matches of a rule file with random choices, in strict and in "
                       "table mode, and check at every step the invariants every game must keep: terminal exactly "
                       "when no action is legal, unique and stable legal actions, illegal actions refused without "
                       "change, every card in one place, hand sizes and scores within the bounds derived from the "
                       "rule file, JSON round trips, observations that do not change when hidden cards are swapped. "
                       "On a failure, prints the shortest failing action sequence found and Python code to replay it.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.add_argument("--examples", type=_count(1), default=20, metavar="N", help="matches to try (default 20)")
    p.add_argument("--seed", type=_integer, default=0, help="first seed (default 0)")
    p.add_argument("--steps", type=_count(1), default=150, metavar="S",
                   help="steps checked in full in each match (default 150; the rest of the match gets the cheap checks)")
    p.set_defaults(run=cmd_test)

    p = sub.add_parser("explain", parents=[opts], help="the rules as readable Markdown",
                       description="Print the rules as Markdown prose generated from the rule file, "
                       "each rule with the laws it cites. Options set with -o are shown with their values.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.set_defaults(run=cmd_explain)

    p = sub.add_parser("replay", help="re-check a game record and print its transcript",
                       description="Re-load a record's rule file (refused if its text has changed), replay every "
                       "action and print the transcript. A record whose actions do not fit is rejected, "
                       "naming the step and the reason.")
    p.add_argument("record", metavar="RECORD", help="record file (.json) from 'play --record' or 'simulate --record'")
    p.add_argument("--seat", dest="view", type=_integer, metavar="N", help="show only what seat N saw")
    p.add_argument("-q", "--quiet", action="store_true", help="only check the record, print no transcript")
    p.set_defaults(run=cmd_replay)
    return parser


def _load(path: str, args: argparse.Namespace) -> Ruleset:
    """Load a rule file with the ``-o`` options (RulesError / OptionError propagate)."""
    return tricklang.load(path, options=dict(args.options) if getattr(args, "options", None) else None)


# ---------------------------------------------------------------- check


def cmd_check(args: argparse.Namespace) -> int:
    results: list[dict[str, Any]] = []
    failed = False
    for path in args.files:
        diagnostics: list[Diagnostic] = []
        source: str | None = None
        game = None
        try:
            ruleset = _load(path, args)
            diagnostics = list(ruleset.warnings)
            source, game = ruleset.source, ruleset.name
            ok = True
        except RulesError as err:
            diagnostics = list(err.diagnostics) + list(err.warnings)
            source, ok = err.source, False
        except OptionError as err:
            diagnostics = [Diagnostic("bad-option", str(err), path=path)]
            ok = False
        failed = failed or not ok
        errors = sum(d.severity == "error" for d in diagnostics)
        warnings = len(diagnostics) - errors
        results.append({"path": path, "ok": ok, "game": game, "errors": errors, "warnings": warnings,
                        "diagnostics": [d.to_dict() for d in diagnostics]})
        if args.json:
            continue
        for d in diagnostics:
            print(d.render(source), file=sys.stderr)
        if ok:
            print(f"{path}: ok" + (f" ({_plural(warnings, 'warning')})" if warnings else ""))
        elif len(diagnostics) > 1:
            print(f"{path}: {_plural(errors, 'error')}" + (f", {_plural(warnings, 'warning')}" if warnings else ""),
                  file=sys.stderr)
    if args.json:
        print(json.dumps({"ok": not failed, "files": results}, ensure_ascii=False, indent=2))
    return 1 if failed else 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}{'es' if word.endswith(('ch', 's')) else 's'}"


# ---------------------------------------------------------------- options


def cmd_options(args: argparse.Namespace) -> int:
    ruleset = _load(args.file, args)
    specs = ruleset.option_specs()
    rows = []
    for o in specs:
        rows.append({
            "name": o.name, "type": o.type, "default": o.default, "value": ruleset.options[o.name],
            "low": o.low, "high": o.high, "choices": list(o.choices), "doc": o.doc,
            "laws": list(o.cite.laws) if o.cite else [],
        })
    if args.json:
        print(json.dumps({"game": ruleset.name, "path": ruleset.path, "options": rows}, ensure_ascii=False, indent=2))
        return 0
    if not specs:
        print(f"{ruleset.name} ({ruleset.path}) has no options.")
        return 0
    print(f"{ruleset.name} ({ruleset.path}): {_plural(len(specs), 'option')}; set with -o NAME=VALUE")
    for o, row in zip(specs, rows, strict=True):
        value = _show(row["value"])
        changed = f" (default {_show(o.default)})" if row["value"] != o.default else ""
        laws = f"  [{', '.join(o.cite.laws)}]" if o.cite else ""
        print()
        print(f"{o.name} = {value}{changed}{laws}")
        print(f"    {o.type}: {allowed(o).replace('`', '')}; default {_show(o.default)}")
        if o.doc:
            print(f"    {o.doc}")
    return 0


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# ---------------------------------------------------------------- explain


def cmd_test(args: argparse.Namespace) -> int:
    from .harness import check_invariants

    rules = _load(args.file, args)
    failures = []
    checked = 0
    for i in range(args.examples):
        mode = "table" if i % 4 == 3 and rules.rules.irregularities else "strict"
        report = check_invariants(rules, seed=args.seed + i, max_actions=args.steps, mode=mode, finish=True)
        checked += len(report.actions)
        if not report.ok:
            failures.append((len(report.actions), args.seed + i, mode, report))
    if not failures:
        print(f"{args.file}: ok ({args.examples} matches, {checked} actions checked)")
        return 0
    failures.sort(key=lambda f: f[0])
    length, seed, mode, report = failures[0]
    print(f"{args.file}: {len(failures)} of {args.examples} matches broke an invariant", file=sys.stderr)
    print(f"shortest failure: seed {seed}, {mode} mode, after {length} actions", file=sys.stderr)
    print(report.summary(), file=sys.stderr)
    print("replay it with:", file=sys.stderr)
    print(report.replay_code(), file=sys.stderr)
    return 1


def cmd_explain(args: argparse.Namespace) -> int:
    sys.stdout.write(explain(_load(args.file, args)))
    return 0


# ---------------------------------------------------------------- replay


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = Record.load(args.record)
        state = record.replay()
    except RecordError as err:
        message = str(err)
        _error(args, message if args.record in message else f"{args.record}: {message}")
        return 1
    if args.view is not None and not 0 <= args.view < state.ruleset.player_count:
        raise UsageError(f"--seat {args.view}: the game has seats 0..{state.ruleset.player_count - 1}")
    if not args.quiet:
        print(render_transcript(state, args.view))
        if record.seats:
            print("seats: " + ", ".join(f"{i} = {name}" for i, name in enumerate(record.seats)))
    outcome = state.outcome()
    how = outcome.result() if outcome is not None else "unfinished; scores " + ", ".join(map(str, state.scores))
    print(f"{args.record}: {_plural(len(record.moves), 'action')} replayed and checked; {how}")
    return 0


# ---------------------------------------------------------------- play


def _parse_seats(specs: Sequence[str], players: int) -> list[str]:
    seats: list[str | None] = [None] * players
    kinds = (HUMAN, *AGENTS)
    for spec in specs:
        seat_text, sep, kind = spec.partition("=")
        kind = kind.strip().lower()
        try:
            seat = int(seat_text)
        except ValueError:
            raise UsageError(f"--seat {spec!r}: expected N=PLAYER, e.g. --seat 0=human") from None
        if not sep or kind not in kinds:
            raise UsageError(f"--seat {spec!r}: the player must be one of {', '.join(kinds)}")
        if not 0 <= seat < players:
            raise UsageError(f"--seat {spec!r}: this game has {players} seats, numbered 0..{players - 1}")
        if seats[seat] is not None:
            raise UsageError(f"--seat {seat} is given twice")
        seats[seat] = kind
    if not specs:
        seats[0] = HUMAN
    out = [s or "heuristic" for s in seats]
    if out.count(HUMAN) > 1:
        raise UsageError("only one seat can be human")
    return out


def cmd_play(args: argparse.Namespace) -> int:
    ruleset = _load(args.file, args)
    seats = _parse_seats(args.seats, ruleset.player_count)
    if args.dealer is not None and not 0 <= args.dealer < ruleset.player_count:
        raise UsageError(f"--dealer {args.dealer}: this game has seats 0..{ruleset.player_count - 1}")
    if args.record is not None and Path(args.record).is_dir():
        raise UsageError(f"--record {args.record}: is a directory; give a file name")
    if args.record is not None and not Path(args.record).resolve().parent.is_dir():
        raise UsageError(f"--record {args.record}: no such directory {str(Path(args.record).parent)!r}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    return _Table(ruleset, seats, seed, args.dealer, args.record).run()


def _read(prompt: str) -> str | None:
    """A line typed by the player, or None at the end of input."""
    try:
        return input(prompt)
    except EOFError:
        print()
        return None


class _Table:
    """One match at the terminal: a human seat (or none) against built-in players."""

    def __init__(self, ruleset: Ruleset, seats: list[str], seed: int, dealer: int | None, record: str | None) -> None:
        self.ruleset = ruleset
        self.seats = seats
        self.seed = seed
        self.record_path = record
        self.state = new_game(ruleset, seed=seed, dealer=dealer)
        self.first_dealer = int(self.state.to_dict()["dealer"])
        self.actors: list[int] = []
        self.failed: tuple[int, str] | None = None
        self.agents: dict[int, Agent] = {i: make_agent(kind, seed + i) for i, kind in enumerate(seats) if kind != HUMAN}
        self.human: int | None = seats.index(HUMAN) if HUMAN in seats else None
        self.shown = 0
        self.zone_kinds = {z.name: z.owner for z in ruleset.rules.zones}

    # ------------------------------------------------------------ the loop
    def run(self) -> int:
        who = ", ".join(f"seat {i}: {'you' if i == self.human else kind}" for i, kind in enumerate(self.seats))
        print(f"{self.ruleset.name} ({self.ruleset.path}), seed {self.seed}; {who}")
        if self.human is not None:
            print("Type a number or an action such as 'play KS'; '?' or '? KS' explains; 'undo', 'log', 'help', 'quit'.")
        try:
            while not self.state.is_terminal():
                self.flush()
                seat = self.state.current_player
                assert seat is not None
                if seat in self.agents:
                    self.apply(self.agents[seat](self.state).text, seat)
                    if len(self.actors) > MAX_ACTIONS_PER_MATCH:
                        raise GameLimitError(f"the match took more than {MAX_ACTIONS_PER_MATCH} actions")
                elif not self.turn(seat):
                    print(f"You left the game after {_plural(len(self.state.actions), 'action')}.")
                    return self.finish(offer=True)
        except KeyboardInterrupt:
            print(f"\nInterrupted after {_plural(len(self.state.actions), 'action')}.")
            return self.finish(offer=False)
        except GameError as err:
            self.flush()
            print(f"{PROG} play: error: {err}", file=sys.stderr)
            self.finish(offer=False)
            return 1
        state = self.state
        self.flush()
        outcome = state.outcome()
        assert outcome is not None
        print()
        result = outcome.result()
        if self.human is not None and outcome.winner is not None:
            result += " (you win)" if self.human in outcome.winners else " (you lose)"
        print(f"Match over: {result}.")
        return self.finish(offer=True)

    def apply(self, text: str, seat: int) -> None:
        try:
            self.state.apply(text)
        except GameError:
            # The state is left as it was; the failed action is still recorded (last),
            # so that replaying the record reproduces the error.
            self.failed = (seat, text)
            raise
        self.actors.append(seat)

    def flush(self) -> None:
        """Print the events that happened since the last call, as the human seat sees them."""
        events = self.state.events(self.human)
        for e in events[self.shown:]:
            for line in event_lines(self.state, e):
                print(line)
        self.shown = len(events)

    def finish(self, offer: bool) -> int:
        path = self.record_path
        if path is None and offer and self.human is not None and sys.stdin.isatty() and self.state.actions:
            try:
                answer = _read("Save a record of this game? File name (Enter: no): ")
            except KeyboardInterrupt:
                answer = None
            path = answer.strip() if answer else None
        if not path:
            return 0
        try:
            record = Record.from_state(self.state, seats=self.seats, actors=self.actors, failed=self.failed)
            record.save(path)
        except RecordError as err:
            print(f"{PROG} play: error: {err}", file=sys.stderr)
            return 1
        print(f"Record saved to {path} (replay it with: tricklang replay {path}).")
        return 0

    # ------------------------------------------------------------ the human's turn
    def turn(self, seat: int) -> bool:
        """Ask the human for an action and apply it; False when the player leaves."""
        self.show(seat)
        while True:
            line = _read("> ")
            if line is None:
                return False
            text = " ".join(line.split())
            low = text.lower()
            if not text:
                continue
            if low in ("quit", "exit", "q"):
                return False
            if low in ("help", "h"):
                self.help()
            elif low in ("show", "s"):
                self.show(seat)
            elif low == "log":
                for e in self.state.events(self.human):
                    for out in event_lines(self.state, e):
                        print(out)
            elif low == "undo":
                if self.undo(seat):
                    return True
            elif text.startswith("?"):
                self.why(text[1:].strip())
            else:
                action = self.resolve(text)
                if action is not None:
                    self.apply(action, seat)
                    return True

    def listed(self) -> bool:
        return len(self.state.legal_actions()) <= MAX_LISTED

    def resolve(self, text: str) -> str | None:
        """The legal action meant by what the player typed, or None (after saying why)."""
        legal = self.state.legal_actions()
        if text.isdigit():
            k = int(text)
            if self.listed() and 1 <= k <= len(legal):
                return legal[k - 1].text
            if not self.listed():
                print("Type the action itself here (the choices are too many to number).")
            else:
                print(f"There is no choice {k}: type a number from 1 to {len(legal)}.")
            return None
        action = self._complete(text)
        if self.state.is_legal(action):
            return action
        verbs = {a.verb for a in legal}
        if action.split()[0].lower() not in verbs:
            print(f"Not understood: {text!r}. Type a number, an action such as {legal[0].text!r}, "
                  "'?' for help with the rules, or 'help'.")
            return None
        print(f"{action}: {self.reason(action)}")
        return None

    def _sizes(self, verb: str) -> list[int]:
        """How many cards the legal actions of a card-choosing verb take."""
        return sorted({0 if a.args == ("none",) else len(a.args) for a in self.state.legal_actions() if a.verb == verb})

    def reason(self, action: str) -> str:
        """Why an action is not legal: the interpreter's reason, made precise for card choices."""
        state = self.state
        words = action.split()
        verb, cards = words[0].lower(), words[1:]
        seat = state.current_player
        if verb not in ("play", "bid", "name", "declare") and cards and cards != ["none"] and seat is not None:
            sizes = self._sizes(verb)
            held = {c.upper() for c in state.hand(seat)}
            missing = [c for c in cards if c.upper() not in held and "10" + c.upper()[1:] not in held]
            if missing and all(len(c) <= 3 for c in missing) and not state.why_illegal(f"{verb} {missing[0]}").startswith("unknown"):
                return f"you do not hold {' '.join(missing)}"
            if sizes and len(cards) not in sizes:
                return f"you must {verb} {_range(sizes)} cards"
        return state.why_illegal(action)

    def _complete(self, text: str) -> str:
        """Add the verb when the player typed only cards (``KS`` -> ``play KS``)."""
        words = text.split()
        verbs = sorted({a.verb for a in self.state.legal_actions()})
        if words[0].lower() in verbs or not verbs:
            return text
        if "play" in verbs and len(words) == 1:
            return f"play {text}"
        if len(verbs) == 1:
            return f"{verbs[0]} {text}"
        return text

    def why(self, text: str) -> None:
        state = self.state
        legal = state.legal_actions()
        if text:
            action = self._complete(text)
            reason = self.reason(action)
            if not reason:
                probe = state.clone()
                probe.apply(action)
                number = next((i for i, a in enumerate(legal, 1) if a.text == probe.actions[-1]), None)
                print(f"{action} is legal now" + (f" (choice {number})." if number and self.listed() else "."))
            else:
                print(f"{action}: {reason}")
            return
        if state.phase == "play" and self.human is not None:
            refused = [(c, state.why_illegal(f"play {c}")) for c in state.hand(self.human)]
            refused = [(c, r) for c, r in refused if r]
            if not refused:
                print("You may play any card in your hand.")
            for card, reason in refused:
                print(f"  {card}: {reason}")
        else:
            verbs = sorted({a.verb for a in legal})
            ways = []
            for verb in verbs:
                sizes = self._sizes(verb)
                many = [a for a in legal if a.verb == verb]
                if any(a.args and a.args != ("none",) and verb not in ("bid", "name", "declare") for a in many):
                    ways.append(f"{verb} {_range(sizes)} cards ({_plural(len(many), 'way')})")
                else:
                    ways.append(verb)
            print(f"Now: {state.phase}. You may {' or '.join(ways)}; '? ACTION' explains why an action is not allowed.")

    def undo(self, seat: int) -> bool:
        """Take back the human's last action (and the bots' replies) if no hidden card was revealed since."""
        state = self.state
        last = max((i for i, who in enumerate(self.actors) if who == seat), default=None)
        if last is None:
            print("There is nothing of yours to undo.")
            return False
        before = rebuild(self.ruleset, self.seed, None, self.first_dealer, list(zip(self.actors[:last], state.actions[:last], strict=True)))
        seen = state.events(seat)
        since = seen[len(before.events(seat)):]
        revealed = [e for e in since if _reveals(e, seat)]
        if revealed:
            what = _describe(revealed[0])
            print(f"Cannot undo {state.actions[last]!r}: {what} since, and undoing would let you use that.")
            return False
        taken = state.actions[last:]
        self.state = before
        self.actors = self.actors[:last]
        self.shown = len(before.events(self.human))
        print("Undone: " + ", ".join(taken) + ".")
        return True

    # ------------------------------------------------------------ display
    def help(self) -> None:
        print("  NUMBER or ACTION  take that action ('play KS', or just 'KS' when playing to a trick)")
        print("  ?                 why some of your cards may not be played now")
        print("  ? ACTION          why an action is not allowed ('? 8S', '? discard 7H 8C')")
        print("  undo              take back your last action, unless a hidden card has been seen since")
        print("  show              show the table again;  log  the game so far")
        print("  quit              leave (the record is saved if --record was given)")

    def show(self, seat: int) -> None:
        state = self.state
        obs = state.observation(seat)
        print()
        head = f"Deal {obs['deal']}, dealer {self._seat(obs['dealer'], seat)}, trumps {obs['trump'] or 'none'}"
        if obs.get("maker") is not None:
            head += f", maker {self._seat(obs['maker'], seat)} at {obs['bid']}"
        print(head)
        scores = ", ".join(f"{self._side(s, seat)} {v}" for s, v in enumerate(obs["scores"]))
        print(f"  score: {scores}" + ("; tricks this deal: " + ", ".join(
            f"{self._seat(p, seat)} {n}" for p, n in enumerate(obs["tricks_won"])) if any(obs["tricks_won"]) else ""))
        for name, value in obs["zones"].items():
            if name in ("hand", "won"):
                continue
            line = self._zone(name, value, seat)
            if line:
                print(f"  {line}")
        others = [f"{self._seat(int(p), seat)} {v['count']}" for p, v in obs["zones"].get("hand", {}).items()
                  if int(p) != seat]
        if others:
            print(f"  cards held: {', '.join(others)}")
        if obs["trick"]:
            number = sum(obs["tricks_won"]) + 1
            print(f"  trick {number}: " + ", ".join(f"{self._seat(p, seat)} {c}" for p, c in obs["trick"]))
        print(f"  your hand: {self._hand(seat)}")
        legal = state.legal_actions()
        print(f"Your turn ({state.phase}):")
        if self.listed():
            width = len(str(len(legal)))
            for i, a in enumerate(legal, 1):
                print(f"  {i:>{width}}  {a.text}")
        else:
            examples = "; ".join(a.text for a in legal[:3])
            print(f"  {len(legal)} possible actions, e.g. {examples}; type one (the verb may be left out)")

    def _seat(self, p: int, me: int) -> str:
        return "you" if p == me else f"seat {p}"

    def _side(self, s: int, me: int) -> str:
        members = self.state.sides[s]
        if me in members:
            return "you" if len(members) == 1 else "your side"
        return "seat " + str(members[0]) if len(members) == 1 else "seats " + "+".join(map(str, members))

    def _zone(self, name: str, value: dict[str, Any], me: int) -> str:
        if "count" in value and not isinstance(value.get("count"), dict) and set(value) <= {"cards", "count"}:
            if "cards" in value:
                return f"{name}: {' '.join(value['cards'])}" if value["cards"] else ""
            return f"{name}: {_plural(value['count'], 'card')} face down" if value["count"] else ""
        parts = []
        kind = self.zone_kinds.get(name, "player")
        for owner, v in value.items():
            who = self._seat(int(owner), me) if kind == "player" else self._side(int(owner), me)
            if "cards" in v:
                if v["cards"]:
                    parts.append(f"{who} {' '.join(v['cards'])}")
            elif v["count"]:
                parts.append(f"{who} {_plural(v['count'], 'card')} face down")
        return f"{name}: {'; '.join(parts)}" if parts else ""

    def _hand(self, seat: int) -> str:
        """The seat's hand sorted by suit (trumps first), trumps marked with '*'."""
        state = self.state
        tables, core = state.program.tables, state.core
        groups: list[list[str]] = []
        last = None
        any_trump = False
        for code in state.hand(seat):
            card = tables.index[code]
            suit = tables.eff_suit[core.ti][card]
            trump = core.trump >= 0 and suit == core.trump
            any_trump = any_trump or trump
            if suit != last:
                groups.append([])
                last = suit
            groups[-1].append(code + ("*" if trump else ""))
        text = "   ".join(" ".join(g) for g in groups) or "(no cards)"
        return text + ("   (* trump)" if any_trump else "")


def _range(sizes: Sequence[int]) -> str:
    lo, hi = min(sizes), max(sizes)
    return str(lo) if lo == hi else f"{lo} to {hi}"


def _reveals(event: dict[str, Any], seat: int) -> bool:
    """Whether an event shows the seat something it did not know (a new deal, a card of
    another player, a drawn or turned-up card, a finished trick)."""
    kind = event.get("type")
    if kind in ("deal", "dealt", "draw", "turn_up", "trick", "move", "deal_end", "match_end", "redeal"):
        return True
    if kind in ("play", "select") and event.get("player") != seat:
        return bool(event.get("card") or event.get("cards"))
    return False


def _describe(event: dict[str, Any]) -> str:
    kind = event.get("type")
    return {
        "deal": "a new deal has begun", "dealt": "cards have been dealt", "draw": "cards have been drawn",
        "turn_up": "a card has been turned up", "trick": "a trick has been completed", "move": "cards have been moved",
        "deal_end": "the deal has ended", "match_end": "the match has ended", "redeal": "the cards have been redealt",
        "play": "another player has played a card", "select": "another player's cards have been shown",
    }.get(str(kind), "something has been revealed")


# ---------------------------------------------------------------- simulate


@dataclass(frozen=True)
class _Job:
    path: str
    options: tuple[tuple[str, str], ...]
    digest: str
    seats: tuple[str, ...]
    base_seed: int
    index: int
    max_deals: int | None
    record_dir: str | None


def match_seed(base: int, index: int) -> int:
    """The seed of match ``index`` of a simulation with seed ``base`` (independent of --jobs)."""
    digest = hashlib.sha256(f"tricklang-simulate/{base}/{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


_RULES: dict[tuple[str, tuple[tuple[str, str], ...]], Ruleset] = {}


def _rules_for(job: _Job) -> Ruleset:
    key = (job.path, job.options)
    ruleset = _RULES.get(key)
    if ruleset is None:
        ruleset = tricklang.load(job.path, options=dict(job.options) or None)
        if ruleset.digest != job.digest:
            raise RecordError(f"the rule file {job.path!r} changed while the simulation was running")
        _RULES[key] = ruleset
    return ruleset


def simulate_match(job: _Job) -> dict[str, Any]:
    """Play one match of a simulation; returns its summary (JSON-able)."""
    seed = match_seed(job.base_seed, job.index)
    error = None
    failed: tuple[int, str] | None = None
    last: str | None = None
    abandoned_early = False
    try:
        ruleset = _rules_for(job)
        agents = [make_agent(kind, match_seed(seed, seat)) for seat, kind in enumerate(job.seats)]
        state = new_game(ruleset, seed=seed)
    except TrickLangError as err:
        return {"index": job.index, "seed": seed, "winner": None, "first_dealer_side": None, "deals": 0,
                "actions": 0, "awards": [], "error": str(err)}
    actors: list[int] = []
    seat: int | None = None
    try:
        while not state.is_terminal():
            if job.max_deals is not None and state.deal_number > job.max_deals:
                abandoned_early = True
                break
            seat = state.current_player
            assert seat is not None
            action = agents[seat](state)
            last = action.text
            state.apply_unchecked(action)
            last = None
            actors.append(seat)
            if len(actors) > MAX_ACTIONS_PER_MATCH:
                raise GameLimitError(f"the match took more than {MAX_ACTIONS_PER_MATCH} actions")
    except TrickLangError as err:
        error = str(err)
        if seat is not None and last is not None:
            failed = (seat, last)  # the action that failed, so that the record reproduces the error
    outcome = state.outcome()
    awards: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for e in state.events(None):
        if e.get("type") == "score" and e.get("points"):
            tally = awards.setdefault((str(e.get("label", "")), tuple(e.get("laws") or ())), [0, 0])
            tally[0] += 1
            tally[1] += int(e["points"])
    side_of = {p: s for s, members in enumerate(state.sides) for p in members}
    deals = outcome.deals if outcome is not None else state.deal_number - (1 if abandoned_early else 0)
    if job.record_dir is not None:
        Record.from_state(state, seats=list(job.seats), actors=actors, failed=failed).save(Path(job.record_dir) / f"match-{job.index:05d}.json")
    return {
        "index": job.index,
        "seed": seed,
        "winner": outcome.winner if outcome is not None else None,
        "first_dealer_side": side_of[int(state.to_dict()["dealer"])],
        "deals": deals,
        "actions": len(state.actions),
        "awards": [[label, list(laws), n, points] for (label, laws), (n, points) in awards.items()],
        "error": error,
    }


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


class _Progress:
    """A progress bar on stderr, only when stderr is a terminal."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.on = sys.stderr.isatty()
        self.last = 0.0

    def update(self, done: int) -> None:
        now = time.monotonic()
        if not self.on or (now - self.last < 0.1 and done < self.total):
            return
        self.last = now
        width = 30
        filled = width * done // self.total
        sys.stderr.write(f"\r  [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} matches")
        sys.stderr.flush()

    def close(self) -> None:
        if self.on:
            sys.stderr.write("\r" + " " * 60 + "\r")
            sys.stderr.flush()


def _run_jobs(jobs: list[_Job], workers: int, progress: _Progress) -> Iterator[dict[str, Any]]:
    if workers <= 1 or len(jobs) <= 1:
        for done, job in enumerate(jobs, 1):
            yield simulate_match(job)
            progress.update(done)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if sys.platform == "linux" and "fork" in methods else None)
    chunk = max(1, len(jobs) // (workers * 16))
    with context.Pool(workers) as pool:
        for done, result in enumerate(pool.imap(simulate_match, jobs, chunksize=chunk), 1):
            yield result
            progress.update(done)


def cmd_simulate(args: argparse.Namespace) -> int:
    ruleset = _load(args.file, args)
    names = [s.strip().lower() for s in args.seats.split(",")]
    if len(names) == 1:
        names *= ruleset.player_count
    if len(names) != ruleset.player_count:
        raise UsageError(f"--seats: {ruleset.name} has {ruleset.player_count} seats, {len(names)} players given")
    for name in names:
        if name not in AGENTS:
            raise UsageError(f"--seats: unknown player {name!r}; simulate plays {', '.join(AGENTS)}")
    workers = args.jobs or os.cpu_count() or 1
    if args.record is not None:
        try:
            Path(args.record).mkdir(parents=True, exist_ok=True)
        except OSError as err:
            raise UsageError(f"--record {args.record}: cannot create the directory: {err.strerror or err}") from None
    options = tuple(sorted(dict(args.options).items()))
    jobs = [_Job(args.file, options, ruleset.digest, tuple(names), args.seed, i, args.max_deals, args.record)
            for i in range(args.matches)]
    progress = _Progress(len(jobs))
    start = time.perf_counter()
    try:
        results = list(_run_jobs(jobs, workers, progress))
    except KeyboardInterrupt:
        progress.close()
        print(f"{PROG} simulate: interrupted", file=sys.stderr)
        return 1
    finally:
        progress.close()
    seconds = time.perf_counter() - start
    summary = summarise(ruleset, names, args.seed, results)
    actions = summary["actions"]["total"]
    summary["timing"] = {
        "seconds": round(seconds, 3),
        "jobs": workers,
        "matches_per_second": round(len(results) / seconds, 1) if seconds > 0 else None,
        "actions_per_second": round(actions / seconds, 1) if seconds > 0 else None,
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
    else:
        _print_summary(summary)
    for failure in summary["errors"][:10]:
        print(f"{PROG} simulate: match {failure['match']} (seed {failure['seed']}): {failure['error']}", file=sys.stderr)
    return 1 if summary["errors"] else 0


def summarise(ruleset: Ruleset, seats: Sequence[str], seed: int, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The statistics of a simulation (everything but its timing)."""
    teams = ruleset.rules.players.teams if ruleset.rules.players else ()
    sides = [list(t) for t in teams] if teams else [[p] for p in range(ruleset.player_count)]
    n = len(results)
    wins = [0] * len(sides)
    errors = [{"match": r["index"], "seed": r["seed"], "error": r["error"]} for r in results if r["error"]]
    abandoned = sum(1 for r in results if r["winner"] is None and not r["error"])
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
    def say(text: str = "") -> None:
        print(text, file=out or sys.stdout)

    n = s["matches"]
    opts = ", ".join(f"{k}={_show(v)}" for k, v in s["options"].items())
    say(f"{s['game']} ({s['rules']}): {_plural(n, 'match')}, seed {s['seed']}, seats: "
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
        say(f"throughput: {n} matches in {t['seconds']:.2f} s with {_plural(t['jobs'], 'job')}: "
            f"{t['matches_per_second'] or 0:,.1f} matches/s, {t['actions_per_second'] or 0:,.0f} actions/s")


if __name__ == "__main__":
    raise SystemExit(main())
