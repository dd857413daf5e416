"""Readable transcripts of a game, rendered from its event log."""

from __future__ import annotations

from typing import Any

from tricklang.diagnostics import printable
from tricklang.words import plural

from .state import State


def _laws(event: dict[str, Any]) -> str:
    laws = event.get("laws")
    return f"  [{', '.join(laws)}]" if laws else ""


def seat_name(state: State, seat: int) -> str:
    return f"seat {seat}"


def side_name(state: State, side: int) -> str:
    members = state.program.sides[side]
    if len(members) == 1:
        return seat_name(state, members[0])
    return "seats " + " & ".join(str(p) for p in members)


def render(state: State, player: int | None = None) -> str:
    """The game so far as text, seen by ``player`` (None: everything)."""
    return "\n".join(lines(state, player))


def lines(state: State, player: int | None = None) -> list[str]:
    out: list[str] = []
    name = state.ruleset.name
    out.append(f"{name}: seed {state.seed}, first dealer seat {state.core.first_dealer}")
    opts = ", ".join(f"{k}={v}" for k, v in state.ruleset.options.items())
    if opts:
        out.append(f"options: {opts}")
    for e in state.events(player):
        out.extend(event_lines(state, e))
    return out


def event_lines(state: State, e: dict[str, Any]) -> list[str]:
    """The lines that show an event (labels and names from the rule file are printed
    with their control characters escaped)."""
    return [printable(line) for line in _event_lines(state, e)]


def _event_lines(state: State, e: dict[str, Any]) -> list[str]:
    t = e["type"]
    who = seat_name(state, e["player"]) if "player" in e else ""
    if t == "deal":
        roles = "".join(f", {seat_name(state, seat)} is the {name}" for name, seat in e.get("roles", {}).items())
        return ["", f"Deal {e['deal']}: {seat_name(state, e['dealer'])} deals{roles}"]
    if t == "dealt":
        if "cards" in e:
            return [f"  {who} is dealt {' '.join(e['cards'])}"]
        return [f"  {who} is dealt {plural(e['count'], 'card')}"]
    if t == "turn_up":
        if "cards" in e:
            return [f"  turned up: {' '.join(e['cards'])}"]
        return [f"  {plural(e['count'], 'card')} turned up face down"]
    if t == "trump":
        suit = e["suit"] or "none"
        by = f" (named by {seat_name(state, e['player'])})" if "player" in e else ""
        return [f"  trumps: {suit}{by}{_laws(e)}"]
    if t == "choice":
        return [f"  {who}: {e['choice']}{_laws(e)}"]
    if t == "select":
        cards = " ".join(e["cards"]) if "cards" in e else plural(e["count"], "card")
        if e.get("count", 0) == 0:
            cards = "nothing"
        return [f"  {who} {e['verb']}s {cards}{_laws(e)}"]
    if t == "draw":
        if "cards" in e:
            text = f"  {who} draws {' '.join(e['cards']) or 'nothing'}"
            if e.get("taken_back"):
                text += f", takes back {' '.join(e['taken_back'])}"
        else:
            text = f"  {who} draws {plural(e['count'], 'card')}"
            if e.get("taken_back"):
                text += f", takes back {e['taken_back']}"
        return [text + _laws(e)]
    if t == "move":
        cards = " ".join(e["cards"]) if "cards" in e else plural(e["count"], "card")
        where = f"the bottom of {e['to']}" if e.get("under") else e["to"]
        return [f"  {cards} moved from {e['from']} to {where}"]
    if t == "cut":
        return [f"  {e['zone']} is cut: {plural(e['count'], 'card')} from the top go under it{_laws(e)}"]
    if t == "bid":
        return [f"  {who} bids {e['bid']}"]
    if t == "pass":
        return [f"  {who} passes"]
    if t == "contract":
        extra = " (all passed)" if e.get("all_passed") else ""
        return [f"  {seat_name(state, e['maker'])} makes at {e['bid']}{extra}{_laws(e)}"]
    if t == "maker":
        if e["maker"] is None or e["maker"] < 0:
            return [f"  nobody is the maker{_laws(e)}"]
        return [f"  {seat_name(state, e['maker'])} is the maker{_laws(e)}"]
    if t == "contract_bid":
        return [f"  the contract is {e['bid']}{_laws(e)}"]
    if t == "counter":
        owner = e["owner"]
        kind = state.program.counters.get(e["counter"], "side")
        whose = side_name(state, owner) if kind == "side" else seat_name(state, owner) if kind == "player" else "the table"
        return [f"  {whose}: {e['counter']} {e['change']:+d} = {e['value']}{_laws(e)}"]
    if t == "irregularity":
        return [f"  irregularity: {e['name']} by {seat_name(state, e['offender'])}{_laws(e)}"]
    if t == "exposed":
        return [f"  {e['zone']} is exposed: {' '.join(e['cards'])}{_laws(e)}"]
    if t == "forbid" and "bidding" in e:
        return [f"  {seat_name(state, e['player'])} loses his bid: he can only pass{_laws(e)}"]
    if t == "forbid":
        what = e.get("declare") or e.get("choice")
        return [f"  {seat_name(state, e['player'])} may not {'declare' if 'declare' in e else 'choose'} {what}{_laws(e)}"]
    if t == "redeal":
        if e.get("reason") == "all passed":
            return [f"  all passed: the deal is abandoned{_laws(e)}"]
        return [f"  the deal is cancelled and dealt again by the {e.get('by', 'next dealer')}{_laws(e)}"]
    if t == "declare":
        return [f"  {who} declares {e['name']}{_laws(e)}"]
    if t == "play":
        return []
    if t == "trick":
        plays = ", ".join(f"{seat_name(state, p)} {c}" for p, c in zip(e["players"], e["cards"], strict=False))
        return [f"  trick {e['trick']}: {plays} -> won by {seat_name(state, e['winner'])}"]
    if t == "score":
        many = len(state.program.sides[e["side"]]) > 1
        verb = ("score" if many else "scores") if e["points"] >= 0 else ("lose" if many else "loses")
        label = f" ({e['label']})" if e.get("label") else ""
        return [f"  {side_name(state, e['side'])} {verb} {abs(e['points'])}{label}{_laws(e)}"]
    if t == "deal_end":
        return [f"  score after deal {e['deal']}: " + ", ".join(f"{side_name(state, s)} {v}" for s, v in enumerate(e["scores"]))]
    if t == "last_deal":
        return [f"  this is the last deal of the match{_laws(e)}"]
    if t == "match_end":
        if e.get("drawn"):
            return ["", f"The match is drawn: {e.get('reason', '')}"]
        if e.get("winner") is None:
            return ["", f"Match abandoned: {e.get('reason', 'no winner')}"]
        tb = " (tie broken by the rules)" if e.get("tie_break") else ""
        score = "-".join(str(v) for v in e["scores"])
        return ["", f"{side_name(state, e['winner'])} win{'s' if len(state.program.sides[e['winner']]) == 1 else ''} the match {score}{tb}"]
    return [f"  {e}"]
