"""Random playouts (a search player's rollouts), mixed into :class:`~interpreter.state.State`:
:meth:`Playouts.playout` plays on with uniformly random legal actions, the generated
module's own loop (``playout``) taking every action it can without coming back to the
state, the rest by the public step."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .actions import Action
    from .compiled import Compiled
    from .legal import LegalActions


class Playouts:
    """:meth:`playout` of :class:`~interpreter.state.State` (mixed into it)."""

    __slots__ = ()
    _g: Compiled
    _c: Any
    _log: list[int]

    if TYPE_CHECKING:  # defined by State
        _legal: LegalActions | None
        _drawn: tuple[Action, int, int | list[int]] | None
        def _plain(self) -> bool: ...
        def _rolled_back(self, err: BaseException) -> None: ...
        def apply(self, action: Action | str) -> None: ...
        def sample_action(self, rng: random.Random) -> Action: ...

    def playout(self, rng: random.Random, max_actions: int | None = None, *, deal: bool = False) -> int:
        """Play on with uniformly random legal actions until the match is over (with
        ``deal``, until the deal in progress is: the next one begun, a redeal too), or
        ``max_actions`` are taken; returns how many were taken. The same draws, actions
        and state as ``while not s.is_terminal(): s.apply(s.sample_action(rng))``, with
        less work an action (a search player's rollout).

        Raises:
            GameLimitError, RuleRuntimeError: as :meth:`apply` (the actions taken before
                the failing one stay taken).
            TypeError: ``rng`` has no ``randrange`` (it is not a random generator); no
                action is taken.
        """
        if type(rng) is not random.Random and not callable(getattr(rng, "randrange", None)):
            raise TypeError(f"playout() takes a random.Random (or another generator with randrange), "
                            f"not {type(rng).__name__}")
        taken = 0
        limit = 1 << 62 if max_actions is None else max_actions
        c = self._c
        stop_deal = c.deal_no if deal else -1
        g = self._g
        run = g.m["playout"]
        plain = not c.table and self._plain() and g.copies == 1  # (copies: one action per face, below)
        log = self._log
        while not self._c.terminal and taken < limit and (not deal or self._c.deal_no == stop_deal):
            if plain and self._legal is None:
                self._drawn = None  # type: ignore[misc]  # (a slot of State)
                n = len(log)
                try:
                    got = run(self._c, rng, limit - taken, log, stop_deal)  # (each action taken is logged)
                except BaseException as err:
                    taken += len(log) - n  # (a failed action is not logged)
                    self._rolled_back(err)
                    got = len(log) - n
                taken += got
                if got:
                    continue
            self.apply(self.sample_action(rng))
            taken += 1
        return taken

