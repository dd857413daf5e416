"""Readable transcripts of a game, rendered from its event log.

A transcript shows what players at a table would see announced: the moves into and out
of a zone the rule file marks ``bookkeeping`` (and cuts of it), and the changes of a
``bookkeeping`` counter, are not printed; tricks are numbered within each deal (a
one-trick ``tricks`` statement in a loop prints trick 1, 2, 3...), and again from 1 when
the tricks are replayed. The events themselves (``State.events``) are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tricklang.diagnostics import printable
from tricklang.words import plural

from .state.state import State


def _laws(event: dict[str, Any]) -> str:
    laws = event.get("laws")
    return f"  [{', '.join(laws)}]" if laws else ""


def seat_name(state: State, seat: int) -> str:
    return f"seat {seat}"


def side_name(state: State, side: int) -> str:
    members = state.sides[side]
    if len(members) == 1:
        return seat_name(state, members[0])
    return "seats " + " & ".join(str(p) for p in members)


def render(state: State, player: int | None = None) -> str:
    """The game so far as text, seen by ``player`` (None: everything)."""
    return "\n".join(lines(state, player))


def lines(state: State, player: int | None = None) -> list[str]:
    out: list[str] = []
    name = state.ruleset.name
    out.append(f"{name}: seed {state.seed}, first dealer seat {state.first_dealer}")
    opts = ", ".join(f"{k}={v}" for k, v in state.ruleset.options.items())
    if opts:
        out.append(f"options: {opts}")
    return out + shown_lines(state, state.events(player))


def shown_lines(state: State, events: list[Event], start: int = 0) -> list[str]:
    """The transcript lines of ``events[start:]``, with the tricks numbered within their
    deal (counting from the deal's first event, which may lie before ``start``) and the
    bookkeeping zones' moves and counters left out (see the module docstring)."""
    rules = state.ruleset.rules
    quiet_zones = frozenset(z.name for z in rules.zones if z.bookkeeping)
    quiet_counters = frozenset(c.name for c in rules.counters if c.bookkeeping)
    out: list[str] = []
    trick = 0
    for index, e in enumerate(events):
        kind = e["type"]
        if kind in ("deal", "replay"):
            trick = 0
        elif kind == "trick":
            trick += 1
            e = {**e, "trick": trick}
        if index < start or _bookkeeping(e, quiet_zones, quiet_counters):
            continue
        out.extend(event_lines(state, e))
    return out


def _zone_name(shown: object) -> str:
    """The zone an event names (``hand of seat 2`` -> ``hand``)."""
    return str(shown).split(" ", 1)[0]


def _bookkeeping(e: Event, zones: frozenset[str], counters: frozenset[str]) -> bool:
    """Whether an event is the rule file's bookkeeping, which a transcript leaves out."""
    kind = e["type"]
    if kind == "move":
        return _zone_name(e.get("from")) in zones or _zone_name(e.get("to")) in zones
    if kind == "cut":
        return _zone_name(e.get("zone")) in zones
    if kind == "counter":
        return e.get("counter") in counters
    return False


Event = dict[str, Any]
Renderer = Callable[[State, Event], list[str]]


def event_lines(state: State, e: Event) -> list[str]:
    """The lines that show an event (labels and names from the rule file are printed
    with their control characters escaped; an event of an unknown type as it is)."""
    render_event = EVENTS.get(e["type"])
    shown = render_event(state, e) if render_event is not None else [f"  {e}"]
    return [printable(line) for line in shown]


def _who(state: State, e: Event) -> str:
    return seat_name(state, e["player"]) if "player" in e else ""


def _cards(e: Event) -> str:
    return " ".join(e["cards"]) if "cards" in e else plural(e["count"], "card")


def _deal(state: State, e: Event) -> list[str]:
    """A deal begins: its number, its dealer and the seats' roles."""
    roles = "".join(f", {seat_name(state, seat)} is the {name}" for name, seat in e.get("roles", {}).items())
    return ["", f"Deal {e['deal']}: {seat_name(state, e['dealer'])} deals{roles}"]


def _dealt(state: State, e: Event) -> list[str]:
    """A player's cards from the deal (their number, to the others)."""
    if "cards" in e:
        return [f"  {_who(state, e)} is dealt {' '.join(e['cards'])}"]
    return [f"  {_who(state, e)} is dealt {plural(e['count'], 'card')}"]


def _turn_up(state: State, e: Event) -> list[str]:
    """Cards turned up from the pack (their number, when face down to this viewer)."""
    if "cards" in e:
        return [f"  turned up: {' '.join(e['cards'])}"]
    return [f"  {plural(e['count'], 'card')} turned up face down"]


def _trump(state: State, e: Event) -> list[str]:
    """The trump suit is set (or named by a player), or there is none."""
    suit = e["suit"] or "none"
    if "order" in e:  # a named order (design 3.3)
        suit = f"order {e['order']}" + ("" if e["suit"] else ", no trumps")
    by = f" (named by {seat_name(state, e['player'])})" if "player" in e else ""
    return [f"  trumps: {suit}{by}{_laws(e)}"]


def _choice(state: State, e: Event) -> list[str]:
    """A player chose an option of a 'chooses' statement."""
    return [f"  {_who(state, e)}: {e['choice']}{_laws(e)}"]


def _select(state: State, e: Event) -> list[str]:
    """A player discarded, took or otherwise selected cards."""
    cards = "nothing" if e.get("count", 0) == 0 else _cards(e)
    return [f"  {_who(state, e)} {e['verb']}s {cards}{_laws(e)}"]


def _draw(state: State, e: Event) -> list[str]:
    """A player drew cards (and took back what the pack could not give)."""
    if "cards" in e:
        text = f"  {_who(state, e)} draws {' '.join(e['cards']) or 'nothing'}"
        if e.get("taken_back"):
            text += f", takes back {' '.join(e['taken_back'])}"
    else:
        text = f"  {_who(state, e)} draws {plural(e['count'], 'card')}"
        if e.get("taken_back"):
            text += f", takes back {e['taken_back']}"
    return [text + _laws(e)]


def _move(state: State, e: Event) -> list[str]:
    """Cards moved from one zone to another."""
    where = f"the bottom of {e['to']}" if e.get("under") else e["to"]
    return [f"  {_cards(e)} moved from {e['from']} to {where}"]


def _cut(state: State, e: Event) -> list[str]:
    """A zone was cut: cards from its top go under it."""
    return [f"  {e['zone']} is cut: {plural(e['count'], 'card')} from the top go under it{_laws(e)}"]


def _bid(state: State, e: Event) -> list[str]:
    """A bid in an auction or a player's own bid."""
    return [f"  {_who(state, e)} bids {e['bid']}"]


def _pass(state: State, e: Event) -> list[str]:
    """A pass in an auction."""
    return [f"  {_who(state, e)} passes"]


def _call(state: State, e: Event) -> list[str]:
    """A double, a redouble or a hold in an auction."""
    return [f"  {_who(state, e)} {e['type']}s"]


def _contract(state: State, e: Event) -> list[str]:
    """The auction's result: the maker and the bid (an auction with doubling: "Contract: 3NT
    doubled by East", or "No contract")."""
    if e["maker"] is None or e["maker"] < 0:  # `if all pass: no contract`
        return [f"  No contract{_laws(e)}"]
    if "doubling" in e:
        doubled = ("", " doubled", " redoubled")[e["doubling"]]
        return [f"  Contract: {e['bid']}{doubled} by {seat_name(state, e['maker'])}{_laws(e)}"]
    extra = " (all passed)" if e.get("all_passed") else ""
    return [f"  {seat_name(state, e['maker'])} makes at {e['bid']}{extra}{_laws(e)}"]


def _maker(state: State, e: Event) -> list[str]:
    """The maker is set."""
    if e["maker"] is None or e["maker"] < 0:
        return [f"  nobody is the maker{_laws(e)}"]
    return [f"  {seat_name(state, e['maker'])} is the maker{_laws(e)}"]


def _contract_bid(state: State, e: Event) -> list[str]:
    """The contract's bid is set."""
    return [f"  the contract is {e['bid']}{_laws(e)}"]


def _counter(state: State, e: Event) -> list[str]:
    """A counter (e.g. bags) of a side, a player or the table changed."""
    owner = e["owner"]
    kind = state.game.layout.counters.get(e["counter"], ("side",))[0]
    whose = side_name(state, owner) if kind == "side" else seat_name(state, owner) if kind == "player" else "the table"
    return [f"  {whose}: {e['counter']} {e['change']:+d} = {e['value']}{_laws(e)}"]


def _irregularity(state: State, e: Event) -> list[str]:
    """An irregularity recorded in table mode, with its offender and its arguments."""
    args = "".join(f", {name} {value}" for name, value in e.get("args", {}).items())
    return [f"  irregularity: {e['name']} by {seat_name(state, e['offender'])}{args}{_laws(e)}"]


def _exposed(state: State, e: Event) -> list[str]:
    """Cards of a zone shown to everybody (or, with ``to``, to one seat; the others see how many)."""
    if "to" not in e:
        return [f"  {e['zone']} is exposed: {' '.join(e['cards'])}{_laws(e)}"]
    shown = " ".join(e["cards"]) if "cards" in e else plural(e["count"], "card")
    return [f"  {e['zone']} is shown to {seat_name(state, e['to'])}: {shown}{_laws(e)}"]


def _meld(state: State, e: Event) -> list[str]:
    """A player's melds, counted and shown to everybody: each meld with its cards, and what they are worth."""
    melds = ", ".join(f"{m['name']} ({' '.join(m['cards'])})" for m in e["melds"]) or "nothing"
    return [f"  {seat_name(state, e['player'])} melds {melds}: {e['points']}{_laws(e)}"]


def _shown(state: State, e: Event) -> list[str]:
    """A player shows cards to everybody; they stay where they are."""
    return [f"  {seat_name(state, e['player'])} shows {' '.join(e['cards'])}{_laws(e)}"]


def _suit_led(state: State, e: Event) -> list[str]:
    """A player names the suit led to the trick in progress; the others follow it."""
    return [f"  {seat_name(state, e['player'])} names {e['suit']} as the suit led{_laws(e)}"]


def _forbid(state: State, e: Event) -> list[str]:
    """A player may no longer bid, declare something, or choose an option."""
    if "bidding" in e:
        return [f"  {seat_name(state, e['player'])} loses his bid: he can only pass{_laws(e)}"]
    what = e.get("declare") or e.get("choice")
    return [f"  {seat_name(state, e['player'])} may not {'declare' if 'declare' in e else 'choose'} {what}{_laws(e)}"]


def _redeal(state: State, e: Event) -> list[str]:
    """The deal is abandoned and dealt again."""
    if e.get("reason") == "all passed":
        return [f"  all passed: the deal is abandoned{_laws(e)}"]
    return [f"  the deal is cancelled and dealt again by the {e.get('by', 'next dealer')}{_laws(e)}"]


def _leads(state: State, e: Event) -> list[str]:
    """The trick in progress starts again with this player to lead (cards played to it taken back)."""
    back = f" ({' '.join(e['taken_back'])} taken back)" if e.get("taken_back") else ""
    return [f"  {seat_name(state, e['player'])} leads the trick{back}{_laws(e)}"]


def _replay(state: State, e: Event) -> list[str]:
    """The tricks are played again from the first, the cards played back in the hands."""
    return [f"  the tricks are played again: {e['count']} cards go back to the hands{_laws(e)}"]


def _dealer(state: State, e: Event) -> list[str]:
    """Another player becomes the dealer (the roles follow him)."""
    roles = "".join(f", {name} {seat_name(state, seat)}" for name, seat in e.get("roles", {}).items())
    return [f"  {seat_name(state, e['dealer'])} is the dealer{roles}{_laws(e)}"]


def _declare(state: State, e: Event) -> list[str]:
    """A player declared a holding."""
    return [f"  {_who(state, e)} declares {e['name']}{_laws(e)}"]


def _play(state: State, e: Event) -> list[str]:
    """A card played to the trick (shown with the whole trick, at its end); one that another
    seat played for its seat (`plays for`) also on a line of its own, as it is played."""
    if "by" in e:
        return [f"  {seat_name(state, e['by'])} plays {e['card']} for {seat_name(state, e['player'])}"]
    return []


def _takes_up(state: State, e: Event) -> list[str]:
    """A seat sees another's hand from now to the end of the deal, as it plays that seat's cards."""
    cards = f": {' '.join(e['cards'])}" if "cards" in e else ""
    return [f"  {seat_name(state, e['player'])} takes up the hand of {seat_name(state, e['for'])}"
            f" to play it{cards}{_laws(e)}"]


def _trick(state: State, e: Event) -> list[str]:
    """A finished trick: each seat's card and the winner."""
    plays = ", ".join(f"{seat_name(state, p)} {c}" for p, c in zip(e["players"], e["cards"], strict=False))
    return [f"  trick {e['trick']}: {plays} -> won by {seat_name(state, e['winner'])}"]


def _score(state: State, e: Event) -> list[str]:
    """A side scored or lost points, with the label and the laws."""
    plural = len(state.sides[e["side"]]) > 1
    verb = ("score" if plural else "scores") if e["points"] >= 0 else ("lose" if plural else "loses")
    label = f" ({e['label']})" if e.get("label") else ""
    return [f"  {side_name(state, e['side'])} {verb} {abs(e['points'])}{label}{_laws(e)}"]


def _deal_end(state: State, e: Event) -> list[str]:
    """The deal is over: the match score."""
    return [f"  score after deal {e['deal']}: " + ", ".join(f"{side_name(state, s)} {v}" for s, v in enumerate(e["scores"]))]


def _last_deal(state: State, e: Event) -> list[str]:
    """This deal is the last of the match."""
    return [f"  this is the last deal of the match{_laws(e)}"]


def _match_end(state: State, e: Event) -> list[str]:
    """The match is over: won, drawn or abandoned."""
    if e.get("drawn"):
        return ["", f"The match is drawn: {e.get('reason', '')}"]
    if e.get("winner") is None:
        return ["", f"Match abandoned: {e.get('reason', 'no winner')}"]
    tb = " (tie broken by the rules)" if e.get("tie_break") else ""
    score = "-".join(str(v) for v in e["scores"])
    return ["", f"{side_name(state, e['winner'])} win{'s' if len(state.sides[e['winner']]) == 1 else ''} the match {score}{tb}"]


EVENTS: dict[str, Renderer] = {
    "deal": _deal, "dealt": _dealt, "turn_up": _turn_up, "trump": _trump, "choice": _choice, "select": _select,
    "draw": _draw, "move": _move, "cut": _cut, "bid": _bid, "pass": _pass, "double": _call, "redouble": _call, "hold": _call, "contract": _contract, "maker": _maker,
    "contract_bid": _contract_bid, "counter": _counter, "irregularity": _irregularity, "exposed": _exposed, "meld": _meld, "shown": _shown, "suit_led": _suit_led,
    "forbid": _forbid, "redeal": _redeal, "leads": _leads, "replay": _replay, "dealer": _dealer, "declare": _declare, "play": _play, "takes_up": _takes_up, "trick": _trick, "score": _score,
    "deal_end": _deal_end, "last_deal": _last_deal, "match_end": _match_end,
}
"""Every type of event, with its rendering: the one list of events (each renderer's
docstring says what the event means; a test keeps the list complete)."""
