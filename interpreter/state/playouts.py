"""Random playouts (a search player's rollouts), mixed into :class:`~interpreter.state.State`:
:meth:`Playouts.playout` plays on with uniformly random legal actions, the generated
module's own loop (``playout``) taking every action it can without coming back to the
state, the rest by the public step."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from .actions import Action
    from .compiled import Compiled
    from .legal import LegalActions


_Random = random.Random
_UNLIMITED = 1 << 62


class Playouts:
    """:meth:`playout` of :class:`~interpreter.state.State` (mixed into it)."""

    __slots__ = ()
    _g: Compiled
    _c: Any
    _keys: list[int]
    _pend: Any

    if TYPE_CHECKING:  # defined by State
        _legal: LegalActions | None
        _drawn: tuple[Action, int, int | list[int]] | None
        _codes: tuple[int, list[int]] | None
        _PLAIN: ClassVar[bool]
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
        if type(rng) is not _Random and not callable(getattr(rng, "randrange", None)):
            raise TypeError(f"playout() takes a random.Random (or another generator with randrange), "
                            f"not {type(rng).__name__}")
        c = self._c
        g = self._g
        m = g.m
        log = self._keys
        if self._pend is not None:  # (the log whole: see Log._log)
            m["flush_keys"](self._pend, log)
            self._pend = None
        taken = 0
        limit = _UNLIMITED if max_actions is None else max_actions
        stop_deal = c.deal_no if deal else -1
        plain = self._PLAIN and not c.table and g.copies == 1  # (copies: one action per face, below)
        while not c.terminal and taken < limit and (stop_deal < 0 or c.deal_no == stop_deal):
            if plain and self._legal is None:
                self._drawn = self._codes = None  # type: ignore[misc]  # (slots of State: a listing is stale)
                try:
                    got = m["playout"](c, rng, limit - taken, log, stop_deal)  # (each action taken is logged)
                except BaseException as err:
                    m["flush_keys"](c, log)  # (natively, the last keys wait in the core)
                    self._rolled_back(err)  # (it raises; the failed action is not logged)
                taken += got
                if c.terminal:  # (nothing can be taken after the end: the keys may wait until the log is read)
                    if c.kn:
                        self._pend = c
                    break
                m["flush_keys"](c, log)
                if got:
                    continue
            self.apply(self.sample_action(rng))
            taken += 1
            c = self._c
        return taken

