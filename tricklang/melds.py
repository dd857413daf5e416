"""Meld tables, read: the instances each line names, and the one reading of how cards count.

A line of a meld table names *instances*, each a multiset of cards: ``A 10 K Q J of trump``
one (under the trump in force), ``K Q in any suit`` one per suit (in deck order), ``A in
every suit`` one holding the ace of every suit (one per rank a pattern names: ``(A or K) in
every suit``), ``sequence of 3 in A K Q J`` one per suit and per window of three
consecutive ranks, ``(Q of spades) (J of diamonds)`` one. Counting a multiset of cards
against a table (:func:`count`) is greedy, in the order written: for each class, from all
the cards, each line in turn takes as many disjoint copies of each of its instances as the
cards left hold, scores them (its ``double`` value for two at once) and uses those cards
up for that class. The checker (``bad-meld``, ``meld-order``) and the runtime read tables
through this module.

>>> import tricklang
>>> rules = tricklang.parse('''tricklang 1
... game "M"
... players 2
... deck
...   suits spades black, hearts red
...   ranks A K Q J
... melds m
...   "marriage" K Q in any suit = 20
...   "royal" K Q of trump = 40
... deal
...   deal 4 to each
... ''')
>>> from tricklang.deck import CardModel
>>> cards = CardModel(rules.deck)
>>> table = rules.melds[0]
>>> held = [cards.index[c] for c in ("KS", "QS", "KH", "QH")]
>>> count(table, held, cards, trump=0).points   # spades trumps: two marriages; the royal one comes too late
40
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from . import model as m
from .deck import NO_TRUMP, CardModel

MAX_INSTANCES = 1_000
"""The most instances one meld table may name (under one trump)."""

Instance = tuple[int, ...]
"""A meld's cards: card indices, in the order of the line (a card twice when two are needed);
with ``copies`` each is its face's first card (:meth:`CardModel.card`), and any copy serves."""


def instances(line: m.MeldLine, cards: CardModel, trump: int) -> list[Instance]:
    """The instances a line names under a trump (a suit index, or :data:`~tricklang.deck.NO_TRUMP`).

    Raises:
        ValueError: a rank or suit the deck does not have (the checker reports it as ``bad-meld``).
    """
    return [inst for inst in _named(line, cards, trump) if None not in inst]  # type: ignore[misc]


def _named(line: m.MeldLine, cards: CardModel, trump: int) -> list[tuple[int | None, ...]]:
    """The instances of :func:`instances`, a card the pack does not keep (``remove``) as None.

    Raises:
        ValueError: as :func:`instances`.
    """
    suits = range(len(cards.suit_names))
    if line.kind == "listed":
        return [tuple(_one_card(p, cards, trump) for p in line.cards)]
    if line.kind == "run":
        ranks = [cards.ranks.index(r) for r in line.ranks]
        windows = [ranks[i:i + line.length] for i in range(len(ranks) - line.length + 1)] if line.length >= 2 else []
        return [tuple(_card(cards, s, r) for r in window) for s in suits for window in windows]
    rank_sets = _rank_sets(line, cards, trump)
    if line.kind == "cards":
        assert line.suit is not None
        suit = _suit(line.suit, cards, trump)
        return [] if suit is None else [tuple(_card(cards, suit, r) for r in rank_sets[0])]
    excluded = _suit(line.exclude, cards, trump) if line.exclude is not None else None
    kept = [s for s in suits if s != excluded]
    if line.scope == "every":
        return [tuple(_card(cards, s, r) for s in kept for r in ranks) for ranks in rank_sets]
    return [tuple(_card(cards, s, r) for r in ranks) for ranks in rank_sets for s in kept]


def _rank_sets(line: m.MeldLine, cards: CardModel, trump: int) -> list[list[int]]:
    """The ranks of a line: its words as one set, or one set per rank its pattern names."""
    if line.rank_pattern is None:
        return [[cards.ranks.index(r) for r in line.ranks]]
    test = cards.pattern(line.rank_pattern)
    held = [[cards.card(s, r) for s in range(len(cards.suit_names))] for r in range(len(cards.ranks))]
    return [[r] for r in range(len(cards.ranks)) if any(c is not None and test(c, trump) for c in held[r])]


def _card(cards: CardModel, suit: int, rank: int) -> int | None:
    """The first card of a suit and rank (of its face, with ``copies``), None if the pack does not keep it."""
    return cards.card(suit, rank)


def _suit(ref: m.SuitRef | None, cards: CardModel, trump: int) -> int | None:
    """A suit reference's suit under a trump (None: `trump` with no trump).

    Raises:
        ValueError: not a suit of the deck.
    """
    if ref is None:
        return None
    if ref.name == "trump" and not ref.same_colour:
        return None if trump == NO_TRUMP else trump
    if ref.same_colour:
        if trump == NO_TRUMP:
            return None
        same = [s for s in range(len(cards.suit_names)) if s != trump and cards.colours[s] == cards.colours[trump]]
        return same[0] if same else None
    return cards.suit_names.index(ref.name)


def _one_card(p: m.Pattern, cards: CardModel, trump: int) -> int:
    """The one card a listed pattern names.

    Raises:
        ValueError: it names no card or several.
    """
    test = cards.pattern(p)
    found = sorted({cards.copies_of(c)[0] for c in range(cards.size) if test(c, trump)})  # one per face
    if len(found) != 1:
        raise ValueError(f"a listed meld card must be one card, and this names {len(found)}")
    return found[0]


@dataclass
class Counted:
    """What a multiset of cards is worth under a table: the points, and each meld counted
    (its label, and the cards it used)."""

    points: int = 0
    melds: list[tuple[str, list[int]]] = field(default_factory=list)


def count(table: m.MeldTable, held: Iterable[int], cards: CardModel, trump: int) -> Counted:
    """The greedy count of the module docstring (``held``: card indices; the copies of one face,
    or one card index twice, are two of that face).

    Raises:
        ValueError: a line names a rank or suit the deck does not have (never for a checked file).
    """
    out = Counted()
    all_held = Counter(cards.copies_of(c)[0] for c in held)  # by face: instances name a face's first card
    for group in table.classes:
        left = Counter(all_held)
        for line in group.lines:
            for inst in instances(line, cards, trump):
                need = Counter(inst)
                k = min(left[c] // n for c, n in need.items()) if need else 0
                if k <= 0:
                    continue
                out.points += line.double if k == 2 and line.double is not None else k * line.value
                for _ in range(k):
                    out.melds.append((line.label, list(inst)))
                left.subtract({c: n * k for c, n in need.items()})
    return out
