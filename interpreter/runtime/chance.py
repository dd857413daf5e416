"""Explicit chance: shuffles, random first dealers and random moves as chance nodes.

By default chance is automatic: every shuffle, first dealer and random move is derived
from the game's seed (:mod:`interpreter.runtime.seeding`), so a state is a function of its seed
and actions. In explicit mode
(``new_game(..., chance="explicit")``) the runtime instead reads each random
outcome from a *tape* of chance outcomes, and when the tape runs out the state is a
chance node (``is_chance_node()``) until enough outcomes are applied:

* a shuffle is the deck dealt card by card: one outcome per card, the next card off
  the pack (the first outcome is the first card dealt), uniform over the cards not
  yet drawn; it is exactly ``new_game(deck=...)`` with those cards in that order;
* a random first dealer (``first dealer is random``) is one outcome, a seat;
* ``move N at random`` is N outcomes, the cards moved, uniform over the candidates
  not yet drawn.

Outcome ids are card indices (deck order, as action ids) or seats. The generated module
asks through :func:`draw`; :class:`ChanceNeeded` carries the request up to the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import RecordError

CHANCE_PLAYER = -1
"""``current_player`` at a chance node (OpenSpiel's convention)."""

CHANCE_MODES = ("automatic", "explicit")


@dataclass(frozen=True)
class ChanceRequest:
    """What a chance node waits for: ``count`` outcomes, each one of the candidates
    not yet drawn (``given`` holds those drawn so far)."""

    kind: str  # 'deck', 'dealer' or 'sample'
    candidates: tuple[int, ...]
    count: int
    given: tuple[int, ...] = ()

    def remaining(self) -> list[int]:
        """The outcomes possible next, in increasing order."""
        given = set(self.given)
        return sorted(c for c in self.candidates if c not in given)


class ChanceNeeded(Exception):  # noqa: N818 - a signal, not an error
    """Raised inside a generated module when the tape holds too few outcomes; the state
    catches it (the action that needed chance is taken again once chance has spoken)."""

    def __init__(self, request: ChanceRequest) -> None:
        super().__init__(request.kind)
        self.request = request


def draw(tape: Sequence[int], pos: int, kind: str, candidates: Sequence[int], count: int) -> list[int]:
    """The ``count`` distinct outcomes among ``candidates`` on ``tape`` from ``pos`` on
    (the caller moves its position on by ``count``).

    Raises:
        ChanceNeeded: the tape holds fewer than ``count`` outcomes from ``pos``.
        RecordError: a taped outcome is not one of the candidates (a corrupt record).
    """
    if len(tape) - pos < count:
        raise ChanceNeeded(ChanceRequest(kind, tuple(candidates), count, tuple(tape[pos:])))
    left = set(candidates)
    out = list(tape[pos:pos + count])
    for o in out:
        if o not in left:
            raise RecordError(f"chance outcome {o} is not one of the possible outcomes of this {kind}")
        left.discard(o)
    return out
