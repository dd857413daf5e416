"""Statements of the deal, with the facts of each kind.

Every kind of statement states its facts as class variables (:class:`Stmt` lists
them): whether it stops for a decision, moves cards, scores, ends the block it is in,
and which of its fields hold nested statement lists. The passes over statements
(checker, lints, static bounds, safety, walk) read these facts instead of keeping
their own lists of statement classes; a kind that does not state every fact is a
``TypeError`` when its class is created.
"""

from typing import Any, ClassVar, Literal

from .base import Citation, Node, Span
from .expressions import Expr, Pattern

Ends = Literal["loop", "deal", "redeal", "play"] | None
"""How a statement leaves its block for good: ``stop`` leaves the loop, ``end the deal``
the deal, ``redeal`` the deal (to deal again), ``end the play`` the trick play; None: it does not."""

Runs = Literal["", "one", "all", "loop", "play"]
"""How a statement's bodies run: '' it has none; ``one`` at most one of them (an ``if``, a
choice); ``all`` each once, in order (a phase); ``loop`` each any bounded number of times
(``repeat``, ``for each``); ``play`` during trick play, at its moments (declarations)."""


FACTS = ("decides", "decision", "moves_cards", "scores", "ends", "in_play", "bodies", "runs")
"""The facts each kind of statement states (see :class:`Stmt`)."""


class Count(Node):
    """How many cards: exactly N, N..M, at least N, or to N (fill the hand)."""

    form = "kind"

    kind: Literal["exact", "range", "at_least", "to"]
    low: Expr
    high: Expr | None = None
    span: Span


class ZoneRef(Node):
    name: str
    owner: Expr | None = None
    span: Span


class Stmt(Node):
    """The base of every statement. Each kind states its facts in its class line
    (``class Draw(Stmt, decision="", moves_cards=True, scores=False, ends=None)``): the
    four without a default must be given, so that no kind is added without saying them."""

    decides: ClassVar[bool]
    """It may stop for a player's decision (itself; what its bodies do is theirs)."""
    decision: ClassVar[str]
    """The kind of decision, as an irregularity's ``during KIND`` names it ('' when it decides
    nothing; a take's is its verb: see :meth:`decision_kinds`)."""
    moves_cards: ClassVar[bool]
    """It may move cards from one zone to another (itself)."""
    scores: ClassVar[bool]
    """It may add points to a score (itself; ``cancel`` takes points back and does not score)."""
    ends: ClassVar[Ends]
    """Control never goes on past it (see :data:`Ends`)."""
    in_play: ClassVar[bool] = True
    """It may run in the middle of trick play (in a hook or a declaration): not trick play, an
    auction, dealing, a redeal or the remedies that take cards back (``bad-hook-statement``)."""
    bodies: ClassVar[tuple[str, ...]] = ()
    """The fields that hold nested statement lists: a block, ``(condition, block)`` pairs, or
    nodes with a ``body`` (see :func:`tricklang.walk.blocks`)."""
    runs: ClassVar[Runs] = ""
    """How those bodies run (see :data:`Runs`)."""

    cite: Citation | None = None
    span: Span

    def __init_subclass__(cls, *, decision: str, moves_cards: bool, scores: bool, ends: Ends, in_play: bool = True,
                          bodies: tuple[str, ...] = (), runs: Runs = "", **kwargs: Any) -> None:
        """Record a kind's facts.

        Raises:
            TypeError: a fact is missing (Python's own message names it), or ``bodies`` and
                ``runs`` are not given together.
        """
        super().__init_subclass__(**kwargs)
        if bool(bodies) != bool(runs):
            raise TypeError(f"statement {cls.__name__}: 'bodies' and 'runs' go together")
        cls.decides, cls.decision, cls.moves_cards, cls.scores = bool(decision), decision, moves_cards, scores
        cls.ends, cls.in_play, cls.bodies, cls.runs = ends, in_play, bodies, runs

    def decision_kinds(self) -> tuple[str, ...]:
        """The kinds of decision it asks for (``during KIND``), none when it decides nothing."""
        return (self.decision,) if self.decision else ()


class DealCards(Stmt, decision="", moves_cards=True, scores=False, ends=None, in_play=False):
    packets: tuple[Expr, ...]
    first: Expr | None = None


class TurnUp(Stmt, decision="", moves_cards=True, scores=False, ends=None):
    count: Expr
    to: ZoneRef


class SetTrump(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """`trump is suit of Z | none | NAME | EXPR`: NAME is a suit (fixed), an order or a suit-valued
    name (the checker tells which); EXPR an expression of a suit or an order (value)."""

    form = "source"

    source: Literal["zone", "none", "fixed", "value"]
    zone: ZoneRef | None = None
    suit: str | None = None
    value: Expr | None = None


class NameTrump(Stmt, decision="naming", moves_cards=False, scores=False, ends=None):
    player: Expr
    exclude: Expr | None = None


class Bid(Stmt, decision="bidding", moves_cards=False, scores=False, ends=None):
    """A player's own bid: `player bids 0..13 [by STEP] [above X] [but not EXPR][, or passes]`."""

    parts = ("step", "above", "or_pass")

    player: Expr
    low: Expr
    high: Expr
    forbidden: Expr | None = None
    step: Expr | None = None
    above: Expr | None = None
    or_pass: bool = False


class TableBid(Stmt, decision="bidding", moves_cards=False, scores=False, ends=None):
    """A player's own bid from the file's bid table: `player bids T [above X] [but not Y][, or passes]`."""

    parts = ("above", "or_pass")

    player: Expr
    table: str
    above: Expr | None = None
    forbidden: Expr | None = None
    or_pass: bool = False


class Add(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """`add N to bags of side`: change a counter."""

    amount: Expr
    counter: str
    owner: Expr


class Phase(Stmt, decision="", moves_cards=False, scores=False, ends=None, bodies=("body",), runs="all"):
    """A named part of the deal, which an extending rule file may replace. In a variant only (its
    base takes them in, :mod:`tricklang.extend`): ``place`` ``after``/``before`` adds the phase next
    to the base's phase or statement named ``anchor``; ``replace`` (`replace KEYWORD:`) puts the
    body in place of the base's only top-level statement that keyword ``anchor`` begins."""

    name: str
    body: "tuple[Statement, ...]"
    place: Literal["after", "before", "replace"] | None = None
    anchor: str | None = None


class Score(Stmt, decision="", moves_cards=False, scores=True, ends=None):
    who: Expr
    amount: Expr
    label: str = ""
    negative: bool = False


class Let(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    name: str
    value: Expr
    rebind: bool = False  # True for `set`


class StopLoop(Stmt, decision="", moves_cards=False, scores=False, ends="loop"):
    pass


class Pass(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    pass


class EndDeal(Stmt, decision="", moves_cards=False, scores=False, ends="deal"):
    pass


class EndMatch(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """This is the last deal of the match (Oh Hell's fixed series of deals)."""


class Discard(Stmt, decision="discard", moves_cards=True, scores=False, ends=None):
    parts = ("fallback",)

    player: Expr
    count: Count
    matching: Pattern | None = None
    to: ZoneRef
    fallback: Pattern | None = None  # `matching P, else Q`: Q


class Take(Stmt, decision="take", moves_cards=True, scores=False, ends=None):
    parts = ("fallback",)

    player: Expr
    count: Count
    matching: Pattern | None = None
    source: ZoneRef
    verb: str = "take"
    fallback: Pattern | None = None  # `matching P, else Q`: Q

    def decision_kinds(self) -> tuple[str, ...]:
        return (self.verb,)


class Keep(Stmt, decision="take", moves_cards=True, scores=False, ends=None):
    """`P takes all|any from Z and keeps N [as V][, the rest to Z2]`: he keeps N of hand and
    Z, the rest to Z2 (or Z). ``choose`` False (`all`): all of Z into his hand, then he
    discards to N; True (`any`): he takes any of Z, then discards."""

    player: Expr
    source: ZoneRef
    count: Expr
    verb: str = "take"
    rest: ZoneRef | None = None
    choose: bool = False

    def decision_kinds(self) -> tuple[str, ...]:
        # `any`: the cards taken, then those thrown down; `all`: only those thrown down
        return (self.verb, "discard") if self.choose else ("discard",)


class Cut(Stmt, decision="", moves_cards=True, scores=False, ends=None):
    """`cut Z`: a random number of cards (at least one, never all) from the top of Z go under it."""

    zone: ZoneRef


class Leads(Stmt, decision="", moves_cards=True, scores=False, ends=None, in_play=False):
    """`P leads`: the trick in progress starts again with P to lead (cards played to it go back)."""
    player: Expr


class ReplayTricks(Stmt, decision="", moves_cards=True, scores=False, ends=None, in_play=False):
    """`replay the tricks`: trick play again from the first trick, every card played back in its hand."""


class BecomesDealer(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """`P becomes dealer`: P is the dealer from now on (the roles follow him)."""
    player: Expr


class Draw(Stmt, decision="", moves_cards=True, scores=False, ends=None):
    player: Expr
    count: Count
    source: ZoneRef
    fallback: ZoneRef | None = None
    fallback_matching: Pattern | None = None


class Move(Stmt, decision="", moves_cards=True, scores=False, ends=None):
    """`move all|N|N at random [matching P] from Z to Z`."""

    mode: Literal["all", "top", "random"] = "all"
    amount: Expr | None = None
    matching: Pattern | None = None
    source: ZoneRef
    to: ZoneRef
    bottom: bool = False  # `to bottom of Z`: under the cards already there


class Redeal(Stmt, decision="", moves_cards=False, scores=False, ends="redeal", in_play=False):
    """Abandon the deal (its points are cancelled) and deal again."""

    same_dealer: bool


class Expose(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """A zone is shown to everybody for the rest of the deal (an exposed hand); `matching P`:
    only those cards, now; `to P`: to that seat only, for the rest of the deal."""

    parts = ("matching", "to")

    zone: ZoneRef
    matching: Pattern | None = None
    to: Expr | None = None


class Forbid(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """`forbid declare king for offender`: a declaration is no longer allowed;
    `forbid choice refuse for dealer`: that option is withheld the next time."""

    kind: Literal["declare", "choice", "bidding"] = "declare"
    declaration: str
    who: Expr


class Cancel(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """`cancel "king" for offender`: take back this deal's points under a label."""

    label: str
    who: Expr


class If(Stmt, decision="", moves_cards=False, scores=False, ends=None, bodies=("branches", "orelse"), runs="one"):
    branches: "tuple[tuple[Expr, tuple[Statement, ...]], ...]"
    orelse: "tuple[Statement, ...]" = ()


class Repeat(Stmt, decision="", moves_cards=False, scores=False, ends=None, bodies=("body",), runs="loop"):
    bound: Expr
    condition: Expr | None = None
    body: "tuple[Statement, ...]"


class ForEach(Stmt, decision="", moves_cards=False, scores=False, ends=None, bodies=("body",), runs="loop"):
    kind: Literal["player", "side"]
    start: Expr | None = None
    exclude: Expr | None = None
    body: "tuple[Statement, ...]"


class ForCard(Stmt, decision="", moves_cards=False, scores=False, ends=None, bodies=("body",), runs="loop"):
    """`for each card in Z [matching P]:` the body runs once for each card the zone holds when the
    loop starts (in deck order), naming it `card`."""

    zone: ZoneRef
    matching: Pattern | None = None
    body: "tuple[Statement, ...]"


class ChoiceOption(Node):
    parts = ("guard",)

    name: str
    guard: Expr | None = None
    body: "tuple[Statement, ...]"
    span: Span


class Choose(Stmt, decision="choice", moves_cards=False, scores=False, ends=None, bodies=("options",), runs="one"):
    player: Expr
    options: tuple[ChoiceOption, ...]


class AuctionRule(Node):
    """A rule of an auction: `double and redouble`, `P may hold`, `may not pass`, `may not bid B`,
    `first of the side to bid the strain declares`."""

    form = "kind"

    kind: Literal["double", "hold", "no_pass", "no_bid", "first_of_side"]
    who: Expr | None = None
    bid: str | None = None
    guard: Expr | None = None
    cite: Citation | None = None
    span: Span


class Auction(Stmt, decision="auction", moves_cards=False, scores=False, ends=None, in_play=False):
    form = "kind"
    parts = ("step",)

    kind: Literal["once_around", "until_passes", "until_n_passes"]
    start: Expr
    low: Expr
    high: Expr
    all_pass: Literal["maker", "redeal", "none"] = "redeal"
    all_pass_maker: Expr | None = None
    all_pass_bid: Expr | None = None
    all_pass_cite: Citation | None = None
    step: Expr | None = None
    passes: int | None = None  # `until N passes`
    rules: tuple[AuctionRule, ...] = ()
    extra_all_pass: tuple[Span, ...] = ()  # all-pass rules after the first (the checker refuses them)
    all_pass_span: Span | None = None


class TableAuction(Stmt, decision="auction", moves_cards=False, scores=False, ends=None, in_play=False):
    """An auction over the file's bid table: `auction KIND from P, bids T` and its rules."""

    form = "kind"

    kind: Literal["once_around", "until_passes", "until_n_passes"]
    start: Expr
    table: str
    passes: int | None = None
    all_pass: Literal["maker", "redeal", "none"] = "redeal"
    all_pass_maker: Expr | None = None
    all_pass_bid: Expr | None = None
    all_pass_cite: Citation | None = None
    rules: tuple[AuctionRule, ...] = ()
    extra_all_pass: tuple[Span, ...] = ()
    all_pass_span: Span | None = None


ObligationKind = Literal[
    "lead_first", "not_first_trick", "first_lead_trump",
    "follow_suit", "may_trump", "trump_if_void", "beat_if_able", "lead_until_broken",
    "overtrump_if_able", "no_undertrump",
]


class Obligation(Node):
    form = "kind"

    kind: ObligationKind
    pattern: Pattern | None = None
    guard: Expr | None = None
    cite: Citation | None = None
    span: Span


class CardRule(Node):
    """A rule of trick play about some cards: `may play P at any time` (free), `a trick is never
    won by P` (never_wins), `the suit led is not set by P` (sets_no_suit)."""

    form = "kind"

    kind: Literal["free", "never_wins", "sets_no_suit"]
    pattern: Pattern
    guard: Expr | None = None
    cite: Citation | None = None
    span: Span


class TieRule(Node):
    """`of equal cards the first|later wins [matching P] [when G]`."""

    form = "winner"

    winner: Literal["first", "later"]
    matching: Pattern | None = None
    guard: Expr | None = None
    cite: Citation | None = None
    span: Span


class PlaysFor(Node):
    """`P plays for Q [when G]` (design 3.5): at Q's turns in a trick, P chooses Q's card."""

    controller: Expr
    player: Expr
    guard: Expr | None = None
    cite: Citation | None = None
    span: Span


class Declaration(Node):
    form = "deadline"
    parts = ("no_holding",)

    name: str
    holding: Pattern
    no_holding: bool = False  # written without `holding P`: it needs no card (`holding` is then `any`)
    deadline: Literal["before_first_card", "before_playing_it", "after_leading_it", "before_nth_card", "at_own_turn"]
    card_number: int | None = None  # N of `before own card N`
    guard: Expr | None = None
    body: "tuple[Statement, ...]"
    cite: Citation | None = None
    span: Span


class Hook(Node):
    """`after playing P:`, `after leading P:`, `after each trick:` with its statements."""

    form = "event"

    event: Literal["playing", "leading", "each_trick"]
    pattern: Pattern | None = None
    guard: Expr | None = None
    body: "tuple[Statement, ...]"
    cite: Citation | None = None
    span: Span


class NameLed(Stmt, decision="naming", moves_cards=False, scores=False, ends=None):
    """`P names the suit led [except S]` (in an `after leading` hook)."""

    player: Expr
    exclude: Expr | None = None


class Shows(Stmt, decision="show", moves_cards=False, scores=False, ends=None):
    """`P shows COUNT [matching P[, else Q]]`: cards shown to everybody, left where they are."""

    parts = ("fallback",)

    player: Expr
    count: Count
    matching: Pattern | None = None
    fallback: Pattern | None = None


class Melds(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """`P melds T [from Z]`: the melds of table T in Z (his hand) are counted, recorded for P and shown."""

    player: Expr
    table: str
    zone: ZoneRef | None = None


class Joins(Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """`P joins T` (design 3.9): P is in team T for the rest of the deal (leaving any other); no event."""

    player: Expr
    team: Expr


class EndPlay(Stmt, decision="", moves_cards=False, scores=False, ends="play"):
    """`end the play` (in an `after each trick` hook): no more tricks this deal."""


class Tricks(Stmt, decision="play", moves_cards=True, scores=False, ends=None, in_play=False,
             bodies=("declarations", "hooks"), runs="play"):
    count: Expr
    leader: Expr
    obligations: tuple[Obligation, ...] = ()
    declarations: tuple[Declaration, ...] = ()
    card_rules: tuple[CardRule, ...] = ()
    ties: tuple[TieRule, ...] = ()
    hooks: tuple[Hook, ...] = ()
    plays_for: tuple[PlaysFor, ...] = ()


Statement = (
    Bid | Add | Phase | DealCards | TurnUp | SetTrump | NameTrump | Score | Let | StopLoop | Pass | EndDeal
    | Discard | Take | Keep | Cut | Leads | ReplayTricks | BecomesDealer | Draw | Move | EndMatch | Redeal
    | Expose | Forbid | Cancel | If | Repeat | ForEach | Choose | Auction | Tricks | ForCard | NameLed | Shows
    | EndPlay | Melds | Joins | TableAuction | TableBid
)


