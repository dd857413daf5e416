"""Games and their states: :class:`Game` (a compiled rule file with its option values,
the static facts) and :class:`State` (a match in progress), :func:`new_game`."""

from .snapshot import Outcome, Snapshot
from .state import Game, State, new_game

__all__ = ["Game", "Outcome", "Snapshot", "State", "new_game"]
