"""Irregularities in table mode: the actions ``irregular NAME SEAT [ARG...]`` on offer,
their arguments (a count, a card, a suit), why one is refused, and their text.

An irregularity's parameters (``(extra: count 1..3, shown: card in hand of offender)``)
are what the referee says besides the seat. The actions are listed in a fixed order:
irregularities as declared, seats from 0, then the arguments (the first parameter
varying slowest; counts upwards, cards in deck order, suits in the deck's order), each
kept only when the irregularity's guard holds for that seat and those arguments (the
generated module evaluates the guards: ``irr_holds``). A count is written as a number, a
card as its code (``irregular card_exposed 2 QH``), a suit as its name (``irregular
named_another_suit 1 hearts``); the arguments are public: the irregularity's event names
them for every seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import TYPE_CHECKING

from ..errors import InvalidActionError
from .actions import Action

if TYPE_CHECKING:
    from ..codegen.layout import Irregularity, Param
    from .protocol import StateLike as State


def offered(state: State, phase: str, named_only: bool = False) -> list[Action]:
    """The irregular actions on offer now, in their fixed order (see the module docstring);
    with ``named_only``, only those of irregularities that name ``phase`` (not `during any`)."""
    g, c = state._g, state._c
    out: list[Action] = []
    in_remedy = c.ncalls > 0
    for k, irr in enumerate(g.layout.irregularities):
        if in_remedy and not irr.anytime or "any" not in irr.phases and phase not in irr.phases:
            continue  # while a remedy asks for a decision, only those declared `during any`
        if named_only and phase not in irr.phases:
            continue
        by = g.m["irr_by"](c, k)
        seats = [by] if irr.has_by else range(g.n)
        for p in seats:
            if isinstance(p, int) and 0 <= p < g.n:
                out.extend(Action("irregular", (irr.name, str(p), *(_word(state, spec, v) for spec, v in
                                                                    zip(irr.params, args, strict=True))))
                           for args in _arguments(state, k, irr, p))
    return out


def _arguments(state: State, k: int, irr: Irregularity, seat: int) -> Iterator[tuple[int, ...]]:
    """The arguments for which irregularity ``k`` is offered to ``seat`` (its guard holding)."""
    g, c = state._g, state._c
    domains = [g.m["irr_bound_values"](c, k, seat, j) for j in range(len(irr.params))]
    holds = g.m["irr_holds"]
    for values in product(*domains):
        if holds(c, k, seat, values):
            yield values


def _word(state: State, spec: Param, value: int) -> str:
    """An argument as the action writes it: a count's number, a card's code, a suit's name."""
    tables = state._g.tables
    if spec.kind == "count":
        return str(value)
    return tables.suit_names[value] if spec.kind == "suit" else tables.codes[value]


def _value(state: State, spec: Param, word: str) -> int:
    """An argument's value from its (canonical) word: the inverse of :func:`_word`."""
    tables = state._g.tables
    if spec.kind == "count":
        return int(word)
    return tables.suit_names.index(word) if spec.kind == "suit" else tables.index[word]


def parse(state: State, action: Action) -> tuple[int, int, tuple[int, ...]]:
    """(irregularity, seat, argument values) of an irregular action on offer."""
    g = state._g
    name, seat, words = action.args[0], int(action.args[1]), action.args[2:]
    k = next(i for i, irr in enumerate(g.layout.irregularities) if irr.name == name)
    irr = g.layout.irregularities[k]
    return k, seat, tuple(_value(state, spec, w) for spec, w in zip(irr.params, words, strict=True))


def text(state: State, taken: tuple[int, int, tuple[int, ...]]) -> str:
    """The text of an irregular action from its (irregularity, seat, arguments)."""
    k, seat, args = taken
    irr = state._g.layout.irregularities[k]
    return " ".join(["irregular", irr.name, str(seat), *(_word(state, spec, v) for spec, v in
                                                         zip(irr.params, args, strict=True))])


def seen_by(state: State, action: Action, seat: int) -> bool:
    """Whether ``seat`` may know of this action being on offer: every card it names lies
    where ``seat`` sees it (an action naming a card hidden from it would tell where that
    card is; a seat's observation leaves such actions out)."""
    if action.verb != "irregular" or len(action.args) <= 2:
        return True
    g, c = state._g, state._c
    index = g.tables.index
    masks = g.m["zone_masks"](c)
    for word in action.args[2:]:
        card = index.get(word, -1)
        if card >= 0:
            z = next((z for z, mask in enumerate(masks) if mask >> card & 1), -1)
            if z < 0 or not g.m["zmask"](c, z) >> seat & 1:
                return False
    return True


def canonical(state: State, args: list[str]) -> list[str]:
    """The words after ``irregular`` in canonical form: the name and seat lower-cased,
    card arguments as their codes (``th`` -> ``10H``), suits as the deck names them
    (whatever the case), counts as written.

    Raises:
        InvalidActionError: a card argument names no card of this deck.
    """
    tables = state._g.tables
    args = [a.lower() for a in args]
    irr = next((i for i in state._g.layout.irregularities if args and i.name == args[0]), None)
    if irr is None:
        return args
    for k, spec in enumerate(irr.params, start=2):
        if k < len(args) and spec.kind == "suit":
            args[k] = next((s for s in tables.suit_names if s.lower() == args[k]), args[k])
        if k < len(args) and spec.kind == "card":
            try:
                args[k] = tables.codes[tables.parse_card(args[k])]
            except InvalidActionError as err:
                raise InvalidActionError(f"irregularity '{irr.name}': {spec.name} must be a card ({err})") from None
    return args


def why_not(state: State, phase: str, words: list[str]) -> str:
    """Why ``irregular`` followed by ``words`` is not on offer now (an unknown name, a
    missing or extra argument, a count out of range, a card not of its zone...)."""
    g, c = state._g, state._c
    irrs = g.layout.irregularities
    k = next((i for i, irr in enumerate(irrs) if words and irr.name == words[0]), -1)
    if k < 0:
        names = ", ".join(i.name for i in irrs) or "none"
        return f"no irregularity is named {words[0]!r} (this game's: {names})" if words else "name the irregularity and the seat"
    irr = irrs[k]
    usage = " ".join(["irregular", irr.name, "SEAT", *(s.name.upper() for s in irr.params)])
    if len(words) != 2 + len(irr.params):
        return f"irregularity '{irr.name}' is written '{usage}'"
    if c.ncalls and not irr.anytime:
        return f"irregularity '{irr.name}' is not recorded while another irregularity's remedy is being decided"
    if "any" not in irr.phases and phase not in irr.phases:
        return f"irregularity '{irr.name}' is not recorded during {phase}"
    if not words[1].isdigit() or not 0 <= int(words[1]) < g.n:
        return f"{words[1]!r} is not a seat (0..{g.n - 1})"
    seat = int(words[1])
    by = g.m["irr_by"](c, k)
    if irr.has_by and by != seat:
        return f"irregularity '{irr.name}' can only be committed by seat {by}"
    for j, (spec, word) in enumerate(zip(irr.params, words[2:], strict=True)):
        bad = _bad_argument(state, k, j, seat, spec, word)
        if bad:
            return f"irregularity '{irr.name}': {bad}"
    return f"irregularity '{irr.name}' cannot be recorded for seat {seat} with these arguments now (its condition does not hold)"


def _bad_argument(state: State, k: int, j: int, seat: int, spec: Param, word: str) -> str:
    g, c = state._g, state._c
    if spec.kind == "count":
        ok = word.lstrip("-").isdigit() and spec.low <= int(word) <= spec.high
        return "" if ok else f"{spec.name} must be a count from {spec.low} to {spec.high}, not {word!r}"
    if spec.kind == "suit":
        names = g.tables.suit_names
        return "" if word in names else f"{spec.name} must be a suit ({', '.join(names)}), not {word!r}"
    card = g.tables.index.get(word, -1)
    if card < 0 or card not in g.m["irr_bound_values"](c, k, seat, j):
        where = f" of {g.zone_label(g.m['irr_zone'](c, k, j, seat))}" if spec.zone is not None else ""
        return f"{spec.name} must be a card{where}{' matching its pattern' if spec.pattern >= 0 else ''}, not {word}"
    return ""

