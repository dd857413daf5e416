"""Hand-written random playout of a full Écarté match.

Speed baseline for the tricklang rules interpreter: plain Python, stdlib only,
no engine.  Every decision (propose/stand, accept/refuse, each discard, each
card played, each king declaration) counts as one action. The policy is the
interpreter's random player: each decision picks uniformly among the legal
actions (a discard of 1..5 cards is one pick among the 31 subsets; declaring the
king is one more choice beside the cards the holder may play first).

Cards are ints ``suit * 8 + strength``, strength 0..7 for 7 8 9 10 A J Q K,
so ``card >> 3`` is the suit and, within a suit, a higher int is a higher card.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from math import comb

KING = 7
DECK = list(range(32))
TARGET = 5


def choose_subset(rng: random.Random, cards: list[int], lo: int, hi: int) -> list[int]:
    """A subset of lo..hi cards, uniform over all such subsets."""
    i = rng.randrange(sum(comb(len(cards), k) for k in range(lo, hi + 1)))
    k = lo
    while i >= comb(len(cards), k):
        i -= comb(len(cards), k)
        k += 1
    return rng.sample(cards, k)


class MatchOverError(Exception):
    """Raised as soon as a seat reaches the target score (possibly mid-deal)."""

    def __init__(self, winner: int) -> None:
        super().__init__(winner)
        self.winner = winner


def legal_follows(hand: list[int], led: int, trump: int) -> list[int]:
    """Follow suit and overtake if able; if void, trump if able; else anything."""
    same = [c for c in hand if c >> 3 == led >> 3]
    if same:
        return [c for c in same if c > led] or same
    return [c for c in hand if c >> 3 == trump] or hand


class Match:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.scores = [0, 0]
        self.actions = 0

    def score(self, seat: int, points: int) -> None:
        self.scores[seat] += points
        if self.scores[seat] >= TARGET:
            raise MatchOverError(seat)

    def exchange(
        self, hands: list[list[int]], stock: list[int], elder: int, dealer: int
    ) -> int | None:
        """Run the proposal/exchange cycle; return the seat owed the penalty."""
        rng = self.rng
        exchanged = False
        while stock:
            self.actions += 1  # elder: propose or stand
            if rng.random() < 0.5:
                return None if exchanged else dealer
            self.actions += 1  # dealer: accept or refuse
            if rng.random() < 0.5:
                return None if exchanged else elder
            exchanged = True

            hand = hands[elder]
            self.actions += 1  # elder discards 1..5 cards
            discards = choose_subset(rng, hand, 1, 5)
            for card in discards:
                hand.remove(card)
            while len(hand) < 5 and stock:
                hand.append(stock.pop())
            while len(hand) < 5:  # stock ran short: take back latest discards
                hand.append(discards.pop())

            if stock:
                hand = hands[dealer]
                self.actions += 1  # dealer discards 0..min(5, stock) cards
                for card in choose_subset(rng, hand, 0, min(5, len(stock))):
                    hand.remove(card)
                while len(hand) < 5:
                    hand.append(stock.pop())
        return None

    def play_deal(self, dealer: int) -> None:
        rng = self.rng
        elder = 1 - dealer
        deck = DECK[:]
        rng.shuffle(deck)
        hands: list[list[int]] = [[], []]
        hands[elder] = deck[0:3] + deck[6:8]  # packets of 3 then 2, elder first
        hands[dealer] = deck[3:6] + deck[8:10]
        turn_up = deck[10]
        stock = deck[11:]  # the top of the stock is the end of the list
        trump = turn_up >> 3
        if turn_up & 7 == KING:
            self.score(dealer, 1)

        penalty_to = self.exchange(hands, stock, elder, dealer)

        king_of_trumps = trump * 8 + KING
        has_played = [False, False]
        tricks = [0, 0]
        leader = elder
        for _ in range(5):
            follower = 1 - leader
            led = -1
            for seat in (leader, follower):
                hand = hands[seat]
                legal = hand if led < 0 else legal_follows(hand, led, trump)
                if not has_played[seat]:
                    has_played[seat] = True
                    if king_of_trumps in hand and rng.randrange(len(legal) + 1) == len(legal):
                        self.actions += 1  # declares the king, then plays
                        self.score(seat, 1)
                card = rng.choice(legal)
                hand.remove(card)
                self.actions += 1
                if led < 0:
                    led = card
            if card >> 3 == led >> 3:
                follower_wins = card > led
            else:
                follower_wins = card >> 3 == trump
            if follower_wins:
                leader = follower
            tricks[leader] += 1

        winner = 0 if tricks[0] >= 3 else 1
        if winner == penalty_to or tricks[winner] == 5:
            self.score(winner, 2)
        else:
            self.score(winner, 1)


def play_match(rng: random.Random) -> tuple[int, int]:
    """Play one random match to 5 points; return (winner seat, actions taken)."""
    match = Match(rng)
    dealer = rng.randrange(2)
    try:
        while True:
            match.play_deal(dealer)
            dealer = 1 - dealer
    except MatchOverError as over:
        return over.winner, match.actions


def run(n: int, seed: int) -> tuple[float, int, int]:
    """Play n matches; return (CPU seconds, matches, actions)."""
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    for _ in range(n):
        actions += play_match(rng)[1]
    return time.process_time() - start, n, actions


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Hand-written random Écarté playout benchmark."
    )
    parser.add_argument("-n", type=int, default=2000, help="matches to play")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    args = parser.parse_args(argv)
    seconds, matches, actions = run(args.n, args.seed)
    print(
        f"handwritten: {matches} matches in {seconds:.2f} s = "
        f"{matches / seconds:.0f} matches/s, {actions / seconds:,.0f} actions/s"
    )


if __name__ == "__main__":
    main()
