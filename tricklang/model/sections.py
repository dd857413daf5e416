"""The sections of a rule file (header, deck, options, zones, counters, points, match,
irregularities) and the whole :class:`RuleFile`."""

from typing import Literal

from .base import Citation, Node, Span
from .expressions import Expr, Pattern, SuitRef
from .statements import Statement, ZoneRef


class Players(Node):
    """`players N [in partnerships ...]`, or `players LO..HI = D` (design 3.10): the count is then an
    option `players` (``count`` is its default, or the value bound), ``low``..``high`` its range."""

    form = "kind"

    count: int
    kind: Literal["fixed", "range"] = "fixed"
    low: int | None = None
    high: int | None = None
    teams: tuple[tuple[int, ...], ...] = ()
    cite: Citation | None = None
    span: Span


class PlayDirection(Node):
    """`play passes left|right` (design 3.10): where the turn goes next (default left, clockwise)."""

    form = "direction"

    direction: Literal["left", "right"]
    cite: Citation | None = None
    span: Span


class Role(Node):
    name: str
    value: Expr
    cite: Citation | None = None
    span: Span


class SuitDecl(Node):
    """`spades black`, or with a code other than the first letter: `atouts "T" none`."""

    parts = ("code",)

    name: str
    colour: str
    code: str | None = None
    span: Span


class ExtraCard(Node):
    """`card joker "JK"`: a card in no suit, with its own code."""

    name: str
    code: str
    cite: Citation | None = None
    span: Span


class SuitRanks(Node):
    """`ranks in NAME R R ...`: the plain rank order of one suit, or of the suits of a colour ('' for
    every suit, in an order)."""

    scope: str = ""
    ranks: tuple[str, ...]
    span: Span


class Deck(Node):
    """The pack: suits x ranks, less the cards `remove`d, plus the extra cards, each `copies` times."""

    parts = ("rank_codes", "removed", "copies")

    suits: tuple[SuitDecl, ...]
    ranks: tuple[str, ...]
    trump_ranks: tuple[str | Pattern, ...] | None = None
    rank_codes: tuple[tuple[str, str], ...] = ()  # (rank, code) for ranks written with a code: `Ober "O"`
    removed: tuple[Pattern, ...] = ()  # `remove P` lines, in order
    extra_cards: tuple[ExtraCard, ...] = ()
    copies: int | None = None  # `copies N`; None is one of each card
    copies_span: Span | None = None
    cite: Citation | None = None
    span: Span
    ranks_span: Span
    trump_span: Span | None = None
    suit_ranks: tuple[SuitRanks, ...] = ()


OptionType = Literal["int", "bool", "choice"]


class Order(Node):
    """`order NAME ["CODE"]`: a named card order, its trump group (or no trumps) and plain ranks."""

    name: str
    code: str | None = None
    trumps: tuple[str | Pattern, ...] | None = None
    no_trumps: bool = False
    ranks: tuple[SuitRanks, ...] = ()
    cite: Citation | None = None
    span: Span
    trumps_span: Span | None = None


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
    """A tally per side or player kept across the match (e.g. bags), or `per deal`: from 0 every deal."""

    parts = ("per_deal",)

    name: str
    owner: Literal["player", "side", "shared"]
    per_deal: bool = False
    bookkeeping: bool = False
    """A tally nobody announces at the table: transcripts do not print its changes."""
    cite: Citation | None = None
    span: Span


class Table(Node):
    """`table NAME = 1, 2, 3`: numbers read by position from 0 (`NAME(i)`)."""

    name: str
    values: tuple[int, ...]
    cite: Citation | None = None
    span: Span


class Teams(Node):
    """`teams re, kontra` (design 3.9): teams that seats join deal by deal (`P joins re`)."""

    names: tuple[str, ...]
    cite: Citation | None = None
    span: Span


class MeldLine(Node):
    """A line of a meld table: its label, its shape, its value (and the value of two at once).

    Shapes (``kind``): ``cards`` (``ranks of suit``: one meld), ``listed`` (``(P) (Q)``: one card
    each), ``suits`` (``ranks in any|every suit [except S]``), ``run`` (``sequence of N in RANKS``).
    """

    form = "kind"

    label: str
    kind: Literal["cards", "listed", "suits", "run"]
    ranks: tuple[str, ...] = ()
    rank_pattern: Pattern | None = None  # `(A or 10 or K or Q) in every suit`
    suit: SuitRef | None = None
    cards: tuple[Pattern, ...] = ()
    scope: Literal["any", "every"] = "any"
    exclude: SuitRef | None = None
    length: int = 0
    value: int
    double: int | None = None
    cite: Citation | None = None
    span: Span


class MeldClass(Node):
    """A class of meld lines: a card serves in at most one meld of a class ('' for lines outside any)."""

    name: str = ""
    lines: tuple[MeldLine, ...]
    span: Span


class MeldTable(Node):
    """`melds NAME`: classes of meld lines, counted in the order written."""

    name: str
    classes: tuple[MeldClass, ...]
    cite: Citation | None = None
    span: Span


class Strain(Node):
    """A strain of a bid grid: a suit or an order, its code in bids (`NT`), its `base` for `worth`."""

    name: str
    code: str | None = None
    base: int | None = None
    span: Span


class BidGrid(Node):
    """`levels LO..HI in STRAIN, ... [worth EXPR]`: one bid per level and strain, level first."""

    low: int
    high: int
    strains: tuple[Strain, ...]
    worth: Expr | None = None
    cite: Citation | None = None
    span: Span


class NamedBid(Node):
    """`NAME ["CODE"] [worth EXPR][, plays ORDER][, above|below "CODE"]`: a bid by name."""

    name: str
    code: str | None = None
    worth: Expr | None = None
    plays: str | None = None
    place: Literal["above", "below"] | None = None
    anchor: str | None = None
    cite: Citation | None = None
    span: Span


class BidNumbers(Node):
    """`numbers 18, 20, 250..650 by 10`: bids that are numbers (low, high, step each)."""

    items: tuple[tuple[int, int, int], ...]
    cite: Citation | None = None
    span: Span


class BidTable(Node):
    """`bids NAME`: the file's bids, read by auctions and players' bids."""

    name: str
    lines: tuple[BidGrid | NamedBid | BidNumbers, ...]
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
    direction: PlayDirection | None = None
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
    tables: tuple[Table, ...] = ()
    teams: tuple[Teams, ...] = ()
    melds: tuple[MeldTable, ...] = ()
    bids: tuple[BidTable, ...] = ()
    orders: tuple[Order, ...] = ()
    extends: str | None = None
    extends_span: Span | None = None
    sections: tuple[tuple[str, Span], ...] = ()
