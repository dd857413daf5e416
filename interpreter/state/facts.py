"""The static facts of a game that game-AI tools ask before they play: the size of the
action space, the tensors' shapes, the least and most return and their sum, the longest
match. They are the same for every state of a rule file with its option values, so they
are the :class:`~interpreter.state.state.Game`'s; the state's methods of the same names
ask its game.

Returns (``scope``): ``"deal"``, a seat's side's points of one deal (negated when the
lowest score wins), bounded by what the rule file's scoring can award
(:func:`tricklang.payoffs.derive_payoffs`); ``"match"``, +1 to the winning side and
``-1 / (sides - 1)`` to the others.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tricklang import Ruleset
from tricklang.bounds import derive_bounds
from tricklang.payoffs import derive_payoffs

from ..errors import ArgumentError

SCOPES = ("deal", "match")
"""What a return is: one deal's points or the whole match's result."""


class Utilities(NamedTuple):
    """The least and most return a seat can get, and what the returns of all seats always
    add up to (``None``: no fixed sum, a general-sum game)."""

    low: float
    high: float
    total: float | None


def utilities(ruleset: Ruleset, sides: list[list[int]], lowest_wins: bool, scope: str) -> Utilities:
    """The returns' bounds and sum of a rule file with its options (see the module docstring).

    Raises:
        ArgumentError: ``scope`` is not 'deal' or 'match'.
    """
    if scope not in SCOPES:
        raise ArgumentError(f"scope must be 'deal' or 'match', not {scope!r}")
    sizes = {len(s) for s in sides}
    if scope == "match":  # (zero-sum when the sides are of one size)
        return Utilities(-1.0 / max(1, len(sides) - 1), 1.0, 0.0 if len(sizes) == 1 else None)
    pay = derive_payoffs(ruleset)
    low, high = (-pay.high, -pay.low) if lowest_wins else (pay.low, pay.high)
    if pay.total is None or len(sizes) != 1:
        return Utilities(float(low), float(high), None)
    total = pay.total * sizes.pop()
    return Utilities(float(low), float(high), float(-total if lowest_wins else total))


def max_length(ruleset: Ruleset, cards: int, scope: str) -> int:
    """The most actions (chance outcomes included) a deal or a match can take, in one-card
    selections with explicit chance (the modes of the OpenSpiel adapter): a bound, derived
    from the rule file's static bounds, at most ``2**31 - 1``.

    Raises:
        ArgumentError: ``scope`` is not 'deal' or 'match'.
    """
    if scope not in SCOPES:
        raise ArgumentError(f"scope must be 'deal' or 'match', not {scope!r}")
    bounds = derive_bounds(ruleset)
    per_deal = bounds.actions_per_deal
    length = (per_deal if per_deal is not None else 1000) * (cards + 1)
    if scope == "match":
        length *= bounds.deal_limit
    return min(length, 2**31 - 1)


class GameFacts:
    """The static facts of a :class:`~interpreter.state.state.Game` (a mixin: the game
    makes the states they are read from)."""

    __slots__ = ()

    ruleset: Ruleset
    sides: list[list[int]]
    lowest_wins: bool
    cards: list[str]

    def new_initial_state(self, *, seed: int | None = None, mode: str = "strict",
                          selections: str = "all") -> Any:
        """A state to read the facts from (the Game's: a :class:`~interpreter.state.state.State`)."""
        raise NotImplementedError  # pragma: no cover - the Game's

    def num_distinct_actions(self, *, selections: str = "all", mode: str = "strict") -> int:
        """The size of the integer action space of this game's states in these modes
        (:mod:`interpreter.state.spaces`; table mode may add the referee's ``continue``).

        >>> import tricklang
        >>> from interpreter.state.state import Game
        >>> Game.of(tricklang.load("ecarte")).num_distinct_actions(selections="one_card")
        226

        Raises:
            ArgumentError, RecordError: a mode that does not exist.
        """
        from .spaces import action_space

        return action_space(self.new_initial_state(seed=0, mode=mode, selections=selections)).size

    def tensor_shape(self) -> tuple[int]:
        """The shape of a state's observation tensor (:mod:`interpreter.state.tensors`)."""
        from .tensors import tensor_layout

        return tensor_layout(self.new_initial_state(seed=0)).shape

    def information_state_tensor_shape(self) -> tuple[int]:
        """The shape of a state's information-state tensor (:mod:`interpreter.state.tensors`)."""
        from .tensors import tensor_layout

        return tensor_layout(self.new_initial_state(seed=0)).information_state_shape

    def utilities(self, scope: str = "deal") -> Utilities:
        """The least and most return of a seat and their fixed sum, if any (zero-sum,
        constant-sum or general-sum), for one deal's points or a whole match
        (:mod:`interpreter.state.facts`).

        >>> import tricklang
        >>> from interpreter.state.state import Game
        >>> Game.of(tricklang.load("ecarte")).utilities("match")
        Utilities(low=-1.0, high=1.0, total=0.0)

        Raises:
            ArgumentError: ``scope`` is not 'deal' or 'match'.
        """
        return utilities(self.ruleset, self.sides, self.lowest_wins, scope)

    def max_game_length(self, scope: str = "deal") -> int:
        """The most actions a deal or a match can take in one-card selections with explicit
        chance, a bound from the rule file (:func:`interpreter.state.facts.max_length`).

        Raises:
            ArgumentError: ``scope`` is not 'deal' or 'match'.
        """
        return max_length(self.ruleset, len(self.cards), scope)
