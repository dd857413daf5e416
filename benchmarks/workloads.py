"""The workloads ``benchmarks.bench`` times: each a :data:`Runner` that plays ``n`` units
(matches, deals or searched decisions) and returns the decisions taken.

tricklang's side goes through the public API only (``new_game``, ``apply``,
``sample_action``, ``legal_actions``, ``playout``, ``legal_action_ids``/``apply_id``,
``Game.random_matches``, the search player, ``simulate``); the references are the
hand-written playouts of this folder and OpenSpiel (``pyspiel``, when installed).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import interpreter
import tricklang

ROOT = Path(__file__).resolve().parent.parent
Runner = Callable[[int], int]
"""Plays ``n`` units; returns the decisions taken."""

ECARTE = ROOT / "rules" / "ecarte.trick"
CINCH = ROOT / "rules" / "cinch.trick"

OPENSPIEL_GAMES: tuple[tuple[str, str, str, dict[str, Any]], ...] = (
    # (label, our rule file in examples/, OpenSpiel's game, its parameters: the same deal's size)
    ("Euchre", "euchre", "euchre", {}),
    ("Hearts", "hearts", "hearts", {}),
    ("Spades", "spades", "spades", {}),
    ("Oh Hell", "oh-hell-3", "oh_hell", {"players": 3, "num_tricks_fixed": 10}),
)
"""Our first deal of oh-hell-3 deals 10 cards each; OpenSpiel's Oh Hell draws the hand
size at random unless ``num_tricks_fixed`` is given, so it is given: equal work."""


def _seeds() -> Callable[[], int]:
    """A counter: every call a new seed (the runners never replay the same matches)."""
    box = [0]

    def next_seed() -> int:
        box[0] += 1
        return box[0]
    return next_seed


def _seed_ranges() -> Callable[[int], range]:
    """The seeds of :func:`_seeds` n at a time (1, 2, 3... as it gives them): a runner's loop
    reads its match's seed as an embedder's ``for seed in seeds`` does, no call a match."""
    box = [1]

    def next_seeds(n: int) -> range:
        box[0] += n
        return range(box[0] - n, box[0])
    return next_seeds


# ---------------------------------------------------------------- tricklang, Python or native
def step_matches(rules: tricklang.Ruleset, deal: bool = False) -> Runner:
    """Whole matches (or, with ``deal``, first deals) through the public step
    ``state.apply(state.sample_action(rng))``."""
    seeds = _seed_ranges()
    rng = random.Random(1)

    def run(n: int) -> int:
        actions = 0
        for s in seeds(n):
            state = interpreter.new_game(rules, seed=s)
            while not state.is_terminal() and not (deal and state.deal_number > 1):
                state.apply(state.sample_action(rng))
                actions += 1
        return actions
    return run


def legal_loop_matches(rules: tricklang.Ruleset) -> Runner:
    """Whole matches by the loop most embedders write: ``legal_actions()``, one of them
    drawn uniformly, ``apply``."""
    seeds = _seed_ranges()
    rng = random.Random(2)

    def run(n: int) -> int:
        actions = 0
        for s in seeds(n):
            state = interpreter.new_game(rules, seed=s)
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                actions += 1
        return actions
    return run


def playout_matches(rules: tricklang.Ruleset) -> Runner:
    """Whole matches by ``State.playout(rng)`` (the same draws as the public step)."""
    seeds = _seed_ranges()
    rng = random.Random(3)

    def run(n: int) -> int:
        taken = 0
        for s in seeds(n):
            taken += interpreter.new_game(rules, seed=s).playout(rng)
        return taken
    return run


def batch_matches(rules: tricklang.Ruleset, first_deal: bool = False) -> Runner:
    """Matches (or first deals) played inside the generated module by ``Game.random_matches``."""
    game = interpreter.Game.of(rules)
    seed = _seeds()
    rng = random.Random(4)

    def run(n: int) -> int:
        return game.random_matches(n, seed=1_000_000 * seed(), rng=rng, first_deal=first_deal).actions
    return run


def id_step_deals(rules: tricklang.Ruleset) -> Runner:
    """First deals by the integer-id step: ``legal_action_ids()``, one drawn, ``apply_id``."""
    seeds = _seed_ranges()
    rng = random.Random(5)

    def run(n: int) -> int:
        actions = 0
        for s in seeds(n):
            state = interpreter.new_game(rules, seed=s)
            while not state.is_terminal() and state.deal_number == 1:
                ids = state.legal_action_ids()
                state.apply_id(ids[rng.randrange(len(ids))])
                actions += 1
        return actions
    return run


class _RunningMatch:
    """Deals of long matches, a new match when one ends (as the hand-written Cinch plays)."""

    def __init__(self, rules: tricklang.Ruleset, seed: int) -> None:
        self.rules = rules
        self.rng = random.Random(seed)
        self.state = interpreter.new_game(rules, seed=seed)

    def next_deal(self) -> interpreter.State:
        """The state at the start of the next deal to play (a new match when this one is over)."""
        if self.state.is_terminal():
            self.state = interpreter.new_game(self.rules, seed=self.rng.randrange(1 << 30))
        return self.state


def step_running_deals(rules: tricklang.Ruleset) -> Runner:
    match = _RunningMatch(rules, 7)
    rng = match.rng

    def run(n: int) -> int:
        actions = 0
        for _ in range(n):
            state = match.next_deal()
            deal = state.deal_number
            while not state.is_terminal() and state.deal_number == deal:
                state.apply(state.sample_action(rng))
                actions += 1
        return actions
    return run


def legal_loop_running_deals(rules: tricklang.Ruleset) -> Runner:
    match = _RunningMatch(rules, 8)
    rng = match.rng

    def run(n: int) -> int:
        actions = 0
        for _ in range(n):
            state = match.next_deal()
            deal = state.deal_number
            while not state.is_terminal() and state.deal_number == deal:
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                actions += 1
        return actions
    return run


def playout_running_deals(rules: tricklang.Ruleset) -> Runner:
    match = _RunningMatch(rules, 9)
    rng = match.rng

    def run(n: int) -> int:
        return sum(match.next_deal().playout(rng, deal=True) for _ in range(n))
    return run


# ---------------------------------------------------------------- hand-written Python
def hand_written(module: Any) -> Runner:
    """``module.run(n, seed)`` of ``handwritten_ecarte`` (matches) or ``handwritten_cinch`` (deals)."""
    seed = _seeds()

    def run(n: int) -> int:
        _, _, actions = module.run(n, seed())
        return int(actions)
    return run


# ---------------------------------------------------------------- OpenSpiel
def pyspiel_module() -> Any | None:
    """``pyspiel``, or None when OpenSpiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    return pyspiel


def _pyspiel() -> Any:
    """``pyspiel``, which the OpenSpiel runners need.

    Raises:
        ImportError: OpenSpiel is not installed.
    """
    import pyspiel

    return pyspiel


def openspiel_game(name: str, params: dict[str, Any]) -> Any:
    pyspiel = _pyspiel()
    return pyspiel.load_game(name, params) if params else pyspiel.load_game(name)


def openspiel_cpp_deals(name: str, params: dict[str, Any]) -> Runner:
    """Deals played in C++: ``pyspiel.evaluate_bots`` with uniform random bots, one call a
    deal (decisions are not counted in C++: 0 is returned; see :func:`openspiel_decisions`)."""
    pyspiel = _pyspiel()
    game = openspiel_game(name, params)
    bots = [pyspiel.make_uniform_random_bot(p, 100 + p) for p in range(game.num_players())]
    seed = _seeds()

    def run(n: int) -> int:
        evaluate, new = pyspiel.evaluate_bots, game.new_initial_state
        for _ in range(n):
            evaluate(new(), bots, seed())
        return 0
    return run


def openspiel_python_deals(name: str, params: dict[str, Any]) -> Runner:
    """Deals driven from Python: chance outcomes drawn by their probabilities, then
    ``state.legal_actions()`` and ``state.apply_action`` with a uniform draw."""
    game = openspiel_game(name, params)
    rng = random.Random(6)

    def run(n: int) -> int:
        actions = 0
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                else:
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                    actions += 1
                state.apply_action(action)
        return actions
    return run


def openspiel_decisions(name: str, params: dict[str, Any], deals: int = 200) -> float:
    """Decisions a random deal of OpenSpiel's game takes, on average over ``deals``."""
    return openspiel_python_deals(name, params)(deals) / deals


# ---------------------------------------------------------------- search players
def search_decisions(rules: tricklang.Ruleset, budget: int, rollout: str = "heuristic") -> Runner:
    """Searched decisions of the search player (``budget`` rollouts each, by ``rollout``)
    at every seat; the decisions it does not search (one legal action, or more than it
    searches) are played by it too, at little cost, and not counted."""
    from interpreter.players.search import SearchAgent

    agents = [SearchAgent(seat, budget=budget, rollout=rollout) for seat in range(rules.player_count)]
    seed = _seeds()
    box = [interpreter.new_game(rules, seed=seed())]

    def run(n: int) -> int:
        before = sum(a.decisions for a in agents)
        while sum(a.decisions for a in agents) - before < n:
            state = box[0]
            if state.is_terminal():
                state = box[0] = interpreter.new_game(rules, seed=seed())
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat](state))
        return sum(a.decisions for a in agents) - before
    return run


def ismcts_decisions(name: str, budget: int, most: int) -> Runner:
    """Decisions of OpenSpiel's C++ IS-MCTS (``budget`` simulations, one random rollout
    each) at every seat, driven from Python; only decisions with 2..``most`` legal actions
    are searched and counted (as the search player does); the others are played directly."""
    pyspiel = _pyspiel()
    game = openspiel_game(name, {})
    evaluator = pyspiel.RandomRolloutEvaluator(1, 11)
    policy = pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT
    bots = [pyspiel.ISMCTSBot(20 + p, evaluator, 2.0, budget, -1, policy, False, False)
            for p in range(game.num_players())]
    rng = random.Random(12)
    box = [game.new_initial_state(), evaluator]  # (the evaluator outlives the bots)

    def run(n: int) -> int:
        done = 0
        while done < n:
            state = box[0]
            if state.is_terminal():
                state = box[0] = game.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            legal = state.legal_actions()
            if not 2 <= len(legal) <= most:
                state.apply_action(legal[rng.randrange(len(legal))])
                continue
            state.apply_action(bots[state.current_player()].step(state))
            done += 1
        return done
    return run


# ---------------------------------------------------------------- simulate
SIMULATE_SEATS = "random"


def simulate_runs(rules: tricklang.Ruleset) -> Runner:
    """``tricklang simulate FILE -n N --seats random --seed 0`` in this process (its
    ``run_simulation`` and printed summary; the rule file is loaded once, outside)."""
    from interpreter.cli import build_parser
    from interpreter.cli.simulate import _print_summary, run_simulation, seat_names

    names = seat_names(rules, SIMULATE_SEATS)

    def run(n: int) -> int:
        args = build_parser().parse_args(["simulate", rules.path, "-n", str(n), "--seats", SIMULATE_SEATS,
                                          "--seed", "0", "--no-progress"])
        played = run_simulation(args, rules, names)
        assert played is not None
        summary, _ = played
        _print_summary(summary, io.StringIO())
        return int(summary["actions"]["total"])
    return run


def bare_loop_runs(rules: tricklang.Ruleset) -> Runner:
    """The same ``n`` matches as :func:`simulate_runs` (its seeds), the same players (built
    the same way, with the same seeds), played by the bare loop ``apply(player(state))``."""
    from interpreter.cli.simulate import match_seed
    from interpreter.players import make_agent

    names = [SIMULATE_SEATS] * rules.player_count

    def run(n: int) -> int:
        actions = 0
        for index in range(n):
            seed = match_seed(0, index)
            agents = [make_agent(kind, match_seed(seed, seat)) for seat, kind in enumerate(names)]
            state = interpreter.new_game(rules, seed=seed)
            while not state.is_terminal():
                seat = state.current_player
                assert seat is not None
                state.apply(agents[seat](state))
                actions += 1
        return actions
    return run


# ---------------------------------------------------------------- native copies
def native_copy(path: Path) -> tricklang.Ruleset:
    """The rule file loaded again with one comment line more: another digest, so that
    making it native (which applies to every ruleset of the same digest and options in
    the process) leaves the Python lines Python. The generated module is the same (it
    holds no rule text), so is the native build."""
    rules = tricklang.load(path)
    return tricklang.loads(rules.source + "\n# (benchmarks: the native copy)\n", path=rules.path,
                           bases=list(rules.bases))
