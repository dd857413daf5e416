"""`tricklang play`: one match at the terminal, a human seat against the built-in players,
with explanations of refused moves and undo while no hidden card has been seen.

With ``--table`` the match is in table mode and the human is also the table's referee:
at his own turns and at the referee's pauses (after the deal, after the last card: see
:mod:`interpreter.pauses`, asked whoever deals) he may record one of the rule file's
irregularities, ``irregular NAME SEAT [ARG...]``; ``irregularities`` lists those on
offer. The built-in players never record one."""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tricklang import Ruleset
from tricklang import model as m
from tricklang.walk import statements_of

from ..errors import GameError, GameLimitError, RecordError
from ..players import AGENTS, MAX_ACTIONS_PER_MATCH, Agent, agent_name_problem, is_agent_name, make_agent
from ..record import Record, rebuild
from ..state.actions import Action
from ..state.irregular import seen_by
from ..state.refusals import MOMENT_WORDS
from ..state.state import new_game
from ..transcript import shown_lines
from .common import PROG, Subparsers, UsageError, integer, load, plural, seat_list

HUMAN = "human"
PAUSES = ("deal", "end_of_play")
"""The phases of the referee's pauses (interpreter.pauses.MOMENTS)."""
MAX_LISTED = 30
"""Legal actions listed with numbers; beyond this only examples are shown."""


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``play`` to the ``tricklang`` parser."""
    p = sub.add_parser("play", parents=[opts], help="play a match at the terminal",
                       description="Play a whole match at the terminal against the built-in players. "
                       "At your turn type a number or an action ('play KS'); '?' or '? KS' explains why a card "
                       "may not be played; 'undo' takes back your last move while no hidden card has been seen since; "
                       "'log' shows the game so far; 'quit' (or Ctrl-D) leaves.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.add_argument("--seat", dest="seats", metavar="N=PLAYER", action="append", default=[],
                   help=f"who plays seat N: {HUMAN}, {', '.join(AGENTS)}, search:BUDGET[:ROLLOUT] (ROLLOUT: greedy, "
                   "the default, heuristic or random; repeatable; default: "
                   f"seat 0 is {HUMAN}, the other seats heuristic)")
    p.add_argument("--seats", dest="seat_list", metavar="P,P,...",
                   help=f"the player of every seat in order, comma-separated, e.g. {HUMAN},search:100, or one "
                   "player for every seat, e.g. heuristic to watch (instead of --seat)")
    p.add_argument("--seed", type=integer, help="seed of the shuffles and the players (default: random, printed)")
    p.add_argument("--dealer", type=integer, metavar="N", help="the seat that deals first (default: the rule file's)")
    p.add_argument("--record", metavar="OUT", help="save a record of the game to OUT (also when you leave early)")
    p.add_argument("--table", action="store_true",
                   help="table mode: you are also the referee, and at your turns and at the referee's pauses "
                   "(after the deal, after the last card) you may record the rule file's irregularities "
                   "('irregular NAME SEAT [ARG...]'; 'irregularities' lists those on offer)")
    p.set_defaults(run=cmd_play)


def _parse_seats(specs: Sequence[str], players: int) -> list[str]:
    seats: list[str | None] = [None] * players
    kinds = (HUMAN, *AGENTS, "search:N[:ROLLOUT]")
    for spec in specs:
        seat_text, sep, kind = spec.partition("=")
        kind = kind.strip().lower()
        try:
            seat = int(seat_text)
        except ValueError:
            raise UsageError(f"--seat {spec!r}: expected N=PLAYER, e.g. --seat 0=human") from None
        if sep and kind.startswith("search:") and (problem := agent_name_problem(kind)):
            raise UsageError(f"--seat {spec!r}: {problem}")
        if not sep or (kind != HUMAN and not is_agent_name(kind)):
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
    ruleset = load(args.file, args)
    specs = list(args.seats)
    if args.seat_list is not None:
        if specs:
            raise UsageError("give the players with --seats or with --seat, not both")
        specs = [f"{i}={n}" for i, n in enumerate(seat_list(args.seat_list, ruleset))]
    seats = _parse_seats(specs, ruleset.player_count)
    if args.dealer is not None and not 0 <= args.dealer < ruleset.player_count:
        raise UsageError(f"--dealer {args.dealer}: this game has seats 0..{ruleset.player_count - 1}")
    if args.record is not None and Path(args.record).is_dir():
        raise UsageError(f"--record {args.record}: is a directory; give a file name")
    if args.record is not None and not Path(args.record).resolve().parent.is_dir():
        raise UsageError(f"--record {args.record}: no such directory {str(Path(args.record).parent)!r}")
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    if args.table and not ruleset.rules.irregularities:
        raise UsageError(f"--table: {ruleset.name} declares no irregularities to record")
    if args.table and HUMAN not in seats:
        raise UsageError("--table: the referee is the human seat; give one (--seat N=human)")
    return _Table(ruleset, seats, seed, args.dealer, args.record, "table" if args.table else "strict").run()


def _read(prompt: str) -> str | None:
    """A line typed by the player, or None at the end of input."""
    try:
        return input(prompt)
    except EOFError:
        print()
        return None


class _Table:
    """One match at the terminal: a human seat (or none) against built-in players."""

    def __init__(self, ruleset: Ruleset, seats: list[str], seed: int, dealer: int | None, record: str | None,
                 mode: str = "strict") -> None:
        self.ruleset = ruleset
        self.seats = seats
        self.seed = seed
        self.record_path = record
        self.mode = mode
        self.state = new_game(ruleset, seed=seed, dealer=dealer, mode=mode)
        self.bot_rng = random.Random(f"{seed}/table")  # a bot's turn in table mode: never an irregularity
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
        # The seed fixes every hidden card: it is printed when the match ends, not now.
        print(f"{self.ruleset.name} ({self.ruleset.path}); {who}")
        if self.human is not None:
            print("Type a number or an action such as 'play KS'; '?' or '? KS' explains; 'undo', 'log', 'help', 'quit'.")
        try:
            while not self.state.is_terminal():
                self.flush()
                seat = self.state.current_player
                assert seat is not None
                pause = self.human is not None and self.state.phase in PAUSES
                if seat in self.agents and not pause:
                    self.apply(self.bot(seat).text, seat)
                    if len(self.actors) > MAX_ACTIONS_PER_MATCH:
                        raise GameLimitError(f"the match took more than {MAX_ACTIONS_PER_MATCH} actions")
                elif not self.turn(self.human if pause and self.human is not None else seat):
                    print(f"You left the game after {plural(len(self.state.actions), 'action')}.")
                    return self.finish(offer=True)
        except KeyboardInterrupt:
            print(f"\nInterrupted after {plural(len(self.state.actions), 'action')}.")
            return self.finish(offer=False)
        except GameError as err:
            self.flush()
            print(f"{PROG} play: error: {self._as_seen(err)}", file=sys.stderr)
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

    def bot(self, seat: int) -> Action:
        """A built-in player's action; in table mode a regular one (it records no irregularity)."""
        action = self.agents[seat](self.state)
        if action.verb != "irregular":
            return action
        regular = self.regular()
        return regular[self.bot_rng.randrange(len(regular))]

    def regular(self) -> list[Action]:
        """The legal actions that are not irregularities (all of them in strict mode)."""
        legal = self.state.legal_actions()
        if self.mode == "strict":
            return list(legal)
        return [a for a in legal if a.verb != "irregular"]

    def irregular(self, seat: int) -> list[Action]:
        """The irregularities on offer now whose arguments the seat may know of."""
        state = self.state
        return [a for a in state.legal_actions().explicit if a.verb == "irregular" and seen_by(state, a, seat)]

    def _as_seen(self, err: GameError) -> str:
        """An error as the human may see it: another seat's failed action is not named
        (it may be face down), only the rule's line."""
        if self.human is None or self.failed is None or self.failed[0] == self.human:
            return str(err)
        line = str(err).split(":", 1)[0] if str(err).startswith("line ") else ""
        return f"{type(err).__name__} while seat {self.failed[0]} acted" + (f" ({line} of the rules)" if line else "")

    def apply(self, text: str, seat: int) -> None:
        """Apply an action; the record names the seat to act (at a referee's pause the dealer,
        whoever typed it)."""
        actor = self.state.current_player
        seat = actor if actor is not None else seat
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
        for line in shown_lines(self.state, events, self.shown):
            print(line)
        self.shown = len(events)

    def finish(self, offer: bool) -> int:
        print(f"Seed {self.seed} (to play this match again: --seed {self.seed}).")
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
            elif low in ("irregularities", "irr"):
                self.list_irregularities(seat)
            elif low == "log":
                for out in shown_lines(self.state, self.state.events(self.human)):
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
        return len(self.regular()) <= MAX_LISTED

    def resolve(self, text: str) -> str | None:
        """The legal action meant by what the player typed, or None (after saying why)."""
        legal = self.regular()
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
        verbs = {a.verb for a in self.state.legal_actions()}
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
                return f"you must {verb} {_range(sizes)} {'card' if max(sizes) == 1 else 'cards'}"
        return state.why_illegal(action)

    def _complete(self, text: str) -> str:
        """Add the verb when the player typed only cards (``KS`` -> ``play KS``)."""
        words = text.split()
        verbs = sorted({a.verb for a in self.regular()})
        if words[0].lower() in verbs or words[0].lower() == "irregular" or not verbs:
            return text
        if "play" in verbs and len(words) == 1:
            return f"play {text}"
        if len(verbs) == 1:
            return f"{verbs[0]} {text}"
        return text

    def why(self, text: str) -> None:
        state = self.state
        legal = self.regular()
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
                    ways.append(f"{verb} {_range(sizes)} {'card' if sizes and max(sizes) == 1 else 'cards'} ({plural(len(many), 'way')})")
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
        before = rebuild(self.ruleset, self.seed, None, self.first_dealer,
                         list(zip(self.actors[:last], state.actions[:last], strict=True)), mode=self.mode)
        seen = state.events(seat)
        since = seen[len(before.events(seat)):]
        revealed = [e for e in since if _reveals(e, seat)]
        if revealed:
            what = _describe(revealed[0])
            print(f"Cannot undo {state.actions[last]!r}: {what} since, and undoing would let you use that.")
            return False
        taken = state.actions[last]  # the human's own action; the others' may be face down
        others = len(state.actions) - last - 1
        self.state = before
        self.actors = self.actors[:last]
        self.shown = len(before.events(self.human))
        print(f"Undone: {taken}" + (f", and {plural(others, 'action')} of the other seats since." if others else "."))
        return True

    # ------------------------------------------------------------ display
    def help(self) -> None:
        print("  NUMBER or ACTION  take that action ('play KS', or just 'KS' when playing to a trick)")
        print("  ?                 why some of your cards may not be played now")
        print("  ? ACTION          why an action is not allowed ('? 8S', '? discard 7H 8C')")
        print("  undo              take back your last action, unless a hidden card has been seen since")
        print("  show              show the table again;  log  the game so far")
        if self.mode == "table":
            print("  irregularities    the irregularities you may record now, as the referee")
            print("  irregular NAME SEAT [ARG...]  record one ('irregular revoke 2'); 'continue' at a pause")
        print("  quit              leave (the record is saved if --record was given)")

    def show(self, seat: int) -> None:
        state = self.state
        obs = state.observation(seat)
        print()
        head = f"Deal {obs['deal']}, dealer {self._seat(obs['dealer'], seat)}, trumps {obs['trump'] or 'none'}"
        if obs.get("maker") is not None:
            head += f", maker {self._seat(obs['maker'], seat)}" + (f" at {obs['bid']}" if _has_bids(self.ruleset) else "")
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
        legal = self.regular()
        if state.phase in PAUSES:
            print(f"The referee's pause ({MOMENT_WORDS.get(state.phase, state.phase)}): 'continue', or record an irregularity:")
        else:
            print(f"Your turn ({state.phase}):")
        if self.listed():
            width = len(str(len(legal)))
            for i, a in enumerate(legal, 1):
                print(f"  {i:>{width}}  {a.text}")
        else:
            examples = "; ".join(a.text for a in legal[:3])
            print(f"  {len(legal)} possible actions, e.g. {examples}; type one (the verb may be left out)")
        if self.mode == "table":
            count = len(self.irregular(seat))
            if count:
                print(f"  and {plural(count, 'irregularity')} to record ('irregularities' lists them)")

    def list_irregularities(self, seat: int) -> None:
        """The irregularities on offer now, by name, with their laws and the arguments to give."""
        if self.mode != "table":
            print("Irregularities are recorded in table mode only (tricklang play --table).")
            return
        offered = self.irregular(seat)
        if not offered:
            print("No irregularity can be recorded now.")
            return
        laws = {irr.name: irr.cite.laws if irr.cite else () for irr in self.ruleset.rules.irregularities}
        by_name: dict[str, list[str]] = {}
        for a in offered:
            by_name.setdefault(a.args[0], []).append(" ".join(a.args[1:]))
        for name, rest in by_name.items():
            cited = f" [{', '.join(laws[name])}]" if laws.get(name) else ""
            shown = ", ".join(rest[:8]) + (f", ... ({len(rest)} in all)" if len(rest) > 8 else "")
            print(f"  irregular {name}{cited}: {shown}")

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
            return f"{name}: {plural(value['count'], 'card')} face down" if value["count"] else ""
        parts = []
        kind = self.zone_kinds.get(name, "player")
        for owner, v in value.items():
            who = self._seat(int(owner), me) if kind == "player" else self._side(int(owner), me)
            if "cards" in v:
                if v["cards"]:
                    parts.append(f"{who} {' '.join(v['cards'])}")
            elif v["count"]:
                parts.append(f"{who} {plural(v['count'], 'card')} face down")
        return f"{name}: {'; '.join(parts)}" if parts else ""

    def _hand(self, seat: int) -> str:
        """The seat's hand sorted by suit (trumps first), trumps marked with '*'."""
        state = self.state
        groups: list[list[str]] = []
        last = None
        any_trump = False
        for code in state.hand(seat):
            suit = state.effective_suit(code)
            trump = state.is_trump(code)
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


def _has_bids(ruleset: Ruleset) -> bool:
    """Whether the game has a contract to show: an auction, own bids, or `set bid`."""
    return any(isinstance(st, (m.Auction, m.Bid)) or isinstance(st, m.Let) and st.name == "bid"
               for st in statements_of(ruleset.rules))
