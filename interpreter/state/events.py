"""Every kind of event a match logs, as the generated module stores it and as users read it.

A generated module logs compact entries of integers (:mod:`interpreter.codegen.module`:
a played card is one int, ``trick << 15 | card << 5 | seat`` (with ``(by + 1) << 25`` when
another seat played it for that one); every other event a tuple
``(KIND, field, ...)`` of ints and tuples of ints, names and laws by id). :func:`render`
turns an entry into ``(full dict, public dict or None, mask)``: the event as the seats in
``mask`` see it, and as the others do (None: every seat sees the full event), through one
table of renderers indexed by the kind. Observations, transcripts and the harness read
events only through it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from tricklang.bounds import DEFAULT_DEAL_LIMIT
from tricklang.diagnostics import brief

from ..codegen.module import EVENT_KINDS, EVERY_EVENT
from ..errors import ArgumentError

if TYPE_CHECKING:
    from .compiled import Compiled as Game

Triple = tuple[dict[str, Any], "dict[str, Any] | None", int]
Entry = tuple[Any, ...]

KIND = {name: k for k, name in enumerate(EVENT_KINDS, start=1)}
SCORE = KIND["SCORE"]


def _laws(g: Game, laws: int) -> dict[str, Any]:
    found = g.layout.laws[laws]
    return {"laws": list(found)} if found else {}


def _codes(g: Game, cards: tuple[int, ...]) -> list[str]:
    codes = g.tables.codes
    return [codes[c] for c in cards]


def _play(g: Game, e: int) -> Triple:
    if e >> 25:  # played for its seat by another (`plays for`): that seat plus one, above the trick number
        return ({"type": "play", "player": e & 31, "card": g.tables.codes[e >> 5 & 1023], "trick": e >> 15 & 1023,
                 "by": (e >> 25) - 1}, None, 0)
    return {"type": "play", "player": e & 31, "card": g.tables.codes[e >> 5 & 1023], "trick": e >> 15}, None, 0


def _takes_up(g: Game, e: Entry) -> Triple:
    _, p, q, cards, laws = e
    public: dict[str, Any] = {"type": "takes_up", "player": p, "for": q, **_laws(g, laws)}
    return {**public, "cards": _codes(g, cards)}, public, 1 << p


def _trick(g: Game, e: Entry) -> Triple:
    return {"type": "trick", "trick": e[1], "winner": e[2], "cards": _codes(g, e[3]), "players": list(e[4])}, None, 0


def _dealt(g: Game, e: Entry) -> Triple:
    p, cards = e[1], e[2]
    return ({"type": "dealt", "player": p, "cards": _codes(g, cards)},
            {"type": "dealt", "player": p, "count": len(cards)}, 1 << p)


def _select(g: Game, e: Entry) -> Triple:
    _, verb, p, cards, s, d, laws, mask = e
    full: dict[str, Any] = {"type": "select", "verb": g.layout.verbs[verb], "player": p, "cards": _codes(g, cards),
                            "count": len(cards), "from": g.zone_label(s), "to": g.zone_label(d), **_laws(g, laws)}
    public = None if mask == g.layout.all_seats else {k: v for k, v in full.items() if k != "cards"}
    return full, public, mask


def bid_word(g: Game, value: int) -> int | str | None:
    """A bid's value as events show it: a bid of a typed table is its code (None: ``no_bid``);
    a number is itself (see interpreter.codegen.auctions)."""
    bids = g.layout.bid_table
    if not g.layout.bids_typed:
        return value
    return bids[value - 1].code if 0 < value <= len(bids) else None


CALL_WORDS = ("pass", "double", "redouble", "hold")
"""An auction's word calls: a ``PASS`` entry's third item (none: a pass)."""


def _bid(g: Game, e: Entry) -> Triple:
    return {"type": "bid", "player": e[1], "bid": bid_word(g, e[2]), **_laws(g, e[3])}, None, 0


def _pass(g: Game, e: Entry) -> Triple:
    return {"type": CALL_WORDS[e[2]] if len(e) > 2 else "pass", "player": e[1]}, None, 0


def _draw(g: Game, e: Entry) -> Triple:
    _, p, drawn, back, laws, mask = e
    full: dict[str, Any] = {"type": "draw", "player": p, "cards": _codes(g, drawn), "count": len(drawn)}
    public: dict[str, Any] = {"type": "draw", "player": p, "count": len(drawn)}
    if back:
        full["taken_back"] = _codes(g, back)
        public["taken_back"] = len(back)
    law = _laws(g, laws)
    full.update(law)
    public.update(law)
    return full, public, mask


def _score(g: Game, e: Entry) -> Triple:
    return {"type": "score", "side": e[1], "points": e[2], "label": g.layout.labels[e[3]],
            "laws": list(g.layout.laws[e[4]]), "scores": list(e[5])}, None, 0


def _deal_end(g: Game, e: Entry) -> Triple:
    return {"type": "deal_end", "deal": e[1], "scores": list(e[2])}, None, 0


def _deal(g: Game, e: Entry) -> Triple:
    event: dict[str, Any] = {"type": "deal", "deal": e[1], "dealer": e[2]}
    if g.layout.seat_roles:
        event["roles"] = dict(zip(g.layout.seat_roles, e[3], strict=True))
    return event, None, 0


def _trump(g: Game, e: Entry) -> Triple:
    tables = g.tables
    event: dict[str, Any] = {"type": "trump", "suit": tables.suit_label(e[1])}
    if e[1] > tables.nsuits:  # a named order (design 3.3): its trumps' pseudo-suit is named after it
        event = {"type": "trump", "suit": tables.suit_label(tables.trump_suit[e[1]]), "order": tables.suit_label(e[1])}
    if e[2] >= 0:
        event["player"] = e[2]
    return {**event, **_laws(g, e[3])}, None, 0


def _contract(g: Game, e: Entry) -> Triple:
    event: dict[str, Any] = {"type": "contract", "maker": e[1], "bid": bid_word(g, e[2])}
    if e[3]:
        event["all_passed"] = True
    if len(e) > 5:  # an auction of design 3.7: its doubling (0, 1 doubled, 2 redoubled)
        event["doubling"] = e[5]
    return {**event, **_laws(g, e[4])}, None, 0


def _move(g: Game, e: Entry) -> Triple:
    _, s, d, cards, laws, mask, under = e
    full: dict[str, Any] = {"type": "move", "from": g.zone_label(s), "to": g.zone_label(d), "cards": _codes(g, cards),
                            "count": len(cards), **_laws(g, laws)}
    public = None if mask == g.layout.all_seats else {k: v for k, v in full.items() if k != "cards"}
    if under:
        full["under"] = True
        if public is not None:
            public["under"] = True
    return full, public, mask


def _choice(g: Game, e: Entry) -> Triple:
    return {"type": "choice", "player": e[1], "choice": g.layout.choice_words[e[2]], **_laws(g, e[3])}, None, 0


def _turn_up(g: Game, e: Entry) -> Triple:
    _, cards, z, mask = e
    name = g.layout.instances[z].zone.name
    full = {"type": "turn_up", "cards": _codes(g, cards), "zone": name}
    public = None if mask == g.layout.all_seats else {"type": "turn_up", "count": len(cards), "zone": name}
    return full, public, mask


def _maker(g: Game, e: Entry) -> Triple:
    return {"type": "maker", "maker": e[1], **_laws(g, e[2])}, None, 0


def _contract_bid(g: Game, e: Entry) -> Triple:
    return {"type": "contract_bid", "bid": bid_word(g, e[1]), **_laws(g, e[2])}, None, 0


def _redeal(g: Game, e: Entry) -> Triple:
    return {"type": "redeal", "by": "same dealer" if e[1] else "next dealer", "scores": list(e[2]),
            **_laws(g, e[3])}, None, 0


def _all_passed(g: Game, e: Entry) -> Triple:
    return {"type": "redeal", "reason": "all passed", **_laws(g, e[1])}, None, 0


def _last_deal(g: Game, e: Entry) -> Triple:
    return {"type": "last_deal", **_laws(g, e[1])}, None, 0


def _match_end(g: Game, e: Entry) -> Triple:
    _, winner, how, tied, scores = e
    if how == 2:
        return {"type": "match_end", "winner": None, "drawn": True, "tied": list(tied),
                "reason": "the last deal left " + " and ".join(map(str, tied)) + " level",
                "scores": list(scores)}, None, 0
    if how == 3:
        mt = g.ruleset.rules.match  # (the module's DEAL_LIMIT is a C constant in a native build)
        limit = mt.deal_limit if mt is not None and mt.deal_limit is not None else DEFAULT_DEAL_LIMIT
        return {"type": "match_end", "winner": None, "abandoned": True,
                "reason": f"no side reached the target within {limit} deals", "scores": list(scores)}, None, 0
    event: dict[str, Any] = {"type": "match_end", "winner": winner, "scores": list(scores)}
    if how == 1:
        event["tie_break"] = True
    return event, None, 0


def _exposed(g: Game, e: Entry) -> Triple:
    _, z, cards, laws, *to = e  # `expose ... to S`: the seat mask of S, who alone sees the cards
    full: dict[str, Any] = {"type": "exposed", "zone": g.zone_label(z) if z >= 0 else "the table",
                            "cards": _codes(g, cards), **_laws(g, laws)}
    if not to:
        return full, None, 0
    full["to"] = to[0].bit_length() - 1
    public = {k: v for k, v in full.items() if k != "cards"}
    public["count"] = full["count"] = len(cards)
    return full, public, to[0]


def _forbid(g: Game, e: Entry) -> Triple:
    _, p, kind, name, laws = e
    if kind == 0:
        word, value = "declare", g.layout.declaration_names[name]
    elif kind == 1:
        word, value = "choice", g.layout.choice_words[name]
    else:
        word, value = "bidding", "bid"
    return {"type": "forbid", "player": p, word: value, **_laws(g, laws)}, None, 0


def _counter(g: Game, e: Entry) -> Triple:
    _, k, owner, change, value, laws = e
    return {"type": "counter", "counter": list(g.layout.counters)[k], "owner": owner, "change": change, "value": value,
            **_laws(g, laws)}, None, 0


def _declare(g: Game, e: Entry) -> Triple:
    return {"type": "declare", "player": e[1], "name": g.layout.declaration_names[e[2]], **_laws(g, e[3])}, None, 0


def _leads(g: Game, e: Entry) -> Triple:
    return {"type": "leads", "player": e[1], "taken_back": _codes(g, e[2]), **_laws(g, e[3])}, None, 0


def _replay(g: Game, e: Entry) -> Triple:
    return {"type": "replay", "count": e[1], **_laws(g, e[2])}, None, 0


def _dealer(g: Game, e: Entry) -> Triple:
    return {"type": "dealer", "dealer": e[1], "roles": dict(zip(g.layout.seat_roles, e[2], strict=True)),
            **_laws(g, e[3])}, None, 0


def _cut(g: Game, e: Entry) -> Triple:
    return {"type": "cut", "zone": g.zone_label(e[1]), "count": e[2], **_laws(g, e[3])}, None, 0


def _irregularity(g: Game, e: Entry) -> Triple:
    _, k, seat, args, laws = e
    irr = g.layout.irregularities[k]
    event: dict[str, Any] = {"type": "irregularity", "name": irr.name, "offender": seat}
    if args:
        out: dict[str, Any] = {}
        for p, v in zip(irr.params, args, strict=True):
            if p.kind == "count":
                out[p.name] = v
            elif p.kind == "suit":
                out[p.name] = g.tables.suit_names[v]
            else:
                out[p.name] = g.tables.codes[v]
        event["args"] = out
    return {**event, **_laws(g, laws)}, None, 0


def _meld(g: Game, e: Entry) -> Triple:
    """`P melds T`: each meld counted (its label and cards), all its cards, the points; public."""
    _, p, t, points, rows, laws = e
    melds = [{"name": g.layout.meld_rows[r][0], "cards": _codes(g, g.layout.meld_rows[r][1])} for r in rows]
    cards = [code for meld in melds for code in meld["cards"]]
    return {"type": "meld", "player": p, "table": g.layout.meld_names[t], "melds": melds, "cards": cards,
            "points": points, **_laws(g, laws)}, None, 0


def _suit_led(g: Game, e: Entry) -> Triple:
    return {"type": "suit_led", "player": e[1], "suit": g.tables.suit_names[e[2]], **_laws(g, e[3])}, None, 0


def _shown(g: Game, e: Entry) -> Triple:
    """`P shows N`: the cards shown to everybody, left where they are; public."""
    return {"type": "shown", "player": e[1], "cards": _codes(g, e[2]), **_laws(g, e[3])}, None, 0


RENDERERS: dict[int, Callable[[Any, Any], Triple]] = {
    KIND[name]: fn for name, fn in (
        ("TRICK", _trick), ("DEALT", _dealt), ("SELECT", _select), ("BID", _bid), ("PASS", _pass), ("DRAW", _draw),
        ("SCORE", _score), ("DEAL_END", _deal_end), ("DEAL", _deal), ("TRUMP", _trump), ("CONTRACT", _contract),
        ("MOVE", _move), ("CHOICE", _choice), ("TURN_UP", _turn_up), ("MAKER", _maker),
        ("CONTRACT_BID", _contract_bid), ("REDEAL", _redeal), ("ALL_PASSED", _all_passed),
        ("LAST_DEAL", _last_deal), ("MATCH_END", _match_end), ("EXPOSED", _exposed), ("FORBID", _forbid),
        ("COUNTER", _counter), ("DECLARE", _declare), ("LEADS", _leads), ("REPLAY", _replay),
        ("DEALER", _dealer), ("CUT", _cut), ("IRREGULARITY", _irregularity), ("MELD", _meld),
        ("TAKES_UP", _takes_up), ("SUIT_LED", _suit_led), ("SHOWN", _shown),
    )
}
"""The renderer of each kind of entry."""


TYPES = frozenset(["play", *(name.lower() for name in EVENT_KINDS), *CALL_WORDS])
"""The type of every event (each kind of compact entry renders as its name in lower case;
a played card, an int, as ``play``)."""


def event_kinds(types: Collection[str]) -> tuple[frozenset[int], bool]:
    """The kinds of compact entries that render as events of ``types``, and whether played
    cards do.

    Raises:
        ArgumentError: a type no event has (or ``types`` is a single string).
    """
    kinds, plays, _ = _kinds_of(types)
    return kinds, plays


def kinds_mask(types: Collection[str]) -> int:
    """The mask of a core that logs the events of ``types`` and no others (its ``rec``:
    bit 0 the played cards, bit ``k`` the entries of kind ``k``; see ``EVERY_EVENT`` in
    :mod:`interpreter.codegen.module`).

    >>> kinds_mask({"play"}), kinds_mask({"score", "match_end"}) == 1 << KIND["SCORE"] | 1 << KIND["MATCH_END"]
    (1, True)

    Raises:
        ArgumentError: as :func:`event_kinds`.
    """
    return _kinds_of(types)[2]


def recorded_kinds(record_events: bool | Collection[str]) -> int:
    """The mask of a core that logs what ``new_game(record_events=...)`` asks for: every
    event (True), none (False) or the events of these types.

    Raises:
        ArgumentError: ``record_events`` is neither a bool nor a collection of event types.
    """
    if isinstance(record_events, bool):
        return EVERY_EVENT if record_events else 0
    if not isinstance(record_events, Collection):
        raise ArgumentError(f"record_events must be true, false or a collection of event types, "
                            f"not {type(record_events).__name__}")
    return kinds_mask(record_events)


_KINDS: dict[frozenset[str], tuple[frozenset[int], bool, int]] = {}
""":func:`_kinds_of` of the frozensets of types asked for so far (a tool that reads the same
types at every match, ``tricklang simulate``, works them out once)."""


def _kinds_of(types: Collection[str]) -> tuple[frozenset[int], bool, int]:
    """:func:`event_kinds` of ``types`` and their :func:`kinds_mask` (see there what is raised)."""
    if type(types) is frozenset and (known := _KINDS.get(types)) is not None:
        return known
    if isinstance(types, str) or not all(isinstance(t, str) for t in types):
        raise ArgumentError("types must be a collection of event types, such as {'score', 'match_end'}")
    unknown = sorted(set(types) - TYPES)
    if unknown:
        raise ArgumentError(f"no event has the type {brief(unknown[0])} (the types: {', '.join(sorted(TYPES))})")
    kinds = frozenset(KIND["PASS" if t in CALL_WORDS else t.upper()] for t in types if t != "play")
    plays = "play" in types
    got = (kinds, plays, sum(1 << k for k in kinds) | plays)
    if type(types) is frozenset:
        if len(_KINDS) >= 256:
            _KINDS.clear()
        _KINDS[types] = got
    return got


class Renders:
    """Events rendered once per distinct compact entry: :meth:`State.events` ``memo=``, for
    a tool that reads the events of many matches of one game and never changes them
    (``tricklang simulate``). The dicts it gives are shared between calls."""

    __slots__ = ("game", "known")

    MAX = 4096
    """Entries kept (then it starts again: final scores make some entries rare)."""

    def __init__(self) -> None:
        self.game: Game | None = None
        self.known: dict[Entry | int, Triple] = {}

    def render(self, game: Game, entry: Entry | int) -> Triple:
        """:func:`render`, from memory when this entry of this game was rendered before."""
        if game is not self.game:
            self.game, self.known = game, {}
        try:
            got = self.known.get(entry)
        except TypeError:  # (an entry holding a list: not kept)
            return render(game, entry)
        if got is None:
            if len(self.known) >= self.MAX:
                self.known.clear()
            got = self.known[entry] = render(game, entry)
        return got


def render(game: Game, entry: Entry | int) -> Triple:
    """An entry of the log as ``(full dict, public dict or None, mask)``.

    >>> import tricklang
    >>> from interpreter.state.state import Game
    >>> render(Game.of(tricklang.load("ecarte")), 1 << 15 | 0 << 5 | 1)
    ({'type': 'play', 'player': 1, 'card': 'KS', 'trick': 1}, None, 0)
    """
    if type(entry) is int:
        return _play(game, entry)
    assert isinstance(entry, tuple)
    return RENDERERS[entry[0]](game, entry)
