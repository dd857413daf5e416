"""Values a :class:`~interpreter.State` hands out: how a match ended (:class:`Outcome`)
and a state's data at one point (:class:`Snapshot`, for undo and rollback)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .core import Core
    from .logs import ActionLog
    from .program import Program


@dataclass(frozen=True)
class Outcome:
    """How a match ended: the winning side (a seat's index when there are no
    partnerships), its members, and the final scores per side."""

    winner: int | None
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    deals: int

    def result(self) -> str:
        """A short human-readable result, e.g. ``'seat 1 wins 5-3'``."""
        if self.winner is None:
            return "no winner (drawn or abandoned) at " + "-".join(map(str, self.scores))
        who = "seat " + str(self.winners[0]) if len(self.winners) == 1 else "seats " + "+".join(map(str, self.winners))
        return f"{who} win{'s' if len(self.winners) == 1 else ''} " + "-".join(map(str, self.scores))


CHECKPOINT_EVERY = 64
"""Actions between two rollback checkpoints: a failed action costs at most this many replayed."""


class Snapshot:
    """A state's data at one point, to go back to with :meth:`State.restore` (opaque)."""

    __slots__ = ("program", "core", "n_actions", "actions", "actors", "n_events")

    def __init__(self, program: Program, core: Core, n_actions: int, n_events: int,
                 actions: ActionLog | None = None, actors: array[int] | None = None) -> None:
        self.program = program
        self.core = core
        self.n_actions = n_actions
        self.n_events = n_events
        self.actions = actions
        self.actors = actors
