"""A game in progress as a small text table, as one seat sees it (the adapters' ``render``).

Only what that seat may know is shown (its :meth:`State.observation`): its own hand,
the others' hands as a number of cards, the public zones, scores, tricks, the trick in
progress and, when it is the seat's turn, its legal actions.

>>> import tricklang, interpreter
>>> state = interpreter.new_game(tricklang.load("ecarte"), seed=3)
>>> print(table(state, 1))
Écarté · deal 1 · dealer seat 0 · trump hearts · choice · seen by seat 1
seat      score  tricks  hand
seat 0        0       0  5 cards
seat 1 *      0       0  10H 9H KS QS AS
stock: 21 cards · turnup: QH
legal: stand, propose
"""

from __future__ import annotations

from typing import Any

from tricklang.diagnostics import printable
from tricklang.words import plural

from ..state.state import State


def _cards(zone: dict[str, Any]) -> str:
    cards = zone.get("cards")
    return " ".join(cards) if isinstance(cards, list) and cards else plural(zone.get("count", 0), "card")


def table(state: State, seat: int) -> str:
    """The table as ``seat`` sees it (see the module docstring).

    Raises:
        TypeError, ArgumentError: ``seat`` is not a seat of this game.
    """
    obs = state.observation(seat)
    to_act = obs.get("current_player")
    header = [state.ruleset.name, f"deal {obs['deal']}", f"dealer seat {obs['dealer']}",
              f"trump {obs['trump'] or 'none'}", str(obs["phase"]), f"seen by seat {seat}"]
    if state.is_terminal():
        header.insert(-1, "over")
    side_of = {p: s for s, members in enumerate(state.sides) for p in members}
    hands = obs["zones"].get("hand", {})
    rows = [("seat", "score", "tricks", "hand")]
    for p in range(state.player_count):
        mark = " *" if to_act == p else ""
        rows.append((f"seat {p}{mark}", str(obs["scores"][side_of[p]]), str(obs["tricks_won"][p]),
                     _cards(hands.get(str(p), {}))))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    lines = [" · ".join(header)]
    lines += [f"{r[0]:<{widths[0]}}  {r[1]:>{max(widths[1], 5)}}  {r[2]:>{max(widths[2], 6)}}  {r[3]}" for r in rows]
    shared = [f"{name}: {_cards(zone)}" for name, zone in obs["zones"].items() if name != "hand" and "count" in zone]
    if shared:
        lines.append(" · ".join(shared))
    if obs["trick"]:
        lines.append("trick: " + ", ".join(f"seat {p} {card}" for p, card in obs["trick"]))
    if obs.get("legal_actions"):
        lines.append("legal: " + ", ".join(obs["legal_actions"]))
    return "\n".join(printable(line) for line in lines)  # names from the rule file: control characters escaped
