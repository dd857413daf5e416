"""What the runtime can play: the one table the runtime edits to turn a construct on.

The language (grammar, model, checker) may know constructs that the runtime cannot
play yet: the language half of a construct lands before its runtime half. So that
nothing that does not run is loadable, every construct a rule file uses is named by a
key, and the checker refuses a key that is not in :data:`RUNTIME` with
``unsupported-construct`` at the rule's line ("... is part of the language but this
runtime cannot play it yet"). When the runtime learns a construct, it adds the key
here, and nowhere else.

A key is a model class (``Cut``, ``Tricks``), or a class and the value of its *form*
field (:attr:`tricklang.model.Node.form`): ``BinOp./``, ``Obligation.follow_suit``,
``Call.abs``; for built-in names, ``Name.dealer`` and ``Of.left`` (the checker's typer
reports those, as only it knows when a name is the built-in one, not a name the file
declares). :func:`language_constructs` lists every key of the language, found from
the model and the built-in tables; a test keeps this table inside it.

>>> "Tricks" in RUNTIME and "Obligation.follow_suit" in RUNTIME
True
>>> from tricklang import model as m
>>> keys_of(m.Expose(zone=m.ZoneRef(name="hand", span=m.NO_SPAN), to=m.Name(name="dealer", span=m.NO_SPAN), span=m.NO_SPAN))
['Expose', 'Expose.to']
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Final

from . import model as m
from .kinds import AUCTION_NAMES, BID_FORMS, NEW_NAMES
from .types import BUILTIN_NAMES, FUNCTIONS, LOOP_NAMES, OF_FORMS, TRICK_NAMES
from .walk import every_node
from .words import STATEMENT_WORDS, snake

RUNTIME: Final[frozenset[str]] = frozenset({
    # sections and their parts
    "RuleFile", "Citation", "Role", "Deck", "SuitDecl", "Option", "Zone", "Counter", "PointCard", "Match",
    "Irregularity", "IrregularityParam",
    # what a declaration's effect may do in the middle of trick play
    "InPlay.Score", "InPlay.Let", "InPlay.If", "InPlay.Pass", "InPlay.Expose",
    # statements and their parts
    "DealCards", "TurnUp", "SetTrump.zone", "SetTrump.none", "SetTrump.fixed", "NameTrump", "Bid", "Add", "Phase",
    "Score", "Let", "StopLoop", "Pass", "EndDeal", "EndMatch", "Discard", "Take", "Keep", "Cut", "Leads",
    "ReplayTricks", "BecomesDealer", "Draw", "Move", "Redeal", "Expose", "Forbid", "Cancel", "If", "Repeat", "ForEach",
    "Choose", "ChoiceOption", "Auction.once_around", "Auction.until_passes", "Tricks", "ZoneRef",
    "Count.exact", "Count.range", "Count.at_least", "Count.to",
    "Obligation.lead_first", "Obligation.not_first_trick", "Obligation.first_lead_trump", "Obligation.follow_suit",
    "Obligation.may_trump", "Obligation.trump_if_void", "Obligation.beat_if_able", "Obligation.lead_until_broken",
    "Declaration.before_first_card", "Declaration.before_playing_it", "Declaration.after_leading_it",
    # expressions
    "IntLit", "Arg", "Not", "Neg", "Has", "CardChoice",
    "BinOp.+", "BinOp.-", "BinOp.*", "BinOp.%", "BinOp.==", "BinOp.!=", "BinOp.<", "BinOp.<=", "BinOp.>", "BinOp.>=",
    "BinOp.and", "BinOp.or",
    # issue 28 step 1, the small gaps (docs/language/small-gaps.md)
    "BinOp./", "Call.abs", "SeatLit", "Name.suit", "PatAnd", "PatWord.colour", "PatCard.colour",
    "Table", "Call.table", "Call.deal_score", "Call.points_of_cards",
    "Counter.per_deal", "Bid.step", "Auction.step", "ChoiceOption.guard",
    "Call.count", "Call.tricks", "Call.points", "Call.score", "Call.bids", "Call.min", "Call.max",
    "CardHolder.holder", "CardHolder.original", "CardHolder.taker",
    "Name.dealer", "Name.maker", "Name.nobody", "Name.bid", "Name.true", "Name.false", "Name.deal_number",
    "Name.total_bids", "Name.trump", "Name.leader", "Name.played_to_trick",
    "Name.player", "Name.side", "Name.offender", "Name.declarer",
    "Of.left", "Of.right", "Of.partner", "Of.side", "Of.opponents", "Of.suit",
    # card patterns
    "SuitRef", "PatWord", "PatCard", "PatNot", "PatOr",
    # issue 28: the trick in progress (design 3.1) and the obligations that read it (3.2)
    "Name.to_play", "Name.led_suit", "Name.led_card", "Name.winner", "Name.winning_card", "Name.highest_trump",
    "Name.trick", "Name.trick_number", "Name.last_trick", "Name.no_suit", "Name.no_card",
    "CardIs", "CardBeats", "CardPlayedBy", "WhoPlayed", "Obligation.overtrump_if_able", "Obligation.no_undertrump",
    "CardRule.free", "Name.card",
    # issue 28: `after each trick:` (design 3.6), whose body scores, sets variables and tests conditions
    "Hook.each_trick",
    # issue 28 step 1, the rest of the small gaps: cards as values, patterns of a suit variable
    "ForCard", "Of.suit_of_card", "PatWord.suit_variable", "PatCard.suit_variable", "ChoiceOption.pass",
    "Expose.matching", "Expose.to",
    # issue 28 step 4: melds (design 3.8)
    "MeldTable", "MeldClass", "MeldLine.cards", "MeldLine.listed", "MeldLine.suits", "MeldLine.run", "Melds",
    "Call.melds", "Call.melded",
    # issue 28 step 9: one seat plays another's cards (design 3.5)
    "PlaysFor",
    # issue 28 step 1: 'matching P, else Q'
    "Discard.fallback", "Take.fallback",
    # issue 28 step 6: card orders that follow the contract (design 3.3)
    "Order", "SuitRanks", "ExtraCard", "SetTrump.order", "SetTrump.value",
    # issue 28 step 8: the direction of play, the number of players as an option (3.10)
    "PlayDirection.left", "PlayDirection.right", "Players.fixed", "Players.range", "Name.player_count",
    # issue 28: the card rules that change the trick (design 3.2), French Tarot's Excuse
    "CardRule.never_wins", "CardRule.sets_no_suit",
    # issue 28 step 3: the other hooks, `end the play`, the new deadlines (design 3.6)
    "Hook.playing", "Hook.leading", "EndPlay", "Declaration.before_nth_card", "Declaration.at_own_turn",
    "Declaration.no_holding", "InPlay.EndPlay", "InPlay.Add", "InPlay.Melds",
    "InPlay.Choose",  # (in a hook on a card: the trick goes on once it is made)
    "NameLed", "InPlay.NameLed",
    # issue 28 step 3: showing cards without moving them (design 3.6; interpreter/codegen/shows.py)
    "Shows", "Shows.fallback", "InPlay.Shows",
    # ... and 'for each player/side' in a hook or a declaration's effect (interpreter/codegen/declarations.py)
    "InPlay.ForEach",
    # ... and a decision after each trick or in a declaration's effect (interpreter/codegen/hooks.py)
    "InPlay.decision_after_trick.Choose", "InPlay.decision_after_trick.Shows",
    # ... and 'trump is' in the middle of a trick: the trick is decided under the order in force when it
    # completes, its suit led kept (design section 6, decision 5)
    "InPlay.SetTrump",
    # ... and 'move' in the middle of trick play (a hook or a declaration's effect: drawing from the
    # stock after each trick, laying a card aside), written as it is in the deal
    "InPlay.Move",
    # issue 28 step 5: bids and auctions (design 3.7; interpreter/codegen/auctions.py)
    "BidTable", "BidGrid", "Strain", "NamedBid", "BidNumbers",
    "TableAuction.once_around", "TableAuction.until_passes", "TableAuction.until_n_passes", "Auction.until_n_passes",
    "TableBid", "TableBid.above", "TableBid.or_pass", "Bid.above", "Bid.or_pass",
    "AuctionRule.double", "AuctionRule.hold", "AuctionRule.no_pass", "AuctionRule.no_bid", "AuctionRule.first_of_side",
    "Auction.no_contract", "Name.no_bid", "Name.no_trump", "Name.doubling", "Name.caller", "Name.high_bid",
    "Name.high_bidder", "Name.bid_constant", "Of.level", "Of.strain", "Of.worth",
    # issue 28 step 7 (design 3.4): a suit's or a rank's own code, cards removed from the pack
    "SuitDecl.code", "Deck.rank_codes", "Deck.removed", "Deck.copies",
    # ... and the tie rule between equal cards (design 3.2), played by the winner of the trick
    "TieRule.first", "TieRule.later",
    # issue 28 step 8: per-deal teams (design 3.9; interpreter/codegen/teams.py)
    "Teams", "Joins", "InPlay.Joins", "Of.team", "Name.no_team", "Call.team", "Of.team_zone", "Score.team",
})
"""Every construct the runtime plays (see the module docstring). The runtime adds a key
here when it learns the construct; the checker refuses every other key."""

WORDS: Final[dict[str, str]] = {
    # step 1: the small gaps
    "BinOp./": "integer division ('/')",
    "Call.abs": "'abs(...)'",
    "Call.deal_score": "'deal_score(...)', what a player or side scored this deal",
    "Call.table": "reading a lookup table ('NAME(i)')",
    "Call.points_of_cards": "'points(...)' of a zone or a card",
    "SeatLit": "a seat by number ('seat N')",
    "Table": "a lookup table ('table NAME = ...')",
    "PatAnd": "'and' in a card pattern",
    "PatWord.colour": "a colour as a card pattern ('red')",
    "PatCard.colour": "a rank of a colour ('4 of black')",
    "PatWord.suit_variable": "a suit named by a variable in a card pattern",
    "PatCard.suit_variable": "a rank of a suit named by a variable ('K of s')",
    "Pattern.suit_variable_in_rule": "a suit named by a variable in a pattern of a trick-play rule, a declaration, "
                                     "a hook, 'holder of' or 'who played'",
    "Name.suit": "a suit as a value ('trump == spades')",
    "Of.suit_of_card": "'suit of' a card",
    "ForCard": "'for each card in'",
    "ChoiceOption.guard": "an option offered only 'when' a condition holds",
    "ChoiceOption.pass": "a choice option named 'pass'",
    "Discard.fallback": "'matching P, else Q' in a discard",
    "Take.fallback": "'matching P, else Q' in a take",
    "Expose.matching": "'expose ... matching'",
    "Expose.to": "'expose ... to' one player",
    "Bid.step": "bids 'by' a step",
    "Auction.step": "auction bids 'by' a step",
    "Counter.per_deal": "a counter 'per deal'",
    # step 7: decks that are not suits x ranks (docs/language/decks.md)
    "SuitDecl.code": "a suit's own code ('atouts \"T\" none')",
    "Deck.rank_codes": "a rank's own code ('Ober \"O\"')",
    "Deck.removed": "cards taken out of the pack ('remove P')",
    "ExtraCard": "a card in no suit ('card joker \"JK\"')",
    "Deck.copies": "a pack with copies of each card ('copies 2')",
    # step 2: the trick in progress and the legal-play chain
    **{f"Name.{n}": f"the trick's '{n}'" for n in TRICK_NAMES},
    "Name.no_suit": "'no_suit'",
    "Name.no_card": "'no_card'",
    "Name.card": "the card named 'card' (a loop over cards, a card rule)",
    "CardIs": "'C is P' (a card matching a pattern)",
    "CardBeats": "'C beats D'",
    "CardPlayedBy": "'the card played by'",
    "WhoPlayed": "'who played'",
    "Obligation.overtrump_if_able": "'must overtrump if able'",
    "Obligation.no_undertrump": "'may not undertrump'",
    "CardRule.free": "'may play P at any time'",
    "CardRule.never_wins": "'a trick is never won by'",
    "CardRule.sets_no_suit": "'the suit led is not set by'",
    "TieRule.first": "'of equal cards the first wins'",
    "TieRule.later": "'of equal cards the later wins'",
    # step 9: one seat plays another's cards
    "PlaysFor": "'P plays for Q'",
    # step 6: card orders
    "Order": "a named card order ('order NAME')",
    "SuitRanks": "a plain rank order of a suit or a colour ('ranks in NAME')",
    "SetTrump.order": "'trump is' a named order",
    "SetTrump.value": "'trump is' an expression",
    # step 8: the direction of play
    "PlayDirection.left": "'play passes left'",
    "PlayDirection.right": "'play passes right'",
    "Players.range": "the number of players as an option ('players 3..7 = 4')",
    "Name.player_count": "'player_count'",
    # step 3: hooks and mid-trick effects
    "Hook.playing": "'after playing P:'",
    "Hook.leading": "'after leading P:'",
    "Hook.each_trick": "'after each trick:'",
    "NameLed": "'names the suit led'",
    "Shows": "'shows' (cards shown to everybody)",
    "Shows.fallback": "'matching P, else Q' in 'shows'",
    "EndPlay": "'end the play'",
    "Declaration.before_nth_card": "the deadline 'before own card N'",
    "Declaration.at_own_turn": "the deadline 'at own turn'",
    "Declaration.no_holding": "a declaration without 'holding'",
    # step 4: melds
    "MeldTable": "a meld table ('melds NAME')",
    "MeldClass": "a class of melds in a meld table",
    "MeldLine.cards": "a meld of ranks of a suit ('A 10 K Q J of trump')",
    "MeldLine.listed": "a meld of listed cards ('(Q of spades) (J of diamonds)')",
    "MeldLine.suits": "a meld in any or every suit ('K Q in any suit')",
    "MeldLine.run": "a meld in sequence ('sequence of 3 in ...')",
    "Melds": "'P melds T'",
    "Call.melds": "'melds(ZONE, TABLE)'",
    "Call.melded": "'melded(X)'",
    # step 5: bids and auctions
    "BidTable": "a bid table ('bids NAME')",
    "BidGrid": "bids of levels and strains ('levels 1..7 in ...')",
    "Strain": "a strain of a bid grid",
    "NamedBid": "a bid by name",
    "BidNumbers": "bids that are numbers ('numbers 18, 20, ...')",
    "TableAuction.once_around": "an auction over the bid table",
    "TableAuction.until_passes": "an auction over the bid table",
    "TableAuction.until_n_passes": "an auction over the bid table, 'until N passes'",
    "Auction.until_n_passes": "an auction 'until N passes'",
    "TableBid": "a player's bid from the bid table",
    "TableBid.above": "a bid 'above' another",
    "TableBid.or_pass": "a bid ', or passes'",
    "Bid.above": "a bid 'above' a number",
    "Bid.or_pass": "a bid ', or passes'",
    "AuctionRule.double": "'double and redouble'",
    "AuctionRule.hold": "'P may hold'",
    "AuctionRule.no_pass": "'may not pass' (a forced bid)",
    "AuctionRule.no_bid": "'may not bid B'",
    "AuctionRule.first_of_side": "'first of the side to bid the strain declares'",
    "Auction.no_contract": "'if all pass: no contract'",
    "Name.no_bid": "'no_bid'",
    "Name.no_trump": "'no_trump'",
    "Name.doubling": "'doubling'",
    "Name.caller": "the auction's 'caller'",
    "Name.high_bid": "the auction's 'high_bid'",
    "Name.high_bidder": "the auction's 'high_bidder'",
    "Name.bid_constant": "a named bid as a value",
    "Of.level": "'level of' a bid",
    "Of.strain": "'strain of' a bid",
    "Of.worth": "'worth of' a bid",
    # step 8: per-deal teams
    "Teams": "teams ('teams A, B')",
    "Joins": "'P joins T'",
    "Of.team": "'team of'",
    "Name.no_team": "'no_team'",
    "Call.team": "a team's tricks, points, deal score or melds",
    "Of.team_zone": "a team's zone ('won of T')",
    "Score.team": "'T scores N'",
}
"""What each construct of the language that the runtime cannot play yet is, in words, for the
``unsupported-construct`` message (a test keeps one for every such construct)."""

CHECKED: Final[frozenset[str]] = frozenset({
    "Call.points_of_cards", "PatWord.colour", "PatCard.colour", "PatWord.suit_variable", "PatCard.suit_variable",
    "Pattern.suit_variable_in_rule",
    "Name.suit", "Of.suit_of_card", "ChoiceOption.pass", "Name.bid_constant", "Auction.no_contract",
    "SetTrump.order", "Call.team", "Of.team_zone", "Score.team",
})
"""Constructs that only the checker can tell apart (by types, or the deck's words), besides the
built-in names: it reports them as it meets them."""

_TYPED_FORMS = (m.Name, m.Of)
"""Classes whose form is a built-in name: the typer reports those (see :func:`keys_of`)."""


def keys_of(node: m.Node) -> list[str]:
    """The constructs a node is, by its class and form, and each optional part it has; none for a name
    or an ``X of Y``, whose construct (a built-in one, or a name the file declares) only the typer knows."""
    cls = type(node)
    if isinstance(node, _TYPED_FORMS):
        return []
    if not cls.form:
        keys = [cls.__name__]
    else:
        value = getattr(node, cls.form)
        if isinstance(node, m.Call) and value not in FUNCTIONS:
            value = "table"
        keys = [f"{cls.__name__}.{value}"]
    keys += [f"{cls.__name__}.{part}" for part in cls.parts if getattr(node, part) not in (None, False, ())]
    return keys


def constructs(rules: m.RuleFile) -> Iterator[tuple[str, m.Span | None]]:
    """Every construct a rule file uses, with where (the node's span, or None), in source order
    of discovery; names and ``X of Y`` forms, and :data:`CHECKED`, are left to the checker."""
    for node in every_node(rules):
        for key in keys_of(node):
            yield key, getattr(node, "span", None)


def language_constructs() -> frozenset[str]:
    """Every construct of the language: each model class (a class with a form field once per
    value of it), each optional part, each built-in name, ``X of`` form and function, and
    :data:`CHECKED`."""
    found: set[str] = set(CHECKED)
    for cls in _node_classes(m.Node):
        if cls is m.Span or cls is m.Stmt:
            continue
        found.update(f"{cls.__name__}.{part}" for part in cls.parts)
        if not cls.form:
            found.add(cls.__name__)
        else:  # a name's built-ins come below; every other form is a Literal
            found.update(f"{cls.__name__}.{v}" for v in typing.get_args(cls.model_fields[cls.form].annotation))
    found.update(f"Name.{n}" for n in (*BUILTIN_NAMES, *NEW_NAMES, *LOOP_NAMES, *TRICK_NAMES, *AUCTION_NAMES))
    found.update(f"Of.{n}" for n in BID_FORMS)
    found.update(f"Of.{n}" for n in (*OF_FORMS, "suit"))
    found.update(f"Call.{n}" for n in (*FUNCTIONS, "table"))
    found.update(in_play_keys())
    return frozenset(found)


def _node_classes(root: type[m.Node]) -> Iterator[type[m.Node]]:
    for cls in root.__subclasses__():
        if cls.__module__.startswith("tricklang.model"):
            yield cls
            yield from _node_classes(cls)


def in_play_keys() -> dict[str, str]:
    """``InPlay.<Statement>`` for each kind of statement that may run in the middle of trick play (a hook,
    a declaration's effect), in words: the runtime names in :data:`RUNTIME` those it can run there."""
    keys = {f"InPlay.{cls.__name__}": f"'{STATEMENT_WORDS.get(cls.__name__, snake(cls.__name__))}' in the middle of trick play "
            "(in a declaration or a hook)" for cls in _node_classes(m.Node) if issubclass(cls, m.Stmt) and cls.in_play}
    for cls in _node_classes(m.Node):  # a decision there: each statement by its own words
        if issubclass(cls, m.Stmt) and cls.in_play and getattr(cls, "decides", False):
            keys[f"InPlay.decision_after_trick.{cls.__name__}"] = (
                f"'{STATEMENT_WORDS.get(cls.__name__, snake(cls.__name__))}' (a decision) in an 'after each trick' "
                "hook or a declaration's effect")
    return keys


def words(key: str) -> str:
    """A construct in words, for messages."""
    return WORDS.get(key) or in_play_keys().get(key) or f"'{key}'"
