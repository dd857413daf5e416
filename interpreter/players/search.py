"""A search player for any rule file: determinized Monte-Carlo rollouts.

At each decision with more than one legal action (and at most ``max_candidates``), the
player draws ``worlds`` states its seat cannot tell from the real one
(:class:`interpreter.state.resample.Resampler`: the hidden cards redealt consistently with
everything the seat has seen), and in each world tries every legal action and plays
the rest of the deal out with a rollout policy at every seat. It takes the action with
the best total over the worlds:

- the deal's points, for its side minus the best other side (negated when the lowest
  score wins), and a large bonus or penalty when the match ends in the rollout.

The rollout policies (``rollout=``):

- ``"greedy"`` (the default): the heuristic player's simple rules written into the
  generated module (its ``greedy_playout``, :mod:`interpreter.codegen.rollouts`): lead the
  strongest card, take a trick an opponent is winning with the cheapest card that beats
  it, else throw the cheapest card; a choice's first option with a strong hand, else its
  second; trumps named in the strongest suit; a discard of the weakest cards, any other
  selection of the strongest; every other decision (bids, declarations) a uniformly
  random legal action. No Python runs over a :class:`State` in a rollout: natively (a
  Cython build) a rollout is C, in CPython the module's own Python over the core. On
  Euchre at budget 48 it is as strong as the heuristic rollouts (within the noise of 400
  deals) at twenty times their speed natively (docs/performance.md).
- ``"heuristic"`` (the default before): the heuristic player itself at every seat, on a
  :meth:`State.clone` of each world; the same decisions as the greedy rules up to ties,
  and its bids and contract choices, at the cost of its Python over a State an action.
- ``"random"``: uniformly random legal actions (the rollout policy of OpenSpiel's
  IS-MCTS) inside the generated module (its ``playout``), the same draws as
  :meth:`State.playout`; cheaper a rollout, weaker a rollout.

Rollouts inside the module (greedy and random) play on a copy of the world's core that
logs no events; one that meets a choice among more than ``MAX_CHOICES`` subsets (random
rollouts only) is valued where it stopped. Their worlds are redealt in place by default
(``sampling="in-place"``, :meth:`Resampler.redealt_cores`): the same constraints (the
cards the seat has seen, what the plays of the others exclude) and the same draw of the
renaming of hidden cards, but applied to copies of the real core where the cards lie now,
instead of replaying the deal from a renamed deck and checking every event the seat saw;
each candidate is applied to a copy by its log key and played out, with no :class:`State`
a rollout. No Cython or compiler is needed (the CPython module plays the same draws,
slower). It is exact where the constraints say all the seat's view implies (plain trick
play: Euchre, Écarté, Cinch, Hearts; tested against the replay), an approximation
elsewhere (an automatic move or a value the rules computed from a hidden card is not
checked). ``sampling="replay"`` draws the worlds as the heuristic rollouts do (the draws
of earlier versions); with a pack with copies, or several deals laid out at once, the
replay is used.

The budget is the number of rollouts per decision: ``worlds = max(1, budget // number
of legal actions)``. Larger decisions (a discard of 1 to 5 cards out of 8: 218
actions) are left to the heuristic player. Given a seed, the player is deterministic.
Selected by name as ``search``, ``search:BUDGET``, ``search:ROLLOUT`` or
``search:BUDGET:ROLLOUT`` (``make_agent``, ``--seats``; e.g. ``search:200:heuristic``).

>>> import tricklang, interpreter
>>> from interpreter.players import play_match
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = play_match(interpreter.new_game(rules, seed=3), [SearchAgent(1, budget=8), SearchAgent(2, budget=8)])
>>> state.is_terminal()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any, cast

from ..errors import ResampleError
from ..runtime.faults import Fault
from ..state.actions import Action
from ..state.legal import LegalActions
from ..state.protocol import StateLike
from ..state.replay import apply_key
from ..state.resample import Resampler
from ..state.state import State
from .agents import HeuristicAgent

DEFAULT_BUDGET = 48
"""Rollouts per decision when no budget is given."""

MAX_CANDIDATES = 8
"""Decisions with more legal actions than this are left to the heuristic player."""

MATCH_VALUE = 1000.0
"""What ending the match as winner (or loser) is worth in a rollout, in points."""

MAX_ROLLOUT_ACTIONS = 10_000

ROLLOUTS = ("greedy", "heuristic", "random")
"""The rollout policies (the module docstring): the heuristic player's rules inside the
generated module (its ``greedy_playout``), the heuristic player itself over a State, or
uniformly random legal actions inside the module (its ``playout``)."""

DEFAULT_ROLLOUT = "greedy"
"""The rollout policy when none is given."""

PLAYOUTS = {"random": "playout", "greedy": "greedy_playout"}
"""The generated module's function that plays a rollout of each policy played inside it."""

SAMPLINGS = ("replay", "in-place")
"""How the worlds are drawn: replayed from a renamed deck and checked against everything
the seat saw (:meth:`Resampler.pool`), or redealt in place on copies of the core
(:meth:`Resampler.redealt_cores`: rollouts inside the module only, their default)."""


class SearchAgent:
    """See the module docstring. ``decisions`` counts the searched decisions,
    ``seconds`` and ``cpu_seconds`` the wall-clock and CPU time spent on them.

    Raises (at construction):
        ValueError: a budget or ``max_candidates`` below 1, a rollout policy not in
            :data:`ROLLOUTS`, or a sampling not in :data:`SAMPLINGS` (in place with
            heuristic rollouts).
    """

    def __init__(self, seed: int | None = None, budget: int = DEFAULT_BUDGET, max_candidates: int = MAX_CANDIDATES,
                 rollout: str = DEFAULT_ROLLOUT, sampling: str | None = None) -> None:
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"a search budget is a number of rollouts, at least 1, not {budget!r}")
        if isinstance(max_candidates, bool) or not isinstance(max_candidates, int) or max_candidates < 1:
            raise ValueError(f"max_candidates must be at least 1, not {max_candidates!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout {rollout!r}: give one of {', '.join(ROLLOUTS)}")
        inside = rollout in PLAYOUTS
        sampling = sampling if sampling is not None else ("in-place" if inside else "replay")
        if sampling not in SAMPLINGS or sampling == "in-place" and not inside:
            raise ValueError(f"sampling {sampling!r}: give 'replay' or, with random or greedy rollouts, 'in-place'")
        self.sampling = sampling
        self.rng = random.Random(seed)
        self.budget = budget
        self.max_candidates = max_candidates
        self.rollout = rollout
        self.fallback = HeuristicAgent(self.rng.randrange(2**31))
        self.policy = _RolloutPolicy(self.rng.randrange(2**31))
        # (drawn after the others: the heuristic rollouts' draws stay as they were)
        self._playout_rng = random.Random(self.rng.randrange(2**31)) if inside else None
        self._playout = PLAYOUTS.get(rollout, "playout")
        self._sampler: Resampler | None = None
        self.decisions = 0
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    def __repr__(self) -> str:
        return f"SearchAgent(budget={self.budget})" if self.rollout == DEFAULT_ROLLOUT else \
            f"SearchAgent(budget={self.budget}, rollout={self.rollout!r})"

    def __call__(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if len(legal) > self.max_candidates:
            return self.fallback(state)
        seat = state.current_player
        assert seat is not None
        started, cpu = time.perf_counter(), time.process_time()
        try:
            totals = self._evaluate(state, seat, len(legal))
        except ResampleError:
            totals = None
        self.decisions += 1
        self.seconds += time.perf_counter() - started
        self.cpu_seconds += time.process_time() - cpu
        if totals is None:
            return self.fallback(state)
        best = max(range(len(legal)), key=totals.__getitem__)  # ties: the first listed
        return legal[best]

    def _evaluate(self, state: State, seat: int, n: int) -> list[float]:
        sampler = self._sampler_for(state, seat)
        worlds = max(1, self.budget // n)
        if self._playout_rng is not None and self.sampling == "in-place" and state._PLAIN and not state._c.table:
            cores = sampler.redealt_cores(self.rng, worlds)
            if cores is not None:
                return self._evaluate_cores(state, cores, n, side=self._side(state, seat), rng=self._playout_rng,
                                            playout=self._playout)
        totals = [0.0] * n
        deal = state.deal_number
        start = state.scores
        side = next(i for i, members in enumerate(state.sides) if seat in members)
        for world in sampler.pool(self.rng, worlds):
            for i in range(n):
                sim = world.clone()
                sim.apply(sim.legal_actions()[i])
                if self._playout_rng is None:
                    totals[i] += self._rollout(sim, deal, start, side)
                else:
                    totals[i] += self._random_rollout(sim, deal, start, side, self._playout_rng, self._playout)
        return totals

    @staticmethod
    def _side(state: State, seat: int) -> int:
        return next(i for i, members in enumerate(state.sides) if seat in members)

    @staticmethod
    def _evaluate_cores(state: State, cores: list[Any], n: int, side: int, rng: random.Random,
                        playout: str = "playout") -> list[float]:
        """Rollouts from the sampled cores (:meth:`Resampler.redealt_cores`): each candidate
        applied by its log key to a copy of the core, then the deal played out inside the
        generated module by its function ``playout`` (as :meth:`_random_rollout` does from a
        State)."""
        g = state._g
        m = g.m
        copy, play, scores = m["copy"], m[playout], m["scores"]
        legal = state.legal_actions()
        keys = [state._key(a) for a in legal]
        deal = state.deal_number - 1
        start = state.scores
        lowest = state.ruleset.rules.match is not None and state.ruleset.rules.match.lowest_wins
        totals = [0.0] * n
        try:
            for world in cores:
                for i in range(n):
                    c = copy(world)
                    apply_key(cast(StateLike, state), c, keys[i])  # (a plain state: no irregular actions)
                    play(c, rng, MAX_ROLLOUT_ACTIONS, None, deal)
                    totals[i] += _gain(scores(c), c.winner if c.terminal and c.winner >= 0 else None, start, side,
                                       lowest)
        except Fault as fault:
            raise state._error(fault) from None
        return totals

    def _sampler_for(self, state: State, seat: int) -> Resampler:
        """The sampler that follows this match for this seat, brought up to date."""
        sampler = self._sampler
        if sampler is not None and sampler.seat == seat:
            try:
                sampler.update(state, self.rng)
                return sampler
            except ResampleError:
                pass  # another match: start again
        sampler = self._sampler = Resampler(state, seat, self.rng, redeal_past=False)
        return sampler

    def _rollout(self, sim: State, deal: int, start: list[int], side: int) -> float:
        """Play to the end of the deal with the heuristic player; the value for ``side``."""
        policy = self.policy
        count = 0
        while not sim.is_terminal() and sim.deal_number == deal and count < MAX_ROLLOUT_ACTIONS:
            sim.apply(policy(sim))
            count += 1
        outcome = sim.outcome()
        return _value(sim, sim.scores, outcome.winner if outcome is not None else None, start, side)

    @staticmethod
    def _random_rollout(sim: State, deal: int, start: list[int], side: int, rng: random.Random,
                        playout: str = "playout") -> float:
        """Play to the end of the deal inside the generated module by its function
        ``playout`` (random legal actions, or ``greedy_playout``), on a copy of the state's
        core that logs no events; the value for ``side``. A rollout that meets a choice of
        more cards than the module draws from (more than ``MAX_CHOICES`` subsets) is
        valued where it stopped."""
        m = sim._g.m
        c = m["copy"](sim._c)
        c.rec = False
        m[playout](c, rng, MAX_ROLLOUT_ACTIONS, None, deal - 1)
        return _value(sim, m["scores"](c), c.winner if c.terminal and c.winner >= 0 else None, start, side)


def _value(sim: State, scores: list[int], winner: int | None, start: list[int], side: int) -> float:
    """A rollout's value for ``side`` (the module docstring), from the scores it reached
    and the match's winning side if it ended."""
    match = sim.ruleset.rules.match
    return _gain(scores, winner, start, side, match is not None and match.lowest_wins)


def _gain(scores: list[int], winner: int | None, start: list[int], side: int, lowest_wins: bool) -> float:
    """:func:`_value`, given whether the lowest score wins."""
    gains = [now - before for now, before in zip(scores, start, strict=True)]
    if lowest_wins:
        gains = [-g for g in gains]
    others = [g for s, g in enumerate(gains) if s != side]
    value = float(gains[side] - (max(others) if others else 0))
    if winner is not None:
        value += MATCH_VALUE if winner == side else -MATCH_VALUE
    return float(value)


class _RolloutPolicy(HeuristicAgent):
    """The heuristic player, with its choice of cards made directly rather than by
    scoring every subset (the same choice up to ties): rollouts go through Cinch's
    discards (466 subsets) and robbing (thousands) many times."""

    def _select(self, state: State, verb: str, legal: Sequence[Action]) -> Action:
        sel = legal.selection if isinstance(legal, LegalActions) else None
        if sel is None or legal.explicit:  # type: ignore[attr-defined]
            return super()._select(state, verb, legal)
        codes = [sel.codes[c] for c in sel.cards]
        values = {c: self._value(state, c) for c in codes}
        if verb == "discard":  # throw away what is weak (below the middle of the suit)
            order = sorted(codes, key=values.__getitem__)
            k = sum(1 for c in codes if values[c] < 0.5)
        else:  # take the strongest
            order = sorted(codes, key=lambda c: -values[c])
            k = sel.hi
        chosen = set(order[:max(sel.lo, min(sel.hi, k))])
        text = sel.verb + " " + (" ".join(c for c in codes if c in chosen) if chosen else "none")
        return legal[legal.index(text)]


def _quoted(text: str, most: int = 40) -> str:
    """``text`` quoted for a message, cut to ``most`` characters (a name may come from a
    network client)."""
    return repr(text) if len(text) <= most else repr(text[:most]) + "..."


def search_spec(spec: str) -> tuple[int, str]:
    """The budget and rollout policy a search player's name gives: ``search``,
    ``search:BUDGET``, ``search:ROLLOUT`` or ``search:BUDGET:ROLLOUT`` (the defaults for
    what it leaves out).

    Raises:
        ValueError: a part that is neither a positive whole number nor a rollout policy
            (:data:`ROLLOUTS`), one given twice, or a name not of a search player.
    """
    base, *parts = spec.split(":")
    if base != "search" or len(parts) > 2:
        raise ValueError(f"{_quoted(spec)} is not a search player: give search[:BUDGET][:ROLLOUT], e.g. search:200:greedy")
    budget: int | None = None
    rollout: str | None = None
    policies = ", ".join(ROLLOUTS)
    for part in parts:
        if part in ROLLOUTS and rollout is None:
            rollout = part
        elif part.isdigit() and int(part) >= 1 and budget is None:
            budget = int(part)
        elif part in ROLLOUTS or part.isdigit() and int(part) >= 1:
            what = "rollout policy" if part in ROLLOUTS else "budget"
            raise ValueError(f"search budget or rollout {_quoted(part)} in {_quoted(spec)}: a {what} is given twice; give "
                             f"search[:BUDGET][:ROLLOUT], e.g. search:200:greedy")
        else:
            raise ValueError(f"search budget or rollout {_quoted(part)} in {_quoted(spec)}: give a number of rollouts per "
                             f"decision (1 or more, e.g. search:200) or a rollout policy ({policies}; "
                             f"e.g. search:200:heuristic)")
    return (DEFAULT_BUDGET if budget is None else budget), (DEFAULT_ROLLOUT if rollout is None else rollout)


def make_search_agent(spec: str, seed: int | None = None) -> SearchAgent:
    """A search player from its name (:func:`search_spec`): ``search``, ``search:BUDGET``,
    ``search:ROLLOUT`` or ``search:BUDGET:ROLLOUT``.

    Raises:
        ValueError: as :func:`search_spec`.
    """
    budget, rollout = search_spec(spec)
    return SearchAgent(seed, budget=budget, rollout=rollout)


