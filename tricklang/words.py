"""Small helpers for messages in English (shared by the language and the runtime)."""

from __future__ import annotations


def snake(name: str) -> str:
    """``EndPlay`` as ``end_play``: a statement class's grammar rule name."""
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def plural(n: int, word: str) -> str:
    """'1 card', '2 cards', '1 match', '3 matches'."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}{'es' if word.endswith(('ch', 's', 'sh', 'x')) else 's'}"


RESERVED_WORDS: dict[str, str] = {
    "pass": "'pass' is reserved (the statement that does nothing, and a player's pass in an auction)",
    "continue": "'continue' is reserved (the action that lets a declaration window after a lead go by)",
    "done": "'done' is reserved (the action that ends a card selection made one card at a time)",
}
"""Words the engine's own actions use, which a choice or an option value may not take."""


STATEMENT_WORDS: dict[str, str] = {
    "DealCards": "deal ... to each", "TurnUp": "turn up", "SetTrump": "trump is", "NameTrump": "names trump",
    "Bid": "bids", "Add": "add ... to", "Phase": "phase", "Score": "scores", "Let": "let",
    "StopLoop": "stop", "Pass": "pass", "EndDeal": "end the deal", "EndMatch": "end the match",
    "Discard": "discards", "Take": "takes", "Keep": "takes all ... and keeps", "Cut": "cut", "Leads": "leads",
    "ReplayTricks": "replay the tricks", "BecomesDealer": "becomes dealer", "Draw": "draws", "Move": "move",
    "Redeal": "redeal", "Expose": "expose", "Forbid": "forbid", "Cancel": "cancel", "If": "if",
    "Repeat": "repeat", "ForEach": "for each", "Choose": "chooses", "Auction": "auction", "Tricks": "tricks",
    "TableBid": "bids", "ForCard": "for each card in", "TableAuction": "auction", "NameLed": "names the suit led",
    "Shows": "shows", "Melds": "melds", "EndPlay": "end the play", "Joins": "joins",
}
"""Each statement of the model (by class name) as the language writes it, for messages:
a message quotes ``'trump is'``, never the model's ``SetTrump``."""


def statement_words(statement: object) -> str:
    """The words that write ``statement`` (a model statement) in a rule file: ``'trump is'``
    for ``SetTrump``, ``'loses'`` for a negative ``Score``, ``'set'`` for a rebinding ``Let``.

    >>> from tricklang import model
    >>> statement_words(model.SetTrump.model_construct(source="none"))
    'trump is'
    """
    name = type(statement).__name__
    if name == "Score" and getattr(statement, "negative", False):
        return "loses"
    if name == "Let" and getattr(statement, "rebind", False):
        return "set"
    return STATEMENT_WORDS.get(name, name.lower())


STATEMENT_KEYWORDS: dict[str, str] = {
    "turn": "turn up N to ZONE", "trump": "trump is ...", "deal": "deal N to each", "let": "let NAME = VALUE",
    "set": "set NAME = VALUE", "stop": "stop", "pass": "pass", "move": "move N from ZONE to ZONE",
    "cut": "cut ZONE", "redeal": "redeal by same dealer", "expose": "expose ZONE",
    "forbid": "forbid declare NAME for PLAYER", "cancel": 'cancel "LABEL" for PLAYER', "add": "add N to COUNTER of OWNER",
    "end": "end the deal", "replay": "replay the tricks", "if": "if CONDITION:", "repeat": "repeat at most N times:",
    "for": "for each player:", "tricks": "tricks N, PLAYER leads first", "auction": "auction once around from PLAYER",
    "phase": "phase NAME:", "replace": "replace KEYWORD: (in a variant)",
}
"""The reserved words that begin a statement, with the statement each begins: such a word
cannot begin a statement as a name (of a role, a variable...) does."""
