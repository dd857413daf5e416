"""A generic invariant harness: plays any rule file and checks, at every step,
what must hold whatever the game.

Nothing here knows a particular game. Bounds (the most cards a hand may hold, the
most points one deal may bring, the most decisions one deal may need) are derived
from the rule file itself; see :func:`derive_bounds`.

>>> import tricklang
>>> from interpreter.harness import check_invariants, derive_bounds
>>> rules = tricklang.load("rules/ecarte.trick")
>>> derive_bounds(rules).hand
5
>>> report = check_invariants(rules, seed=1, max_actions=8)
>>> report.ok, len(report.actions)
(True, 8)

Invariants (each a violation ``code``):

``terminal``
    the state is terminal exactly when there is no legal action (and then, and only
    then, ``current_player`` is None; otherwise it is a seat).
``legal-duplicate``, ``legal-unstable``, ``legal-notation``
    legal actions are unique, in the same order when recomputed on a clone and after
    a JSON round trip, and ``is_legal`` accepts each of them (also in lower case).
``legal-apply``, ``nondeterministic``
    every legal action (at most ``apply_limit`` of them, evenly spread) applies on a
    clone without raising; the clone that took the chosen action equals the state.
``illegal-accepted``, ``illegal-error``, ``illegal-mutated``, ``why-illegal``
    probes (a nonsense verb, an empty action, a card the actor does not hold, an
    unknown card code, a stale action, a bare verb...) raise ``IllegalActionError``
    or ``InvalidActionError`` and change nothing (``to_json``, ``observation(None)``
    and the legal actions are the same before and after); ``why_illegal`` explains.
``cards``
    every card is in exactly one zone instance or in the current trick.
``hand-size``
    no hand holds more than :attr:`Bounds.hand`.
``score``
    scores are ints with ``abs(score) <= (deals so far) * Bounds.score_per_deal``
    (in table mode, plus a share for each irregularity recorded).
``json``
    ``State.from_json(s.to_json()) == s`` with the same legal actions (every
    ``json_every`` steps, and at the last step).
``match-length``
    no more than ``Bounds.actions_per_deal`` decisions in one deal, no more than
    ``Bounds.deal_limit`` deals (strict mode).
``layout``, ``visibility``
    the interpreter's zone instances and ``program.zone_mask`` agree with the rule
    file's zone declarations (the harness's own oracle, so that a wrong mask is caught).
``observation-leak``
    ``observation(p)`` does not change when the cards hidden from ``p`` are moved
    around among the places ``p`` cannot see (sizes kept).
``event-leak``
    no event shown to ``p`` names a card that ``p`` never saw: checked as each event is
    emitted, against what ``p`` has seen so far in the deal (the zones the rule file
    lets ``p`` see, the trick, and the zone ``p`` is choosing cards from).
``events-log``, ``observation-json``
    the event log only grows; observations are JSON-able.
``exception``
    anything else raised where nothing should be.
``replay``
    an action given in ``choices`` (as text) is not legal where it is to be played.

A hypothesis driver (:func:`invariant_test`) draws the seed, the options, the mode and
every choice from ``st.data()``, so that a failure shrinks to a short action sequence;
:func:`replay` re-checks a fixed action list deterministically.
"""

from __future__ import annotations

import json
import random
import time
import traceback
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

import tricklang
from tricklang import Ruleset
from tricklang import model as m
from tricklang.checker import walk

from .actions import Action
from .compiler import compile_ruleset
from .errors import IllegalActionError, InvalidActionError
from .instructions import Select
from .program import DEFAULT_DEAL_LIMIT, Program
from .state import State, new_game

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from .core import Core

__all__ = [
    "Bounds",
    "Chooser",
    "DataLike",
    "InvariantViolationError",
    "PROBES",
    "Report",
    "Violation",
    "check_invariants",
    "derive_bounds",
    "invariant_test",
    "options_strategy",
    "replay",
]

GENEROUS_SCORE_PER_DEAL = 1_000_000
"""The score bound per deal when the rule file's score amounts cannot be bounded."""

PROBES = ("nonsense-verb", "empty", "unknown-card", "foreign-card", "bare-verb", "none-arg", "wrong-verb-args",
          "stale", "irregular-strict", "huge-bid")
"""The kinds of illegal action the harness tries (see ``skip_probes``)."""

_TEXT_KEYS = frozenset({"label", "reason", "laws", "type"})


class DataLike(Protocol):
    """A hypothesis ``st.data()`` object (anything with a compatible ``draw``)."""

    def draw(self, strategy: Any, label: Any = None) -> Any: ...


Chooser = Callable[[State], "Action | str | int"]
"""Picks the next action: an :class:`Action`, its text, or an index into the legal actions."""

Choices = Chooser | DataLike | Sequence[int] | Sequence[str] | None


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class Violation:
    """One broken invariant: its code, what happened, and the actions that led there."""

    code: str
    message: str
    step: int
    actions: tuple[str, ...]

    def __str__(self) -> str:
        return f"[{self.code}] after {self.step} action(s): {self.message}"


@dataclass(frozen=True)
class Bounds:
    """Limits derived from a rule file (with its option values); see :func:`derive_bounds`."""

    deck_size: int
    players: int
    sides: int
    hand: int
    hand_why: str
    score_per_deal: int
    score_derived: bool
    irregularity_score: int
    actions_per_deal: int | None
    deal_limit: int

    @property
    def actions_per_match(self) -> int | None:
        """The most decisions a whole match may take (strict mode), or None if unknown."""
        return None if self.actions_per_deal is None else self.actions_per_deal * self.deal_limit


class InvariantViolationError(AssertionError):
    """Raised by :meth:`Report.raise_if_failed`; the message holds the action list and a replay."""

    def __init__(self, report: Report) -> None:
        super().__init__(report.summary())
        self.report = report


@dataclass
class Report:
    """The outcome of one checked run."""

    path: str
    seed: int
    options: dict[str, Any]
    mode: str
    dealer: int | None
    bounds: Bounds | None
    actions: list[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    terminal: bool = False
    deep_steps: int = 0
    steps: int = 0
    seconds: float = 0.0
    state: State | None = field(default=None, repr=False, compare=False)
    source: str = field(default="", repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def first(self) -> Violation | None:
        return self.violations[0] if self.violations else None

    @property
    def codes(self) -> list[str]:
        return [v.code for v in self.violations]

    def replay_code(self) -> str:
        """Python that re-runs the failing sequence (the actions up to the first violation)."""
        actions = list(self.first.actions) if self.first else self.actions
        opts = f", options={self.options!r}" if self.options else ""
        dealer = f", dealer={self.dealer!r}" if self.dealer is not None else ""
        where = self.path if Path(self.path).is_file() or not self.source else self.source
        return (
            "import tricklang\n"
            "from interpreter.harness import replay\n"
            f"rules = tricklang.load({where!r})\n"
            f"report = replay(rules, {actions!r}, seed={self.seed!r}{opts}, mode={self.mode!r}{dealer})\n"
            "print(report.summary())\n"
        )

    def summary(self) -> str:
        head = (f"{self.path}: seed {self.seed}, mode {self.mode}, options {self.options or 'default'}: "
                f"{self.steps} step(s), {len(self.actions)} action(s)")
        if self.ok:
            return head + ": all invariants hold" + (" (match over)" if self.terminal else "")
        lines = [head + f": {len(self.violations)} violation(s)"]
        lines += ["  " + str(v) for v in self.violations[:10]]
        first = self.first
        assert first is not None
        lines.append(f"shortest failing sequence here ({len(first.actions)} action(s)): {list(first.actions)!r}")
        lines.append("replay with:\n" + self.replay_code())
        return "\n".join(lines)

    def raise_if_failed(self) -> None:
        if not self.ok:
            raise InvariantViolationError(self)


class _StopRunError(Exception):
    """Internal: the first violation was found and the run stops there."""


# ---------------------------------------------------------------- bounds


def derive_bounds(ruleset: Ruleset, *, table: bool = False) -> Bounds:
    """Derive the harness's limits from a rule file and its option values.

    * ``hand``: ``max(cards dealt to each player, largest 'to N' target of a draw or
      take) + every card a statement may add to a hand on top (draws of N, takes,
      moves and turn-ups into a hand, times their loop bounds)``, capped at the deck
      size; in table mode (irregularities may run any number of times) the deck size.
    * ``score_per_deal``: the sum of the largest absolute value of each ``scores`` /
      ``loses`` amount (the largest branch of an ``if`` or a choice, times loop
      bounds, declarations once per player; ``points(...)`` is bounded by the point
      table's total, ``bid`` by the auction's top, ``count``/``tricks`` by the deck),
      doubled when a ``cancel`` can take points back. In table mode each recorded
      irregularity may add the most its remedy scores (see ``irregularity_score``). When an amount cannot be
      bounded (e.g. it reads ``score(...)``) a generous 1,000,000 is used.
    * ``actions_per_deal``: 1 per choice, discard, take and naming (plus the largest
      option body), one round of bidding (or passes plus every possible bid), the
      cards of the deck (or tricks x players) plus one declaration per name and
      player for trick play; times loop bounds. None in table mode (an irregularity
      may be recorded at every decision).
    * ``deal_limit``: ``at most N deals`` or the interpreter's default of 1000.
    """
    rules = ruleset.rules
    assert rules.deck is not None and rules.players is not None
    n = rules.players.count
    sides = len(rules.players.teams) if rules.players.teams else n
    deck_size = len(rules.deck.suits) * len(rules.deck.ranks)
    ev = _Bounder(rules, dict(ruleset.options), n, sides, deck_size, _point_total(ruleset))
    hand, why = ev.hand_bound(table)
    score = ev.score_total(rules.deal)
    irr = 0
    for irr_decl in rules.irregularities:
        v = ev.score_total(irr_decl.body)
        irr = max(irr, v if v is not None else GENEROUS_SCORE_PER_DEAL)
    derived = score is not None
    per_deal = score if score is not None else GENEROUS_SCORE_PER_DEAL
    if ev.has_cancel or (table and ev.irregular_cancel):
        per_deal *= 2
        irr *= 2
    actions = None if table else ev.decisions(rules.deal)
    limit = rules.match.deal_limit if rules.match is not None and rules.match.deal_limit is not None else DEFAULT_DEAL_LIMIT
    return Bounds(deck_size, n, sides, hand, why, per_deal, derived, irr, actions, limit)


def _point_total(ruleset: Ruleset) -> int:
    """The most points all the point cards of the deck are worth, whatever the trump."""
    tables = compile_ruleset(ruleset).tables
    return max((sum(abs(v) for v in values) for values in tables.point_value), default=0)


class _Bounder:
    def __init__(self, rules: m.RuleFile, options: dict[str, Any], n: int, sides: int, deck: int, points: int) -> None:
        self.rules = rules
        self.options = options
        self.n = n
        self.sides = sides
        self.deck = deck
        self.points = points
        self.has_cancel = any(isinstance(st, m.Cancel) for st in _walk(rules.deal))
        self.irregular_cancel = any(isinstance(s, m.Cancel) for irr in rules.irregularities for s in _walk(irr.body))
        self.assigned: dict[str, list[m.Expr]] = {}
        for st in list(_walk(rules.deal)) + [s for irr in rules.irregularities for s in _walk(irr.body)]:
            if isinstance(st, m.Let):
                self.assigned.setdefault(st.name, []).append(st.value)
        self._visiting: set[str] = set()
        highs = [self.abs_bound(st.high) for st in _walk(rules.deal) if isinstance(st, m.Auction)]
        highs += [self.abs_bound(st.all_pass_bid) for st in _walk(rules.deal)
                  if isinstance(st, m.Auction) and st.all_pass_bid is not None]
        self.bid: int | None = 0 if not highs else None if any(h is None for h in highs) else max(h for h in highs if h is not None)

    # -------------------------------------------------------- expressions
    def const(self, e: m.Expr | None) -> int | None:
        """An integer constant (literals and int options at their values), else None."""
        if e is None:
            return None
        if isinstance(e, m.IntLit):
            return e.value
        if isinstance(e, m.Name):
            v = self.options.get(e.name)
            return v if isinstance(v, int) and not isinstance(v, bool) else None
        if isinstance(e, m.Neg):
            v = self.const(e.operand)
            return None if v is None else -v
        if isinstance(e, m.BinOp) and e.op in ("+", "-", "*"):
            a, b = self.const(e.left), self.const(e.right)
            if a is None or b is None:
                return None
            return a + b if e.op == "+" else a - b if e.op == "-" else a * b
        if isinstance(e, m.Call) and e.name in ("min", "max") and e.args:
            vals = [self.const(a.value) for a in e.args]
            if any(v is None for v in vals):
                return None
            ints = [v for v in vals if v is not None]
            return min(ints) if e.name == "min" else max(ints)
        return None

    def abs_bound(self, e: m.Expr | None) -> int | None:
        """An upper bound of ``abs(value)`` of an integer expression, or None."""
        if e is None:
            return None
        c = self.const(e)
        if c is not None:
            return abs(c)
        if isinstance(e, m.Name):
            if e.name == "bid":
                return getattr(self, "bid", None)
            if e.name in self.assigned:
                if e.name in self._visiting:
                    return None
                self._visiting.add(e.name)
                try:
                    vals = [self.abs_bound(v) for v in self.assigned[e.name]]
                finally:
                    self._visiting.discard(e.name)
                return None if any(v is None for v in vals) else max((v for v in vals if v is not None), default=0)
            return None
        if isinstance(e, m.Neg):
            return self.abs_bound(e.operand)
        if isinstance(e, m.BinOp) and e.op in ("+", "-", "*"):
            a, b = self.abs_bound(e.left), self.abs_bound(e.right)
            if a is None or b is None:
                return None
            return a + b if e.op in ("+", "-") else a * b
        if isinstance(e, m.Call):
            if e.name in ("count", "tricks"):
                return self.deck
            if e.name == "points":
                return self.points
            if e.name in ("min", "max"):
                vals = [self.abs_bound(a.value) for a in e.args]
                return None if any(v is None for v in vals) else max((v for v in vals if v is not None), default=0)
        return None

    # -------------------------------------------------------- statements
    # Statements are dispatched by class name, so that the harness keeps working (if
    # more loosely) while the language grows: a kind it does not know makes the
    # bound that depends on it unknown (None) rather than wrong.
    def _times(self, st: Any) -> int:
        if isinstance(st, m.Repeat):
            return st.bound.value if isinstance(st.bound, m.IntLit) else 10_000
        return self.n if getattr(st, "kind", "player") == "player" else self.sides

    def _blocks(self, st: Any) -> tuple[str, list[Sequence[m.Statement]]] | None:
        """('all' | 'one' | 'loop', bodies) for a statement holding blocks, else None."""
        kind = type(st).__name__
        if kind == "If":
            return "one", [b for _, b in st.branches] + [st.orelse]
        if kind == "Choose":
            return "one", [o.body for o in st.options]
        if kind in ("Repeat", "ForEach"):
            return "loop", [st.body]
        body = getattr(st, "body", None)
        if isinstance(body, tuple):  # e.g. a named phase
            return "all", [body]
        return None

    def _fold(self, st: Any, fn: Callable[[Sequence[m.Statement]], int | None]) -> int | None:
        blocks = self._blocks(st)
        assert blocks is not None
        how, bodies = blocks
        values = [fn(b) for b in bodies]
        if any(v is None for v in values):
            return None
        ints = [v for v in values if v is not None]
        if how == "one":
            return max(ints, default=0)
        total = sum(ints)
        return total * self._times(st) if how == "loop" else total

    def score_total(self, stmts: Sequence[m.Statement]) -> int | None:
        total = 0
        for st in stmts:
            kind = type(st).__name__
            v: int | None
            if isinstance(st, m.Score):
                v = self.abs_bound(st.amount)
            elif isinstance(st, m.Tricks):
                parts = [self.score_total(d.body) for d in st.declarations]
                v = None if any(p is None for p in parts) else sum(p for p in parts if p is not None) * self.n
            elif self._blocks(st) is not None:
                v = self._fold(st, self.score_total)
            elif kind in _NO_SCORE:
                v = 0
            else:
                v = None
            if v is None:
                return None
            total += v
        return total

    def decisions(self, stmts: Sequence[m.Statement]) -> int | None:
        total = 0
        for st in stmts:
            kind = type(st).__name__
            v: int | None
            if isinstance(st, m.Choose):
                inner = self._fold(st, self.decisions)
                v = None if inner is None else 1 + inner
            elif kind in _ONE_DECISION:
                v = 1
            elif isinstance(st, m.Auction):
                if st.kind == "once_around":
                    v = self.n
                else:  # every pass, and every bid above the last
                    c_lo, c_hi = self.const(st.low), self.const(st.high)
                    hi, lo = self.abs_bound(st.high), self.abs_bound(st.low)
                    if c_lo is not None and c_hi is not None:
                        v = self.n + max(0, c_hi - c_lo + 1)
                    else:
                        v = None if hi is None or lo is None else self.n + hi + lo + 1
            elif isinstance(st, m.Tricks):
                count = self.const(st.count)
                plays = self.deck if count is None else min(self.deck, max(0, count) * self.n)
                v = plays + len({d.name for d in st.declarations}) * self.n
            elif self._blocks(st) is not None:
                v = self._fold(st, self.decisions)
            elif kind in _NO_DECISION:
                v = 0
            else:
                v = None
            if v is None:
                return None
            total += v
        return total

    def hand_bound(self, table: bool) -> tuple[int, str]:
        if table and self.rules.irregularities:
            return self.deck, "the deck (table mode: irregularities may move cards any number of times)"
        dealt, to_target, extra = self._hand_walk(self.rules.deal, 1)
        if dealt is None or extra is None:
            return self.deck, "the deck (a packet or an added amount is not a constant)"
        bound = max(dealt, to_target) + extra
        why = f"max(dealt {dealt}, draw/take target {to_target}) + added {extra}"
        if bound >= self.deck:
            return self.deck, why + f", capped at the deck ({self.deck})"
        return bound, why

    def _hand_walk(self, stmts: Sequence[m.Statement], mult: int) -> tuple[int | None, int, int | None]:
        dealt: int | None = 0
        target = 0
        extra: int | None = 0

        def add(v: int | None, times: int) -> None:
            nonlocal extra
            extra = None if v is None or extra is None else extra + v * times

        for st in stmts:
            kind = type(st).__name__
            if isinstance(st, m.DealCards):
                packets = [self.const(p) for p in st.packets]
                dealt = None if dealt is None or any(p is None for p in packets) else dealt + mult * sum(
                    max(0, p) for p in packets if p is not None)
            elif isinstance(st, (m.Draw, m.Take)):
                c = st.count
                if c.kind == "to":
                    t = self.const(c.low)
                    if t is None:
                        add(None, mult)
                    else:
                        target = max(target, t)
                elif c.kind == "at_least":
                    add(None, mult)
                else:
                    add(self.abs_bound(c.high if c.high is not None else c.low), mult)
            elif isinstance(st, m.Move):
                if st.to.name == "hand":
                    add(None if st.mode == "all" else self.abs_bound(st.amount), mult)
            elif isinstance(st, m.TurnUp):
                if st.to.name == "hand":
                    add(self.abs_bound(st.count), mult)
            elif isinstance(st, m.Discard):
                c = st.count
                if st.to.name == "hand":
                    add(None if c.kind in ("at_least", "to") else self.abs_bound(c.high if c.high is not None else c.low), mult)
            elif (blocks := self._blocks(st)) is not None:
                how, bodies = blocks
                k = mult * self._times(st) if how == "loop" else mult
                for body in bodies:
                    d, t, e = self._hand_walk(body, k)
                    dealt = None if d is None or dealt is None else dealt + d
                    target = max(target, t)
                    add(e, 1)
            elif kind not in _NO_CARDS_TO_HAND:
                add(None, mult)
        return dealt, target, extra


_NO_SCORE = frozenset({"DealCards", "TurnUp", "SetTrump", "NameTrump", "Let", "StopLoop", "Pass", "EndDeal", "Redeal",
                       "Expose", "Forbid", "Cancel", "Discard", "Take", "Draw", "Move", "Auction", "Bid", "Add"})
"""Statements that never score (a ``Cancel`` takes points back: see ``has_cancel``)."""
_ONE_DECISION = frozenset({"Discard", "Take", "NameTrump", "Bid"})
_NO_DECISION = frozenset({"DealCards", "TurnUp", "SetTrump", "Score", "Let", "StopLoop", "Pass", "EndDeal", "Redeal",
                          "Expose", "Forbid", "Cancel", "Draw", "Move", "Add"})
_NO_CARDS_TO_HAND = frozenset({"SetTrump", "NameTrump", "Score", "Let", "StopLoop", "Pass", "EndDeal", "Redeal",
                               "Expose", "Forbid", "Cancel", "Auction", "Tricks", "Bid", "Add"})


def _max_or_none(values: Sequence[int | None]) -> int | None:
    if any(v is None for v in values):
        return None
    return max((v for v in values if v is not None), default=0)


def _walk(stmts: Sequence[m.Statement]) -> Iterator[m.Statement]:
    """Every statement, depth first (the checker's walk)."""
    return walk(stmts)


# ---------------------------------------------------------------- the checker


class _EmitHook:
    """Checks every event of the main game as it is emitted (see ``event-leak``).

    Installed as an instance attribute over ``program.emit`` for the duration of a
    run (and removed afterwards), it only looks at the core of the game under test:
    clones and JSON replays share the program but not the core.
    """

    def __init__(self, run: _Run) -> None:
        self.run = run
        self.program = run.program
        self.saved = self.program.__dict__.get("emit")
        self.original = self.program.emit
        self.capture = True
        self.core: Core | None = None

    def __enter__(self) -> _EmitHook:
        self.program.__dict__["emit"] = self
        return self

    def __exit__(self, *exc: object) -> None:
        if self.saved is None:
            self.program.__dict__.pop("emit", None)
        else:
            self.program.__dict__["emit"] = self.saved

    def __call__(self, core: Core, full: dict[str, Any], public: dict[str, Any] | None = None, mask: int = 0) -> None:
        before = len(core.events)
        self.original(core, full, public, mask)
        if self.capture:
            self.core, self.capture = core, False
        if core is self.core and self.run.deep:
            for i in range(before, len(core.events)):
                self.run.on_event(core, i)


class _Run:
    def __init__(self, ruleset: Ruleset, *, seed: int, options: Mapping[str, Any] | None, mode: str,
                 dealer: int | None, deck: Sequence[str] | None, choices: Choices, max_actions: int,
                 finish: bool, finish_limit: int, json_every: int, apply_limit: int, stop_on_first: bool,
                 skip: Collection[str], skip_probes: Collection[str]) -> None:
        self.ruleset = ruleset.with_options(options)
        self.options = dict(options or {})
        self.seed = seed
        self.mode = mode
        self.dealer = dealer
        self.deck = deck
        self.choices = choices
        self.max_actions = max_actions
        self.finish = finish
        self.finish_limit = finish_limit
        self.json_every = max(1, json_every)
        self.apply_limit = apply_limit
        self.stop_on_first = stop_on_first
        self.skip = set(skip)
        self.skip_probes = set(skip_probes)
        self.program: Program = compile_ruleset(self.ruleset)
        self.table = mode == "table"
        self.bounds = derive_bounds(self.ruleset, table=self.table)
        self.rng = random.Random(f"harness/{seed}")
        rules = self.ruleset.rules
        assert rules.players is not None
        self.n = rules.players.count
        self.sides = [list(t) for t in rules.players.teams] if rules.players.teams else [[p] for p in range(self.n)]
        self.all_mask = (1 << self.n) - 1
        self.codes = self.program.tables.codes
        self.code_set = frozenset(self.codes)
        self.report = Report(path=self.ruleset.path, seed=seed, options=self.options, mode=mode, dealer=dealer,
                             bounds=self.bounds, source=self.ruleset.source)
        self.deep = True
        self.state: State | None = None
        self.knowledge: list[set[int]] = [set() for _ in range(self.n)]
        self.oracle = self._layout()
        self.actions_in_deal = 0
        self.irregular_actions = 0
        self.events_seen = 0
        self.previous_legal: list[str] = []
        self.chosen_clone: State | None = None
        self.in_flight: tuple[int, str] | None = None  # (actions before it, text) of the action being applied

    # -------------------------------------------------------- reporting
    def fail(self, code: str, message: str) -> None:
        if code in self.skip:
            return
        actions = list(self.state.actions) if self.state is not None else []
        if self.in_flight is not None and len(actions) == self.in_flight[0]:
            actions.append(self.in_flight[1])  # found while this action was being carried out
        self.report.violations.append(Violation(code, message, len(actions), tuple(actions)))
        if self.stop_on_first or len(self.report.violations) >= 50:
            raise _StopRunError

    def guarded(self, what: str, fn: Callable[[], None]) -> None:
        try:
            fn()
        except _StopRunError:
            raise
        except Exception as err:  # noqa: BLE001 - any crash in a check is itself a finding
            self.fail("exception", f"{what} raised {type(err).__name__}: {err}\n{_short_tb(err)}")

    # -------------------------------------------------------- visibility oracle
    def _layout(self) -> list[tuple[str, str, int, str]]:
        """Zone instances (name, kind, owner, visibility) as the rule file declares them."""
        out: list[tuple[str, str, int, str]] = []
        for z in self.ruleset.rules.zones:
            owners = range(self.n) if z.owner == "player" else range(len(self.sides)) if z.owner == "side" else [-1]
            out.extend((z.name, z.owner, o, z.visibility) for o in owners)
        return out

    def oracle_mask(self, core: Core, z: int) -> int:
        if z in core.exposed:
            return self.all_mask
        _, kind, owner, vis = self.oracle[z]
        if vis == "public":
            return self.all_mask
        if vis == "owner" and kind == "player":
            return 1 << owner
        if vis == "owner" and kind == "side":
            return sum(1 << p for p in self.sides[owner])
        return 0

    def select_source(self, state: State) -> tuple[int, int] | None:
        """(actor, zone) when the actor is choosing cards from a zone: the actor sees it."""
        core = state.core
        if core.terminal:
            return None
        ins = self.program.instructions[core.pc]
        if isinstance(ins, Select):
            return ins.actor(core), ins.source(core)
        return None

    def visible(self, core: Core, p: int, source: tuple[int, int] | None = None) -> set[int]:
        seen: set[int] = set(core.tr_cards)
        for z, cards in enumerate(core.zones):
            if self.oracle_mask(core, z) >> p & 1 or (source is not None and source == (p, z)):
                seen.update(cards)
        return seen

    # -------------------------------------------------------- events (checked as emitted)
    def on_event(self, core: Core, i: int) -> None:
        full, public, mask = core.events[i]
        if full.get("type") == "deal":
            self.knowledge = [set() for _ in range(self.n)]
        for p in range(self.n):
            self.knowledge[p] |= self.visible(core, p)
            view = full if public is None or mask >> p & 1 else public
            named = {self.program.tables.index[c] for c in _card_strings(view, self.code_set)}
            leaked = named - self.knowledge[p]
            if leaked:
                self.fail("event-leak", f"event #{i} {_short(view)} shows seat {p} "
                          f"{' '.join(sorted(self.codes[c] for c in leaked))}, which it has never seen this deal")

    # -------------------------------------------------------- the run
    def run(self) -> Report:
        started = time.perf_counter()
        try:
            with _EmitHook(self):
                self._run()
        except _StopRunError:
            pass
        finally:
            self.report.seconds = time.perf_counter() - started
        return self.report

    def _run(self) -> None:
        program = self.program
        if len(program.zones) != len(self.oracle) or any(
                (zi.name, zi.kind, zi.owner) != o[:3] for zi, o in zip(program.zones, self.oracle, strict=False)):
            self.fail("layout", "the interpreter's zone instances differ from the rule file's zone declarations")
        try:
            state = new_game(self.ruleset, seed=self.seed, deck=self.deck, dealer=self.dealer, mode=self.mode)
        except _StopRunError:
            raise
        except Exception as err:  # noqa: BLE001
            self.fail("exception", f"new_game raised {type(err).__name__}: {err}")
            return
        self.state = self.report.state = state
        self.report.actions = state.actions
        step = 0
        while True:
            self.deep = step < self.max_actions
            self.check_state(state, step)
            self.report.steps = step + 1
            if self.deep:
                self.report.deep_steps = step + 1
            if state.is_terminal():
                self.report.terminal = True
                return
            if step >= self.max_actions and (not self.finish or step >= self.finish_limit):
                return
            action = self.choose(state, step)
            if action is None:
                return
            if self.deep:
                self.guarded("the illegal-action probes", lambda: self.probe_illegal(state))
                self.guarded("applying legal actions on clones", partial(self.apply_on_clones, state, action))
            self.previous_legal = state.legal_actions().texts() if self.deep else []
            self.apply(state, action)
            if self.deep:
                self.guarded("the determinism check", lambda: self.after_apply(state))
            step += 1

    def choose(self, state: State, step: int) -> Action | None:
        legal = state.legal_actions()
        if not legal:
            return None  # reported by the terminal check
        choices = self.choices
        pick: Action | str | int
        if choices is None:
            pick = self.rng.randrange(len(legal))
        elif hasattr(choices, "draw"):
            from hypothesis import strategies as st

            data = cast(DataLike, choices)
            pick = data.draw(st.integers(0, len(legal) - 1), label=f"action {step + 1}")
        elif callable(choices):
            pick = choices(state)
        else:
            seq = cast(Sequence[int | str], choices)
            if step >= len(seq):
                return None
            pick = seq[step]
        if isinstance(pick, Action):
            return pick
        if isinstance(pick, int):
            return legal[pick % len(legal)]
        try:
            text = state._canonical(pick)
        except InvalidActionError as err:
            self.fail("replay", f"the chosen action {pick!r} cannot be read: {err}")
            return None
        for a in legal:
            if a.text == text:
                return a
        self.fail("replay", f"the chosen action {pick!r} is not legal here ({state.why_illegal(pick)})")
        return None

    def apply(self, state: State, action: Action) -> None:
        before_deal = state.core.deal_no
        self.in_flight = (len(state.actions), action.text)
        try:
            state.apply(action)
        except _StopRunError:  # an event leaked while the action was carried out
            raise
        except Exception as err:  # noqa: BLE001
            self.fail("legal-apply", f"applying the legal action {action.text!r} raised {type(err).__name__}: {err}")
            return
        finally:
            self.in_flight = None
        if action.verb == "irregular":
            self.irregular_actions += 1
        self.actions_in_deal += 1
        per_deal = self.bounds.actions_per_deal
        if per_deal is not None and self.actions_in_deal > per_deal and not self.table:
            self.fail("match-length", f"{self.actions_in_deal} decisions in deal {before_deal + 1}; "
                      f"the rule file allows at most {per_deal}")
        if state.core.deal_no != before_deal:
            self.actions_in_deal = 0

    # -------------------------------------------------------- per-state checks
    def check_state(self, state: State, step: int) -> None:
        self.guarded("the basic checks", lambda: self.check_basic(state))
        if self.deep:
            self.guarded("the legal-action checks", lambda: self.check_legal(state))
            self.guarded("the visibility checks", lambda: self.check_visibility(state))
            self.guarded("the observation checks", lambda: self.check_observations(state))
            if (step + 1) % self.json_every == 0 or step + 1 >= self.max_actions or state.is_terminal():
                self.guarded("the JSON check", lambda: self.check_json(state))

    def check_basic(self, state: State) -> None:
        core, b = state.core, self.bounds
        legal = state.legal_actions()
        terminal = state.is_terminal()
        if terminal != (len(legal) == 0):
            self.fail("terminal", f"is_terminal() is {terminal} but there are {len(legal)} legal action(s)")
        player = state.current_player
        if terminal != (player is None):
            self.fail("terminal", f"is_terminal() is {terminal} but current_player is {player!r}")
        if player is not None and not (isinstance(player, int) and 0 <= player < self.n):
            self.fail("terminal", f"current_player {player!r} is not a seat")
        # every card in exactly one place
        everything = [c for z in core.zones for c in z] + list(core.tr_cards)
        if sorted(everything) != list(range(b.deck_size)):
            dup = sorted(c for c, k in Counter(everything).items() if k > 1)
            missing = sorted(set(range(b.deck_size)) - set(everything))
            where = {self.codes[c]: [self.program.zone_label(z) for z, zc in enumerate(core.zones) if c in zc]
                     + (["the trick"] if c in core.tr_cards else []) for c in dup}
            self.fail("cards", f"the deck is not in one piece: duplicated {where or 'none'}, "
                      f"missing {' '.join(self.codes[c] for c in missing) or 'none'}")
        for p in range(self.n):
            size = len(core.zones[self.program.hand + p])
            if size > b.hand:
                self.fail("hand-size", f"seat {p} holds {size} cards; the rule file allows at most {b.hand} ({b.hand_why})")
        deals = core.deal_no + 1
        limit = deals * b.score_per_deal + self.irregular_actions * b.irregularity_score
        for side, score in enumerate(core.scores):
            if not isinstance(score, int) or isinstance(score, bool):
                self.fail("score", f"side {side}'s score {score!r} is not an integer")
            elif abs(score) > limit:
                self.fail("score", f"side {side} has {score} after {deals} deal(s); at most {b.score_per_deal} "
                          f"per deal{'' if b.score_derived else ' (generous)'} is possible")
        if core.deal_no > b.deal_limit or (not terminal and core.deal_no >= b.deal_limit):
            self.fail("match-length", f"deal {core.deal_no + 1} started; the match allows {b.deal_limit} deals")
        total = b.actions_per_match
        if total is not None and not self.table and len(state.actions) > total:
            self.fail("match-length", f"{len(state.actions)} actions; the match should end within {total}")
        events = core.events
        if len(events) < self.events_seen:
            self.fail("events-log", f"the event log shrank from {self.events_seen} to {len(events)} events")
        self.events_seen = len(events)

    def check_legal(self, state: State) -> None:
        legal = state.legal_actions()
        texts = legal.texts()
        if len(set(texts)) != len(texts):
            dups = sorted({t for t in texts if texts.count(t) > 1})
            self.fail("legal-duplicate", f"legal actions listed twice: {dups}")
        again = state.clone()
        again._legal = None  # recompute instead of sharing the cache
        if again.legal_actions().texts() != texts:
            self.fail("legal-unstable", "the legal actions differ (or are in another order) when recomputed on a clone")
        if state.legal_actions().texts() != texts:
            self.fail("legal-unstable", "the legal actions changed when asked twice")
        for a in legal:
            if not state.is_legal(a.text):
                self.fail("legal-notation", f"is_legal({a.text!r}) is False for a listed action")
            if not state.is_legal(a.text.lower()):
                self.fail("legal-notation", f"is_legal({a.text.lower()!r}) is False; case should not matter")
            if state.why_illegal(a.text):
                self.fail("legal-notation", f"why_illegal({a.text!r}) explains why a legal action is illegal")

    def apply_on_clones(self, state: State, chosen: Action) -> None:
        legal = list(state.legal_actions())
        if len(legal) > self.apply_limit > 0:
            k = self.apply_limit
            picked = sorted({round(i * (len(legal) - 1) / (k - 1)) for i in range(k)}) if k > 1 else [0]
            sample = [legal[i] for i in picked]
        else:
            sample = legal
        if chosen not in sample:
            sample.append(chosen)
        self.chosen_clone = None
        for a in sample:
            c = state.clone()
            try:
                c.apply(a.text)
            except Exception as err:  # noqa: BLE001
                self.fail("legal-apply", f"the legal action {a.text!r} raised {type(err).__name__} on a clone: {err}")
                continue
            if a.text == chosen.text:
                self.chosen_clone = c

    def check_json(self, state: State) -> None:
        try:
            other = State.from_json(state.to_json())
        except Exception as err:  # noqa: BLE001
            self.fail("json", f"State.from_json(state.to_json()) raised {type(err).__name__}: {err}")
            return
        if other != state:
            self.fail("json", "State.from_json(state.to_json()) != state")
        if other.legal_actions().texts() != state.legal_actions().texts():
            self.fail("json", "the legal actions differ (or are in another order) after a JSON round trip")
        if other.current_player != state.current_player:
            self.fail("json", "current_player differs after a JSON round trip")

    def check_visibility(self, state: State) -> None:
        core = state.core
        for z in range(len(core.zones)):
            mask = self.program.zone_mask(core, z) & self.all_mask
            want = self.oracle_mask(core, z)
            if mask != want:
                self.fail("visibility", f"{self.program.zone_label(z)} is seen by seats {_seats(mask)} "
                          f"but the rule file says {_seats(want)}")

    def check_observations(self, state: State) -> None:
        core = state.core
        source = self.select_source(state)
        for p in range(self.n):
            self.knowledge[p] |= self.visible(core, p, source)
        omniscient = state.observation(None)
        try:
            json.dumps(omniscient)
        except (TypeError, ValueError) as err:
            self.fail("observation-json", f"observation(None) is not JSON-able: {err}")
        for p in range(self.n):
            obs = state.observation(p)
            try:
                json.dumps(obs)
            except (TypeError, ValueError) as err:
                self.fail("observation-json", f"observation({p}) is not JSON-able: {err}")
            hidden = [z for z in range(len(core.zones))
                      if not self.oracle_mask(core, z) >> p & 1 and source != (p, z) and core.zones[z]]
            cards = [c for z in hidden for c in core.zones[z]]
            if len(cards) < 2:
                continue
            swapped = state.clone()
            swapped._legal = None
            moved = cards[1:] + cards[:1]  # every card changes place
            i = 0
            for z in hidden:
                k = len(core.zones[z])
                swapped.core.zones[z] = moved[i:i + k]
                i += k
            after = swapped.observation(p)
            if after != obs:
                diff = sorted(k for k in set(obs) | set(after) if obs.get(k) != after.get(k))
                self.fail("observation-leak", f"observation({p}) changes ({', '.join(diff)}) when the cards hidden "
                          f"from seat {p} ({', '.join(sorted({self.program.zone_label(z) for z in hidden}))}) "
                          "trade places")

    # -------------------------------------------------------- illegal actions
    def probes(self, state: State) -> list[tuple[str, str]]:
        core = state.core
        legal = state.legal_actions()
        texts = set(legal.texts())
        verbs = sorted({a.verb for a in legal})
        actor = state.current_player
        out: list[tuple[str, str]] = [("nonsense-verb", "frobnicate"), ("empty", ""), ("unknown-card", "play ZZ")]
        held = set(core.zones[self.program.hand + actor]) if actor is not None else set()
        foreign = [c for c in range(len(self.codes)) if c not in held]
        if foreign:
            card = self.codes[foreign[self.rng.randrange(len(foreign))]]
            out.append(("foreign-card", f"play {card}"))
            for v in verbs:
                if v not in ("play", "bid", "name", "declare", "irregular", "pass") and any(a.args for a in legal if a.verb == v):
                    out.append(("wrong-verb-args", f"{v} {card}"))
        for v in verbs:
            if v not in texts:  # a verb that needs arguments, given none
                out.append(("bare-verb", v))
            if f"{v} none" not in texts and any(a.args and a.args[0] in self.code_set for a in legal if a.verb == v):
                out.append(("none-arg", f"{v} none"))
        if "play" not in verbs:
            out.append(("bare-verb", "play"))
        stale = [t for t in self.previous_legal if t not in texts]
        if stale:
            out.append(("stale", stale[self.rng.randrange(len(stale))]))
        irregularities = self.ruleset.rules.irregularities
        if not core.table and irregularities:
            irr = irregularities[self.rng.randrange(len(irregularities))]
            out.append(("irregular-strict", f"irregular {irr.name} {actor if actor is not None else 0}"))
        if "bid" in verbs:
            out.append(("huge-bid", "bid 1000000000000"))
        return [(k, t) for k, t in out if k not in self.skip_probes and t not in texts]

    def probe_illegal(self, state: State) -> None:
        for kind, text in self.probes(state):
            before = state.to_dict()
            before_obs = state.observation(None)
            before_legal = state.legal_actions().texts()
            try:
                state.apply(text)
            except (IllegalActionError, InvalidActionError):
                pass
            except Exception as err:  # noqa: BLE001
                self.fail("illegal-error", f"apply({text!r}) [{kind}] raised {type(err).__name__} "
                          f"instead of IllegalActionError or InvalidActionError: {err}")
                continue
            else:
                self.fail("illegal-accepted", f"apply({text!r}) [{kind}] was accepted but is not a legal action")
                return
            if (state.to_dict() != before or state.observation(None) != before_obs
                    or state.legal_actions().texts() != before_legal):
                self.fail("illegal-mutated", f"the refused action {text!r} [{kind}] changed the state")
                return
            if state.is_legal(text):
                self.fail("illegal-accepted", f"is_legal({text!r}) [{kind}] is True for a refused action")
            try:
                why = state.why_illegal(text)
            except Exception as err:  # noqa: BLE001
                self.fail("why-illegal", f"why_illegal({text!r}) [{kind}] raised {type(err).__name__}: {err}")
                continue
            if not why:
                self.fail("why-illegal", f"why_illegal({text!r}) [{kind}] gives no reason for a refused action")

    def after_apply(self, state: State) -> None:
        clone = self.chosen_clone
        if clone is not None and clone != state:
            self.fail("nondeterministic", "the same action gave a different state on a clone")
        self.chosen_clone = None


def _seats(mask: int) -> str:
    seats = [str(p) for p in range(mask.bit_length()) if mask >> p & 1]
    return "{" + ", ".join(seats) + "}"


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


def _short_tb(err: BaseException) -> str:
    frames = traceback.extract_tb(err.__traceback__)[-3:]
    return "".join(f"  at {Path(f.filename).name}:{f.lineno} in {f.name}\n" for f in frames).rstrip()


def _card_strings(value: Any, codes: frozenset[str]) -> Iterator[str]:
    """Card codes named anywhere in an event (free-text fields excepted)."""
    if isinstance(value, str):
        if value in codes:
            yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            if k not in _TEXT_KEYS:
                yield from _card_strings(v, codes)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _card_strings(v, codes)


# ---------------------------------------------------------------- entry points


def _as_ruleset(rules: Ruleset | str | Path) -> Ruleset:
    return rules if isinstance(rules, Ruleset) else tricklang.load(rules)


def check_invariants(
    ruleset: Ruleset | str | Path,
    *,
    seed: int = 0,
    choices: Choices = None,
    max_actions: int = 200,
    options: Mapping[str, Any] | None = None,
    mode: str = "strict",
    dealer: int | None = None,
    deck: Sequence[str] | None = None,
    finish: bool = False,
    finish_limit: int = 2_000_000,
    json_every: int = 50,
    apply_limit: int = 48,
    stop_on_first: bool = True,
    skip: Collection[str] = (),
    skip_probes: Collection[str] = (),
) -> Report:
    """Play one match of any rule file and check the invariants at every step.

    Args:
        ruleset: a loaded :class:`~tricklang.Ruleset`, or a path to load.
        seed: the game's seed (shuffles, first dealer) and the harness's own probes.
        choices: who decides: None (seeded random), a callable ``state -> Action | str |
            int`` (an int indexes the legal actions), a hypothesis ``st.data()`` object
            (each step draws an index, so that failures shrink), or a list of action
            texts or indices (the run stops when it is used up).
        max_actions: steps checked in full. With ``finish`` the match then goes on to
            its end with the cheap checks only (cards, hands, scores, terminal, deal and
            action bounds), so that "every match ends within the derived bound" is checked.
        json_every: how often (in steps) the JSON round trip is checked (it parses the rule
            file again and replays the whole match, ~0.1 s); the last fully checked step
            (or the end of the match, if sooner) is always checked.
        apply_limit: how many legal actions (evenly spread, the chosen one included) are
            applied on clones at each step.
        stop_on_first: stop at the first violation (the report then holds the shortest
            failing prefix of this run).
        skip: violation codes to ignore (for known, separately tracked bugs).
        skip_probes: kinds of illegal action not to try (see :data:`PROBES`).
    """
    rules = _as_ruleset(ruleset)
    run = _Run(rules, seed=seed, options=options, mode=mode, dealer=dealer, deck=deck, choices=choices,
               max_actions=max_actions, finish=finish, finish_limit=finish_limit, json_every=json_every,
               apply_limit=apply_limit, stop_on_first=stop_on_first, skip=skip, skip_probes=skip_probes)
    return run.run()


def replay(
    ruleset: Ruleset | str | Path,
    actions: Sequence[str],
    *,
    seed: int,
    options: Mapping[str, Any] | None = None,
    mode: str = "strict",
    dealer: int | None = None,
    deck: Sequence[str] | None = None,
    **kwargs: Any,
) -> Report:
    """Re-check a fixed action list deterministically (e.g. from a failure report)."""
    kwargs.setdefault("max_actions", len(actions) + 1)
    return check_invariants(ruleset, seed=seed, choices=list(actions), options=options, mode=mode,
                            dealer=dealer, deck=deck, **kwargs)


# ---------------------------------------------------------------- hypothesis


def options_strategy(ruleset: Ruleset) -> SearchStrategy[dict[str, Any]]:
    """Option values drawn from their declared domains (shrinking towards the defaults)."""
    from hypothesis import strategies as st

    parts: dict[str, SearchStrategy[Any]] = {}
    for o in ruleset.option_specs():
        if o.type == "bool":
            parts[o.name] = st.sampled_from([o.default, not o.default])
        elif o.type == "choice":
            parts[o.name] = st.sampled_from([o.default] + [c for c in o.choices if c != o.default])
        else:
            assert isinstance(o.default, int)
            lo = o.low if o.low is not None else o.default - 10
            hi = o.high if o.high is not None else o.default + 10
            parts[o.name] = st.one_of(st.just(o.default), st.integers(lo, hi))
    return st.fixed_dictionaries(parts)


def invariant_test(
    ruleset: Ruleset | str | Path,
    *,
    max_actions: int = 60,
    vary_options: bool = True,
    modes: Sequence[str] = ("strict", "table"),
    **kwargs: Any,
) -> Callable[[], None]:
    """A hypothesis test (call it, or wrap it in ``settings(...)``) checking a rule file.

    Seed, options, mode and every choice come from ``st.data()``, so a violation is
    shrunk by hypothesis to a short action sequence; the failure message holds the
    actions and Python code to replay them.
    """
    from hypothesis import given
    from hypothesis import strategies as st

    rules = _as_ruleset(ruleset)
    has_table = bool(rules.rules.irregularities)
    mode_choices = [md for md in modes if md == "strict" or has_table] or ["strict"]

    @given(data=st.data())
    def check(data: Any) -> None:
        seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
        opts = data.draw(options_strategy(rules), label="options") if vary_options else {}
        opts = {k: v for k, v in opts.items() if v != rules.options.get(k)}
        mode = data.draw(st.sampled_from(mode_choices), label="mode")
        report = check_invariants(rules, seed=seed, choices=data, options=opts, mode=mode,
                                  max_actions=max_actions, **kwargs)
        report.raise_if_failed()

    check.__name__ = f"invariants_of_{Path(rules.path).stem}"
    return check
