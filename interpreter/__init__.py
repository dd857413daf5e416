"""The tricklang interpreter: runs any checked rule file as a whole match.

>>> import tricklang, interpreter
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = interpreter.new_game(rules, seed=7)
>>> state.current_player in (0, 1)
True
"""

from .actions import Action
from .errors import (
    GameError,
    GameLimitError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    RuleRuntimeError,
)
from .state import LegalActions, Outcome, State, new_game

__all__ = [
    "Action",
    "GameError",
    "GameLimitError",
    "IllegalActionError",
    "InvalidActionError",
    "LegalActions",
    "Outcome",
    "RecordError",
    "RuleRuntimeError",
    "State",
    "new_game",
]
