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
from .bids import expand
from .deck import NO_TRUMP, CardModel
from .deck import deck_size as full_deck_size
from .melds import instances
from .ruleset import Ruleset
from .walk import blocks, fold_int, statements

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
    deck_size = full_deck_size(rules.deck)
    ev = _Bounder(rules, dict(ruleset.options), n, sides, deck_size, CardModel(rules.deck, rules.points, rules.orders).point_bound())
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
        if isinstance(e, m.Of) and e.name in ("level", "worth") and self.rules.bids:
            found = expand(self.rules.bids[0], self.rules, self.options).bids
            return max((abs(b.level if e.name == "level" else (b.worth or 0)) for b in found), default=0)
        if isinstance(e, m.BinOp) and e.op in ("+", "-", "*"):
            a, b = self.abs_bound(e.left), self.abs_bound(e.right)
            if a is None or b is None:
                return None
            return a + b if e.op in ("+", "-") else a * b
        if isinstance(e, m.BinOp) and e.op == "/":
            return self.abs_bound(e.left)  # |a // b| <= |a| for any whole b other than 0
        if isinstance(e, m.Call):
            if e.name in ("count", "tricks"):
                return self.deck
            if e.name == "points":
                return self.points
            if e.name in ("melds", "melded"):
                return self.meld_points()
            if e.name == "abs" and e.args:
                return self.abs_bound(e.args[0].value)
            if e.name in ("min", "max"):
                vals = [self.abs_bound(a.value) for a in e.args]
                return None if any(v is None for v in vals) else max((v for v in vals if v is not None), default=0)
        return None

    def meld_points(self) -> int:
        """The most any cards may be worth under the file's meld tables: every meld of every line, at its
        higher value, under the trump that names the most (melded by every player)."""
        assert self.rules.deck is not None
        cards = CardModel(self.rules.deck)
        total = 0
        for table in self.rules.melds:
            for group in table.classes:
                for line in group.lines:
                    most = max(len(instances(line, cards, t if t < cards.nsuits else NO_TRUMP))
                               for t in range(cards.nsuits + 1))
                    total += most * max(abs(line.value), abs(line.double or 0))
        return total * self.n

    # -------------------------------------------------------- statements
    # Each pass reads the statements' facts (tricklang.model.statements.Stmt); a statement the
    # facts say may score, decide or move cards needs a rule here, else the pass raises TypeError.
    def _times(self, st: m.Statement) -> int:
        """How many times a loop may run its body."""
        if isinstance(st, m.Repeat):
            return st.bound.value if isinstance(st.bound, m.IntLit) else 10_000
        if isinstance(st, m.ForEach):
            return self.n if st.kind == "player" else self.sides
        if isinstance(st, m.ForCard):
            return self.deck
        raise TypeError(f"the static bounds do not know how often {type(st).__name__} loops")

    def _blocks(self, st: m.Statement) -> tuple[str, list[Sequence[m.Statement]]] | None:
        """('all' | 'one' | 'loop', bodies) for a statement holding blocks of the deal, else None
        (trick play's declarations are counted by the passes themselves)."""
        if st.runs in ("one", "all", "loop"):
            return st.runs, list(blocks(st))
        return None

    def _fold(self, st: m.Statement, fn: Callable[[Sequence[m.Statement]], int | None]) -> int | None:
        found = self._blocks(st)
        assert found is not None
        how, bodies = found
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
        return 0 if not st.scores or isinstance(st, (m.Score, m.Tricks)) else None  # (puts no card in a named zone)

    def _score_of(self, st: m.Statement) -> int | None:
        if isinstance(st, m.Score):
            return self.abs_bound(st.amount)
        if isinstance(st, m.Tricks):
            parts = [self._times_in_play(st, part) * v if v is not None else None
                     for part, body in self._play_bodies(st) for v in [self.score_total(body)]]
            return None if any(p is None for p in parts) else sum(p for p in parts if p is not None)
        if self._blocks(st) is not None:
            return self._fold(st, self.score_total)
        if not st.scores:
            return 0  # (a cancel takes points back: see has_cancel)
        raise TypeError(f"the static bounds do not know what {type(st).__name__} scores")

    def decisions(self, stmts: Sequence[m.Statement]) -> int | None:
        return self._sum(stmts, self._decisions_of)

    def _decisions_of(self, st: m.Statement) -> int | None:
        if isinstance(st, m.Choose):
            inner = self._fold(st, self.decisions)
            return None if inner is None else 1 + inner
        if isinstance(st, m.Keep):
            return 2 if st.choose else 1  # the cards taken (`takes any`), then those thrown
        if isinstance(st, (m.Auction, m.TableAuction)):
            return self._auction_calls(st)
        if isinstance(st, m.Tricks):
            v = self._plays(st) + len({d.name for d in st.declarations}) * self.n
            if any(d.deadline == "after_leading_it" for d in st.declarations):
                v += self._plays(st)  # at most one `declare NAME` / `continue` window after each lead
            for part, body in self._play_bodies(st):  # what the effects and hooks decide, each time they run
                inner = self.decisions(body)
                if inner is None:
                    return None
                v += inner * self._times_in_play(st, part)
            return v
        if isinstance(st, (m.Discard, m.Take, m.Shows, m.NameTrump, m.NameLed, m.Bid, m.TableBid)):
            return 1  # one choice of cards, one suit, one bid
        if self._blocks(st) is not None:
            return self._fold(st, self.decisions)
        if not st.decides:
            return 0
        raise TypeError(f"the static bounds do not know how many decisions {type(st).__name__} asks for")

    def _table_bids(self) -> int:
        return len(expand(self.rules.bids[0], self.rules, self.options).bids) if self.rules.bids else 0

    def _range_bids(self, st: m.Auction) -> int | None:
        lo, hi = self.const(st.low), self.const(st.high)
        step = self.const(st.step) if st.step is not None else 1
        return None if lo is None or hi is None or not step else max(0, (hi - lo) // max(1, step) + 1)

    def _plays(self, st: m.Tricks) -> int:
        """The most cards played in a trick play."""
        count = self.const(st.count)
        return self.deck if count is None else min(self.deck, max(0, count) * self.n)

    @staticmethod
    def _play_bodies(st: m.Tricks) -> list[tuple[m.Declaration | m.Hook, tuple[m.Statement, ...]]]:
        return [(d, d.body) for d in st.declarations] + [(h, h.body) for h in st.hooks]

    def _times_in_play(self, st: m.Tricks, part: m.Declaration | m.Hook) -> int:
        """How often a declaration's effect (once per player) or a hook (per card, or per trick) may run."""
        if isinstance(part, m.Declaration):
            return self.n
        if part.event in ("each_trick", "leading"):
            count = self.const(st.count)
            return self.deck if count is None else max(0, count)
        return self._plays(st)

    def _auction_calls(self, st: m.Auction | m.TableAuction) -> int | None:
        if st.kind == "once_around":
            return self.n
        if isinstance(st, m.TableAuction) or st.kind == "until_n_passes" or st.rules:
            # every call: a pass or a bid above the last, each bid open to doubling, redoubling and holds
            bids = self._table_bids() if isinstance(st, m.TableAuction) else self._range_bids(st)
            holds = sum(1 for rule in st.rules if rule.kind == "hold")
            return None if bids is None else (bids + 1) * (3 + holds) * self.n
        # every pass, and every bid above the last
        c_lo, c_hi = self.const(st.low), self.const(st.high)
        hi, lo = self.abs_bound(st.high), self.abs_bound(st.low)
        if c_lo is not None and c_hi is not None:
            return self.n + max(0, c_hi - c_lo + 1)
        return None if hi is None or lo is None else self.n + hi + lo + 1

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
            elif (found := self._blocks(st)) is not None:
                how, bodies = found
                k = mult * self._times(st) if how == "loop" else mult
                for body in bodies:
                    d, t, e = self._hand_walk(body, k)
                    dealt = None if d is None or dealt is None else dealt + d
                    target = max(target, t)
                    add(e, 1)
            elif isinstance(st, m.Tricks) and any(s.moves_cards for _, b in self._play_bodies(st) for s in statements(b)):
                add(None, mult)  # an effect or a hook that moves cards in the middle of trick play
            elif st.moves_cards and not isinstance(st, (m.Cut, m.Leads, m.ReplayTricks, m.Tricks)):
                # A cut keeps the cards where they are; a lead taken back or a replay gives back
                # cards played from the hand (never more than it held); trick play only takes.
                raise TypeError(f"the static bounds do not know what {type(st).__name__} adds to a hand")
        return dealt, target, extra
