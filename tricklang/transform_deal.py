"""The transformer's rules for the deal: statements, trick play, irregularities, card
patterns and expressions."""

from __future__ import annotations

from typing import Any, Literal, cast

from lark import Token, Transformer, v_args

from . import model as m
from .tree import (
    Block,
    ExceptMarker,
    FromMarker,
    Guard,
    Matching,
    Tagged,
    cite_of,
    exprs_of,
    one_of,
    span_of,
    stmts_of,
)


@v_args(meta=True)
class DealRules(Transformer[Token, m.RuleFile]):
    """Rules of the parser's transformer for the deal and its expressions."""

    path: str

    # ------------------------------------------------------------ the deal
    def deal_section(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("deal", (stmts_of(children), span_of(meta)))

    def stmt(self, meta: Any, children: list[Any]) -> Any:
        node = children[0]
        cite = cite_of(children[1:])
        if cite is not None and isinstance(node, m.Stmt):
            return node.model_copy(update={"cite": cite})
        return node

    def inline_suite(self, meta: Any, children: list[Any]) -> Block:
        node = children[0]
        cite = cite_of(children[1:])
        if cite is not None:
            node = node.model_copy(update={"cite": cite})
        return Block((node,), None)

    def block_suite(self, meta: Any, children: list[Any]) -> Block:
        # A block's citation covers the statements in it that cite nothing themselves.
        cite = cite_of(children)
        stmts = stmts_of(children)
        if cite is not None:
            stmts = tuple(s if s.cite is not None else s.model_copy(update={"cite": cite}) for s in stmts)
        return Block(stmts, cite)

    def deal_cards(self, meta: Any, children: list[Any]) -> m.DealCards:
        start = one_of(children, FromMarker)
        return m.DealCards.model_construct(
            packets=tuple(exprs_of(children)), first=start.expr if start else None, span=span_of(meta)
        )

    def start_from(self, meta: Any, children: list[Any]) -> FromMarker:
        return FromMarker(children[0])

    def except_clause(self, meta: Any, children: list[Any]) -> ExceptMarker:
        return ExceptMarker(children[0])

    def turn_up(self, meta: Any, children: list[Any]) -> m.TurnUp:
        return m.TurnUp.model_construct(count=children[0], to=children[1], span=span_of(meta))

    def set_trump(self, meta: Any, children: list[Any]) -> m.SetTrump:
        src: Tagged = children[0]
        if src.tag == "zone":
            return m.SetTrump.model_construct(source="zone", zone=src.value, span=span_of(meta))
        if src.tag == "none":
            return m.SetTrump.model_construct(source="none", span=span_of(meta))
        return m.SetTrump.model_construct(source="fixed", suit=src.value, span=span_of(meta))

    def trump_of_zone(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("zone", children[0])

    def trump_none(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("none")

    def trump_fixed(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("fixed", str(children[0]))

    def name_trump(self, meta: Any, children: list[Any]) -> m.NameTrump:
        exprs = exprs_of(children)
        return m.NameTrump.model_construct(player=exprs[0], exclude=exprs[1] if len(exprs) > 1 else None, span=span_of(meta))

    def score(self, meta: Any, children: list[Any]) -> m.Score:
        label = str(children[2])[1:-1] if len(children) > 2 else ""
        return m.Score.model_construct(who=children[0], amount=children[1], label=label, span=span_of(meta))

    def lose(self, meta: Any, children: list[Any]) -> m.Score:
        label = str(children[2])[1:-1] if len(children) > 2 else ""
        return m.Score.model_construct(who=children[0], amount=children[1], label=label, negative=True, span=span_of(meta))

    def let_stmt(self, meta: Any, children: list[Any]) -> m.Let:
        return m.Let.model_construct(name=str(children[0]), value=children[1], span=span_of(meta))

    def set_stmt(self, meta: Any, children: list[Any]) -> m.Let:
        return m.Let.model_construct(name=str(children[0]), value=children[1], rebind=True, span=span_of(meta))

    def stop(self, meta: Any, children: list[Any]) -> m.StopLoop:
        return m.StopLoop.model_construct(span=span_of(meta))

    def pass_stmt(self, meta: Any, children: list[Any]) -> m.Pass:
        return m.Pass.model_construct(span=span_of(meta))

    def end_deal(self, meta: Any, children: list[Any]) -> m.EndDeal:
        return m.EndDeal.model_construct(span=span_of(meta))

    def end_match(self, meta: Any, children: list[Any]) -> m.EndMatch:
        return m.EndMatch.model_construct(span=span_of(meta))

    def discard(self, meta: Any, children: list[Any]) -> m.Discard:
        return m.Discard.model_construct(
            player=children[0],
            count=children[1],
            matching=one_of(children, Matching) and one_of(children, Matching).pattern,
            to=children[-1],
            span=span_of(meta),
        )

    def take(self, meta: Any, children: list[Any]) -> m.Take:
        verb = next((str(c) for c in children if isinstance(c, Token) and c.type == "NAME"), "take")
        matching = one_of(children, Matching)
        return m.Take.model_construct(
            player=children[0],
            count=children[1],
            matching=matching.pattern if matching else None,
            source=one_of(children, m.ZoneRef),
            verb=verb,
            span=span_of(meta),
        )

    def keep(self, meta: Any, children: list[Any]) -> m.Keep:
        zones = [c for c in children if isinstance(c, m.ZoneRef)]
        verb = next((str(c) for c in children if isinstance(c, Token) and c.type == "NAME"), "take")
        what = one_of(children, Tagged)
        count = next(c for c in children[1:] if not isinstance(c, (Tagged, m.ZoneRef)))
        return m.Keep.model_construct(player=children[0], source=zones[0], count=count, verb=verb,
                      rest=zones[1] if len(zones) > 1 else None, choose=what is not None and what.tag == "any",
                      span=span_of(meta))

    def keep_all(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("all")

    def keep_any(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("any")

    def cut(self, meta: Any, children: list[Any]) -> m.Cut:
        return m.Cut.model_construct(zone=children[0], span=span_of(meta))

    def leads_stmt(self, meta: Any, children: list[Any]) -> m.Leads:
        return m.Leads.model_construct(player=children[0], span=span_of(meta))

    def replay(self, meta: Any, children: list[Any]) -> m.ReplayTricks:
        return m.ReplayTricks.model_construct(span=span_of(meta))

    def becomes_dealer(self, meta: Any, children: list[Any]) -> m.BecomesDealer:
        return m.BecomesDealer.model_construct(player=children[0], span=span_of(meta))

    def draw(self, meta: Any, children: list[Any]) -> m.Draw:
        zones = [c for c in children if isinstance(c, m.ZoneRef)]
        matching = one_of(children, Matching)
        return m.Draw.model_construct(
            player=children[0],
            count=children[1],
            source=zones[0],
            fallback=zones[1] if len(zones) > 1 else None,
            fallback_matching=matching.pattern if matching else None,
            span=span_of(meta),
        )

    def move(self, meta: Any, children: list[Any]) -> m.Move:
        zones = [c for c in children if isinstance(c, m.ZoneRef)]
        matching = one_of(children, Matching)
        mode, amount = children[0].value
        return m.Move.model_construct(
            mode=mode,
            amount=amount,
            matching=matching.pattern if matching else None,
            source=zones[0],
            to=zones[1],
            bottom=any(isinstance(c, Token) and c.type == "BOTTOM" for c in children),
            span=span_of(meta),
        )

    def move_all(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("count", ("all", None))

    def move_top(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("count", ("top", children[0]))

    def move_random(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("count", ("random", children[0]))

    def redeal(self, meta: Any, children: list[Any]) -> m.Redeal:
        return m.Redeal.model_construct(same_dealer=children[0].tag == "same", span=span_of(meta))

    def same_dealer(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("same")

    def next_dealer(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("next")

    def expose(self, meta: Any, children: list[Any]) -> m.Expose:
        return m.Expose.model_construct(zone=children[0], span=span_of(meta))

    def forbid(self, meta: Any, children: list[Any]) -> m.Forbid:
        kind: Literal["declare", "choice"] = "choice" if str(children[0]) == "choice" else "declare"
        return m.Forbid.model_construct(kind=kind, declaration=str(children[1]), who=children[2], span=span_of(meta))

    def forbid_bidding(self, meta: Any, children: list[Any]) -> m.Forbid:
        return m.Forbid.model_construct(kind="bidding", declaration="bid", who=children[0], span=span_of(meta))

    def cancel(self, meta: Any, children: list[Any]) -> m.Cancel:
        return m.Cancel.model_construct(label=str(children[0])[1:-1], who=children[1], span=span_of(meta))

    def irregularity(self, meta: Any, children: list[Any]) -> m.Irregularity:
        name = str(children[0])
        by = next((c for c in children[1:] if isinstance(c, (m.IntLit, m.Name, m.Of, m.Call, m.BinOp, m.Not, m.Neg, m.Has))), None)
        phases = tuple(str(c) for c in children[1:] if isinstance(c, Token) and c.type == "NAME")
        guard = one_of(children, Guard)
        cite = cite_of(children)
        body = stmts_of(children)
        if cite is not None:
            body = tuple(s if s.cite is not None else s.model_copy(update={"cite": cite}) for s in body)
        params = next((c for c in children if isinstance(c, tuple)), ())
        return m.Irregularity.model_construct(
            name=name, params=params, by=by, phases=phases, guard=guard.expr if guard else None, body=body, cite=cite,
            span=span_of(meta)
        )

    def irr_params(self, meta: Any, children: list[Any]) -> tuple[m.IrregularityParam, ...]:
        return tuple(children)

    def irr_count_param(self, meta: Any, children: list[Any]) -> m.IrregularityParam:
        return m.IrregularityParam.model_construct(name=str(children[0]), kind="count", low=int(children[1]), high=int(children[2]),
                                   span=span_of(meta))

    def irr_card_param(self, meta: Any, children: list[Any]) -> m.IrregularityParam:
        matching = one_of(children, Matching)
        return m.IrregularityParam.model_construct(name=str(children[0]), kind="card", zone=one_of(children, m.ZoneRef),
                                   matching=matching.pattern if matching else None, span=span_of(meta))

    def irr_suit_param(self, meta: Any, children: list[Any]) -> m.IrregularityParam:
        return m.IrregularityParam.model_construct(name=str(children[0]), kind="suit", span=span_of(meta))

    def count_exact(self, meta: Any, children: list[Any]) -> m.Count:
        return m.Count.model_construct(kind="exact", low=children[0], span=span_of(meta))

    def count_range(self, meta: Any, children: list[Any]) -> m.Count:
        return m.Count.model_construct(kind="range", low=children[0], high=children[1], span=span_of(meta))

    def count_at_least(self, meta: Any, children: list[Any]) -> m.Count:
        return m.Count.model_construct(kind="at_least", low=children[0], span=span_of(meta))

    def count_to(self, meta: Any, children: list[Any]) -> m.Count:
        return m.Count.model_construct(kind="to", low=children[0], span=span_of(meta))

    def matching(self, meta: Any, children: list[Any]) -> Matching:
        return Matching(children[0])

    def zone_ref(self, meta: Any, children: list[Any]) -> m.ZoneRef:
        owner = children[1] if len(children) > 1 else None
        return m.ZoneRef.model_construct(name=str(children[0]), owner=owner, span=span_of(meta))

    def if_stmt(self, meta: Any, children: list[Any]) -> m.If:
        branches = [(children[0], children[1].stmts)]
        orelse: tuple[Any, ...] = ()
        cite = children[1].cite
        for c in children[2:]:
            if isinstance(c, Tagged) and c.tag == "elif":
                branches.append(c.value)
            elif isinstance(c, Tagged) and c.tag == "else":
                orelse = c.value
        return m.If.model_construct(branches=tuple(branches), orelse=orelse, cite=cite, span=span_of(meta))

    def elif_clause(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("elif", (children[0], children[1].stmts))

    def else_clause(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("else", children[0].stmts)

    def repeat_stmt(self, meta: Any, children: list[Any]) -> m.Repeat:
        block: Block = children[-1]
        cond = children[1] if len(children) == 3 else None
        return m.Repeat.model_construct(bound=children[0], condition=cond, body=block.stmts, cite=block.cite, span=span_of(meta))

    def for_stmt(self, meta: Any, children: list[Any]) -> m.ForEach:
        block: Block = children[-1]
        kind = str(children[0])
        start = exclude = None
        for c in children[1:-1]:
            if isinstance(c, FromMarker):
                start = c.expr
            elif isinstance(c, ExceptMarker):
                exclude = c.expr
        return m.ForEach.model_construct(
            kind="side" if kind == "side" else "player",
            start=start,
            exclude=exclude,
            body=block.stmts,
            cite=block.cite,
            span=span_of(meta),
        )

    def choose_stmt(self, meta: Any, children: list[Any]) -> m.Choose:
        options = tuple(c for c in children if isinstance(c, m.ChoiceOption))
        return m.Choose.model_construct(player=children[0], options=options, cite=cite_of(children), span=span_of(meta))

    def choice_option(self, meta: Any, children: list[Any]) -> m.ChoiceOption:
        block: Block = children[1]
        body = block.stmts
        return m.ChoiceOption.model_construct(name=str(children[0]), body=body, span=span_of(meta))

    def auction_stmt(self, meta: Any, children: list[Any]) -> m.Auction:
        kind: Tagged = children[0]
        exprs = exprs_of(children[1:])
        fields: dict[str, Any] = {}
        allpass = next((c for c in children[1:] if isinstance(c, Tagged)), None)
        if allpass is not None:
            if allpass.tag == "all_pass_maker":
                fields["all_pass"] = "maker"
                fields["all_pass_maker"], fields["all_pass_bid"], fields["all_pass_cite"] = allpass.value
            else:
                fields["all_pass"] = "redeal"
                fields["all_pass_cite"] = allpass.value
        return m.Auction.model_construct(
            kind=kind.tag,  # type: ignore[arg-type]
            start=exprs[0],
            low=exprs[1],
            high=exprs[2],
            cite=next((c for c in children if isinstance(c, m.Citation)), None),
            span=span_of(meta),
            **fields,
        )

    def once_around(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("once_around")

    def until_passes(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("until_passes")

    def all_pass_maker(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("all_pass_maker", (children[0], children[1], cite_of(children)))

    def all_pass_redeal(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("all_pass_redeal", cite_of(children))

    def tricks_stmt(self, meta: Any, children: list[Any]) -> m.Tricks:
        exprs = exprs_of(children)
        return m.Tricks.model_construct(
            count=exprs[0],
            leader=exprs[1],
            obligations=tuple(c for c in children if isinstance(c, m.Obligation)),
            declarations=tuple(c for c in children if isinstance(c, m.Declaration)),
            cite=cite_of(children),
            span=span_of(meta),
        )

    def lead_first(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("lead_first", children[0])

    def not_first_trick(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("not_first_trick", children[0])

    def first_lead_trump(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("first_lead_trump")

    def phase_stmt(self, meta: Any, children: list[Any]) -> m.Phase:
        cite = cite_of(children)
        body = stmts_of(children)
        if cite is not None:
            body = tuple(s if s.cite is not None else s.model_copy(update={"cite": cite}) for s in body)
        return m.Phase.model_construct(name=str(children[0]), body=body, cite=cite, span=span_of(meta))

    def bid_stmt(self, meta: Any, children: list[Any]) -> m.Bid:
        exprs = exprs_of(children)
        return m.Bid.model_construct(player=exprs[0], low=exprs[1], high=exprs[2],
                     forbidden=exprs[3] if len(exprs) > 3 else None, span=span_of(meta))

    def add_stmt(self, meta: Any, children: list[Any]) -> m.Add:
        return m.Add.model_construct(amount=children[0], counter=str(children[1]), owner=children[2], span=span_of(meta))

    def card_any(self, meta: Any, children: list[Any]) -> m.CardChoice:
        return m.CardChoice.model_construct(pattern=children[0], span=span_of(meta))

    def card_highest(self, meta: Any, children: list[Any]) -> m.CardChoice:
        return m.CardChoice.model_construct(ranking="highest", pattern=children[0], span=span_of(meta))

    def card_lowest(self, meta: Any, children: list[Any]) -> m.CardChoice:
        return m.CardChoice.model_construct(ranking="lowest", pattern=children[0], span=span_of(meta))

    def holder_of(self, meta: Any, children: list[Any]) -> m.CardHolder:
        return m.CardHolder.model_construct(kind="holder", card=children[0], span=span_of(meta))

    def original_holder_of(self, meta: Any, children: list[Any]) -> m.CardHolder:
        return m.CardHolder.model_construct(kind="original", card=children[0], span=span_of(meta))

    def taker_of(self, meta: Any, children: list[Any]) -> m.CardHolder:
        return m.CardHolder.model_construct(kind="taker", card=children[0], span=span_of(meta))

    def obligation(self, meta: Any, children: list[Any]) -> m.Obligation:
        kind: Tagged = children[0]
        guard = one_of(children, Guard)
        return m.Obligation.model_construct(
            kind=kind.tag,  # type: ignore[arg-type]
            pattern=kind.value,
            guard=guard.expr if guard else None,
            cite=cite_of(children),
            span=span_of(meta),
        )

    def follow_suit(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("follow_suit")

    def may_trump(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("may_trump")

    def trump_if_void(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("trump_if_void")

    def beat_if_able(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("beat_if_able")

    def lead_until_broken(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("lead_until_broken", children[0])

    def guard(self, meta: Any, children: list[Any]) -> Guard:
        return Guard(children[0])

    def declaration(self, meta: Any, children: list[Any]) -> m.Declaration:
        block: Block = children[-1]
        guard = one_of(children, Guard)
        deadline: Tagged = children[2]
        cite = block.cite
        body = block.stmts
        if cite is None and len(body) == 1 and body[0].cite is not None:
            cite = body[0].cite
        return m.Declaration.model_construct(
            name=str(children[0]),
            holding=children[1],
            deadline=deadline.tag,  # type: ignore[arg-type]
            guard=guard.expr if guard else None,
            body=body,
            cite=cite,
            span=span_of(meta),
        )

    def before_first_card(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("before_first_card")

    def before_playing_it(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("before_playing_it")

    def after_leading_it(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("after_leading_it")

    # ------------------------------------------------------------ patterns
    def pattern(self, meta: Any, children: list[Any]) -> Any:
        if len(children) == 1:
            return children[0]
        return m.PatOr.model_construct(options=tuple(children), span=span_of(meta))

    def pat_negate(self, meta: Any, children: list[Any]) -> m.PatNot:
        return m.PatNot.model_construct(operand=children[0], span=span_of(meta))

    def pat_word(self, meta: Any, children: list[Any]) -> m.PatWord:
        return m.PatWord.model_construct(word=str(children[0]), span=span_of(meta))

    def pat_card(self, meta: Any, children: list[Any]) -> m.PatCard:
        return m.PatCard.model_construct(rank=str(children[0]), suit=children[1], span=span_of(meta))

    def suit_named(self, meta: Any, children: list[Any]) -> m.SuitRef:
        return m.SuitRef.model_construct(name=str(children[0]), span=span_of(meta))

    def suit_same_colour(self, meta: Any, children: list[Any]) -> m.SuitRef:
        return m.SuitRef.model_construct(name=str(children[0]), same_colour=True, span=span_of(meta))

    # ------------------------------------------------------------ expressions
    def int_lit(self, meta: Any, children: list[Any]) -> m.IntLit:
        return m.IntLit.model_construct(value=int(children[0]), span=span_of(meta))

    def name(self, meta: Any, children: list[Any]) -> m.Name:
        return m.Name.model_construct(name=str(children[0]), span=span_of(meta))

    def of_expr(self, meta: Any, children: list[Any]) -> m.Of:
        return m.Of.model_construct(name=str(children[0]), arg=children[1], span=span_of(meta))

    def call(self, meta: Any, children: list[Any]) -> m.Call:
        args = tuple(c for c in children[1:] if isinstance(c, m.Arg))
        return m.Call.model_construct(name=str(children[0]), args=args, span=span_of(meta))

    def arg(self, meta: Any, children: list[Any]) -> m.Arg:
        matching = one_of(children, Matching)
        return m.Arg.model_construct(value=children[0], matching=matching.pattern if matching else None, span=span_of(meta))

    def _chain(self, meta: Any, children: list[Any], ops: list[str] | None = None) -> Any:
        node = children[0]
        i = 1
        while i < len(children):
            if ops is not None:
                op, right = ops[0], children[i]
                i += 1
            else:
                op, right = str(children[i]), children[i + 1]
                i += 2
            # Each link of a chain like `5 - 2 - 1` spans its own operands only.
            first, last = node.span, right.span
            span = m.Span.model_construct(line=first.line, column=first.column, end_line=last.end_line, end_column=last.end_column)
            node = m.BinOp.model_construct(op=cast(m.BinaryOp, op), left=node, right=right, span=span)
        return node

    def or_expr(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children, ["or"])

    def and_expr(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children, ["and"])

    def comparison(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children)

    def sum(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children)

    def product(self, meta: Any, children: list[Any]) -> Any:
        return self._chain(meta, children)

    def not_op(self, meta: Any, children: list[Any]) -> m.Not:
        return m.Not.model_construct(operand=children[0], span=span_of(meta))

    def neg(self, meta: Any, children: list[Any]) -> m.Neg:
        return m.Neg.model_construct(operand=children[0], span=span_of(meta))

    def has(self, meta: Any, children: list[Any]) -> m.Has:
        return m.Has.model_construct(zone=children[0], pattern=children[1], span=span_of(meta))
