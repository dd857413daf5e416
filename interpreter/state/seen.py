"""What a seat has seen, as values the resampler compares (:mod:`interpreter.state.resample`):
the legal actions it was offered, and the card codes named in its events and observations
(the cards it knows, fixed in every sampled world)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (the resampler's: a protocol of the state, not the state module)
    from .protocol import StateLike as State


def offer(state: State) -> tuple[Any, set[str]]:
    """The legal actions as a comparable value (a card selection by its cards and bounds,
    not subset by subset), and the card codes they name."""
    legal = state.legal_actions()
    texts = tuple(a.text for a in legal.explicit)
    cards = {w for t in texts for w in t.split()[1:]}
    sel = legal.selection
    if sel is None:
        return texts, cards
    codes = tuple(sel.codes[c] for c in sel.cards)
    cards.update(codes)
    return (texts, sel.verb, codes, sel.lo, sel.hi), cards


def codes_in(value: Any, codes: set[str], out: set[str]) -> None:
    """Add every card code found in a JSON-like value (an event, an observation)."""
    if isinstance(value, str):
        if value in codes:
            out.add(value)
        else:
            out.update(w for w in value.split() if w in codes)
    elif isinstance(value, dict):
        for v in value.values():
            codes_in(v, codes, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            codes_in(v, codes, out)
