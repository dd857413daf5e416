"""Expressions of a rule file as typed source over the flat core (``c``).

:class:`ExprWriter` turns a checked expression into Python source that reads the core
(``c.dealer``, ``c.tw[p]`` for tricks won, ``c.z[k]`` for a zone's mask, ``c.v[k]`` for a
variable) and the module's tables, folding what is constant (literals, options) at
compile time. Values are integers: players and sides are seats and side numbers (-1
is nobody), suits their index (-1: no trump), choice values their index among their
option's values, truth values bools, a zone value the index of a zone instance.
What may fail at run time (a seat that is nobody, a variable read before it was set,
a number beyond 18 digits, ``%`` or ``/`` by zero) calls a helper that raises ``Fault(id)``,
the id of a message naming the rule's line (:meth:`Layout.fault`).
"""

from __future__ import annotations

from collections.abc import Mapping

from tricklang import model as m
from tricklang.types import BID, CARD, PLAYER, ZONE, Kind, Type
from tricklang.walk import Unknown

from .layout import Layout
from .trick_names import NAMES as TRICK_NAMES
from .trick_names import TRICK_MASK
from .writer import lit

_COMPARE = {"==": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_ARITH = {"+": "_add", "-": "_sub", "*": "_mul", "%": "_mod", "/": "_div"}

_BUILTINS = {
    "dealer": "c.dealer",
    "maker": "c.maker",
    "bid": "c.bid",
    "nobody": "-1",
    "deal_number": "(c.deal_no + 1)",
    "leader": "(c.tr_leader if c.tr_active else -1)",
    "played_to_trick": "(c.tr_n if c.tr_active else 0)",
    "trump": "c.trump",
    "player_count": "N",
}


class ExprWriter:
    """Expressions to source (see the module docstring).

    ``context`` maps the names bound where the expression is (``player`` in a loop,
    ``offender``, ``declarer``, an irregularity's parameters) to their types; they are
    read from their variable slots.
    """

    def __init__(self, layout: Layout, context: Mapping[str, Type] | None = None, line: int = 0) -> None:
        self.layout = layout
        self.context: dict[str, Type] = dict(context or {})
        self.line = line

    def at(self, line: int) -> ExprWriter:
        """The same writer for another rule line (messages name it)."""
        self.line = line
        return self

    def type(self, e: m.Expr) -> Type:
        return self.layout.symbols.type_of(e, self.context)

    def constant(self, e: m.Expr) -> int | Unknown:
        v = self.layout.constant(e, tuple(self.context))
        if isinstance(v, Unknown):
            return v
        return self.layout.value_int(v)

    # ------------------------------------------------------------ entry points
    def expr(self, e: m.Expr) -> str:
        v = self.constant(e)
        if not isinstance(v, Unknown):
            return lit(v)
        method = getattr(self, "e_" + type(e).__name__)
        text: str = method(e)
        return text

    def cond(self, e: m.Expr | None) -> str | bool:
        """A guard: its source, or True/False when it is constant (or absent: True)."""
        if e is None:
            return True
        v = self.constant(e)
        if not isinstance(v, Unknown):
            return bool(v)
        return self.expr(e)

    def seat(self, e: m.Expr, what: str = "") -> str:
        """A player expression used where a seat is needed: one that may turn out to be
        nobody (or no seat) is checked, raising a fault that names the line."""
        text = self.expr(e)
        if self.layout.depends_on_dealer_only(e) or isinstance(e, m.Name) and e.name in self.context:
            return text
        if isinstance(e, m.IntLit) or text.lstrip("-").isdigit():
            return text
        said = e.name if isinstance(e, m.Name) else "the player"
        where = f" in {what}" if what else ""
        fault = self.layout.fault(f"line {self.line}: a seat is needed{where}, but {said} is nobody")
        return f"_seat({text}, {lit(fault)})"

    def zone(self, e: m.Expr | m.ZoneRef, subject: str | None = None) -> str:
        """A zone instance's index: ``hand of p`` is ``HAND + p``, a shared zone its index."""
        lay = self.layout
        if isinstance(e, m.ZoneRef):
            name, owner_expr = e.name, e.owner
        elif isinstance(e, m.Of):
            name, owner_expr = e.name, e.arg
        elif isinstance(e, m.Name):
            if e.name in self.context and self.context[e.name] == Kind.ZONE:  # pragma: no cover - no zone variables
                raise TypeError("zone variables are not supported")
            name, owner_expr = e.name, None
        else:  # pragma: no cover - checked
            raise TypeError("not a zone")
        decl = lay.zone_by_name[name]
        if decl.kind == "shared":
            return lit(decl.base)
        if owner_expr is not None:
            owner_is_player = self.type(owner_expr) == PLAYER
            owner = self.seat(owner_expr, f"'{name} of'") if owner_is_player else self.expr(owner_expr)
        else:
            if subject is None:  # pragma: no cover - checked
                raise TypeError(f"zone '{name}' needs an owner")
            owner, owner_is_player = subject, True
        if decl.kind == "side" and owner_is_player:
            return f"({lit(decl.base)} + SIDE_OF[{owner}])"
        if decl.base == 0:
            return f"({owner})"
        return f"({lit(decl.base)} + {owner})"

    # ------------------------------------------------------------ expressions
    def e_IntLit(self, e: m.IntLit) -> str:  # noqa: N802 - one method per node class
        return lit(e.value)

    def e_Name(self, e: m.Name) -> str:  # noqa: N802
        lay = self.layout
        name = e.name
        if name in self.context or name in lay.symbols.variables:
            slot = lay.slot(name)
            fault = lay.fault(f"variable '{name}' was read before it was given a value")
            return f"_var(c.v[{lit(slot)}], {lit(fault)})"
        if name in _BUILTINS:
            return _BUILTINS[name]
        if name == "total_bids":
            return "_total_bids(c)"
        if name in ("true", "false"):
            return "True" if name == "true" else "False"
        if name in lay.options:  # pragma: no cover - folded as a constant
            return lit(lay.value_int(lay.options[name]))
        if name in lay.roles:
            return self.expr(lay.roles[name])
        if name in lay.symbols.choice_values:  # pragma: no cover - folded as a constant
            return lit(lay.choice_index[name])
        if name in lay.zone_by_name and lay.zone_by_name[name].kind == "shared":
            return lit(lay.zone_by_name[name].base)
        if name in TRICK_NAMES:  # (a name the file declares is one of the above)
            return TRICK_NAMES[name]
        bid = self.bid_name(name)
        if bid is not None:
            return bid
        teams = [team for line in lay.rules.teams for team in line.names]  # (design 3.9: interpreter.codegen.teams)
        if name in teams or name == "no_team":  # a team is its index among the file's teams; no_team is -1
            return lit(teams.index(name)) if name in teams else "-1"
        if name in lay.tables.suit_names:  # a suit as a value: its index, as trump holds it
            return lit(lay.tables.suit_names.index(name))
        if name in lay.orders:  # a named order as a value: its order index (`trump is` reads it)
            return lit(lay.orders[name])
        raise TypeError(f"cannot compile name '{name}'")  # pragma: no cover - checked

    def bid_name(self, name: str) -> str | None:
        """The auction's names and the bid table's (design 3.7), or None (see interpreter.codegen.auctions:
        a typed bid is its index + 1, 0 ``no_bid``; ``no_trump`` is -1, as ``trump`` holds it)."""
        lay = self.layout
        if name in ("no_bid", "no_trump"):
            return "0" if name == "no_bid" else "-1"
        if name == "doubling":
            return "c.au_dbl" if lay.rich_auction else "0"
        if name == "caller":
            return "c.actor"
        if name == "high_bidder":
            return "c.au_bidder"
        if name == "high_bid":
            if not lay.bid_table:
                return "(c.au_high if c.au_bidder >= 0 else 0)"
            return f"({'c.au_high + 1' if lay.bids_typed else 'BID_VALUE[c.au_high]'} if c.au_bidder >= 0 else 0)"
        if name in lay.orders:  # a named order as a value (a bid's strain): its order index
            return lit(lay.orders[name])
        k = next((i for i, b in enumerate(lay.bid_table) if b.name == name), None)
        return lit(k + 1) if k is not None else None

    def e_SeatLit(self, e: m.SeatLit) -> str:  # noqa: N802 - 'seat N' (the checker keeps N a seat)
        return lit(e.value)

    def e_Of(self, e: m.Of) -> str:  # noqa: N802
        lay = self.layout
        if e.name in ("level", "strain", "worth") and e.name not in lay.counters and e.name not in lay.zone_by_name:
            return f"BID_{e.name.upper()}[{self.expr(e.arg)}]"
        if e.name == "suit":
            if self.type(e.arg) == CARD:  # 'suit of' a card (a loop's card, a card of the trick)
                lay.uses.helpers.add("card_suit")
                return f"_card_suit({self.expr(e.arg)})"
            return f"_suit_of(c, {self.zone(e.arg)})"
        if e.name in lay.counters:
            kind, base, _ = lay.counters[e.name]
            if kind == "shared":
                return f"c.cnt[{lit(base)}]"
            owner_is_player = self.type(e.arg) == PLAYER
            owner = self.seat(e.arg, f"'{e.name} of'") if owner_is_player else self.expr(e.arg)
            if kind == "side" and owner_is_player:
                owner = f"SIDE_OF[{owner}]"
            return f"c.cnt[{lit(base)} + {owner}]"
        if e.name == "team" and e.name not in lay.zone_by_name:  # the team a seat is in this deal (design 3.9)
            return f"c.team[{self.seat(e.arg, chr(39) + 'team of' + chr(39))}]"
        if e.name in ("left", "right", "partner", "side"):
            arg = self.seat(e.arg, f"'{e.name} of'")
            if e.name == "left":
                return f"(({arg}) + 1) % {lit(lay.n)}"
            if e.name == "right":
                return f"(({arg}) + {lit(lay.n - 1)}) % {lit(lay.n)}"
            if e.name == "partner":
                return f"PARTNER[{arg}]"
            return f"SIDE_OF[{arg}]"
        if e.name == "opponents":
            is_player = self.type(e.arg) == PLAYER
            arg = self.seat(e.arg, "'opponents of'") if is_player else self.expr(e.arg)
            if lay.nsides != 2:
                fault = lay.fault("'opponents of' needs exactly two sides")
                return f"_fail({lit(fault)})"
            return f"(1 - SIDE_OF[{arg}])" if is_player else f"(1 - ({arg}))"
        return self.zone(e)

    def e_Call(self, e: m.Call) -> str:  # noqa: N802
        lay = self.layout
        args = e.args
        if e.name in ("min", "max"):
            return f"{e.name}({', '.join(self.expr(a.value) for a in args)})"
        if e.name in lay.lookup_tables:  # 'NAME(i)': a lookup table, read by position from 0
            fault = lay.fault(f"line {e.span.line}: '{e.name}' has no entry at that position "
                              f"(0 to {len(lay.lookup_tables[e.name]) - 1})")
            values = "(" + "".join(f"{lit(v)}, " for v in lay.lookup_tables[e.name]) + ")"
            return f"_at({values}, {self.expr(args[0].value)}, {lit(fault)})"
        if e.name == "abs":  # numbers stay within -MAXN..MAXN, so their absolute value does
            return f"abs({self.expr(args[0].value)})"
        arg = args[0]
        if e.name == "count":
            cards = self.cards(arg.value)
            if arg.matching is None:
                return f"_pc({cards})"
            return f"_pc({cards} & {self.pattern_mask(arg.matching)})"
        if e.name == "melded" and self.type(arg.value) == Kind.TEAM:
            return self.team_call(e)
        if e.name in ("melds", "melded"):
            return self.melds(e)
        if e.name == "points" and self.type(arg.value) in (ZONE, CARD):  # points of cards, under the order in force
            return self.points_of_cards(e)
        if self.type(arg.value) == Kind.TEAM:
            return self.team_call(e)
        is_player = self.type(arg.value) == PLAYER
        who = self.seat(arg.value, f"'{e.name}()'") if is_player else self.expr(arg.value)
        if e.name == "deal_score":  # what the side has scored since the deal began (c.dsc: its score then)
            side = f"SIDE_OF[{who}]" if is_player else who
            return f"(c.sc[{side}] - c.dsc[{side}])"
        if e.name == "tricks":
            return f"c.tw[{who}]" if is_player else f"_side_tricks(c, {who})"
        if e.name == "bids":
            return f"max(c.bids[{who}], 0)" if is_player else f"_side_bids(c, {who})"
        if e.name == "score":
            return f"c.sc[SIDE_OF[{who}]]" if is_player else f"c.sc[{who}]"
        if e.name == "points":
            table = ""
            if len(args) > 1 and isinstance(args[1].value, m.Name):
                table = args[1].value.name
            t = list(lay.tables.point_values).index(table)
            return f"_points(c, {lit(t)}, {who}, {lit(is_player)})"
        raise TypeError(f"unknown function {e.name}")  # pragma: no cover - checked

    def team_call(self, e: m.Call) -> str:
        """``tricks(T)``, ``points(T [, table])``, ``deal_score(T)``, ``melded(T [, table])`` of a team:
        summed over its members this deal (interpreter.codegen.teams)."""
        team = self.expr(e.args[0].value)
        table = e.args[1].value.name if len(e.args) > 1 and isinstance(e.args[1].value, m.Name) else None
        if e.name == "tricks":
            return f"_team_tricks(c, {team})"
        if e.name == "deal_score":
            return f"_team_deal_score(c, {team})"
        if e.name == "melded":
            return f"_team_melded(c, {lit(self.layout.meld_index(table) if table is not None else -1)}, {team})"
        t = list(self.layout.tables.point_values).index(table or "")
        return f"_team_points(c, {lit(t)}, {team})"

    def team_zone(self, e: m.Expr | m.ZoneRef) -> str | None:
        """``ZONE of T`` for a per-player zone and a team: the first instance's index and the team, as
        ``"base, team"`` (the members' zones are read together), or None for any other zone."""
        owner = e.owner if isinstance(e, m.ZoneRef) else e.arg if isinstance(e, m.Of) else None
        if owner is None or not isinstance(e, (m.ZoneRef, m.Of)) or self.type(owner) != Kind.TEAM:
            return None
        decl = self.layout.zone_by_name[e.name]
        return f"{lit(decl.base)}, {self.expr(owner)}"

    def melds(self, e: m.Call) -> str:
        """``melds(ZONE, TABLE)``: what a zone's cards are worth under a meld table, shown to nobody;
        ``melded(X [, TABLE])``: what a player or side has melded this deal (every table by default)."""
        lay = self.layout
        args = e.args
        table = args[1].value.name if len(args) > 1 and isinstance(args[1].value, m.Name) else None
        t = lay.meld_index(table) if table is not None else -1
        if e.name == "melds":
            return f"_meld_count(c, {lit(t)}, {self.cards(args[0].value)}, None)"
        if self.type(args[0].value) == PLAYER:
            return f"_melded(c, {lit(t)}, {self.seat(args[0].value, chr(39) + 'melded()' + chr(39))})"
        return f"_side_melded(c, {lit(t)}, {self.expr(args[0].value)})"

    def points_of_cards(self, e: m.Call) -> str:
        """``points(ZONE [, TABLE])``: what a zone's cards are worth; ``points(CARD)``: what a
        card is worth (``no_card``: 0)."""
        table = ""
        if len(e.args) > 1 and isinstance(e.args[1].value, m.Name):
            table = e.args[1].value.name
        t = list(self.layout.tables.point_values).index(table)
        arg = e.args[0].value
        team = self.team_zone(arg)
        if team is not None:
            return f"_team_zone_points(c, {lit(t)}, {team})"
        if self.type(arg) == ZONE and self.cards(arg) == TRICK_MASK:  # the trick in progress (or just taken)
            return f"sum([_card_points(c, {lit(t)}, k) for k in _in_order(c, {TRICK_MASK})])"
        if self.type(arg) == ZONE:
            return f"_points_of(c, {lit(t)}, {self.zone(arg)})"
        return f"_card_points(c, {lit(t)}, {self.expr(arg)})"

    def e_BinOp(self, e: m.BinOp) -> str:  # noqa: N802
        a, b = self.expr(e.left), self.expr(e.right)
        if e.op == "and":
            return f"({a} and {b})"
        if e.op == "or":
            return f"({a} or {b})"
        if e.op in _ARITH:
            if e.op in ("%", "/"):
                fault = self.layout.fault(f"line {e.span.line}: '{e.op}' by zero")
            else:
                fault = self.layout.fault(f"line {e.span.line}: a number grew beyond 18 digits")
            return f"{_ARITH[e.op]}({a}, {b}, {lit(fault)})"
        if e.op in ("<", "<=", ">", ">=") and self.layout.bid_ties and self.type(e.left) == BID:
            return f"(BID_RANK[{a}] {_COMPARE[e.op]} BID_RANK[{b}])"  # bids of equal worth rank equal
        return f"({a} {_COMPARE[e.op]} {b})"

    def e_Not(self, e: m.Not) -> str:  # noqa: N802
        return f"(not {self.expr(e.operand)})"

    def e_Neg(self, e: m.Neg) -> str:  # noqa: N802
        return f"(-{self.expr(e.operand)})"

    def e_Has(self, e: m.Has) -> str:  # noqa: N802
        cards = self.cards(e.zone)
        if isinstance(e.pattern, m.PatWord) and self.context.get(e.pattern.word) == Kind.SUIT:
            suit = self.e_Name(m.Name.model_construct(name=e.pattern.word, span=e.span))
            return f"(({cards} & SUITS[c.ti * {self.layout.led_stride} + {suit}]) != 0)"
        return f"(({cards} & {self.pattern_mask(e.pattern)}) != 0)"

    # ------------------------------------------------------------ patterns that name a suit held by a variable
    def suit_variable(self, word: str) -> bool:
        """Whether a pattern's word is a name whose value is a suit (``s`` in ``K of s``), not a word of the deck."""
        t = self.layout.tables
        if word in t.ranks or word in t.suit_names or word in t.colours or word in ("trump", "any"):
            return False
        name = m.Name.model_construct(name=word, span=m.NO_SPAN)
        return self.layout.symbols.type_of(name, self.context) == Kind.SUIT

    def has_suit_variable(self, p: m.Pattern) -> bool:
        if isinstance(p, m.PatWord):
            return self.suit_variable(p.word)
        if isinstance(p, m.PatCard):
            return not p.suit.same_colour and self.suit_variable(p.suit.name)
        if isinstance(p, m.PatNot):
            return self.has_suit_variable(p.operand)
        return any(self.has_suit_variable(o) for o in p.options)

    def pattern_mask(self, p: m.Pattern) -> str:
        """The cards a pattern matches under the order in force, as a mask: its fixed table, or (a pattern
        naming a suit held by a variable) the masks of its parts, each suit's table chosen by the variable."""
        lay = self.layout
        if not self.has_suit_variable(p):
            return f"PAT[{lit(lay.pattern(p))} * NT + c.ti]"
        if isinstance(p, (m.PatWord, m.PatCard)):
            each: list[m.Pattern]
            if isinstance(p, m.PatWord):
                word = p.word
                each = [m.PatWord.model_construct(word=s, span=p.span) for s in lay.tables.suit_names]
            else:
                word = p.suit.name
                each = [m.PatCard.model_construct(rank=p.rank, suit=m.SuitRef.model_construct(name=s, span=p.span),
                                                  span=p.span) for s in lay.tables.suit_names]
            ids = "(" + "".join(f"{lit(lay.pattern(q))}, " for q in each) + ")"
            lay.uses.helpers.add("pat_of")
            return f"_pat_of(c, {ids}, {self.e_Name(m.Name.model_construct(name=word, span=p.span))})"
        if isinstance(p, m.PatNot):
            return f"(FULL & ~{self.pattern_mask(p.operand)})"
        joiner = " | " if isinstance(p, m.PatOr) else " & "
        return "(" + joiner.join(self.pattern_mask(o) for o in p.options) + ")"

    def cards(self, e: m.Expr | m.ZoneRef) -> str:
        """The cards of a zone instance, as a mask; ``trick`` (a name the file does not declare as a
        zone) is the trick in progress."""
        name = e.name if isinstance(e, (m.ZoneRef, m.Name)) else ""
        if name == "trick" and name not in self.layout.zone_by_name and getattr(e, "owner", None) is None:
            return TRICK_MASK
        team = self.team_zone(e)
        if team is not None:
            return f"_team_cards(c, {team})"
        return f"c.z[{self.zone(e)}]"

    # ------------------------------------------------------------ the trick in progress (design 3.1)
    def e_CardIs(self, e: m.CardIs) -> str:  # noqa: N802
        if self.has_suit_variable(e.pattern):  # (no card matches nothing: BIT[-1] would be the last card's)
            card = self.expr(e.card)
            return f"(({card}) >= 0 and (BIT[{card}] & {self.pattern_mask(e.pattern)}) != 0)"
        return f"_card_is(c, {self.expr(e.card)}, {lit(self.layout.pattern(e.pattern))})"

    def e_CardBeats(self, e: m.CardBeats) -> str:  # noqa: N802
        return f"_beats(c, {self.expr(e.card)}, {self.expr(e.other)})"

    def e_CardPlayedBy(self, e: m.CardPlayedBy) -> str:  # noqa: N802
        return f"_tr_played_by(c, {self.expr(e.player)})"

    def e_WhoPlayed(self, e: m.WhoPlayed) -> str:  # noqa: N802
        """`who played C`: of a card value (a name of type card, as the checker reads it), or of the first
        card of the trick matching a pattern (`highest`/`lowest`: the strongest or weakest in the trick)."""
        p = e.card.pattern
        if e.card.ranking is None and isinstance(p, m.PatWord):
            name = m.Name.model_construct(name=p.word, span=p.span)
            if self.layout.symbols.type_of(name, self.context) == Kind.CARD:
                return f"_tr_who_card(c, {self.expr(name)})"
        ranking = {None: 0, "highest": 1, "lowest": 2}[e.card.ranking]
        return f"_tr_who(c, {lit(self.layout.pattern(p))}, {lit(ranking)})"

    def e_CardHolder(self, e: m.CardHolder) -> str:  # noqa: N802
        pattern = self.layout.pattern(e.card.pattern)
        ranking = {None: 0, "highest": 1, "lowest": 2}[e.card.ranking]
        kind = {"holder": 0, "original": 1, "taker": 2}[e.kind]
        return f"_holder(c, {lit(pattern)}, {lit(ranking)}, {lit(kind)})"
