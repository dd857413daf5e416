"""What one deal can bring each side, derived from the rule file and its option values:
the least and the most points a side can end the deal with, and the total of all sides'
points when every deal ends with the same one (see :func:`derive_payoffs`). Game-AI
adapters read it to declare a game zero-sum or constant-sum, with tight utility bounds.

It covers strict play (irregularities are not recorded) from the start of a deal to its
end or abandonment. The derivation is sound, not complete: where it cannot prove a
bound it falls back to the static one of :func:`tricklang.bounds.derive_bounds`, and
where it cannot prove a fixed total it says why.

>>> import tricklang
>>> rules = tricklang.loads('''
... tricklang 1
... game "Two tricks"
... players 2
... deck
...   suits spades black, hearts red
...   ranks A K
... zone hand: per player, owner
... zone stock: shared, hidden, pack
... zone won: per player, public
... deal
...   deal 2 to each
...   tricks 2, left of dealer leads first
...   for each player:
...     player scores tricks(player) "tricks"
... ''')
>>> p = derive_payoffs(rules)
>>> (p.low, p.high, p.total)
(0, 2, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import model as m
from .bounds import derive_bounds
from .deck import CardModel
from .deck import deck_size as full_deck_size
from .ruleset import Ruleset
from .types import BUILTIN_PLAYERS, LOOP_NAMES
from .walk import fold, fold_int, statements

__all__ = ["DealPayoffs", "derive_payoffs"]

Interval = tuple[int, int]


@dataclass(frozen=True)
class DealPayoffs:
    """The points one side can end a deal with (see :func:`derive_payoffs`)."""

    low: int
    """The least points a side can end a deal with (never above 0: a deal may be abandoned)."""
    high: int
    """The most points a side can end a deal with (never below 0)."""
    total: int | None
    """What all sides' points always add up to at the end of a deal, or None."""
    derived: bool
    """True when ``low``/``high`` were derived statement by statement; False when they are
    the static bound's ``-score_per_deal``/``+score_per_deal``."""
    why: str
    """How ``total`` was found, or why there is none."""


def derive_payoffs(ruleset: Ruleset) -> DealPayoffs:
    """The least and most points a side can end one deal with, and their fixed total.

    * Bounds: each ``scores``/``loses`` statement adds, to whichever side it names, a
      value within its amount's interval (``tricks(x)`` lies in 0..the tricks of the
      deal, ``count(...)`` in 0..the deck, ``points(...)`` between the negative and the
      positive point values of the deck, a bid within the auctions' range, options at
      their values, conditions on options decided); each statement counts from 0 (it
      may not run, a deal may be abandoned, ``cancel`` takes points back), times how
      often it may run for one side: once per member of the side in a ``for each
      player`` loop that names the player, once per run otherwise; the largest branch
      of an ``if`` or a choice. When an amount has no derivable interval (it reads
      ``score(...)``, a counter, a variable that adds to itself), the static bound
      applies.
    * Total: a deal whose statements all run straight through (no early end, no redeal,
      no auction that all may pass, no ``cancel``, no declaration, no match target
      reached at once, no branches that add different totals), whose hands are dealt
      in fixed packets to each player, and whose scores go to a seat fixed from the
      dealer (or the player or side of a ``for each``) with amounts that are constants
      or ``tricks(player)`` summed by ``for each player`` (``tricks(side)`` by ``for
      each side``): their sum is fixed, as every trick is won by one player. Otherwise
      ``total`` is None and ``why`` says why.
    """
    rules = ruleset.rules
    assert rules.deck is not None and rules.players is not None
    walker = _Walker(ruleset)
    gain = walker.gain(rules.deal, loop=None, mult=1)
    total, why = _Total(walker).derive(rules)
    if gain is None:
        bound = derive_bounds(ruleset).score_per_deal
        return DealPayoffs(-bound, bound, total, False, why)
    return DealPayoffs(min(gain[0], 0), max(gain[1], 0), total, True, why)


def _add(a: Interval, b: Interval) -> Interval:
    return a[0] + b[0], a[1] + b[1]


def _scale(a: Interval, k: int) -> Interval:
    return min(a[0] * k, a[1] * k), max(a[0] * k, a[1] * k)


def _hull(*parts: Interval) -> Interval:
    return min(p[0] for p in parts), max(p[1] for p in parts)


class _Walker:
    """Intervals of integer expressions, and what blocks of statements add to a side."""

    def __init__(self, ruleset: Ruleset) -> None:
        rules = ruleset.rules
        assert rules.deck is not None and rules.players is not None
        self.rules = rules
        self.n = rules.players.count
        self.side_sizes = [len(t) for t in rules.players.teams] or [1] * self.n
        self.deck = full_deck_size(rules.deck)
        self.env = self._env(ruleset)
        self.cards = CardModel(rules.deck, rules.points, rules.orders)
        self.assigned: dict[str, list[m.Expr]] = {}
        self._collect(rules.deal)
        self._visiting: set[str] = set()
        self._estimates: dict[str, Interval | None] = {}
        self._known: dict[str, Interval | None] = {}
        limit = rules.match.deal_limit if rules.match is not None and rules.match.deal_limit else 1000
        self.deal_numbers = (1, limit)
        self.tricks = self._tricks_bound()
        self.bids = self._bid_range()

    def _env(self, ruleset: Ruleset) -> dict[str, Any]:
        """Option values, and the values of choice options as names (where no other name
        is spelled the same), so that ``scoring == every_trick`` folds."""
        rules = ruleset.rules
        taken = {*BUILTIN_PLAYERS, *LOOP_NAMES, *(r.name for r in rules.roles), *(z.name for z in rules.zones),
                 *(o.name for o in rules.options), *(st.name for st in statements(rules.deal) if isinstance(st, m.Let))}
        env: dict[str, Any] = {}
        for opt in rules.options:
            for choice in opt.choices:
                if choice not in taken:
                    env[choice] = choice
        env.update(ruleset.options)
        return env

    def _collect(self, stmts: Sequence[m.Statement]) -> None:
        """The values given to each variable by the statements the options leave in play."""
        for st in stmts:
            if isinstance(st, m.Let):
                self.assigned.setdefault(st.name, []).append(st.value)
            for body in self.live_bodies(st):
                self._collect(body)

    def live_bodies(self, st: m.Statement) -> list[Sequence[m.Statement]]:
        """The blocks of a statement that may run, given the options (all, but for the
        branches of an ``if`` that the options rule out)."""
        if not isinstance(st, m.If):
            return _bodies(st) + [d.body for d in st.declarations] if isinstance(st, m.Tricks) else _bodies(st)
        live: list[Sequence[m.Statement]] = []
        for cond, body in st.branches:
            settled = self.decided(cond)
            if settled is True:
                return [*live, body]
            if settled is None:
                live.append(body)
        return [*live, st.orelse]

    def const(self, e: m.Expr | None) -> int | None:
        return fold_int(e, self.env)

    def decided(self, cond: m.Expr) -> bool | None:
        """A condition's value when options settle it, else None."""
        v = fold(cond, self.env)
        return v if isinstance(v, bool) else None

    def _tricks_bound(self) -> int:
        """The most tricks one deal can have (the sum of the constant `tricks N`; the deck else)."""
        if any(isinstance(st, m.ReplayTricks) for st in statements(self.rules.deal)):
            return self.deck
        total = self._tricks_in(self.rules.deal, 1)
        return self.deck if total is None else min(total, self.deck)

    def _tricks_in(self, stmts: Sequence[m.Statement], mult: int) -> int | None:
        """The most tricks a block plays: in sequence they add up, of the branches of an
        ``if`` or a choice one runs, a loop's body runs as often as the loop may."""
        total = 0
        for st in stmts:
            if isinstance(st, m.Tricks):
                count = self.interval(st.count)
                if count is None:
                    return None
                total += max(count[1], 0) * mult
                continue
            k = self._runs(st)
            inner = [self._tricks_in(body, mult * (k or 0)) for body in self.live_bodies(st)]
            if k is None or any(i is None for i in inner):
                return None
            counts = [i for i in inner if i is not None]
            total += max(counts, default=0) if isinstance(st, (m.If, m.Choose)) else sum(counts)
        return total

    def _runs(self, st: m.Statement) -> int | None:
        """How often a statement's blocks may run per run of the statement."""
        if isinstance(st, m.Repeat):
            return self.const(st.bound)
        if isinstance(st, m.ForEach):
            return self.n if st.kind == "player" else len(self.side_sizes)
        return 1

    def _bid_range(self) -> Interval | None:
        parts: list[Interval] = [(0, 0)]
        for st in statements(self.rules.deal):
            exprs: list[m.Expr | None] = []
            if isinstance(st, m.Auction):
                exprs = [st.low, st.high, st.all_pass_bid]
            elif isinstance(st, m.Bid):
                exprs = [st.low, st.high]
            elif isinstance(st, m.Let) and st.name == "bid":
                exprs = [st.value]
            for e in exprs:
                if e is None:
                    continue
                iv = self.interval(e) if not (isinstance(e, m.Name) and e.name == "bid") else (0, 0)
                if iv is None:
                    return None
                parts.append(iv)
        return _hull(*parts)

    # -------------------------------------------------------- expressions
    def interval(self, e: m.Expr) -> Interval | None:
        """The least and most values of an integer expression, or None."""
        c = self.const(e)
        if c is not None:
            return c, c
        if isinstance(e, m.Name):
            return self._name(e.name)
        if isinstance(e, m.Neg):
            iv = self.interval(e.operand)
            return None if iv is None else (-iv[1], -iv[0])
        if isinstance(e, m.BinOp):
            return self._binop(e)
        if isinstance(e, m.Call):
            return self._call(e)
        return None

    def _name(self, name: str) -> Interval | None:
        if name == "bid":
            return getattr(self, "bids", None)
        if name == "deal_number":
            return self.deal_numbers
        if name not in self.assigned:
            return None
        if name in self._visiting:  # a value that reads the variable itself: its estimate so far
            return self._estimates.get(name)
        if not self._visiting and name in self._known:
            return self._known[name]
        self._visiting.add(name)
        try:
            found = self._fixed_point(name)
        finally:
            self._visiting.discard(name)
            self._estimates.pop(name, None)
        if not self._visiting:
            self._known[name] = found
        return found

    def _fixed_point(self, name: str) -> Interval | None:
        """The hull of every value a variable is given, those that read it included
        (``set size = max(1, min(size, max_cards))``); None when it keeps growing
        (``set total = total + points(player)``) or a value has no interval."""
        first = [iv for iv in (self.interval(v) for v in self.assigned[name]) if iv is not None]
        if not first:
            return None
        estimate = _hull(*first)
        for _ in range(8):
            self._estimates[name] = estimate
            parts = [self.interval(v) for v in self.assigned[name]]
            known = [p for p in parts if p is not None]
            if len(known) != len(parts):
                return None
            grown = _hull(estimate, *known)
            if grown == estimate:
                return estimate
            estimate = grown
        return None

    def _binop(self, e: m.BinOp) -> Interval | None:
        a, b = self.interval(e.left), self.interval(e.right)
        if a is None or b is None:
            return None
        if e.op == "+":
            return _add(a, b)
        if e.op == "-":
            return a[0] - b[1], a[1] - b[0]
        if e.op == "*":
            products = [x * y for x in a for y in b]
            return min(products), max(products)
        if e.op == "%" and b[0] == b[1] and b[0] > 0 and a[0] >= 0:
            return 0, b[0] - 1
        return None

    def _call(self, e: m.Call) -> Interval | None:
        if e.name == "count":
            return 0, self.deck
        if e.name == "tricks":
            return 0, self.tricks
        if e.name == "bids":  # (None while the bids' own range is being worked out: `set high = bids(P)`)
            bids = getattr(self, "bids", None)
            return None if bids is None else (0, max(bids[1], 0))
        if e.name == "points":
            table = e.args[1].value.name if len(e.args) > 1 and isinstance(e.args[1].value, m.Name) else ""
            rows = self.cards.point_values.get(table)
            if not rows:
                return None
            return min(sum(min(v, 0) for v in row) for row in rows), max(sum(max(v, 0) for v in row) for row in rows)
        if e.name in ("min", "max"):
            parts = [self.interval(a.value) for a in e.args]
            known = [p for p in parts if p is not None]
            if len(known) != len(parts) or not known:
                return None
            pick = min if e.name == "min" else max
            return pick(p[0] for p in known), pick(p[1] for p in known)
        return None

    def linear(self, e: m.Expr, loop: str | None) -> tuple[int, int] | None:
        """``(a, c)`` with the amount ``a * tricks(loop variable) + c``, or None."""
        c = self.const(e)
        if c is not None:
            return 0, c
        if isinstance(e, m.Call) and e.name == "tricks" and loop is not None and len(e.args) == 1:
            arg = e.args[0].value
            return (1, 0) if isinstance(arg, m.Name) and arg.name == loop else None
        if isinstance(e, m.Neg):
            inner = self.linear(e.operand, loop)
            return None if inner is None else (-inner[0], -inner[1])
        if isinstance(e, m.BinOp) and e.op in ("+", "-", "*"):
            a, b = self.linear(e.left, loop), self.linear(e.right, loop)
            if a is None or b is None:
                return None
            if e.op == "+":
                return a[0] + b[0], a[1] + b[1]
            if e.op == "-":
                return a[0] - b[0], a[1] - b[1]
            if a[0] == 0:
                return a[1] * b[0], a[1] * b[1]
            return (a[0] * b[1], a[1] * b[1]) if b[0] == 0 else None
        return None

    # -------------------------------------------------------- statements
    def gain(self, stmts: Sequence[m.Statement], *, loop: str | None, mult: int) -> Interval | None:
        """What a block adds to one side's points: each statement from 0 (it may not run
        or be cancelled); ``loop``: the loop kind whose variable names the side once per
        member (``player``) or once (``side``); ``mult``: how often the block runs."""
        total: Interval = (0, 0)
        for st in stmts:
            part = self._gain_of(st, loop, mult)
            if part is None:
                return None
            total = _add(total, part)
        return total

    def _gain_of(self, st: m.Statement, loop: str | None, mult: int) -> Interval | None:
        if isinstance(st, m.Score):
            amount = self.interval(st.amount)
            if amount is None:
                return None
            if st.negative:
                amount = (-amount[1], -amount[0])
            if not (loop is not None and isinstance(st.who, m.Name) and st.who.name == loop):
                return _scale(_hull(amount, (0, 0)), mult)
            runs = len(self.side_sizes) if loop == "side" else self.n
            members = {1} if loop == "side" else set(self.side_sizes)
            form = self.linear(st.amount, loop) if loop in ("player", "side") else None
            if form is not None and mult == runs:
                # `player scores a * tricks(player) + c`: a side's members share the tricks
                a, c = form
                share = _hull(*(_add(_scale((0, self.tricks), a), (k * c, k * c)) for k in members))
                return _hull(share if not st.negative else (-share[1], -share[0]), (0, 0))
            return _scale(_hull(amount, (0, 0)), mult // runs * max(members))
        if isinstance(st, (m.If, m.Choose)):
            return self._branches(st, loop, mult)
        if isinstance(st, m.Tricks):
            return self._declarations(st, mult)
        if isinstance(st, m.ForEach):
            inner = None if st.exclude is not None else st.kind
            return self.gain(st.body, loop=inner, mult=mult * (self.n if st.kind == "player" else len(self.side_sizes)))
        if isinstance(st, m.Repeat):
            k = self.const(st.bound)
            return None if k is None else self.gain(st.body, loop=None, mult=mult * max(k, 0))
        if isinstance(st, m.Phase):
            return self.gain(st.body, loop=loop, mult=mult)
        return (0, 0) if isinstance(st, _NEVER_SCORES) else None

    def _declarations(self, st: m.Tricks, mult: int) -> Interval | None:
        """Each player may make each declaration (by name) once a deal: per name, the
        largest body of those whose condition the options do not rule out, once per
        member of the side when it scores to the declarer, once per player otherwise."""
        total: Interval = (0, 0)
        for name in dict.fromkeys(d.name for d in st.declarations):
            bodies = [d.body for d in st.declarations
                      if d.name == name and (d.guard is None or self.decided(d.guard) is not False)]
            parts = [self.gain(b, loop="declarer", mult=mult * self.n) for b in bodies]
            known = [p for p in parts if p is not None]
            if len(known) != len(parts):
                return None
            if known:
                total = _add(total, _hull(*known))
        return total

    def _branches(self, st: m.If | m.Choose, loop: str | None, mult: int) -> Interval | None:
        parts = [self.gain(b, loop=loop, mult=mult) for b in self.live_bodies(st)]
        known = [p for p in parts if p is not None]
        return _hull(*known) if len(known) == len(parts) and known else None


class _UnfixedError(Exception):
    """The total of a deal cannot be shown to be fixed (the message says why)."""


@dataclass
class _Course:
    """Where a straight-through deal stands: the total so far, the tricks played, each
    player's number of cards (None: not fixed) and the cards taken from the pack."""

    total: int = 0
    played: int | None = 0
    hand: int | None = 0
    used: int | None = 0


class _Total:
    """Follows a deal that runs straight through, adding up what its scores give all sides."""

    def __init__(self, walker: _Walker) -> None:
        self.w = walker
        self.roles = {r.name: r.value for r in walker.rules.roles}

    def derive(self, rules: m.RuleFile) -> tuple[int | None, str]:
        if rules.match is not None and rules.match.target is not None and rules.match.target_when == "at_once":
            return None, "the match may end as soon as a side reaches the target, in the middle of a deal"
        course = _Course()
        try:
            self.block(rules.deal, course, loop=None)
        except _UnfixedError as why:
            return None, str(why)
        return course.total, "every statement runs straight through and its scores add up to a fixed total"

    def block(self, stmts: Sequence[m.Statement], course: _Course, loop: str | None) -> None:
        for st in stmts:
            self.step(st, course, loop)

    def step(self, st: m.Statement, course: _Course, loop: str | None) -> None:  # noqa: C901 - one case per kind
        w = self.w
        if loop is not None and isinstance(st, (m.DealCards, m.TurnUp, m.Tricks, m.ForEach)):
            raise _UnfixedError("cards are dealt, tricks played or a loop run inside a 'for each'")
        if isinstance(st, m.Phase):
            self.block(st.body, course, loop)
        elif isinstance(st, m.DealCards):
            packets = [w.const(p) for p in st.packets]
            if course.hand is None or any(p is None for p in packets):
                raise _UnfixedError("a packet's size is not fixed")
            dealt = sum(max(p, 0) for p in packets if p is not None)
            course.hand += dealt
            self._take(course, w.n * dealt)
        elif isinstance(st, m.TurnUp):
            c = w.const(st.count)
            if c is None:
                raise _UnfixedError("the number of cards turned up is not fixed")
            self._take(course, max(c, 0))
        elif isinstance(st, m.Tricks):
            self._tricks(st, course)
        elif isinstance(st, m.Score):
            self._score(st, course, loop)
        elif isinstance(st, m.ForEach):
            if st.exclude is not None:
                raise _UnfixedError("a 'for each' leaves somebody out")
            self.block(st.body, course, st.kind)  # once: _score counts every run
        elif isinstance(st, (m.If, m.Choose)):
            self._branches(st, course, loop)
        elif isinstance(st, (m.Discard, m.Draw, m.Take, m.Keep, m.Move)):
            course.hand = None  # the hands' sizes are no longer known (a later trick play cannot be counted)
        elif isinstance(st, m.Auction) and st.all_pass == "redeal":
            raise _UnfixedError("an auction that everybody passes abandons the deal")
        elif not isinstance(st, _STRAIGHT):
            raise _UnfixedError(f"a '{_WORDS.get(type(st).__name__, type(st).__name__.lower())}' statement may change "
                           "the total or end the deal early")

    def _take(self, course: _Course, cards: int) -> None:
        if course.used is None or course.used + cards > self.w.deck:
            raise _UnfixedError("the pack may run out")
        course.used += cards

    def _tricks(self, st: m.Tricks, course: _Course) -> None:
        if any(d.guard is None or self.w.decided(d.guard) is not False for d in st.declarations):
            raise _UnfixedError("declarations during trick play may score")
        count = self.w.const(st.count)
        if count is None or course.hand is None:
            raise _UnfixedError("the number of tricks played is not fixed")
        k = min(max(count, 0), course.hand)  # each trick takes one card from every hand
        course.played = None if course.played is None else course.played + k
        course.hand -= k

    def _score(self, st: m.Score, course: _Course, loop: str | None) -> None:
        if not self._someone(st.who, loop):
            raise _UnfixedError("a score may go to nobody")
        form = self.w.linear(st.amount, loop)
        if form is None:
            raise _UnfixedError("an amount is neither a constant nor the tricks of the player (or side) of a 'for each'")
        a, c = form
        if a and course.played is None:
            raise _UnfixedError("the number of tricks played is not fixed")
        # Inside a 'for each' (walked once) the statement runs once per player (side):
        # the constants add up that often, and a * tricks(player) to a * the tricks played.
        runs = self.w.n if loop == "player" else len(self.w.side_sizes) if loop == "side" else 1
        course.total += (-1 if st.negative else 1) * (runs * c + a * (course.played or 0))

    def _someone(self, who: m.Expr, loop: str | None, seen: frozenset[str] = frozenset()) -> bool:
        """Whether a score's target is always a seat or side: the dealer, a role defined
        from him (``left of dealer``), the player or side of a ``for each`` (not a
        variable or a role that may be nobody)."""
        if isinstance(who, m.Name):
            if who.name in ("dealer", loop):
                return True
            role = self.roles.get(who.name)
            return role is not None and who.name not in seen and self._someone(role, None, seen | {who.name})
        if isinstance(who, m.Of):
            return who.name in ("left", "right", "partner", "side", "opponents") and self._someone(who.arg, loop, seen)
        return False

    def _branches(self, st: m.If | m.Choose, course: _Course, loop: str | None) -> None:
        bodies = self.w.live_bodies(st)
        ends = []
        for body in bodies:
            trial = _Course(course.total, course.played, course.hand, course.used)
            self.block(body, trial, loop)
            ends.append(trial)
        if any(e.total != ends[0].total for e in ends):
            raise _UnfixedError("the branches of an 'if' or a choice add different totals")

        def same(values: list[int | None]) -> int | None:
            return values[0] if all(v == values[0] for v in values) else None

        course.total = ends[0].total  # what the branches leave unlike is no longer known:
        course.played = same([e.played for e in ends])  # a later tricks() cannot be summed,
        course.hand = same([e.hand for e in ends])  # a later trick play not counted,
        course.used = same([e.used for e in ends])  # a later packet not checked against the pack


_STRAIGHT = (m.SetTrump, m.NameTrump, m.Let, m.Pass, m.EndMatch, m.Cut, m.BecomesDealer, m.Leads, m.Expose, m.Forbid,
             m.Add, m.Bid, m.Auction)
"""Statements that neither score nor end the deal early (an auction only when all
passing does not abandon the deal: see :meth:`_Total.step`)."""
_WORDS = {"EndDeal": "end the deal", "Redeal": "redeal", "Cancel": "cancel", "Repeat": "repeat",
          "StopLoop": "stop", "ReplayTricks": "replay the tricks"}


def _bodies(st: m.Statement) -> list[Sequence[m.Statement]]:
    """The blocks directly inside a statement (a declaration's body is not among them)."""
    found: list[Sequence[m.Statement]] = []
    if isinstance(st, m.If):
        found.extend(b for _, b in st.branches)
        found.append(st.orelse)
    elif isinstance(st, m.Choose):
        found.extend(o.body for o in st.options)
    elif isinstance(st, (m.Repeat, m.ForEach, m.Phase)):
        found.append(st.body)
    return found


_NEVER_SCORES = (m.Bid, m.Add, m.DealCards, m.TurnUp, m.SetTrump, m.NameTrump, m.Let, m.StopLoop, m.Pass, m.EndDeal,
                 m.Discard, m.Take, m.Keep, m.Cut, m.Leads, m.ReplayTricks, m.BecomesDealer, m.Draw, m.Move, m.EndMatch,
                 m.Redeal, m.Expose, m.Forbid, m.Cancel, m.Auction)
"""Statements that add no points (``cancel`` and a redeal take points back: every
statement's interval holds 0, so any part of the points taken back stays within it)."""
