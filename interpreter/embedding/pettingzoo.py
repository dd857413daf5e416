"""Any rule file as a PettingZoo AEC environment (``pip install 'tricklang[pettingzoo]'``).

>>> from interpreter.embedding.pettingzoo import TrickEnv
>>> env = TrickEnv("rules/ecarte.trick")
>>> env.reset(seed=42)
>>> env.agent_selection, int(env.action_space("seat_1").n)
('seat_1', 226)
>>> obs, reward, terminated, truncated, info = env.last()
>>> [i for i, ok in enumerate(obs["action_mask"]) if ok]     # stand, propose
[32, 33]

Agents are ``seat_0`` ... ``seat_N-1``. Actions are the rule file's one-card action
space (``Discrete(num_distinct_actions)``, see :mod:`interpreter.embedding.spaces`); an
observation is a dict of ``observation`` (the seat's observation tensor, see
:mod:`interpreter.embedding.tensors`) and ``action_mask`` (1 for each legal action of the seat
to act, all 0 for the others). Chance is automatic and seeded by ``reset(seed=...)``.

``scope='deal'`` (default) ends the episode with the first deal, each seat rewarded
with its side's points (negated when the lowest score wins); ``scope='match'`` plays the
whole match, +1 for the winners and ``-1/(sides - 1)`` for the others.

Bad input: a broken rule file raises ``tricklang.RulesError``, an unknown option or bad
value ``tricklang.OptionError``, an unknown scope ``ValueError``; an illegal action
raises ``interpreter.IllegalActionError`` naming it, and changes nothing.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("the PettingZoo adapter needs the extra: pip install 'tricklang[pettingzoo]'") from err

from tricklang import Ruleset

from ..state.state import State, new_game
from . import as_ruleset
from .spaces import action_space
from .tensors import tensor_layout

SCOPES = ("deal", "match")


class TrickEnv(AECEnv):  # type: ignore[misc]  # pettingzoo's base class is not typed for mypy --strict
    """A rule file as an AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "tricklang_v0", "is_parallelizable": False}

    def __init__(self, rules: Ruleset | str | Path, *, scope: str = "deal", options: dict[str, Any] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if scope not in SCOPES:
            raise ValueError(f"scope must be 'deal' or 'match', not {scope!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
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
        if self.render_mode != "ansi":
            return None
        obs = self.game.observation(None)
        return f"deal {obs['deal']}, scores {obs['scores']}, trump {obs['trump']}, {obs['phase']}: seat {obs['current_player']}"

    def close(self) -> None:
        pass
