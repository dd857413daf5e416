"""Values a :class:`~interpreter.state.State` hands out: the decision pending
(:class:`Decision`), how a match ended (:class:`Outcome`) and a state's data at one
point (:class:`Snapshot`, for undo and search)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .compiled import Compiled as Game


@dataclass(frozen=True)
class Decision:
    """The decision pending: its kind, the seat to act, the phase name and its bounds.

    ``kind`` is one of ``play``, ``select`` (discard, take, rob: choosing cards),
    ``choice`` (named options), ``auction``, ``bid`` (a player's own bid),
    ``name_trump`` and, in table mode, ``pause`` (a referee's pause: ``continue`` or an
    irregularity; see :mod:`interpreter.pauses`); ``phase`` is :attr:`State.phase` (a selection's verb, e.g.
    ``discard``). ``low``/``high`` bound the number of cards of a selection and the
    bid of an auction or own bid; None for the other kinds.
    """

    kind: str
    seat: int
    phase: str
    low: int | None = None
    high: int | None = None


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


class Snapshot:
    """A state's data at one point, to go back to with :meth:`State.restore` (opaque)."""

    __slots__ = ("game", "core", "log", "irregular")

    def __init__(self, game: Game, core: Any, log: list[int], irregular: list[tuple[int, int, tuple[int, ...]]]) -> None:
        self.game = game
        self.core = core
        self.log = log
        self.irregular = irregular
