"""Worlds redealt in place: copies of a match's core with the hidden cards of the current
deal renamed where they lie (:meth:`interpreter.state.resample.Resampler.redealt_cores`,
for the search player's random rollouts).

A world here is no :class:`State` and is not replayed: a permutation ``sigma`` of the
hidden cards, drawn uniformly under the known cards and the exclusions the plays imply
(:class:`interpreter.state.matching.Matching`), puts ``sigma(x)`` wherever ``x`` lies now,
and a draw after which the pending decision differs is drawn again.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import ResampleError
from .matching import Matching

if TYPE_CHECKING:  # (the resampler's: a protocol of the state, not the state module)
    from .protocol import StateLike as State


def redealt_cores(state: State, seat: int, hidden: Iterable[str], excluded: Mapping[str, set[str]],
                  rng: random.Random, count: int, max_attempts: int) -> list[Any] | None:
    """``count`` copies of ``state``'s core in which the ``hidden`` cards (card codes; a
    card's ``excluded`` codes are the places it cannot be, as :class:`Matching` reads
    them) are redealt in place, each keeping the pending decision; None when a hidden card
    lies in no zone hidden from ``seat`` (the replay handles that). The cores log nothing
    and their later deals are reseeded from ``rng``.

    Raises:
        ResampleError: no draw kept the pending decision within ``max_attempts``.
    """
    g, c0 = state._g, state._c
    index = g.tables.index
    roles = [index[x] for x in hidden]
    zones = _hidden_places(state, seat, roles)
    if zones is None:
        return None
    matching = Matching(roles, {index[x]: {index[y] for y in ys} for x, ys in excluded.items() if ys})
    n = c0.deal_no + 1  # the next deal's index (see State.reseed)
    reseeds = {k: v for k, v in (c0.reseeds or {}).items() if k < n}
    out: list[Any] = []
    for _ in range(count):
        c = _redealt(g, c0, zones, matching, rng, max_attempts)
        if c is None:
            raise ResampleError(f"no deal consistent with seat {seat}'s pending decision was found in "
                                f"{max_attempts} draws")
        c.reseeds = {**reseeds, n: rng.randrange(2**31)}
        out.append(c)
    return out


def _hidden_places(state: State, seat: int, roles: list[int]) -> list[tuple[int, list[int]]] | None:
    """Each zone hidden from ``seat`` that holds one of the cards ``roles``, with its cards
    in order; None if one of those cards lies elsewhere."""
    zone_cards = state._g.m["zone_cards"]
    wanted = set(roles)
    zones: list[tuple[int, list[int]]] = []
    found: set[int] = set()
    for z in state._hidden_zones(seat):
        cards = zone_cards(state._c, z)
        mine = wanted.intersection(cards)
        if mine:
            zones.append((z, cards))
            found |= mine
    return zones if found == wanted else None


def _redealt(g: Any, c0: Any, zones: list[tuple[int, list[int]]], matching: Matching[int], rng: random.Random,
             max_attempts: int) -> Any | None:
    """One copy of core ``c0`` with the cards of ``zones`` renamed by a drawn permutation,
    advanced to its next decision, which must be the one pending in ``c0``; None if no
    draw in ``max_attempts`` keeps it."""
    m = g.m
    copy, set_zone, advance = m["copy"], m["set_zone"], m["advance"]
    dp, pending = c0.dp, pending_decision(g, c0)
    for _attempt in range(max_attempts):
        sigma = matching.draw(rng)
        c = copy(c0)
        c.rec = False
        for z, cards in zones:
            set_zone(c, z, [sigma.get(x, x) for x in cards])
        c.steps = 0
        advance(c)
        if c.dp == dp and not c.terminal and pending_decision(g, c) == pending:
            return c
    return None


def pending_decision(g: Any, c: Any) -> Any:
    """The decision pending in core ``c`` as a comparable value: its legal codes, or a
    card selection's cards and bounds."""
    if g.dps[c.dp].kind == "select":
        return c.sel_cards, c.sel_lo, c.sel_hi
    return list(g.legal_fns[c.dp](c))
