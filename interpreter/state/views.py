"""Public, read-only views of a game in progress, for players, the harness and tests.

They speak card codes (``'KS'``) and seats, never the interpreter's internals, so
that code built on them keeps working when the internals change.

>>> import tricklang, interpreter
>>> state = interpreter.new_game(tricklang.load("rules/ecarte.trick"), seed=42)
>>> state.decision
Decision(kind='choice', seat=1, phase='choice', low=None, high=None)
>>> state.apply("propose"); state.apply("accept")
>>> state.decision
Decision(kind='select', seat=1, phase='discard', low=1, high=5)
>>> state.trump, state.is_trump("9H"), state.card_strength("KH") > state.card_strength("9H")
('hearts', True, True)
>>> state.history
[(1, 'propose'), (0, 'accept')]
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any, cast

from tricklang.diagnostics import brief

from ..codegen.module import EVERY_EVENT
from ..errors import ArgumentError
from .events import Renders, bid_word, event_kinds, kinds_mask, render
from .snapshot import Decision

if TYPE_CHECKING:
    from array import array

    from .compiled import Compiled as Game
    from .legal import LegalActions
    from .protocol import StateLike
    from .replay import Recorder
    from .snapshot import Outcome

_KINDS = {"play": "play", "select": "select", "choice": "choice", "auction": "auction", "bid": "bid",
          "name_trump": "name_trump", "pause": "pause"}


class Views:
    """The public views of :class:`~interpreter.State` (mixed into it)."""

    __slots__ = ()
    _g: Game
    _c: Any

    if TYPE_CHECKING:  # defined by State
        @property
        def trump(self) -> str | None: ...
        @property
        def phase(self) -> str: ...
        @property
        def current_player(self) -> int | None: ...
        @property
        def actions(self) -> list[str]: ...
        @property
        def actors(self) -> array[int]: ...
        def outcome(self) -> Outcome | None: ...
        def legal_actions(self) -> LegalActions: ...
        def _recorder(self) -> Recorder: ...

    @property
    def history(self) -> list[tuple[int, str]]:
        """Every action taken so far, with the seat that took it: ``[(seat, text), ...]``."""
        rec = self._recorder()
        return list(zip(rec.actors, rec.texts, strict=True))

    @property
    def decision(self) -> Decision | None:
        """The decision pending (None when the match is over)."""
        c = self._c
        if c.terminal:
            return None
        dp = self._g.dps[c.dp]
        low = high = None
        if dp.kind == "select":
            low, high = c.sel_lo, c.sel_hi
        elif dp.kind in ("auction", "bid") and not dp.extra.get("table"):  # (a table's bids are not numbers)
            bids = [int(a.args[0]) for a in self.legal_actions() if a.verb == "bid"]
            if bids:
                low, high = min(bids), max(bids)
        return Decision(_KINDS[dp.kind], c.actor, dp.phase, low, high)

    # ------------------------------------------------------------ cards and tricks
    @property
    def cards(self) -> list[str]:
        """Every card of the deck, in deck order (suit by suit, ranks high to low)."""
        return self._g.cards

    @property
    def suits(self) -> list[str]:
        """The suits' names, in the order the rule file lists them."""
        return self._g.suits

    @property
    def player_count(self) -> int:
        return self._g.n

    def _card(self, code: str) -> int:
        return self._g.tables.parse_card(code)

    def _trump(self, trump: str | None | bool) -> tuple[int, int]:
        """(trump suit, table index) for a trump given by name, None (no trump) or True (now)."""
        if trump is True:
            return self._c.trump, self._c.ti
        tables = self._g.tables
        if trump is None or trump is False:
            return -1, tables.nsuits
        suit = tables.suit_names.index(trump)
        return suit, suit

    def is_trump(self, card: str, trump: str | None | bool = True) -> bool:
        """Whether a card is a trump now (or were ``trump`` the trump suit: a suit's name,
        or None for no trump): its effective suit is the trump suit.

        Raises:
            InvalidActionError: an unknown card code.
            ValueError: an unknown suit.
        """
        suit, ti = self._trump(trump)
        return suit >= 0 and self._g.tables.eff_suit[ti][self._card(card)] == suit

    def effective_suit(self, card: str) -> str:
        """The suit a card belongs to now (Cinch's Left Pedro, Euchre's left bower: the trump suit)."""
        tables = self._g.tables
        label = tables.suit_label(tables.eff_suit[self._c.ti][self._card(card)])
        assert label is not None  # (every card has a suit or an order's pseudo-suit)
        return label

    def card_strength(self, card: str, trump: str | None | bool = True) -> int:
        """How high a card ranks under the current trump (or ``trump``, as for
        :meth:`is_trump`): a trump ranks above every non-trump (1000 + its place in the
        trump order, 1 for the lowest), another card by its rank in its suit (1 for the
        lowest). Compare cards of different suits only as trump against non-trump."""
        tables = self._g.tables
        suit, ti = self._trump(trump)
        c = self._card(card)
        if suit >= 0 and tables.eff_suit[ti][c] == suit:
            return 1000 + tables.trump_strength[ti][c]
        return tables.plains[ti][c]

    def trick_power(self, card: str, led: str | None = None) -> int:
        """How strongly a card plays to a trick led in suit ``led`` (default: the current
        trick's suit; the card's own suit when it would lead): 0 if it cannot win it."""
        tables, core = self._g.tables, self._c
        c = self._card(card)
        trick = self._g.m["trick"](core)
        if led is not None:
            suit = tables.suit_names.index(led)
        elif trick:
            suit = self._led(trick)
        else:
            suit = tables.eff_suit[core.ti][c]
        if trick and getattr(core, "tr_nw", 0) >> c & 1:
            return 0  # played to this trick, which it never wins
        power: int = tables.power[core.ti][suit][c]
        return power

    def _led(self, trick: list[tuple[int, int]]) -> int:
        """The suit led to the trick in progress: kept once set where the module keeps it (named
        orders, a card that does not set it), else its first card's effective suit."""
        led: int = getattr(self._c, "tr_led", -1)
        return led if led >= 0 else self._g.tables.eff_suit[self._c.ti][trick[0][1]]

    @property
    def current_trick(self) -> list[tuple[int, str]]:
        """The cards played to the trick in progress, in order, as ``(seat, code)``."""
        codes = self._g.tables.codes
        return [(p, codes[c]) for p, c in self._g.m["trick"](self._c)]

    @property
    def trick_number(self) -> int:
        """The trick in progress or next, counted from 1 within the deal."""
        return int(self._c.tr_no) + 1

    def trick_winner(self) -> int | None:
        """The seat winning the trick in progress so far (None when none is in progress)."""
        trick = self._g.m["trick"](self._c)
        if not trick:
            return None
        tables, ti = self._g.tables, self._c.ti
        power = tables.power[ti][self._led(trick)]
        never: int = getattr(self._c, "tr_nw", 0)  # the cards that never win it
        best = max(range(len(trick)), key=lambda i: 0 if never >> trick[i][1] & 1 else power[trick[i][1]])
        seat: int = trick[best][0]
        return seat

    @property
    def tricks_won(self) -> list[int]:
        """Tricks won this deal, per seat."""
        won: list[int] = self._g.m["tricks_won"](self._c)
        return won

    @property
    def maker(self) -> int | None:
        """The seat that made the contract this deal, if any."""
        maker: int = self._c.maker
        return maker if maker >= 0 else None

    @property
    def bid(self) -> int:
        """The contract's bid this deal (0 when there is none)."""
        bid: int = self._c.bid
        return bid

    def counter(self, name: str) -> list[int]:
        """A counter's values (per seat, per side, or one value), e.g. Spades' bags.

        Raises:
            KeyError: the rule file declares no such counter.
        """
        _, base, size = self._g.layout.counters[name]
        values: list[int] = self._g.m["counters"](self._c)
        return values[base:base + size]

    # ------------------------------------------------------------ observations, events and zones
    @property
    def event_count(self) -> int:
        """How many events the match has logged (``events(seat, start=n)`` gives those from ``n`` on)."""
        return len(self._event_log())

    def _event_log(self, kinds: int = EVERY_EVENT) -> list[Any]:
        """The compact events of the match, those of the kinds in the mask ``kinds`` at
        least: the state's own when it records them all (``record_events``), else those of
        its record, caught up by replaying its log."""
        rec: int = self._c.rec
        log: list[Any] = self._c.log if rec and rec & kinds == kinds else self._recorder().core.log
        return log

    def events(self, player: int | None = None, start: int = 0, *, types: Collection[str] | None = None,
               memo: Renders | None = None) -> list[dict[str, Any]]:
        """The event log, as seen by a seat (None: everything, for referees and transcripts),
        from event number ``start`` on (0: all of it); with ``types``, only the events of
        those types (``"score"``, ``"match_end"``, ``"play"``...; the others are not built).
        With ``memo`` (an :class:`~interpreter.state.events.Renders` kept by the caller),
        each event seen before by that memo is not built again but shared: the caller
        reads the events and must not change them.

        >>> import tricklang, interpreter
        >>> state = interpreter.new_game(tricklang.load("ecarte"), seed=42)
        >>> state.events(None, types={"deal"})
        [{'type': 'deal', 'deal': 1, 'dealer': 0, 'roles': {'elder': 1}}]

        Raises:
            TypeError, ArgumentError: as :meth:`observation`; ``types`` names a type no
                event has.
        """
        if player is not None:
            self._seat(player)
        kinds, plays = (None, True) if types is None else event_kinds(types)
        out = []
        g = self._g
        # (a log of some kinds only numbers its events otherwise: from ``start`` on, the whole log)
        log = self._event_log() if types is None or start else self._event_log(kinds_mask(types))
        build = render if memo is None else memo.render
        for entry in log[start:]:
            if kinds is not None and not (plays if type(entry) is int else entry[0] in kinds):
                continue
            full, public, mask = build(g, entry)
            if types is not None and full["type"] not in types:  # a pass and a double are both PASS entries
                continue
            if player is None or public is None or mask >> player & 1:
                out.append(full)
            else:
                out.append(public)
        return out

    def _zone_seen(self, z: int) -> int:
        """The seats that see zone instance z now (an exposed zone: all of them)."""
        seen: int = self._g.m["zmask"](self._c, z)
        return seen

    def observation(self, player: int | None) -> dict[str, Any]:
        """What a seat may know, as a JSON-able dict (None: the omniscient view).

        Hidden zones show only their size; the event log is filtered by the
        visibility the rule file declares for each zone.

        Raises:
            TypeError: ``player`` is not an int or None (``True`` is not a seat).
            ArgumentError: no such seat.
        """
        if player is not None:
            self._seat(player)
        obs: dict[str, Any] = {}
        for key, value in self._observation_but_events(player).items():
            obs[key] = value
            if key == "zones":  # (the events come after the zones, as they always have)
                obs["events"] = self.events(player)
        return obs

    def _observation_but_events(self, player: int | None) -> dict[str, Any]:
        """:meth:`observation` (of a seat checked by the caller) without its events (the
        resampler compares those one by one as it replays)."""
        g, core = self._g, self._c
        lay = g.layout
        codes = g.tables.codes
        zones = self._zone_views(player)
        obs: dict[str, Any] = {
            "seat": player,
            "deal": core.deal_no + 1,
            "dealer": core.dealer,
            "scores": self._g.m["scores"](core),
            # (under a named order, its name: 'grand', and 'null' for an order without trumps)
            "trump": self._g.tables.suit_label(core.ti) if core.ti > self._g.tables.nsuits else self.trump,
            "maker": core.maker if core.maker >= 0 else None,
            "bid": core.bid,
            "phase": self.phase,
            "current_player": self.current_player,
            "trick": [[p, codes[c]] for p, c in self._g.m["trick"](core)],
            "tricks_won": self.tricks_won,
            "zones": zones,
        }
        if lay.bid_table:  # design 3.7: the contract's bid by its code, and its doubling
            obs.update(bid=bid_word(self._g, core.bid), doubling=core.au_dbl if lay.rich_auction else 0)
        if player is not None and self.current_player == player or player is None and not core.terminal:
            from .irregular import seen_by

            legal = self.legal_actions()
            obs["legal_actions"] = [a.text for a in legal if player is None or seen_by(cast("StateLike", self), a, player)]
        if core.terminal:
            outcome = self.outcome()
            assert outcome is not None
            obs["winner"] = list(outcome.winners)
        return obs

    def _zone_views(self, player: int | None) -> dict[str, Any]:
        """Each zone instance as ``player`` sees it (None: all of them): its cards and count, or
        its count only; shared zones by name, the others by name and owner."""
        g, core = self._g, self._c
        lay = g.layout
        codes = g.tables.codes
        order = g.tables.order[core.ti].__getitem__
        zone_cards = g.m["zone_cards"]
        pack_name = lay.instances[lay.pack].zone.name
        zones: dict[str, Any] = {}
        for z, inst in enumerate(lay.instances):
            cards = zone_cards(core, z)
            if player is None or self._zone_seen(z) >> player & 1:
                name = inst.zone.name
                shown: Any = sorted(codes[c] for c in cards) if name != pack_name else [codes[c] for c in cards]
                if name == "hand" or inst.zone.visibility != "hidden":
                    shown = [codes[c] for c in sorted(cards, key=order)]
                value: Any = {"cards": shown, "count": len(cards)}
            else:
                value = {"count": len(cards)}
            if inst.zone.kind == "shared":
                zones[inst.zone.name] = value
            else:
                zones.setdefault(inst.zone.name, {})[str(inst.owner)] = value
        return zones

    def _seat(self, player: object) -> int:
        """``player`` checked as a seat of this game."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise TypeError(f"a seat is an int, not {type(player).__name__}")
        if not 0 <= player < self._g.n:
            raise ArgumentError(f"no seat {brief(player)}: this game has seats 0..{self._g.n - 1}")
        return player

    def hand(self, player: int) -> list[str]:
        """A seat's cards (omniscient: for referees, tests and transcripts).

        Raises:
            TypeError, ArgumentError: as :meth:`observation`.
        """
        self._seat(player)
        g = self._g
        cards = g.m["in_order"](self._c, g.m["zone_masks"](self._c)[g.layout.hand + player])
        return [g.tables.codes[c] for c in cards]

    def zone(self, name: str, owner: int | None = None) -> list[str]:
        """The cards of a zone, top last (omniscient); ``owner``: the seat or side of a
        zone declared per player or per side.

        Raises:
            TypeError: ``name`` is not a string or ``owner`` not an int.
            ArgumentError: no such zone, or no such owner.
        """
        lay = self._g.layout
        if not isinstance(name, str):
            raise TypeError(f"a zone name is a str, not {type(name).__name__}")
        decl = lay.zone_by_name.get(name)
        if decl is None:
            raise ArgumentError(f"no zone named {name[:64]!r} (zones: {', '.join(lay.zone_by_name)})")
        if owner is not None and (isinstance(owner, bool) or not isinstance(owner, int)):
            raise TypeError(f"a zone's owner is an int, not {type(owner).__name__}")
        if not 0 <= (owner or 0) < decl.count:
            raise ArgumentError(f"zone {name!r} has no owner {brief(owner)} (0..{decl.count - 1})")
        z = decl.base + (owner or 0) if decl.kind != "shared" else decl.base
        return [self._g.tables.codes[c] for c in self._g.m["zone_cards"](self._c, z)]
