"""The transformer's rules for card patterns and expressions."""

from __future__ import annotations

from typing import Any, cast

from lark import Token, Transformer, v_args

from . import model as m
from .tree import Matching, one_of, span_of


@v_args(meta=True)
class ExprRules(Transformer[Token, m.RuleFile]):
    """Rules of the parser's transformer for patterns and expressions."""

    # ------------------------------------------------------------ patterns
    def pattern(self, meta: Any, children: list[Any]) -> Any:
        if len(children) == 1:
            return children[0]
        return m.PatOr.model_construct(options=tuple(children), span=span_of(meta))

    def pat_all(self, meta: Any, children: list[Any]) -> m.PatAnd:
        return m.PatAnd.model_construct(options=tuple(children), span=span_of(meta))

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

    def seat_lit(self, meta: Any, children: list[Any]) -> m.SeatLit:
        return m.SeatLit.model_construct(value=int(children[0]), span=span_of(meta))

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

    def card_is(self, meta: Any, children: list[Any]) -> m.CardIs:
        return m.CardIs.model_construct(card=children[0], pattern=children[1], span=span_of(meta))

    def card_beats(self, meta: Any, children: list[Any]) -> m.CardBeats:
        return m.CardBeats.model_construct(card=children[0], other=children[1], span=span_of(meta))

    def card_played_by(self, meta: Any, children: list[Any]) -> m.CardPlayedBy:
        return m.CardPlayedBy.model_construct(player=children[0], span=span_of(meta))

    def who_played(self, meta: Any, children: list[Any]) -> m.WhoPlayed:
        return m.WhoPlayed.model_construct(card=children[0], span=span_of(meta))
