"""The search player (interpreter.players.search): legal, deterministic, better than random."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tricklang
from interpreter import Action, State, new_game
from interpreter.players import Agent, RandomAgent, is_agent_name, make_agent
from interpreter.players.search import SearchAgent

ROOT = Path(__file__).resolve().parents[2]


def _play(state: State, agents: list[Agent], deals: int = 10_000) -> State:
    """Play to the end (or through ``deals`` deals), checking that every chosen action
    is legal (apply re-checks it)."""
    while not state.is_terminal() and state.deal_number <= deals:
        seat = state.current_player
        assert seat is not None
        action = agents[seat](state)
        assert action in state.legal_actions()
        state.apply(action.text)
    return state


@pytest.mark.parametrize("path", ["rules/ecarte.trick", "examples/euchre.trick", "rules/cinch.trick"])
def test_the_search_player_plays_legal_moves(path: str) -> None:
    rules = tricklang.load(ROOT / path)
    n = rules.player_count
    agents: list[Agent] = [SearchAgent(s, budget=6) if s % 2 == 0 else RandomAgent(s) for s in range(n)]
    state = _play(new_game(rules, seed=2), agents, deals=2)
    assert state.deal_number > 2 or state.is_terminal()
    searched = [a for a in agents if isinstance(a, SearchAgent)]
    assert sum(a.decisions for a in searched) > 0 and all(a.seconds >= 0 for a in searched)


@pytest.mark.parametrize("path", ["examples/doppelkopf.trick", "examples/pinochle.trick"])
def test_the_search_player_searches_a_double_pack(path: str) -> None:
    """Equal cards (copies 2) are resampled, so the search player weighs its plays on sampled
    worlds instead of leaving them to its fallback (as it did when resampling refused them)."""
    rules = tricklang.load(ROOT / path)
    agents: list[Agent] = [SearchAgent(s, budget=4) if s % 2 == 0 else RandomAgent(s) for s in range(4)]
    fallen: list[int] = []
    for agent in agents:
        if isinstance(agent, SearchAgent):
            fallback, limit = agent.fallback, agent.max_candidates

            def counted(state: State, fallback: Agent = fallback, limit: int = limit) -> Action:
                if len(state.legal_actions()) <= limit:
                    fallen.append(len(state.actions))
                return fallback(state)
            agent.fallback = counted  # type: ignore[assignment]
    state = _play(new_game(rules, seed=4), agents, deals=1)
    assert state.deal_number > 1 or state.is_terminal()
    searched = [a for a in agents if isinstance(a, SearchAgent)]
    assert sum(a.decisions for a in searched) >= 8 and fallen == []


def test_the_search_player_is_deterministic_with_a_seed() -> None:
    rules = tricklang.load(ROOT / "rules/ecarte.trick")

    def match() -> list[str]:
        return _play(new_game(rules, seed=5), [SearchAgent(7, budget=8), make_agent("heuristic", 1)]).actions

    assert match() == match()


FIVE_TRICKS = """\
tricklang 1
game "Five tricks"
players 2
role elder = left of dealer

deck
  suits spades black, hearts red, clubs black
  ranks A K Q J 10 9

zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public

match
  first dealer is 0
  at most 1 deals

deal
  deal 5 to each from elder
  tricks 5, elder leads first
    must follow suit
  for each player:
    player scores tricks(player) "tricks"
"""


def test_the_search_player_beats_random_clearly() -> None:
    """Twenty seeded one-deal games of five tricks (each side leads first half the
    time), 8 rollouts a decision: the search player takes at least 60% of the 100
    tricks (a random player against itself takes half; 60 or more by luck alone would
    be a two-standard-deviation event)."""
    rules = tricklang.loads(FIVE_TRICKS, path="five.trick")
    taken = 0
    for m in range(20):
        seat = m % 2
        agents: list[Agent] = [RandomAgent(100 + m), RandomAgent(200 + m)]
        agents[seat] = SearchAgent(m, budget=8)
        state = _play(new_game(rules, seed=m, dealer=m // 2 % 2), agents)
        taken += state.scores[seat]
    assert taken >= 60


def test_search_players_by_name() -> None:
    agent = make_agent("search:30", 4)
    assert isinstance(agent, SearchAgent) and agent.budget == 30
    assert isinstance(make_agent("search", 4), SearchAgent)
    assert is_agent_name("search:1") and is_agent_name("search")
    for bad in ["search:0", "search:x", "search:", "search:-3", "heuristic:4", "searching", "search:greedy:greedy",
                "search:4:4", "search:4:random:2", "search:4:smart"]:
        assert not is_agent_name(bad)
    for bad in ["search:0", "search:x", "search:-3", "search:4:4", "search:4:smart", "search:random:heuristic"]:
        with pytest.raises(ValueError, match="search budget"):
            make_agent(bad)
    with pytest.raises(ValueError, match="not a search player"):
        make_agent("search:4:random:2")
    default = make_agent("search", 4)
    assert isinstance(default, SearchAgent) and (default.budget, default.rollout) == (48, "greedy")
    for name, budget, rollout in [("search:heuristic", 48, "heuristic"), ("search:30:random", 30, "random"),
                                  ("search:greedy:12", 12, "greedy")]:
        agent = make_agent(name, 4)
        assert is_agent_name(name) and isinstance(agent, SearchAgent)
        assert (agent.budget, agent.rollout) == (budget, rollout)
    with pytest.raises(ValueError, match="unknown player"):
        make_agent("searching")
    for budget in [0, -1, True]:
        with pytest.raises(ValueError, match="budget"):
            SearchAgent(1, budget=budget)
    with pytest.raises(ValueError, match="max_candidates"):
        SearchAgent(1, max_candidates=0)


@pytest.mark.parametrize("path", ["examples/euchre.trick", "rules/cinch.trick"])
def test_random_rollouts_play_as_the_states_own_random_playout(path: str) -> None:
    """``rollout="random"`` plays each rollout inside the generated module, on a copy of
    the core: the same draws, actions and end of deal as the state's random playout
    (``State.playout(rng, deal=True)``), valued as the heuristic rollout values its end."""
    import random

    from interpreter.players.search import _value

    rules = tricklang.load(ROOT / path)
    state = new_game(rules, seed=3)
    agents = [RandomAgent(s) for s in range(rules.player_count)]
    for _ in range(12):
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    start, deal = state.scores, state.deal_number
    for k in range(6):
        got = SearchAgent._random_rollout(state, deal, start, k % 2, random.Random(k))
        sim = state.clone()
        sim.playout(random.Random(k), deal=True)
        outcome = sim.outcome()
        assert got == _value(sim, sim.scores, outcome.winner if outcome else None, start, k % 2)
    assert state.deal_number == deal and state.scores == start  # (the state is not touched)


def test_the_search_player_with_random_rollouts_is_legal_deterministic_and_strong() -> None:
    rules = tricklang.load(ROOT / "examples/euchre.trick")

    def match() -> list[str]:
        agents: list[Agent] = [SearchAgent(s, budget=8, rollout="random") if s % 2 == 0 else RandomAgent(s)
                               for s in range(4)]
        return _play(new_game(rules, seed=6), agents, deals=2).actions

    assert match() == match()
    five = tricklang.loads(FIVE_TRICKS, path="five.trick")
    taken = 0
    for m in range(20):
        seat = m % 2
        players: list[Agent] = [RandomAgent(100 + m), RandomAgent(200 + m)]
        players[seat] = SearchAgent(m, budget=8, rollout="random")
        taken += _play(new_game(five, seed=m, dealer=m // 2 % 2), players).scores[seat]
    assert taken >= 60
    with pytest.raises(ValueError, match="rollout 'smart'"):
        SearchAgent(1, rollout="smart")


@pytest.mark.parametrize("path", ["examples/euchre.trick", "rules/ecarte.trick", "rules/cinch.trick",
                                  "examples/hearts.trick"])
def test_worlds_redealt_in_place_are_the_replayed_worlds(path: str) -> None:
    """``Resampler.redealt_cores`` renames the hidden cards where they lie instead of
    replaying the deal from a renamed deck: for the same renaming, the core it makes is
    the world the replay makes (every hand, every zone, the legal actions, and the rest
    of the deal played by the same random actions), wherever the replay accepts it."""
    import random

    from interpreter.state.matching import Matching
    from interpreter.state.resample import Resampler

    rules = tricklang.load(ROOT / path)
    compared = 0
    for seed in range(3):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        for step in range(40):
            if state.is_terminal():
                break
            seat = state.current_player
            assert seat is not None
            if step % 3 == 2 and len(state.legal_actions()) > 1:
                sampler = Resampler(state, seat, random.Random(seed), redeal_past=False)
                deal = sampler._current[-1]
                cores = sampler.redealt_cores(random.Random(step), 2)
                assert cores is not None and len(cores) == 2
                for k in range(4):
                    sigma = Matching(deal.hidden, deal.excluded).draw(random.Random(k))
                    replayed = sampler._replay(sampler._current, {deal.number: sigma}, True)
                    if replayed is None:
                        continue
                    in_place = state.clone()
                    g = state.game
                    index, codes = g.tables.index, g.tables.codes
                    for z in state._hidden_zones(seat):
                        cards = g.m["zone_cards"](state._c, z)
                        g.m["set_zone"](in_place._c, z, [index[sigma.get(codes[x], codes[x])] for x in cards])
                    in_place._refresh()
                    seen, wanted = in_place._observation_but_events(None), replayed._observation_but_events(None)
                    assert _sorted_zones(seen) == _sorted_zones(wanted)
                    if seen != wanted:  # cards moved together lie in the order of their names (Cinch's stock)
                        continue
                    play = random.Random(k)
                    while not replayed.is_terminal() and replayed.deal_number == state.deal_number:
                        action = replayed.legal_actions().draw(play)
                        assert action in in_place.legal_actions()
                        replayed.apply(action.text)
                        in_place.apply(action.text)
                    assert in_place.scores == replayed.scores and in_place.is_terminal() == replayed.is_terminal()
                    compared += 1
            state.apply(state.legal_actions().draw(rng))
    assert compared >= 10


def _sorted_zones(observation: dict[str, Any]) -> dict[str, Any]:
    """An omniscient observation with the cards of each zone sorted."""
    def by_cards(view: dict[str, Any]) -> dict[str, Any]:
        return {**view, "cards": sorted(view["cards"])} if "cards" in view else {k: by_cards(v) for k, v in view.items()}
    return {**observation, "zones": by_cards(observation["zones"])}


def test_random_rollouts_search_worlds_redealt_in_place_unless_told() -> None:
    """Random rollouts draw their worlds in place by default; ``sampling="replay"``
    draws them as the heuristic rollouts do (both legal and deterministic); in-place
    worlds need random rollouts."""
    rules = tricklang.load(ROOT / "examples/euchre.trick")
    assert SearchAgent(1, rollout="random").sampling == "in-place"
    assert SearchAgent(1, rollout="heuristic").sampling == "replay"

    def match(sampling: str) -> list[str]:
        agents: list[Agent] = [SearchAgent(s, budget=8, rollout="random", sampling=sampling) if s % 2 == 0
                               else RandomAgent(s) for s in range(4)]
        return _play(new_game(rules, seed=6), agents, deals=1).actions

    assert match("replay") == match("replay") and match("in-place") == match("in-place")
    for bad in [{"sampling": "in-place", "rollout": "heuristic"}, {"sampling": "exact", "rollout": "random"}]:
        with pytest.raises(ValueError, match="sampling"):
            SearchAgent(1, **bad)  # type: ignore[arg-type]


def test_a_double_pack_is_searched_from_replayed_worlds() -> None:
    """With copies (equal cards) there are no in-place worlds (Resampler.redealt_cores
    gives None): random rollouts fall back to the replayed worlds, still legal."""
    import random

    from interpreter.state.resample import Resampler

    rules = tricklang.load(ROOT / "examples/doppelkopf.trick")
    state = new_game(rules, seed=4)
    seat = state.current_player
    assert seat is not None
    assert Resampler(state, seat, random.Random(1), redeal_past=False).redealt_cores(random.Random(2), 3) is None
    agents: list[Agent] = [SearchAgent(s, budget=4, rollout="random") if s % 2 == 0 else RandomAgent(s)
                           for s in range(4)]
    state = _play(state, agents, deals=1)
    assert sum(a.decisions for a in agents if isinstance(a, SearchAgent)) >= 8


def _greedy_log(state: State, seed: int) -> list[int]:
    """The log keys of the module's greedy playout from ``state`` to the end of the deal
    (on a copy of its core that logs no events), as a rollout plays it."""
    import random

    m = state._g.m
    c = m["copy"](state._c)
    c.rec = False
    log: list[int] = []
    m["greedy_playout"](c, random.Random(seed), 10_000, log, c.deal_no)
    return log


def _logged_action(state: State, key: int) -> Action:
    """The legal action of ``state`` whose log key is ``key`` (a selection's, by its cards:
    State.apply checks it is legal)."""
    legal = state.legal_actions()
    sel = legal.selection
    if sel is not None and (key & 0xFFFF) == state._c.dp:
        mask = (key >> 16) - 1
        cards = [sel.codes[x] for x in state._g.m["in_order"](state._c, mask)]
        return Action(sel.verb, tuple(cards) if cards else ("none",))
    by_key = {state._key(a): a for a in legal}
    assert key in by_key, (state.actions[-3:], key)
    return by_key[key]


def _as_the_heuristic_player(state: State, chosen: Action) -> bool:
    """Whether ``chosen`` is the heuristic player's rollout decision here (up to ties
    between cards of equal value), where the greedy rollouts follow its rules: a card
    played, a choice between named options, trumps named, a selection of cards."""
    from interpreter.players.search import _RolloutPolicy

    heuristic = _RolloutPolicy(0)
    legal = state.legal_actions()
    decision = state.decision
    assert decision is not None
    if any(a.verb == "declare" for a in legal.explicit) or decision.kind in ("auction", "bid"):
        return True  # (declarations, bids: drawn at random)
    theirs = heuristic._decide(state, 2)
    if decision.kind == "play":
        top = max((state.trick_power(c) for _, c in state.current_trick), default=0)

        def ranked(a: Action) -> tuple[float, bool]:
            return heuristic._value(state, a.args[0]), state.trick_power(a.args[0]) > top
        return ranked(chosen) == ranked(theirs)
    if decision.kind == "select":
        def values(a: Action) -> list[float]:
            return sorted(heuristic._value(state, x) for x in a.args if x != "none")
        return values(chosen) == values(theirs)
    return chosen == theirs


@pytest.mark.parametrize("path", ["examples/euchre.trick", "rules/ecarte.trick", "rules/cinch.trick",
                                  "examples/hearts.trick", "examples/spades.trick", "examples/skat.trick"])
def test_greedy_rollouts_play_legal_actions_by_the_heuristic_players_rules(path: str) -> None:
    """The module's ``greedy_playout`` (the search player's greedy rollouts) takes only
    legal actions, from anywhere in a match to its end: each logged action is among the
    state's legal actions when replayed. Where it follows the heuristic player's rules
    (cards, choices, trumps, selections; not in Skat, whose contract choices the heuristic
    player weighs on rollouts) its action is the heuristic player's, up to ties."""
    import random

    rules = tricklang.load(ROOT / path)
    compared = 0
    for seed in range(3):
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        for step in range(60):
            if state.is_terminal():
                break
            if step % 15 == 0:
                sim = state.clone()
                for key in _greedy_log(state, seed * 100 + step):
                    action = _logged_action(sim, key)
                    if "skat" not in path:
                        assert _as_the_heuristic_player(sim, action), (sim.actions[-3:], action)
                        compared += 1
                    sim.apply(action)  # (checked: a legal action)
                assert sim.is_terminal() or sim.deal_number > state.deal_number
            state.apply(state.legal_actions().draw(rng))
    assert compared >= (0 if "skat" in path else 50)


def test_greedy_rollouts_beat_random_rollouts() -> None:
    """Search players with greedy rollouts against search players with random rollouts at
    the same budget (48), on 60 seeded first deals of Euchre (each deal's cards played
    from both sides' seats in turn): the greedy side's margin a deal, in points, is
    positive by more than two of its standard errors (a one-sided 2.5% test of no
    difference). Points, not time: no speed is measured."""
    import statistics

    rules = tricklang.load(ROOT / "examples/euchre.trick")
    margins: list[int] = []
    for d in range(60):
        side = d % 2
        agents: list[Agent] = [SearchAgent(1000 + d * 4 + s, budget=48, rollout="greedy" if s % 2 == side
                                           else "random") for s in range(4)]
        state = _play(new_game(rules, seed=d // 2), agents, deals=1)
        margins.append(state.scores[side] - state.scores[1 - side])
    mean, error = statistics.mean(margins), statistics.stdev(margins) / len(margins) ** 0.5
    assert mean > 2 * error, (mean, error)


def test_the_search_player_with_greedy_rollouts_is_legal_and_deterministic() -> None:
    """Greedy rollouts, worlds redealt in place (their default) or replayed: legal,
    deterministic with a seed."""
    rules = tricklang.load(ROOT / "examples/euchre.trick")
    assert SearchAgent(1, rollout="greedy").sampling == "in-place"

    def match(sampling: str) -> list[str]:
        agents: list[Agent] = [SearchAgent(s, budget=8, rollout="greedy", sampling=sampling) if s % 2 == 0
                               else RandomAgent(s) for s in range(4)]
        return _play(new_game(rules, seed=6), agents, deals=2).actions

    assert match("replay") == match("replay") and match("in-place") == match("in-place")
