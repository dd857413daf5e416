"""The card model of a rule file: card codes, what a card pattern matches under each
trump, trick strength, and what the point cards are worth.

Cards are small integers (their index in deck order). Everything that depends on
the trump suit (effective suit, strength in a trick, pattern matches, point
values) is precomputed for each possible trump (every suit, and "no trump"), so
that play never re-reads the rule file. The lints, the runtime's card tables and
the static bounds all read cards through this one model.

>>> import tricklang
>>> model = CardModel(tricklang.load("rules/ecarte.trick").rules.deck)
>>> model.codes[:3], model.size
(['KS', 'QS', 'JS'], 32)
"""

from __future__ import annotations

from collections.abc import Callable

from . import model as m

NO_TRUMP = -1
"""The trump of a deal without trumps."""


NO_SUIT = -1
"""The suit of an extra card (``card joker "JK"``): it is in no suit."""


def suit_codes(deck: m.Deck) -> list[str]:
    """Each suit's code, in deck order: its own (``atouts "T" special``), else its first letter."""
    return [(s.code or s.name[0]).upper() for s in deck.suits]


def own_ranks(deck: m.Deck) -> dict[str, tuple[str, ...]]:
    """The suits with ranks of their own (French Tarot's ``ranks in atouts 21 20 ... 1``): a deck
    line ``ranks in SUIT`` whose ranks are not the deck's ranks in some order (a line that is only
    reorders the suit, see :meth:`CardModel._plain`); a suit's first such line."""
    suits = {s.name for s in deck.suits}
    ranks = sorted(deck.ranks)
    out: dict[str, tuple[str, ...]] = {}
    for line in deck.suit_ranks:
        if line.scope in suits and sorted(line.ranks) != ranks:
            out.setdefault(line.scope, line.ranks)
    return out


def suit_rank_lists(deck: m.Deck) -> list[tuple[str, ...]]:
    """Each suit's ranks, high to low, in deck order: its own, else the deck's ``ranks``."""
    own = own_ranks(deck)
    return [own.get(s.name, deck.ranks) for s in deck.suits]


def all_ranks(deck: m.Deck) -> list[str]:
    """Every rank of the deck: its ``ranks`` line, then each rank that only a suit with ranks of its
    own has, in the order first written (Tarot: K Q C J 10 ... 1, then 21 20 ... 11)."""
    return list(dict.fromkeys([*deck.ranks, *(r for ranks in own_ranks(deck).values() for r in ranks)]))


def rank_codes(deck: m.Deck) -> list[str]:
    """Each rank's code, in the order of :func:`all_ranks`: its own (``Ober "O"``), else the rank as
    written."""
    own = dict(deck.rank_codes)
    return [own.get(r, r) for r in all_ranks(deck)]


def card_codes(deck: m.Deck) -> list[str]:
    """Card codes (rank code then suit code: ``KS``, ``10H``, ``21T``) of every suit and its ranks, in
    deck order, before any ``remove`` (see :attr:`CardModel.codes` for the cards of the pack)."""
    code = dict(zip(all_ranks(deck), rank_codes(deck), strict=True))
    return [code[rank] + suit for suit, ranks in zip(suit_codes(deck), suit_rank_lists(deck), strict=True)
            for rank in ranks]


_MAX_FACES_READ = 4096
"""A larger deck (one the checker refuses) is not built to count its removed cards."""


def deck_size(deck: m.Deck) -> int:
    """How many cards the pack holds, counting copies: suits x ranks, less the removed cards,
    plus the extra cards, times ``copies``. A deck whose ``remove`` lines cannot be read (one
    the checker refuses) counts as if nothing were removed."""
    faces = sum(len(ranks) for ranks in suit_rank_lists(deck)) + len(deck.extra_cards)
    if deck.removed and faces <= _MAX_FACES_READ:
        try:
            return CardModel(deck).size
        except (ValueError, IndexError, TypeError):
            pass
    return faces * (deck.copies or 1)


class CardModel:
    """Lookup tables for one deck; see the module docstring.

    The pack is a list of *faces* (every suit's ranks less the removed cards, then the extra
    cards, which are in :data:`NO_SUIT`); with ``copies N`` each face is N equal cards, the
    cards ``N*f .. N*f+N-1`` of face ``f`` (:attr:`face`), with equal rows in every table.
    :attr:`codes` has one code per card (a face's code for each of its copies) and
    :attr:`index` maps a code to the first card of its face.

    Raises:
        ValueError: a ``remove`` pattern names a word that is not a rank, suit or colour.
    """

    def __init__(self, deck: m.Deck, points: tuple[m.PointCard, ...] = (), orders: tuple[m.Order, ...] = ()) -> None:
        self.suit_names = [s.name for s in deck.suits]
        self.suit_letters = suit_codes(deck)
        self.colours = [s.colour for s in deck.suits]
        self.ranks = all_ranks(deck)
        self.extra_names = [x.name for x in deck.extra_cards]
        self.copies = deck.copies or 1
        self.nsuits = len(self.suit_names)
        # Each suit's ranks (indices into self.ranks), high to low: the deck's, or its own.
        at = {r: k for k, r in enumerate(self.ranks)}
        self.own = own_ranks(deck)
        self.suit_ranks = [[at[r] for r in ranks] for ranks in suit_rank_lists(deck)]
        grid = [(s, r) for s in range(self.nsuits) for r in self.suit_ranks[s]]
        if deck.removed:
            grid = self._kept(deck, grid)
        n = self.copies
        extras = len(self.extra_names)
        faces = grid + [(NO_SUIT, -1)] * extras
        codes = rank_codes(deck)
        self.face_codes = [codes[r] + self.suit_letters[s] for s, r in grid] + [x.code for x in deck.extra_cards]
        self.face = [f for f in range(len(faces)) for _ in range(n)]
        self.size = len(self.face)
        self._card_of = {sr: f * n for f, sr in enumerate(grid)}
        self.codes = [self.face_codes[f] for f in self.face]
        self.index = {code: f * n for f, code in enumerate(self.face_codes)}
        self.suit = [faces[f][0] for f in self.face]
        # Plain strength: higher is better. Ranks are listed high to low; an extra card has none.
        self.rank = [faces[f][1] for f in self.face]
        self.extra = [f - len(grid) if f >= len(grid) else -1 for f in self.face]
        # Order indices: each suit as trumps, then no trump (nsuits), then each named order
        # (nsuits + 1 + k, which is also the pseudo-suit of its trump group); a trick's led
        # suit ranges over the suits and, with named orders, over every order index.
        self.order_names = [o.name for o in orders]
        self.nt = self.nsuits + 1 + len(orders)
        # An extra card outside a trump group is in a pseudo-suit of its own, ``nt + x`` for
        # extra card ``x``, which no other card follows (design 3.4): a led suit then also
        # ranges over those.
        self.nled = self.nt + extras if orders or extras else self.nsuits
        self.home = [self.nt + self.extra[c] if self.suit[c] == NO_SUIT else self.suit[c] for c in range(self.size)]
        self.plains = [self._plain(deck.suit_ranks)] * (self.nsuits + 1)
        self.plains += [self._plain((*deck.suit_ranks, *o.ranks)) for o in orders]
        self.plain = self.plains[0]
        self.trump_suit = [*range(self.nsuits), NO_TRUMP]
        self.trump_suit += [self.nsuits + 1 + k if o.trumps is not None else NO_TRUMP for k, o in enumerate(orders)]
        self.eff_suit: list[list[int]] = []
        self._build_trumps(deck)
        self._build_named(orders)
        self._build_orders()
        self._build_power()
        self._build_points(points)

    def _kept(self, deck: m.Deck, grid: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The cards of ``grid`` that no ``remove`` pattern matches (read with no trump)."""
        extras = len(self.extra_names)
        self.size = len(grid) + extras
        self.suit = [s for s, _ in grid] + [NO_SUIT] * extras
        self.rank = [r for _, r in grid] + [-1] * extras
        self.extra = [-1] * len(grid) + list(range(extras))
        self.eff_suit = [self.suit] * (self.nsuits + 1)
        tests = [self.pattern(p) for p in deck.removed]
        return [sr for c, sr in enumerate(grid) if not any(test(c, NO_TRUMP) for test in tests)]

    def card(self, suit: int, rank: int) -> int | None:
        """The (first) card of a suit and rank (indices), or None if the pack has no such card."""
        return self._card_of.get((suit, rank))

    def copies_of(self, card: int) -> range:
        """Every card of the face of ``card`` (itself alone without ``copies``)."""
        first = self.face[card] * self.copies
        return range(first, first + self.copies)

    def _build_trumps(self, deck: m.Deck) -> None:
        """Effective suits and trump strengths, per trump index."""
        # Per trump suit t (index t; the last entry, index nsuits, is "no trump").
        self.eff_suit = []
        self.trump_strength: list[list[int]] = []
        for t in range(self.nsuits + 1):
            trump = t if t < self.nsuits else NO_TRUMP
            eff = list(self.home)
            strength = [0] * self.size
            if trump != NO_TRUMP:
                order = self._trump_order(deck, trump)
                faces = list(dict.fromkeys(self.face[card] for card in order))  # equal cards, equal strength
                place = {f: len(faces) - pos for pos, f in enumerate(faces)}
                for card in order:
                    eff[card] = trump
                    strength[card] = place[self.face[card]]
            self.eff_suit.append(eff)
            self.trump_strength.append(strength)

    def _plain(self, lines: tuple[m.SuitRanks, ...]) -> list[int]:
        """Plain strengths (higher is better): the deck's rank order, unless a `ranks` line
        (for every suit, or `in` a suit or a colour; later lines win) reorders a suit."""
        # (An extra card has no rank: 1 wins its own pseudo-suit. A suit with ranks of its own is
        # ordered by them, and reordered only by a line naming it that lists them.)
        plain = [len(self.suit_ranks[s]) - self.suit_ranks[s].index(r) if s != NO_SUIT else 1
                 for s, r in zip(self.suit, self.rank, strict=True)]
        for line in lines:
            for c in range(self.size):
                s = self.suit[c]
                if s == NO_SUIT or line.scope not in ("", self.suit_names[s], self.colours[s]):
                    continue
                own = self.own.get(self.suit_names[s])
                if own is not None and (line.scope != self.suit_names[s] or sorted(line.ranks) != sorted(own)):
                    continue
                if self.ranks[self.rank[c]] in line.ranks:
                    plain[c] = len(line.ranks) - line.ranks.index(self.ranks[self.rank[c]])
        return plain

    def trump_arg(self, ti: int) -> int:
        """The ``trump`` argument of a pattern test under order index ``ti``: the suit, NO_TRUMP
        for no trump, the order index itself for a named order."""
        return NO_TRUMP if ti == self.nsuits else ti

    def _build_named(self, orders: tuple[m.Order, ...]) -> None:
        """Effective suits and trump strengths of the named orders (index nsuits + 1 + k): the
        cards of a trump group belong to its pseudo-suit, high to low as listed."""
        for k, o in enumerate(orders):
            ti = self.nsuits + 1 + k
            eff = list(self.home)
            strength = [0] * self.size
            group = self.group(o.trumps or (), ti)
            faces = list(dict.fromkeys(self.face[card] for card in group))  # equal cards, equal strength
            for card in group:
                eff[card] = ti
                strength[card] = len(faces) - faces.index(self.face[card])
            self.eff_suit.append(eff)
            self.trump_strength.append(strength)

    def group(self, items: tuple[str | m.Pattern, ...], ti: int) -> list[int]:
        """The cards of an order's trump group, high to low: a rank word is every card of
        that rank, a suit word the cards of that suit (high first), a pattern the cards it
        matches (deck order); a card listed again keeps its first place.

        Raises:
            ValueError: a word or pattern naming no rank, suit or colour of the deck.
        """
        out: list[int] = []
        for item in items:
            test = self.pattern(m.PatWord.model_construct(word=item, span=m.NO_SPAN) if isinstance(item, str) else item)
            found = [c for c in range(self.size) if test(c, NO_TRUMP)]
            if isinstance(item, str) and item in self.suit_names:
                found.sort(key=lambda c: -self.plains[ti][c])
            out.extend(c for c in found if c not in out)
        return out

    def _build_orders(self) -> None:
        """Positions of the cards in a sorted hand, per trump index."""
        # order[t][card]: position of the card when a hand is sorted by suit
        # (trumps first) and strength (high first), for each trump index t.
        self.order: list[list[int]] = []
        for t in range(self.nt):
            trump = self.trump_arg(t)
            keys = sorted(range(self.size), key=lambda c: self.sort_key(c, trump))
            rank_of = [0] * self.size
            for pos, c in enumerate(keys):
                rank_of[c] = pos
            self.order.append(rank_of)

    def _build_power(self) -> None:
        """Trick strengths, per trump index and led suit."""
        # power[t][led][card]: how strongly a card plays to a trick led in suit
        # `led` under trump index t: trumps above the led suit, other cards 0.
        self.power: list[list[list[int]]] = []
        for t in range(self.nt):
            trump = self.trump_suit[t]
            per_led = []
            for led in range(self.nled):
                row = [0] * self.size
                for c in range(self.size):
                    s = self.eff_suit[t][c]
                    if trump != NO_TRUMP and s == trump:
                        row[c] = 1000 + self.trump_strength[t][c]
                    elif s == led:
                        row[c] = self.plains[t][c]
                per_led.append(row)
            self.power.append(per_led)

    def _build_points(self, points: tuple[m.PointCard, ...]) -> None:
        """Point values, per point table and trump index."""
        # Point tables: point_values[table][trump index][card]; "" is the main table.
        self.point_values: dict[str, list[list[int]]] = {}
        for table in dict.fromkeys([""] + [p.table for p in points]):
            rows = []
            for t in range(self.nt):
                trump = self.trump_arg(t)
                values = [0] * self.size
                for pc in points:
                    if pc.table == table:
                        test = self.pattern(pc.pattern)
                        for c in range(self.size):
                            if test(c, trump):
                                values[c] += pc.value
                rows.append(values)
            self.point_values[table] = rows
        self.point_value = self.point_values[""]

    def _trump_order(self, deck: m.Deck, trump: int) -> list[int]:
        """The cards of the trump group when suit ``trump`` is trumps, high to low: its ranks, or the
        ``trump ranks`` line (which a suit with ranks of its own does not read)."""
        if deck.trump_ranks is None or self.suit_names[trump] in self.own:
            return [c for r in self.suit_ranks[trump] if (first := self.card(trump, r)) is not None
                    for c in self.copies_of(first)]
        order: list[int] = []
        for item in deck.trump_ranks:
            if isinstance(item, str):
                if item in self.extra_names:
                    card: int | None = self.extra.index(self.extra_names.index(item))
                else:
                    card = self.card(trump, self.ranks.index(item))
                if card is not None and card not in order:
                    order.extend(self.copies_of(card))
            else:
                test = self.pattern(item)
                for c in range(self.size):
                    if test(c, trump) and c not in order:
                        order.append(c)
        return order

    # ------------------------------------------------------------ patterns
    def pattern(self, p: m.Pattern) -> Callable[[int, int], bool]:
        """Compile a pattern into ``test(card, trump) -> bool``.

        Raises:
            ValueError: a word that is not a rank, suit or colour of the deck (a suit named by a
                variable, which no table can hold).
        """
        if isinstance(p, m.PatWord):
            w = p.word
            if w == "any":
                return lambda c, t: True
            if w == "trump":
                return lambda c, t: t != NO_TRUMP and self.eff_suit[t][c] == self.trump_suit[t]
            if w in self.extra_names:
                x = self.extra_names.index(w)
                return lambda c, t: self.extra[c] == x
            if w in self.suit_names:
                s = self.suit_names.index(w)
                return lambda c, t: self.eff_suit[t if t != NO_TRUMP else self.nsuits][c] == s
            if w not in self.ranks and w in self.colours:  # a colour: cards whose (effective) suit has it
                return lambda c, t: self._colour_of(self.eff_suit[t if t != NO_TRUMP else self.nsuits][c]) == w
            r = self.ranks.index(w)
            return lambda c, t: self.rank[c] == r
        if isinstance(p, m.PatCard):
            r = self.ranks.index(p.rank)
            ref = p.suit
            if ref.same_colour:
                def same_colour(c: int, t: int) -> bool:
                    if t == NO_TRUMP or t >= self.nsuits or self.rank[c] != r:
                        return False
                    s = self.suit[c]
                    return s != t and self.colours[s] == self.colours[t]
                return same_colour
            if ref.name == "trump":
                return lambda c, t: t != NO_TRUMP and t < self.nsuits and self.rank[c] == r and self.suit[c] == t
            if ref.name not in self.suit_names and ref.name in self.colours:  # `4 of black`
                colour = ref.name
                return lambda c, t: self.rank[c] == r and self.suit[c] != NO_SUIT and self.colours[self.suit[c]] == colour
            s = self.suit_names.index(ref.name)
            return lambda c, t: self.rank[c] == r and self.suit[c] == s
        if isinstance(p, m.PatNot):
            inner = self.pattern(p.operand)
            return lambda c, t: not inner(c, t)
        if isinstance(p, m.PatOr):
            tests = [self.pattern(o) for o in p.options]
            return lambda c, t: any(f(c, t) for f in tests)
        if isinstance(p, m.PatAnd):
            parts = [self.pattern(o) for o in p.options]
            return lambda c, t: all(f(c, t) for f in parts)
        raise TypeError(p)  # pragma: no cover

    def suit_label(self, suit: int) -> str | None:
        """The name of an effective suit: a suit's, a named order's for its pseudo-suit, None for none."""
        if 0 <= suit < self.nsuits:
            return self.suit_names[suit]
        if suit >= self.nt:  # an extra card's pseudo-suit: the card's name
            return self.extra_names[suit - self.nt]
        return self.order_names[suit - self.nsuits - 1] if suit > self.nsuits else None

    def _colour_of(self, suit: int) -> str | None:
        """The colour of an effective suit (None for an order's pseudo-suit)."""
        return self.colours[suit] if 0 <= suit < self.nsuits else None

    def pattern_table(self, p: m.Pattern) -> list[list[bool]]:
        """``table[order index][card]`` for a pattern (index nsuits = none, then the named orders)."""
        test = self.pattern(p)
        return [[test(c, self.trump_arg(t)) for c in range(self.size)] for t in range(self.nt)]

    # ------------------------------------------------------------ codes
    def sort_key(self, card: int, trump: int) -> tuple[int, int]:
        """Sort by suit, trumps first, then by strength, high first."""
        t = trump if trump != NO_TRUMP else self.nsuits
        s = self.eff_suit[t][card]
        if trump != NO_TRUMP and s == trump:
            return (-1, -self.trump_strength[t][card])
        return (s, -self.plains[t][card])


    # ------------------------------------------------------------ points
    def point_totals(self, table: str = "") -> list[int]:
        """What all the cards of a point table are worth together, for each trump
        index (every suit in deck order, then "no trump")."""
        return [sum(values) for values in self.point_values.get(table, [])]

    def point_bound(self, table: str = "") -> int:
        """The most points the cards of a point table can be worth in absolute value, whatever the trump."""
        return max((sum(abs(v) for v in values) for values in self.point_values.get(table, [])), default=0)
