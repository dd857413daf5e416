"""The tricklang interpreter: runs any checked rule file as a whole match.

>>> import tricklang, interpreter
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = interpreter.new_game(rules, seed=7)
>>> state.current_player in (0, 1)
True

Importing the package is cheap (the ``tricklang`` command starts from it): the
runtime is imported on first use of one of its names. Nothing registers anything by
being imported.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from .state.actions import Action
    from .state.legal import LegalActions
    from .state.snapshot import Decision, Outcome, Snapshot
    from .state.state import Game, State, new_game

_LAZY = {
    "Action": "state.actions",
    "Decision": "state.snapshot",
    "Game": "state.state",
    "LegalActions": "state.legal",
    "Outcome": "state.snapshot",
    "Snapshot": "state.snapshot",
    "State": "state.state",
    "new_game": "state.state",
}

__all__ = [
    "Action",
    "ArgumentError",
    "Decision",
    "Game",
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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
