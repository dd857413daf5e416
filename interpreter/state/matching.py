"""Drawing a permutation uniformly under exclusions: the combinatorics of
:mod:`interpreter.state.resample`, which renames the hidden cards of a deal with it.

:func:`sample_matching` gives each role ``x`` a card ``sigma(x)`` never in
``excluded[x]``, each such permutation equally likely. It counts exactly over classes
of roles with the same exclusions and atoms of cards excluded by the same classes, so
that the work grows with the number of distinct constraints, not of cards; past
:data:`MAX_COUNTING_WORK` it falls back to rejection sampling.

>>> import random
>>> sigma = sample_matching(["a", "b", "c"], {"a": {"a"}, "b": {"b"}}, random.Random(1))
>>> sorted(sigma) == sorted(sigma.values()) == ["a", "b", "c"], sigma["a"] != "a", sigma["b"] != "b"
(True, True, True)
"""

from __future__ import annotations

import random
from math import comb
from typing import Generic, TypeVar

T = TypeVar("T", str, int)  # card codes or card indices

MAX_COUNTING_WORK = 200_000
"""Steps of exact counting allowed for one draw; beyond, plain rejection is used."""


def sample_matching(cards: list[str], excluded: dict[str, set[str]], rng: random.Random) -> dict[str, str]:
    """A uniformly random permutation sigma of ``cards`` with sigma(x) never in
    ``excluded[x]``: exact counting over classes of roles (same exclusions) and atoms of
    cards (excluded by the same classes)."""
    return Matching(cards, excluded).draw(rng)


class Matching(Generic[T]):
    """The counting of :func:`sample_matching` done once, for many draws under the same
    exclusions (a search player's worlds of one decision): each :meth:`draw` makes the
    draws that ``sample_matching(cards, excluded, rng)`` makes. The cards may be any
    hashable values (strings, card indices).
    """

    def __init__(self, cards: list[T], excluded: dict[T, set[T]]) -> None:
        self.cards: list[T] = cards
        self.excluded: dict[T, set[T]] = excluded
        classes: dict[frozenset[T], list[T]] = {}
        for x in cards:
            classes.setdefault(frozenset(excluded.get(x, ())), []).append(x)
        self.classes: dict[frozenset[T], list[T]] = classes
        self.keys: list[frozenset[T]] = sorted(classes, key=len, reverse=True)  # the most constrained first
        self.counter: _Counter | None = None
        self.rejection = False
        if len(classes) == 1:
            return
        atoms: dict[tuple[bool, ...], list[T]] = {}
        for y in cards:
            atoms.setdefault(tuple(y not in k for k in self.keys), []).append(y)
        self.atoms: list[list[T]] = [atoms[a] for a in atoms]
        self.sizes = tuple(len(a) for a in self.atoms)
        rows = [len(classes[k]) for k in self.keys]
        allowed = [[a[i] for a in atoms] for i in range(len(self.keys))]
        counter = _Counter(rows, allowed)
        try:
            counter.count(0, self.sizes)
        except _TooMuchWorkError:
            self.rejection = True
            return
        self.counter = counter
        self.options: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = {}

    def draw(self, rng: random.Random) -> dict[T, T]:
        """One permutation, uniformly among those allowed (see :func:`sample_matching`)."""
        cards, counter = self.cards, self.counter
        if counter is None:
            if self.rejection:
                return _sample_by_rejection(cards, self.excluded, rng)
            shuffled = list(cards)
            rng.shuffle(shuffled)
            return dict(zip(cards, shuffled, strict=True))
        sigma: dict[T, T] = {}
        pools = {j: list(atom) for j, atom in enumerate(self.atoms)}
        rem = self.sizes
        for i, k in enumerate(self.keys):
            options = self.options.get((i, rem))
            if options is None:
                options = self.options[i, rem] = [(v, w) for v in counter.vectors(i, rem)
                                                  if (w := counter.weight(i, rem, v))]
            pick = rng.randrange(sum(w for _, w in options))
            v = options[-1][0]
            for vector, w in options:
                if pick < w:
                    v = vector
                    break
                pick -= w
            chosen: list[T] = []
            for j, take in enumerate(v):
                if take:
                    got = rng.sample(pools[j], take)
                    chosen.extend(got)
                    pools[j] = [c for c in pools[j] if c not in got]
            rng.shuffle(chosen)
            sigma.update(zip(self.classes[k], chosen, strict=True))
            rem = tuple(r - t for r, t in zip(rem, v, strict=True))
        return sigma


class _TooMuchWorkError(Exception):
    pass


class _Counter:
    """Counts the ways to give each class of roles its cards, atom by atom."""

    def __init__(self, rows: list[int], allowed: list[list[bool]]) -> None:
        self.rows = rows
        self.allowed = allowed
        self.memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self.work = 0

    def vectors(self, i: int, rem: tuple[int, ...]) -> list[tuple[int, ...]]:
        """Ways to take rows[i] cards from the atoms class i may have."""
        out: list[tuple[int, ...]] = []
        allowed = self.allowed[i]
        m = len(rem)

        def walk(j: int, left: int, acc: list[int]) -> None:
            self.work += 1
            if self.work > MAX_COUNTING_WORK:
                raise _TooMuchWorkError
            if j == m:
                if left == 0:
                    out.append(tuple(acc))
                return
            top = min(left, rem[j]) if allowed[j] else 0
            for t in range(top + 1):
                acc.append(t)
                walk(j + 1, left - t, acc)
                acc.pop()

        walk(0, self.rows[i], [])
        return out

    def weight(self, i: int, rem: tuple[int, ...], v: tuple[int, ...]) -> int:
        ways = 1
        for r, t in zip(rem, v, strict=True):
            ways *= comb(r, t)
        return ways * self.count(i + 1, tuple(r - t for r, t in zip(rem, v, strict=True)))

    def count(self, i: int, rem: tuple[int, ...]) -> int:
        if i == len(self.rows):
            return 1
        key = (i, rem)
        got = self.memo.get(key)
        if got is None:
            got = sum(self.weight(i, rem, v) for v in self.vectors(i, rem))
            self.memo[key] = got
        return got


def _sample_by_rejection(cards: list[T], excluded: dict[T, set[T]], rng: random.Random) -> dict[T, T]:
    """Uniform permutations until one respects the exclusions (exact, maybe slow); then,
    as a last resort, a sequential draw (the most constrained role first, restarting at
    a dead end), which always ends but is only roughly uniform."""
    for _ in range(1000):
        shuffled = list(cards)
        rng.shuffle(shuffled)
        if all(y not in excluded.get(x, ()) for x, y in zip(cards, shuffled, strict=True)):
            return dict(zip(cards, shuffled, strict=True))
    order = sorted(cards, key=lambda x: -len(excluded.get(x, ())))
    while True:
        free = set(cards)
        sigma: dict[T, T] = {}
        for x in order:
            options = sorted(free - excluded.get(x, set()))
            if not options:
                break
            sigma[x] = y = rng.choice(options)
            free.discard(y)
        else:
            return sigma
