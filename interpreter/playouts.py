"""Random playouts (a search player's rollouts), mixed into :class:`~interpreter.State`:
:meth:`Playouts.playout` plays on with uniformly random legal actions: the cards through
generated trick play's run (:mod:`interpreter.codegen_runs`), the generated decisions'
actions drawn and taken without the public step's two calls, the rest by the step."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from .actions import Action
from .core import Core
from .snapshot import CHECKPOINT_EVERY

if TYPE_CHECKING:
    from .state import State

Run = Callable[[Core, random.Random, int, Callable[[Action], None], Callable[[int], None]], int]


class Playouts:
    """:meth:`playout` of :class:`~interpreter.State` (mixed into it)."""

    __slots__ = ()

    def playout(self, rng: random.Random, max_actions: int | None = None, *, deal: bool = False) -> int:
        """Play on with uniformly random legal actions until the match is over (with
        ``deal``, until the deal in progress is: the next one begun, a redeal too), or
        ``max_actions`` are taken; returns how many were taken. The same draws, actions
        and state as ``while not s.is_terminal(): s.apply(s.sample_action(rng))``, with
        less work a card played (a search player's rollout).

        Raises:
            GameLimitError, RuleRuntimeError: as :meth:`~interpreter.State.apply` (the
                actions taken before the failing one stay taken).
            TypeError: ``rng`` has no ``randrange`` (it is not a random generator); no
                action is taken.
        """
        if not callable(getattr(rng, "randrange", None)):  # (else reported, inside a run, as the rules failing)
            raise TypeError(f"playout() takes a random.Random (or another generator with randrange), "
                            f"not {type(rng).__name__}")
        state = cast("State", self)
        taken, instructions, core = 0, state.program.instructions, state.core
        deal_no, log_action, log_actor = core.deal_no, state.actions.append, state.actors.append
        limit = 1 << 62 if max_actions is None else max_actions
        generated = state._PLAIN and not core.table  # (a playout changes neither)
        while not core.terminal and taken < limit and (not deal or core.deal_no == deal_no):
            if generated and state._legal is None:
                ins = instructions[core.pc]
                run = ins.fast_run
                if run is not None:  # cards, as many as the run can play
                    taken += state._run_cards(run, rng, limit - taken)
                    continue
                draw, step = ins.fast_draw, ins.take_step
                if draw is not None:  # a generated decision: as the step, without its calls
                    action = draw(core, rng)
                    if action is not None and step is not None:  # _take_drawn's lines, written here
                        n = len(state.actors)
                        if not n % CHECKPOINT_EVERY and n:
                            state._checkpoint_at(n)
                        try:
                            actor = step(core, action)
                        except Exception as err:
                            state._rolled_back(err)
                        log_action(action)
                        log_actor(actor)
                        taken += 1
                        continue
                    if action is not None:  # (no generated step to the next decision)
                        state._take_drawn(action)
                        taken += 1
                        continue
            state.apply(state.sample_action(rng))
            taken += 1
            core = state.core
        return taken

    def _run_cards(self, run: Run, rng: random.Random, most: int) -> int:
        """Play cards (and declarations) with generated trick play's run
        (:mod:`interpreter.codegen_runs`), at most ``most`` and never past the next
        checkpoint, and the automatic steps after them if trick play is over; returns how
        many actions were taken (at least one: else the step takes one).

        Raises:
            GameLimitError, RuleRuntimeError: as :meth:`~interpreter.State.apply` (the cards
                played before the failing one stay played).
        """
        state = cast("State", self)
        core = state.core
        n = len(state.actors)
        if not n % CHECKPOINT_EVERY and n:
            state._checkpoint_at(n)
        played = 0
        try:  # (the run goes on to the next decision itself once trick play is over)
            played = run(core, rng, min(most, CHECKPOINT_EVERY - n % CHECKPOINT_EVERY), state.actions.append,
                         state.actors.append)
        except Exception as err:
            state._rolled_back(err)
        if not played:  # nothing the run could play (a window open, an empty hand...): the step
            state.apply(state.sample_action(rng))
            return 1
        return played
