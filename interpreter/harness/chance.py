"""The harness at explicit chance nodes (``chance='explicit'``): each node's outcomes
are checked, a wrong outcome and a decision's id are tried and must be refused with the
state unchanged, and one outcome is drawn from a random generator of the harness's seed
of its own, so that a replay of the same actions meets the same outcomes."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol

from ..errors import IllegalActionError

if TYPE_CHECKING:
    from ..state.state import State


class Run(Protocol):
    """What the chance checks need of a checked run: whether it checks deeply now, and
    where a violation goes."""

    deep: bool

    def fail(self, code: str, message: str) -> None: ...


def resolve_chance(run: Run, state: State, rng: random.Random) -> int:
    """Draw outcomes until a seat must decide (or the match is over); returns how many.

    Violations are reported through ``run.fail`` (code ``chance``).
    """
    taken = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        ids = [o for o, _ in outcomes]
        if not ids:
            run.fail("chance", "a chance node with no outcome")
            return taken
        if ids != sorted(set(ids)) or abs(sum(p for _, p in outcomes) - 1) > 1e-9:
            run.fail("chance", f"chance outcomes {outcomes[:6]!r}... are not distinct increasing ids whose "
                     "probabilities sum to 1")
        if state.current_player != -1 or state.legal_action_ids():
            run.fail("chance", f"at a chance node current_player is {state.current_player!r} and "
                     f"legal_action_ids() is {state.legal_action_ids()[:6]!r}, not -1 and []")
        if run.deep:
            _refused(run, state, max(ids) + 1)
        state.apply_chance_outcome(ids[rng.randrange(len(ids))])
        taken += 1
    return taken


def _refused(run: Run, state: State, impossible: int) -> None:
    """An outcome that cannot happen and a decision's id are refused, the state unchanged."""
    before = state.to_json()
    for what in (f"chance outcome {impossible}", "action id 0"):
        try:
            if what == "action id 0":
                state.apply_id(0)
            else:
                state.apply_chance_outcome(impossible)
        except IllegalActionError:
            pass
        else:
            run.fail("chance", f"{what} was accepted at a chance node")
        if state.to_json() != before:
            run.fail("chance", f"refusing {what} at a chance node changed the state")
