"""The referee's pauses: moments of a deal in table mode that are no player's decision.

The engine runs everything between two decisions as one step, so without a pause there
is no moment between the deal and the turn-up, and none after the deal's last card
before it is scored. A rule file names these moments in its irregularities:

- ``during deal``: right after a ``deal`` statement has dealt the cards, before the
  statement that follows it (a turn-up): a misdeal noticed before the turn-up;
- ``during end_of_play``: right after the last card of a ``tricks`` statement, before
  what follows it (the deal's scoring): a revoke in the last trick.

The compiler puts a :class:`RefereePause` after every such statement of the deal (not of
a remedy) when an irregularity of the rule file names its moment. In strict mode it is
passed over at once. In table mode it waits when one of the irregularities that name
its moment can be recorded now (their guards are read); the legal actions are then
``continue`` (nothing to record) and the irregular actions on offer, those declared
``during any`` included. The dealer acts for the table (he holds the cards of the deal
and is a seat every game has); the action is the referee's, not a play of his.
Nothing here knows any particular game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import irregular
from .actions import Action
from .core import Core
from .flow import Instruction
from .legal import LegalActions

if TYPE_CHECKING:
    from .program import Program

CONTINUE = Action("continue")
_CONTINUE_ONLY = LegalActions((CONTINUE,))

MOMENTS = ("deal", "end_of_play")
"""The moments a referee's pause stands for, as written after ``during``."""

WORDS = {"deal": "after the cards are dealt", "end_of_play": "after the deal's last card, before it is scored"}
"""Each moment in words (messages, ``explain``)."""


class RefereePause(Instruction):
    """A pause at one moment (``deal`` or ``end_of_play``); ``tricks_at`` is the trick play
    it follows (``end_of_play``: ``replay the tricks`` goes back to it), else -1."""

    decision = True

    def __init__(self, prog: Program, moment: str, tricks_at: int = -1) -> None:
        super().__init__(prog)
        self.moment = moment
        self.tricks_at = tricks_at
        self.words = WORDS[moment]

    def ready(self, core: Core) -> bool:
        if core.table and not core.calls and self._named_now(core):
            return True
        core.pc += 1
        return False

    def _named_now(self, core: Core) -> bool:
        """Whether an irregularity that names this moment can be recorded now."""
        return bool(irregular.offered(self.prog, core, self.moment, named_only=True))

    def actor(self, core: Core) -> int:
        return core.dealer

    def legal(self, core: Core) -> LegalActions:
        return _CONTINUE_ONLY

    def apply(self, core: Core, action: Action) -> None:
        core.pc += 1

    def phase(self, core: Core) -> str:
        return self.moment

    @staticmethod
    def words_of(moment: str) -> str:
        """A moment in words ('after the cards are dealt')."""
        return WORDS.get(moment, moment)
