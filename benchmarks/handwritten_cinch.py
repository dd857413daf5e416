"""Hand-written random playout of Cinch (Double Pedro) deals, as ``rules/cinch.trick`` plays them.

Speed baseline for the interpreter: plain Python, stdlib only, no engine. The
policy is the interpreter's random player: every decision picks uniformly among
the legal actions (a selection of k cards out of n counts as one action among all
the subsets the rules allow). Every decision counts as one action.

Cards are ints ``suit * 13 + r``, r = 0..12 for A K Q J 10 9 8 7 6 5 4 3 2, so a
lower r is a higher card. Suits: spades, hearts, diamonds, clubs (0 and 3 black).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from math import comb

FIVE, TEN, JACK, TWO = 9, 4, 3, 12
TARGET = 51
SAME_COLOUR = (3, 2, 1, 0)


def choose_subset(rng: random.Random, cards: list[int], lo: int, hi: int) -> list[int]:
    """A subset of lo..hi cards, uniform over all such subsets (the random player's pick)."""
    i = rng.randrange(sum(comb(len(cards), k) for k in range(lo, hi + 1)))
    k = lo
    while i >= comb(len(cards), k):
        i -= comb(len(cards), k)
        k += 1
    return rng.sample(cards, k)


class Deal:
    """One deal; ``play`` returns the points each side scores."""

    def __init__(self, rng: random.Random, dealer: int) -> None:
        self.rng = rng
        self.dealer = dealer
        self.actions = 0

    def trump_order(self, trump: int) -> dict[int, int]:
        """Card -> strength among trumps (14 highest): the Left Pedro just below the Right."""
        ranks = [trump * 13 + r for r in range(13)]
        ranks.insert(10, SAME_COLOUR[trump] * 13 + FIVE)
        return {c: 14 - i for i, c in enumerate(ranks)}

    def auction(self, eldest: int) -> tuple[int, int]:
        rng, high, maker = self.rng, 0, self.dealer
        for i in range(4):
            self.actions += 1
            choice = rng.randrange(1 + 14 - high)  # pass, or one of the bids above the best
            if choice:
                high, maker = high + choice, (eldest + i) % 4
        return maker, high

    def play(self) -> tuple[int, int]:
        rng, dealer = self.rng, self.dealer
        eldest = (dealer + 1) % 4
        deck = list(range(52))
        rng.shuffle(deck)
        hands: list[list[int]] = [[], [], [], []]
        for _ in range(3):
            for i in range(4):
                hands[(eldest + i) % 4] += [deck.pop() for _ in range(3)]
        maker, bid = self.auction(eldest)
        self.actions += 1
        trump = rng.randrange(4)
        strength = self.trump_order(trump)
        discards: list[list[int]] = [[], [], [], []]
        for i in range(4):  # each discards at least three
            p = (eldest + i) % 4
            self.actions += 1
            for c in choose_subset(rng, hands[p], 3, len(hands[p])):
                hands[p].remove(c)
                discards[p].append(c)
        for i in range(3):  # draw to six; a short stock: take back plain discards
            p = (eldest + i) % 4
            while len(hands[p]) < 6 and deck:
                hands[p].append(deck.pop())
            plain = [c for c in discards[p] if c not in strength]
            need = min(6 - len(hands[p]), len(plain))
            if need > 0:
                self.actions += 1
                for c in choose_subset(rng, plain, need, need):
                    discards[p].remove(c)
                    hands[p].append(c)
        need = min(6 - len(hands[dealer]), len(deck))
        if need > 0:  # the dealer robs the pack
            self.actions += 1
            hands[dealer] += choose_subset(rng, deck, need, need)
        won = self.tricks(hands, maker, trump, strength)
        return self.count(won, maker, bid, trump)

    def tricks(self, hands: list[list[int]], leader: int, trump: int, strength: dict[int, int]) -> list[list[int]]:
        rng = self.rng
        won: list[list[int]] = [[], []]
        for _ in range(6):
            if not any(hands):
                break
            while not hands[leader]:
                leader = (leader + 1) % 4
            trick: list[tuple[int, int]] = []
            led = -1
            for i in range(4):
                p = (leader + i) % 4
                hand = hands[p]
                if not hand:
                    continue
                if led < 0:
                    legal = hand
                else:
                    follow = [c for c in hand if (trump if c in strength else c // 13) == led]
                    legal = hand if not follow else follow if led == trump else [
                        c for c in hand if c in strength or c // 13 == led]
                self.actions += 1
                card = rng.choice(legal)
                hand.remove(card)
                if led < 0:
                    led = trump if card in strength else card // 13
                trick.append((p, card))

            def power(pc: tuple[int, int], led: int = led) -> int:
                c = pc[1]
                return 100 + strength[c] if c in strength else 13 - c % 13 if c // 13 == led else 0

            leader = max(trick, key=power)[0]
            won[leader % 2] += [c for _, c in trick]
        return won

    def count(self, won: list[list[int]], maker: int, bid: int, trump: int) -> tuple[int, int]:
        values = {trump * 13: 1, trump * 13 + TWO: 1, trump * 13 + JACK: 1, trump * 13 + TEN: 1,
                  trump * 13 + FIVE: 5, SAME_COLOUR[trump] * 13 + FIVE: 5}
        points = [sum(values.get(c, 0) for c in w) for w in won]
        makers = maker % 2
        scores = [0, 0]
        scores[makers] = points[makers] if points[makers] >= bid else -bid
        scores[1 - makers] = points[1 - makers]
        return scores[0], scores[1]


def play_deals(rng: random.Random, n: int) -> int:
    """Play n deals of a running match (dealer passing left; a match ends at 51 and the
    next starts); return the actions taken."""
    actions, dealer, scores = 0, rng.randrange(4), [0, 0]
    for _ in range(n):
        deal = Deal(rng, dealer)
        a, b = deal.play()
        actions += deal.actions
        scores = [scores[0] + a, scores[1] + b]
        dealer = (dealer + 1) % 4
        if max(scores) >= TARGET:
            scores, dealer = [0, 0], rng.randrange(4)
    return actions


def run(n: int, seed: int) -> tuple[float, int, int]:
    """Play n deals; return (CPU seconds, deals, actions)."""
    rng = random.Random(seed)
    start = time.process_time()
    actions = play_deals(rng, n)
    return time.process_time() - start, n, actions


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Hand-written random Cinch playout benchmark.")
    parser.add_argument("-n", type=int, default=2000, help="deals to play")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    args = parser.parse_args(argv)
    seconds, deals, actions = run(args.n, args.seed)
    print(f"handwritten Cinch: {deals} deals in {seconds:.2f} s = {deals / seconds:.0f} deals/s, "
          f"{actions / deals:.1f} actions/deal")


if __name__ == "__main__":
    main()
