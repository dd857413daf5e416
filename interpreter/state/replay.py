"""The log of a match's actions and what is rebuilt from it.

A state logs each action as one integer, its *key* (:func:`key_of`: the decision point
and the action's local code there, or an irregular action's index in the state's list of
them). What is read rarely (the event log, the texts of the actions, who took each) is
rebuilt from that log by a :class:`Recorder`: a second core, logging events, that
replays the keys when asked (:meth:`Recorder.catch_up`).
"""

from __future__ import annotations

from array import array
from typing import Any

from ..runtime.chance import ChanceNeeded
from .protocol import StateLike

IRREGULAR_DP = 0xFFFF
"""The decision point of a logged irregular action (its code indexes the state's list of them)."""

def key_of(dp: int, code: int) -> int:
    """An action in the log: its decision point and its local code (a selection's: its cards' mask)."""
    return dp | (code + 1) << 16


class Recorder:
    """The record of a match rebuilt from its log of action keys: a second core that
    logs events, and the text and actor of every action. It follows its state lazily:
    :meth:`catch_up` replays the keys logged since it last looked."""

    __slots__ = ("core", "n", "texts", "actors")

    def __init__(self, core: Any) -> None:
        self.core = core
        self.n = 0
        self.texts: list[str] = []
        self.actors = array("b")

    def catch_up(self, state: StateLike) -> None:
        log = state._log
        if self.n >= len(log):
            return
        c = self.core
        state._before_replay(c)
        for key in log[self.n:]:
            self.actors.append(c.actor)
            self.texts.append(state._text_of(c, key))
            self.n += 1
            try:
                apply_key(state, c, key)
            except ChanceNeeded:  # the last action waits for chance: the core stays at the chance node
                return


def apply_key(state: StateLike, c: Any, key: int) -> None:
    """Carry out a logged action on core ``c`` (a replay: it was legal when logged)."""
    g = state._g
    dp = key & 0xFFFF
    code = (key >> 16) - 1
    c.steps = 0
    if dp == IRREGULAR_DP:
        k, seat, args = state._irr[code]
        g.m["irr_start"](c, k, seat, args)
        return
    if g.dps[dp].kind == "select":
        g.m["APPLY"][dp](c, g.m["in_order"](c, code))
    else:
        g.m["APPLY"][dp](c, code)


