"""The checker's pass over the rules of trick play: obligations, card rules, the tie rule
and declarations, all in the scope of the trick in progress (see
:class:`tricklang.checker.Checker` for the codes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import model as m
from .types import BOOL, CARD, PLAYER, Scope
from .walk import statements, statements_of

if TYPE_CHECKING:
    from .check_statements import StatementChecker

ASSIGNABLE_IN_PLAY = frozenset({"maker", "bid"})
"""Built-in names a declaration may not set (they are the auction's)."""
DECLARATION_BODY = (m.Score, m.Let, m.If, m.Pass)
"""What a declaration's effect may do in the middle of a trick (else ``bad-declaration-body``)."""


class PlayChecks:
    """Checks a ``tricks`` statement's rules for a :class:`~tricklang.check_statements.StatementChecker`."""

    def __init__(self, statements_checker: StatementChecker) -> None:
        self.sc = statements_checker
        self.c = statements_checker.c

    def rules(self, st: m.Tricks, scope: Scope) -> None:
        """Every rule of a tricks block, in ``scope`` (the deal's, with the trick's names)."""
        for ob in st.obligations:
            self.obligation(ob, scope)
        for rule in st.card_rules:
            self.c._check_pattern(rule.pattern, scope=scope)
            self.guard(rule.guard, self.with_card(scope))
        for tie in st.ties:
            if tie.matching is not None:
                self.c._check_pattern(tie.matching, scope=scope)
            self.guard(tie.guard, scope)
        for dec in st.declarations:
            self.c._check_pattern(dec.holding, scope=scope)
            inner = Scope(dict(scope.names), scope.in_loop, scope.trick)
            inner.names["declarer"] = PLAYER  # in the guard too: the player who would declare
            self.guard(dec.guard, inner)
            self.declaration_body(dec.body)
            self.sc.block(dec.body, inner)

    def obligation(self, ob: m.Obligation, scope: Scope) -> None:
        self.guard(ob.guard, scope)
        if ob.pattern is not None:
            self.c._check_pattern(ob.pattern, scope=scope)
        if ob.kind in ("overtrump_if_able", "no_undertrump") and not self.trumps_possible():
            what = "'must overtrump if able'" if ob.kind == "overtrump_if_able" else "'may not undertrump'"
            self.c.warn("unreachable-code", f"{what} never applies: nothing in this file makes a trump suit",
                        ob.span, "it applies only when the trick holds a trump")

    def guard(self, guard: m.Expr | None, scope: Scope) -> None:
        if guard is not None:
            self.c._expect(guard, BOOL, scope)

    @staticmethod
    def with_card(scope: Scope) -> Scope:
        """A card rule's guard also names `card`, the card it is asked about."""
        inner = Scope(dict(scope.names), scope.in_loop, scope.trick)
        inner.names["card"] = CARD
        return inner

    def trumps_possible(self) -> bool:
        """Whether anything in the file can make trumps: a trump suit set, named or led."""
        rules = self.c.rules
        for st in statements_of(rules):
            if isinstance(st, m.SetTrump) and st.source != "none":
                return True
            if isinstance(st, m.NameTrump):
                return True
            if isinstance(st, m.Tricks) and any(ob.kind == "first_lead_trump" for ob in st.obligations):
                return True
        return False

    def declaration_body(self, body: tuple[m.Statement, ...]) -> None:
        """A declaration's effect runs in the middle of a trick: it may score, set
        variables and test conditions, nothing that moves cards or asks for a decision."""
        for st in statements(body):
            builtin = st.name if isinstance(st, m.Let) and st.rebind and st.name in ASSIGNABLE_IN_PLAY else ""
            if not isinstance(st, DECLARATION_BODY) or builtin:
                what = f"'set {builtin}'" if builtin else f"'{type(st).__name__.lower()}'"
                self.c.error("bad-declaration-body", f"a declaration may only score, set variables or test conditions, "
                             f"not {what}", st.span, "do it in the deal, after the tricks, reading a variable the declaration sets")
