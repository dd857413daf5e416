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
>>> key_of(__import__("tricklang").model.Pass(span=__import__("tricklang").model.NO_SPAN))
'Pass'
"""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Final

from . import model as m
from .types import BUILTIN_NAMES, FUNCTIONS, LOOP_NAMES, OF_FORMS
from .walk import nodes

RUNTIME: Final[frozenset[str]] = frozenset({
    # sections and their parts
    "RuleFile", "Citation", "Players", "Role", "Deck", "SuitDecl", "Option", "Zone", "Counter", "PointCard", "Match",
    "Irregularity", "IrregularityParam",
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
    "Call.count", "Call.tricks", "Call.points", "Call.score", "Call.bids", "Call.min", "Call.max",
    "CardHolder.holder", "CardHolder.original", "CardHolder.taker",
    "Name.dealer", "Name.maker", "Name.nobody", "Name.bid", "Name.true", "Name.false", "Name.deal_number",
    "Name.total_bids", "Name.trump", "Name.leader", "Name.played_to_trick",
    "Name.player", "Name.side", "Name.offender", "Name.declarer",
    "Of.left", "Of.right", "Of.partner", "Of.side", "Of.opponents", "Of.suit",
    # card patterns
    "SuitRef", "PatWord", "PatCard", "PatNot", "PatOr",
})
"""Every construct the runtime plays (see the module docstring). The runtime adds a key
here when it learns the construct; the checker refuses every other key."""

WORDS: Final[dict[str, str]] = {
}
"""What each construct of the language that the runtime cannot play yet is, in words, for the
``unsupported-construct`` message (a test keeps one for every such construct)."""

_TYPED_FORMS = (m.Name, m.Of)
"""Classes whose form is a built-in name: the typer reports those (see :func:`key_of`)."""


def key_of(node: m.Node) -> str | None:
    """The construct a node is, by its class and form; None for a name or an ``X of Y``, whose
    construct (a built-in one, or a name the file declares) only the typer knows."""
    cls = type(node)
    if isinstance(node, _TYPED_FORMS):
        return None
    if not cls.form:
        return cls.__name__
    value = getattr(node, cls.form)
    if isinstance(value, bool):
        return f"{cls.__name__}.{cls.form}" if value else cls.__name__
    return f"{cls.__name__}.{value}"


def constructs(rules: m.RuleFile) -> Iterator[tuple[str, m.Span | None]]:
    """Every construct a rule file uses, with where (the node's span, or None), in source order
    of discovery; names and ``X of Y`` forms are left to the typer."""
    for node in nodes(rules):
        key = key_of(node)
        if key is not None:
            yield key, getattr(node, "span", None)


def language_constructs() -> frozenset[str]:
    """Every construct of the language: each model class (a class with a form field once per
    value of it) and each built-in name, ``X of`` form and function."""
    found: set[str] = set()
    for cls in _node_classes(m.Node):
        if cls is m.Span or cls is m.Stmt:
            continue
        if not cls.form:
            found.add(cls.__name__)
            continue
        annotation = cls.model_fields[cls.form].annotation
        if annotation is bool:
            found.update((cls.__name__, f"{cls.__name__}.{cls.form}"))
        else:  # a name's built-ins come below; every other form is a Literal
            found.update(f"{cls.__name__}.{v}" for v in typing.get_args(annotation))
    found.update(f"Name.{n}" for n in (*BUILTIN_NAMES, *LOOP_NAMES))
    found.update(f"Of.{n}" for n in (*OF_FORMS, "suit"))
    found.update(f"Call.{n}" for n in FUNCTIONS)
    return frozenset(found)


def _node_classes(root: type[m.Node]) -> Iterator[type[m.Node]]:
    for cls in root.__subclasses__():
        if cls.__module__.startswith("tricklang.model"):
            yield cls
            yield from _node_classes(cls)


def words(key: str) -> str:
    """A construct in words, for messages."""
    return WORDS.get(key, f"'{key}'")
