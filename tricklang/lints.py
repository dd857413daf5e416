"""Lints: warnings about rule files that load but are probably not what was meant.

:func:`lint` takes a parsed rule file that has passed the checker (every name
resolved) and returns warnings; it never raises on a well-formed file. Codes:

``cards-exceed-deck``
    A draw or take from the pack needs more cards than the pack can still hold at
    that point, with the options at their defaults: the deck minus what was dealt,
    turned up, moved, drawn and taken before, along the statements that always run
    (conditional blocks are left out). Draws with a fallback zone (``then from``)
    are left out too: the author planned for a short pack. At run time such a draw
    silently gives fewer cards. Also: a ``to N`` target larger than the deck.
    (Deals and turn-ups that need too many cards are already the checker's
    ``deck-too-small`` errors.)
``no-legal-card``
    In this runtime an obligation (``must follow suit``, ``must trump if void``,
    ``must beat if able``, ``may not lead P until broken``) applies only when it
    leaves at least one card, so obligations can never leave a player without a
    legal card. What can happen is an empty hand: ``tricks N`` when each hand holds
    fewer than N cards at that point (a player with no card is skipped, and trick
    play ends when nobody has a card left). That is what this code reports, when
    the hand size is known (every hand dealt, drawn and discarded alike).
``point-total-mismatch``
    ``auction ..., bids LO..HI`` in a rule file with a ``points`` table whose cards
    are worth, in all, something other than HI (for every possible trump suit):
    usually a bid range copied from another game, or a point card left out. Not in a
    file with meld tables: there a bid counts melds too (Pinochle).
``phase-unreachable``
    Code that can never run: a branch whose condition is false (or an ``elif`` /
    ``else`` after a condition that is true) *whatever the options' values*
    (checked on every bool and choice value and on the boundaries of int ranges,
    so that option-dependent branches are never reported); a loop whose ``while``
    is always false; an obligation, declaration or irregularity whose ``when`` is
    always false; and statements after a ``redeal`` or after a block every path of
    which ends the deal or leaves the loop. (A statement right after ``stop`` or
    ``end the deal`` is the checker's ``unreachable-code``.)

``rule-matches-nothing``
    A card rule of trick play (``may play P at any time``...) whose pattern matches no card
    of the deck under any trump, or a tie rule (``of equal cards ...``) in a deck with no
    two equal cards.

The checker's own warnings ``unreachable-code`` and ``unused-option`` are not
repeated here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any, Literal

from . import model as m
from .deck import CardModel
from .deck import deck_size as full_deck_size
from .diagnostics import Diagnostic, origin
from .walk import Unknown, Value, Visitor, blocks, fold, nodes, statements
from .walk import names as walk_names
from .words import plural

CODES = ("cards-exceed-deck", "no-legal-card", "point-total-mismatch", "phase-unreachable", "rule-matches-nothing")

MAX_COMBINATIONS = 4096
"""Option combinations tried when deciding whether a condition is constant."""

MAX_LINT_WORK = 200_000
"""Expression nodes evaluated (option combinations x condition size) for the whole
file; beyond this budget the lints stop judging conditions (they say nothing rather
than take long)."""

Leave = Literal["deal", "loop", "play"] | None
_LEAVES = {"deal": "ends the deal", "loop": "leaves the loop", "play": "ends the play"}


def lint(rules: m.RuleFile) -> list[Diagnostic]:
    """Every warning for a rule file that passed the checker (see the module docstring)."""
    if rules.deck is None or rules.players is None:
        return []
    return _Linter(rules).run()


@dataclass
class _Linter:
    rules: m.RuleFile
    found: list[Diagnostic] = field(default_factory=list)

    def __post_init__(self) -> None:
        r = self.rules
        assert r.deck is not None and r.players is not None
        self.n = r.players.count
        self.deck_size = full_deck_size(r.deck)
        self.options = {o.name: o for o in r.options}
        self.defaults: dict[str, Any] = {o.name: o.default for o in r.options}
        self.constants: dict[str, Value] = {c: c for o in r.options for c in o.choices}
        self.constants.update({"true": True, "false": False})
        self.pack = next((z.name for z in r.zones if z.pack), None)
        self.work = 0  # option combinations tried so far (see MAX_LINT_WORK)

    def warn(self, code: str, message: str, span: m.Span | None, hint: str = "") -> None:
        line, col, end = (span.line, span.column, span.end_column if span.end_line == span.line else 0) if span else (0, 0, 0)
        path, note = origin(self.rules.path, span.path if span else None)
        self.found.append(Diagnostic(code, message, line, col, end, "warning", hint, path, note))

    def run(self) -> list[Diagnostic]:
        self._unreachable(self.rules.deal)
        for irr in self.rules.irregularities:
            if irr.guard is not None and self.always(irr.guard) is False:
                self.warn("phase-unreachable", f"irregularity '{irr.name}' is never offered: its condition is always false",
                          irr.span)
            self._unreachable(irr.body)
        _Cards(self).block(self.rules.deal, 1)
        self._point_totals()
        self.found.sort(key=lambda d: (d.line, d.column, d.code))
        return self.found

    # ------------------------------------------------------------ constant conditions
    def value(self, e: m.Expr, env: dict[str, Any]) -> Value | Unknown:
        """The value of an expression of literals and options (at the values in ``env``)."""
        return fold(e, {**self.constants, **env})

    def always(self, cond: m.Expr) -> bool | None:
        """True or False when the condition has that value whatever the options, else None."""
        names = sorted({n.name for n in walk_names(cond) if n.name in self.options})
        literals = {x.value for x in nodes(cond) if isinstance(x, m.IntLit)}
        domains = [self._candidates(self.options[name], literals) for name in names]
        total = 1
        for d in domains:
            total *= len(d)
        size = sum(1 for _ in nodes(cond))
        if total > MAX_COMBINATIONS or self.work + total * size > MAX_LINT_WORK:
            return None
        self.work += total * size
        seen: set[bool] = set()
        env = {**self.constants, **self.defaults}  # built once: each combination overwrites the same names
        for combo in product(*domains):
            env.update(zip(names, combo, strict=True))
            v = fold(cond, env)
            if not isinstance(v, bool):
                return None
            seen.add(v)
            if len(seen) > 1:
                return None
        return seen.pop() if seen else None

    @staticmethod
    def _candidates(o: m.Option, literals: set[int]) -> list[Any]:
        if o.type == "bool":
            return [False, True]
        if o.type == "choice":
            return list(o.choices)
        assert isinstance(o.default, int)
        lo = o.low if o.low is not None else -(10**18)
        hi = o.high if o.high is not None else 10**18
        values = {o.default, lo, hi}
        for c in literals:  # the truth of a comparison can only change around a literal
            values.update(v for v in (c - 1, c, c + 1) if lo <= v <= hi)
        return sorted(values)

    # ------------------------------------------------------------ unreachable code
    def _unreachable(self, stmts: Sequence[m.Statement]) -> Leave:
        """Report unreachable code in a block; say whether every path leaves it."""
        leaves: Leave = None
        for st in stmts:
            if leaves is not None:
                self.warn("phase-unreachable", "this statement can never run: every path above it "
                          + _LEAVES[leaves], st.span)
                return leaves
            leaves = self._statement(st)
            if st.ends in ("loop", "deal", "play"):
                return leaves  # the checker's unreachable-code reports what follows
        return leaves

    def _statement(self, st: m.Statement) -> Leave:
        """How a statement leaves its block (from its facts; its bodies are looked into).

        Raises:
            TypeError: its bodies run in a way this pass does not know.
        """
        if st.ends is not None:
            return "deal" if st.ends == "redeal" else st.ends
        if isinstance(st, m.If):
            return self._if(st)
        if isinstance(st, m.Tricks):
            self._trick_rules(st)
        elif isinstance(st, m.Repeat) and st.condition is not None and self.always(st.condition) is False:
            self.warn("phase-unreachable", "this loop never runs: its 'while' condition is always false",
                      st.condition.span)
            return None
        inner = [self._unreachable(body) for body in blocks(st)]
        if st.runs in ("", "play"):
            return None
        if st.runs == "one":
            return _weakest(inner)
        if st.runs == "all":
            return _weakest([_first(inner)])
        if st.runs == "loop":  # a loop leaves the deal when it surely runs its body and the body always does
            runs_always = isinstance(st, m.ForEach) or (isinstance(st, m.Repeat) and st.condition is None)
            return "deal" if runs_always and _weakest(inner) == "deal" else None
        raise TypeError(f"the lints do not know how the bodies of {type(st).__name__} run ({st.runs!r})")

    def _if(self, st: m.If) -> Leave:
        outcomes: list[Leave] = []
        decided = False
        for cond, body in st.branches:
            if decided:
                self.warn("phase-unreachable", "this branch can never run: a condition above it is always true",
                          body[0].span if body else cond.span)
                continue
            verdict = self.always(cond)
            if verdict is False:
                self.warn("phase-unreachable", "this branch can never run: its condition is always false, "
                          "whatever the options", cond.span)
                continue
            outcomes.append(self._unreachable(body))
            decided = verdict is True
        if decided:
            if st.orelse:
                self.warn("phase-unreachable", "this 'else' can never run: a condition above it is always true",
                          st.orelse[0].span)
        else:
            outcomes.append(self._unreachable(st.orelse) if st.orelse else None)
        return _weakest(outcomes)

    def _trick_rules(self, st: m.Tricks) -> None:
        for ob in st.obligations:
            if ob.guard is not None and self.always(ob.guard) is False:
                self.warn("phase-unreachable", "this obligation never applies: its condition is always false", ob.span)
        for dec in st.declarations:
            if dec.guard is not None and self.always(dec.guard) is False:
                self.warn("phase-unreachable", f"declaration '{dec.name}' is never offered: its condition is "
                          "always false", dec.span)
        rules: list[m.CardRule | m.TieRule] = [*st.card_rules, *st.ties]
        for rule in rules:
            if rule.guard is not None and self.always(rule.guard) is False:
                self.warn("phase-unreachable", "this rule never applies: its condition is always false", rule.span)
        for card_rule in st.card_rules:
            if not self._matches_some_card(card_rule.pattern):
                self.warn("rule-matches-nothing", "no card of the deck matches this rule's pattern, whatever the "
                          "trump", card_rule.span)
        single = (self.rules.deck is None or (self.rules.deck.copies or 1) < 2)
        for tie in st.ties if single else ():  # two cards of equal power are two copies of one card
            self.warn("rule-matches-nothing", "this deck has no two equal cards, so this rule never decides a "
                      "trick", tie.span, "a double pack is 'copies 2' in the deck")

    def _matches_some_card(self, pattern: m.Pattern) -> bool:
        assert self.rules.deck is not None
        try:
            table = CardModel(self.rules.deck).pattern_table(pattern)
        except ValueError:  # a suit named by a variable: it may match anything
            return True
        return any(any(row) for row in table)

    # ------------------------------------------------------------ point totals
    def _point_totals(self) -> None:
        deck = self.rules.deck
        assert deck is not None
        auctions = [st for st in statements(self.rules.deal) if isinstance(st, m.Auction)]
        if not any(not p.table for p in self.rules.points) or not auctions or self.rules.melds:
            return  # (with meld tables a bid counts melds as well as card points)
        totals = sorted(set(CardModel(deck, self.rules.points).point_totals()[: len(deck.suits)]))
        for au in auctions:
            top = self.value(au.high, self.defaults)
            if not isinstance(top, int) or isinstance(top, bool) or top in totals:
                continue
            if self.value(au.low, self.defaults) == top:
                continue  # a single bid (`bids 1..1`) is a yes-or-no call, not a count of points
            worth = str(totals[0]) if len(totals) == 1 else f"{totals[0]} to {totals[-1]} (by trump suit)"
            self.warn("point-total-mismatch", f"bids go up to {top}, but the point cards are worth {worth} in all",
                      au.span, "make the top bid the total of the points table, or check the table")


class _Cards(Visitor[bool]):
    """Cards taken from the pack, along the statements that always run (defaults)."""

    def __init__(self, linter: _Linter) -> None:
        self.lt = linter
        self.pack = linter.deck_size
        self.hand: int | None = 0  # every hand's size, while all hands are alike
        self.taken: list[str] = []

    def count(self, e: m.Expr) -> int | None:
        v = self.lt.value(e, self.lt.defaults)
        return v if isinstance(v, int) and not isinstance(v, bool) else None

    def block(self, stmts: Sequence[m.Statement], each: int) -> bool:
        """Follow a block; ``each``: how many players run each statement (1, or n in a
        for-each). False when what follows is no longer certain."""
        return all(self.statement(st, each) for st in stmts)

    def statement(self, st: m.Statement, each: int) -> bool:
        """Follow one statement; False when what follows is no longer certain."""
        return self.visit(st, each)

    def generic_visit(self, node: m.Node, *args: Any) -> bool:
        """A statement that moves no card and holds no block takes no card from the pack and
        changes no hand size.

        Raises:
            TypeError: any other statement (one that moves cards or holds blocks needs its own method).
        """
        if isinstance(node, m.Stmt) and not node.moves_cards and not node.bodies:
            return True
        raise TypeError(f"the card lint does not handle {type(node).__name__}")

    def visit_Cut(self, st: m.Statement, each: int) -> bool:  # noqa: N802 - visitor naming
        """Cutting, and the remedies that give played cards back (only in irregularities), take no card
        from the pack."""
        return True

    visit_Leads = visit_ReplayTricks = visit_Cut  # noqa: N815

    def visit_DealCards(self, st: m.DealCards, each: int) -> bool:  # noqa: N802 - visitor naming
        packets = [self.count(p) for p in st.packets]
        if any(p is None for p in packets):
            return False
        per = sum(p for p in packets if p is not None)
        self.pack -= per * self.lt.n
        self.hand = None if self.hand is None else self.hand + per
        return True

    def visit_TurnUp(self, st: m.TurnUp, each: int) -> bool:  # noqa: N802
        k = self.count(st.count)
        if k is None:
            return False
        self.pack -= k
        return True

    def visit_Move(self, st: m.Move, each: int) -> bool:  # noqa: N802
        if st.source.name == self.lt.pack:
            k = self.count(st.amount) if st.amount is not None else None
            if k is None:
                return False
            self.pack = max(0, self.pack - k)
        if st.to.name == "hand" or st.source.name == "hand":
            self.hand = None
        return True

    def visit_Draw(self, st: m.Draw | m.Take, each: int) -> bool:  # noqa: N802
        lt = self.lt
        if st.count.kind == "to":
            target = self.count(st.count.low)
            if target is not None and target > lt.deck_size:
                lt.warn("cards-exceed-deck", f"a hand can never hold {target} cards: the deck has {lt.deck_size}",
                        st.count.span)
                return False
            need = None if target is None or self.hand is None else max(0, target - self.hand)
        elif st.count.kind == "exact":
            need = self.count(st.count.low)
            target = None if need is None or self.hand is None else self.hand + need
        else:  # a range or 'at least': the fewest the player may take
            need, target = self.count(st.count.low), None
        if not self._from_pack(st, need, each):
            return False
        self.hand = target if each == lt.n else None
        return True

    visit_Take = visit_Draw  # noqa: N815

    def _from_pack(self, st: m.Draw | m.Take, need: int | None, each: int) -> bool:
        """Take ``need`` cards for each of ``each`` players from the pack (if that is the
        source); False, after warning when they are too many, when what follows is uncertain."""
        lt = self.lt
        fallback = isinstance(st, m.Draw) and st.fallback is not None
        if st.source.name != lt.pack:
            return True
        if need is None or fallback:
            return False
        wanted = need * each
        if wanted > self.pack:
            verb = "draw" if isinstance(st, m.Draw) else "take"
            lt.warn("cards-exceed-deck", f"{plural(wanted, 'card')} {'is' if wanted == 1 else 'are'} to {verb} here but at most {max(self.pack, 0)} "
                    f"remain in '{lt.pack}' (a deck of {lt.deck_size}, with the options at their defaults)",
                    st.span, "deal fewer cards, or draw with a fallback: 'then from ZONE'")
            return False
        self.pack -= wanted
        return True

    def visit_Keep(self, st: m.Keep, each: int) -> bool:  # noqa: N802
        keep = self.count(st.count)
        if st.source.name == self.lt.pack or (st.rest is not None and st.rest.name == self.lt.pack):
            return False
        self.hand = None if keep is None or self.hand is None or each != self.lt.n else min(keep, self.hand)
        return True

    def visit_Discard(self, st: m.Discard, each: int) -> bool:  # noqa: N802
        k = self.count(st.count.low) if st.count.kind == "exact" else None
        self.hand = None if k is None or self.hand is None or each != self.lt.n else self.hand - k
        return True

    def visit_ForEach(self, st: m.ForEach, each: int) -> bool:  # noqa: N802
        if st.kind != "player":
            return False
        return self.block(st.body, self.lt.n - (1 if st.exclude is not None else 0))

    def visit_Tricks(self, st: m.Tricks, each: int) -> bool:  # noqa: N802
        count = self.count(st.count)
        if count is not None and self.hand is not None and self.hand < count:
            self.lt.warn("no-legal-card", f"{count} tricks are to be played, but each hand holds {plural(self.hand, 'card')} "
                         f"here: after {plural(self.hand, 'trick')} nobody has a card left to play",
                         st.span, "play as many tricks as there are cards in each hand")
        self.hand = None
        return True

    def visit_Redeal(self, st: m.Statement, each: int) -> bool:  # noqa: N802
        return False

    visit_EndDeal = visit_StopLoop = visit_Redeal  # noqa: N815

    def visit_If(self, st: m.If | m.Choose | m.Repeat, each: int) -> bool:  # noqa: N802
        # What follows runs only on some paths, but then it surely runs after what
        # came before: go on unless the block itself may move cards.
        return not any(s.moves_cards for s in list(statements([st]))[1:])

    visit_Choose = visit_Repeat = visit_ForCard = visit_If  # noqa: N815

    def visit_Phase(self, st: m.Phase, each: int) -> bool:  # noqa: N802
        return self.block(st.body, each)  # a named phase: its statements run in order


def _first(outcomes: Sequence[Leave]) -> Leave:
    """How a block of blocks run one after the other leaves: as the first that leaves."""
    return next((o for o in outcomes if o is not None), None)


def _weakest(outcomes: Sequence[Leave]) -> Leave:
    """How a statement with these alternative blocks leaves: only if all of them do."""
    if not outcomes or any(o is None for o in outcomes):
        return None
    first = outcomes[0]
    return first if all(o == first for o in outcomes) else "loop"
