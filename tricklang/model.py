"""The typed syntax model of a rule file: frozen pydantic nodes with source spans.

The parser (:mod:`tricklang.parser`) builds these nodes from the Lark tree; nothing
after the parser imports Lark. Every node carries a :class:`Span` so that the
checker and the interpreter can point at the line that caused a problem. Nodes are pydantic models with ``defer_build``: one built by hand is validated; the
parser (trusted) uses ``model_construct``, so a check builds no validator. Annotations
are values, strings only for forward references: creating the classes evaluates none.
"""

from typing import Literal

from pydantic import BaseModel, ConfigDict


class Node(BaseModel):
    """Base class of every syntax node: immutable, with a source span."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class Span(Node):
    """A region of a rule file (1-based lines and columns)."""

    line: int
    column: int
    end_line: int
    end_column: int
    path: str | None = None  # set on what a variant inherits: the base file it was written in

    def __eq__(self, other: object) -> bool:
        """Spans are equal by position: where inherited code was written (``path``) is
        provenance for messages, not part of the rules (a variant's inherited deck
        equals its base's)."""
        if not isinstance(other, Span):
            return NotImplemented
        return (self.line, self.column, self.end_line, self.end_column) == (
            other.line, other.column, other.end_line, other.end_column)

    def __hash__(self) -> int:
        return hash((self.line, self.column, self.end_line, self.end_column))


NO_SPAN = Span.model_construct(line=0, column=0, end_line=0, end_column=0)


# ---------------------------------------------------------------- expressions


class IntLit(Node):
    value: int
    span: Span


class Name(Node):
    name: str
    span: Span


class Of(Node):
    """`left of dealer`, `side of maker`, `discards of player`."""

    name: str
    arg: "Expr"
    span: Span


class Arg(Node):
    value: "Expr"
    matching: "Pattern | None" = None
    span: Span


class Call(Node):
    """`count(stock)`, `tricks(elder)`, `min(5, count(stock))`."""

    name: str
    args: tuple[Arg, ...]
    span: Span


BinaryOp = Literal["+", "-", "*", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or"]
"""The binary operators of expressions (see :data:`tricklang.walk.BINARY` for their meaning)."""


class BinOp(Node):
    op: BinaryOp
    left: "Expr"
    right: "Expr"
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


class PatOr(Node):
    options: "tuple[Pattern, ...]"
    span: Span


Pattern = (
    PatWord
    | PatCard
    | PatNot
    | PatOr
)


# ---------------------------------------------------------------- header and sections


class Citation(Node):
    """The laws a rule implements, e.g. ``[E22-E31]`` gives ``("E22-E31",)``."""

    laws: tuple[str, ...]
    span: Span

    def __str__(self) -> str:
        return "[" + ", ".join(self.laws) + "]"


class Players(Node):
    count: int
    teams: tuple[tuple[int, ...], ...] = ()
    cite: Citation | None = None
    span: Span


class Role(Node):
    name: str
    value: Expr
    cite: Citation | None = None
    span: Span


class SuitDecl(Node):
    name: str
    colour: str
    span: Span


class Deck(Node):
    suits: tuple[SuitDecl, ...]
    ranks: tuple[str, ...]
    trump_ranks: tuple[str | Pattern, ...] | None = None
    cite: Citation | None = None
    span: Span
    ranks_span: Span
    trump_span: Span | None = None


OptionType = Literal["int", "bool", "choice"]


class Option(Node):
    name: str
    type: OptionType
    default: int | bool | str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    doc: str = ""
    cite: Citation | None = None
    span: Span


class Zone(Node):
    name: str
    owner: Literal["player", "side", "shared"]
    visibility: Literal["public", "owner", "hidden"]
    pack: bool = False
    bookkeeping: bool = False
    """A scratch zone of the rule file's own: transcripts do not print moves into or out of it."""
    cite: Citation | None = None
    span: Span


class Counter(Node):
    """A tally per side or player kept across the match (e.g. bags)."""

    name: str
    owner: Literal["player", "side", "shared"]
    bookkeeping: bool = False
    """A tally nobody announces at the table: transcripts do not print its changes."""
    cite: Citation | None = None
    span: Span


class PointCard(Node):
    table: str = ""
    label: str
    pattern: Pattern
    value: int
    cite: Citation | None = None
    span: Span


class Match(Node):
    first_dealer: int | Literal["random"] = "random"
    rotation: Literal["left", "right", "never"] = "left"
    target: Expr | None = None
    target_when: Literal["at_once", "after_deal"] = "after_deal"
    ties: Expr | None = None
    deal_limit: int | None = None
    lowest_wins: bool = False
    cite: Citation | None = None
    span: Span
    cites: tuple[Citation, ...] = ()


# ---------------------------------------------------------------- statements


class Count(Node):
    """How many cards: exactly N, N..M, at least N, or to N (fill the hand)."""

    kind: Literal["exact", "range", "at_least", "to"]
    low: Expr
    high: Expr | None = None
    span: Span


class ZoneRef(Node):
    name: str
    owner: Expr | None = None
    span: Span


class Stmt(Node):
    cite: Citation | None = None
    span: Span


class DealCards(Stmt):
    packets: tuple[Expr, ...]
    first: Expr | None = None


class TurnUp(Stmt):
    count: Expr
    to: ZoneRef


class SetTrump(Stmt):
    source: Literal["zone", "none", "fixed"]
    zone: ZoneRef | None = None
    suit: str | None = None


class NameTrump(Stmt):
    player: Expr
    exclude: Expr | None = None


class Bid(Stmt):
    """A player's own bid: `player bids 0..13 [but not EXPR]`."""

    player: Expr
    low: Expr
    high: Expr
    forbidden: Expr | None = None


class Add(Stmt):
    """`add N to bags of side`: change a counter."""

    amount: Expr
    counter: str
    owner: Expr


class Phase(Stmt):
    """A named part of the deal, which an extending rule file may replace."""

    name: str
    body: "tuple[Statement, ...]"


class Score(Stmt):
    who: Expr
    amount: Expr
    label: str = ""
    negative: bool = False


class Let(Stmt):
    name: str
    value: Expr
    rebind: bool = False  # True for `set`


class StopLoop(Stmt):
    pass


class Pass(Stmt):
    pass


class EndDeal(Stmt):
    pass


class EndMatch(Stmt):
    """This is the last deal of the match (Oh Hell's fixed series of deals)."""


class Discard(Stmt):
    player: Expr
    count: Count
    matching: Pattern | None = None
    to: ZoneRef


class Take(Stmt):
    player: Expr
    count: Count
    matching: Pattern | None = None
    source: ZoneRef
    verb: str = "take"


class Keep(Stmt):
    """`P takes all|any from Z and keeps N [as V][, the rest to Z2]`: he keeps N of hand and Z, the rest to Z2 (or Z).
    ``choose`` False (`all`): all of Z into his hand, then he discards to N; True (`any`): he takes any of Z, then discards."""
    player: Expr
    source: ZoneRef
    count: Expr
    verb: str = "take"
    rest: ZoneRef | None = None
    choose: bool = False


class Cut(Stmt):
    """`cut Z`: a random number of cards (at least one, never all) from the top of Z go under it."""

    zone: ZoneRef


class Leads(Stmt):
    """`P leads`: the trick in progress starts again with P to lead (cards played to it go back)."""
    player: Expr


class ReplayTricks(Stmt):
    """`replay the tricks`: trick play again from the first trick, every card played back in its hand."""


class BecomesDealer(Stmt):
    """`P becomes dealer`: P is the dealer from now on (the roles follow him)."""
    player: Expr


class Draw(Stmt):
    player: Expr
    count: Count
    source: ZoneRef
    fallback: ZoneRef | None = None
    fallback_matching: Pattern | None = None


class Move(Stmt):
    """`move all|N|N at random [matching P] from Z to Z`."""

    mode: Literal["all", "top", "random"] = "all"
    amount: Expr | None = None
    matching: Pattern | None = None
    source: ZoneRef
    to: ZoneRef
    bottom: bool = False  # `to bottom of Z`: under the cards already there


class Redeal(Stmt):
    """Abandon the deal (its points are cancelled) and deal again."""

    same_dealer: bool


class Expose(Stmt):
    """A zone is shown to everybody for the rest of the deal (an exposed hand)."""

    zone: ZoneRef


class Forbid(Stmt):
    """`forbid declare king for offender`: a declaration is no longer allowed;
    `forbid choice refuse for dealer`: that option is withheld the next time."""

    kind: Literal["declare", "choice", "bidding"] = "declare"
    declaration: str
    who: Expr


class Cancel(Stmt):
    """`cancel "king" for offender`: take back this deal's points under a label."""

    label: str
    who: Expr


class If(Stmt):
    branches: "tuple[tuple[Expr, tuple[Statement, ...]], ...]"
    orelse: "tuple[Statement, ...]" = ()


class Repeat(Stmt):
    bound: Expr
    condition: Expr | None = None
    body: "tuple[Statement, ...]"


class ForEach(Stmt):
    kind: Literal["player", "side"]
    start: Expr | None = None
    exclude: Expr | None = None
    body: "tuple[Statement, ...]"


class ChoiceOption(Node):
    name: str
    body: "tuple[Statement, ...]"
    span: Span


class Choose(Stmt):
    player: Expr
    options: tuple[ChoiceOption, ...]


class Auction(Stmt):
    kind: Literal["once_around", "until_passes"]
    start: Expr
    low: Expr
    high: Expr
    all_pass: Literal["maker", "redeal"] = "redeal"
    all_pass_maker: Expr | None = None
    all_pass_bid: Expr | None = None
    all_pass_cite: Citation | None = None


ObligationKind = Literal[
    "lead_first", "not_first_trick", "first_lead_trump",
    "follow_suit", "may_trump", "trump_if_void", "beat_if_able", "lead_until_broken"
]


class Obligation(Node):
    kind: ObligationKind
    pattern: Pattern | None = None
    guard: Expr | None = None
    cite: Citation | None = None
    span: Span


class Declaration(Node):
    name: str
    holding: Pattern
    deadline: Literal["before_first_card", "before_playing_it", "after_leading_it"]
    guard: Expr | None = None
    body: "tuple[Statement, ...]"
    cite: Citation | None = None
    span: Span


class Tricks(Stmt):
    count: Expr
    leader: Expr
    obligations: tuple[Obligation, ...] = ()
    declarations: tuple[Declaration, ...] = ()


Statement = (
    Bid | Add | Phase | DealCards | TurnUp | SetTrump | NameTrump | Score | Let | StopLoop | Pass | EndDeal
    | Discard | Take | Keep | Cut | Leads | ReplayTricks | BecomesDealer | Draw | Move | EndMatch | Redeal
    | Expose | Forbid | Cancel | If | Repeat | ForEach | Choose | Auction | Tricks
)


class IrregularityParam(Node):
    """A parameter of an irregularity: a count in ``low..high``, a card (of a zone, matching a pattern), or a suit."""

    name: str
    kind: Literal["count", "card", "suit"]
    low: int = 0
    high: int = 0
    zone: ZoneRef | None = None
    matching: Pattern | None = None
    span: Span


class Irregularity(Node):
    """A named irregularity: who may commit it, when, and the law's remedy."""

    name: str
    params: tuple[IrregularityParam, ...] = ()
    by: Expr | None = None
    phases: tuple[str, ...] = ()
    guard: Expr | None = None
    body: tuple[Statement, ...]
    cite: Citation | None = None
    span: Span


class RuleFile(Node):
    """A whole parsed rule file, before checking."""

    path: str
    version: int | None = None
    version_span: Span | None = None
    game: str | None = None
    source: str | None = None
    players: Players | None = None
    roles: tuple[Role, ...] = ()
    deck: Deck | None = None
    options: tuple[Option, ...] = ()
    zones: tuple[Zone, ...] = ()
    points: tuple[PointCard, ...] = ()
    match: Match | None = None
    deal: tuple[Statement, ...] = ()
    deal_span: Span | None = None
    irregularities: tuple[Irregularity, ...] = ()
    counters: tuple[Counter, ...] = ()
    extends: str | None = None
    extends_span: Span | None = None
    sections: tuple[tuple[str, Span], ...] = ()
