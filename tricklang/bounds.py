"""Static bounds of a rule file: the most cards a hand may hold, the most points one
deal may bring, the most decisions one deal may need and the most deals a match may
last, derived from the rule file and its option values alone (see :func:`derive_bounds`).
The runtime's invariant harness checks every run against them.

>>> import tricklang
>>> derive_bounds(tricklang.load("rules/ecarte.trick")).hand
5
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import model as m
from .deck import CardModel
from .ruleset import Ruleset
from .walk import fold_int, statements

__all__ = ["DEFAULT_DEAL_LIMIT", "GENEROUS_SCORE_PER_DEAL", "Bounds", "derive_bounds"]

DEFAULT_DEAL_LIMIT = 1000
"""The most deals a match may last when the rule file does not say (``at most N deals``)."""

GENEROUS_SCORE_PER_DEAL = 1_000_000
"""The score bound per deal when the rule file's score amounts cannot be bounded."""


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
    ev = _Bounder(rules, dict(ruleset.options), n, sides, deck_size, CardModel(rules.deck, rules.points).point_bound())
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


class _Bounder:
    """Bounds on the values of expressions and on what blocks of statements may do."""

    def __init__(self, rules: m.RuleFile, options: dict[str, Any], n: int, sides: int, deck: int, points: int) -> None:
        self.rules = rules
        self.options = options
        self.n = n
        self.sides = sides
        self.deck = deck
        self.points = points
        self.has_cancel = any(isinstance(st, m.Cancel) for st in statements(rules.deal))
        self.irregular_cancel = any(isinstance(s, m.Cancel) for irr in rules.irregularities for s in statements(irr.body))
        self.assigned: dict[str, list[m.Expr]] = {}
        for st in list(statements(rules.deal)) + [s for irr in rules.irregularities for s in statements(irr.body)]:
            if isinstance(st, m.Let):
                self.assigned.setdefault(st.name, []).append(st.value)
        self._visiting: set[str] = set()
        highs = [self.abs_bound(st.high) for st in statements(rules.deal) if isinstance(st, m.Auction)]
        highs += [self.abs_bound(st.all_pass_bid) for st in statements(rules.deal)
                  if isinstance(st, m.Auction) and st.all_pass_bid is not None]
        self.bid: int | None = 0 if not highs else None if any(h is None for h in highs) else max(h for h in highs if h is not None)

    # -------------------------------------------------------- expressions
    def const(self, e: m.Expr | None) -> int | None:
        """An integer constant (literals and int options at their values), else None."""
        return fold_int(e, self.options)

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
    # A kind of statement not listed in the tables below makes the bound that
    # depends on it unknown (None) rather than wrong.
    def _times(self, st: Any) -> int:
        if isinstance(st, m.Repeat):
            return st.bound.value if isinstance(st.bound, m.IntLit) else 10_000
        return self.n if getattr(st, "kind", "player") == "player" else self.sides

    def _blocks(self, st: Any) -> tuple[str, list[Sequence[m.Statement]]] | None:
        """('all' | 'one' | 'loop', bodies) for a statement holding blocks, else None."""
        bodies: list[Sequence[m.Statement]]
        if isinstance(st, m.If):
            bodies = [b for _, b in st.branches]
            return "one", [*bodies, st.orelse]
        if isinstance(st, m.Choose):
            return "one", [o.body for o in st.options]
        if isinstance(st, (m.Repeat, m.ForEach)):
            return "loop", [st.body]
        if isinstance(st, m.Phase):
            return "all", [st.body]
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

    def _sum(self, stmts: Sequence[m.Statement], one: Callable[[m.Statement], int | None]) -> int | None:
        """The sum of ``one`` over a block's statements; None as soon as one is unknown."""
        total = 0
        for st in stmts:
            v = one(st)
            if v is None:
                return None
            total += v
        return total

    def score_total(self, stmts: Sequence[m.Statement]) -> int | None:
        return self._sum(stmts, self._score_of)

    def zone_fill(self, name: str, stmts: Sequence[m.Statement]) -> int | None:
        """The most cards the deal puts in zone ``name`` (turned up there), or None when
        anything else puts cards there (a bound on what `takes all from Z` takes)."""
        return self._sum(stmts, lambda st: self._fill_of(name, st))

    def _fill_of(self, name: str, st: m.Statement) -> int | None:
        if self._blocks(st) is not None:
            return self._fold(st, lambda body: self.zone_fill(name, body))
        if isinstance(st, m.TurnUp):
            return self.abs_bound(st.count) if st.to.name == name else 0
        if isinstance(st, m.Keep):
            return None if name == (st.rest or st.source).name else 0
        if isinstance(st, (m.Move, m.Discard)):
            return None if st.to.name == name else 0
        return 0 if isinstance(st, (_NO_SCORE, m.Score, m.Tricks)) else None

    def _score_of(self, st: m.Statement) -> int | None:
        if isinstance(st, m.Score):
            return self.abs_bound(st.amount)
        if isinstance(st, m.Tricks):
            parts = [self.score_total(d.body) for d in st.declarations]
            return None if any(p is None for p in parts) else sum(p for p in parts if p is not None) * self.n
        if self._blocks(st) is not None:
            return self._fold(st, self.score_total)
        return 0 if isinstance(st, _NO_SCORE) else None

    def decisions(self, stmts: Sequence[m.Statement]) -> int | None:
        return self._sum(stmts, self._decisions_of)

    def _decisions_of(self, st: m.Statement) -> int | None:
        if isinstance(st, m.Choose):
            inner = self._fold(st, self.decisions)
            return None if inner is None else 1 + inner
        if isinstance(st, _ONE_DECISION):
            return 1
        if isinstance(st, m.Keep):
            return 2 if st.choose else 1  # the cards taken (`takes any`), then those thrown
        if isinstance(st, m.Auction):
            if st.kind == "once_around":
                return self.n
            # every pass, and every bid above the last
            c_lo, c_hi = self.const(st.low), self.const(st.high)
            hi, lo = self.abs_bound(st.high), self.abs_bound(st.low)
            if c_lo is not None and c_hi is not None:
                return self.n + max(0, c_hi - c_lo + 1)
            return None if hi is None or lo is None else self.n + hi + lo + 1
        if isinstance(st, m.Tricks):
            count = self.const(st.count)
            plays = self.deck if count is None else min(self.deck, max(0, count) * self.n)
            v = plays + len({d.name for d in st.declarations}) * self.n
            if any(d.deadline == "after_leading_it" for d in st.declarations):
                v += plays  # at most one `declare NAME` / `continue` window after each lead
            return v
        if self._blocks(st) is not None:
            return self._fold(st, self.decisions)
        return 0 if isinstance(st, _NO_DECISION) else None

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
            elif isinstance(st, m.Keep):
                # `any`: he holds up to N more before discarding down to N; `all`: the whole zone
                add(self.abs_bound(st.count) if st.choose else self.zone_fill(st.source.name, self.rules.deal), mult)
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
            elif not isinstance(st, _NO_CARDS_TO_HAND):
                add(None, mult)
        return dealt, target, extra


_NO_SCORE = (m.DealCards, m.TurnUp, m.SetTrump, m.NameTrump, m.Let, m.StopLoop, m.Pass, m.EndDeal, m.Redeal, m.Expose, m.Forbid, m.Cancel, m.Discard, m.Take, m.Keep, m.Cut, m.Leads, m.ReplayTricks, m.BecomesDealer, m.Draw, m.Move, m.Auction, m.Bid, m.Add)
"""Statements that never score (a ``Cancel`` takes points back: see ``has_cancel``)."""
_ONE_DECISION = (m.Discard, m.Take, m.NameTrump, m.Bid)
_NO_DECISION = (m.DealCards, m.TurnUp, m.SetTrump, m.Score, m.Let, m.StopLoop, m.Pass, m.EndDeal, m.Redeal, m.Expose, m.Forbid, m.Cancel, m.Draw, m.Move, m.Cut, m.Leads, m.ReplayTricks, m.BecomesDealer, m.Add)
# `P leads` and `replay the tricks` give back cards played from the hand: never more than it held.
_NO_CARDS_TO_HAND = (m.SetTrump, m.NameTrump, m.Score, m.Let, m.StopLoop, m.Pass, m.EndDeal, m.Redeal, m.Cut, m.BecomesDealer, m.Leads, m.ReplayTricks, m.Expose, m.Forbid, m.Cancel, m.Auction, m.Tricks, m.Bid, m.Add)

