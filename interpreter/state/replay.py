"""The log of a match's actions and what is rebuilt from it.

A state logs each action as one integer, its *key* (:func:`key_of`: the decision point
and the action's local code there, or an irregular action's index in the state's list of
them). What is read rarely (the event log, the texts of the actions, who took each) is
rebuilt from that log by a :class:`Recorder`: a second core, logging events, that
replays the keys when asked (:meth:`Recorder.catch_up`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from ..codegen.module import EVERY_EVENT
from ..runtime.chance import ChanceNeeded
from .legal import Selection
from .protocol import StateLike

if TYPE_CHECKING:
    from .actions import Action
    from .compiled import Compiled
    from .legal import LegalActions

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




class Log:
    """The log of a :class:`~interpreter.state.State` and what is rebuilt from it: fresh
    cores of the match, replays, the recorder, the texts and actors of the actions
    (mixed into the State)."""

    __slots__ = ()
    _g: Compiled
    _c: Any
    _keys: list[int]  # the log as a list (see _log)
    _pend: Any  # None, or a core whose buffer holds the log's last keys (a native playout's: see _log)
    _irr: list[tuple[int, int, tuple[int, ...]]]
    _rec: Recorder | None

    @property
    def _log(self) -> list[int]:
        """Every action taken, as ``key_of(dp, code)``. A native playout that ends the match
        leaves its last keys in the core's buffer (``_pend``): they are appended here, once,
        when the log is first read (a playout nobody reads the log of makes no int)."""
        pend = self._pend
        if pend is not None:
            self._pend = None
            self._g.m["flush_keys"](pend, self._keys)
        return self._keys

    @_log.setter
    def _log(self, keys: list[int]) -> None:
        self._keys = keys  # type: ignore[misc]  # (slots of State)
        self._pend = None

    if TYPE_CHECKING:  # defined by State
        _legal: LegalActions | None
        _drawn: tuple[Action, int, int | list[int]] | None
        _codes: tuple[int, list[int]] | None
        def _error(self, err: BaseException) -> BaseException: ...

    # ------------------------------------------------------------ taking an action
    def _take_code(self, dp: int, code: int) -> None:
        """Carry out the action of code ``code`` at decision point ``dp`` (not a selection's;
        legal now), as :meth:`_take` does its key."""
        self._legal = None  # type: ignore[misc]  # (slots of State)
        self._drawn = None  # type: ignore[misc]
        self._codes = None  # type: ignore[misc]
        c = self._c
        c.steps = 0
        try:
            self._g.apply_fns[dp](c, code)
        except BaseException as err:
            self._rolled_back(err)
        self._keys.append(dp | (code + 1) << 16)  # (legal now: the match goes on, nothing is pending)

    def _take_chosen(self, dp: int, chosen: list[int]) -> None:
        """Carry out the choice of these cards (legal now, in listed order: a subset of the
        pending selection's) at the selection of decision point ``dp``, as :meth:`_take`
        does its key (without listing the cards of the key's mask again)."""
        self._legal = None  # type: ignore[misc]  # (slots of State)
        self._drawn = None  # type: ignore[misc]
        self._codes = None  # type: ignore[misc]
        mask = 0
        for k in chosen:
            mask |= 1 << k
        c = self._c
        c.steps = 0
        try:
            self._g.m["APPLY"][dp](c, chosen)
        except BaseException as err:
            self._rolled_back(err)
        self._keys.append(dp | (mask + 1) << 16)  # (legal now: the match goes on, nothing is pending)

    def _take(self, key: int) -> None:
        """Carry out the action with this log key (legal now), or put the state back as it
        was and raise the failure, typed."""
        self._legal = None  # type: ignore[misc]  # (slots of State)
        self._drawn = None  # type: ignore[misc]
        self._codes = None  # type: ignore[misc]
        c = self._c
        try:
            fn = self._g.plain_apply.get(key & 0xFFFF)
            if fn is not None:  # (apply_key's common case, inlined)
                c.steps = 0
                fn(c, (key >> 16) - 1)
            else:
                apply_key(cast(StateLike, self), c, key)
        except BaseException as err:
            if key >> 16 and (key & 0xFFFF) == IRREGULAR_DP:
                self._irr.pop()
            self._rolled_back(err)
        self._log.append(key)

    def _took_listed(self, legal: LegalActions, action: object) -> bool:
        """Take this very action object if ``legal`` (this plain state's listing now) holds
        it, as the general path of :meth:`apply` would, with no search by text (a selection's
        action just read: its cards by its index); False, taking nothing, if not listed."""
        key = legal.listed_key(action)
        if key >= 0:
            self._take(key)
            return True
        sel = legal.selection
        if sel is not None and type(sel) is Selection and (read := sel.read) is not None and read[0] is action:
            self._take_chosen(self._c.dp, read[1])
            return True
        for a in legal.explicit:
            if a is action:
                self._take(self._key(a))
                return True
        return False

    def _take_legal(self, action: Action) -> None:
        """Carry out a legal action (as listed)."""
        self._take(self._key(action))

    def _key(self, action: Action) -> int:
        """The log key of a legal action now."""
        g, c = self._g, self._c
        if action.verb == "irregular":
            from .irregular import parse

            self._irr.append(parse(cast(StateLike, self), action))
            return key_of(IRREGULAR_DP, len(self._irr) - 1)
        dp = c.dp
        if g.dps[dp].kind == "select":
            mask = 0
            if action.args != ("none",):
                if g.copies > 1:
                    return key_of(dp, self._copies_chosen(action.args))
                for a in action.args:
                    mask |= 1 << g.tables.index[a]
            return key_of(dp, mask)
        code = g.code(dp, action)
        assert code is not None
        return key_of(dp, code)

    def _copies_chosen(self, faces: tuple[str, ...]) -> int:
        """The cards a choice of faces takes from a pack with copies: of each face named k
        times, the first k of its cards the pending selection offers (copies are equal cards)."""
        g, c = self._g, self._c
        n, index = g.copies, g.tables.index
        mask = 0
        for a in faces:
            first = index[a]
            for k in range(first, first + n):
                if c.sel_cards >> k & 1 and not mask >> k & 1:
                    mask |= 1 << k
                    break
        return mask

    def _rolled_back(self, err: BaseException) -> None:
        """Put the state back as it was before a failed action (replaying its log) and
        raise the error, typed.

        Raises:
            GameError: ``err`` or, for a failure of the rules, a RuleRuntimeError.
        """
        self._c = self._replayed(rec=self._c.rec)  # (a state that records events goes on recording)
        self._rec = None  # type: ignore[misc]
        raise self._error(err) from None

    # ------------------------------------------------------------ rebuilt from the log
    def _fresh(self, rec: int = 0, log: Callable[[Any], list[Any]] | None = None) -> Any:
        """A new core of this match, advanced to its first decision (or to the chance node
        it waits at), logging the kinds of events in the mask ``rec`` (``EVERY_EVENT``,
        or True: all of them); ``log`` makes the list its events go to (given the core,
        before the first event)."""
        if rec is True:
            rec = EVERY_EVENT
        c0 = self._c
        m = self._g.m
        tape, dealer = self._begin_args()
        c = m["make_core"](c0.seed, c0.deck, c0.table, tape, c0.decks, c0.reseeds, rec)
        if log is not None:
            c.log = log(c)
        try:
            m["begin"](c, dealer)
            c.steps = 0
            m["advance"](c)
        except ChanceNeeded:
            pass
        return c

    def _before_replay(self, c: Any) -> None:
        """Prepare a core that replays this state's log (a modal state hands it its tape)."""

    def _begin_args(self) -> tuple[tuple[int, ...] | None, int | None]:
        """The chance tape and first dealer a fresh core of this match starts from."""
        dealer: int = self._c.first_dealer
        return None, dealer

    def _replayed(self, rec: int = 0) -> Any:
        """A core rebuilt by replaying this state's log from the start (logging the kinds
        of events in the mask ``rec``)."""
        c = self._fresh(rec)
        for key in self._log:
            apply_key(cast(StateLike, self), c, key)
        return c

    def _recorder(self) -> Recorder:
        """The record of this match, caught up with its log."""
        rec = self._rec
        if rec is None:
            rec = self._rec = Recorder(self._fresh(rec=EVERY_EVENT))  # type: ignore[misc]  # (a slot of State)
        rec.catch_up(cast(StateLike, self))
        return rec

    def _text_of(self, c: Any, key: int) -> str:
        """The text of a logged action, taken in core ``c`` (before it is applied)."""
        g = self._g
        dp = key & 0xFFFF
        code = (key >> 16) - 1
        if dp == IRREGULAR_DP:
            from .irregular import text

            return text(cast(StateLike, self), self._irr[code])
        if g.dps[dp].kind == "select":
            cards = g.m["in_order"](c, code)
            codes = g.tables.codes
            return " ".join([g.dps[dp].verb, *([codes[x] for x in cards] or ["none"])])
        return g.action(dp, code).text

    @property
    def actions(self) -> list[str]:
        """The texts of the actions taken so far, in order."""
        return list(self._recorder().texts)

    @property
    def actors(self) -> array[int]:
        """The seat that took each action so far."""
        return array("b", self._recorder().actors)

    @property
    def action_count(self) -> int:
        """How many actions have been taken."""
        return len(self._log)

