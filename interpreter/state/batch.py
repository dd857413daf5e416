"""Many random matches played inside the generated module (:meth:`Game.random_matches
<interpreter.state.state.Game.random_matches>`): seeded matches, uniformly random legal
actions, nothing logged; natively, no Python in the loop."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..codegen.module import MAX_CHOICES
from ..errors import ArgumentError, GameError, GameLimitError, RuleRuntimeError
from ..runtime.faults import Fault
from .deals import MAX_SEED
from .failures import RULE_FAILURES, worded

if TYPE_CHECKING:
    from .compiled import Compiled


@dataclass(frozen=True)
class RandomMatches:
    """What :meth:`Game.random_matches` played: each match's final scores (by side, in
    seed order) and the actions taken in all."""

    scores: list[tuple[int, ...]]
    actions: int


def random_matches(game: Compiled, count: int, seed: int, rng: random.Random | None,
                   first_deal: bool) -> RandomMatches:
    """See :meth:`Game.random_matches <interpreter.state.state.Game.random_matches>`.

    Raises:
        ArgumentError, GameLimitError, RuleRuntimeError: as it says.
    """
    if type(count) is not int or not 0 <= count <= 10**9:
        raise ArgumentError(f"count must be an integer from 0 to 1000000000, not {count!r}")
    if type(seed) is not int or not -MAX_SEED <= seed <= MAX_SEED - count:
        raise ArgumentError(f"seed must be an integer of at most 18 digits (with seed + count too), not {seed!r}")
    rng = rng if rng is not None else random.Random()
    scores: list[tuple[int, ...]] = []
    actions = 0
    run = game.m["random_matches"]
    while len(scores) < count:
        done = len(scores)
        try:
            actions += run(seed + done, count - done, rng, scores, first_deal)
        except (Fault, GameError, *RULE_FAILURES) as err:
            failed = seed + len(scores)
            said = worded(game, err)
            kind = GameLimitError if isinstance(said, GameLimitError) else RuleRuntimeError
            raise kind(f"the match of seed {failed}: {said}") from None
        if len(scores) == done:  # (stopped at a selection with more ways to choose than allowed)
            raise GameLimitError(f"the match of seed {seed + done} offers more than {MAX_CHOICES} ways to "
                                 "choose cards at once")
    return RandomMatches(scores, actions)
