"""A generic contract evaluator: how the heuristic player bids in an auction over a bid table,
and chooses a contract (design 3.7; issue 28, section 5.2 "Game steps").

For each call it considers, the evaluator looks at deals resampled from what the seat knows
(:class:`~interpreter.state.resample.Resampler`: the hidden cards redealt), makes the call in
each, lets the others pass where they may (else make their lowest call), and plays the rest
of the deal out with the heuristic's own card play; a call is worth the seat's side's score
gained, against the others. It knows nothing of any game: the rule file's scoring says what
a contract is worth, made or set. Where the auction has ``double and redouble``, a call is
valued at the worse of the others all passing and the seat's opponents doubling where they
may (the doubled deal played as the undoubled one was), so doubled undertricks count.

- **The others' calls.** The deals drawn are those that fit what the others have shown this
  deal, where enough do (:func:`fits`): a seat that bid or doubled holds at least an average
  hand by a high-card count the same for any pack, one that passed before anyone bid at
  most a little more.
- **Rounds.** Every call is first played out on :data:`SAMPLES` deals; then only the best
  few (:data:`KEEP`) and passing are played out on more deals, as many as :data:`BUDGET`
  allows, up to :data:`ROUNDS` rounds.
- **No climbing.** Once the seat's side has made the last :data:`RAISES` bids of an auction
  with no opposing bid between (the others have only passed or doubled), it bids no more:
  it has learnt nothing new about the deal since.
- **Against passing.** A call other than passing is made only if its gain over passing on
  the same deals is positive by more than :data:`CAUTION` standard errors (:func:`pick`):
  the best of many calls each weighed on a few deals is otherwise often merely the
  luckiest, and an auction of such calls climbs.

The calls considered are ``pass``, ``double``, ``redouble`` and ``hold`` where legal, and,
for each strain of the table, its lowest :data:`LEVELS` legal bids (a table of named bids or
numbers: its lowest legal bids, as many). The heuristic player also weighs a choice
that selects a contract this way (``options``: every option, without a reference call).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import cast

from tricklang import model as m
from tricklang.walk import statements_of

from ..errors import ResampleError
from ..state.actions import Action
from ..state.resample import Resampler
from ..state.state import State

SAMPLES = 3
"""Deals resampled per round: every call weighed is played out on the same deals."""
ROUNDS = 3
"""Rounds of sampling: after each, all but the :data:`KEEP` best calls (and passing) are
dropped and those left are played out on more deals (up to ``2 * SAMPLES`` a round)."""
KEEP = 3
"""Calls kept after a round, besides the reference call (passing)."""
BUDGET = 24_000
"""The most rollout actions a later round may take: up to twice :data:`SAMPLES` deals each
when playing them out is cheap, fewer when it is dear."""
CAUTION = 1.0
"""Standard errors a call's gain over passing must exceed (see :func:`pick`)."""
LEVELS = 3
"""Legal bids considered per strain, from the lowest."""
RAISES = 2
"""Bids in a row by one side, no opposing bid between, after which it bids no more (see
:func:`candidates`)."""
DRAWS = 6
"""Deals drawn per deal kept, to find some that fit the others' calls (see :func:`fits`)."""
MAX_ROLLOUT = 2_000
"""The most actions a rollout takes before it is scored as it stands."""


def candidates(state: State, legal: Sequence[Action]) -> list[Action]:
    """The calls worth weighing (see the module docstring), in the order listed: no bid at
    all once the seat's side has made the last :data:`RAISES` bids of the auction
    (:func:`_capped`)."""
    table = {b.code.upper(): b for b in state.game.layout.bid_table}
    kept: list[Action] = []
    per_strain: dict[str, int] = {}
    capped = _capped(state)
    for a in legal:
        if a.verb != "bid":
            kept.append(a)
            continue
        if capped:
            continue
        entry = table.get(a.args[0].upper()) if a.args else None
        strain = entry.strain if entry is not None and entry.level else ""
        per_strain[strain] = per_strain.get(strain, 0) + 1
        if per_strain[strain] <= LEVELS:
            kept.append(a)
    return kept


def _capped(state: State) -> bool:
    """Whether the seat's side has made the last :data:`RAISES` bids of this deal's auction
    (over a bid table, where passes and doubles are calls: ``kind == "auction"``), with no
    opposing bid between: it then weighs no bid, only passing and the other calls. Nothing
    but doubles has come from the others since, so another raise would rest on the same
    deals as the last, and a side escaping a double would otherwise climb."""
    seat = state.current_player
    decision = state.decision
    if seat is None or decision is None or decision.kind != "auction":
        return False
    own = next(members for members in state.sides if seat in members)
    events = state.events(seat, types={"deal", "bid"})
    start = max((i for i, e in enumerate(events) if e["type"] == "deal"), default=-1) + 1
    bids = [e.get("player") for e in events[start:] if e["type"] == "bid"]
    return len(bids) >= RAISES and all(p in own for p in bids[-RAISES:])


def side_margin(state: State, seat: int) -> float:
    """The seat's side's score less the mean of the other sides'."""
    scores = state.scores
    sides = state.sides
    own = next(k for k, members in enumerate(sides) if seat in members)
    others = [scores[k] for k in range(len(scores)) if k != own]
    return scores[own] - (sum(others) / len(others) if others else 0.0)


def rollout(state: State, seat: int, play: Callable[[State], Action], doubling: bool = False,
            replay: list[Action] | None = None) -> tuple[float, int, list[Action]]:
    """Play the deal in progress out (others pass in the auction where they may, else make
    their lowest call; with ``doubling`` the seat's opponents double where they may;
    everything else by ``play``, or by ``replay``'s actions in turn while they are legal):
    the seat's side's margin gained, the actions taken, and those taken after the auction."""
    before = side_margin(state, seat)
    deal = state.deal_number
    own = next(members for members in state.sides if seat in members)
    steps = 0
    after: list[Action] = []
    while steps < MAX_ROLLOUT and not state.is_terminal() and state.deal_number == deal:
        steps += 1
        decision = state.decision
        if decision is not None and decision.kind in ("auction", "bid"):
            legal = state.legal_actions()
            if doubling and "double" in legal and state.current_player not in own:
                state.apply("double")
            else:
                state.apply("pass" if "pass" in legal else legal[0])
            continue
        action = replay[len(after)] if replay is not None and len(after) < len(replay) else None
        if action is None or action not in state.legal_actions():
            replay, action = None, play(state)
        state.apply(action)
        after.append(action)
    return side_margin(state, seat) - before, steps, after


def choose(state: State, legal: Sequence[Action], play: Callable[[State], Action], rng: random.Random,
           options: Sequence[Action] | None = None) -> Action:
    """The call the evaluator makes (see the module docstring): ``options`` (default: the
    :func:`candidates` among ``legal``) weighed on resampled deals, in rounds; ``legal[0]``
    when no deal consistent with what the seat knows can be drawn. ``play`` plays
    everything in a rollout but the auction's calls, and must not call :func:`choose`."""
    seat = state.current_player
    assert seat is not None
    weighed = list(options) if options is not None else candidates(state, legal)
    if len(weighed) == 1:
        return weighed[0]
    try:
        sampler = Resampler(state, seat, rng)
        calls = _calls(state, seat)
        strength = _Strength(state)
    except ResampleError:
        return legal[0]
    doubling = any(r.kind == "double" for r in _rules(state))
    reference = next((a for a in weighed if a.verb == "pass"), None)
    values: dict[Action, list[float]] = {a: [] for a in weighed}
    alive = list(weighed)
    cost = 0
    for round_ in range(ROUNDS):
        count = SAMPLES
        if round_:  # more deals for the few calls left, as many as the budget allows
            per_deal = cost / (len(weighed) * SAMPLES)
            count = max(1, min(2 * SAMPLES, int(BUDGET / max(1.0, per_deal * len(alive)))))
        try:
            deals = _draw(sampler, calls, strength, count, rng)
        except ResampleError:
            if round_ == 0:
                return legal[0]
            break
        spent = 0
        for deal in deals:
            for option in alive:
                s = deal.clone()
                s.apply(option)
                value, steps = _worst(s, seat, play, doubling)
                values[option].append(value)
                spent += steps
        if round_ == 0:
            cost = spent
        ranked = sorted(alive, key=lambda a: -_score(values[a], values.get(reference) if reference else None))
        alive = ranked[:KEEP] + ([reference] if reference is not None and reference not in ranked[:KEEP] else [])
        if len(alive) == 1:
            break
    return pick(weighed, values, reference)


def pick(options: Sequence[Action], values: dict[Action, list[float]], reference: Action | None) -> Action:
    """The call with the best score (:func:`_score`) among those weighed on the most deals:
    with a reference call (passing), a call's gain over it on the same deals, less
    :data:`CAUTION` standard errors of that gain, so that a call that looks better on a few
    lucky deals is not made (the reference itself scores 0); without one, the mean margin.
    Ties go to the earlier call."""
    most = max(len(values[a]) for a in options)
    finalists = [a for a in options if len(values[a]) == most]
    if reference is not None and len(values[reference]) < most:
        finalists.append(reference)
    base = values[reference] if reference is not None else None
    return max(finalists, key=lambda a: _score(values[a], base[:len(values[a])] if base is not None else None))


def _score(values: list[float], base: list[float] | None) -> float:
    """A call's score from its margins (and the reference's on the same deals): see :func:`pick`."""
    if base is None:
        return sum(values) / len(values)
    gains = [v - b for v, b in zip(values, base, strict=False)]
    n = len(gains)
    mean = sum(gains) / n
    if not any(gains):
        return 0.0
    # The worst deal counted twice: a spread is assumed even where the few deals show none.
    spread = gains + [min(gains)]
    mu = sum(spread) / len(spread)
    var = sum((g - mu) ** 2 for g in spread) / (len(spread) - 1)
    return float(mean - CAUTION * (var / n) ** 0.5)


def _worst(state: State, seat: int, play: Callable[[State], Action], doubling: bool) -> tuple[float, int]:
    """The margin after a call, the opponents answering as is worst for the seat: all passing,
    or (with doubling in the auction) doubling where they may; and the actions decided. The
    doubled deal is played as the undoubled one was (the card play does not read the score)."""
    value, steps, after = rollout(state.clone() if doubling else state, seat, play)
    if not doubling:
        return value, steps
    doubled, _, _ = rollout(state, seat, play, doubling=True, replay=after)
    return min(value, doubled), steps


class _Strength:
    """A hand's high-card strength, the same measure for any pack: each card counts its
    places from the bottom of its suit's top four (4 for the highest, 1 for the fourth;
    without trumps); and the mean over the hands."""

    def __init__(self, state: State) -> None:
        ranks = max(1, len(state.cards) // max(1, len(state.suits)))
        self.points = {c: max(0, state.card_strength(c, False) - (ranks - 4)) for c in state.cards}
        self.mean = sum(self.points.values()) / max(1, state.player_count)

    def __call__(self, hand: Sequence[str]) -> int:
        return sum(self.points.get(c, 0) for c in hand)


def _calls(state: State, seat: int) -> dict[int, str]:
    """What the others have shown in this deal's auction, as the seat saw it: ``bid`` for a
    seat that has bid or doubled, ``pass`` for one that passed before anyone bid."""
    events = state.events(seat, types={"deal", "bid", "pass", "double", "redouble"})
    start = max((i for i, e in enumerate(events) if e["type"] == "deal"), default=-1) + 1
    shown: dict[int, str] = {}
    opened = False
    for e in events[start:]:
        p = e.get("player")
        if not isinstance(p, int) or p == seat:
            opened = opened or e["type"] != "pass"
            continue
        if e["type"] in ("bid", "double", "redouble"):
            shown[p] = "bid"
            opened = True
        elif not opened and p not in shown:
            shown[p] = "pass"
    return shown


def fits(world: State, calls: dict[int, str], strength: _Strength) -> int:
    """How many of the others' calls a sampled deal contradicts: a seat that bid or doubled
    is taken to hold at least an average hand, one that passed before anyone bid at most a
    little over one (a sixth more)."""
    misses = 0
    for p, shown in calls.items():
        h = strength(world.hand(p))
        if shown == "bid" and h < strength.mean or shown == "pass" and h > strength.mean * 7 / 6:
            misses += 1
    return misses


def _draw(sampler: Resampler, calls: dict[int, str], strength: _Strength, count: int,
          rng: random.Random) -> list[State]:
    """``count`` resampled deals, those that fit the others' calls (:func:`fits`) first, from
    up to :data:`DRAWS` times as many draws.

    Raises:
        ResampleError: no consistent deal could be drawn.
    """
    if not calls:
        return [cast("State", sampler.sample(rng)) for _ in range(count)]
    drawn: list[tuple[int, int, State]] = []
    for i in range(count * DRAWS):
        world = cast("State", sampler.sample(rng))
        drawn.append((fits(world, calls, strength), i, world))
        if sum(1 for m, _, _ in drawn if m == 0) >= count:
            break
    drawn.sort(key=lambda t: (t[0], t[1]))
    return [w for _, _, w in drawn[:count]]


def _rules(state: State) -> list[m.AuctionRule]:
    """The rules of the file's auctions."""
    return [r for st in statements_of(state.ruleset.rules) if isinstance(st, (m.Auction, m.TableAuction))
            for r in st.rules]
