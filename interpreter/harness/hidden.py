"""The ``hidden-choice`` check: cards a player puts where another seat cannot see them
(a discard face down, a card taken from a hidden stock) leave that seat unable to tell
which cards they were.

At a card selection whose source and destination are both hidden from seat ``q``, the
legal selections are applied on clones (:meth:`Run.apply_on_clones`); any two of them
after which ``q`` sees the same cards in the same places and every zone holds as many
cards must give ``q`` the same observation, information-state string and
information-state tensor. (Selections after which ``q`` sees different cards, such as
the trumps Cinch's robber must show, are not compared: those differences are the rules'.
A `shows` selection is not checked at all: it shows every seat the cards chosen.)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

from ..embedding.infostate import information_state
from ..state.state import Game, State

Seen = tuple[object, ...]


class Checked(Protocol):
    """What the check needs of a run (:class:`interpreter.harness.run.Run`)."""

    game: Game
    n: int

    def fail(self, code: str, message: str) -> None: ...

    def oracle_mask(self, core: Any, z: int) -> int: ...

    def zones(self, core: Any) -> list[list[int]]: ...

    def trick_cards(self, core: Any) -> list[int]: ...


def _seen(run: Checked, state: State, q: int) -> Seen:
    """What ``q`` could compare between two outcomes without knowing hidden cards: the size of
    every zone, the cards in the zones it sees (and the trick), whose turn it is."""
    core = state._c
    zones = run.zones(core)
    shown = tuple(tuple(sorted(cards)) if run.oracle_mask(core, z) >> q & 1 else None for z, cards in enumerate(zones))
    return (tuple(len(cards) for cards in zones), shown, tuple(run.trick_cards(core)), state.current_player)


def _views(state: State, q: int) -> tuple[str, str, tuple[float, ...]]:
    """``q``'s observation, information-state string and tensor (one replay of the events)."""
    obs = state.observation(q)
    text = json.dumps(obs, sort_keys=True)
    infostate = information_state(state, q, observation=obs)
    return text, json.dumps(infostate, sort_keys=True, ensure_ascii=False), tuple(state.information_state_tensor(q))


_VIEW_NAMES = ("observation", "information-state string", "information-state tensor")


def check_hidden_choice(run: Checked, state: State, outcomes: Sequence[tuple[str, State]]) -> None:
    """Report ``hidden-choice`` when a seat from which a selection's cards stay hidden can
    tell two of its outcomes apart (``outcomes``: each legal action applied on a clone).
    Views cost a replay of the events: at most :data:`PER_SEAT` outcomes are compared for a seat."""
    core = state._c
    if core.terminal or len(outcomes) < 2 or run.game.dps[core.dp].kind != "select":
        return
    if run.game.dps[core.dp].verb == "show":  # (`shows`: the rules show every seat the cards chosen)
        return
    src, dst = core.sel_src, core.sel_dst
    for q in range(run.n):
        if q == core.actor or (run.oracle_mask(core, src) | run.oracle_mask(core, dst)) >> q & 1:
            continue
        groups: dict[Seen, list[tuple[str, State]]] = {}
        for text, outcome in outcomes:
            groups.setdefault(_seen(run, outcome, q), []).append((text, outcome))
        budget = PER_SEAT
        for group in sorted(groups.values(), key=len, reverse=True):
            if len(group) < 2 or budget < 2:
                break
            picked = [group[round(i * (len(group) - 1) / (min(budget, len(group)) - 1))]
                      for i in range(min(budget, len(group)))]
            budget -= len(picked)
            _compare(run, q, picked)


PER_SEAT = 4
"""The most outcomes of one selection whose views are compared for one seat."""


def _compare(run: Checked, q: int, outcomes: Sequence[tuple[str, State]]) -> None:
    text0, views0 = outcomes[0][0], _views(outcomes[0][1], q)
    for text, outcome in outcomes[1:]:
        differ = [name for name, a, b in zip(_VIEW_NAMES, views0, _views(outcome, q), strict=True) if a != b]
        if differ:
            run.fail("hidden-choice", f"seat {q} tells {text0!r} from {text!r} (cards it cannot see) by its "
                     f"{', '.join(differ)}")
            return
