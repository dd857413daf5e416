"""The checker's pass over statements: one ``visit_<Statement>`` method per kind of
statement, each checking the types of its expressions, its zones, card counts and
patterns (see :class:`tricklang.checker.Checker` for the codes)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from . import model as m
from .types import ANY, BOOL, CARD, INT, PLAYER, SIDE, SUIT, ZONE, Scope, Type, describe
from .walk import Visitor, statements
from .words import RESERVED_WORDS, statement_words

if TYPE_CHECKING:
    from .checker import Checker

MAX_CARDS = 1000
"""The most cards a deck may hold (and a count may name)."""
MAX_REPEAT = 10_000
"""The largest bound of a ``repeat`` loop."""
ASSIGNABLE_BUILTINS: dict[str, Type] = {"maker": PLAYER, "bid": INT}
"""Built-in names that ``set`` may change, with their types."""


class StatementChecker(Visitor[None]):
    """Checks statements for a :class:`~tricklang.checker.Checker`, reporting through it."""

    def __init__(self, checker: Checker) -> None:
        self.c = checker

    def generic_visit(self, node: m.Node, *args: Any) -> None:
        """Statements with nothing to check (``pass``, ``end the deal``, ``redeal``...)."""

    def block(self, stmts: Iterable[m.Statement], scope: Scope) -> None:
        """Check a block: each statement, and report a statement after the block was left."""
        ended = False
        for st in stmts:
            if ended:
                self.c.warn("unreachable-code", "this statement can never run: the block was left above it", st.span)
                ended = False
            self.visit(st, scope)
            if isinstance(st, (m.StopLoop, m.EndDeal)):
                ended = True

    def _zone(self, ref: m.ZoneRef, scope: Scope, subject: bool = False) -> None:
        z = self.c.zones.get(ref.name)
        if z is None:
            self.c.error("undefined-name", f"undefined zone '{ref.name}'", ref.span, self.c._suggest(ref.name, Scope({n: ZONE for n in self.c.zones})))
            return
        if ref.owner is not None:
            if z.owner == "shared":
                self.c.error("bad-zone", f"zone '{ref.name}' is shared; it has no owner", ref.span)
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
            self.c.error("bad-suit", f"'{st.suit}' is not a suit of the deck", st.span)

    def visit_NameTrump(self, st: m.NameTrump, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        if st.exclude is not None:
            self.c._expect(st.exclude, SUIT, scope)

    def visit_Bid(self, st: m.Bid, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        self.c._expect(st.low, INT, scope)
        self.c._expect(st.high, INT, scope)
        if isinstance(st.low, m.IntLit) and isinstance(st.high, m.IntLit) and not 0 <= st.low.value <= st.high.value <= 10_000:
            self.c.error("bad-count", f"bids {st.low.value}..{st.high.value} are not a valid range", st.span,
                         "write the lowest bid first: 'bids 1..5'")
        if st.forbidden is not None:
            self.c._expect(st.forbidden, INT, scope)

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
        self.block(st.body, scope)

    def visit_Score(self, st: m.Score, scope: Scope) -> None:  # noqa: N802
        self.c._not_nobody(st.who, "scoring")
        t = self.c._type(st.who, scope)
        if t not in (PLAYER, SIDE, ANY):
            self.c.error("type-error", f"only a player or a side can score, not {describe(t)}", st.who.span)
        self.c._expect(st.amount, INT, scope)

    def visit_StopLoop(self, st: m.StopLoop, scope: Scope) -> None:  # noqa: N802
        if not scope.in_loop:
            self.c.error("stop-outside-loop", "'stop' is only allowed inside 'repeat' or 'for each'", st.span)

    def visit_Discard(self, st: m.Discard, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        self.count(st.count, scope)
        if st.matching is not None:
            self.c._check_pattern(st.matching)
        self._zone(st.to, scope, subject=True)

    def visit_Take(self, st: m.Take, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        self.count(st.count, scope)
        if st.matching is not None:
            self.c._check_pattern(st.matching)
        self._zone(st.source, scope, subject=True)

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
            self.c._check_pattern(st.fallback_matching)

    def visit_Move(self, st: m.Move, scope: Scope) -> None:  # noqa: N802
        if st.matching is not None:
            self.c._check_pattern(st.matching)
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
            return  # `expose shown`: a card parameter of an irregularity
        self._zone(st.zone, scope)

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
        self.block(st.body, Scope(scope.names, True))

    def visit_ForEach(self, st: m.ForEach, scope: Scope) -> None:  # noqa: N802
        if st.start is not None:
            self.c._seat(st.start, scope)
        if st.exclude is not None:
            t = self.c._type(st.exclude, scope)
            want = PLAYER if st.kind == "player" else SIDE
            if t not in (want, ANY):
                self.c.error("type-error", f"'except' here needs a {want}, not {describe(t)}", st.exclude.span)
        inner = Scope(dict(scope.names), True)
        inner.names[st.kind] = PLAYER if st.kind == "player" else SIDE
        self.block(st.body, inner)

    def visit_Choose(self, st: m.Choose, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.player, scope)
        seen: set[str] = set()
        for opt in st.options:
            if opt.name in seen:
                self.c.error("duplicate-choice", f"choice '{opt.name}' is offered twice", opt.span)
            seen.add(opt.name)
            if opt.name in RESERVED_WORDS:
                self.c.error("reserved-name", f"a choice cannot be named '{opt.name}': {RESERVED_WORDS[opt.name]}", opt.span,
                             "choose another name (e.g. 'decline', 'waive')")
            self.block(opt.body, scope)

    def visit_Auction(self, st: m.Auction, scope: Scope) -> None:  # noqa: N802
        self.c._seat(st.start, scope)
        self.c._expect(st.low, INT, scope)
        self.c._expect(st.high, INT, scope)
        if isinstance(st.low, m.IntLit) and isinstance(st.high, m.IntLit) and not 0 <= st.low.value <= st.high.value <= 10_000:
            self.c.error("bad-count", f"bids {st.low.value}..{st.high.value} are not a valid range", st.span)
        if st.all_pass_maker is not None:
            self.c._seat(st.all_pass_maker, scope)
        if st.all_pass_bid is not None:
            self.c._expect(st.all_pass_bid, INT, scope)

    def visit_Tricks(self, st: m.Tricks, scope: Scope) -> None:  # noqa: N802
        self.c._expect(st.count, INT, scope)
        self.c._seat(st.leader, scope)
        if "won" not in self.c.zones:
            self.c.error("missing-section", "trick play needs a 'won' zone for the tricks taken", st.span, "declare 'zone won: per side, public'")
        for ob in st.obligations:
            if ob.guard is not None:
                self.c._expect(ob.guard, BOOL, scope)
            if ob.pattern is not None:
                self.c._check_pattern(ob.pattern)
        for dec in st.declarations:
            self.c._check_pattern(dec.holding)
            inner = Scope(dict(scope.names), scope.in_loop)
            inner.names["declarer"] = PLAYER  # in the guard too: the player who would declare
            if dec.guard is not None:
                self.c._expect(dec.guard, BOOL, inner)
            self._check_declaration_body(dec.body)
            self.block(dec.body, inner)

    def _check_declaration_body(self, body: tuple[m.Statement, ...]) -> None:
        """A declaration's effect runs in the middle of a trick: it may score, set
        variables and test conditions, nothing that moves cards or asks for a decision."""
        for st in statements(body):
            builtin = st.name if isinstance(st, m.Let) and st.rebind and st.name in ASSIGNABLE_BUILTINS else ""
            if not isinstance(st, (m.Score, m.Let, m.If, m.Pass)) or builtin:
                what = f"'set {builtin}'" if builtin else f"'{statement_words(st)}'"
                self.c.error("bad-declaration-body", f"a declaration may only score, set variables or test conditions, "
                             f"not {what}", st.span, "do it in the deal, after the tricks, reading a variable the declaration sets")

    def visit_Let(self, st: m.Let, scope: Scope) -> None:  # noqa: N802
        if st.rebind and st.name in ASSIGNABLE_BUILTINS:
            self.c._expect(st.value, ASSIGNABLE_BUILTINS[st.name], scope)
            return
        if st.name not in self.c.variables:
            self.c.error("undefined-name", f"'set {st.name}' before any 'let {st.name} = ...'", st.span)
        elif st.name in self.c.env:
            if st.name not in self.c.shadowing_reported:  # once, not at every `set` of it
                self.c.shadowing_reported.add(st.name)
                self.c.error("duplicate-name", f"variable '{st.name}' shadows {self.c.name_declared_as(st.name)}",
                             st.span, f"give the variable another name (every 'let {st.name}' and 'set {st.name}')")
        else:
            t = self.c._type(st.value, scope)
            want = self.c.variables[st.name]
            if ANY not in (t, want) and t != want:
                self.c.error("type-error", f"'{st.name}' holds {describe(want)}, not {describe(t)}", st.value.span)
