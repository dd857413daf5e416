"""The checker's pass over card orders (design 3.3): named orders (``order NAME``) and the
plain rank orders of a suit or a colour (``ranks in NAME``, in the deck or in an order).

A deck line ``ranks in SUIT`` that is not an order of the deck's ranks gives the suit ranks of
its own (design 3.4: ``ranks in atouts 21 20 ... 1``).

Codes: ``bad-order`` (a trump group naming a card twice or a word that is no rank, suit or
colour; a ``ranks`` line that is not a permutation of the ranks of the suits it orders; an
order with neither ``trumps`` nor ``no trumps``, or with both), ``bad-deck`` and ``bad-rank``
(a suit given ranks of its own twice, a rank listed twice in them or too long to be its own
code), ``bad-suit`` (``ranks in`` a name that is neither a suit nor a colour), ``duplicate-name`` (an order named like a suit, an option,
a zone, a counter or another order) and the warning ``unused-order`` (an order that no
``trump is`` selects).
"""

from __future__ import annotations

from . import model as m
from .check_cards import CardChecks
from .check_context import CheckerContext
from .deck import NO_TRUMP, CardModel, all_ranks, own_ranks
from .walk import statements_of


class OrderChecks:
    """Checks the card orders for a :class:`~tricklang.checker.Checker`, reporting through it."""

    def __init__(self, checker: CheckerContext) -> None:
        self.c = checker

    def check(self) -> None:
        """Every ``ranks in`` line of the deck, then every named order."""
        r = self.c.rules
        if r.deck is None:
            return
        given: set[str] = set()  # the suits given ranks of their own so far
        for line in r.deck.suit_ranks:
            if line.scope in own_ranks(r.deck):
                self._own_ranks(line, given)
            else:
                self._ranks(line, r.deck)
        taken = {s.name for s in r.deck.suits} | {o.name for o in r.options} | {z.name for z in r.zones}
        taken |= {c.name for c in r.counters}
        selected = {st.suit for st in statements_of(r) if isinstance(st, m.SetTrump) and st.source == "fixed"}
        for table in r.bids:  # a strain of the bid table selects its order (`trump is strain of bid`)
            for bids in table.lines:
                selected |= {s.name for s in bids.strains} if isinstance(bids, m.BidGrid) else set()
                if isinstance(bids, m.NamedBid) and bids.plays is not None:
                    selected.add(bids.plays)
        for o in r.orders:
            if o.name in taken:
                self.c.error("duplicate-name", f"order '{o.name}' is named like a suit, option, zone, counter "
                             "or another order", o.span)
            taken.add(o.name)
            self._order(o, r.deck)
            if o.name not in selected:
                self.c.warn("unused-order", f"order '{o.name}' is never selected", o.span,
                            f"select it with 'trump is {o.name}', or remove it")

    def _order(self, o: m.Order, deck: m.Deck) -> None:
        if (o.trumps is None) == (not o.no_trumps):
            say = "both 'trumps' and 'no trumps'" if o.no_trumps else "neither 'trumps' nor 'no trumps'"
            self.c.error("bad-order", f"order '{o.name}' has {say}", o.span,
                         "an order says either which cards are its trumps ('trumps ...') or 'no trumps'")
        for line in o.ranks:
            self._ranks(line, deck)
        if o.trumps is not None:
            self._group(o, deck)

    def _group(self, o: m.Order, deck: m.Deck) -> None:
        """The trump group: every word a rank, a suit or a colour; every pattern valid; no card twice."""
        assert o.trumps is not None
        cards_check = CardChecks(self.c)
        words = {*all_ranks(deck), *(s.name for s in deck.suits), *(s.colour for s in deck.suits)}
        words |= {x.name for x in deck.extra_cards}
        errors = len(self.c.diagnostics)
        for item in o.trumps:
            if isinstance(item, str):
                if item not in words:
                    self.c.error("bad-order", f"'{item}' in the trumps of order '{o.name}' is not a rank, "
                                 "a suit, a colour or a card of the deck", o.trumps_span or o.span)
            else:
                cards_check.pattern(item)
        if len(self.c.diagnostics) > errors:
            return
        cards = CardModel(deck)
        seen: set[int] = set()
        for item in o.trumps:
            test = cards.pattern(m.PatWord.model_construct(word=item, span=m.NO_SPAN) if isinstance(item, str) else item)
            found = {c for c in range(cards.size) if test(c, NO_TRUMP)}
            twice = sorted(found & seen)
            if twice:
                self.c.error("bad-order", f"the trumps of order '{o.name}' list {cards.codes[twice[0]]} twice",
                             o.trumps_span or o.span, "each card has one place in a trump group")
                return
            seen |= found

    def _ranks(self, line: m.SuitRanks, deck: m.Deck) -> None:
        """A plain rank order: `in` a suit or a colour of the deck, each of the deck's ranks once (or,
        in an order, each rank of a suit with ranks of its own once)."""
        if line.scope and line.scope not in {s.name for s in deck.suits} | {s.colour for s in deck.suits}:
            self.c.error("bad-suit", f"'ranks in {line.scope}': '{line.scope}' is neither a suit nor a colour "
                         "of the deck", line.span)
            return
        ranks = own_ranks(deck).get(line.scope, deck.ranks)
        if sorted(line.ranks) != sorted(ranks):
            self.c.error("bad-order", "a 'ranks' line lists every rank of the suits it orders once, high to low: "
                         + " ".join(line.ranks) + " is not an order of " + " ".join(ranks), line.span,
                         "a suit (not a colour) may have ranks of its own, given once in the deck: "
                         "'ranks in atouts 21 20 19 ...'")

    def _own_ranks(self, line: m.SuitRanks, given: set[str]) -> None:
        """A deck line giving a suit ranks of its own (design 3.4): once per suit, each rank once, each
        short enough to be its own code."""
        if line.scope in given:
            self.c.error("bad-deck", f"suit '{line.scope}' is given ranks of its own twice", line.span,
                         "give a suit its ranks in one 'ranks in' line")
            return
        given.add(line.scope)
        twice = [r for k, r in enumerate(line.ranks) if r in line.ranks[:k]]
        if twice:
            self.c.error("bad-rank", f"rank '{twice[0]}' is listed twice in 'ranks in {line.scope}'", line.span)
        long = [r for r in line.ranks if len(r) > 3]
        if long:
            self.c.error("bad-rank", f"rank '{long[0]}' of suit '{line.scope}' is too long to be its own code: "
                         "codes are 1 to 3 characters (21, 1)", line.span)
