"""The PettingZoo adapter: pettingzoo.test.api_test for every shipped rule file (extra 'pettingzoo')."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest

pettingzoo_test = pytest.importorskip("pettingzoo.test")

import tricklang  # noqa: E402
from interpreter import IllegalActionError  # noqa: E402
from interpreter.embedding import pettingzoo as pz  # noqa: E402
from interpreter.embedding.pettingzoo import TrickEnv  # noqa: E402

np = pytest.importorskip("numpy")

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


# ---------------------------------------------------------------- PettingZoo's conventions

WARNINGS = [
    "ignore:Observation space for each agent probably should be:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
    "ignore:Action mask numpy array is all zeros:UserWarning",
]


def _filtered(test: Any) -> Any:
    for w in WARNINGS:
        test = pytest.mark.filterwarnings(w)(test)
    return test


@_filtered
@pytest.mark.parametrize("game", ["ecarte", "cinch"])
def test_the_factories_pass_pettingzoos_own_tests(game: str) -> None:
    pettingzoo_test.api_test(pz.env(game), num_cycles=300)
    pettingzoo_test.api_test(pz.raw_env(game, render_mode="ansi"), num_cycles=300)
    pettingzoo_test.render_test(lambda render_mode=None: pz.env(game, render_mode=render_mode))
    pettingzoo_test.seed_test(lambda: pz.env(game), num_cycles=300)


def _actor(env: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    agent = env.agent_selection
    obs, _, _, _, info = env.last()
    return agent, obs, info


def test_infos_carry_the_deal_and_the_legal_actions_texts() -> None:
    env = pz.raw_env("ecarte", scope="match", options={"target": 2})
    env.reset(seed=4)
    deals = set()
    for _ in env.agent_iter(max_iter=5000):
        agent, obs, info = _actor(env)
        deals.add(info["deal"])
        others = [env.infos[a] for a in env.agents if a != agent]
        if env.terminations[agent]:
            env.step(None)
            continue
        ids = [i for i, ok in enumerate(obs["action_mask"]) if ok]
        assert sorted(info["legal_actions"]) == ids and all(o["legal_actions"] == {} for o in others)
        assert info["legal_actions"][ids[0]] == env.game.action_from_id(ids[0]).text
        env.step(ids[-1])
    assert deals == set(range(1, max(deals) + 1)) and max(deals) > 1


def test_a_finished_deal_keeps_its_number() -> None:
    """One deal: when it is over every agent's info names deal 1 (not the next one the
    match has begun)."""
    env = pz.raw_env("ecarte")
    env.reset(seed=2)
    for agent in env.agent_iter(max_iter=5000):
        _, obs, info = _actor(env)
        if env.terminations[agent]:
            break
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert env.game.deal_number == 2 and all(env.terminations.values())
    assert [i["deal"] for i in env.infos.values()] == [1, 1]


def _hidden_cards(env: Any, seat: int) -> set[str]:
    return {c for p in range(env.game.player_count) if p != seat for c in env.game.hand(p)}


def test_ansi_renders_the_table_the_seat_to_act_sees_and_no_other_hand() -> None:
    env = pz.raw_env("cinch", render_mode="ansi")
    env.reset(seed=9)
    for step in range(60):
        if all(env.terminations.values()):
            break
        text = env.render()
        seat = env.game.current_player
        assert isinstance(text, str) and f"seen by seat {seat}" in text and "score" in text
        assert " ".join(env.game.hand(seat)) in text
        assert not _hidden_cards(env, seat) & set(text.replace(",", " ").split()), (step, text)
        agent, obs, _ = _actor(env)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))


def test_human_mode_prints_the_table_after_reset_and_every_step(capsys: pytest.CaptureFixture[str]) -> None:
    env = pz.env("ecarte", render_mode="human")
    env.reset(seed=1)
    shown = capsys.readouterr().out
    assert "Écarté · deal 1" in shown and "legal: stand, propose" in shown
    _, obs, _ = _actor(env)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "seen by seat" in capsys.readouterr().out and env.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        pz.raw_env("ecarte", render_mode="rgb_array")


@pytest.mark.filterwarnings("ignore:.*illegal move.*:UserWarning")
def test_the_wrapped_env_ends_the_episode_on_an_illegal_action_and_the_raw_one_raises() -> None:
    wrapped = pz.env("ecarte")
    wrapped.reset(seed=42)
    offender = wrapped.agent_selection
    wrapped.step(0)  # not legal: the elder may stand or propose
    assert wrapped.rewards[offender] == -1 and all(wrapped.terminations.values())
    raw = pz.raw_env("ecarte")
    raw.reset(seed=42)
    with pytest.raises(IllegalActionError):
        raw.step(0)


def test_environments_pickle() -> None:
    env = pz.raw_env("ecarte", scope="match", options={"target": 3}, render_mode="ansi")
    again = pickle.loads(pickle.dumps(env))
    assert (again.scope, again.ruleset.options["target"], again.render_mode) == ("match", 3, "ansi")
    again.reset(seed=5)
    env.reset(seed=5)
    assert again.render() == env.render()
