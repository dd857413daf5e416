"""Auctions and bids in English, for :mod:`tricklang.explain`, on the words of :mod:`tricklang.prose`."""

from __future__ import annotations

from . import model as m
from .prose import Item, Words

__all__ = ["BidWords"]

_RULES = {
    "double": "a player may double a bid of the other side, and a player may redouble a double of his side's bid",
    "no_pass": "the player to call may not pass",
    "first_of_side": "the contract's maker is the player of the winning side who first bid its strain",
}


class BidWords(Words):
    """The readings of auctions and players' bids (the statements are :class:`tricklang.prose_statements.Prose`'s)."""

    def auction(self, st: m.Auction | m.TableAuction) -> list[Item]:
        bids = self.bids_run(st)
        start = self.expr(st.start)
        if st.kind == "once_around":
            text = (f"An auction, once around the table starting with {start}: each player passes "
                    f"or bids more than the highest bid so far; {bids}; the highest bidder becomes the maker")
        elif st.kind == "until_n_passes":
            text = (f"An auction starting with {start}, going round until {st.passes} passes in a row follow a call "
                    f"(a player who passed may call again): {bids}; the highest bidder becomes the maker")
        else:
            text = (f"An auction starting with {start}, going round until all but one have passed: "
                    f"{bids}; the highest bidder becomes the maker")
        subs = [self.auction_rule(rule) for rule in st.rules]
        pass_line = [st.all_pass_cite.span.line] if st.all_pass_cite is not None else []
        if st.all_pass == "maker" and st.all_pass_maker is not None and st.all_pass_bid is not None:
            sub = f"If all pass, {self.expr(st.all_pass_maker)} becomes the maker at {self.expr(st.all_pass_bid)}"
        elif st.all_pass == "none":
            sub = "If all pass, there is no contract: nobody is maker and the deal is played without one"
        else:
            sub = "If all pass, the cards are thrown in and dealt again"
        subs.append(self.item(sub, st.all_pass_cite, lines=pass_line))
        return [self.item(text, st.cite, lines=[st.span.line], subs=subs)]

    def bids_run(self, st: m.Auction | m.TableAuction) -> str:
        if isinstance(st, m.TableAuction):
            return f"the bids are those of the table **{st.table}**, in rank order"
        bids = f"bids run from {self.expr(st.low)} to {self.expr(st.high)}"
        if st.step is not None:
            bids += f" in steps of {self.expr(st.step)}"
        return bids

    def auction_rule(self, rule: m.AuctionRule) -> Item:
        if rule.kind == "hold":
            who = self.expr(rule.who) if rule.who is not None else "a player"
            text = f"{who} may hold: take the highest bid at its value"
        elif rule.kind == "no_bid":
            text = f"nobody may bid **{rule.bid}**"
        else:
            text = _RULES[rule.kind]
        if rule.guard is not None:
            text += f", but only when {self.condition(rule.guard)}"
        return self.item(text[:1].upper() + text[1:], rule.cite, lines=[rule.span.line])

    def own_bid(self, st: m.Bid | m.TableBid) -> str:
        who = self.expr(st.player)
        if isinstance(st, m.TableBid):
            text = f"{who} bids one of the bids of the table **{st.table}**"
        else:
            step = f" in steps of {self.expr(st.step)}" if st.step is not None else ""
            text = f"{who} bids a number from {self.expr(st.low)} to {self.expr(st.high)}{step}"
        if st.above is not None:
            text += f" above {self.expr(st.above)}"
        if st.forbidden is not None:
            text += f", but not {self.expr(st.forbidden)}"
        if st.or_pass:
            text += ", or passes"
        return text
