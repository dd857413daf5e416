"""The deals of a match and the cards hidden in them (mixed into :class:`~interpreter.State`).

Prearranged and reseeded later deals, the deck of any deal, and reasoning about hidden
hands: the cards a hand would allow now (:meth:`Deals.allowed_plays`) and a state the
seat cannot tell from this one (:meth:`Deals.resample`). Also the checks of the deal
arguments of :func:`~interpreter.new_game` (seeds, decks, reseeds).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from tricklang.diagnostics import brief

from ..errors import IllegalActionError, RecordError
from ..runtime.faults import Fault

if TYPE_CHECKING:
    from .compiled import Compiled as Game
    from .protocol import StateLike as State

MAX_SEED = 10**18 - 1
"""Seeds have at most 18 digits."""


class Deals:
    """Later deals and hidden cards of :class:`~interpreter.State` (mixed into it)."""

    __slots__ = ()
    _g: Game
    _c: Any

    if TYPE_CHECKING:  # defined by State
        @property
        def deal_number(self) -> int: ...
        @property
        def current_player(self) -> int | None: ...
        @property
        def phase(self) -> str: ...
        def _refresh(self) -> None: ...

    def prearrange(self, deal_number: int, deck: Sequence[str]) -> None:
        """Lay out a later deal of this match from a prearranged deck (card codes in
        dealing order) instead of the seeded shuffle. The deck becomes part of the state
        (:meth:`to_json` stores it), as with ``new_game(decks=...)``.

        Raises:
            RecordError: that deal has already been laid out (``deal_number`` is not after
                :attr:`deal_number`), or the deck is not the whole pack exactly once.
            InvalidActionError: the deck holds an unknown card code.
        """
        if isinstance(deal_number, bool) or not isinstance(deal_number, int) or deal_number <= self.deal_number:
            raise RecordError(f"deal {deal_number!r} cannot be prearranged: deal {self.deal_number} is under way")
        cards = prearranged(self._g, deck)
        self._c.decks = {**(self._c.decks or {}), deal_number - 1: cards}  # copy on write: clones share it

    def reseed(self, seed: int, deal_number: int | None = None) -> None:
        """Shuffle the deals from ``deal_number`` (default: the next one) on, and draw
        their random remedies, from ``seed`` instead of the match's seed; the deals so
        far keep theirs. Stored by :meth:`to_json`, as ``new_game(reseeds=...)``.

        Raises:
            RecordError: the seed is not an integer, or that deal is already under way.
        """
        n = self.deal_number + 1 if deal_number is None else deal_number
        if isinstance(n, bool) or not isinstance(n, int) or n <= self.deal_number:
            raise RecordError(f"deal {n!r} cannot be reseeded: deal {self.deal_number} is under way")
        if not is_seed(seed):
            raise RecordError(f"a seed must be an integer of at most 18 digits, not {brief(seed)}")
        self._c.reseeds = {**{k: v for k, v in (self._c.reseeds or {}).items() if k < n - 1}, n - 1: seed}

    def deal_deck(self, deal_number: int | None = None) -> list[str]:
        """The deck of a deal (default: the current one) in dealing order, as card codes
        (omniscient, like :meth:`hand`): its prearranged deck or its seeded shuffle.

        Raises:
            RecordError: ``deal_number`` is not a positive integer.
        """
        n = self.deal_number if deal_number is None else deal_number
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise RecordError(f"deal numbers start at 1, not {n!r}")
        codes = self._g.tables.codes
        return [codes[c] for c in reversed(self._g.m["_pack_order"](self._c, n - 1))]

    def allowed_plays(self, hand: Sequence[str]) -> list[str]:
        """The cards the player to act could play to the trick now if his hand were
        ``hand`` (card codes), by the rule file's legal-play rules; the state is not
        changed. For reasoning about hidden hands, e.g. that a player who did not
        follow suit holds none of it.

        Raises:
            IllegalActionError: no card is being played now.
            InvalidActionError: ``hand`` holds an unknown card code.
        """
        g, c = self._g, self._c
        p = self.current_player
        if p is None or g.dps[c.dp].kind != "play" or self.phase != "play" or c.window >= 0:
            raise IllegalActionError("allowed_plays", "no card is being played now")
        mask = 0
        last = g.tables.copies - 1
        for code in hand:
            first = k = g.tables.parse_card(str(code))
            while mask >> k & 1 and k < first + last:  # a face written twice: its next copy
                k += 1
            mask |= 1 << k
        try:
            allowed = g.m["ALLOWED"][c.dp](c, mask)
        except Fault:  # pragma: no cover - the obligations' guards failed for this hand
            allowed = mask
        return list(dict.fromkeys(g.tables.codes[x] for x in g.m["in_order"](c, allowed)))

    def _hidden_zones(self, seat: int) -> list[int]:
        """The zone instances whose cards ``seat`` does not see now (and that hold cards)."""
        g, c = self._g, self._c
        masks = g.m["zone_masks"](c)
        return [z for z, mask in enumerate(masks) if mask and not g.m["zmask"](c, z) >> seat & 1]

    def _deal_hidden(self, zones: Sequence[int], cards: Sequence[int]) -> None:
        """Put ``cards`` (in order) into ``zones``, each getting as many as it holds now
        (a hypothetical deal of the cards a seat does not see: tests, samplers)."""
        g, c = self._g, self._c
        i = 0
        for z in zones:
            k = len(g.m["zone_cards"](c, z))
            g.m["set_zone"](c, z, list(cards[i:i + k]))
            i += k
        self._refresh()

    def resample(self, seat: int, rng: random.Random | None = None) -> State:
        """A state that ``seat`` cannot tell from this one, with the cards hidden from it
        dealt again at random among the places they could be (see
        :mod:`interpreter.state.resample`). This state is not changed.

        Raises:
            ResampleError: ``seat`` is not a seat of this game, or no consistent deal was
                found within the attempt bound.
        """
        from .resample import resample

        return resample(cast("State", self), seat, rng)


def is_seed(value: object) -> bool:
    """Whether ``value`` is a seed: an integer (not a bool) of at most 18 digits."""
    return not isinstance(value, bool) and isinstance(value, int) and -MAX_SEED <= value <= MAX_SEED


def checked_seed(seed: object) -> int:
    """``seed``, checked to be one (:func:`is_seed`).

    Raises:
        RecordError: it is not an integer of at most 18 digits.
    """
    if not is_seed(seed):
        raise RecordError(f"seed must be an integer of at most 18 digits, not {brief(seed)}")
    assert isinstance(seed, int)
    return seed


def later_decks(program: Game, decks: Mapping[int, Sequence[str]] | None, first: bool) -> dict[int, list[int]]:
    """The prearranged decks of ``new_game(decks=...)`` by deal index (0 for the first deal);
    ``first`` says whether ``deck=`` gave the first deal's deck already.

    Raises:
        RecordError: a key is not a deal number, the first deal's deck is given twice, or
            a deck is not the whole pack exactly once.
        InvalidActionError: a deck holds an unknown card code.
    """
    later: dict[int, list[int]] = {}
    for number, d in (decks or {}).items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise RecordError(f"decks are keyed by deal number (1 for the first deal), not {brief(number)}")
        if number == 1 and first:
            raise RecordError("the first deal's deck is given twice (deck= and decks[1])")
        later[number - 1] = prearranged(program, d)
    return later


def later_seeds(reseeds: Mapping[int, int] | None) -> dict[int, int]:
    """The seeds of ``new_game(reseeds=...)`` by deal index (0 for the first deal).

    Raises:
        RecordError: a key is not a deal number or a seed is not an integer of at most 18 digits.
    """
    seeds: dict[int, int] = {}
    for number, s in (reseeds or {}).items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise RecordError(f"reseeds are keyed by deal number (1 for the first deal), not {brief(number)}")
        if not is_seed(s):
            raise RecordError(f"a seed must be an integer of at most 18 digits, not {brief(s)}")
        seeds[number - 1] = s
    return seeds


def prearranged(program: Game, deck: Sequence[str]) -> list[int]:
    """A prearranged deck's cards, checked to be the whole pack once (in linear time).

    Raises:
        RecordError: ``deck`` is not a list of the whole pack exactly once.
        InvalidActionError: ``deck`` holds an unknown card code.
    """
    size = program.tables.size
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
        raise RecordError("a prearranged deck is a list of card codes")
    if len(deck) != size:
        raise RecordError(f"a prearranged deck must hold each of the {size} cards once (it holds {len(deck)} cards)")
    cards = [program.tables.parse_card(c) for c in deck]
    copies = program.tables.copies
    over: list[int] = []
    if copies > 1:  # the k-th time a face is written stands for its k-th card (copies are equal cards)
        taken: dict[int, int] = {}
        for i, first in enumerate(cards):
            k = taken[first] = taken.get(first, -1) + 1
            cards[i] = first + k
            if k >= copies:
                over.append(first)
    if len(set(cards)) != size or over:
        seen: set[int] = set()
        dup = over or sorted({c for c in cards if c in seen or seen.add(c)})  # type: ignore[func-returns-value]
        missing = sorted(set(range(size)) - set(cards))
        codes = program.tables.codes
        raise RecordError(f"a prearranged deck must hold each of the {size} cards once (missing "
                          + " ".join(codes[c] for c in missing[:20]) + "; repeated "
                          + " ".join(codes[c] for c in dup[:20]) + ")")
    return cards


def check_modes(program: Game, mode: str, dealer: int | None, selections: str, chance: str,
                 modal_later: bool) -> None:
    """Check the mode arguments of :func:`new_game`; ``modal_later`` says that later
    decks or reseeds come with other than the default selections and chance.

    Raises:
        RecordError: one is not one of its values, ``dealer`` is not a seat, or ``modal_later``.
    """
    if mode not in ("strict", "table"):
        raise RecordError(f"mode must be 'strict' or 'table', not {brief(mode)}")
    if dealer is not None and (isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < program.n):
        raise RecordError(f"dealer must be a seat 0..{program.n - 1}, not {brief(dealer)}")
    if selections not in ("all", "one_card"):
        raise RecordError(f"selections must be 'all' or 'one_card', not {brief(selections)}")
    if chance not in ("automatic", "explicit"):
        raise RecordError(f"chance must be 'automatic' or 'explicit', not {brief(chance)}")
    if modal_later:
        raise RecordError("decks, reseeds and record_events need the default selections ('all') and chance "
                          "('automatic')")
