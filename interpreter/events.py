"""Every kind of event a match logs, stored compactly and rendered on demand.

The log (``core.events``) holds one entry per event. A played card, the most
frequent event, is one integer (:func:`play`); the other frequent kinds are compact
tuples ``(KIND, field, ...)`` of small integers, card tuples and strings shared
with the compiled program; the rare
kinds are stored as ``(full dict, public dict or None, mask of the seats that see
the full form)``. :func:`render` turns any entry into that triple, through one
table of renderers, so that observations, transcripts and the harness see dicts
exactly as before. Every entry is appended by :meth:`Program.emit`.

>>> from interpreter.events import PLAY, render
>>> class Prog:  # just what the play renderer reads
...     class tables:
...         codes = ["KS", "QS"]
>>> render(Prog, play(1, 0, 3))
({'type': 'play', 'player': 1, 'card': 'KS', 'trick': 3}, None, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .program import Program

Triple = tuple[dict[str, Any], "dict[str, Any] | None", int]
Entry = tuple[Any, ...]

# The compact kinds; a rare kind is stored as its rendered triple (see render).
(PLAY, TRICK, DEALT, SELECT, BID, PASS, DRAW, SCORE, DEAL_END, DEAL, TRUMP, CONTRACT, MOVE, CHOICE, TURN_UP, MAKER,
 CONTRACT_BID) = range(17)


def play(player: int, card: int, trick: int) -> int:
    """The entry of a played card: one integer (seat < 32, card < 1024, trick number)."""
    return trick << 15 | card << 5 | player


def _laws(laws: tuple[str, ...]) -> dict[str, Any]:
    return {"laws": list(laws)} if laws else {}


def _play(prog: Program, e: int) -> Triple:
    return {"type": "play", "player": e & 31, "card": prog.tables.codes[e >> 5 & 1023], "trick": e >> 15}, None, 0


def _trick(prog: Program, e: Entry) -> Triple:
    # (TRICK, trick number, winner, cards, players)
    codes = prog.tables.codes
    return {"type": "trick", "trick": e[1], "winner": e[2], "cards": [codes[c] for c in e[3]],
            "players": list(e[4])}, None, 0


def _dealt(prog: Program, e: Entry) -> Triple:
    # (DEALT, player, cards)
    codes = prog.tables.codes
    p, cards = e[1], e[2]
    return ({"type": "dealt", "player": p, "cards": [codes[c] for c in cards]},
            {"type": "dealt", "player": p, "count": len(cards)}, 1 << p)


def _select(prog: Program, e: Entry) -> Triple:
    # (SELECT, verb, player, cards, source zone, destination zone, laws, mask)
    _, verb, p, cards, s, d, laws, mask = e
    codes = prog.tables.codes
    full: dict[str, Any] = {"type": "select", "verb": verb, "player": p, "cards": [codes[c] for c in cards],
                            "count": len(cards), "from": prog.zone_label(s), "to": prog.zone_label(d), **_laws(laws)}
    public = None if mask == prog.all_mask else {k: v for k, v in full.items() if k != "cards"}
    return full, public, mask


def _bid(prog: Program, e: Entry) -> Triple:
    # (BID, player, bid, laws)
    return {"type": "bid", "player": e[1], "bid": e[2], **_laws(e[3])}, None, 0


def _pass(prog: Program, e: Entry) -> Triple:
    # (PASS, player)
    return {"type": "pass", "player": e[1]}, None, 0


def _draw(prog: Program, e: Entry) -> Triple:
    # (DRAW, player, cards drawn, cards taken back, laws, mask)
    _, p, drawn, back, laws, mask = e
    codes = prog.tables.codes
    full: dict[str, Any] = {"type": "draw", "player": p, "cards": [codes[c] for c in drawn], "count": len(drawn)}
    public: dict[str, Any] = {"type": "draw", "player": p, "count": len(drawn)}
    if back:
        full["taken_back"] = [codes[c] for c in back]
        public["taken_back"] = len(back)
    if laws:
        full["laws"] = list(laws)
        public["laws"] = list(laws)
    return full, public, mask


def _score(prog: Program, e: Entry) -> Triple:
    # (SCORE, side, points, label, laws, scores after)
    return {"type": "score", "side": e[1], "points": e[2], "label": e[3], "laws": list(e[4]),
            "scores": list(e[5])}, None, 0


def _deal_end(prog: Program, e: Entry) -> Triple:
    # (DEAL_END, deal number, scores)
    return {"type": "deal_end", "deal": e[1], "scores": list(e[2])}, None, 0


def _deal(prog: Program, e: Entry) -> Triple:
    # (DEAL, deal number, dealer, role seats in the order of prog.seat_roles, or ())
    event: dict[str, Any] = {"type": "deal", "deal": e[1], "dealer": e[2]}
    if prog.seat_roles:
        event["roles"] = dict(zip(prog.seat_roles, e[3], strict=True))
    return event, None, 0


def _trump(prog: Program, e: Entry) -> Triple:
    # (TRUMP, suit or -1, player or None, laws)
    suit = prog.tables.suit_names[e[1]] if e[1] >= 0 else None
    event: dict[str, Any] = {"type": "trump", "suit": suit}
    if e[2] is not None:
        event["player"] = e[2]
    return {**event, **_laws(e[3])}, None, 0


def _contract(prog: Program, e: Entry) -> Triple:
    # (CONTRACT, maker, bid, all passed, laws)
    event: dict[str, Any] = {"type": "contract", "maker": e[1], "bid": e[2]}
    if e[3]:
        event["all_passed"] = True
    return {**event, **_laws(e[4])}, None, 0


def _move(prog: Program, e: Entry) -> Triple:
    # (MOVE, source zone, destination zone, cards, laws, mask)
    _, s, d, cards, laws, mask = e
    codes = prog.tables.codes
    full: dict[str, Any] = {"type": "move", "from": prog.zone_label(s), "to": prog.zone_label(d),
                            "cards": [codes[c] for c in cards], "count": len(cards), **_laws(laws)}
    public = None if mask == prog.all_mask else {k: v for k, v in full.items() if k != "cards"}
    return full, public, mask


def _choice(prog: Program, e: Entry) -> Triple:
    # (CHOICE, player, the option chosen, laws)
    return {"type": "choice", "player": e[1], "choice": e[2], **_laws(e[3])}, None, 0


def _turn_up(prog: Program, e: Entry) -> Triple:
    # (TURN_UP, cards, zone, mask of the seats that see the cards)
    _, cards, z, mask = e
    name = prog.zones[z].name
    full = {"type": "turn_up", "cards": [prog.tables.codes[c] for c in cards], "zone": name}
    return full, None if mask == prog.all_mask else {"type": "turn_up", "count": len(cards), "zone": name}, mask


def _maker(prog: Program, e: Entry) -> Triple:
    # (MAKER, seat set as the maker, laws): `set maker = ...`
    return {"type": "maker", "maker": e[1], **_laws(e[2])}, None, 0


def _contract_bid(prog: Program, e: Entry) -> Triple:
    # (CONTRACT_BID, the bid set, laws): `set bid = ...`
    return {"type": "contract_bid", "bid": e[1], **_laws(e[2])}, None, 0


RENDERERS: tuple[Callable[[Any, Any], Triple], ...] = (
    _play, _trick, _dealt, _select, _bid, _pass, _draw, _score, _deal_end, _deal, _trump, _contract, _move, _choice,
    _turn_up, _maker, _contract_bid,
)
"""The renderer of each compact kind, indexed by the kind."""


def render(prog: Any, entry: Entry | int) -> Triple:
    """An entry of the log as ``(full dict, public dict or None, mask)``."""
    if type(entry) is int:
        return _play(prog, entry)
    assert isinstance(entry, tuple)
    kind = entry[0]
    if type(kind) is int:
        return RENDERERS[kind](prog, entry)
    return entry  # a rare kind, stored rendered


def is_score(entry: Entry | int) -> bool:
    """Whether an entry is a score event."""
    if type(entry) is int:
        return False
    assert isinstance(entry, tuple)
    return entry[0] == SCORE if type(entry[0]) is int else entry[0].get("type") == "score"


def score_of(entry: Entry | int) -> tuple[int, int, str]:
    """(side, points, label) of a score entry (see :func:`is_score`)."""
    assert isinstance(entry, tuple)
    if type(entry[0]) is int:
        return entry[1], entry[2], entry[3]
    full = entry[0]
    return full["side"], full["points"], full.get("label", "")
