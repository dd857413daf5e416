"""The typed syntax model of a rule file: frozen pydantic nodes with source spans.

The parser (:mod:`tricklang.parser`) builds these nodes from the Lark tree; nothing
after the parser imports Lark. Every node carries a :class:`Span` so that the
checker and the interpreter can point at the line that caused a problem. Nodes are
pydantic models with ``defer_build``: one built by hand is validated; the parser
(trusted) uses ``model_construct``, so a check builds no validator. Annotations are
values, strings only for forward references: creating the classes evaluates none.

The nodes live in four modules, read as one namespace (``from tricklang import model
as m``; ``m.Tricks``): :mod:`~tricklang.model.base`, :mod:`~tricklang.model.expressions`
(with card patterns), :mod:`~tricklang.model.statements` (each kind of statement with
its facts) and :mod:`~tricklang.model.sections`.
"""

from .base import NO_SPAN, Citation, Node, Span
from .expressions import (
    Arg,
    BinaryOp,
    BinOp,
    Call,
    CardBeats,
    CardChoice,
    CardHolder,
    CardIs,
    CardPlayedBy,
    Expr,
    Has,
    IntLit,
    Name,
    Neg,
    Not,
    Of,
    PatAnd,
    PatCard,
    PatNot,
    PatOr,
    Pattern,
    PatWord,
    SeatLit,
    SuitRef,
    WhoPlayed,
)
from .sections import (
    Counter,
    Deck,
    Irregularity,
    IrregularityParam,
    Match,
    MeldClass,
    MeldLine,
    MeldTable,
    Option,
    OptionType,
    Players,
    PointCard,
    Role,
    RuleFile,
    SuitDecl,
    Table,
    Zone,
)
from .statements import (
    FACTS,
    Add,
    Auction,
    BecomesDealer,
    Bid,
    Cancel,
    CardRule,
    ChoiceOption,
    Choose,
    Count,
    Cut,
    DealCards,
    Declaration,
    Discard,
    Draw,
    EndDeal,
    EndMatch,
    EndPlay,
    Ends,
    Expose,
    Forbid,
    ForCard,
    ForEach,
    Hook,
    If,
    Keep,
    Leads,
    Let,
    Melds,
    Move,
    NameLed,
    NameTrump,
    Obligation,
    ObligationKind,
    Pass,
    Phase,
    Redeal,
    Repeat,
    ReplayTricks,
    Runs,
    Score,
    SetTrump,
    Shows,
    Statement,
    Stmt,
    StopLoop,
    Take,
    TieRule,
    Tricks,
    TurnUp,
    ZoneRef,
)

__all__ = [
    "FACTS", "NO_SPAN", "Add", "Arg", "Auction", "BecomesDealer", "BinOp", "BinaryOp", "Bid", "Call", "Cancel",
    "CardBeats", "CardChoice", "CardHolder", "CardIs", "CardPlayedBy", "CardRule", "ChoiceOption", "Choose", "Citation", "Count", "Counter", "Cut", "DealCards",
    "Declaration", "Deck", "Discard", "Draw", "EndDeal", "EndMatch", "EndPlay", "Ends", "Expose", "Expr", "ForCard", "ForEach", "Forbid",
    "Has", "Hook", "If", "IntLit", "Irregularity", "IrregularityParam", "Keep", "Leads", "Let", "Match", "MeldClass", "MeldLine", "MeldTable", "Melds", "Move", "Name",
    "NameLed", "NameTrump", "Neg", "Node", "Not", "Obligation", "ObligationKind", "Of", "Option", "OptionType", "Pass",
    "PatAnd", "PatCard", "PatNot", "PatOr", "PatWord", "Pattern", "Phase", "PointCard", "Players", "Redeal", "Repeat",
    "ReplayTricks", "Role", "RuleFile", "Runs", "Score", "SeatLit", "SetTrump", "Shows", "Span", "Statement", "Stmt", "StopLoop",
    "SuitDecl", "SuitRef", "Table", "Take", "TieRule", "Tricks", "TurnUp", "WhoPlayed", "Zone", "ZoneRef",
]
