"""The transformer's rules for bids: the bid table, auctions with their rules, and each
player's own bid."""

from __future__ import annotations

from typing import Any

from lark import Token, Transformer, v_args

from . import model as m
from .tree import Guard, Tagged, cite_of, exprs_of, one_of, span_of


@v_args(meta=True)
class BidRules(Transformer[Token, m.RuleFile]):
    """Rules of the parser's transformer for bid tables, auctions and bids."""

    # ------------------------------------------------------------ the bid table
    def bids_section(self, meta: Any, children: list[Any]) -> m.BidTable:
        lines = tuple(c for c in children if isinstance(c, (m.BidGrid, m.NamedBid, m.BidNumbers)))
        return m.BidTable.model_construct(name=str(children[0]), lines=lines, cite=cite_of(children),
                                          span=span_of(meta))

    def bid_grid(self, meta: Any, children: list[Any]) -> m.BidGrid:
        worth = exprs_of(children)
        return m.BidGrid.model_construct(low=int(children[0]), high=int(children[1]),
                                         strains=tuple(c for c in children if isinstance(c, m.Strain)),
                                         worth=worth[0] if worth else None, cite=cite_of(children),
                                         span=span_of(meta))

    def strain(self, meta: Any, children: list[Any]) -> m.Strain:
        code = next((str(c)[1:-1] for c in children if isinstance(c, Token) and c.type == "STRING"), None)
        base = next((int(c) for c in children if isinstance(c, Token) and c.type == "SIGNED_INT"), None)
        return m.Strain.model_construct(name=str(children[0]), code=code, base=base, span=span_of(meta))

    def bid_named(self, meta: Any, children: list[Any]) -> m.NamedBid:
        strings = [str(c)[1:-1] for c in children if isinstance(c, Token) and c.type == "STRING"]
        names = [str(c) for c in children[1:] if isinstance(c, Token) and c.type == "NAME"]
        place = one_of(children, Tagged)
        worth = exprs_of(children)
        code = strings[0] if strings and (place is None or len(strings) > 1) else None
        return m.NamedBid.model_construct(
            name=str(children[0]), code=code, worth=worth[0] if worth else None, plays=names[0] if names else None,
            place=place.tag if place is not None else None, anchor=strings[-1] if place is not None else None,
            cite=cite_of(children), span=span_of(meta))

    def place_above(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("above")

    def place_below(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("below")

    def bid_numbers(self, meta: Any, children: list[Any]) -> m.BidNumbers:
        items = tuple(c for c in children if isinstance(c, tuple))
        return m.BidNumbers.model_construct(items=items, cite=cite_of(children), span=span_of(meta))

    def num_item(self, meta: Any, children: list[Any]) -> tuple[int, int, int]:
        values = [int(c) for c in children]
        low = values[0]
        high = values[1] if len(values) > 1 else low
        return (low, high, values[2] if len(values) > 2 else 1)

    # ------------------------------------------------------------ auctions
    def auction_stmt(self, meta: Any, children: list[Any]) -> m.Auction | m.TableAuction:
        kind: Tagged = children[0]
        source: Tagged = children[2]
        fields: dict[str, Any] = {"rules": tuple(c for c in children if isinstance(c, m.AuctionRule))}
        all_passes = [c for c in children[1:] if isinstance(c, Tagged) and c.tag.startswith("all_pass")]
        allpass = all_passes[0] if all_passes else None
        if len(all_passes) > 1:
            fields["extra_all_pass"] = tuple(c.span or span_of(meta) for c in all_passes[1:])
        if allpass is not None:
            if allpass.tag == "all_pass_none":  # where the new form is written (the older two need no span)
                fields["all_pass_span"] = allpass.span
            if allpass.tag == "all_pass_maker":
                fields["all_pass"] = "maker"
                fields["all_pass_maker"], fields["all_pass_bid"], fields["all_pass_cite"] = allpass.value
            else:
                fields["all_pass"] = "redeal" if allpass.tag == "all_pass_redeal" else "none"
                fields["all_pass_cite"] = allpass.value
        if kind.value is not None:
            fields["passes"] = kind.value
        common = {"kind": kind.tag, "start": children[1], "cite": cite_of(children), "span": span_of(meta), **fields}
        if source.tag == "table":
            return m.TableAuction.model_construct(table=source.value, **common)
        low, high, step = source.value
        if step is not None:
            common["step"] = step
        return m.Auction.model_construct(low=low, high=high, **common)

    def once_around(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("once_around")

    def until_passes(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("until_passes")

    def until_n_passes(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("until_n_passes", int(children[0]))

    def bid_range(self, meta: Any, children: list[Any]) -> Tagged:
        step = next((c.value for c in children if isinstance(c, Tagged) and c.tag == "step"), None)
        return Tagged("range", (children[0], children[1], step))

    def bid_table(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("table", str(children[0]))

    def step(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("step", children[0])

    def all_pass_maker(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("all_pass_maker", (children[0], children[1], cite_of(children)), span_of(meta))

    def all_pass_redeal(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("all_pass_redeal", cite_of(children), span_of(meta))

    def all_pass_none(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("all_pass_none", cite_of(children), span_of(meta))

    def _rule(self, kind: str, meta: Any, children: list[Any], **fields: Any) -> m.AuctionRule:
        guard = one_of(children, Guard)
        return m.AuctionRule.model_construct(kind=kind, guard=guard.expr if guard else None,  # type: ignore[arg-type]
                                             cite=cite_of(children), span=span_of(meta), **fields)

    def double_rule(self, meta: Any, children: list[Any]) -> m.AuctionRule:
        return self._rule("double", meta, children)

    def hold_rule(self, meta: Any, children: list[Any]) -> m.AuctionRule:
        return self._rule("hold", meta, children, who=children[0])

    def no_pass_rule(self, meta: Any, children: list[Any]) -> m.AuctionRule:
        return self._rule("no_pass", meta, children)

    def no_bid_rule(self, meta: Any, children: list[Any]) -> m.AuctionRule:
        return self._rule("no_bid", meta, children, bid=str(children[0]))

    def declarer_rule(self, meta: Any, children: list[Any]) -> m.AuctionRule:
        return self._rule("first_of_side", meta, children)

    # ------------------------------------------------------------ a player's own bid
    def bid_stmt(self, meta: Any, children: list[Any]) -> m.Bid | m.TableBid:
        source: Tagged = children[1]
        above = next((c.value for c in children if isinstance(c, Tagged) and c.tag == "above"), None)
        forbidden = next((c.value for c in children if isinstance(c, Tagged) and c.tag == "but_not"), None)
        or_pass = any(isinstance(c, Tagged) and c.tag == "or_passes" for c in children)
        common = {"player": children[0], "above": above, "forbidden": forbidden, "or_pass": or_pass,
                  "span": span_of(meta)}
        if source.tag == "table":
            return m.TableBid.model_construct(table=source.value, **common)
        low, high, step = source.value
        return m.Bid.model_construct(low=low, high=high, step=step, **common)

    def bid_above(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("above", children[0])

    def bid_but_not(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("but_not", children[0])

    def or_passes(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("or_passes")
