"""Observations as flat tensors, derived from the declared zones and their visibility.

``observation_tensor(state, p)`` and ``information_state_tensor(state, p)`` are
lists of floats whose layout depends only on the rule file (its zones, deck, seats,
suits and decisions): :func:`tensor_layout` names every segment. Seats are counted
from the observer: "seat k" is k places to the observer's left (k = 0 is the
observer), and sides likewise start with the observer's own. A segment of cards is a
*card plane*: one entry per card of the deck, in deck order, 1.0 where the card is (with
``copies N``, one entry per face: how many of its N cards are there, divided by N).

Observation segments, in order:

* ``zone NAME[ k]``: for each zone instance (per-player zones seat by seat from the
  observer, per-side zones side by side), a card plane (zeros unless the observer may
  see the zone) and ``zone NAME[ k] count``, the number of cards in it (public);
* ``trick k``: a card plane of the card seat k has played to the trick in progress;
  ``trick leader``: one-hot over seats;
* ``trump``: one-hot over the suits, then "no trump";
* ``scores`` (per side, raw), ``tricks won`` (per seat, raw);
* ``maker`` (one-hot over seats, then "none"), ``bid`` (raw);
* ``dealer`` (one-hot over seats), ``deal number``;
* ``to act``: one-hot over seats, then "chance", then "nobody" (the match is over);
  ``decision``: one-hot over play, select, choice, auction, bid, name_trump, chance, over
  (none set at a referee's pause, table mode only: see :mod:`interpreter.pauses`);
* ``phase``: one-hot over the rule file's phase names (see :attr:`TensorLayout.phases`);
* ``picks``: one-card mode, the cards of the pending selection the observer has picked
  (zeros for the other seats), and ``picks count`` (public).

The information-state tensor adds what the observer has seen since the deal began,
from its own view of the event log: ``played k`` (a card plane per seat of the cards
it has played this deal), ``played trick`` (for each card played this deal, the number
of its trick: with the seats, the order of play, so that states a seat can tell apart
by the order of the tricks have different tensors), ``seen`` (every card the observer
has seen this deal), and
``choices k`` (per seat, how often it took each named choice this deal) and ``bids``
(per seat, its last bid or -1) and ``passed`` (per seat). Earlier deals are summed up
by the scores.

With a bid table (design 3.7), ``contract`` (one-hot over the table's bids, in rank order;
none before a contract) and ``doubling`` (one-hot over 0, doubled, redoubled) end the
observation, and ``calls k`` (per seat: each bid of the table it made this deal, then how
often it doubled, redoubled and held) end the information state; ``bids`` holds a typed
bid's value (its rank order index + 1).

Nothing here reads a card the observer may not see, so swapping hidden cards changes
no tensor (the invariant harness checks it with the observations).

>>> import tricklang, interpreter
>>> state = interpreter.new_game(tricklang.load("rules/ecarte.trick"), seed=42)
>>> state.tensor_shape, tensor_layout(state).segment("trump")
((465,), (396, 5))
>>> t = state.observation_tensor(1)
>>> len(t), sum(t[:32])          # seat 1's own hand: five cards
(465, 5.0)
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tricklang import model as m
from tricklang.walk import statements_of

from ..errors import GameError
from ..runtime.chance import CHANCE_PLAYER

if TYPE_CHECKING:
    from .compiled import Compiled as Game
    from .protocol import StateLike as State

KINDS = ("play", "select", "choice", "auction", "bid", "name_trump", "chance", "over")


@dataclass
class TensorLayout:
    """The segments of a rule file's tensors: ``(name, start, size)`` in order."""

    players: int
    sides: int
    deck: int
    suits: int
    words: list[str]
    phases: list[str]
    segments: list[tuple[str, int, int]] = field(default_factory=list)
    observation_size: int = 0
    size: int = 0

    def add(self, name: str, size: int) -> None:
        self.segments.append((name, self.size, size))
        self.size += size

    @property
    def shape(self) -> tuple[int]:
        """The observation tensor's shape."""
        return (self.observation_size,)

    @property
    def information_state_shape(self) -> tuple[int]:
        return (self.size,)

    def segment(self, name: str) -> tuple[int, int]:
        """(start, size) of a named segment.

        Raises:
            KeyError: no segment has that name.
        """
        for n, start, size in self.segments:
            if n == name:
                return start, size
        raise KeyError(name)


_LAYOUTS: weakref.WeakKeyDictionary[Game, TensorLayout] = weakref.WeakKeyDictionary()


def tensor_layout(state: State) -> TensorLayout:
    """The layout of a state's tensors (the same for every state of its rule file and options)."""
    layout = _LAYOUTS.get(state.game)
    if layout is None:
        layout = _LAYOUTS[state.game] = _build_layout(state)
    return layout


def _build_layout(state: State) -> TensorLayout:
    prog = state.game
    stmts = list(statements_of(state.ruleset.rules))
    words = list(dict.fromkeys(o.name for st in stmts if isinstance(st, m.Choose) for o in st.options))
    verbs = ["discard" for st in stmts if isinstance(st, m.Discard)] + [st.verb for st in stmts if isinstance(st, m.Take)]
    phases = list(dict.fromkeys(["choice", "auction", "bidding", "naming", "play", *verbs, "chance", "over"]))
    n, deck, nsuits = prog.n, prog.tables.size // prog.tables.copies, prog.tables.nsuits  # a plane per face
    layout = TensorLayout(n, len(prog.sides), deck, nsuits, words, phases)
    for name, k in _zone_slots(prog):
        label = f"zone {name}" + (f" {k}" if k >= 0 else "")
        layout.add(label, deck)
        layout.add(label + " count", 1)
    for k in range(n):
        layout.add(f"trick {k}", deck)
    layout.add("trick leader", n)
    layout.add("trump", prog.tables.nt)
    layout.add("scores", len(prog.sides))
    layout.add("tricks won", n)
    layout.add("maker", n + 1)
    layout.add("bid", 1)
    layout.add("dealer", n)
    layout.add("deal number", 1)
    layout.add("to act", n + 2)
    layout.add("decision", len(KINDS))
    layout.add("phase", len(phases))
    layout.add("picks", deck)
    layout.add("picks count", 1)
    nbids = len(prog.layout.bid_table)
    if nbids:  # design 3.7: the contract over the bid table, and its doubling
        layout.add("contract", nbids)
        layout.add("doubling", 3)
    layout.observation_size = layout.size
    for k in range(n):
        layout.add(f"played {k}", deck)
    layout.add("played trick", deck)
    layout.add("seen", deck)
    for k in range(n):
        layout.add(f"choices {k}", len(words))
    layout.add("bids", n)
    layout.add("passed", n)
    for k in range(n if nbids else 0):
        layout.add(f"calls {k}", nbids + 3)
    return layout


def _zone_slots(prog: Game) -> list[tuple[str, int]]:
    """(zone name, relative owner or -1) in layout order."""
    out: list[tuple[str, int]] = []
    for decl in prog.layout.zones:
        out.extend((decl.name, k if decl.kind != "shared" else -1) for k in range(decl.count))
    return out


def _check_seat(state: State, player: int) -> None:
    if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < state.game.n:
        raise GameError(f"no seat {player!r}: seats are 0..{state.game.n - 1}")


def observation_tensor(state: State, player: int) -> list[float]:
    """What ``player`` sees now, as a flat list of floats (layout: :func:`tensor_layout`).

    Raises:
        GameError: ``player`` is not a seat.
    """
    _check_seat(state, player)
    layout = tensor_layout(state)
    out = [0.0] * layout.observation_size
    _fill_observation(state, player, layout, out)
    return out


def information_state_tensor(state: State, player: int) -> list[float]:
    """The observation tensor followed by what ``player`` has seen this deal (see the module docstring).

    Raises:
        GameError: ``player`` is not a seat.
    """
    _check_seat(state, player)
    layout = tensor_layout(state)
    out = observation_tensor(state, player)  # looked up at call time, so that a test can plant a leak
    out.extend([0.0] * (layout.size - layout.observation_size))
    _fill_history(state, player, layout, out)
    return out


def _fill_zones(state: State, p: int, layout: TensorLayout, out: list[float]) -> int:
    """The zones' segments (each owner relative to ``p``); returns where the next starts."""
    g, core = state.game, state._c
    lay = g.layout
    n, deck = g.n, layout.deck
    cp = g.tables.copies
    side = lay.side_of[p]
    nsides = lay.nsides
    masks = g.m["zone_masks"](core)
    zmask = g.m["zmask"]
    pos = 0
    for decl in lay.zones:
        kind, base, count = decl.kind, decl.base, decl.count
        for k in range(count):
            owner = (p + k) % n if kind == "player" else (side + k) % nsides if kind == "side" else 0
            z = base + owner
            mask = masks[z]
            if zmask(core, z) >> p & 1:
                m = mask
                if cp == 1:
                    while m:
                        low = m & -m
                        out[pos + low.bit_length() - 1] = 1.0
                        m ^= low
                else:  # equal cards: the share of the face's copies in the zone
                    while m:
                        low = m & -m
                        out[pos + (low.bit_length() - 1) // cp] += 1.0 / cp
                        m ^= low
            out[pos + deck] = float(mask.bit_count())
            pos += deck + 1
    return pos


def _fill_observation(state: State, p: int, layout: TensorLayout, out: list[float]) -> None:
    g, core = state.game, state._c
    lay = g.layout
    n, deck = g.n, layout.deck
    rel = _relative(n, p)
    side = lay.side_of[p]
    nsides = lay.nsides
    pos = _fill_zones(state, p, layout, out)
    trick = g.m["trick"](core)
    cp = g.tables.copies
    for seat, c in trick:
        out[pos + rel[seat] * deck + c // cp] = 1.0
    pos += n * deck
    if trick:
        out[pos + rel[trick[0][0]]] = 1.0
    pos += n
    out[pos + core.ti] = 1.0  # the order in force: a trump suit, no trump (index suits), a named order
    pos += g.tables.nt
    scores = g.m["scores"](core)
    for k in range(nsides):
        out[pos + k] = float(scores[(side + k) % nsides])
    pos += nsides
    won = g.m["tricks_won"](core)
    for seat in range(n):
        out[pos + rel[seat]] = float(won[seat])
    pos += n
    out[pos + (rel[core.maker] if core.maker >= 0 else n)] = 1.0
    pos += n + 1
    out[pos] = float(core.bid)
    pos += 1
    out[pos + rel[core.dealer]] = 1.0
    pos += n
    out[pos] = float(core.deal_no + 1)
    pos += 1
    actor = state.current_player
    out[pos + (n + 1 if actor is None else n if actor == CHANCE_PLAYER else rel[actor])] = 1.0
    pos += n + 2
    decision = state.decision
    kind = decision.kind if decision is not None else "over"
    if kind in KINDS:  # not a referee's pause: a kind of its own would change every strict layout
        out[pos + KINDS.index(kind)] = 1.0
    pos += len(KINDS)
    phase = state.phase
    if phase in layout.phases:
        out[pos + layout.phases.index(phase)] = 1.0
    pos += len(layout.phases)
    picks = getattr(state, "picks", [])
    if picks and actor == p:
        index = g.tables.index
        for code in picks:
            out[pos + index[code] // cp] += 1.0 / cp  # (copies: the share of the face picked)
    out[pos + deck] = float(len(picks))
    if g.layout.bid_table:
        _fill_contract(state, layout, out)


def _fill_contract(state: State, layout: TensorLayout, out: list[float]) -> None:
    """The contract's bid (one-hot over the bid table; none before a contract) and its doubling."""
    g, core = state.game, state._c
    pos, size = layout.segment("contract")
    k = _bid_index(g, core.bid)
    if k >= 0:
        out[pos + k] = 1.0
    out[pos + size + (core.au_dbl if g.layout.rich_auction else 0)] = 1.0


def _bid_index(g: Game, value: int) -> int:
    """The table index of a bid's value (-1: none)."""
    if g.layout.bids_typed:
        return value - 1 if 0 < value <= len(g.layout.bid_table) else -1
    return g.table_bid_codes.get(str(value), -1)


def _relative(n: int, p: int) -> list[int]:
    """rel[seat]: how many places the seat sits to p's left."""
    return [(seat - p) % n for seat in range(n)]


def _fill_history(state: State, p: int, layout: TensorLayout, out: list[float]) -> None:
    events = state.events(p)
    start = max((i for i, e in enumerate(events) if e.get("type") == "deal"), default=0)
    n, deck = layout.players, layout.deck
    rel = _relative(n, p)
    index = state.game.tables.index
    cp = state.game.tables.copies
    played, _ = layout.segment("played 0")
    trick, _ = layout.segment("played trick")
    seen, _ = layout.segment("seen")
    choices, _ = layout.segment("choices 0")
    bids, _ = layout.segment("bids")
    passed, _ = layout.segment("passed")
    words = {w: i for i, w in enumerate(layout.words)}
    for k in range(n):
        out[bids + k] = -1.0
    for e in events[start:]:
        kind = e.get("type")
        player = e.get("player")
        for code in _codes(e):
            c = index.get(code)
            if c is not None:
                out[seen + c // cp] = 1.0
        if not isinstance(player, int) or not 0 <= player < n:
            continue
        k = rel[player]
        if kind == "play":
            f = index[e["card"]] // cp
            out[played + k * deck + f] += 1.0 / cp  # (1.0 without copies)
            out[trick + f] = float(e.get("trick", 0))
        elif kind == "choice" and e.get("choice") in words:
            out[choices + k * len(words) + words[e["choice"]]] += 1.0
        elif kind == "bid":
            _bid_seen(state, layout, out, k, e["bid"])
        elif kind == "pass":
            out[passed + k] = 1.0
        elif kind in ("double", "redouble", "hold") and state.game.layout.bid_table:  # after the table's bids
            calls, size = layout.segment(f"calls {k}")
            out[calls + size - 3 + ("double", "redouble", "hold").index(kind)] += 1.0


def _bid_seen(state: State, layout: TensorLayout, out: list[float], k: int, bid: int | str | None) -> None:
    """Seat k (relative) bid ``bid``: its last bid (a table's bid: its value), and its calls."""
    g = state.game
    bids, _ = layout.segment("bids")
    if not g.layout.bid_table:
        out[bids + k] = float(bid or 0)
        return
    index = g.table_bid_codes.get(str(bid).upper(), -1)
    out[bids + k] = float(index + 1 if g.layout.bids_typed else bid or 0)
    calls, _ = layout.segment(f"calls {k}")
    if index >= 0:
        out[calls + index] = 1.0


def _codes(event: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("cards", "card", "taken_back"):
        v = event.get(key)
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, list):
            out.extend(x for x in v if isinstance(x, str))
    return out
