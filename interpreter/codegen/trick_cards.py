"""The card rules that change the trick itself (issue 28, design 3.2), and the suit led kept
once set (decision 5): what a trick play writes when a card is played to it.

- ``the suit led is not set by P [when G]``: a card matching ``P`` (the guard asked when it
  is played, with ``card`` naming it) leaves the suit led unset (``no_suit``); the next card
  that is not such a card sets it. Until then a player is as free as a leader, but the
  lead-only rules do not apply to him (French Tarot's Excuse led).
- ``a trick is never won by P [when G]``: such a card has no power in the trick; if every
  card of a trick is one, its leader wins it.

A module keeps the suit led in ``c.tr_led`` (-1: not set yet) when its file has one of
these rules or named orders (a trick is decided under the order in force when it
completes, under the suit led when it was set), and the cards without power in
``c.tr_nw`` when it has the second rule; a file with neither gets neither field, and its
module stays what it was.
"""

from __future__ import annotations

from tricklang.types import CARD

from .parts import Parts
from .writer import Writer, lit

LED_OF_TRICK = "EFF[ti * NC + c.tr_c[0]]"
"""The suit led as a module without ``c.tr_led`` reads it (the first card's effective suit)."""


def helpers_with_kept_led(helpers: str, never_wins: bool) -> str:
    """The trick-reading helpers of :mod:`.trick_names` for a module keeping ``c.tr_led`` (and,
    with ``never_wins``, cards without power in ``c.tr_nw``).

    Raises:
        AssertionError: the helpers no longer hold a line this function replaces.
    """
    replaced = [
        ("    return EFF[c.ti * NC + c.tr_c[0]]\n", "    return c.tr_led\n"),
        ("    led: cython.int = EFF[ti * NC + c.tr_c[0]]\n",
         "    led: cython.int = c.tr_led if c.tr_led >= 0 else EFF[ti * NC + c.tr_c[0]]\n"),
    ]
    if never_wins:
        replaced += [
            ("    top: cython.int = _power(ti, led, c.tr_c[0])\n",
             "    top: cython.int = 0 if c.tr_nw & BIT[c.tr_c[0]] else _power(ti, led, c.tr_c[0])\n"),
            ("        k = _power(ti, led, c.tr_c[i])\n        if k > top:\n",
             "        k = 0 if c.tr_nw & BIT[c.tr_c[i]] else _power(ti, led, c.tr_c[i])\n        if k > top:\n"),
        ]
    for old, new in replaced:
        assert old in helpers, old  # pragma: no cover - the helpers' own text
        helpers = helpers.replace(old, new)
    return helpers


class TrickCards(Parts):
    """Writes the card rules of :data:`TRICK_RULES` into playing a card (mixed into
    :class:`~.tricks.TrickPlay`)."""

    __slots__ = ()

    def led_of_trick(self) -> str:
        """The suit led, in the legal-play chain of a player who follows (``ti`` in scope)."""
        return "c.tr_led" if self.lay.keeps_led else LED_OF_TRICK

    def trick_rules_at_play(self, f: Writer) -> None:
        """After ``card`` is put in the trick at place ``i`` by ``p``: a new trick forgets the last
        one's suit led and powerless cards; each rule's guard is asked of the card (``card``
        naming it); then the card sets the suit led if none is set and no rule keeps it from it."""
        lay = self.lay
        if not lay.keeps_led:
            return
        f.line("if i == 0:")
        f.line("    c.tr_led = -1")
        if lay.never_wins:
            f.line("    c.tr_nw = 0")
        f.line("sets_suit = True")
        slot = lay.slot("card")
        saved = dict(self.context)
        self.context["card"] = CARD
        f.line(f"saved_card = c.v[{lit(slot)}]")
        f.line(f"c.v[{lit(slot)}] = card")
        for rule in self.trick_card_rules:
            self.line = rule.span.line
            test = self.ex.cond(rule.guard)
            if test is False:
                continue  # switched off by an option
            matches = f"(PAT[{lit(lay.pattern(rule.pattern))} * NT + c.ti] & BIT[card]) != 0"
            f.comment(f"line {rule.span.line}: " + ("a trick is never won by it" if rule.kind == "never_wins"
                                                     else "the suit led is not set by it"))
            f.line(f"if {matches}" + ("" if test is True else f" and ({test})") + ":")
            f.line("    c.tr_nw |= BIT[card]" if rule.kind == "never_wins" else "    sets_suit = False")
        f.line(f"c.v[{lit(slot)}] = saved_card")
        self.context = saved
        f.line("if c.tr_led < 0 and sets_suit:")
        f.line("    c.tr_led = EFF[c.ti * NC + card]")
