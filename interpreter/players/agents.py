"""Built-in players: ``random`` and ``heuristic``. Both work for any rule file.

An agent is any callable ``agent(state) -> Action`` that picks one of
``state.legal_actions()``. Agents only look at what their seat may know: the
heuristic reads its own hand, the trump and the current trick.

>>> import tricklang, interpreter
>>> from interpreter.players import RandomAgent, play_match
>>> rules = tricklang.load("rules/ecarte.trick")
>>> state = play_match(interpreter.new_game(rules, seed=3), [RandomAgent(1), RandomAgent(2)])
>>> state.is_terminal()
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..errors import GameLimitError
from ..state.actions import Action
from ..state.state import State
from .contracts import choose, rollout

Agent = Callable[[State], Action]

MAX_ACTIONS_PER_MATCH = 1_000_000
PLAYOUTS = 2
"""Options of a contract choice met in a rollout that are played out (the strongest)."""


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, state: State) -> Action:
        return state.sample_action(self.rng)

    def __repr__(self) -> str:
        return "RandomAgent()"


class HeuristicAgent:
    """A simple, game-independent player, built on the public views of :class:`State`.

    - Plays the cheapest card that wins the trick when it can, else its cheapest card;
      leads its strongest card.
    - Discards its weakest cards (non-trumps first) and takes or robs the strongest.
    - Bids by counting its strength in its best suit; names that suit as trumps. Over a
      bid table, and in an auction whose bids count melds (Pinochle), it weighs each call
      on a few resampled deals played out (:mod:`interpreter.players.contracts`).
    - Declares whatever it may declare.
    - In a game with a bid table, a choice before the deal's first card (a contract: Skat's
      hand or skat, game and announcement, holding a bid) is weighed like a call, on
      resampled deals played out (:mod:`interpreter.players.contracts`).
    - In any other choice between named options it takes the first one listed (in the
      shipped rule files: stand, refuse) with a strong hand, else the second.
    - In table mode it records no irregularity: at a referee's pause it continues, and
      wherever irregularities are offered among the actions it weighs only the others.
    """

    def __init__(self, seed: int | None = None, threshold: float = 0.55) -> None:
        self.rng = random.Random(seed)
        self.threshold = threshold

    def __repr__(self) -> str:
        return "HeuristicAgent()"

    def __call__(self, state: State) -> Action:
        return self._decide(state, 0)

    def _in_rollout(self, state: State) -> Action:
        """The decision as a contract evaluator's rollout makes it: choices of a contract by
        the quick rule (:meth:`_quick_choice`), never by weighing rollouts again."""
        return self._decide(state, 1)

    def _in_playout(self, state: State) -> Action:
        """The decision as the quick rule's playouts make it (:meth:`_quick_choice`)."""
        return self._decide(state, 2)

    def _decide(self, state: State, depth: int) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        for a in legal.explicit:
            if a.verb == "declare":
                return a
        decision = state.decision
        assert decision is not None
        kind = decision.kind
        if kind == "pause":
            return legal[0]  # `continue`, listed before the irregularities
        if kind == "play":
            return self._play(state, legal)
        if kind == "select":
            return self._select(state, decision.phase, legal)
        if kind in ("auction", "bid") and state.game.layout.bid_table:  # a bid table (design 3.7)
            return choose(state, legal, self._in_rollout, self.rng)
        if kind == "auction":
            return self._bid(state, legal)
        if kind == "bid":
            return self._own_bid(state, legal)
        if kind == "name_trump":
            return self._name(state, legal)
        if kind == "choice":
            options = [a for a in legal.explicit if a.verb != "irregular"]
            if len(options) > 1 and self._contract_choice(state):
                if depth == 0:
                    return choose(state, legal, self._in_rollout, self.rng, options=options)
                return self._quick_choice(state, options, playouts=depth == 1)
            strong = self._strength(state) >= self.threshold
            return options[0] if strong or len(options) == 1 else options[1]
        return state.sample_action(self.rng)  # pragma: no cover - every kind is handled

    @staticmethod
    def _contract_choice(state: State) -> bool:
        """Whether a choice selects (or bids for) the contract: in a game with a bid table,
        a choice before the deal's first card is played."""
        return bool(state.game.layout.bid_table) and not any(state.tricks_won) and not state.current_trick

    def _quick_choice(self, state: State, options: Sequence[Action], playouts: bool) -> Action:
        """The contract choice of a rollout, where the deal is dealt out: the option after
        which the chooser's hand is strongest (:meth:`_strength`, under the trumps the option
        names), the first of equals; with ``playouts``, of the :data:`PLAYOUTS` strongest so
        ranked, the one whose deal, played out once from there, ends best for the chooser's
        side (:func:`~.contracts.rollout`)."""
        seat = state.current_player
        assert seat is not None
        after: list[tuple[Action, State]] = []
        strengths: list[float] = []
        for option in options:
            s = state.clone()
            s.apply(option)
            if not s.is_terminal() and s.deal_number == state.deal_number:
                after.append((option, s))
                strengths.append(self._strength(s, seat))
        if not after:
            return options[0]
        ranked = sorted(range(len(after)), key=lambda i: -strengths[i])  # (stable: the first of equals first)
        if not playouts:
            return after[ranked[0]][0]
        tried = ranked[:PLAYOUTS]
        margins = [rollout(after[i][1], seat, self._in_playout)[0] for i in tried]
        return after[tried[margins.index(max(margins))]][0]

    # ------------------------------------------------------------ card values
    @staticmethod
    def _value(state: State, card: str) -> float:
        strength = state.card_strength(card)
        if strength > 1000:
            return 1.0 + (strength - 1000) / 100
        return strength / (len(state.cards) // len(state.suits) + 1)

    def _strength(self, state: State, seat: int | None = None) -> float:
        p = state.current_player if seat is None else seat
        assert p is not None
        hand = state.hand(p)
        if not hand:
            return 0.0
        return sum(min(1.0, self._value(state, c)) for c in hand) / len(hand)

    # ------------------------------------------------------------ decisions
    def _play(self, state: State, legal: Sequence[Action]) -> Action:
        plays = [a for a in legal if a.verb == "play"]
        cards = [a.args[0] for a in plays]
        trick = state.current_trick
        if not trick:
            best = max(range(len(cards)), key=lambda i: self._value(state, cards[i]))
            return plays[best]
        top = max(state.trick_power(c) for _, c in trick)
        winners = [i for i, c in enumerate(cards) if state.trick_power(c) > top]
        partner_winning = False
        side = next(s for s in state.sides if state.current_player in s)
        if len(side) > 1:
            partner_winning = state.trick_winner() in side
        pool = winners if winners and not partner_winning else range(len(cards))
        cheapest = min(pool, key=lambda i: self._value(state, cards[i]))
        return plays[cheapest]

    def _select(self, state: State, verb: str, legal: Sequence[Action]) -> Action:
        prefer_weak = verb == "discard"
        values: dict[str, float] = {}

        def score(a: Action) -> float:
            if a.verb == "irregular":  # (table mode: never chosen)
                return float("-inf")
            if a.args == ("none",):
                return 0.0
            for x in a.args:
                if x not in values:
                    values[x] = self._value(state, x)
            if prefer_weak:
                # Throw away what is weak (below the middle of the suit), keep the rest.
                return sum(0.5 - values[x] for x in a.args)
            return sum(values[x] for x in a.args)

        return max((a for a in legal if a.verb != "irregular"), key=score)  # (table mode offers irregularities)

    @staticmethod
    def _suit_strength(state: State, hand: list[str], suit: str) -> float:
        """The hand's strength in a suit, were it trumps."""
        return sum(1 + (state.card_strength(c, suit) - 1000) / 10 for c in hand if state.is_trump(c, suit))

    def _bid(self, state: State, legal: Sequence[Action]) -> Action:
        if state.game.layout.meld_names:  # melds count toward the bid: weigh it on resampled deals
            return choose(state, legal, self._in_rollout, self.rng)
        p = state.current_player
        assert p is not None
        hand = state.hand(p)
        bids = [a for a in legal if a.verb == "bid"]
        if not bids or not hand:
            return legal[0]
        # The share of the points the hand may win: its trumps in its best suit, each
        # counted by its rank among the trumps (the top trump 1, the lowest near 0),
        # over the hand's size; it bids that share of the highest bid allowed.
        best = 0.0
        for suit in state.suits:
            ranks = [state.card_strength(c, suit) - 1000 for c in state.cards if state.is_trump(c, suit)]
            top = max(1, max(ranks, default=0))
            best = max(best, sum((state.card_strength(c, suit) - 1000) / top for c in hand if state.is_trump(c, suit)))
        highest = max(int(a.args[0]) for a in bids)
        wanted = int(highest * best / len(hand))
        affordable = [a for a in bids if int(a.args[0]) <= wanted]
        return affordable[-1] if affordable else legal[0]

    def _own_bid(self, state: State, legal: Sequence[Action]) -> Action:
        """Bid the number of tricks the hand looks likely to take (Spades, Oh Hell)."""
        p = state.current_player
        assert p is not None
        hand = state.hand(p)
        ranks = len(state.cards) // len(state.suits)
        expected = 0.0
        top = max(1, max((state.card_strength(c) - 1000 for c in state.cards if state.is_trump(c)), default=0))
        trumps = sorted((c for c in hand if state.is_trump(c)), key=lambda c: -state.card_strength(c))
        for i, c in enumerate(trumps):
            # High trumps are likely winners; beyond the third, length wins tricks too.
            expected += 1.0 if i >= 3 else 0.3 + 0.7 * (state.card_strength(c) - 1000) / top
        for c in hand:
            if state.is_trump(c):
                continue
            rank = ranks - state.card_strength(c)  # 0 is the highest rank
            expected += (0.9, 0.5, 0.15)[rank] if rank < 3 else 0.0
        # A little under the estimate: a set contract costs more than an overtrick earns.
        target = int(0.85 * expected * 13 / max(13, len(state.cards) // state.player_count))
        bids = [a for a in legal if a.verb == "bid" and a.args and a.args[0].lstrip("-").isdigit()]
        if not bids:
            return legal[0]
        return min(bids, key=lambda a: (abs(int(a.args[0]) - target), int(a.args[0])))

    def _name(self, state: State, legal: Sequence[Action]) -> Action:
        p = state.current_player
        assert p is not None
        hand = state.hand(p)
        suits = set(state.suits)
        named = [a for a in legal if a.verb == "name" and a.args and a.args[0] in suits]  # (not an irregularity)
        if not named:
            return legal[0]
        return max(named, key=lambda a: self._suit_strength(state, hand, a.args[0]))


def play_match(state: State, agents: Sequence[Agent], *, max_actions: int = MAX_ACTIONS_PER_MATCH) -> State:
    """Play until the match ends, each seat choosing with its agent. Returns the state.

    Raises:
        GameLimitError: more than ``max_actions`` actions were taken.
    """
    count = 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
        count += 1
        if count > max_actions:
            raise GameLimitError(f"the match took more than {max_actions} actions")
    return state
