"""The opt-in embedding modes of a :class:`~interpreter.State`.

``new_game(rules, selections="one_card")`` splits every multi-card selection
(discard 1..5, pass three, keep six) into single-card decisions: the player adds one
card at a time (``discard 7H``, ids in the card block) and ``done`` ends the
selection where its count may stop, as OpenSpiel's Hearts pass does. When the
selection reaches its largest count it is made at once. The game's history
(``state.actions``, records, JSON) still holds whole selections, so both modes reach
the same games; the cards picked so far (``picks``) are seen by the picking seat
only, and its JSON stores them.

In table mode the irregularities of the selection's decision are offered at every
one-card step, before the first card as after it. The picks are not moves of the game
(the game is unchanged until the selection is made, and its history holds whole
selections), so recording one is recording it at that decision, before the selection,
as the all-cards mode does: the picks are withdrawn, the remedy applies to the state
before the selection started, and if the selection is asked again it starts from no
card. (Putting the picks back is not always possible: a remedy may change the cards
the selection is made from, or end the deal.)

``new_game(rules, chance="explicit")`` makes shuffles, random first dealers and
random moves chance nodes (see :mod:`interpreter.runtime.chance`): ``is_chance_node()``,
``chance_outcomes()`` (outcome ids with their probabilities) and
``apply_chance_outcome(id)``. At a chance node ``current_player`` is
:data:`~interpreter.runtime.chance.CHANCE_PLAYER` (-1), ``phase`` is ``'chance'``, and
``legal_actions()`` lists the outcomes as actions (``chance KS``,
``chance seat 2``) so that a generic loop still works.

No irregularity is offered at a chance node, in table mode either: a chance node lies
inside one step of the game (the state there is the one before the action that needed
chance, which runs again once chance has spoken; automatic chance has no moment
there), and the chance player is no seat. The referee records an irregularity at the
next decision or referee's pause, the same moment in both chance modes, so that both
play the same games.

>>> import tricklang, interpreter
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = interpreter.new_game(rules, chance="explicit", dealer=0)
>>> state.is_chance_node(), state.current_player, len(state.chance_outcomes())
(True, -1, 32)
>>> state.chance_outcomes()[0]
(0, 0.03125)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Self, cast

from ..errors import GameError, IllegalActionError, InvalidActionError, RecordError
from ..runtime.chance import CHANCE_PLAYER, ChanceNeeded, ChanceRequest
from .actions import Action
from .legal import LegalActions, Selection
from .replay import IRREGULAR_DP, apply_key
from .snapshot import Decision, Snapshot
from .spaces import code_ids

if TYPE_CHECKING:
    from .protocol import ModalLike as _Base
else:
    _Base = object

DONE = Action("done")


class ModalSnapshot(Snapshot):
    """A :class:`Snapshot` of a :class:`ModalState`, with its pending picks and chance."""

    __slots__ = ("modal",)

    modal: tuple[tuple[int, ...], tuple[int, ...], ChanceRequest | None, tuple[Any, int | None]]


class Modes(_Base):
    """What a state in one-card selection mode and/or explicit chance mode does otherwise
    (mixed into :class:`~interpreter.state.state.ModalState`, before the plain State);
    see the module docstring."""

    __slots__ = ()

    _one_card: bool
    _picks: tuple[int, ...]
    _explicit: bool
    _tape: list[int]
    _request: ChanceRequest | None
    _resume: tuple[Any, int | None]  # the core before the action that needs chance, and that action's key
    _dealer: int | None  # the first dealer given to new_game, if any
    _modal: LegalActions | None  # the legal actions when they differ from the base State's

    _PLAIN = False

    def _plain(self) -> bool:
        return False  # chance may be needed, picks pending: every action goes through the listed legal actions

    def _picking(self) -> bool:
        """Whether a one-card selection is pending, with automatic chance, in strict mode."""
        c = self._c
        return (self._one_card and not self._explicit and self._request is None and not c.terminal
                and not c.table and self._g.dps[c.dp].kind == "select")

    def legal_action_ids(self) -> list[int]:
        if not self._picking():
            return super().legal_action_ids()  # type: ignore[misc, no-any-return]
        c = self._c  # (the cards of the selection not picked yet, then `done`: their ids, increasing)
        picked = self._picks
        ids: list[int] = []
        if len(picked) < c.sel_hi:
            left = c.sel_cards
            for k in picked:
                left &= ~(1 << k)
            ids = [k for k in range(left.bit_length()) if left >> k & 1]
            n = self._g.copies
            if n > 1:  # a face's id (copies are equal cards), once
                ids = sorted({k // n for k in ids})
        if len(picked) >= c.sel_lo:
            ids.append((self._g.code_ids or code_ids(cast(Any, self))).done_id)
        return ids

    def apply_id(self, i: int) -> None:
        if self._picking() and type(i) is int:
            c = self._c
            picked = self._picks
            n, card = self._g.copies, i
            if n > 1:  # a face's id: a card of it not picked yet
                card = next((k for k in range(i * n, i * n + n) if c.sel_cards >> k & 1 and k not in picked), -1) \
                    if 0 <= i < self._g.n_cards // n else -1
            if 0 <= card < self._g.n_cards and c.sel_cards >> card & 1 and card not in picked and len(picked) < c.sel_hi:
                sel = self._pending()
                assert sel is not None
                self._take_legal(Action(sel.verb, (self._g.tables.codes[card],), card))
                return
            if i == (self._g.code_ids or code_ids(cast(Any, self))).done_id and len(picked) >= c.sel_lo:
                self._take_legal(DONE)
                return
        super().apply_id(i)  # type: ignore[misc]

    def _take_code(self, dp: int, code: int) -> None:
        self._modal = None
        super()._take_code(dp, code)  # type: ignore[misc]

    def _regular_now(self) -> bool:
        return not self._explicit and self._request is None and not (
            self._one_card and self._g.dps[self._c.dp].kind == "select")

    # ------------------------------------------------------------ modes
    @property
    def selections(self) -> str:
        return "one_card" if self._one_card else "all"

    @property
    def chance(self) -> str:
        return "explicit" if self._explicit else "automatic"

    @property
    def picks(self) -> list[str]:
        """One-card mode: the cards of the pending selection picked so far (omniscient)."""
        return [self._g.tables.codes[c] for c in self._picks]

    # ------------------------------------------------------------ chance
    def is_chance_node(self) -> bool:
        return self._request is not None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability) of each possible outcome, by increasing id; [] at a decision."""
        req = self._request
        if req is None:
            return []
        left = req.remaining()
        return [(o, 1.0 / len(left)) for o in left]

    def chance_probabilities(self) -> list[tuple[int, Fraction]]:
        """As :meth:`chance_outcomes`, with exact probabilities."""
        req = self._request
        if req is None:
            return []
        left = req.remaining()
        return [(o, Fraction(1, len(left))) for o in left]

    def apply_chance_outcome(self, outcome: int) -> None:
        """Apply one chance outcome (a card index, or a seat for the first dealer).

        Raises:
            IllegalActionError: this is a decision, not a chance node, or ``outcome``
                is not one of :meth:`chance_outcomes`; the state is unchanged.
        """
        req = self._request
        if req is None:
            super().apply_chance_outcome(outcome)  # type: ignore[safe-super]
            return
        if isinstance(outcome, bool) or not isinstance(outcome, int) or outcome not in req.remaining():
            raise IllegalActionError(f"chance outcome {outcome!r}",
                                     f"not one of the {len(req.remaining())} possible outcomes of this {req.kind}")
        self._legal = self._modal = None
        self._tape.append(outcome)
        if len(req.given) + 1 < req.count:
            self._request = ChanceRequest(req.kind, req.candidates, req.count, req.given + (outcome,))
            return
        before, key = self._resume
        self._request = None
        if before is None:
            self._start()
            return
        assert key is not None
        self._log.pop()  # taken again below, now that chance has spoken
        self._rec = None
        self._c = self._g.m["copy"](before)
        self._c.tape = tuple(self._tape)
        self._take(key)

    def _start(self) -> None:
        c0 = self._c
        m = self._g.m
        self._resume = (None, None)
        self._rec = None
        c = m["make_core"](c0.seed, c0.deck, c0.table, tuple(self._tape) if self._explicit else None, None, None,
                           False)
        self._c = c
        try:
            m["begin"](c, self._dealer)
            c.steps = 0
            m["advance"](c)
        except ChanceNeeded as need:
            self._request = need.request
        except BaseException as err:
            raise self._error(err) from None

    def _begin_args(self) -> tuple[tuple[int, ...] | None, int | None]:
        return (tuple(self._tape) if self._explicit else None), self._dealer

    def _before_replay(self, c: Any) -> None:
        if self._explicit:
            c.tape = tuple(self._tape)

    def _chance_actions(self) -> tuple[Action, ...]:
        req = self._request
        assert req is not None
        if req.kind == "dealer":
            return tuple(Action("chance", ("seat", str(o))) for o in req.remaining())
        codes = self._g.tables.codes
        return tuple(Action("chance", (codes[o],), o) for o in req.remaining())

    # ------------------------------------------------------------ views
    @property
    def current_player(self) -> int | None:
        if self._request is not None:
            return CHANCE_PLAYER
        return super().current_player  # type: ignore[safe-super]

    @property
    def phase(self) -> str:
        if self._request is not None:
            return "chance"
        return super().phase  # type: ignore[safe-super]

    @property
    def decision(self) -> Decision | None:
        """As :attr:`State.decision`; kind 'chance' (seat -1) at a chance node."""
        if self._request is not None:
            return Decision("chance", CHANCE_PLAYER, "chance")
        sel = self._pending()
        if sel is not None:
            return Decision("select", self._c.actor, sel.verb, sel.lo, sel.hi)
        return super().decision  # type: ignore[safe-super]

    # ------------------------------------------------------------ one-card selections
    def _pending(self) -> Selection | None:
        """One-card mode: the pending selection (all its subsets, as the default mode offers them)."""
        if not self._one_card or self._request is not None or self._c.terminal:
            return None
        return super().legal_actions().selection  # type: ignore[safe-super]

    def legal_actions(self) -> LegalActions:
        modal = self._modal
        if modal is not None:
            return modal
        if self._request is not None:
            modal = LegalActions(self._chance_actions())
        elif (sel := self._pending()) is not None:
            codes = self._g.tables.codes
            acts = [Action(sel.verb, (codes[c],), c) for c in self._free(sel)] if len(self._picks) < sel.hi else []
            if len(self._picks) >= sel.lo:
                acts.append(DONE)
            # Table mode: the irregularities of the selection's decision, at every step of it
            # (recording one withdraws the picks: see the module docstring).
            acts.extend(a for a in super().legal_actions().explicit if a.verb == "irregular")  # type: ignore[safe-super]
            modal = LegalActions(tuple(acts))
        else:
            return super().legal_actions()  # type: ignore[safe-super]
        self._modal = modal
        return modal

    def _canonical(self, action: Action | str) -> str:
        if self._request is not None:
            text = action.text if isinstance(action, Action) else str(action)
            words = text.split()
            if not words:
                raise InvalidActionError("empty action")
            if len(words) == 2 and words[0].lower() == "chance":
                try:
                    words[1] = self._g.tables.codes[self._g.tables.parse_card(words[1])]
                except InvalidActionError:
                    pass
            return " ".join(w if i else w.lower() for i, w in enumerate(words))
        return super()._canonical(action)  # type: ignore[safe-super]

    def why_illegal(self, action: Action | str) -> str:
        if self._request is not None:
            if self.is_legal(action):
                return ""
            text = action.text if isinstance(action, Action) else str(action)
            if text.split()[:1] and text.split()[0].lower() == "irregular":
                return (f"this is a chance node ({self._request.kind}): an irregularity is not recorded at a chance "
                        "node, but at the next decision or referee's pause")
            return f"this is a chance node ({self._request.kind}): only a chance outcome can be applied"
        sel = self._pending()
        if sel is not None:
            try:
                text = self._canonical(action)
            except InvalidActionError as err:
                return str(err)
            if text in self.legal_actions():
                return ""
            words = text.split()
            if words == ["done"]:
                return f"at least {sel.lo} card(s) must be chosen first"
            if words[0] == sel.verb and len(words) > 2:
                return f"one-card mode: {sel.verb} one card at a time, then 'done'"
            if words[0] == sel.verb and len(self._picks) >= sel.hi:
                return f"no more than {sel.hi} card(s) may be chosen"
            if words[0] == sel.verb:
                return f"{' '.join(words[1:])} is not a card seat {self.current_player} may {sel.verb} now"
        return super().why_illegal(action)  # type: ignore[safe-super]

    def _take_legal(self, action: Action) -> None:
        """Apply a legal action: a chance outcome, a pick, or a move of the game."""
        if self._request is not None:
            if action.args[0] == "seat":
                self.apply_chance_outcome(int(action.args[1]))
            else:
                self.apply_chance_outcome(self._g.tables.index[action.args[0]])
            return
        sel = self._pending()
        if sel is None:
            self._run(action)
            return
        if action.verb == "irregular":
            saved, self._picks = self._picks, ()  # withdrawn: the remedy applies before the selection
            try:
                self._run(action)
            except GameError:
                self._picks = saved
                raise
            return
        self._modal = None
        done = action.verb == "done" and not action.args
        picks = self._picks if done else self._picks + (self._picked(sel, action),)
        if not done and len(picks) < sel.hi:
            self._picks = picks
            return
        codes = self._g.tables.codes
        chosen = sorted(picks, key=sel.cards.index)
        whole = Action(sel.verb, tuple(codes[c] for c in chosen) if chosen else ("none",))
        saved, self._picks = self._picks, ()
        try:
            self._run(whole)
        except GameError:
            self._picks = saved
            raise

    def _free(self, sel: Selection) -> list[int]:
        """The cards of the pending selection that may be picked next, in listed order: those
        not picked yet, with copies (equal cards) only the first free card of each face."""
        picked = set(self._picks)
        free = [c for c in sel.cards if c not in picked]
        if self._g.copies == 1:
            return free
        codes, seen = self._g.tables.codes, set()
        out = []
        for c in free:
            if codes[c] not in seen:
                seen.add(codes[c])
                out.append(c)
        return out

    def _picked(self, sel: Selection, action: Action) -> int:
        """The card a legal pick takes: the action's own card, else (copies) the first free
        card of its face."""
        if self._g.copies == 1:
            return int(self._g.tables.index[action.args[0]])
        return next(c for c in self._free(sel) if self._g.tables.codes[c] == action.args[0])

    def _run(self, action: Action) -> None:
        """Apply a move of the game; stop at a chance node when chance is needed.

        Raises:
            GameError: a rule failed at run time; the state is as it was.
        """
        self._take(self._key(action))

    def _take(self, key: int) -> None:
        """As :meth:`State._take`, but a chance node may interrupt the action: the state
        then waits there (its core as chance found it), and the action is taken again once
        chance has spoken.

        Raises:
            GameError: a rule failed at run time; the state is as it was.
        """
        m = self._g.m
        before = m["copy"](self._c)
        self._legal = self._modal = None
        self._drawn = None
        try:
            apply_key(self, self._c, key)
        except ChanceNeeded as need:
            self._request = need.request
            self._resume = (before, key)
        except BaseException as err:
            if (key & 0xFFFF) == IRREGULAR_DP:
                self._irr.pop()
            self._c = before
            self._rec = None
            raise self._error(err) from None
        self._log.append(key)

    # ------------------------------------------------------------ copies, JSON, observations
    def _copy_modes(self, new: Any) -> None:
        new._one_card = self._one_card
        new._picks = self._picks
        new._explicit = self._explicit
        new._tape = list(self._tape)
        new._request = self._request
        new._resume = self._resume  # the saved core is never changed in place
        new._dealer = self._dealer
        new._modal = self._modal

    def _clone_extra(self, new: Self) -> None:
        self._copy_modes(new)

    def snapshot(self) -> ModalSnapshot:
        base = super().snapshot()  # type: ignore[safe-super]
        snap = ModalSnapshot(base.game, base.core, base.log, base.irregular)
        snap.modal = (self._picks, tuple(self._tape), self._request, self._resume)
        return snap

    def restore(self, snapshot: Snapshot) -> None:
        """Go back to a :meth:`snapshot` of this game.

        Raises:
            ValueError: the snapshot was taken from another game, or from a state not in these modes.
        """
        if not isinstance(snapshot, ModalSnapshot):
            raise ValueError("a snapshot of a state in other modes")
        super().restore(snapshot)  # type: ignore[safe-super]
        picks, tape, self._request, self._resume = snapshot.modal
        self._picks, self._tape, self._modal = picks, list(tape), None

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()  # type: ignore[safe-super]
        if self._one_card:
            data["selections"] = "one_card"
            if self._picks:
                data["picks"] = self.picks
        if self._explicit:
            data["chance"] = "explicit"
            data["dealer"] = self._dealer  # None: the first dealer is among the outcomes (or the rule file's)
            data["outcomes"] = list(self._tape)
        return data

    def _restore(self, actions: Sequence[str], data: Mapping[str, Any]) -> None:
        """Replay a JSON state's actions, feeding its chance outcomes where chance is needed.

        Raises:
            RecordError: an action, a pick or an outcome does not fit.
        """
        outcomes = list(data.get("outcomes") or [])
        if not all(isinstance(o, int) and not isinstance(o, bool) for o in outcomes):
            raise RecordError("'outcomes' must be a list of integers")
        feed = iter(outcomes)

        def settle() -> None:
            while self.is_chance_node():
                o = next(feed, None)
                if o is None:
                    return
                self.apply_chance_outcome(o)

        try:
            for i, text in enumerate(actions):
                settle()
                try:
                    self._replay_whole(text)
                except GameError as err:
                    raise RecordError(f"action {i + 1} ({text!r}) does not fit the rules: {err}") from None
            settle()
            if next(feed, None) is not None:
                raise RecordError("more chance outcomes than the game used")
            picks = data.get("picks") or []
            sel = self._pending()
            if picks and sel is None:
                raise RecordError("'picks' given, but no selection is pending")
            for code in picks:
                assert sel is not None
                self.apply(f"{sel.verb} {code}")
        except RecordError:
            raise
        except GameError as err:
            raise RecordError(f"state cannot be rebuilt: {err}") from None

    def _replay_whole(self, text: str) -> None:
        """Apply a whole action as the history stores it (in one-card mode a selection goes card by card)."""
        sel = self._pending()
        words = text.split()
        if sel is None or not words or words[0].lower() != sel.verb:
            self.apply(text)
            return
        cards = [] if words[1:] == ["none"] else words[1:]
        for code in cards:
            self.apply(f"{words[0]} {code}")
        if self._picks or not cards:
            self.apply(DONE)

    def observation(self, player: int | None) -> dict[str, Any]:
        """As :meth:`State.observation`; the picking seat also sees its picks (others their number)."""
        obs = super().observation(player)  # type: ignore[safe-super]
        if self._picks and (player is None or player == self.current_player):
            obs["picks"] = self.picks
        elif self._picks:
            obs["picks_count"] = len(self._picks)
        return obs
