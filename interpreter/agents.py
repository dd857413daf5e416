"""Built-in players: ``random`` and ``heuristic``. Both work for any rule file.

An agent is any callable ``agent(state) -> Action`` that picks one of
``state.legal_actions()``. Agents only look at what their seat may know: the
heuristic reads its own hand, the trump and the current trick.

>>> import tricklang, interpreter
>>> from interpreter.agents import RandomAgent, play_match
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = play_match(interpreter.new_game(rules, seed=3), [RandomAgent(1), RandomAgent(2)])
>>> state.is_terminal()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .actions import Action
from .cards import NO_TRUMP
from .errors import GameLimitError
from .instructions import Auction, Bid, Choose, NameTrump, Select, Tricks
from .state import State

Agent = Callable[[State], Action]

MAX_ACTIONS_PER_MATCH = 1_000_000


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> Action:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomAgent()"


class HeuristicAgent:
    """A simple, game-independent player.

    - Plays the cheapest card that wins the trick when it can, else its cheapest card;
      leads its strongest card.
    - Discards its weakest cards (non-trumps first) and takes or robs the strongest.
    - Bids by counting its strength in its best suit; names that suit as trumps.
    - Declares whatever it may declare.
    - In a choice between named options it takes the first one listed (in the
      shipped rule files: stand, refuse) with a strong hand, else the second.
    """

    def __init__(self, seed: int | None = None, threshold: float = 0.55) -> None:
        self.rng = random.Random(seed)
        self.threshold = threshold

    def __repr__(self) -> str:
        return "HeuristicAgent()"

    def __call__(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        for a in legal:
            if a.verb == "declare":
                return a
        ins = state.program.instructions[state.core.pc]
        if isinstance(ins, Tricks):
            return self._play(state, ins, legal)
        if isinstance(ins, Select):
            return self._select(state, ins, legal)
        if isinstance(ins, Auction):
            return self._bid(state, legal)
        if isinstance(ins, Bid):
            return self._own_bid(state, legal)
        if isinstance(ins, NameTrump):
            return self._name(state, legal)
        if isinstance(ins, Choose):
            strong = self._strength(state) >= self.threshold
            return legal[0] if strong or len(legal) == 1 else legal[1]
        return legal[self.rng.randrange(len(legal))]

    # ------------------------------------------------------------ card values
    @staticmethod
    def _value(state: State, card: int) -> float:
        tables, core = state.program.tables, state.core
        if core.trump != NO_TRUMP and tables.eff_suit[core.ti][card] == core.trump:
            return 1.0 + tables.trump_strength[core.ti][card] / 100
        return tables.plain[card] / (len(tables.ranks) + 1)

    def _strength(self, state: State) -> float:
        p = state.current_player
        assert p is not None
        hand = state.core.zones[state.program.hand + p]
        if not hand:
            return 0.0
        return sum(min(1.0, self._value(state, c)) for c in hand) / len(hand)

    # ------------------------------------------------------------ decisions
    def _play(self, state: State, ins: Tricks, legal: Sequence[Action]) -> Action:
        tables, core = state.program.tables, state.core
        plays = [a for a in legal if a.verb == "play"]
        cards = [tables.index[a.args[0]] for a in plays]
        if not core.tr_cards:
            best = max(range(len(cards)), key=lambda i: self._value(state, cards[i]))
            return plays[best]
        led = tables.eff_suit[core.ti][core.tr_cards[0]]
        top = max(ins._power(c, led, core.ti, core.trump) for c in core.tr_cards)
        winners = [i for i, c in enumerate(cards) if ins._power(c, led, core.ti, core.trump) > top]
        partner_winning = False
        sides = state.program.sides
        side = sides[state.program.side_of[core.tr_turn]]
        if len(side) > 1:
            powers = [ins._power(c, led, core.ti, core.trump) for c in core.tr_cards]
            leader = core.tr_players[max(range(len(powers)), key=powers.__getitem__)]
            partner_winning = leader in side
        pool = winners if winners and not partner_winning else range(len(cards))
        cheapest = min(pool, key=lambda i: self._value(state, cards[i]))
        return plays[cheapest]

    def _select(self, state: State, ins: Select, legal: Sequence[Action]) -> Action:
        tables = state.program.tables
        prefer_weak = ins.verb == "discard"

        def score(a: Action) -> float:
            if a.args == ("none",):
                return 0.0
            values = [self._value(state, tables.index[x]) for x in a.args]
            if prefer_weak:
                # Throw away what is weak (below the middle of the suit), keep the rest.
                return sum(0.5 - v for v in values)
            return sum(values)

        return max(legal, key=score)

    def _bid(self, state: State, legal: Sequence[Action]) -> Action:
        tables, core, prog = state.program.tables, state.core, state.program
        p = state.current_player
        assert p is not None
        hand = core.zones[prog.hand + p]
        best = 0.0
        for t in range(tables.nsuits):
            eff = tables.eff_suit[t]
            strength = sum(1 + tables.trump_strength[t][c] / 10 for c in hand if eff[c] == t)
            best = max(best, strength)
        bids = [a for a in legal if a.verb == "bid"]
        if not bids:
            return legal[0]
        wanted = int(best)  # a rough count of the points the hand can win
        affordable = [a for a in bids if int(a.args[0]) <= wanted]
        return affordable[0] if affordable else legal[0]

    def _own_bid(self, state: State, legal: Sequence[Action]) -> Action:
        """Bid the number of tricks the hand looks likely to take (Spades, Oh Hell)."""
        tables, core, prog = state.program.tables, state.core, state.program
        p = state.current_player
        assert p is not None
        hand = core.zones[prog.hand + p]
        eff = tables.eff_suit[core.ti]
        expected = 0.0
        top = max(1, max(tables.trump_strength[core.ti]))
        trumps = sorted((c for c in hand if core.trump != NO_TRUMP and eff[c] == core.trump),
                        key=lambda c: -tables.trump_strength[core.ti][c])
        for i, c in enumerate(trumps):
            # High trumps are likely winners; beyond the third, length wins tricks too.
            expected += 1.0 if i >= 3 else 0.3 + 0.7 * tables.trump_strength[core.ti][c] / top
        for c in hand:
            if core.trump != NO_TRUMP and eff[c] == core.trump:
                continue
            else:
                top = tables.rank[c]  # 0 is the highest rank
                expected += (0.9, 0.5, 0.15)[top] if top < 3 else 0.0
        target = round(expected * 13 / max(13, prog.tables.size // prog.n))
        return min(legal, key=lambda a: (abs(int(a.args[0]) - target), int(a.args[0])))

    def _name(self, state: State, legal: Sequence[Action]) -> Action:
        tables, core, prog = state.program.tables, state.core, state.program
        p = state.current_player
        assert p is not None
        hand = core.zones[prog.hand + p]

        def strength(a: Action) -> float:
            t = tables.suit_names.index(a.args[0])
            eff = tables.eff_suit[t]
            return sum(1 + tables.trump_strength[t][c] / 10 for c in hand if eff[c] == t)

        return max(legal, key=strength)


AGENTS: dict[str, Callable[[int | None], Agent]] = {
    "random": RandomAgent,
    "heuristic": HeuristicAgent,
}


def make_agent(name: str, seed: int | None = None) -> Agent:
    """A built-in agent by name ('random' or 'heuristic').

    Raises:
        ValueError: an unknown agent name.
    """
    try:
        return AGENTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown player {name!r}: choose from {', '.join(AGENTS)}") from None


def play_match(state: State, agents: Sequence[Agent], *, max_actions: int = MAX_ACTIONS_PER_MATCH) -> State:
    """Play until the match ends, each seat choosing with its agent. Returns the state.

    Raises:
        GameLimitError: more than ``max_actions`` actions were taken.
    """
    count = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply_unchecked(agents[seat](state))
        count += 1
        if count > max_actions:
            raise GameLimitError(f"the match took more than {max_actions} actions")
    return state
