"""Declaration windows that stay open after a card is led (`declare NAME ..., after leading it`).

Right after a player leads a card that such a declaration names, and before the next
card is played to the trick, he is asked whether to declare it: his legal actions are
`declare NAME` (one per open declaration) and `continue`. The window's owner is kept in a
variable slot of the trick instruction, so that clones and saved states carry it.
Nothing here knows any particular game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action
from .core import Core

if TYPE_CHECKING:
    from .tricks import Declaration, Tricks

CONTINUE = Action("continue")


def guard_holds(core: Core, d: Declaration, p: int) -> bool:
    """A declaration's guard, evaluated with `declarer` standing for p (the slot is restored)."""
    if d.guard is None:
        return True
    saved = core.vars[d.slot]
    core.vars[d.slot] = p
    try:
        return bool(d.guard(core))
    finally:
        core.vars[d.slot] = saved


def owner(tricks: Tricks, core: Core) -> int | None:
    """The player whose window is open, if any."""
    if tricks.window_slot < 0:
        return None
    v = core.vars[tricks.window_slot]
    return v if isinstance(v, int) and v >= 0 else None


def open_declarations(tricks: Tricks, core: Core, p: int) -> list[Declaration]:
    """The `after leading it` declarations p may make now: he led the only card on the table."""
    if len(core.tr_cards) != 1 or core.tr_players[0] != p:
        return []
    card = core.tr_cards[0]
    out: list[Declaration] = []
    names: set[str] = set()
    for d in tricks.declarations:
        if not d.after_lead or d.name in names or (d.name, p) in core.declared:
            continue
        if d.test[core.ti][card] and guard_holds(core, d, p):
            out.append(d)
            names.add(d.name)
    return out


def after_play(tricks: Tricks, core: Core, p: int) -> None:
    """Open p's window if the card he has just led opens one."""
    if tricks.window_slot >= 0 and open_declarations(tricks, core, p):
        core.vars[tricks.window_slot] = p


def legal(tricks: Tricks, core: Core, p: int) -> list[Action]:
    return [d.action for d in open_declarations(tricks, core, p)] + [CONTINUE]


def apply(tricks: Tricks, core: Core, p: int, action: Action) -> None:
    """Declare (the declaration's effects run) or continue; either way the window closes."""
    if action.verb == "declare":
        for d in open_declarations(tricks, core, p):
            if d.name == action.args[0]:
                core.declared.add((d.name, p))
                event: dict[str, Any] = {"type": "declare", "player": p, "name": d.name}
                if d.laws:
                    event["laws"] = list(d.laws)
                tricks.prog.emit(core, event)
                core.vars[d.slot] = p
                d.effects(core)
                break
    core.vars[tricks.window_slot] = None
