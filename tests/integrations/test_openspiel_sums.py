"""Sums and utility bounds through the OpenSpiel adapter, and CFR on a constant-sum
rule file (extra 'openspiel')."""

from __future__ import annotations

from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

import tricklang  # noqa: E402
from interpreter.embedding.openspiel import load_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GAMES = Path(__file__).resolve().parent / "games"
UTILITY = pyspiel.GameType.Utility

CFR_ITERATIONS = 20
"""Tiny Stakes: OpenSpiel's Python CFR takes the NashConv from 0.67 (the uniform policy)
to under 0.05 within 20 iterations (measured 0.028 at 20, 0.008 at 60; a second or two)."""
NASH_CONV = 0.05


def test_cfr_on_a_constant_sum_rule_file_approaches_an_equilibrium() -> None:
    game = load_game(GAMES / "tiny-stakes.trick")
    assert game.get_type().utility == UTILITY.CONSTANT_SUM and game.utility_sum() == 2.0
    assert (game.min_utility(), game.max_utility()) == (-1.0, 3.0)
    solver = cfr.CFRSolver(game)
    uniform = exploitability.nash_conv(game, solver.average_policy())
    for _ in range(CFR_ITERATIONS):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    conv = exploitability.nash_conv(game, policy)
    assert conv < NASH_CONV < uniform
    # exploitability() refuses general-sum games; here it is NashConv / 2.
    assert exploitability.exploitability(game, policy) == pytest.approx(conv / 2)


@pytest.mark.parametrize(("rules", "utility", "bounds", "total"), [
    (GAMES / "tiny-trick.trick", UTILITY.CONSTANT_SUM, (0.0, 3.0), 3.0),
    (ROOT / "rules" / "ecarte.trick", UTILITY.GENERAL_SUM, (0.0, 4.0), None),
    (ROOT / "examples" / "euchre.trick", UTILITY.GENERAL_SUM, (0.0, 4.0), None),
])
def test_one_deal_declares_its_sum_and_tight_bounds(rules: Path, utility: object, bounds: tuple[float, float],
                                                    total: float | None) -> None:
    game = load_game(rules, scope="deal")
    assert game.get_type().utility == utility
    assert (game.min_utility(), game.max_utility()) == bounds
    if total is not None:
        assert game.utility_sum() == total
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)  # checks the sum on every run


def test_a_team_game_sums_over_the_seats_and_lowest_wins_negates() -> None:
    text = (GAMES / "tiny-trick.trick").read_text(encoding="utf-8")
    teams = (text.replace("players 2", "players 4 in partnerships 0 2, 1 3").replace("ranks A K Q", "ranks A K Q J 10 9")
             .replace("first dealer is 0", "first dealer is 0\n  lowest score wins"))
    assert teams.count("partnerships") == 1 and "lowest score wins" in teams
    game = load_game(tricklang.loads(teams, path="tiny-teams.trick"))
    # 3 tricks; each seat gets its side's points, negated as the lowest score wins.
    assert game.get_type().utility == UTILITY.CONSTANT_SUM and game.utility_sum() == -6.0
    assert (game.min_utility(), game.max_utility()) == (-3.0, 0.0)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
