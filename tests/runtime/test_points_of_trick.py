"""`points(trick)`: what the cards of the trick are worth, read in a hook after each trick (it
passed the checker and then failed in the code generator with a KeyError)."""

from __future__ import annotations

import random

import interpreter
import tricklang

GAME = """\
tricklang 1
game "Trick points"
players 2
deck
  suits spades black, hearts red
  ranks A K Q J 10 9
points
  "Ace" A = 11
  "Ten" 10 = 10
  "King" K = 4
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 1 deals
deal
  deal 6 to each
  tricks 6, left of dealer leads first
    must follow suit
    after each trick:
      winner scores points(trick) "cards of the trick"
"""
VALUE = {"A": 11, "10": 10, "K": 4}


def test_each_trick_scores_its_cards_points_to_its_winner() -> None:
    rules = tricklang.loads(GAME, path="points.trick")
    for seed in range(5):
        state = interpreter.new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
        events = state.events(None)
        tricks = [e for e in events if e["type"] == "trick"]
        scores = [e for e in events if e["type"] == "score"]
        expected = [(t["winner"], sum(VALUE.get(card[:-1], 0) for card in t["cards"])) for t in tricks]
        assert [(s["side"], s["points"]) for s in scores] == [(w, p) for w, p in expected if p]
        assert sum(p for _, p in expected) == 50
