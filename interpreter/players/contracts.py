"""A generic contract evaluator: how the heuristic player bids in an auction over a bid table
(design 3.7; issue 28, section 5.2 "Game steps").

For each call it considers, the evaluator looks at a few deals resampled from what the seat
knows (:class:`~interpreter.state.resample.Resampler`: the hidden cards redealt), makes the
call in each, lets the others pass where they may (else make their lowest call), and plays
the rest of the deal out with the heuristic's own card play; the call whose deals end with
the best score for the seat's side, against the others, on average, is made. It knows
nothing of any game: the rule file's scoring says what a contract is worth, made or set.
Where the auction has ``double and redouble``, a call is valued at the worse of the others
all passing and the seat's opponents doubling where they may (so that a bid does not look
like an escape from a double merely because nobody doubles it in the rollout).

The calls considered are ``pass``, ``double``, ``redouble`` and ``hold`` where legal, and,
for each strain of the table, its lowest :data:`LEVELS` legal bids (a table of named bids or
numbers: its lowest legal bids, as many).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from tricklang import model as m
from tricklang.walk import statements_of

from ..errors import ResampleError
from ..state.actions import Action
from ..state.resample import Resampler
from ..state.state import State

SAMPLES = 3
"""Deals resampled per decision (the same deals for every call considered)."""
LEVELS = 3
"""Legal bids considered per strain, from the lowest."""
MAX_ROLLOUT = 2_000
"""The most actions a rollout takes before it is scored as it stands."""


def candidates(state: State, legal: Sequence[Action]) -> list[Action]:
    """The calls worth weighing (see the module docstring), in the order listed."""
    table = {b.code.upper(): b for b in state.game.layout.bid_table}
    kept: list[Action] = []
    per_strain: dict[str, int] = {}
    for a in legal:
        if a.verb != "bid":
            kept.append(a)
            continue
        entry = table.get(a.args[0].upper()) if a.args else None
        strain = entry.strain if entry is not None and entry.level else ""
        per_strain[strain] = per_strain.get(strain, 0) + 1
        if per_strain[strain] <= (LEVELS if strain else LEVELS * 2):
            kept.append(a)
    return kept


def side_margin(state: State, seat: int) -> float:
    """The seat's side's score less the mean of the other sides'."""
    scores = state.scores
    sides = state.sides
    own = next(k for k, members in enumerate(sides) if seat in members)
    others = [scores[k] for k in range(len(scores)) if k != own]
    return scores[own] - (sum(others) / len(others) if others else 0.0)


def rollout(state: State, seat: int, play: Callable[[State], Action], doubling: bool = False) -> float:
    """Play the deal in progress out (others pass in the auction where they may, else make
    their lowest call; with ``doubling`` the seat's opponents double where they may;
    everything else by ``play``); the seat's side's margin gained."""
    before = side_margin(state, seat)
    deal = state.deal_number
    own = next(members for members in state.sides if seat in members)
    for _ in range(MAX_ROLLOUT):
        if state.is_terminal() or state.deal_number != deal:
            break
        decision = state.decision
        if decision is not None and decision.kind in ("auction", "bid"):
            legal = state.legal_actions()
            if doubling and "double" in legal and state.current_player not in own:
                state.apply("double")
            else:
                state.apply("pass" if "pass" in legal else legal[0])
        else:
            state.apply(play(state))
    return side_margin(state, seat) - before


def choose(state: State, legal: Sequence[Action], play: Callable[[State], Action], rng: random.Random) -> Action:
    """The call the evaluator makes (see the module docstring); ``legal[0]`` when no deal
    consistent with what the seat knows can be drawn."""
    seat = state.current_player
    assert seat is not None
    options = candidates(state, legal)
    if len(options) == 1:
        return options[0]
    try:
        sampler = Resampler(state, seat, rng)
        deals = [sampler.sample(rng) for _ in range(SAMPLES)]
    except ResampleError:
        return legal[0]
    doubling = any(r.kind == "double" for r in _rules(state))
    best, best_value = options[0], float("-inf")
    for option in options:
        value = 0.0
        for deal in deals:
            s = deal.clone()
            s.apply(option)
            value += _worst(s, seat, play, doubling)
        if value > best_value:
            best, best_value = option, value
    return best


def _worst(state: State, seat: int, play: Callable[[State], Action], doubling: bool) -> float:
    """The margin after a call, the opponents answering as is worst for the seat: all passing,
    or (with doubling in the auction) doubling where they may."""
    if not doubling:
        return rollout(state, seat, play)
    return min(rollout(state.clone(), seat, play), rollout(state, seat, play, doubling=True))


def _rules(state: State) -> list[m.AuctionRule]:
    """The rules of the file's auctions."""
    return [r for st in statements_of(state.ruleset.rules) if isinstance(st, (m.Auction, m.TableAuction))
            for r in st.rules]
