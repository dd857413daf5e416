"""The types of the language and the symbol table the checker builds.

A :class:`Type` is a :class:`Kind` (``Kind.INT``, ``Kind.PLAYER``...) or a
:class:`ChoiceOf` an option (the values of a ``choice`` option are their own
type). The checker fills a :class:`Symbols` once per rule file (every global
name with its type, the variables, which option each choice value belongs to);
the :class:`~tricklang.ruleset.Ruleset` carries it, and the interpreter's
compiler reads types from it (:meth:`Symbols.type_of`) instead of checking the
rule file again. :class:`Typer` is the one place where the type of an
expression is worked out; the checker subclasses it to report what is wrong.

>>> import tricklang
>>> symbols = tricklang.load("rules/ecarte.trick").symbols
>>> symbols.names["dealer"], symbols.names["hand"]
(<Kind.PLAYER: 'player'>, <Kind.ZONE: 'zone'>)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from . import model as m
from .kinds import (
    ANY,
    AUCTION_NAMES,
    BID,
    BID_FORMS,
    BOOL,
    BUILTIN_NAMES,
    BUILTIN_PLAYERS,
    CARD,
    FUNCTIONS,
    INT,
    LOOP_NAMES,
    NEW_NAMES,
    OF_FORMS,
    ORDER,
    PLAYER,
    SIDE,
    SUIT,
    TEAM,
    TRICK_NAMES,
    ZONE,
    ChoiceOf,
    Kind,
    Scope,
    Type,
    describe,
)
from .walk import Visitor, statements_of

__all__ = ["ANY", "BID", "BOOL", "BUILTIN_NAMES", "BUILTIN_PLAYERS", "CARD", "FUNCTIONS", "INT", "LOOP_NAMES", "NEW_NAMES", "OF_FORMS",
           "ORDER", "PLAYER", "SIDE", "SUIT", "TEAM", "TRICK_NAMES", "ZONE", "ChoiceOf", "Kind", "Scope", "Symbols", "Type", "Typer",
           "bid_type", "declared_names", "describe"]


@dataclass(frozen=True)
class Symbols:
    """What the checker learned about a rule file's names, built once per rule file."""

    names: Mapping[str, Type]
    """Every global name: built-ins, options, choice values, zones, roles."""
    variables: Mapping[str, Type]
    """Every variable (``let``) of the deal and of the irregularities, with its type."""
    choice_values: Mapping[str, str]
    """Each value of a ``choice`` option, with that option's name."""
    rules: m.RuleFile = field(repr=False, compare=False)
    declared: frozenset[str] = field(default=frozenset(), repr=False, compare=False)
    """The names the rule file declares (see :func:`declared_names`)."""

    def scope(self, context: Mapping[str, Type] | None = None) -> Scope:
        """The names visible inside the deal (globals, variables, loop names, then ``context``)."""
        scope = Scope(dict(self.names))
        scope.names.update(self.variables)
        scope.names.update(LOOP_NAMES)
        if context:
            scope.names.update(context)
        return scope

    def type_of(self, expr: m.Expr, context: Mapping[str, Type] | None = None) -> Type:
        """The type of an expression of a checked rule file (``context``: names bound around it)."""
        return Typer(self.rules, self.choice_values, self.declared, frozenset(self.variables)).visit(
            expr, self.scope(context))


def bid_type(rules: m.RuleFile) -> Type:
    """The type of bids in a rule file: ``bid`` with a bid table of levels or named bids, else a number."""
    typed = any(isinstance(line, (m.BidGrid, m.NamedBid)) for table in rules.bids for line in table.lines)
    return BID if typed else INT


def declared_names(rules: m.RuleFile) -> frozenset[str]:
    """The names a rule file declares (options, choice values, zones, roles, counters, variables):
    where one is also a built-in name, the file's wins."""
    found = {o.name for o in rules.options} | {c for o in rules.options for c in o.choices}
    found |= {z.name for z in rules.zones} | {r.name for r in rules.roles} | {c.name for c in rules.counters}
    found |= {st.name for st in statements_of(rules) if isinstance(st, m.Let)}
    found |= {name for line in rules.teams for name in line.names}
    return frozenset(found)


class Typer(Visitor[Type]):
    """The type of an expression in a scope. The hooks (:meth:`error`, :meth:`use`,
    :meth:`pattern`, :meth:`suggest`) do nothing here; the checker overrides them."""

    def __init__(self, rules: m.RuleFile, choice_values: Mapping[str, str], declared: frozenset[str] | None = None,
                 variables: frozenset[str] = frozenset()) -> None:
        self.rules = rules
        self.choice_values = choice_values
        self.declared = declared_names(rules) if declared is None else declared
        self.variables = variables
        self.options = {o.name: o for o in rules.options}
        self.zones = {z.name: z for z in rules.zones}
        self.counters = {c.name for c in rules.counters}
        self.tables = {t.name: t for t in rules.tables}
        self.bid_type = bid_type(rules)
        self.suits = {s.name for s in rules.deck.suits} if rules.deck is not None else set()

    # ------------------------------------------------------------ hooks
    def error(self, code: str, message: str, span: m.Span | None, hint: str = "") -> None:
        """A problem found while typing (ignored unless overridden)."""

    def use(self, name: str) -> None:
        """A global name or variable is used (ignored unless overridden)."""

    def pattern(self, p: m.Pattern, scope: Scope, fixed: bool = False) -> None:
        """A card pattern met in an expression, in a scope (``fixed``: one the runtime compiles to a fixed
        table); ignored unless overridden."""

    def suggest(self, name: str, scope: Scope) -> str:
        """A hint for an undefined name (none unless overridden)."""
        return ""

    def construct(self, key: str, span: m.Span) -> None:
        """A built-in form is used: ``Name.dealer``, ``Of.left`` (see :mod:`tricklang.support`;
        ignored unless overridden)."""

    def expect(self, e: m.Expr, wanted: Type, scope: Scope) -> None:
        """Type an expression and report a type other than ``wanted`` (or ANY)."""
        t = self.visit(e, scope)
        if wanted != ANY and t not in (wanted, ANY):
            self.error("type-error", f"expected {describe(wanted)}, found {describe(t)}", e.span)

    # ------------------------------------------------------------ expressions
    def generic_visit(self, node: m.Node, *args: Any) -> Type:
        """A node without a ``visit_`` method.

        Raises:
            TypeError: always: every kind of expression is typed by a method of its own.
        """
        raise TypeError(f"the typer does not handle {type(node).__name__}")

    def visit_IntLit(self, e: m.IntLit, scope: Scope) -> Type:  # noqa: N802 - visitor naming
        return INT

    def visit_Name(self, e: m.Name, scope: Scope) -> Type:  # noqa: N802
        if e.name in scope.names:
            if scope.trick and e.name in TRICK_NAMES and e.name in self.variables:
                self.error("ambiguous-name", f"'{e.name}' is both a variable of the deal and the trick's "
                           f"'{e.name}' ({describe(TRICK_NAMES[e.name])})", e.span,
                           "rename the variable: inside trick play the name could mean either")
            if e.name not in self.declared and (e.name in BUILTIN_NAMES or e.name in LOOP_NAMES or e.name in NEW_NAMES
                                                or e.name in TRICK_NAMES or e.name in AUCTION_NAMES):
                self.construct(f"Name.{e.name}", e.span)
            elif e.name not in self.declared and scope.names[e.name] == BID:
                self.construct("Name.bid_constant", e.span)  # a named bid of the bid table
            elif e.name not in self.declared and e.name in self.suits and scope.names[e.name] == SUIT:
                self.construct("Name.suit", e.span)  # `trump == spades`: a suit as a value
            self.use(e.name)
            if e.name in self.choice_values and e.name not in self.options:
                self.use(self.choice_values[e.name])
            return scope.names[e.name]
        if e.name in TRICK_NAMES:
            self.not_in_trick(f"'{e.name}'", e.span)
            return TRICK_NAMES[e.name]
        self.error("undefined-name", f"undefined name '{e.name}'", e.span, self.suggest(e.name, scope))
        return ANY

    def not_in_trick(self, what: str, span: m.Span) -> None:
        self.error("not-in-trick", f"{what} reads the trick in progress; it is defined only in the rules of a tricks "
                   "block and in an irregularity offered during play", span,
                   "read it in a trick rule, a declaration or a hook; to keep it, set a variable there")

    def not_nobody(self, e: m.Expr, what: str) -> None:
        """`nobody` where a seat is needed: an error (at run time, a player expression that
        turns out to be nobody raises RuleRuntimeError naming the rule's line)."""
        if isinstance(e, m.Name) and e.name == "nobody":
            self.error("nobody-is-no-seat", f"{what} needs a seat, and 'nobody' is none", e.span,
                       "compare with nobody ('if maker != nobody:') before using a player who may be nobody")

    def visit_Of(self, e: m.Of, scope: Scope) -> Type:  # noqa: N802
        if e.name != "suit":
            self.not_nobody(e.arg, f"'{e.name} of'")
        if e.name in BID_FORMS and e.name not in self.zones and e.name not in self.counters:
            self.construct(f"Of.{e.name}", e.span)
            self.expect(e.arg, BID, scope)
            return BID_FORMS[e.name]
        if e.name in OF_FORMS or (e.name == "suit" and e.name not in self.zones):
            self.construct(f"Of.{e.name}", e.span)
        if e.name in OF_FORMS:
            return self._of_form(e, scope)
        if e.name in self.zones:
            if self.zones[e.name].owner != "player":
                if self.visit(e.arg, scope) == TEAM:
                    self.error("type-error", f"zone '{e.name}' belongs to each {self.zones[e.name].owner}, so a team "
                               "has none; a team's zone is a per-player zone of its members", e.arg.span)
            elif self.visit(e.arg, scope) == TEAM:  # the union of the members' zones (design 3.9)
                self.construct("Of.team_zone", e.span)
            else:
                self.expect(e.arg, PLAYER, scope)
            return ZONE
        if e.name == "suit":
            arg = self.visit(e.arg, scope)
            if arg == CARD:
                self.construct("Of.suit_of_card", e.span)
            elif arg == ZONE and self.team_zone(e.arg, scope):
                self.not_an_instance(e.arg, "'suit of'")
            elif arg not in (ZONE, ANY):
                self.error("type-error", f"'suit of' needs a zone or a card, not {describe(arg)}", e.arg.span)
            return SUIT
        if e.name in self.counters:
            t = self.visit(e.arg, scope)
            if t not in (PLAYER, SIDE, ANY):
                self.error("type-error", f"'{e.name} of' needs a player or a side, not {describe(t)}", e.arg.span)
            return INT
        self.error("undefined-name", f"undefined name '{e.name} of ...'", e.span,
                   "known forms: left of, right of, partner of, side of, opponents of, or ZONE of PLAYER")
        return ANY

    def team_zone(self, e: m.Expr | m.ZoneRef, scope: Scope) -> bool:
        """Whether ``e`` is a per-player zone of a team (``won of re``): the union of its members' zones,
        which may be read but is no zone instance (design 3.9)."""
        if not isinstance(e, (m.ZoneRef, m.Of)):
            return False
        owner = e.owner if isinstance(e, m.ZoneRef) else e.arg
        if owner is None or e.name not in self.zones or self.zones[e.name].owner != "player":
            return False
        return Typer(self.rules, self.choice_values, self.declared, self.variables).visit(owner, scope) == TEAM

    def not_an_instance(self, e: m.Expr | m.ZoneRef, what: str) -> None:
        """A team's zone where one zone instance is needed (a move's source or destination...)."""
        self.error("not-a-zone-instance", f"{what} needs one zone, and a team's '{getattr(e, 'name', '')}' is the "
                   "union of the zones of its members", e.span,
                   "name one member's zone ('won of maker'); a team's zone may only be read (count, has, points, "
                   "for each card in)")

    def _of_form(self, e: m.Of, scope: Scope) -> Type:
        if e.name == "team" and not self.rules.teams:
            self.error("undefined-name", "'team of' needs teams: declare them first ('teams A, B')", e.span)
        arg = self.visit(e.arg, scope)
        wanted = (PLAYER, SIDE) if e.name == "opponents" else (PLAYER,)
        if e.name == "opponents" and self.rules.players is not None:
            p = self.rules.players
            sides = len(p.teams) if p.teams else p.count
            if sides != 2:
                self.error("type-error", f"'opponents of' needs exactly two sides; this game has {sides}", e.span,
                           "use 'for each side except side of X' instead")
        if arg not in (*wanted, ANY):
            self.error("type-error", f"'{e.name} of' needs a player, not {arg}", e.arg.span)
        return OF_FORMS[e.name]

    def visit_Call(self, e: m.Call, scope: Scope) -> Type:  # noqa: N802
        if e.name in self.tables and e.name not in FUNCTIONS:
            return self._table(e, self.tables[e.name], scope)
        if e.name not in FUNCTIONS:
            self.error("undefined-name", f"unknown function '{e.name}'", e.span, "functions: " + ", ".join(FUNCTIONS))
            return ANY
        lo, hi = FUNCTIONS[e.name]
        if not lo <= len(e.args) <= hi:
            self.error("bad-call", f"'{e.name}' takes {lo if lo == hi else f'{lo} to {hi}'} argument(s), not {len(e.args)}",
                       e.span)
        for a in e.args:
            self._argument(e, a, scope)
        return self.bid_type if e.name == "bids" else INT

    def _argument(self, call: m.Call, a: m.Arg, scope: Scope) -> None:
        if a.matching is not None:
            if call.name != "count":
                self.error("bad-call", "only count() takes 'matching'", a.span)
            self.pattern(a.matching, scope)
        if call.name in ("melds", "melded") and a is not call.args[0]:
            tables = {t.name for t in self.rules.melds}
            if not (isinstance(a.value, m.Name) and a.value.name in tables):
                self.error("undefined-name", f"the second argument of {call.name}() names a meld table", a.span,
                           "tables: " + (", ".join(sorted(tables)) or "none (declare 'melds NAME')"))
        elif call.name in ("count", "melds"):
            self.expect(a.value, ZONE, scope)
        elif call.name in ("min", "max", "abs"):
            self.expect(a.value, INT, scope)
        elif call.name == "points" and a is call.args[0] and self._cards_counted(a, scope):
            return
        elif call.name == "points" and a is not call.args[0]:
            tables = {pc.table for pc in self.rules.points if pc.table}
            if not (isinstance(a.value, m.Name) and a.value.name in tables):
                self.error("undefined-name", "the second argument of points() names a points table", a.span,
                           "tables: " + (", ".join(sorted(tables)) or "none (declare 'points NAME')"))
        else:
            self.not_nobody(a.value, f"'{call.name}()'")
            t = self.visit(a.value, scope)
            if t == TEAM and call.name in ("tricks", "points", "deal_score", "melded"):
                self.construct("Call.team", a.span)  # summed over the team's members (design 3.9)
            elif t not in (PLAYER, SIDE, ANY):
                self.error("type-error", f"'{call.name}' needs a player or a side, not {t}", a.span)

    def _cards_counted(self, a: m.Arg, scope: Scope) -> bool:
        """``points(ZONE)``, ``points(CARD)``: the points of cards rather than of a player or side."""
        t = Typer(self.rules, self.choice_values, self.declared).visit(a.value, scope)
        if t not in (ZONE, CARD):
            return False
        self.visit(a.value, scope)  # again, reporting
        self.construct("Call.points_of_cards", a.span)
        return True

    def _table(self, e: m.Call, table: m.Table, scope: Scope) -> Type:
        """`NAME(i)`: an entry of a lookup table, by position from 0."""
        if len(e.args) != 1:
            self.error("bad-call", f"table '{e.name}' takes one argument (a position), not {len(e.args)}", e.span)
        for a in e.args:
            self.expect(a.value, INT, scope)
            if isinstance(a.value, m.IntLit) and not a.value.value < len(table.values):
                self.error("bad-index", f"table '{e.name}' has {len(table.values)} entries (0 to "
                           f"{len(table.values) - 1}), not {a.value.value}", a.span)
            elif isinstance(a.value, m.Neg) and isinstance(a.value.operand, m.IntLit) and a.value.operand.value:
                self.error("bad-index", f"a position in table '{e.name}' cannot be negative", a.span)
        return INT

    def visit_CardIs(self, e: m.CardIs, scope: Scope) -> Type:  # noqa: N802
        self.expect(e.card, CARD, scope)
        self.pattern(e.pattern, scope)
        return BOOL

    def visit_CardBeats(self, e: m.CardBeats, scope: Scope) -> Type:  # noqa: N802
        self.expect(e.card, CARD, scope)
        self.expect(e.other, CARD, scope)
        return BOOL

    def visit_CardPlayedBy(self, e: m.CardPlayedBy, scope: Scope) -> Type:  # noqa: N802
        if not scope.trick:
            self.not_in_trick("'the card played by'", e.span)
        self.not_nobody(e.player, "'the card played by'")
        self.expect(e.player, PLAYER, scope)
        return CARD

    def visit_WhoPlayed(self, e: m.WhoPlayed, scope: Scope) -> Type:  # noqa: N802
        if not scope.trick:
            self.not_in_trick("'who played'", e.span)
        p = e.card.pattern
        if e.card.ranking is None and isinstance(p, m.PatWord) and scope.names.get(p.word) == CARD:
            self.visit(m.Name.model_construct(name=p.word, span=p.span), scope)  # a card value: `who played card`
        else:
            self.pattern(p, scope, fixed=True)
        return PLAYER

    def visit_SeatLit(self, e: m.SeatLit, scope: Scope) -> Type:  # noqa: N802
        players = self.rules.players.count if self.rules.players is not None else None
        if players is not None and not e.value < players:
            self.error("bad-seat", f"there is no seat {e.value}: the seats are 0 to {players - 1}", e.span)
        return PLAYER

    def visit_BinOp(self, e: m.BinOp, scope: Scope) -> Type:  # noqa: N802
        if e.op in ("and", "or"):
            self.expect(e.left, BOOL, scope)
            self.expect(e.right, BOOL, scope)
            return BOOL
        left = self.visit(e.left, scope)
        right = self.visit(e.right, scope)
        if e.op in ("==", "!=", "<", "<=", ">", ">=") and {left, right} == {INT, BID}:
            self.error("type-error", "cannot compare a bid with a number" if self.bid_type == BID
                       else "bids are numbers here: compare with 0, not 'no_bid'", e.span)
            return BOOL
        if e.op in ("==", "!="):
            if ANY not in (left, right) and left != right and {left, right} != {ORDER, SUIT}:
                self.error("type-error", f"cannot compare {describe(left)} with {describe(right)}", e.span)
            return BOOL
        if e.op in ("<", "<=", ">", ">=") and left == right == BID:
            return BOOL  # bids are ranked
        for side, t in ((e.left, left), (e.right, right)):
            if t not in (INT, ANY):
                self.error("type-error", f"'{e.op}' needs numbers, not {describe(t)}", side.span)
        return BOOL if e.op in ("<", "<=", ">", ">=") else INT

    def visit_Not(self, e: m.Not, scope: Scope) -> Type:  # noqa: N802
        self.expect(e.operand, BOOL, scope)
        return BOOL

    def visit_Neg(self, e: m.Neg, scope: Scope) -> Type:  # noqa: N802
        self.expect(e.operand, INT, scope)
        return INT

    def visit_Has(self, e: m.Has, scope: Scope) -> Type:  # noqa: N802
        self.expect(e.zone, ZONE, scope)
        suits = {s.name for s in self.rules.deck.suits} if self.rules.deck is not None else set()
        word = e.pattern.word if isinstance(e.pattern, m.PatWord) else ""
        if word and word not in suits and word not in self.declared and scope.names.get(word) == SUIT:
            self.use(word)  # `hand of offender has named`: a suit parameter of an irregularity
        else:
            self.pattern(e.pattern, scope)
        return BOOL

    def visit_CardHolder(self, e: m.CardHolder, scope: Scope) -> Type:  # noqa: N802
        self.pattern(e.card.pattern, scope, fixed=True)
        copies = self.rules.deck.copies if self.rules.deck is not None else None
        if copies is not None and copies > 1:
            kind = {"holder": "holder of", "original": "original holder of", "taker": "taker of"}[e.kind]
            self.error("ambiguous-card", f"'{kind}' names one player, but the pack holds {copies} cards of each face",
                       e.span, "ask about a hand instead: 'hand of P has ...', or count(... matching ...)")
        return PLAYER
