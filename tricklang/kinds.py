"""The kinds of value of the language, the built-in names with their types, and the scope
of names at a point of a rule file (:mod:`tricklang.types` reads them as one namespace)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class Kind(StrEnum):
    """The kinds of value an expression may have (``ANY``: unknown, after an error)."""

    INT = "int"
    BOOL = "bool"
    PLAYER = "player"
    SIDE = "side"
    ZONE = "zone"
    SUIT = "suit"
    CARD = "card"
    BID = "bid"
    ORDER = "order"
    TEAM = "team"
    ANY = "any"


@dataclass(frozen=True)
class ChoiceOf:
    """The type of the values of a ``choice`` option (``choice:OPTION`` in messages)."""

    option: str

    def __str__(self) -> str:
        return f"choice:{self.option}"


Type = Kind | ChoiceOf

INT, BOOL, PLAYER, SIDE, ZONE, SUIT, ANY = Kind.INT, Kind.BOOL, Kind.PLAYER, Kind.SIDE, Kind.ZONE, Kind.SUIT, Kind.ANY
CARD, BID, ORDER, TEAM = Kind.CARD, Kind.BID, Kind.ORDER, Kind.TEAM

BUILTIN_PLAYERS = ("dealer", "maker", "nobody")
FUNCTIONS = {"count": (1, 1), "tricks": (1, 1), "points": (1, 2), "score": (1, 1), "bids": (1, 1),
             "min": (1, 16), "max": (1, 16), "abs": (1, 1), "deal_score": (1, 1), "melds": (2, 2), "melded": (1, 2)}
"""The built-in functions with their least and most numbers of arguments."""
OF_FORMS: dict[str, Type] = {"left": PLAYER, "right": PLAYER, "partner": PLAYER, "side": SIDE, "opponents": SIDE,
                            "team": TEAM}
"""The built-in ``X of Y`` forms and the type they give."""
LOOP_NAMES: dict[str, Type] = {"player": PLAYER, "side": SIDE, "offender": PLAYER, "declarer": PLAYER, "card": CARD}
"""Names bound inside a loop, a declaration, a card rule or an irregularity."""
TRICK_NAMES: dict[str, Type] = {
    "to_play": PLAYER, "led_suit": SUIT, "led_card": CARD, "winner": PLAYER, "winning_card": CARD,
    "highest_trump": CARD, "trick": ZONE, "trick_number": INT, "last_trick": BOOL,
}
"""The names of the trick in progress, defined only in trick play (elsewhere: ``not-in-trick``)."""
AUCTION_NAMES: dict[str, Type] = {"caller": PLAYER, "high_bid": BID, "high_bidder": PLAYER}
"""The names of the auction in progress, defined only in an auction's rules (``high_bid`` is a number
when the bids are)."""
BID_FORMS: dict[str, Type] = {"level": INT, "strain": ORDER, "worth": INT}
"""``level of B``, ``strain of B``, ``worth of B``: what a bid of the bid table is made of."""
BUILTIN_NAMES: dict[str, Type] = {
    **{name: PLAYER for name in BUILTIN_PLAYERS},
    "bid": INT, "true": BOOL, "false": BOOL, "deal_number": INT, "total_bids": INT, "trump": SUIT,
    "leader": PLAYER, "played_to_trick": INT, "player_count": INT,
}
"""The built-in names of every rule file, with their types (besides :data:`LOOP_NAMES`): a file may not
declare one of these names (``duplicate-name``)."""
NEW_NAMES: dict[str, Type] = {"no_suit": SUIT, "no_card": CARD, "no_bid": BID, "no_trump": ORDER, "doubling": INT,
                             "no_team": TEAM}
"""Built-in names the language gained later (issue 28): a name the file declares wins over one of these,
with no error, so that no file written before them changes meaning."""


def describe(t: Type) -> str:
    """A type in words, for messages: ``a number``, ``a choice of option 'moon'``."""
    if isinstance(t, ChoiceOf):
        return f"a choice of option '{t.option}'"
    return {INT: "a number", BOOL: "a condition", PLAYER: "a player", SIDE: "a side", ZONE: "a zone",
            SUIT: "a suit", CARD: "a card", BID: "a bid", ORDER: "a card order",
            TEAM: "a team"}.get(t, str(t))


@dataclass
class Scope:
    """The names visible at a point of a rule file, with their types."""

    names: dict[str, Type] = field(default_factory=dict)
    in_loop: bool = False
    trick: bool = False
    """Inside trick play (a tricks block, or a remedy offered during play): the trick's names are
    defined (see :data:`TRICK_NAMES`)."""
    hook: str = ""
    """Inside a hook (its event: ``playing``, ``leading``, ``each_trick``) or a declaration's effect
    (``declaration``)."""

    def nested(self, *, in_loop: bool | None = None, hook: str | None = None) -> Scope:
        """A copy of this scope for a block inside it (a loop's body, a hook's)."""
        return Scope(dict(self.names), self.in_loop if in_loop is None else in_loop, self.trick,
                     self.hook if hook is None else hook)

    def in_trick(self, declared: frozenset[str] = frozenset()) -> Scope:
        """This scope inside trick play: with the trick's names, except those the file declares."""
        names = dict(self.names)
        for name, t in TRICK_NAMES.items():
            if name not in declared:
                names.setdefault(name, t)
        return Scope(names, self.in_loop, True, self.hook)
