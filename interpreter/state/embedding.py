"""The embedding interface of a game state: selection and chance modes, action ids,
observation tensors (mixed into :class:`~interpreter.State`).

The methods here speak the terms of game frameworks (OpenSpiel, PettingZoo): a fixed
action space of ids (:mod:`interpreter.state.spaces`), flat tensors (:mod:`interpreter.state.tensors`)
and chance nodes (:mod:`interpreter.runtime.chance`). A plain state has all-cards selections and
automatic chance; :class:`~interpreter.state.modes.ModalState` overrides the mode methods.
"""

from __future__ import annotations

from itertools import combinations
from math import comb
from typing import TYPE_CHECKING, Any, ClassVar, cast

from ..codegen.module import MAX_CHOICES
from ..errors import IllegalActionError
from .actions import Action
from .replay import key_of
from .spaces import code_ids

if TYPE_CHECKING:
    from .protocol import StateLike as State


def _subset_ids(cards: int, lo: int, hi: int, start: int) -> list[int] | None:
    """``start + mask`` for the masks of the subsets of ``lo`` to ``hi`` of the cards of mask
    ``cards``, increasing; None when they are more than the selection's bound (the general
    path refuses them). The subsets of one size are listed by their highest card, then the
    next... (so in increasing order: no sort unless there are several sizes)."""
    bits = [1 << k for k in range(cards.bit_length()) if cards >> k & 1]
    sizes = range(max(lo, 0), min(hi, len(bits)) + 1)
    if sum(comb(len(bits), k) for k in sizes) > MAX_CHOICES:
        return None
    out: list[int] = []
    for k in sizes:  # (the usual sizes unpacked: no call a subset)
        if k == 0:
            out.append(start)
        elif k == 1:
            out.extend([start + a for a in bits])
        elif k == 2:
            out.extend([b + a for j in range(1, len(bits)) for b in (start + bits[j],) for a in bits[:j]])
        elif k == 3:
            out.extend([d + b + a for j in range(2, len(bits)) for d in (start + bits[j],)
                        for i in range(1, j) for b in (bits[i],) for a in bits[:i]])
        else:
            out.extend(sorted([start + sum(chosen) for chosen in combinations(bits, k)]))
    if len(sizes) > 1:
        out.sort()
    return out


class Embedding:
    """Modes, action ids and tensors of :class:`~interpreter.State` (mixed into it)."""

    __slots__ = ()
    _c: Any

    if TYPE_CHECKING:  # defined by State
        _g: Any
        @property
        def current_player(self) -> int | None: ...
        def _canonical(self, action: Action | str) -> str: ...
        _PLAIN: ClassVar[bool]
        _codes: tuple[int, list[int]] | None
        def _take_code(self, dp: int, code: int) -> None: ...
        def _take(self, key: int) -> None: ...

    @property
    def selections(self) -> str:
        """'all' (a multi-card selection is one action) or 'one_card' (see :mod:`interpreter.state.modes`)."""
        return "all"

    @property
    def chance(self) -> str:
        """'automatic' (seeded shuffles) or 'explicit' (chance nodes; see :mod:`interpreter.runtime.chance`)."""
        return "automatic"

    def is_chance_node(self) -> bool:
        """True when chance (a shuffle, a random move) must act next; only with ``chance='explicit'``."""
        return False

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome id, probability) at a chance node, by increasing id; [] at a decision."""
        return []

    def apply_chance_outcome(self, outcome: int) -> None:
        """Apply a chance outcome at a chance node.

        Raises:
            IllegalActionError: this state is not at a chance node (it never is with
                automatic chance), or the outcome is not possible; the state is unchanged.
        """
        reason = "the match is over" if self._c.terminal else f"seat {self.current_player} must decide: this is not a chance node"
        raise IllegalActionError(f"chance outcome {outcome!r}", reason)

    @property
    def num_distinct_actions(self) -> int:
        """The size of this game's action space (see :mod:`interpreter.state.spaces`)."""
        from .spaces import action_space

        return action_space(cast("State", self)).size

    def _regular_now(self) -> bool:
        """Whether a modal state's decision now is a plain one (no chance, no selection card
        by card pending): its ids are then the codes' ids (a plain state's always are)."""
        return False

    def legal_action_ids(self) -> list[int]:
        """The ids of the legal actions, increasing (see :mod:`interpreter.state.spaces`); empty at
        a chance node (the outcomes are :meth:`chance_outcomes`) and once the match is over.

        Raises:
            GameLimitError: a legal bid lies outside the space (its bounds were not constants).
        """
        c = self._c
        if (self._PLAIN or self._regular_now()) and not (c.terminal or c.table):  # (the codes' ids: see spaces.CodeIds)
            g = self._g
            dp = c.dp
            table = g.code_ids or code_ids(cast("State", self))
            by_code = table.by_dp[dp]
            if by_code is not None:
                native = table.native_ids
                ids: list[int] | None
                try:
                    codes = g.legal_fns[dp](c)
                    if native is not None:
                        ids = native(codes, by_code)
                    else:
                        ids = [by_code[k] for k in codes]
                        if -1 in ids:
                            ids = None
                        else:
                            ids.sort()
                except Exception:  # noqa: BLE001 - the general path raises it, typed
                    ids = None
                if ids is not None:
                    if self._PLAIN:
                        self._codes = (dp, codes)  # type: ignore[misc]  # (a slot of State: apply_id's check)
                    return ids
            elif table.bids[dp]:
                found = table.ids(dp, g.legal_fns[dp](c))
                if found is not None:
                    found.sort()
                    return found
            elif table.selects[dp] and self._PLAIN:  # a whole selection's id: the cards block's start plus its mask
                fast = table.native_select  # (a native module's: Python's own below)
                found = fast(c, table.cards_start) if fast is not None else None
                if found is None:
                    found = _subset_ids(c.sel_cards, c.sel_lo, c.sel_hi, table.cards_start)
                if found is not None:
                    return found
        from .spaces import legal_ids

        return [i for i, _ in legal_ids(cast("State", self))]  # worked out once per decision

    def action_id(self, action: Action | str) -> int:
        """The id of an action (an :class:`Action` or its text).

        Raises:
            InvalidActionError: the action has no id in this game's space.
        """
        from .spaces import action_space

        if not isinstance(action, Action):
            text = self._canonical(action)
            words = text.split()
            action = Action(words[0], tuple(words[1:]))
        return action_space(cast("State", self)).id_of(action)

    def action_from_id(self, i: int) -> Action:
        """The action id ``i`` stands for now.

        Raises:
            InvalidActionError: ``i`` is out of range.
        """
        from .spaces import action_from_id

        return action_from_id(cast("State", self), i)

    def apply_id(self, i: int) -> None:
        """Apply the legal action with id ``i``.

        Raises:
            InvalidActionError: ``i`` is out of range.
            IllegalActionError: ``i`` is not legal now, or this is a chance node; the state is unchanged.
        """
        c = self._c
        plain = self._PLAIN
        if (plain or self._regular_now()) and type(i) is int and not (c.terminal or c.table):  # (the codes' ids)
            g = self._g
            dp = c.dp
            table = g.code_ids or code_ids(cast("State", self))
            by_id = table.codes_by_dp[dp]
            if by_id is not None:  # (table.code's common case, inlined)
                code = by_id.get(i)
            elif table.selects[dp] and plain:
                mask = i - table.cards_start
                if 0 <= mask and not mask & ~c.sel_cards and c.sel_lo <= mask.bit_count() <= c.sel_hi:
                    self._take(key_of(dp, mask))
                    return
                code = None
            else:
                code = table.code(dp, i)
            if code is not None:
                listed = self._codes if plain else None
                try:  # (the codes legal_action_ids just listed, or the module asked again)
                    ok = code in (listed[1] if listed is not None and listed[0] == dp else g.legal_fns[dp](c))
                except Exception:  # noqa: BLE001 - the general path raises it, typed
                    ok = False
                if ok:
                    self._take_code(dp, code)  # (a modal state's, automatic chance: no chance node can interrupt)
                    return
        from .spaces import apply_id

        apply_id(cast("State", self), i)

    @property
    def tensor_shape(self) -> tuple[int]:
        """The shape of :meth:`observation_tensor` (see :mod:`interpreter.state.tensors` for the layout)."""
        from .tensors import tensor_layout

        return tensor_layout(cast("State", self)).shape

    def observation_tensor(self, player: int) -> list[float]:
        """What a seat sees, as a flat list of floats derived from the zones' visibility.

        Raises:
            GameError: ``player`` is not a seat.
        """
        from .tensors import observation_tensor

        return observation_tensor(cast("State", self), player)

    def information_state_tensor(self, player: int) -> list[float]:
        """The observation tensor and what the seat has seen this deal (:mod:`interpreter.state.tensors`).

        Raises:
            GameError: ``player`` is not a seat.
        """
        from .tensors import information_state_tensor

        return information_state_tensor(cast("State", self), player)
