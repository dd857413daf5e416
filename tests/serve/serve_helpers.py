"""Shared by the server's tests: a table and its application, a player that picks an
action from a page's view, and the swap of the cards hidden from a reader (the leak check)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import tricklang
from interpreter.serve.storage import Storage
from interpreter.serve.tables import Role, Table, TableManager
from interpreter.state import State


def make_table(folder: Path, game: str, kinds: list[str], *, seed: int = 7, mode: str = "strict",
               options: dict[str, Any] | None = None) -> tuple[TableManager, Table]:
    """A manager keeping its tables in ``folder``, holding one new table."""
    manager = TableManager(Storage(folder))
    ruleset = tricklang.load(game, options=options)
    table = manager.create(ruleset, kinds, rules_path=ruleset.path, mode=mode, seed=seed)
    return manager, table


def tokens(table: Table) -> dict[str | int, str]:
    """The table's tokens: by seat number, and 'spectator' / 'referee'."""
    out: dict[str | int, str] = {}
    for role, token in table.links():
        out[role.seat if role.kind == "seat" and role.seat is not None else role.kind] = token
    return out


def choose(view: dict[str, Any]) -> str:
    """An action for the page's decision: the first card it may play, the first ``low``
    cards of a selection (at least one), or the first action button."""
    decision = view["decision"]
    assert decision is not None, "no decision for this page"
    if decision.get("playable"):
        return f"play {decision['playable'][-1]}"
    if decision.get("selection"):
        sel = decision["selection"]
        take = sel["cards"][:max(sel["low"], min(1, sel["high"]))]
        return f"{sel['verb']} {' '.join(take) if take else 'none'}"
    return str(decision["actions"][0])


def hidden_zones(state: State, reader: int | None) -> list[int]:
    """The zones whose cards ``reader`` may not see now (None: the public, i.e. the
    zones some seat does not see), but the zone a seat is choosing cards from."""
    g, core = state.game, state._c
    everyone = (1 << g.player_count) - 1
    source = None
    decision = state.decision
    if decision is not None and decision.kind == "select" and reader == decision.seat:
        selection = state.legal_actions().selection
        source = set(selection.cards) if selection is not None else None
    out = []
    for z in range(len(g.zones)):
        cards = g.m["zone_cards"](core, z)  # card indices, like the selection's
        mask = g.m["zmask"](core, z) & everyone
        hidden = not (mask >> reader & 1) if reader is not None else mask != everyone
        if hidden and cards and not (source and set(cards) & source):
            out.append(z)
    return out


def swapped(state: State, reader: int | None) -> State | None:
    """A clone in which every card hidden from ``reader`` has changed place (the hidden
    zones keep their sizes), or None when fewer than two cards are hidden."""
    zones = hidden_zones(state, reader)
    cards = [c for z in zones for c in state.game.m["zone_cards"](state._c, z)]
    if len(cards) < 2:
        return None
    other = state.clone()
    other._deal_hidden(zones, cards[1:] + cards[:1])
    assert other.observation(None) != state.observation(None), "the swap changed nothing"
    return other


def reader_of(role: Role) -> int | None:
    return role.seat if role.kind == "seat" else None
