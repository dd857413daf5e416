"""The checker's pass over bids: the bid table, auctions (over a number range or the table)
with their rules, and each player's own bid (see :class:`tricklang.checker.Checker` for
the codes; ``bad-bids`` and ``bad-auction`` are this module's)."""

from __future__ import annotations

from . import model as m
from .bids import MAX_BIDS, Expanded, expand
from .check_context import CheckerContext, StatementsContext
from .kinds import AUCTION_NAMES, BID, BOOL, INT, Scope, Type
from .types import bid_type
from .words import RESERVED_WORDS

CALL_WORDS = {"pass": "a player's pass", "double": "the call 'double'", "redouble": "the call 'redouble'",
              "hold": "the call 'hold'"}
"""The words of an auction's own calls, which a named bid may not take (``reserved-name``)."""


def check_tables(c: CheckerContext) -> Expanded | None:
    """The file's bid table (at most one: ``duplicate-name``), expanded, after reporting its problems."""
    rules = c.rules
    for extra in rules.bids[1:]:
        c.error("duplicate-name", f"bid table '{extra.name}': a rule file has one bid table", extra.span,
                f"the first is '{rules.bids[0].name}' on line {rules.bids[0].span.line}")
    if not rules.bids:
        return None
    table = rules.bids[0]
    found = expand(table, rules)
    for message, span in found.problems:
        code = "limit-exceeded" if f"more than {MAX_BIDS}" in message else "bad-bids"
        c.error(code, message, span)
    suits = {s.name for s in rules.deck.suits} if rules.deck is not None else set()
    orders = {"no_trump", *(o.name for o in rules.orders)}  # no trump and the file's named orders
    for line in table.lines:
        strains = [(s.name, s.span) for s in line.strains] if isinstance(line, m.BidGrid) else []
        if isinstance(line, m.NamedBid):
            if line.plays is not None:
                strains.append((line.plays, line.span))
            if line.name in CALL_WORDS or line.name in RESERVED_WORDS:
                c.error("reserved-name", f"a bid cannot be named '{line.name}': it is {CALL_WORDS.get(line.name, 'reserved')}",
                        line.span, "choose another name")
        for name, span in strains:
            if name not in suits and name not in orders:
                c.error("bad-bids", f"'{name}' is neither a suit nor a card order", span,
                        "a strain is a suit of the deck, 'no_trump', or an order the file declares")
    return found


class BidChecks:
    """Checks auctions and bids for a :class:`~tricklang.check_statements.StatementChecker`."""

    def __init__(self, statements_checker: StatementsContext) -> None:
        self.sc = statements_checker
        self.c = statements_checker.c
        self.bid_kind = bid_type(self.c.rules)

    def auction(self, st: m.Auction | m.TableAuction, scope: Scope) -> None:
        c = self.c
        c._seat(st.start, scope)
        if isinstance(st, m.TableAuction):
            self.table(st.table, st.span)
            value = self.bid_kind
        else:
            self.range(st.low, st.high, st.span, scope)
            self.sc._step(st.step, scope)
            self.not_mixed(st.span)
            value = INT
        players = c.rules.players.count if c.rules.players is not None else 16
        if st.kind == "until_n_passes" and not 1 <= (st.passes or 0) <= players:
            c.error("limit-exceeded", f"'until {st.passes} passes': a number of passes from 1 to {players}", st.span)
        if st.all_pass_maker is not None:
            c._seat(st.all_pass_maker, scope)
        if st.all_pass_bid is not None:
            c._expect(st.all_pass_bid, value, scope)
        if st.all_pass == "none":
            c.construct("Auction.no_contract", st.all_pass_span or st.span)
        for span in st.extra_all_pass:
            c.error("bad-auction", "an auction has one rule for when all pass", span)
        inner = scope.nested()
        inner.names.update({**AUCTION_NAMES, "high_bid": value})
        for rule in st.rules:
            self.rule(st, rule, inner)

    def rule(self, st: m.Auction | m.TableAuction, rule: m.AuctionRule, scope: Scope) -> None:
        c = self.c
        teams = c.rules.players is not None and bool(c.rules.players.teams)
        if rule.guard is not None:
            c._expect(rule.guard, BOOL, scope)
        if rule.kind == "double" and (not teams or st.kind == "once_around"):
            c.error("bad-auction", "'double and redouble' needs partnerships and an auction that goes on until "
                    "passes", rule.span)
        elif rule.kind == "first_of_side" and (not teams or not isinstance(st, m.TableAuction)
                                               or not self.has_strains()):
            c.error("bad-auction", "'first of the side to bid the strain declares' needs partnerships and a bid "
                    "table with strains", rule.span)
        elif rule.kind == "hold" and rule.who is not None:
            c._seat(rule.who, scope)
        elif rule.kind == "no_bid":
            named = {line.name for t in c.rules.bids for line in t.lines if isinstance(line, m.NamedBid)}
            if rule.bid not in named:
                c.error("undefined-name", f"no named bid '{rule.bid}' in the bid table", rule.span,
                        "bids: " + (", ".join(sorted(named)) or "none"))

    def bid(self, st: m.Bid | m.TableBid, scope: Scope) -> None:
        c = self.c
        c._seat(st.player, scope)
        value: Type = INT
        if isinstance(st, m.TableBid):
            self.table(st.table, st.span)
            value = self.bid_kind
        else:
            self.range(st.low, st.high, st.span, scope, hint="write the lowest bid first: 'bids 1..5'")
            self.sc._step(st.step, scope)
            self.not_mixed(st.span)
        for e in (st.above, st.forbidden):
            if e is not None:
                c._expect(e, value, scope)

    def range(self, low: m.Expr, high: m.Expr, span: m.Span, scope: Scope, hint: str = "") -> None:
        self.c._expect(low, INT, scope)
        self.c._expect(high, INT, scope)
        if isinstance(low, m.IntLit) and isinstance(high, m.IntLit) and not 0 <= low.value <= high.value <= 10_000:
            self.c.error("bad-count", f"bids {low.value}..{high.value} are not a valid range", span, hint)

    def table(self, name: str, span: m.Span) -> None:
        tables = [t.name for t in self.c.rules.bids]
        if name not in tables:
            self.c.error("undefined-name", f"no bid table named '{name}'", span,
                         "declare it: 'bids NAME' with its bids" if not tables else f"the bid table is '{tables[0]}'")

    def not_mixed(self, span: m.Span) -> None:
        """A file whose bid table has levels or named bids bids from it, not from number ranges."""
        if self.bid_kind == BID:
            self.c.error("type-error", "this file's bids come from its bid table; a number range here would mix "
                         "numbers with bids", span, "bid from the table ('bids NAME')")

    def has_strains(self) -> bool:
        return any(isinstance(line, m.BidGrid) or (isinstance(line, m.NamedBid) and line.plays)
                   for t in self.c.rules.bids for line in t.lines)

