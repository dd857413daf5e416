"""Built-in players, by name: the random player, the heuristic player and the search
player (determinized rollouts over states a seat cannot tell apart, :mod:`.search`, with
the information-set sampler of :mod:`interpreter.state.resample`).

>>> make_agent("heuristic"), is_agent_name("search:200"), is_agent_name("search:0")
(HeuristicAgent(), True, False)
>>> make_agent("search:200:heuristic"), is_agent_name("search:random")
(SearchAgent(budget=200, rollout='heuristic'), True)
"""

from __future__ import annotations

from collections.abc import Callable

from .agents import MAX_ACTIONS_PER_MATCH, Agent, HeuristicAgent, RandomAgent, play_match
from .search import SearchAgent, make_search_agent, search_spec

__all__ = ["AGENTS", "MAX_ACTIONS_PER_MATCH", "Agent", "HeuristicAgent", "RandomAgent", "SearchAgent",
           "agent_name_problem", "is_agent_name", "make_agent", "play_match"]

AGENTS: dict[str, Callable[[int | None], Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
    "search": lambda seed: make_search_agent("search", seed),
}
"""The built-in players by name (``search`` also takes a budget and a rollout policy:
``search:200``, ``search:heuristic``, ``search:200:random``)."""

_WITH_PARAMETER: dict[str, Callable[[str, int | None], Agent]] = {"search": make_search_agent}


def is_agent_name(name: str) -> bool:
    """Whether :func:`make_agent` knows this name (``search:N`` with N >= 1, and a
    search player's rollout policy, included)."""
    base, sep, _ = name.partition(":")
    if not sep:
        return name in AGENTS
    if base not in _WITH_PARAMETER:
        return False
    try:
        search_spec(name)
    except ValueError:
        return False
    return True


def agent_name_problem(name: str) -> str | None:
    """Why :func:`make_agent` does not know this name, in a sentence naming it (None when
    it does): an unknown player, or what is wrong with a search player's budget or rollout.

    >>> agent_name_problem("search:3:smart")[:46]
    "search budget or rollout 'smart' in 'search:3:"
    """
    base, sep, _ = name.partition(":")
    if sep and base in _WITH_PARAMETER:
        try:
            search_spec(name)
        except ValueError as error:
            return str(error)
        return None
    if name in AGENTS:
        return None
    return f"unknown player {name[:40]!r}: choose from {', '.join(AGENTS)} (or search:BUDGET[:ROLLOUT])"


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A built-in agent by name: 'random', 'heuristic', 'search', 'search:BUDGET'
    (rollouts per decision), 'search:ROLLOUT' or 'search:BUDGET:ROLLOUT' (a rollout
    policy: greedy, heuristic or random; see :mod:`interpreter.players.search`).

    Raises:
        ValueError: an unknown agent name, or a bad search budget or rollout policy.
    """
    base, sep, _ = name.partition(":")
    if sep and base in _WITH_PARAMETER:
        return _WITH_PARAMETER[base](name, seed)
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown player {name!r}: choose from {', '.join(AGENTS)} (or search:BUDGET[:ROLLOUT])") from None
