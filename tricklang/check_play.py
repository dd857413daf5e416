"""The checker's pass over the rules of trick play: obligations, card rules, the tie rule
and declarations, all in the scope of the trick in progress (see
:class:`tricklang.checker.Checker` for the codes)."""

from __future__ import annotations

from . import model as m
from .check_context import StatementsContext
from .types import BOOL, CARD, PLAYER, Scope
from .walk import statements, statements_of
from .words import statement_words

ASSIGNABLE_IN_PLAY = frozenset({"maker", "bid"})
"""Built-in names a declaration may not set (they are the auction's)."""


def _spanless(value: object) -> object:
    """A dumped expression without its source positions (two writings of one expression compare equal)."""
    if isinstance(value, dict):
        return {k: _spanless(v) for k, v in value.items() if k != "span"}
    if isinstance(value, (list, tuple)):
        return [_spanless(v) for v in value]
    return value


class PlayChecks:
    """Checks a ``tricks`` statement's rules for a :class:`~tricklang.check_statements.StatementChecker`."""

    def __init__(self, statements_checker: StatementsContext) -> None:
        self.sc = statements_checker
        self.c = statements_checker.c

    def rules(self, st: m.Tricks, scope: Scope) -> None:
        """Every rule of a tricks block, in ``scope`` (the deal's, with the trick's names)."""
        for ob in st.obligations:
            self.obligation(ob, scope)
        for rule in st.card_rules:
            self.c._check_pattern(rule.pattern, scope=scope, fixed=True)
            self.guard(rule.guard, self.with_card(scope))
        for tie in st.ties:
            if tie.matching is not None:
                self.c._check_pattern(tie.matching, scope=scope, fixed=True)
            self.guard(tie.guard, scope)
        for seats in st.plays_for:
            self.plays_for(seats, scope)
        for dec in st.declarations:
            self.declaration(dec, scope)
        for hook in st.hooks:
            self.hook(hook, scope)

    def plays_for(self, rule: m.PlaysFor, scope: Scope) -> None:
        """`P plays for Q [when G]`: two players, not the same name (``plays-for-self``), not nobody."""
        for e, what in ((rule.controller, "'plays for'"), (rule.player, "'plays for' (the seat played for)")):
            self.c._expect(e, PLAYER, scope)
            self.c._not_nobody(e, what)
        if _spanless(rule.controller.model_dump()) == _spanless(rule.player.model_dump()):
            self.c.error("plays-for-self", "a seat named to play for itself: every seat plays its own cards",
                         rule.span, "name two different seats ('maker plays for dummy'), or leave the rule out")
        self.guard(rule.guard, scope)

    def declaration(self, dec: m.Declaration, scope: Scope) -> None:
        self.c._check_pattern(dec.holding, scope=scope, fixed=True)
        if dec.deadline == "before_nth_card" and (dec.card_number or 0) < 1:
            self.c.error("bad-bound", f"'before own card {dec.card_number}': a player's cards are counted from 1",
                         dec.span, "write 'before own card 1' (or 'before own first card')")
        inner = scope.nested(hook="declaration")
        inner.names["declarer"] = PLAYER  # in the guard too: the player who would declare
        self.guard(dec.guard, inner)
        self.in_play(dec.body, "a declaration")
        self.sc.block(dec.body, inner)

    def hook(self, hook: m.Hook, scope: Scope) -> None:
        inner = scope.nested(hook=hook.event)
        if hook.pattern is not None:
            self.c._check_pattern(hook.pattern, scope=scope, fixed=True)
            inner.names["player"] = PLAYER  # who played the card, and the card
            inner.names["card"] = CARD
        self.guard(hook.guard, inner)
        self.in_play(hook.body, "a hook", decisions=hook.event != "each_trick")
        self.sc.block(hook.body, inner)

    def in_play(self, body: tuple[m.Statement, ...], where: str, decisions: bool = False) -> None:
        """Statements that run in the middle of trick play (a hook, a declaration's effect): not one
        that deals, plays tricks, holds an auction or takes played cards back (``bad-hook-statement``),
        nor one that sets the auction's ``maker`` or ``bid`` (``bad-declaration-body``); the runtime
        names those it can run there in :mod:`tricklang.support` (``InPlay.Score``...), and a decision
        anywhere but a hook on a card as ``InPlay.decision_after_trick.<Statement>`` as well."""
        for st in statements(body):
            builtin = st.name if isinstance(st, m.Let) and st.rebind and st.name in ASSIGNABLE_IN_PLAY else ""
            if not st.in_play:
                self.c.error("bad-hook-statement", f"'{statement_words(st)}' cannot run in the "
                             f"middle of trick play, in {where}", st.span,
                             "do it in the deal, after the tricks, reading a variable set here")
            elif builtin:
                self.c.error("bad-declaration-body", f"{where} may not 'set {builtin}': it is the auction's", st.span)
            else:
                self.c.construct(f"InPlay.{type(st).__name__}", st.span)
                if st.decides and not decisions:
                    self.c.construct(f"InPlay.decision_after_trick.{type(st).__name__}", st.span)

    def obligation(self, ob: m.Obligation, scope: Scope) -> None:
        self.guard(ob.guard, scope)
        if ob.pattern is not None:
            self.c._check_pattern(ob.pattern, scope=scope, fixed=True)
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
