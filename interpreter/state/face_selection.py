"""Card choices from a pack with copies (design 3.4, "Equal cards"): a choice of faces.

With ``copies N`` the cards of a face are equal, so which of them a seat lays away or
discards is no decision: :class:`FaceSelection` offers each multiset of faces once
(``discard KH KH`` takes both kings of hearts held), lazily, as :class:`Selection` offers
subsets. It counts the choices with a table over the faces (how many ways to choose k
cards from faces j and after), and ranks and unranks them in its listed order. A random
choice (``LegalActions.draw``) is uniform over what is offered: over multisets of faces.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from .actions import Action
from .legal import Selection


class FaceSelection(Selection):
    """Every choice of ``lo`` to ``hi`` of ``cards`` from a pack with copies (design 3.4), as
    ``verb`` actions naming faces, lazily: copies are equal cards, so a choice is a multiset of
    faces (``discard KH KH`` takes both kings of hearts held), each offered once.

    The faces are listed in the order of their first card in ``cards``; a choice is written
    with its faces in that order, a face as many times as it is chosen. Choices are listed
    by size, smallest first, each size in lexicographic order of the faces' positions (with
    one card of each face: the order of :class:`Selection`). ``unrank`` and ``rank`` read and
    give the cards themselves: a face chosen k times stands for its first k cards in ``cards``.

    >>> sel = FaceSelection("discard", (0, 1, 2, 4), 1, 2, ["KH", "KH", "QH", "QH", "JH"])
    >>> len(sel), [a.text for a in sel]
    (7, ['discard KH', 'discard QH', 'discard JH', 'discard KH KH', 'discard KH QH', 'discard KH JH', \
'discard QH JH'])
    >>> sel.find(("KH", "KH")), sel.unrank(3), sel.rank([0, 1]), sel.find(("QH", "QH"))
    (3, [0, 1], 3, -1)
    """

    __slots__ = ("faces", "held", "_ways")

    def __init__(self, verb: str, cards: tuple[int, ...], lo: int, hi: int, codes: Sequence[str]) -> None:
        self.verb = verb
        self.cards = cards
        self.lo = lo
        self.hi = hi
        self.codes = codes
        held: dict[str, list[int]] = {}
        for c in cards:
            held.setdefault(codes[c], []).append(c)
        self.faces: tuple[str, ...] = tuple(held)
        """The faces offered, in the order of their first card in ``cards``."""
        self.held: tuple[tuple[int, ...], ...] = tuple(tuple(v) for v in held.values())
        """The cards of each face, in listed order."""
        nf = len(self.faces)
        ways = [[0] * (hi + 1) for _ in range(nf + 1)]  # ways[j][k]: multisets of k cards of faces j..
        ways[nf][0] = 1
        for j in range(nf - 1, -1, -1):
            m = len(self.held[j])
            for k in range(hi + 1):
                ways[j][k] = sum(ways[j + 1][k - x] for x in range(min(m, k) + 1))
        self._ways = ways
        starts = []
        total = 0
        for k in range(lo, hi + 1):
            starts.append(total)
            total += ways[0][k]
        self.total = total
        self._starts = starts
        self._pos = None

    def _with(self, j: int, left: int, k: int) -> int:
        """How many choices of k cards from faces j.. take face j next (``left`` of its cards
        still free)."""
        if left < 1 or k < 1:
            return 0
        after = self._ways[j + 1]
        return sum(after[k - 1 - x] for x in range(min(left - 1, k - 1) + 1))

    def _faces_of(self, i: int) -> list[int]:
        """The face positions of the i-th choice (0 <= i < len), non-decreasing."""
        lo, starts = self.lo, self._starts
        k = lo
        while k < self.hi and i >= starts[k + 1 - lo]:
            k += 1
        i -= starts[k - lo]
        out: list[int] = []
        j, left = 0, len(self.held[0]) if self.held else 0
        while k:
            block = self._with(j, left, k)
            if i < block:
                out.append(j)
                left -= 1
                k -= 1
            else:
                i -= block
                j += 1
                left = len(self.held[j])
        return out

    def _rank_positions(self, positions: Sequence[int]) -> int:
        k = len(positions)
        i = self._starts[k - self.lo]
        j, left = 0, len(self.held[0]) if self.held else 0
        for p in positions:
            while j < p:
                i += self._with(j, left, k)
                j += 1
                left = len(self.held[j])
            left -= 1
            k -= 1
        return i

    def __getitem__(self, i: int) -> Action:
        total = self.total
        if i < 0:
            i += total
        if not 0 <= i < total:
            raise IndexError("selection index out of range")
        faces = self._faces_of(i)
        return Action(self.verb, tuple([self.faces[j] for j in faces]) if faces else ("none",))

    def unrank(self, i: int) -> list[int]:
        """The cards of the i-th choice (0 <= i < len), in listed order: of a face chosen k
        times, its first k cards."""
        out: list[int] = []
        last, n = -1, 0
        for j in self._faces_of(i):
            n = n + 1 if j == last else 0
            out.append(self.held[j][n])
            last = j
        return out

    def positions(self, args: Sequence[str]) -> list[int] | None:
        """The face positions an action names, or None unless they are offered faces in
        listed order, each at most as many times as its cards are offered, and as many as
        the bounds allow."""
        if list(args) == ["none"]:
            return [] if self.lo == 0 else None
        if not args or not self.lo <= len(args) <= self.hi:
            return None
        pos = self._pos
        if pos is None:
            pos = self._pos = {face: j for j, face in enumerate(self.faces)}
        out: list[int] = []
        last, n = -1, 0
        for code in args:
            j = pos.get(code, -1)
            if j < last or j < 0:
                return None
            n = n + 1 if j == last else 1
            if n > len(self.held[j]):
                return None
            out.append(j)
            last = j
        return out

    def rank(self, cards: Sequence[int]) -> int:
        """The index of the choice of these cards (listed cards, in listed order).

        Raises:
            ValueError: a card is not listed, or the cards are not in listed order.
        """
        listed = {c: j for j, c in enumerate(self.cards)}
        if any(c not in listed for c in cards):
            raise ValueError("a card that is not offered")
        if any(listed[b] <= listed[a] for a, b in zip(cards, cards[1:], strict=False)):
            raise ValueError("cards not in listed order")
        positions = self.positions([self.codes[c] for c in cards] or ["none"])
        if positions is None:
            raise ValueError("cards not in listed order")
        return self._rank_positions(positions)

    def __iter__(self) -> Iterator[Action]:
        for i in range(self.total):
            yield self[i]
