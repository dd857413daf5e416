"""Why an action is refused: a sentence for :meth:`State.why_illegal
<interpreter.State.why_illegal>` (mixed into :class:`~interpreter.State`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from ..errors import InvalidActionError
from ..runtime.faults import Fault
from .actions import Action

if TYPE_CHECKING:
    from .compiled import Compiled as Game
    from .legal import LegalActions, Selection
    from .protocol import StateLike

MOMENT_WORDS = {"deal": "after the cards are dealt", "end_of_play": "after the deal's last card, before it is scored"}
"""Each referee's moment in words (messages, ``explain``)."""


class Refusals:
    """:meth:`why_illegal` of :class:`~interpreter.State` (mixed into it)."""

    __slots__ = ()
    _g: Game
    _c: Any

    if TYPE_CHECKING:  # defined by State
        @property
        def current_player(self) -> int | None: ...
        @property
        def phase(self) -> str: ...
        def legal_actions(self) -> LegalActions: ...

    def is_legal(self, action: Action | str) -> bool:
        try:
            return self._canonical(action) in self.legal_actions()
        except InvalidActionError:
            return False

    def _canonical(self, action: Action | str) -> str:
        """The action's notation with card codes normalised (``th`` -> ``10H``)."""
        text = action.text if isinstance(action, Action) else str(action)
        words = text.split()
        if not words:
            raise InvalidActionError("empty action")
        verb = words[0].lower()
        args = words[1:]
        tables = self._g.tables
        wordless = self.legal_actions().bare_verbs()
        if verb == "irregular":
            from .irregular import canonical

            args = canonical(cast("StateLike", self), args)
        elif verb in ("play",) or (args and args != ["none"] and verb not in ("bid", "name", "declare")
                                   and verb not in wordless):
            cards = [tables.parse_card(a) for a in args] if args != ["none"] else []
            cards.sort(key=tables.order[self._c.ti].__getitem__)
            args = [tables.codes[c] for c in cards] or (["none"] if args else [])
        elif verb == "bid" and len(args) == 1 and args[0].upper() in self._g.table_bid_codes:
            args = [self._g.table_bid_actions[self._g.table_bid_codes[args[0].upper()]].args[0]]  # as the table writes it
        else:
            args = [a.lower() for a in args]
        return " ".join([verb] + args)

    def why_illegal(self, action: Action | str) -> str:
        """A sentence saying why an action is not legal now (or '' if it is)."""
        if self._c.terminal:
            return "the match is over"
        try:
            text = self._canonical(action)
        except InvalidActionError as err:
            return str(err)
        legal = self.legal_actions()
        if text in legal:
            return ""
        verb = text.split()[0]
        g, c = self._g, self._c
        if verb == "irregular" and g.layout.irregularities:
            if not c.table:
                return "irregularities are recorded only in table mode (new_game(..., mode='table'))"
            from .irregular import why_not

            return why_not(cast("StateLike", self), self.phase, text.split()[1:])
        verbs = sorted(legal.verbs())
        player = self.current_player
        dp = g.dps[c.dp]
        if dp.kind == "pause" and verb not in verbs:
            return (f"this is the referee's pause {MOMENT_WORDS[dp.moment]}: seat {player} (the dealer, for the table) "
                    "may 'continue', or an irregularity may be recorded ('irregular NAME SEAT ...')")
        if verb not in verbs:
            return f"seat {player} must now {' or '.join(verbs)}" if verbs else "nothing can be done now"
        if dp.kind == "play" and verb == "play":
            tables = g.tables
            words = text.split()
            if len(words) != 2:
                return "name one card to play, e.g. 'play " + (legal[0].args[0] if legal and legal[0].args else "KS") + "'"
            try:
                card = tables.parse_card(words[1])
            except InvalidActionError as err:
                return str(err)
            assert player is not None
            seat = c.tr_turn if c.tr_active and c.tr_turn >= 0 else player  # (whose cards: another may play them)
            hand = g.m["zone_masks"](c)[g.layout.hand + seat]
            if not hand >> card & 1:
                return f"seat {seat} does not hold {tables.codes[card]}"
            try:
                bits = g.m["WHY"][c.dp](c, hand)
            except Fault:
                bits = 0
            why = [name for name in dp.extra["why_order"] if bits & _WHY[name]]
            reasons = [_REASONS.get(w, w) for w in why]
            return "the player " + (", and ".join(reasons) if reasons else "cannot play that card now")
        if verb == "declare":
            return "that declaration is not available now"
        if verb in legal.bare_verbs():
            return f"'{verb}' takes nothing after it"
        sel = legal.selection
        if sel is not None and verb == sel.verb:
            return self._why_not_selected(text.split()[1:], sel)
        examples = ", ".join(a.text for a in legal[:3])
        return f"not one of the legal {verb} actions (e.g. {examples})"

    def _why_not_selected(self, args: list[str], sel: Selection) -> str:
        """Why a card selection is refused: a card not offered, a repeated card, a wrong count."""
        tables, player = self._g.tables, self.current_player
        cards = [] if args == ["none"] else [tables.index[a] for a in args]
        offered = [tables.codes[c] for c in sel.cards]  # (a face once per card of it: copies are equal cards)
        for c in cards:
            if tables.codes[c] not in offered:
                where = "holds" if self.phase == "discard" else "may take"
                return f"{tables.codes[c]} is not a card seat {player} {where} that may be chosen"
        repeated = sorted({tables.codes[c] for c in cards if cards.count(c) > offered.count(tables.codes[c])})
        if repeated:
            if tables.copies > 1:
                return f"{' '.join(repeated)} named more times than seat {player} may choose cards of that face"
            return f"{' '.join(repeated)} named more than once"
        many = f"{sel.lo}" if sel.lo == sel.hi else f"{sel.lo} to {sel.hi}"
        return f"choose {many} card{'s' if sel.hi != 1 else ''}, not {len(cards)}"


_REASONS = {"follow_suit": "must follow suit", "trump_if_void": "must trump when void in the suit led",
            "beat_if_able": "must beat the trick when able", "lead_until_broken": "may not lead that suit until it is broken",
            "lead_first": "must lead the card the rules name to the first trick",
            "not_first_trick": "may not play that card to the first trick",
            "overtrump_if_able": "must play a trump higher than the trick's highest trump when able",
            "no_undertrump": "may not play a trump lower than the trick's highest trump"}
"""Why a card is refused, by the obligation that took it out (``why_illegal``)."""

_WHY = {"follow_suit": 1, "trump_if_void": 2, "beat_if_able": 4, "lead_until_broken": 8, "lead_first": 16,
        "not_first_trick": 32, "overtrump_if_able": 64, "no_undertrump": 128}
"""The bits of a trick play's ``why_D``, by obligation, in the order the chain applies them
(see :data:`interpreter.codegen.tricks.WHY`)."""
