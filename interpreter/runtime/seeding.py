"""The randomness a seed gives: each deal's pack, the first dealer, the chance draws.

Every random thing the runtime does on its own (automatic chance) is derived from the
match's seed and what the draw is for, by one function of the standard library that
gives the same bytes on every platform: SHAKE-256 (:func:`hashlib.shake_256`) of a short
text key, read as unsigned 64-bit words, little-endian. The keys:

* ``"SEED/deal/N"``: the pack of deal N (0 for the first), see :func:`deal_order`;
* ``"SEED/first-dealer"``: the first dealer when it is random, see :func:`first_dealer`;
* ``"SEED/chance/N/K"``: the K-th random remedy of deal N (``move 2 at random``, ``cut``),
  see :func:`sample` and :func:`below`.

Each draw reads only its own key, so deal N's pack is known without replaying the deals
before it (prearranged decks, reseeded deals, explicit chance and the resampler rely on
it), and the same seed gives the same match on every machine and Python version.

How a word becomes a draw:

* a permutation of n items sorts ``range(n)`` by n words (the i-th item's key is the i-th
  word): every order is equally likely, except that two equal 64-bit words (a chance of
  about n²/2**65, under 1e-16 for a pack of 104 cards) keep their items in index order;
* a number below n is ``word * n >> 64`` (the top bits of the product, Lemire's
  multiply-shift): each value has probability within n/2**64 of 1/n.

Measured on the development machine, a 32-card pack costs ~3.6 µs (the digest ~1.2 µs,
the sort the rest), against ~8.7 µs for seeding a :class:`random.Random` from the same
text (~4.8 µs) and shuffling with it.

>>> words("7/deal/0", 2) == [int.from_bytes(hashlib.shake_256(b"7/deal/0").digest(16)[i:i + 8], "little")
...                          for i in (0, 8)]
True
>>> sorted(deal_order(7, 0, 32)) == list(range(32))
True
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_NATIVE_WORDS = array("Q").itemsize == 8
"""Whether ``array('Q')`` holds 64-bit words here (it does on every CPython platform known)."""
_SWAP = sys.byteorder != "little"
"""Whether the machine's byte order is big-endian (the words are read little-endian)."""
_shake = hashlib.shake_256


def words(key: str, n: int) -> list[int]:
    """The first ``n`` unsigned 64-bit words of SHAKE-256 of ``key`` (UTF-8), little-endian."""
    data = hashlib.shake_256(key.encode()).digest(8 * n)
    if not _NATIVE_WORDS:  # no such CPython platform known (tested by pretending)
        return [int.from_bytes(data[i:i + 8], "little") for i in range(0, 8 * n, 8)]
    out = array("Q", data)
    if _SWAP:  # pragma: no cover - big-endian machines only
        out.byteswap()
    return out.tolist()


def permutation(key: str, n: int) -> list[int]:
    """A random order of ``range(n)`` drawn from ``key``: the indices sorted by their words.

    >>> w = words("k", 3)
    >>> permutation("k", 3) == sorted(range(3), key=lambda i: w[i])
    True
    """
    if n < 2:
        return list(range(n))
    keys = words(key, n)
    return sorted(range(n), key=keys.__getitem__)


def below(key: str, n: int) -> int:
    """A number in ``range(n)`` (n > 0) drawn from ``key``: its first word times n, shifted down 64 bits."""
    return words(key, 1)[0] * n >> 64


def sample(key: str, population: Sequence[T], k: int) -> list[T]:
    """``k`` distinct members of ``population`` (0 <= k <= its length) drawn from ``key``, in
    the order drawn: the first k of a :func:`permutation` of it."""
    return [population[i] for i in permutation(key, len(population))[:k]]


def deal_order(seed: int, deal_no: int, size: int) -> list[int]:
    """The pack of deal ``deal_no`` (0 for the first) shuffled from ``seed``: a permutation
    of the card indices ``range(size)``, as laid out (the top card last). It is
    ``permutation(f"{seed}/deal/{deal_no}", size)``, written out (one call a deal, not three).
    """
    if not _NATIVE_WORDS:  # no such CPython platform known (tested by pretending)
        return permutation(f"{seed}/deal/{deal_no}", size)
    keys = array("Q", _shake(b"%d/deal/%d" % (seed, deal_no)).digest(8 * size))  # the key's text, as bytes
    if _SWAP:  # pragma: no cover - big-endian machines only
        keys.byteswap()
    return sorted(range(size), key=keys.tolist().__getitem__)


def first_dealer(seed: int, players: int) -> int:
    """The first dealer drawn from ``seed`` when the rules make it random:
    ``below(f"{seed}/first-dealer", players)``, written out."""
    return int.from_bytes(_shake(b"%d/first-dealer" % seed).digest(8), "little") * players >> 64


def chance_key(seed: int, deal_no: int, k: int) -> str:
    """The key of the ``k``-th random remedy (counted from 1) of deal ``deal_no``."""
    return f"{seed}/chance/{deal_no}/{k}"
