"""The tricklang interpreter: runs any checked rule file as a whole match.

>>> import tricklang, interpreter
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = interpreter.new_game(rules, seed=7)
>>> state.current_player in (0, 1)
True

Importing the package is cheap (the ``tricklang`` command starts from it): the
runtime is imported on first use of one of its names. That first use also imports
:mod:`interpreter.modes` and :mod:`interpreter.search`, which register the selection
and chance modes with ``new_game`` and the search player with ``make_agent``; a
module that imports ``interpreter.state`` or ``interpreter.agents`` directly and needs
them imports those two modules itself.
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
    from .actions import Action
    from .legal import LegalActions
    from .state import Outcome, Snapshot, State, new_game
    from .views import Decision

_LAZY = {
    "Action": "actions",
    "Decision": "views",
    "LegalActions": "legal",
    "Outcome": "state",
    "Snapshot": "state",
    "State": "state",
    "new_game": "state",
}

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


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'interpreter' has no attribute {name!r}")
    import_module(".modes", __name__)  # registers the selection and chance modes with new_game
    import_module(".search", __name__)  # registers the search player with make_agent
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
