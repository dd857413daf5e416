"""The PettingZoo adapter: pettingzoo.test.api_test for every shipped rule file (extra 'pettingzoo')."""

from __future__ import annotations

from pathlib import Path

import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

import tricklang  # noqa: E402
from interpreter import IllegalActionError  # noqa: E402
from interpreter.embedding.pettingzoo import TrickEnv  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])


# api_test's advice for simple environments, which it waives by name for PettingZoo's own
# classic card and board games: a dict of observation and action mask, and an all-zero
# mask for the seats not to act, are what a turn-based game with action masks needs.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.filterwarnings("ignore:Action mask numpy array is all zeros:UserWarning")
@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_api_test_passes_for_every_shipped_rule_file(path: Path) -> None:
    pettingzoo_test.api_test(TrickEnv(path), num_cycles=300)


def test_a_whole_match_rewards_the_winners() -> None:
    env = TrickEnv(ROOT / "rules" / "ecarte.trick", scope="match", options={"target": 2})
    env.reset(seed=5)
    total = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=5000):
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        legal = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        env.step(None if terminated or truncated else legal[0])
    assert sorted(total.values()) == [-1.0, 1.0]


def test_bad_input() -> None:
    with pytest.raises(tricklang.RulesError):
        TrickEnv(ROOT / "tests" / "invalid" / "type-error.trick")
    with pytest.raises(tricklang.OptionError, match="frobnicate"):
        TrickEnv(ROOT / "rules" / "ecarte.trick", options={"frobnicate": 1})
    with pytest.raises(ValueError, match="'hand'"):
        TrickEnv(ROOT / "rules" / "ecarte.trick", scope="hand")
    env = TrickEnv(ROOT / "rules" / "ecarte.trick")
    env.reset(seed=42)
    before = env.game.to_json()
    with pytest.raises(IllegalActionError, match="id 0"):
        env.step(0)
    assert env.game.to_json() == before and env.agent_selection == "seat_1"
