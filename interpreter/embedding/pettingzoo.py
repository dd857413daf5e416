"""Any rule file as a PettingZoo AEC environment (``pip install 'tricklang[pettingzoo]'``).

>>> from interpreter.embedding import pettingzoo
>>> env = pettingzoo.env("ecarte", render_mode="ansi")
>>> env.reset(seed=42)
>>> env.agent_selection, int(env.action_space("seat_1").n)
('seat_1', 226)
>>> obs, reward, terminated, truncated, info = env.last()
>>> [i for i, ok in enumerate(obs["action_mask"]) if ok], info
([32, 33], {'deal': 1, 'legal_actions': {32: 'stand', 33: 'propose'}})

As PettingZoo's own environments do, :func:`env` builds the environment wrapped in
PettingZoo's checks (an illegal action ends the episode with -1 for the offender and
0 for the others, an action out of the space is refused, the calls must come in
order) and :class:`raw_env` (also called ``TrickEnv``) is the environment itself,
where an illegal action raises. Both take the rule file (a path, a bundled game's name
or a :class:`~tricklang.Ruleset`) and ``scope``, ``options``, ``render_mode``; they
pickle (as their arguments).

Agents are ``seat_0`` ... ``seat_N-1``. Actions are the rule file's one-card action
space (``Discrete(num_distinct_actions)``, see :mod:`interpreter.state.spaces`); an
observation is a dict of ``observation`` (the seat's observation tensor, see
:mod:`interpreter.state.tensors`) and ``action_mask`` (1 for each legal action of the seat
to act, all 0 for the others). Chance is automatic and seeded by ``reset(seed=...)``.

``scope='deal'`` (default) ends the episode with the first deal, each seat rewarded
with its side's points (negated when the lowest score wins); ``scope='match'`` plays the
whole match, +1 for the winners and ``-1/(sides - 1)`` for the others.

``infos[agent]`` holds ``deal`` (the number of the deal in play, or of the last one
when the episode is over) and ``legal_actions`` (the seat to act: each legal action's
id with its text, as in the rule file; the others: empty).

``render_mode="ansi"``: :meth:`render` returns the table as the seat to act sees it
(:func:`interpreter.embedding.table.table`: no card it may not see); ``"human"``:
the table is printed after ``reset`` and every ``step``.

Bad input: a broken rule file raises ``tricklang.RulesError``, an unknown option or bad
value ``tricklang.OptionError``, an unknown scope ``ValueError``; an illegal action
raises ``interpreter.IllegalActionError`` naming it, and changes nothing.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("the PettingZoo adapter needs the extra: pip install 'tricklang[pettingzoo]'") from err

from tricklang import Ruleset

from ..state.spaces import action_space
from ..state.state import State, new_game
from ..state.tensors import tensor_layout
from . import as_ruleset
from .table import table

SCOPES = ("deal", "match")


RENDER_MODES = ("ansi", "human")


def env(rules: Ruleset | str | Path, **kwargs: Any) -> AECEnv:
    """The environment of a rule file in PettingZoo's usual wrappers (see the module docstring).

    Raises:
        tricklang.RulesError, tricklang.OptionError, ValueError: as :class:`raw_env`.
    """
    wrapped = wrappers.TerminateIllegalWrapper(raw_env(rules, **kwargs), illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class TrickEnv(AECEnv, EzPickle):  # type: ignore[misc]  # pettingzoo's base class is not typed for mypy --strict
    """A rule file as an AEC environment (see the module docstring).

    Raises:
        tricklang.RulesError: the rule file is broken.
        tricklang.OptionError: an unknown option or a bad value.
        ValueError: an unknown scope or render mode.
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "tricklang_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, rules: Ruleset | str | Path, *, scope: str = "deal", options: dict[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        EzPickle.__init__(self, rules, scope=scope, options=options, render_mode=render_mode)
        super().__init__()
        if scope not in SCOPES:
            raise ValueError(f"scope must be 'deal' or 'match', not {scope!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}")
        self.ruleset = as_ruleset(rules).with_options(options)
        self.scope = scope
        self.render_mode = render_mode
        self.game: State = new_game(self.ruleset, seed=0, selections="one_card")
        n = self.game.player_count
        self.possible_agents = [f"seat_{p}" for p in range(n)]
        size = action_space(self.game).size
        obs_size = tensor_layout(self.game).observation_size
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(-np.inf, np.inf, (obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            })
            for a in self.possible_agents
        }
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game = new_game(self.ruleset, seed=seed if seed is not None else secrets.randbelow(2**31),
                             selections="one_card")
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select()
        self._inform()
        if self.render_mode == "human":
            self.render()

    def _over(self) -> bool:
        return self.game.is_terminal() or (self.scope == "deal" and self.game.deal_number > 1)

    def _select(self) -> None:
        player = self.game.current_player
        if player is not None and not self._over():
            self.agent_selection = self.possible_agents[player]
        elif self.agents:
            self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        p = self.possible_agents.index(agent)
        mask = np.zeros(self.action_spaces[agent].n, np.int8)
        if not self._over() and self.game.current_player == p:
            mask[self.game.legal_action_ids()] = 1
        return {"observation": np.asarray(self.game.observation_tensor(p), np.float32), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game.apply_id(int(action) if action is not None else -1)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self._over():
            for a, r in zip(self.possible_agents, self._returns(), strict=True):
                self.rewards[a] = r
                self.terminations[a] = True
        self._select()
        self._accumulate_rewards()
        self._inform()
        if self.render_mode == "human":
            self.render()

    def _inform(self) -> None:
        """Each agent's info: the deal's number and, for the seat to act, its legal actions' texts."""
        g = self.game
        deal = g.deal_number - 1 if self._over() and self.scope == "deal" and g.deal_number > 1 else g.deal_number
        to_act = None if self._over() else g.current_player
        for a in self.agents:
            legal: dict[int, str] = {}
            if to_act is not None and self.possible_agents[to_act] == a:
                legal = {i: g.action_from_id(i).text for i in g.legal_action_ids()}
            self.infos[a] = {"deal": deal, "legal_actions": legal}

    def _returns(self) -> list[float]:
        g = self.game
        n = g.player_count
        side_of = {p: s for s, members in enumerate(g.sides) for p in members}
        if self.scope == "deal":
            sign = -1.0 if g.game.lowest_wins else 1.0
            return [sign * g.scores[side_of[p]] for p in range(n)]
        outcome = g.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0] * n
        lose = -1.0 / max(1, len(g.sides) - 1)
        return [1.0 if p in outcome.winners else lose for p in range(n)]

    def render(self) -> str | None:
        """The table as the seat to act sees it (seat 0 when nobody is to act): returned
        in ``"ansi"`` mode, printed in ``"human"`` mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        player = self.game.current_player
        text = table(self.game, player if player is not None and player >= 0 else 0)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        pass


raw_env = TrickEnv
"""The environment without wrappers, named as PettingZoo's own environments name it."""
