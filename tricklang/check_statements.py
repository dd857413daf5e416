"""The checker's pass over statements: one ``visit_<Statement>`` method per kind of
statement, each checking the types of its expressions, its zones, card counts and
patterns (see :class:`tricklang.checker.Checker` for the codes)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import model as m
from .check_bids import BidChecks
from .check_context import CheckerContext
from .check_play import PlayChecks
from .types import ANY, BOOL, CARD, INT, ORDER, PLAYER, SIDE, SUIT, TEAM, ZONE, Scope, Type, describe
from .walk import Visitor, statements
from .words import RESERVED_WORDS

MAX_CARDS = 1000
"""The most cards a deck may hold (and a count may name)."""
MAX_REPEAT = 10_000
"""The largest bound of a ``repeat`` loop."""
ASSIGNABLE_BUILTINS: dict[str, Type] = {"maker": PLAYER, "bid": INT}
"""Built-in names that ``set`` may change, with their types."""


def statement_zone_words(ref: m.ZoneRef) -> str:
    """A zone reference as written (``won of re``), for messages."""
    owner = ref.owner.name if isinstance(ref.owner, m.Name) else "..."
    return f"{ref.name} of {owner}"


class StatementChecker(Visitor[None]):
    """Checks statements for a :class:`~tricklang.checker.Checker`, reporting through it."""

    def __init__(self, checker: CheckerContext) -> None:
        self.c = checker

    def generic_visit(self, node: m.Node, *args: Any) -> None:
        """A statement without a ``visit_`` method here.

        Raises:
            TypeError: always: every kind of statement is checked by a method of its own.
        """
        raise TypeError(f"the checker does not handle {type(node).__name__}")

    def visit_Pass(self, st: m.Statement, scope: Scope) -> None:  # noqa: N802
        """Statements with nothing to check: ``pass``, ``end the deal``, ``end the match``,
        ``redeal``, ``replay the tricks``."""

    visit_EndDeal = visit_EndMatch = visit_Redeal = visit_ReplayTricks = visit_Pass  # noqa: N815

    def block(self, stmts: Iterable[m.Statement], scope: Scope) -> None:
        """Check a block: each statement, and report a statement after the block was left."""
        ended = False
        for st in stmts:
            if ended:
                self.c.warn("unreachable-code", "this statement can never run: the block was left above it", st.span)
                ended = False
            self.visit(st, scope)
            if st.ends in ("loop", "deal", "play"):  # what follows a redeal is the lints' phase-unreachable
                ended = True

    def _zone(self, ref: m.ZoneRef, scope: Scope, subject: bool = False, read: bool = False) -> None:
        """A zone instance a statement names (``read``: one it only reads, which may be a team's zone)."""
        z = self.c.zones.get(ref.name)
        if z is None:
            self.c.error("undefined-name", f"undefined zone '{ref.name}'", ref.span, self.c._suggest(ref.name, Scope({n: ZONE for n in self.c.zones})))
            return
        if ref.owner is not None:
            if z.owner == "shared":
                self.c.error("bad-zone", f"zone '{ref.name}' is shared; it has no owner", ref.span)
            elif z.owner != "player" and self.c._type(ref.owner, scope, report=False) == TEAM:
                self.c.error("type-error", f"zone '{ref.name}' belongs to each side, so a team has none; a team's "
                             "zone is a per-player zone of its members", ref.owner.span)
            elif z.owner == "player" and self.c._type(ref.owner, scope, report=False) == TEAM:
                self.c._type(ref.owner, scope)
                if read:
                    self.c.construct("Of.team_zone", ref.span)
                else:
                    self.c.error("not-a-zone-instance", f"'{statement_zone_words(ref)}' is the union of the zones of "
                                 "the team's members, not one zone: cards cannot be moved to or from it here",
                                 ref.span, "name one member's zone ('won of maker'); a team's zone may only be read "
                                 "(count, has, points, for each card in)")
            else:
                self.c._expect(ref.owner, PLAYER if z.owner == "player" else ANY, scope)
        elif z.owner != "shared" and not subject:
            self.c.error("bad-zone", f"zone '{ref.name}' belongs to each {z.owner}: say whose, e.g. '{ref.name} of dealer'", ref.span)

    def count(self, c: m.Count, scope: Scope) -> None:
        self.c._expect(c.low, INT, scope)
        if c.high is not None:
            self.c._expect(c.high, INT, scope)
        for e in (c.low, c.high):
            if isinstance(e, m.IntLit) and e.value > MAX_CARDS:
                self.c.error("limit-exceeded", f"{e.value} cards is more than any deck may hold", e.span)
        if isinstance(c.low, m.IntLit) and isinstance(c.high, m.IntLit) and c.low.value > c.high.value:
            self.c.error("bad-count", f"the range {c.low.value}..{c.high.value} is empty", c.span)

    # ------------------------------------------------------------ one method per statement
    def visit_DealCards(self, st: m.DealCards, scope: Scope) -> None:  # noqa: N802
        for p in st.packets:
            self.c._expect(p, INT, scope)
        if st.first is not None:
            self.c._seat(st.first, scope)

    def visit_TurnUp(self, st: m.TurnUp, scope: Scope) -> None:  # noqa: N802
        self.c._expect(st.count, INT, scope)
        self._zone(st.to, scope)

    def visit_SetTrump(self, st: m.SetTrump, scope: Scope) -> None:  # noqa: N802
        if st.source == "zone" and st.zone is not None:
            self._zone(st.zone, scope)
        elif st.source == "fixed" and st.suit not in self.c.suits and self.c.rules.deck is not None:
            if st.suit in {o.name for o in self.c.rules.orders}:
                self.c.construct("SetTrump.order", st.span)
            else:
                self.c.error("bad-suit", f"'{st.suit}' is not a suit of the deck or an order", st.span)
        elif st.source == "value" and st.value is not None:  # a suit, or an order (a bid's strain)
            if self.c._type(st.value, scope, report=False) == ORDER:
                self.c._type(st.value, scope)
            else:
                self.c._expect(st.value, SUIT, scope)

    def visit_NameTrump(self, st: m.NameTrump, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        if st.exclude is not None:
            self.c._expect(st.exclude, SUIT, scope)

    def visit_Bid(self, st: m.Bid | m.TableBid, scope: Scope) -> None:  # noqa: N802
        BidChecks(self).bid(st, scope)

    visit_TableBid = visit_Bid  # noqa: N815

    def _step(self, step: m.Expr | None, scope: Scope) -> None:
        """`bids LO..HI by STEP`: a number, 1 or more."""
        if step is None:
            return
        self.c._expect(step, INT, scope)
        if isinstance(step, m.IntLit) and step.value < 1:
            self.c.error("bad-count", f"bids go up by at least 1, not {step.value}", step.span)

    def visit_Add(self, st: m.Add, scope: Scope) -> None:  # noqa: N802
        self.c._expect(st.amount, INT, scope)
        counter = next((c for c in self.c.rules.counters if c.name == st.counter), None)
        if counter is None:
            self.c.error("undefined-name", f"no counter named '{st.counter}'", st.span,
                       "declare it, e.g. 'counter bags: per side'")
        else:
            self.c._not_nobody(st.owner, f"'add ... to {st.counter} of'")
            t = self.c._type(st.owner, scope)
            if t not in (PLAYER, SIDE, ANY):
                self.c.error("type-error", f"a counter belongs to a player or a side, not {describe(t)}", st.owner.span)

    def visit_Phase(self, st: m.Phase, scope: Scope) -> None:  # noqa: N802
        if st.place is not None:  # (a variant's are taken in by its base before checking)
            words = "replace" if st.place == "replace" else f"phase ... {st.place}"
            self.c.error("unknown-override", f"'{words}' belongs in a rule file that extends another", st.span,
                         "start the file with 'extends \"BASE\"'")
        self.block(st.body, scope)

    def visit_Score(self, st: m.Score, scope: Scope) -> None:  # noqa: N802
        self.c._not_nobody(st.who, "scoring")
        t = self.c._type(st.who, scope)
        if t == TEAM:
            self.c.construct("Score.team", st.who.span)  # each member scores (design 3.9)
        elif t not in (PLAYER, SIDE, ANY):
            self.c.error("type-error", f"only a player, a side or a team can score, not {describe(t)}", st.who.span)
        self.c._expect(st.amount, INT, scope)

    def visit_Joins(self, st: m.Joins, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        self.c._expect(st.team, TEAM, scope)

    def visit_StopLoop(self, st: m.StopLoop, scope: Scope) -> None:  # noqa: N802
        if not scope.in_loop:
            self.c.error("stop-outside-loop", "'stop' is only allowed inside 'repeat' or 'for each'", st.span)

    def visit_Discard(self, st: m.Discard, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        self.count(st.count, scope)
        self._patterns(scope, st.matching, st.fallback)
        self._zone(st.to, scope, subject=True)

    def visit_Take(self, st: m.Take, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        self.count(st.count, scope)
        self._patterns(scope, st.matching, st.fallback)
        self._zone(st.source, scope, subject=True)

    def _patterns(self, scope: Scope, *patterns: m.Pattern | None) -> None:
        for p in patterns:
            if p is not None:
                self.c._check_pattern(p, scope=scope)

    def visit_Keep(self, st: m.Keep, scope: Scope) -> None:  # noqa: N802
        if not st.choose and st.verb != "take":
            self.c.error("verb-without-choice", f"'as {st.verb}' names the choice of cards taken from "
                         f"'{st.source.name}', but 'takes all' takes every one of them",
                         st.span, hint="write 'takes any' to let the player choose which cards he takes "
                         "(what 'takes all' meant before), or leave out 'as " + st.verb + "'")
        self.c._seat(st.player, scope)
        self.c._expect(st.count, INT, scope)
        self._zone(st.source, scope, subject=True)
        if st.rest is not None:
            self._zone(st.rest, scope, subject=True)

    def visit_Cut(self, st: m.Cut, scope: Scope) -> None:  # noqa: N802
        self._zone(st.zone, scope)

    def visit_Draw(self, st: m.Draw, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        self.count(st.count, scope)
        if st.count.kind in ("range", "at_least"):
            self.c.error("bad-count", "a draw takes an exact number of cards ('N' or 'to N'), not a range", st.count.span)
        self._zone(st.source, scope, subject=True)
        if st.fallback is not None:
            self._zone(st.fallback, scope, subject=True)
        if st.fallback_matching is not None:
            self.c._check_pattern(st.fallback_matching, scope=scope)

    def visit_Move(self, st: m.Move, scope: Scope) -> None:  # noqa: N802
        if st.matching is not None:
            self.c._check_pattern(st.matching, scope=scope)
        if st.amount is not None:
            self.c._expect(st.amount, INT, scope)
        self._zone(st.source, scope)
        self._zone(st.to, scope)

    def visit_Leads(self, st: m.Leads | m.BecomesDealer, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)

    visit_BecomesDealer = visit_Leads  # noqa: N815

    def visit_Expose(self, st: m.Expose, scope: Scope) -> None:  # noqa: N802
        if st.zone.owner is None and scope.names.get(st.zone.name) == CARD:
            self.c.used_names.add(st.zone.name)
            if st.matching is not None or st.to is not None:
                self.c.error("type-error", f"'{st.zone.name}' is a card, shown to everybody; 'matching' and 'to' "
                             "need a zone", st.span)
            return  # `expose shown`: a card parameter of an irregularity
        self._zone(st.zone, scope)
        self._patterns(scope, st.matching)
        if st.to is not None:
            self.c._seat(st.to, scope)

    def visit_Forbid(self, st: m.Forbid, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.who, scope)
        if st.kind == "choice":
            options = {o.name for c in statements(self.c.rules.deal) if isinstance(c, m.Choose) for o in c.options}
            if st.declaration not in options:
                self.c.error("undefined-name", f"no choice offers an option named '{st.declaration}'", st.span)
        elif st.kind == "bidding":
            if not any(isinstance(c, m.Auction) for c in statements(self.c.rules.deal)):
                self.c.error("undefined-name", "'forbid bidding' needs an auction in the deal", st.span)
        elif st.declaration not in self.c._declaration_names():
            self.c.error("undefined-name", f"no declaration named '{st.declaration}'", st.span)

    def visit_Cancel(self, st: m.Cancel, scope: Scope) -> None:  # noqa: N802
        t = self.c._type(st.who, scope)
        if t not in (PLAYER, SIDE, ANY):
            self.c.error("type-error", f"'cancel' needs a player or a side, not {describe(t)}", st.who.span)

    def visit_If(self, st: m.If, scope: Scope) -> None:  # noqa: N802
        for cond, body in st.branches:
            self.c._expect(cond, BOOL, scope)
            self.block(body, scope)
        self.block(st.orelse, scope)

    def visit_Repeat(self, st: m.Repeat, scope: Scope) -> None:  # noqa: N802
        if not isinstance(st.bound, m.IntLit):
            self.c.error("bad-bound", "a repeat bound must be a plain number, so that every game ends", st.bound.span, "write e.g. 'repeat at most 21 times while ...'")
        elif not 1 <= st.bound.value <= MAX_REPEAT:
            self.c.error("limit-exceeded", f"a repeat bound must be 1..{MAX_REPEAT}", st.bound.span)
        if st.condition is not None:
            self.c._expect(st.condition, BOOL, scope)
        self.block(st.body, scope.nested(in_loop=True))

    def visit_ForEach(self, st: m.ForEach, scope: Scope) -> None:  # noqa: N802
        if st.start is not None:
            self.c._seat(st.start, scope)
        if st.exclude is not None:
            t = self.c._type(st.exclude, scope)
            want = PLAYER if st.kind == "player" else SIDE
            if t not in (want, ANY):
                self.c.error("type-error", f"'except' here needs a {want}, not {describe(t)}", st.exclude.span)
        inner = scope.nested(in_loop=True)
        inner.names[st.kind] = PLAYER if st.kind == "player" else SIDE
        self.block(st.body, inner)

    def visit_NameLed(self, st: m.NameLed, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        if st.exclude is not None:
            self.c._expect(st.exclude, SUIT, scope)
        if scope.hook != "leading":
            self.c.error("bad-hook-statement", "'names the suit led' belongs in an 'after leading' hook, where the "
                         "trick has a first card and no suit led yet", st.span)

    def visit_Shows(self, st: m.Shows, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        self.count(st.count, scope)
        self._patterns(scope, st.matching, st.fallback)

    def visit_Melds(self, st: m.Melds, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        if st.table not in {t.name for t in self.c.rules.melds}:
            self.c.error("undefined-name", f"no meld table named '{st.table}'", st.span,
                         "declare it, e.g. 'melds pinochle' with its lines")
        if st.zone is not None:
            self._zone(st.zone, scope)

    def visit_EndPlay(self, st: m.EndPlay, scope: Scope) -> None:  # noqa: N802
        if scope.hook != "each_trick":
            self.c.error("bad-hook-statement", "'end the play' belongs in an 'after each trick' hook, between two "
                         "tricks", st.span)

    def visit_ForCard(self, st: m.ForCard, scope: Scope) -> None:  # noqa: N802
        self._zone(st.zone, scope, read=True)
        self._patterns(scope, st.matching)
        inner = scope.nested(in_loop=True)
        inner.names["card"] = CARD
        self.block(st.body, inner)

    def visit_Choose(self, st: m.Choose, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        seen: set[str] = set()
        for opt in st.options:
            if opt.name in seen:
                self.c.error("duplicate-choice", f"choice '{opt.name}' is offered twice", opt.span)
            seen.add(opt.name)
            if opt.name == "pass":
                self.c.construct("ChoiceOption.pass", opt.span)  # the action is the word `pass`, as in an auction
            elif opt.name in RESERVED_WORDS:
                self.c.error("reserved-name", f"a choice cannot be named '{opt.name}': {RESERVED_WORDS[opt.name]}", opt.span,
                             "choose another name (e.g. 'decline', 'waive')")
            if opt.guard is not None:
                self.c._expect(opt.guard, BOOL, scope)
            self.block(opt.body, scope)

    def visit_Auction(self, st: m.Auction | m.TableAuction, scope: Scope) -> None:  # noqa: N802
        BidChecks(self).auction(st, scope)

    visit_TableAuction = visit_Auction  # noqa: N815

    def visit_Tricks(self, st: m.Tricks, scope: Scope) -> None:  # noqa: N802
        self.c._expect(st.count, INT, scope)
        self.c._seat(st.leader, scope)
        if "won" not in self.c.zones:
            self.c.error("missing-section", "trick play needs a 'won' zone for the tricks taken", st.span, "declare 'zone won: per side, public'")
        PlayChecks(self).rules(st, scope.in_trick(self.c.declared))

    def visit_Let(self, st: m.Let, scope: Scope) -> None:  # noqa: N802
        if st.rebind and st.name in ASSIGNABLE_BUILTINS:
            want = self.c.env["bid"] if st.name == "bid" else ASSIGNABLE_BUILTINS[st.name]
            self.c._expect(st.value, want, scope)
            return
        if st.name not in self.c.variables:
            self.c.error("undefined-name", f"'set {st.name}' before any 'let {st.name} = ...'", st.span)
        elif st.name in self.c.env and st.name not in self.c.suits:  # a variable may take a suit's name
            if st.name not in self.c.shadowing_reported:  # once, not at every `set` of it
                self.c.shadowing_reported.add(st.name)
                self.c.error("duplicate-name", f"variable '{st.name}' shadows {self.c.name_declared_as(st.name)}",
                             st.span, f"give the variable another name (every 'let {st.name}' and 'set {st.name}')")
        else:
            t = self.c._type(st.value, scope)
            want = self.c.variables[st.name]
            if ANY not in (t, want) and t != want:
                self.c.error("type-error", f"'{st.name}' holds {describe(want)}, not {describe(t)}", st.value.span)
