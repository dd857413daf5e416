"""Irregularities in table mode: the actions ``irregular NAME SEAT [ARG...]`` on offer,
their arguments (a count, a card, a suit), why one is refused, and the start of a remedy.

An irregularity's parameters (``(extra: count 1..3, shown: card in hand of offender)``)
are what the referee says besides the seat. The actions are listed in a fixed order:
irregularities as declared, seats from 0, then the arguments (the first parameter
varying slowest; counts upwards, cards in deck order, suits in the deck's order), each
kept only when the irregularity's guard holds for that seat and those arguments. A count
is written as a number, a card as its code (``irregular card_exposed 2 QH``), a suit as
its name (``irregular named_another_suit 1 hearts``); the arguments are public: the
irregularity's event names them for every seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from typing import TYPE_CHECKING, Any

from .actions import Action
from .errors import InvalidActionError

if TYPE_CHECKING:
    from .core import Core
    from .decisions import IrregularityEntry, ParamSpec
    from .program import Program


def offered(prog: Program, core: Core, phase: str, named_only: bool = False) -> list[Action]:
    """The irregular actions on offer now, in their fixed order (see the module docstring);
    with ``named_only``, only those of irregularities that name ``phase`` (not `during any`)."""
    out: list[Action] = []
    in_remedy = bool(core.calls)
    for irr in prog.irregularities:
        if in_remedy and not irr.anytime or "any" not in irr.phases and phase not in irr.phases:
            continue  # while a remedy asks for a decision, only those declared `during any`
        if named_only and phase not in irr.phases:
            continue
        seats = [irr.by(core)] if irr.by is not None else range(prog.n)
        for p in seats:
            if isinstance(p, int) and 0 <= p < prog.n:
                out.extend(Action("irregular", (irr.name, str(p), *args)) for args in _arguments(prog, core, irr, p))
    return out


def _arguments(prog: Program, core: Core, irr: IrregularityEntry, seat: int) -> Iterator[tuple[str, ...]]:
    """The argument texts for which ``irr`` is offered to ``seat`` (its guard holding)."""
    with _bound(core, irr, seat, ()):
        domains = [_values(prog, core, spec) for spec in irr.params]
    for values in product(*domains):
        with _bound(core, irr, seat, values):
            if irr.guard is not None and not irr.guard(core):
                continue
        yield tuple(_word(prog, spec, v) for spec, v in zip(irr.params, values, strict=True))


def _word(prog: Program, spec: ParamSpec, value: int) -> str:
    """An argument as the action writes it: a count's number, a card's code, a suit's name."""
    if spec.kind == "count":
        return str(value)
    return prog.tables.suit_names[value] if spec.kind == "suit" else prog.tables.codes[value]


def _value(prog: Program, spec: ParamSpec, word: str) -> int:
    """An argument's value from its (canonical) word: the inverse of :func:`_word`."""
    if spec.kind == "count":
        return int(word)
    return prog.tables.suit_names.index(word) if spec.kind == "suit" else prog.tables.index[word]


def _values(prog: Program, core: Core, spec: ParamSpec) -> list[int]:
    """A parameter's possible values now: the count range, or the cards (of its zone,
    matching its pattern) in deck order, or the suits."""
    if spec.kind in ("count", "suit"):
        return list(range(spec.low, spec.high + 1))
    cards = sorted(core.zones[spec.zone(core)]) if spec.zone is not None else list(range(prog.tables.size))
    if spec.table is not None:
        t = spec.table[core.ti]
        cards = [c for c in cards if t[c]]
    return cards


class _bound:  # noqa: N801 - used as a context manager
    """The offender and the arguments set in the core's variables, put back on leaving."""

    def __init__(self, core: Core, irr: IrregularityEntry, seat: int, values: tuple[int, ...]) -> None:
        self.core = core
        self.slots = [irr.slot] + [spec.slot for spec in irr.params[:len(values)]]
        self.values = [seat, *values]

    def __enter__(self) -> None:
        vars_ = self.core.vars
        self.saved = [vars_[s] for s in self.slots]
        for s, v in zip(self.slots, self.values, strict=True):
            vars_[s] = v

    def __exit__(self, *exc: object) -> None:
        vars_ = self.core.vars
        for s, v in zip(self.slots, self.saved, strict=True):
            vars_[s] = v


def seen_by(prog: Program, core: Core, action: Action, seat: int) -> bool:
    """Whether ``seat`` may know of this action being on offer: every card it names lies
    where ``seat`` sees it (an action naming a card hidden from it would tell where that
    card is; a seat's observation leaves such actions out)."""
    if action.verb != "irregular" or len(action.args) <= 2:
        return True
    index = prog.tables.index
    for word in action.args[2:]:
        card = index.get(word, -1)
        if card >= 0:
            z = next((z for z, cards in enumerate(core.zones) if card in cards), -1)
            if z < 0 or not prog.zone_mask(core, z) >> seat & 1:
                return False
    return True


def canonical(prog: Program, args: list[str]) -> list[str]:
    """The words after ``irregular`` in canonical form: the name and seat lower-cased,
    card arguments as their codes (``th`` -> ``10H``), suits as the deck names them
    (whatever the case), counts as written.

    Raises:
        InvalidActionError: a card argument names no card of this deck.
    """
    args = [a.lower() for a in args]
    irr = next((i for i in prog.irregularities if args and i.name == args[0]), None)
    if irr is None:
        return args
    for k, spec in enumerate(irr.params, start=2):
        if k < len(args) and spec.kind == "suit":
            args[k] = next((s for s in prog.tables.suit_names if s.lower() == args[k]), args[k])
        if k < len(args) and spec.kind == "card":
            try:
                args[k] = prog.tables.codes[prog.tables.parse_card(args[k])]
            except InvalidActionError as err:
                raise InvalidActionError(f"irregularity '{irr.name}': {spec.name} must be a card ({err})") from None
    return args


def why_not(prog: Program, core: Core, phase: str, words: list[str]) -> str:
    """Why ``irregular`` followed by ``words`` is not on offer now (an unknown name, a
    missing or extra argument, a count out of range, a card not of its zone...)."""
    irr = next((i for i in prog.irregularities if words and i.name == words[0]), None)
    if irr is None:
        names = ", ".join(i.name for i in prog.irregularities) or "none"
        return f"no irregularity is named {words[0]!r} (this game's: {names})" if words else "name the irregularity and the seat"
    usage = " ".join(["irregular", irr.name, "SEAT", *(s.name.upper() for s in irr.params)])
    if len(words) != 2 + len(irr.params):
        return f"irregularity '{irr.name}' is written '{usage}'"
    if core.calls and not irr.anytime:
        return f"irregularity '{irr.name}' is not recorded while another irregularity's remedy is being decided"
    if "any" not in irr.phases and phase not in irr.phases:
        return f"irregularity '{irr.name}' is not recorded during {phase}"
    if not words[1].isdigit() or not 0 <= int(words[1]) < prog.n:
        return f"{words[1]!r} is not a seat (0..{prog.n - 1})"
    seat = int(words[1])
    if irr.by is not None and irr.by(core) != seat:
        return f"irregularity '{irr.name}' can only be committed by seat {irr.by(core)}"
    with _bound(core, irr, seat, ()):
        for spec, word in zip(irr.params, words[2:], strict=True):
            bad = _bad_argument(prog, core, spec, word)
            if bad:
                return f"irregularity '{irr.name}': {bad}"
    return f"irregularity '{irr.name}' cannot be recorded for seat {seat} with these arguments now (its condition does not hold)"


def _bad_argument(prog: Program, core: Core, spec: ParamSpec, word: str) -> str:
    if spec.kind == "count":
        ok = word.lstrip("-").isdigit() and spec.low <= int(word) <= spec.high
        return "" if ok else f"{spec.name} must be a count from {spec.low} to {spec.high}, not {word!r}"
    if spec.kind == "suit":
        names = prog.tables.suit_names
        return "" if word in names else f"{spec.name} must be a suit ({', '.join(names)}), not {word!r}"
    card = prog.tables.index.get(word, -1)
    if card < 0 or card not in _values(prog, core, spec):
        where = f" of {prog.zone_label(spec.zone(core))}" if spec.zone is not None else ""
        return f"{spec.name} must be a card{where}{' matching its pattern' if spec.table is not None else ''}, not {word}"
    return ""


def start(prog: Program, core: Core, action: Action) -> None:
    """Begin an irregularity's remedy: log it, bind the offender and the arguments, and jump
    to its body (it returns to the interrupted point)."""
    name, seat, args = action.args[0], int(action.args[1]), action.args[2:]
    irr = next(i for i in prog.irregularities if i.name == name)
    event: dict[str, Any] = {"type": "irregularity", "name": name, "offender": seat}
    if args:
        event["args"] = {spec.name: (int(a) if spec.kind == "count" else a) for spec, a in zip(irr.params, args, strict=True)}
    if irr.laws:
        event["laws"] = list(irr.laws)
    prog.emit(core, event)
    core.calls.append(core.pc)
    core.vars[irr.slot] = seat
    for spec, a in zip(irr.params, args, strict=True):
        core.vars[spec.slot] = _value(prog, spec, a)
    core.pc = irr.entry
