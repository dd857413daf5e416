"""The tricklang interpreter: runs any checked rule file as a whole match.

>>> import tricklang, interpreter
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = interpreter.new_game(rules, seed=7)
>>> state.current_player in (0, 1)
True
"""

from . import modes as _modes  # noqa: F401 - registers the selection and chance modes with new_game
from . import search as _search  # noqa: F401 - registers the search player with make_agent
from .actions import Action
from .errors import (
    ArgumentError,
    GameError,
    GameLimitError,
    IllegalActionError,
    InvalidActionError,
    RecordError,
    ResampleError,
    RuleRuntimeError,
)
from .legal import LegalActions
from .state import Outcome, Snapshot, State, new_game
from .views import Decision

__all__ = [
    "Action",
    "ArgumentError",
    "Decision",
    "GameError",
    "GameLimitError",
    "IllegalActionError",
    "InvalidActionError",
    "LegalActions",
    "Outcome",
    "RecordError",
    "ResampleError",
    "RuleRuntimeError",
    "Snapshot",
    "State",
    "new_game",
]
