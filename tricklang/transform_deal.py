"""The transformer's rules for the deal: statements, trick play, irregularities, card
patterns and expressions."""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from lark import Token, Transformer, v_args

from . import model as m
from .tree import (
    EXPR_TYPES,
    Block,
    ExceptMarker,
    Fallback,
    FromMarker,
    Guard,
    Matching,
    Tagged,
    build_statement,
    cite_of,
    exprs_of,
    one_of,
    span_of,
    stmts_of,
)
from .words import snake


@cache
def statement_rules() -> dict[str, type[m.Stmt]]:
    """Every kind of statement, by its grammar rule's name (``end_play``: ``EndPlay``)."""
    found: dict[str, type[m.Stmt]] = {}
    pending = list(m.Stmt.__subclasses__())
    while pending:
        cls = pending.pop()
        if cls.__module__.startswith("tricklang.model"):
            found[snake(cls.__name__)] = cls
        pending.extend(cls.__subclasses__())
    return found


@v_args(meta=True)
class DealRules(Transformer[Token, m.RuleFile]):
    """Rules of the parser's transformer for the deal and its expressions."""

    path: str

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        """A rule named after a statement class (``end_play`` for ``EndPlay``) with no method here
        builds that statement by convention (:func:`tricklang.tree.build_statement`)."""
        cls = statement_rules().get(str(data))
        if cls is None:
            return super().__default__(data, children, meta)  # type: ignore[no-untyped-call]
        return build_statement(cls, children, span_of(meta))

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
        if isinstance(src.value, m.Name):  # `trump is spades` (a suit, an order or a suit-valued name)
            return m.SetTrump.model_construct(source="fixed", suit=src.value.name, span=span_of(meta))
        return m.SetTrump.model_construct(source="value", value=src.value, span=span_of(meta))

    def trump_of_zone(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("zone", children[0])

    def trump_none(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("none")

    def trump_value(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("value", children[0])

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
        fallback = one_of(children, Fallback)
        return m.Discard.model_construct(
            player=children[0],
            count=children[1],
            matching=one_of(children, Matching) and one_of(children, Matching).pattern,
            to=children[-1],
            fallback=fallback.pattern if fallback else None,
            span=span_of(meta),
        )

    def fallback(self, meta: Any, children: list[Any]) -> Fallback:
        return Fallback(children[0])


    def take(self, meta: Any, children: list[Any]) -> m.Take:
        verb = next((str(c) for c in children if isinstance(c, Token) and c.type == "NAME"), "take")
        matching = one_of(children, Matching)
        fallback = one_of(children, Fallback)
        return m.Take.model_construct(
            player=children[0],
            count=children[1],
            matching=matching.pattern if matching else None,
            source=one_of(children, m.ZoneRef),
            verb=verb,
            fallback=fallback.pattern if fallback else None,
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
        matching = one_of(children, Matching)
        to = exprs_of(children[1:])
        return m.Expose.model_construct(zone=children[0], matching=matching.pattern if matching else None,
                                        to=to[0] if to else None, span=span_of(meta))

    def forbid(self, meta: Any, children: list[Any]) -> m.Forbid:
        kind: Literal["declare", "choice"] = "choice" if str(children[0]) == "choice" else "declare"
        return m.Forbid.model_construct(kind=kind, declaration=str(children[1]), who=children[2], span=span_of(meta))

    def forbid_bidding(self, meta: Any, children: list[Any]) -> m.Forbid:
        return m.Forbid.model_construct(kind="bidding", declaration="bid", who=children[0], span=span_of(meta))

    def cancel(self, meta: Any, children: list[Any]) -> m.Cancel:
        return m.Cancel.model_construct(label=str(children[0])[1:-1], who=children[1], span=span_of(meta))

    def irregularity(self, meta: Any, children: list[Any]) -> m.Irregularity:
        name = str(children[0])
        by = next((c for c in children[1:] if isinstance(c, EXPR_TYPES)), None)
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

    def option_name(self, meta: Any, children: list[Any]) -> str:
        return str(children[0])

    def pass_name(self, meta: Any, children: list[Any]) -> str:
        return "pass"

    def choice_option(self, meta: Any, children: list[Any]) -> m.ChoiceOption:
        block: Block = children[-1]
        guard = one_of(children, Guard)
        return m.ChoiceOption.model_construct(name=str(children[0]), guard=guard.expr if guard else None,
                                              body=block.stmts, span=span_of(meta))

    def tricks_stmt(self, meta: Any, children: list[Any]) -> m.Tricks:
        exprs = exprs_of(children)
        return m.Tricks.model_construct(
            count=exprs[0],
            leader=exprs[1],
            obligations=tuple(c for c in children if isinstance(c, m.Obligation)),
            declarations=tuple(c for c in children if isinstance(c, m.Declaration)),
            card_rules=tuple(c for c in children if isinstance(c, m.CardRule)),
            ties=tuple(c for c in children if isinstance(c, m.TieRule)),
            hooks=tuple(c for c in children if isinstance(c, m.Hook)),
            plays_for=tuple(c for c in children if isinstance(c, m.PlaysFor)),
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
        place = next((c.value for c in children if isinstance(c, Tagged) and c.tag == "place"), None)
        anchor = str(children[2]) if place is not None else None
        return m.Phase.model_construct(name=str(children[0]), body=body, cite=cite, span=span_of(meta), place=place,
                                       anchor=anchor)

    def phase_place(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("place", str(children[0]))

    def replace_stmt(self, meta: Any, children: list[Any]) -> m.Phase:
        """`replace KEYWORD:` (in a variant): a phase named by the keyword, taken in by its base."""
        phase = self.phase_stmt(meta, children)
        return phase.model_copy(update={"place": "replace", "anchor": phase.name})

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
        return m.CardHolder.model_construct(kind="taker", card=children[-1], span=span_of(meta))  # (after TAKER_OF)

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

    def overtrump_if_able(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("overtrump_if_able")

    def no_undertrump(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("no_undertrump")

    def card_rule(self, meta: Any, children: list[Any]) -> m.CardRule:
        kind: Tagged = children[0]
        guard = one_of(children, Guard)
        return m.CardRule.model_construct(kind=kind.tag, pattern=kind.value,  # type: ignore[arg-type]
                                          guard=guard.expr if guard else None, cite=cite_of(children),
                                          span=span_of(meta))

    def free_card(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("free", children[0])

    def never_wins(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("never_wins", children[0])

    def sets_no_suit(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("sets_no_suit", children[0])

    def tie_rule(self, meta: Any, children: list[Any]) -> m.TieRule:
        matching = one_of(children, Matching)
        guard = one_of(children, Guard)
        return m.TieRule.model_construct(winner=children[0].tag, matching=matching.pattern if matching else None,
                                         guard=guard.expr if guard else None, cite=cite_of(children),
                                         span=span_of(meta))

    def plays_for(self, meta: Any, children: list[Any]) -> m.PlaysFor:
        exprs = exprs_of(children)
        guard = one_of(children, Guard)
        return m.PlaysFor.model_construct(controller=exprs[0], player=exprs[1], guard=guard.expr if guard else None,
                                          cite=cite_of(children), span=span_of(meta))

    def tie_first(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("first")

    def tie_later(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("later")

    def guard(self, meta: Any, children: list[Any]) -> Guard:
        return Guard(children[0])

    def declaration(self, meta: Any, children: list[Any]) -> m.Declaration:
        block: Block = children[-1]
        guard = one_of(children, Guard)
        deadline: Tagged = next(c for c in children if isinstance(c, Tagged))
        holding = children[1] if not isinstance(children[1], Tagged) else None
        if holding is None:
            holding = m.PatWord.model_construct(word="any", span=span_of(meta))
        cite = block.cite
        body = block.stmts
        if cite is None and len(body) == 1 and body[0].cite is not None:
            cite = body[0].cite
        return m.Declaration.model_construct(
            name=str(children[0]),
            holding=holding,
            no_holding=isinstance(children[1], Tagged),
            deadline=deadline.tag,  # type: ignore[arg-type]
            card_number=deadline.value,
            guard=guard.expr if guard else None,
            body=body,
            cite=cite,
            span=span_of(meta),
        )

    def before_nth_card(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("before_nth_card", int(children[0]))

    def at_own_turn(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("at_own_turn")

    def hook(self, meta: Any, children: list[Any]) -> m.Hook:
        event: Tagged = children[0]
        guard = one_of(children, Guard)
        cite = cite_of(children)
        body = stmts_of(children)
        if cite is not None:
            body = tuple(s if s.cite is not None else s.model_copy(update={"cite": cite}) for s in body)
        return m.Hook.model_construct(event=event.tag, pattern=event.value,  # type: ignore[arg-type]
                                      guard=guard.expr if guard else None,
                                      body=body, cite=cite, span=span_of(meta))

    def after_playing(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("playing", children[0])

    def after_leading(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("leading", children[0])

    def after_each_trick(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("each_trick")

    def before_first_card(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("before_first_card")

    def before_playing_it(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("before_playing_it")

    def after_leading_it(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("after_leading_it")
