"""The OpenSpiel adapter, checked with OpenSpiel's own machinery (extra 'openspiel')."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from interpreter import State  # noqa: E402
from interpreter.embedding.openspiel import load_game, register  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ECARTE = ROOT / "rules" / "ecarte.trick"
EUCHRE = ROOT / "examples" / "euchre.trick"


@pytest.mark.parametrize(("rules", "scope", "options"), [
    (ECARTE, "deal", {}), (ECARTE, "match", {"target": 2}), (EUCHRE, "deal", {}),
    (ROOT / "examples" / "hearts.trick", "deal", {}), (ROOT / "rules" / "cinch.trick", "deal", {}),
    (ROOT / "examples" / "klaverjas.trick", "deal", {}), (ROOT / "examples" / "klaverjas.trick", "deal", {"city": "amsterdam"}),
    (ROOT / "examples" / "skat.trick", "deal", {}), (ROOT / "examples" / "bridge.trick", "deal", {}),
    pytest.param(ROOT / "examples" / "doppelkopf.trick", "deal", {}, id="doppelkopf-deal"),
    pytest.param(ROOT / "examples" / "pinochle.trick", "deal", {}, id="pinochle-deal"),
    pytest.param(ROOT / "examples" / "french-tarot.trick", "deal", {}, id="french-tarot-deal"),
    pytest.param(ROOT / "examples" / "five-hundred.trick", "deal", {}, id="five-hundred-deal"),
])
def test_random_simulations_pass_openspiels_state_checks(rules: Path, scope: str, options: dict[str, int]) -> None:
    game = load_game(rules, scope=scope, **options)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_parameters_are_the_rule_files_options_and_scope() -> None:
    name = register(ECARTE)
    game = pyspiel.load_game(f"{name}(scope=match,target=3)")
    assert game.get_type().short_name == "tricklang_ecarte"
    assert game.get_parameters()["target"] == 3 and game.get_parameters()["scope"] == "match"
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == [465]  # with the zone surplus (E37)
    deal = load_game(EUCHRE)
    assert deal.num_players() == 4 and deal.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM


def _play_to_some_depth(game: object, steps: int) -> object:
    rng = np.random.RandomState(7)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_serialization_and_pickling_round_trip() -> None:
    game = load_game(EUCHRE, scope="match", target=3)
    state = _play_to_some_depth(game, 60)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(state2) == str(state) and state2.history() == state.history()
    assert state2.legal_actions() == state.legal_actions()
    for p in range(4):
        assert state2.information_state_string(p) == state.information_state_string(p)
        assert state2.observation_tensor(p) == state.observation_tensor(p)
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state)


def _play_with_bots(game: object, bots: list[object], seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))  # type: ignore[attr-defined]
    returns: list[float] = state.returns()
    return returns


@pytest.mark.parametrize(("rules", "target"), [(ECARTE, 2), (EUCHRE, 3)])
def test_mcts_and_information_set_mcts_play_whole_matches(rules: Path, target: int) -> None:
    game = load_game(rules, scope="match", target=target)
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    n = game.num_players()
    plain = [mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=rng) for _ in range(n)]
    returns = _play_with_bots(game, plain, 1)
    assert sorted(set(returns)) == [-1.0, 1.0]  # somebody won the match
    infoset = [ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=rng) for _ in range(n)]
    returns = _play_with_bots(game, infoset, 2)
    assert sorted(set(returns)) == [-1.0, 1.0]


def test_bad_input_raises_spiel_errors_naming_the_value() -> None:
    name = register(ECARTE)
    with pytest.raises(pyspiel.SpielError, match="frobnicate"):
        pyspiel.load_game(f"{name}(frobnicate=3)")
    with pytest.raises(pyspiel.SpielError, match="target.*not 0"):
        pyspiel.load_game(f"{name}(target=0)")
    with pytest.raises(pyspiel.SpielError, match="'hand'"):
        load_game(ECARTE, scope="hand")
    with pytest.raises(pyspiel.SpielError, match="type-error"):
        load_game(ROOT / "tests" / "invalid" / "type-error.trick")
    game = load_game(ECARTE, scope="deal")
    state = _play_to_some_depth(game, 40)
    assert not state.is_chance_node()  # type: ignore[attr-defined]
    before = (str(state), state.history())  # type: ignore[attr-defined]
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())  # type: ignore[attr-defined]
    with pytest.raises(pyspiel.SpielError, match=f"id {illegal}"):
        state.apply_action(illegal)  # type: ignore[attr-defined]
    with pytest.raises(pyspiel.SpielError, match="out of range"):
        state.apply_action(game.num_distinct_actions())  # type: ignore[attr-defined]
    assert (str(state), state.history()) == before  # type: ignore[attr-defined]
    chance = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="chance outcome 40"):
        chance.apply_action(40)


DOUBLE_PACKS = [ROOT / "examples" / "doppelkopf.trick", ROOT / "examples" / "pinochle.trick"]


@pytest.mark.parametrize("rules", [*DOUBLE_PACKS, EUCHRE], ids=lambda p: p.stem)
def test_resample_from_infostate_draws_a_real_state_the_seat_cannot_tell_apart(rules: Path) -> None:
    """Checked on the states of OpenSpiel's own random simulation: the resampled state shows
    the seat the same information state and legal actions, and it is a state of its own
    history (its taped packs and actions replay to it), so it is consistent with the whole
    play, not merely with the present; with equal cards (copies 2) too."""
    game = load_game(rules)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = []

    def check(state: object) -> None:
        if state.is_chance_node() or state.is_terminal() or len(state.history()) % 5:  # type: ignore[attr-defined]
            return
        p = state.current_player()  # type: ignore[attr-defined]
        new = state.resample_from_infostate(p, sampler)  # type: ignore[attr-defined]
        assert new.information_state_string(p) == state.information_state_string(p)  # type: ignore[attr-defined]
        assert new.legal_actions() == state.legal_actions()  # type: ignore[attr-defined]
        t = new.tricklang
        assert State.from_json(t.to_json()).observation(None) == t.observation(None)
        checked.append(t.hand((p + 1) % game.num_players()) != state.tricklang.hand((p + 1) % game.num_players()))  # type: ignore[attr-defined]

    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False, state_checker_fn=check)
    assert len(checked) >= 3 and any(checked)  # hidden cards were redealt


def test_information_set_mcts_plays_a_deal_of_doppelkopf() -> None:
    game = load_game(DOUBLE_PACKS[0])
    rng = np.random.RandomState(5)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, 2.0, 2, random_state=rng) for _ in range(4)]
    returns = _play_with_bots(game, bots, 4)
    assert len(returns) == 4 and any(r != 0 for r in returns)
