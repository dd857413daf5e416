"""The size of what the runtime generates for a rule file, known before it is built.

The code generator (``interpreter.codegen``) writes card tables whose size depends on the
deck (masks of every suit, pattern and order index; per-card strengths) and on the
number of card patterns the rule file uses. :func:`table_bytes` estimates the source those
tables take, from the deck's shape and the pattern count alone; the checker refuses a
rule file over :data:`MAX_TABLE_BYTES` (``limit-exceeded``) and the code generator never
builds one, so a small hostile file cannot make the runtime spend minutes and gigabytes
on tables.

>>> table_bytes(4, 8, 10) < 100_000      # Écarté's deck
True
>>> table_bytes(26, 38, 4000) > MAX_TABLE_BYTES
True
"""

from __future__ import annotations

import math

MAX_TABLE_BYTES = 24_000_000
"""The most bytes of card tables a generated module may hold."""

WORD = 64
"""Packs of at most this many cards have their masks in one machine word."""


def table_bytes(nsuits: int, nranks: int, patterns: int) -> int:
    """About how many bytes of source the card tables of a deck of ``nsuits`` x ``nranks``
    cards take, with ``patterns`` card patterns (an upper estimate)."""
    cards = max(1, nsuits * nranks)
    orders = nsuits + 1
    mask = 3 + math.ceil(cards * math.log10(2))  # the decimal digits of a mask, and a separator
    number = 7  # an int of the tables, and its separator
    masks = cards + orders * nsuits + orders + orders * patterns
    numbers = 5 * orders * cards + 8 * cards
    if cards <= WORD:  # strengths by (order, suit led, card) and the cards above each
        masks += orders * nsuits * cards
        numbers += orders * nsuits * cards
    return masks * mask + numbers * number


def patterns_in(rules: object) -> int:
    """How many card patterns a rule file writes (each may need a table of its own)."""
    from . import model as m
    from .walk import nodes

    assert isinstance(rules, m.RuleFile)
    count = 0
    for part in (*rules.deal, *rules.irregularities, *rules.points):
        count += sum(1 for node in nodes(part) if isinstance(node, (m.PatWord, m.PatCard, m.PatNot, m.PatOr)))
    return count


def deck_limits(rules: object, max_suits: int, max_cards: int) -> list[str]:
    """What is too large in a rule file's deck: its suits, its cards, or the card tables
    they and its patterns would need (the checker reports each, ``limit-exceeded``)."""
    from . import model as m

    assert isinstance(rules, m.RuleFile) and rules.deck is not None
    from .deck import suit_rank_lists

    per_suit = [len(ranks) for ranks in suit_rank_lists(rules.deck)]  # (a suit may have ranks of its own)
    suits, ranks = len(rules.deck.suits), max(per_suit, default=len(rules.deck.ranks))
    cards = (sum(per_suit) + len(rules.deck.extra_cards)) * (rules.deck.copies or 1)  # copies count, before any `remove`
    out = []
    if suits > max_suits:
        out.append(f"the deck has {suits} suits; at most {max_suits} are allowed")
    if cards > max_cards:
        out.append(f"the deck would have {cards} cards; at most {max_cards} are allowed")
    elif table_bytes(suits, ranks, patterns := patterns_in(rules)) > MAX_TABLE_BYTES:
        out.append(f"the card tables of this deck and its {patterns} card patterns would take more than "
                   f"{MAX_TABLE_BYTES // 1_000_000} MB")
    return out
