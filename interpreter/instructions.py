"""The instructions a compiled deal is made of, gathered from the modules that define them
(:mod:`~interpreter.flow`, :mod:`~interpreter.dealing`, :mod:`~interpreter.decisions`,
:mod:`~interpreter.tricks`) under one name, as the compiler uses them.

Automatic instructions (``decision = False``) change the core and move ``pc`` on.
Decision instructions (``decision = True``) wait for a player: ``ready`` prepares
them (and may finish them, moving ``pc`` on, when nothing is left to decide),
``actor`` says who decides, ``legal`` lists the actions in a fixed order and
``apply`` carries one out. Nothing here knows any particular game.
"""

from .dealing import DealCards, Draw, Move, SetTrump, TurnUp, set_trump
from .decisions import Auction, Bid, Choose, IrregularityEntry, NameTrump, ParamSpec, Select
from .flow import (
    MAX_CHOICES,
    MAX_NUMBER,
    AddCounter,
    Cancel,
    EndDeal,
    EndMatch,
    Expose,
    ExposeCard,
    FinishDeal,
    Forbid,
    ForInit,
    ForNext,
    Instruction,
    Jump,
    JumpUnless,
    LoopHead,
    Redeal,
    Return,
    Score,
    SetBuiltin,
    SetVar,
    do_score,
)
from .tricks import Declaration, Obligation, Tricks

__all__ = [
    "MAX_CHOICES", "MAX_NUMBER", "AddCounter", "Auction", "Bid", "Cancel", "Choose", "DealCards", "Declaration",
    "Draw", "EndDeal", "EndMatch", "Expose", "ExposeCard", "FinishDeal", "Forbid", "ForInit", "ForNext", "Instruction",
    "IrregularityEntry", "Jump", "JumpUnless", "LoopHead", "Move", "NameTrump", "Obligation", "ParamSpec", "Redeal", "Return",
    "Score", "Select", "SetBuiltin", "SetTrump", "SetVar", "Tricks", "TurnUp", "do_score", "set_trump",
]
