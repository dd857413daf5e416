"""Equal cards as the resampler sees them: one name per physical card of a pack with copies.

With ``copies N`` (design 3.4) a seat sees faces (``QC``), never which of the N cards of
a face it is. The information-set sampler (:mod:`interpreter.state.resample`) still needs
the cards themselves as its roles: it keeps the cards the seat has seen where they really
were and deals the others again, and "the seat has seen this card" is about one physical
card (the seat holds one queen of clubs; the other is hidden). So the sampler reads the
real match under *card names*: ``QC#0`` and ``QC#1`` for the two cards of face ``QC``
(index ``2f`` and ``2f+1``), while everything it compares with a sampled world stays in
faces. A sampled deck is written back in faces; ``new_game(decks=...)`` gives the k-th
card of a face written its k-th copy, so the copy indices of a sample are canonical.

:class:`CardNames` renders the real match's events and zones under card names. A meld
event names a meld's cards by the table's first copies, not the ones held, so it is left
out here; the sampler reads a meld from the melder's hand instead (:meth:`CardNames.shown`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .events import render

if TYPE_CHECKING:
    from .compiled import Compiled as Game
    from .protocol import StateLike as State


class _Tables:
    """A game's card tables with every card named by its own name (delegating the rest)."""

    def __init__(self, tables: Any, names: list[str]) -> None:
        self._tables = tables
        self.codes = names

    def __getattr__(self, name: str) -> Any:
        return getattr(self._tables, name)


class _Named:
    """A game whose events render under card names (delegating the rest)."""

    def __init__(self, game: Game, names: list[str]) -> None:
        self._game = game
        self.tables = _Tables(game.tables, names)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


class CardNames:
    """The card names of one game with copies, and views of a real state under them."""

    def __init__(self, game: Game) -> None:
        tables = game.tables
        n = tables.copies
        self.names = [f"{code}#{k % n}" for k, code in enumerate(tables.codes)]
        """The name of each card index: its face's code, ``#``, its copy."""
        self.face = dict(zip(self.names, tables.codes, strict=True))
        """The face of each card name."""
        self._game = game
        self._named = _Named(game, self.names)

    def deck(self, state: State, number: int) -> list[str]:
        """A deal's deck in dealing order, by card names."""
        g = self._game
        return [self.names[c] for c in reversed(g.m["_pack_order"](state._c, number - 1))]

    def events(self, state: State, seat: int, start: int) -> list[dict[str, Any]]:
        """``state.events(seat, start)`` under card names; a meld event's cards are left out
        (see the module doc)."""
        out: list[dict[str, Any]] = []
        for entry in state._event_log()[start:]:  # type: ignore[attr-defined]
            full, public, mask = render(self._named, entry)  # type: ignore[arg-type]
            event = full if public is None or mask >> seat & 1 else public
            if event.get("type") == "meld":
                event = {"type": "meld"}
            out.append(event)
        return out

    def hand(self, state: State, player: int) -> list[str]:
        """A seat's cards by card names, in the hand's order."""
        g, c = self._game, state._c
        return [self.names[k] for k in g.m["in_order"](c, g.m["zone_masks"](c)[g.layout.hand + player])]

    def visible(self, state: State, seat: int) -> set[str]:
        """The cards in the zones ``seat`` sees now (its hand, public zones) and in the trick."""
        g, c = self._game, state._c
        out: set[str] = set()
        for z, mask in enumerate(g.m["zone_masks"](c)):
            if mask and g.m["zmask"](c, z) >> seat & 1:
                out.update(self.names[k] for k in range(mask.bit_length()) if mask >> k & 1)
        out.update(self.names[k] for _, k in g.m["trick"](c))
        return out

    def shown(self, event: dict[str, Any]) -> tuple[int, Counter[str]] | None:
        """For a meld event just logged: the melder and, of each face, how many of its
        cards the melds show at least (the most in one meld: a card may serve in melds
        of different classes)."""
        if event.get("type") != "meld" or not isinstance(event.get("player"), int):
            return None
        least: Counter[str] = Counter()
        for meld in event.get("melds", ()):
            for face, k in Counter(meld.get("cards", ())).items():
                least[face] = max(least[face], k)
        return event["player"], least

    def pick(self, hand: list[str], faces: Counter[str]) -> list[str]:
        """From a hand (card names), the first cards of each face, as many as ``faces`` says."""
        want = Counter(faces)
        out = []
        for name in sorted(hand):
            f = self.face[name]
            if want[f] > 0:
                want[f] -= 1
                out.append(name)
        return out
