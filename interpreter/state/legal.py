"""The legal actions of a decision, as an immutable sequence that builds nothing up front.

A card selection (``discard 1..5``, ``rob to 6``) may offer thousands of subsets;
:class:`Selection` stands for all of them without building one: its length is a
sum of binomial coefficients, ``selection[i]`` unranks the i-th subset, and
``rank`` finds a subset's position from its cards. :class:`LegalActions` puts a
selection (if any) in front of the decision's other actions, in the fixed order
the interpreter has always used: subsets by size, smallest first, each size in
lexicographic order of the cards' positions (cards sorted trumps first, high first).

>>> from interpreter.state.actions import Action
>>> sel = Selection("discard", (0, 1, 2, 3), 1, 2, ["AS", "KS", "QS", "JS"])
>>> len(sel), sel[0].text, sel[4].text, sel[9].text
(10, 'discard AS', 'discard AS KS', 'discard QS JS')
>>> sel.rank([1, 2])
7
>>> legal = LegalActions((Action("pass"),), sel)
>>> len(legal), legal[-1].text, "discard KS QS" in legal, legal.index("discard KS QS")
(11, 'pass', True, 7)
>>> "discard QS KS" in legal      # cards in the listed order only (State.apply sorts what you type)
False
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from math import comb
from typing import Any, overload

from .actions import Action

_PASCAL_MAX = 64
_PASCAL = [[comb(n, k) for k in range(n + 1)] for n in range(_PASCAL_MAX + 1)]
"""Binomial coefficients ``_PASCAL[n][k]`` of the sizes card selections meet (unranking reads them)."""

class _Shape:
    """What the subsets of ``lo`` to ``hi`` of ``n`` cards look like, whichever the cards."""

    __slots__ = ("total", "starts", "listed")

    def __init__(self, n: int, lo: int, hi: int) -> None:
        starts = []
        total = 0
        for k in range(lo, hi + 1):
            starts.append(total)
            total += comb(n, k)
        self.total = total  # the number of subsets
        self.starts = starts  # the index of the first subset of each size
        self.listed: tuple[tuple[int, ...], ...] | None = None  # every subset's positions, once listed


_SHAPES: dict[tuple[int, int, int], _Shape] = {}
"""(cards, lo, hi) -> its :class:`_Shape` (bounded: the rules meet few shapes)."""

LIST_AT_MOST = 1024
"""A shape with at most this many subsets lists them once (a discard of 3 to 9 of 9 cards:
466), and a subset is then read from the list instead of being unranked."""

_LISTED_AT_MOST = 1 << 14
"""Subsets listed over every shape kept (under 2 MB); beyond, shapes are unranked."""
_listed = 0  # subsets listed, over every shape kept


def _shape(n: int, lo: int, hi: int) -> _Shape:
    global _listed
    if len(_SHAPES) >= 4096:  # a hostile file cannot grow it
        _SHAPES.clear()
        _listed = 0
    shape = _SHAPES[(n, lo, hi)] = _Shape(n, lo, hi)
    return shape


def _list(shape: _Shape, n: int, lo: int, hi: int) -> tuple[tuple[int, ...], ...] | None:
    """Every subset's positions, in listed order (when the shape is small, and the lists
    kept stay within their bound)."""
    global _listed
    if shape.total > LIST_AT_MOST or _listed + shape.total > _LISTED_AT_MOST:
        return None
    _listed += shape.total
    shape.listed = tuple(c for k in range(lo, hi + 1) for c in combinations(range(n), k))
    return shape.listed


BITS = bytes(n.bit_length() for n in range(256))
"""``n.bit_length()`` for the counts below 256 that the random step's inlined draw reads
(``getrandbits(BITS[n])`` until below ``n``: what :func:`randbelow` does)."""


GETRANDBITS = random.Random.getrandbits
"""``getrandbits`` of :class:`random.Random` itself (C), called with the generator: for a
plain ``Random``, ``GETRANDBITS(rng, k)`` is ``rng.getrandbits(k)`` without making a bound
method at every draw."""


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n > 0, the same draw: for a plain :class:`random.Random`
    its own steps inlined (those of ``Random._randbelow_with_getrandbits``), else by
    calling ``rng.randrange``.

    >>> a, b = random.Random(5), random.Random(5)
    >>> [randbelow(a, n) for n in (1, 2, 7, 52, 10**20)] == [b.randrange(n) for n in (1, 2, 7, 52, 10**20)]
    True
    """
    if type(rng) is not random.Random:
        return rng.randrange(n)
    k = n.bit_length()
    r = GETRANDBITS(rng, k)
    while r >= n:
        r = GETRANDBITS(rng, k)
    return r


def _unrank(cards: Sequence[int], lo: int, hi: int, starts: list[int], i: int) -> list[int]:
    """The cards of the i-th subset of ``lo`` to ``hi`` of ``cards`` (``starts``: the index
    of the first subset of each size), in listed order."""
    k = lo
    while k < hi and i >= starts[k + 1 - lo]:
        k += 1
    i -= starts[k - lo]
    n = len(cards)
    out: list[int] = []
    rows = _PASCAL if n <= _PASCAL_MAX else None  # beyond the table: comb() itself
    j = 0
    while k:
        block = rows[n - j - 1][k - 1] if rows is not None else comb(n - j - 1, k - 1)  # next member cards[j]
        if i < block:
            out.append(cards[j])
            k -= 1
        else:
            i -= block
        j += 1
    return out


def _chosen(cards: Sequence[int], lo: int, hi: int, shape: _Shape, i: int) -> list[int]:
    """The cards of the i-th subset (0 <= i < shape.total), in listed order: read from the
    shape's list when it is small enough to be listed, else unranked."""
    listed = shape.listed
    if listed is None and shape.total <= LIST_AT_MOST:
        listed = _list(shape, len(cards), lo, hi)
    if listed is not None:
        return [cards[j] for j in listed[i]]
    return _unrank(cards, lo, hi, shape.starts, i)


def chosen_action(verb: str, chosen: Sequence[int], codes: Sequence[str]) -> Action:
    """The action choosing these cards (in listed order; ``verb none`` for no card)."""
    return Action(verb, tuple([codes[k] for k in chosen]) if chosen else ("none",))


def draw_subset(rng: random.Random, verb: str, cards: Sequence[int], lo: int, hi: int, codes: Sequence[str],
                most: int) -> Action | None:
    """``Selection(verb, cards, lo, hi, codes)[randbelow(rng, len)]`` (the same draw, the same
    action) without making the selection; None, drawing nothing, when it holds more than
    ``most`` subsets (the caller lists them, and refuses them as too many).

    >>> a = draw_subset(random.Random(3), "discard", (4, 1, 7), 1, 2, "ABCDEFGH", 99)
    >>> b = Selection("discard", (4, 1, 7), 1, 2, "ABCDEFGH")[randbelow(random.Random(3), 6)]
    >>> a == b, a.text
    (True, 'discard B')
    """
    chosen = draw_chosen(rng, cards, lo, hi, most)
    return None if chosen is None else chosen_action(verb, chosen, codes)


def draw_chosen(rng: random.Random, cards: Sequence[int], lo: int, hi: int, most: int) -> list[int] | None:
    """The cards of the subset :func:`draw_subset` draws (the same draw), in listed order;
    None, drawing nothing, when there are more than ``most`` subsets."""
    shape = _SHAPES.get((len(cards), lo, hi))
    if shape is None:
        shape = _shape(len(cards), lo, hi)
    total = shape.total
    if total > most:
        return None
    return _chosen(cards, lo, hi, shape, randbelow(rng, total))


def listing(cache: dict[tuple[int, int, int], tuple[tuple[tuple[int, ...], ...], int]], n: int, lo: int,
            hi: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Every subset's positions of ``lo`` to ``hi`` of ``n`` cards, in listed order (as
    :class:`Selection` reads them), and their count's bit length (``randbelow``'s draw of
    an index); ``((), 0)`` when the shape is too large to be listed. Kept in ``cache``
    (a generated selection's own, bounded: cleared beyond 16 shapes).

    >>> listing({}, 3, 1, 2)
    (((0,), (1,), (2,), (0, 1), (0, 2), (1, 2)), 3)
    """
    shape = _SHAPES.get((n, lo, hi))
    if shape is None:
        shape = _shape(n, lo, hi)
    listed = shape.listed
    if listed is None and shape.total <= LIST_AT_MOST:
        listed = _list(shape, n, lo, hi)
    entry = (listed, len(listed).bit_length()) if listed is not None else ((), 0)
    if len(cache) >= 16:
        cache.clear()
    cache[(n, lo, hi)] = entry
    return entry


class Selection:
    """Every subset of ``cards`` with ``lo`` to ``hi`` members, as ``verb`` actions, lazily.

    ``cards`` are card indices in the order the subsets list them; ``codes`` maps a
    card index to its code. The empty subset is written ``verb none``.
    """

    __slots__ = ("verb", "cards", "lo", "hi", "codes", "total", "_starts", "_pos", "_shape", "read")

    def __init__(self, verb: str, cards: tuple[int, ...], lo: int, hi: int, codes: Sequence[str]) -> None:
        self.verb = verb
        self.cards = cards
        self.lo = lo
        self.hi = hi
        self.codes = codes
        shape = _SHAPES.get((len(cards), lo, hi))
        if shape is None:
            shape = _shape(len(cards), lo, hi)
        self._shape = shape
        self.total = shape.total
        self._starts = shape.starts  # the index of the first subset of each size
        self._pos: dict[str, int] | None = None  # code -> position in `cards`, built on first use
        self.read: tuple[Action, list[int]] | None = None
        """The action ``selection[i]`` last gave and its cards, in listed order (the state
        applies it without looking it up again)."""

    def __len__(self) -> int:
        return self.total

    def __getitem__(self, i: int) -> Action:
        total = self.total
        if i < 0:
            i += total
        if not 0 <= i < total:
            raise IndexError("selection index out of range")
        chosen = _chosen(self.cards, self.lo, self.hi, self._shape, i)
        action = chosen_action(self.verb, chosen, self.codes)
        self.read = (action, chosen)
        return action

    def chosen(self, i: int) -> list[int]:
        """The cards of the i-th subset (0 <= i < len), in listed order (as :meth:`unrank`)."""
        return _chosen(self.cards, self.lo, self.hi, self._shape, i)

    def action(self, combo: Sequence[int]) -> Action:
        """The action choosing these cards (given in listed order)."""
        codes = self.codes
        return Action(self.verb, tuple([codes[c] for c in combo]) if combo else ("none",))

    def unrank(self, i: int) -> list[int]:
        """The cards of the i-th subset (0 <= i < len), in listed order."""
        return _unrank(self.cards, self.lo, self.hi, self._starts, i)

    def positions(self, args: Sequence[str]) -> list[int] | None:
        """The positions of the cards an action names, or None unless they are listed
        cards, each once, in listed order, and as many as the bounds allow."""
        if list(args) == ["none"]:
            return [] if self.lo == 0 else None
        if not args or not self.lo <= len(args) <= self.hi:  # the empty choice is written 'none'
            return None
        pos = self._pos
        if pos is None:
            pos = self._pos = {self.codes[c]: j for j, c in enumerate(self.cards)}
        out: list[int] = []
        last = -1
        for code in args:
            j = pos.get(code, -1)
            if j <= last:
                return None
            out.append(j)
            last = j
        return out

    def rank(self, cards: Sequence[int]) -> int:
        """The index of the subset made of these cards (listed cards, in listed order).

        Raises:
            ValueError: a card is not listed, or the cards are not in listed order.
        """
        pos = {c: j for j, c in enumerate(self.cards)}
        try:
            positions = [pos[c] for c in cards]
        except KeyError:
            raise ValueError("a card that is not offered") from None
        if any(b <= a for a, b in zip(positions, positions[1:], strict=False)):
            raise ValueError("cards not in listed order")
        return self._rank_positions(positions)

    def _rank_positions(self, positions: Sequence[int]) -> int:
        n, k = len(self.cards), len(positions)
        i = self._starts[k - self.lo]
        j = 0
        for p in positions:
            while j < p:
                i += comb(n - j - 1, k - 1)
                j += 1
            j += 1
            k -= 1
        return i

    def find(self, args: Sequence[str]) -> int:
        """The index of the action with these arguments, or -1."""
        positions = self.positions(args)
        return -1 if positions is None else self._rank_positions(positions)

    def __iter__(self) -> Iterator[Action]:
        verb, codes = self.verb, self.codes
        for k in range(self.lo, self.hi + 1):
            for combo in combinations(self.cards, k):
                yield Action(verb, tuple(codes[c] for c in combo) if combo else ("none",))


class LegalActions(Sequence[Action]):
    """The legal actions of a state, in their fixed order: an immutable sequence.

    ``len``, indexing (also negative, and slices, which give a tuple), iteration,
    ``in`` and :meth:`index` (both accept an :class:`Action` or its exact text),
    :meth:`texts`. Equal to any sequence of the same actions (or texts) in the
    same order. Card selections are not built until asked for (see :class:`Selection`).
    """

    __slots__ = ("_items", "_sel", "_nsel", "_keyed")

    def __init__(self, items: tuple[Action, ...] = (), selection: Selection | None = None,
                 keyed: tuple[int, list[int]] | None = None) -> None:
        self._items = items
        self._sel = selection
        self._nsel = len(selection) if selection is not None else 0
        self._keyed = keyed  # (decision point, the local code of each item): the state's shortcut to apply one

    @property
    def explicit(self) -> tuple[Action, ...]:
        """The actions listed one by one (all but a card selection's), in order."""
        return self._items

    @property
    def selection(self) -> Selection | None:
        """The card selection these actions start with, if any."""
        return self._sel

    def plus(self, extra: Sequence[Action]) -> LegalActions:
        """These actions followed by ``extra`` (a new object: this one never changes)."""
        return LegalActions(self._items + tuple(extra), self._sel) if extra else self

    def __len__(self) -> int:
        return self._nsel + len(self._items)

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, i: int | slice) -> Action | tuple[Action, ...]:
        nsel = self._nsel
        if not nsel:  # no selection: the listed actions (a slice of them is a tuple too)
            return self._items[i]
        if isinstance(i, slice):
            return tuple(self[j] for j in range(*i.indices(len(self))))
        if i < 0:
            i += len(self)
        if 0 <= i < nsel:
            assert self._sel is not None
            return self._sel[i]
        if i < 0:
            raise IndexError("legal action index out of range")
        return self._items[i - nsel]

    def draw(self, rng: random.Random) -> Action:
        """``self[rng.randrange(len(self))]``, in one call (the random player's step).

        Raises:
            ValueError: there is no action to draw.
        """
        nsel = self._nsel
        n = nsel + len(self._items)
        if not n:
            raise ValueError("no legal action to draw")
        i = randbelow(rng, n)
        if i >= nsel:
            return self._items[i - nsel]
        assert self._sel is not None
        return self._sel[i]

    def __iter__(self) -> Iterator[Action]:
        if self._sel is not None:
            yield from self._sel
        yield from self._items

    def find(self, action: Action | str) -> int:
        """The index of an action (an :class:`Action` or its exact text), or -1."""
        if isinstance(action, Action):
            for j, a in enumerate(self._items):
                if a is action:
                    return self._nsel + j
            verb, args = action.verb, action.args
        elif isinstance(action, str):
            words = action.split()
            if not words:
                return -1
            verb, args = words[0], tuple(words[1:])
        else:
            return -1
        for j, a in enumerate(self._items):
            if a.verb == verb and a.args == args:
                return self._nsel + j
        sel = self._sel
        if sel is not None and verb == sel.verb:
            return sel.find(args)
        return -1

    def listed_key(self, action: object) -> int:
        """The state's log key of this very action object as listed here, when these
        actions were listed by code (else -1, as for an action not listed)."""
        keyed = self._keyed
        if keyed is not None:
            j = 0
            for a in self._items:
                if a is action:
                    return keyed[0] | (keyed[1][j] + 1) << 16  # (replay.key_of, inlined)
                j += 1
        return -1

    def __contains__(self, item: object) -> bool:
        return isinstance(item, (Action, str)) and self.find(item) >= 0

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of an action or its text.

        Raises:
            ValueError: it is not legal (or not within ``start:stop``).
        """
        i = self.find(value) if isinstance(value, (Action, str)) else -1
        if i < 0 or i < start or (stop is not None and i >= stop):
            raise ValueError(f"{value!r} is not a legal action")
        return i

    def count(self, value: Any) -> int:
        return 1 if value in self else 0

    def verbs(self) -> set[str]:
        """The verbs of these actions."""
        out = {a.verb for a in self._items}
        if self._sel is not None and self._nsel:
            out.add(self._sel.verb)
        return out

    def bare_verbs(self) -> set[str]:
        """The verbs that take no words after them (``stand``, ``pass``)."""
        return {a.verb for a in self._items if not a.args}

    def texts(self) -> list[str]:
        """The notation of each action, in order."""
        return [a.text for a in self]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions):
            return self._items == other._items and len(self) == len(other) and (
                self._sel is None or list(self) == list(other))
        if isinstance(other, (list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # compared like a list, so not hashable like one

    def __repr__(self) -> str:
        if len(self) > 12:
            shown = ", ".join(a.text for a in self[:10])
            return f"<LegalActions {shown}, ... ({len(self)} in all)>"
        return "<LegalActions " + ", ".join(a.text for a in self) + ">"


class SelectionActions(LegalActions):
    """The legal actions of a card selection alone (a plain decision to choose cards):
    ``legal[i]`` is the selection's, read without asking which part ``i`` falls in.

    >>> legal = SelectionActions((), Selection("discard", (0, 1, 2), 1, 1, ["AS", "KS", "QS"]))
    >>> len(legal), legal[1].text, legal[-1].text, legal[:2] == ("discard AS", "discard KS")
    (3, 'discard KS', 'discard QS', True)
    """

    __slots__ = ()

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, i: int | slice) -> Action | tuple[Action, ...]:
        sel = self._sel
        if type(i) is int and sel is not None:
            return sel[i]
        return super().__getitem__(i)


class PlayedCards(LegalActions):
    """Legal actions listed by local code (plays of cards, words, suits, declarations, bids): the
    codes in listed order and the decision's actions by code, read one by one (``legal[i]``
    is ``acts[codes[i]]``: the legal loop builds no tuple); the tuple of them is built only
    when the whole list is read.

    >>> acts = [Action("play", (code,), i) for i, code in enumerate(["AS", "KS", "QS"])]
    >>> legal = PlayedCards([2, 0], acts)
    >>> len(legal), legal[0].text, legal.texts(), legal == ["play QS", "play AS"]
    (2, 'play QS', ['play QS', 'play AS'], True)
    """

    __slots__ = ("_cards", "_acts")
    _sel = None  # no selection (these class values stand for the slots of LegalActions)
    _nsel = 0
    _keyed = None

    def __init__(self, cards: list[int], acts: Sequence[Action] | Mapping[int, Action]) -> None:  # no LegalActions.__init__
        self._cards = cards
        self._acts = acts

    def __getattr__(self, name: str) -> Any:
        if name == "_items":  # the slot is filled on first read
            items = self._items = tuple(map(self._acts.__getitem__, self._cards))
            return items
        raise AttributeError(name)

    def __len__(self) -> int:
        return len(self._cards)

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, i: int | slice) -> Action | tuple[Action, ...]:
        if type(i) is int:
            try:
                return self._acts[self._cards[i]]
            except IndexError:
                raise IndexError("legal action index out of range") from None
        return self._items[i]

    def draw(self, rng: random.Random) -> Action:
        cards = self._cards
        if not cards:
            raise ValueError("no legal action to draw")
        return self._acts[cards[randbelow(rng, len(cards))]]
