"""Expressions and card patterns."""

from typing import Literal

from .base import Node, Span

# ---------------------------------------------------------------- expressions


class IntLit(Node):
    value: int
    span: Span


class Name(Node):
    form = "name"  # a built-in name is a construct of its own (a name the file declares is not)

    name: str
    span: Span


class Of(Node):
    """`left of dealer`, `side of maker`, `discards of player`."""

    form = "name"

    name: str
    arg: "Expr"
    span: Span


class Arg(Node):
    value: "Expr"
    matching: "Pattern | None" = None
    span: Span


class Call(Node):
    """`count(stock)`, `tricks(elder)`, `min(5, count(stock))`."""

    form = "name"

    name: str
    args: tuple[Arg, ...]
    span: Span


BinaryOp = Literal["+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"]
"""The binary operators of expressions (see :data:`tricklang.walk.BINARY` for their meaning)."""


class BinOp(Node):
    form = "op"

    op: BinaryOp
    left: "Expr"
    right: "Expr"
    span: Span


class CardIs(Node):
    """`C is P`: card C matches pattern P (under the order in force)."""

    card: "Expr"
    pattern: "Pattern"
    span: Span


class CardBeats(Node):
    """`C beats D`: C would win over D in this trick."""

    card: "Expr"
    other: "Expr"
    span: Span


class CardPlayedBy(Node):
    """`the card played by P`: P's card in the trick in progress (`no_card` if none)."""

    player: "Expr"
    span: Span


class WhoPlayed(Node):
    """`who played C`: the player who played that card to the trick in progress (`nobody` if no one)."""

    card: "CardChoice"
    span: Span


class SeatLit(Node):
    """`seat 0`: a player given by seat number."""

    value: int
    span: Span


class Not(Node):
    operand: "Expr"
    span: Span


class Neg(Node):
    operand: "Expr"
    span: Span


class Has(Node):
    """`turnup has K`: some card of a zone matches a pattern."""

    zone: "Expr"
    pattern: "Pattern"
    span: Span


class CardChoice(Node):
    """A card named by a pattern, optionally the highest or lowest of those in play."""

    ranking: Literal["highest", "lowest"] | None = None
    pattern: "Pattern"
    span: Span


class CardHolder(Node):
    """`holder of P` (in hand now), `original holder of P` (dealt to), `taker of P`
    (won the trick containing it); `nobody` when no such card is in play."""

    form = "kind"

    kind: Literal["holder", "original", "taker"]
    card: CardChoice
    span: Span


Expr = (
    IntLit
    | Name
    | Of
    | Call
    | BinOp
    | Not
    | Neg
    | Has
    | CardHolder
    | SeatLit
    | CardIs
    | CardBeats
    | CardPlayedBy
    | WhoPlayed
)


# ---------------------------------------------------------------- patterns


class SuitRef(Node):
    """A suit in a card pattern: a suit name, `trump`, or `same colour as trump`."""

    name: str
    same_colour: bool = False
    span: Span


class PatWord(Node):
    """A single word: a rank (`K`), a suit (`hearts`), `trump` or `any`."""

    word: str
    span: Span


class PatCard(Node):
    """`K of trump`, `5 of same colour as trump`, `Q of spades`."""

    rank: str
    suit: SuitRef
    span: Span


class PatNot(Node):
    operand: "Pattern"
    span: Span


class PatAnd(Node):
    """`4 and black`: cards matching every part."""

    options: "tuple[Pattern, ...]"
    span: Span


class PatOr(Node):
    options: "tuple[Pattern, ...]"
    span: Span


Pattern = (
    PatWord
    | PatCard
    | PatNot
    | PatOr
    | PatAnd
)


