"""Generated code for the change of deal: :meth:`Program.end_deal` and :meth:`Program.start_deal`
written out for one program (``z_end_deal``, ``z_start_deal``; the seats of the roles the
``deal`` event names, ``z_deal_roles``), replacing those methods on the program's instance.

What they do is the generic methods' work, in the same order, with what the program fixes
when compiling written as literals: the number of seats and cards, the pack's zone, the
deal's fields at its start (``Program._reset_deal``), the target when it is a number, the
rotation of the deal and the limit of deals. Only the common case is written out: a deal
shuffled from the match's seed. A prearranged deck, reseeded deals, explicit chance, the
match's end (a target reached, the last deal, the limit of deals) call the generic methods.

The events are logged as :meth:`Program.emit` logs them (the same limits, checked first,
and the same ``GameLimitError`` from ``emit`` itself when one would be passed), straight
into the log while its open tail is shorter than ``core.ev_room`` (set at the deal's start:
the entries the tail may hold before a limit is near) and no ``emit`` is installed on the
program (the invariant harness's hook); else ``emit`` is called. The limits (:data:`~interpreter.program.MAX_EVENTS_PER_DEAL` and
``MAX_EVENTS_PER_MATCH``) are read when generating, and written as literals. The scores
of the blocks (:mod:`interpreter.codegen_flow`), the dealing and turning up log theirs
the same way (:func:`emit`, :func:`emit_all`, :func:`add_score`). No text of the rule file reaches the source (see :mod:`interpreter.codegen`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from tricklang.walk import Unknown

from . import events as ev
from . import program as limits
from . import seeding
from .cards import NO_TRUMP
from .codegen_base import expression
from .core import Core
from .expressions import known
from .flow import MAX_NUMBER
from .logs import SEAL_AT_LEAST, EventLog
from .program import Program

if TYPE_CHECKING:
    from .codegen import Writer

END, START, ROLES, NEW = "z_end_deal", "z_start_deal", "z_deal_roles", "z_new_core"
"""The generated functions' names (the program's ``end_deal``, ``start_deal``, ``deal_roles`` and ``new_core``)."""


def emit(w: Writer, prog: Program, entry: str, events: bool = False) -> None:
    """Lines that log ``entry`` (an expression of the source, evaluated once) as
    ``Program.emit`` does: appended while the log's open tail is below ``core.ev_room``
    (the limits on events far), else by ``emit``, which checks them (and raises); by
    ``emit`` also when one is installed on the program. ``events``: the local ``events``
    holds ``core.events`` already."""
    prog_name = _obj(w, "z_PROG", prog)
    hooks = _obj(w, "z_PROG_DICT", prog.__dict__)  # whether an `emit` is installed on the instance
    w.line(f"entry = {entry}")
    w.line("tail = events._tail" if events else "tail = core.events._tail")
    with w.block(f"if len(tail) < core.ev_room and {_obj(w, 'z_EMIT', 'emit')} not in {hooks}:"):
        w.line("tail.append(entry)")
    with w.block("else:"):
        w.line(f"{prog_name}.emit(core, entry)")


def emit_all(w: Writer, prog: Program, entries: str, count: int) -> None:
    """Lines that log ``count`` entries (``entries``, the source of their tuple) as
    :meth:`Program.emit_all` does: at once while the log's room holds them all and no
    ``emit`` is installed on the program, else by the method."""
    w.line(f"entries = {entries}")
    w.line("tail = core.events._tail")
    with w.block(f"if len(tail) + {int(count)} <= core.ev_room and "
                 f"{_obj(w, 'z_EMIT', 'emit')} not in {_obj(w, 'z_PROG_DICT', prog.__dict__)}:"):
        w.line("tail.extend(entries)")
    with w.block("else:"):
        w.line(f"{_obj(w, 'z_PROG', prog)}.emit_all(core, entries)")


def add_score(w: Writer, prog: Program, amount: str, literal: int | None, names: str) -> None:
    """:meth:`Program.add_score` written out: ``side`` (a local) scores ``amount`` (the
    source of an int: ``literal`` when known when compiling) in ``scores`` (a local,
    ``core.scores``), ``names`` its label's and laws' names; the event logged, the target
    tested when the program ends the match as soon as it is reached (by the generic methods)."""
    w.line(f"scores[side] += {amount}")
    emit(w, prog, f"({int(ev.SCORE)}, side, {amount}, {names}, tuple(scores))")
    if not prog.at_once or prog.target is None or (literal is not None and literal <= 0):
        return
    prog_name = _obj(w, "z_PROG", prog)
    test = f"{prog_name}._check_target_after_deal(core)" if prog.lowest_wins else None
    with w.block(f"if {amount} > 0:") if literal is None else _nothing():
        if test is not None:
            w.line(test)
        else:
            with w.block(f"if scores[side] >= {_target(w, prog)}:"):
                w.line(f"{prog_name}._finish(core, side)")


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def _obj(w: Writer, name: str, value: Any) -> str:
    """``value`` handed to the module as ``name`` (once)."""
    if name not in w.objects:
        w.obj(name, value)
    return name


def _target(w: Writer, prog: Program) -> str:
    """The source of the target's value (the program has one): a literal when known and a number."""
    assert prog.target is not None
    value = known(prog.target)
    if type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER:
        return repr(int(value))
    if isinstance(value, Unknown):
        return f"{_obj(w, 'z_TARGET', prog.target)}(core)"
    return _obj(w, "z_TARGET_KNOWN", value)


def write(w: Writer, prog: Program) -> list[tuple[int, str, str]]:
    """Write the functions; returns what to attach, as (-1: the program, method, function)."""
    prog_name = _obj(w, "z_PROG", prog)
    out = []
    if prog.seat_roles:
        _roles(w, prog)
        out.append((-1, "deal_roles", ROLES))
    _start(w, prog, prog_name)
    _end(w, prog, prog_name)
    _new_core(w, prog, prog_name)
    return out + [(-1, "start_deal", START), (-1, "end_deal", END), (-1, "new_core", NEW)]


def _roles(w: Writer, prog: Program) -> None:
    w.line()
    w.line("# the seats of the roles named by the deal event")
    with w.block(f"def {ROLES}(core):"):
        w.line(f"return {_roles_tuple(w, prog)}")


def _roles_tuple(w: Writer, prog: Program) -> str:
    """The source of the tuple of the seats of the roles (:attr:`Program.seat_roles`)."""
    texts = []
    for i, fn in enumerate(prog.seat_roles.values()):
        text = expression(w, f"z_ROLE{i}", fn)
        texts.append(text if text is not None else f"{_obj(w, f'z_ROLE{i}', fn)}(core)")
    return "(" + "".join(f"{t}, " for t in texts) + ")"


def _start(w: Writer, prog: Program, prog_name: str) -> None:
    """``start_deal``: gather the cards, shuffle from the seed, the deal's fields at their start."""
    n, size = prog.n, prog.tables.size
    w.line()
    w.line("# a deal starts: Program.start_deal, then _reset_deal, for a deal shuffled from the match's seed")
    generic = w.obj("z_START_GENERIC", Program.start_deal)
    order = w.obj("z_deal_order", seeding.deal_order)
    with w.block(f"def {START}(core):"):
        w.line("zones = core.zones")
        with w.block("for z in zones:"), w.block("if z:"):
            w.line("z.clear()")
        with w.block("if core.tape is not None or core.deck is not None or core.decks or core.reseeds:"):
            w.line(f"return {generic}({prog_name}, core)  # prearranged, reseeded or explicit: the generic method")
        w.line(f"zones[{int(prog.pack)}] = {order}(core.seed, core.deal_no, {int(size)})")
        w.line(f"core.vars = [None] * {len(prog.var_names)}")
        w.line(f"core.trump = {int(NO_TRUMP)}")
        w.line(f"core.ti = {int(prog.tables.nsuits)}")
        w.line("core.maker = -1")
        w.line("core.bid = core.pc = core.tr_total = core.tr_no = core.chance = 0")
        w.line("core.tr_active = False")
        w.line("core.tr_leader = core.tr_turn = -1")
        for attr, empty in (("tr_cards", "[]"), ("tr_players", "[]"), ("declared", "set()"), ("calls", "[]"),
                            ("exposed", "set()")):
            with w.block(f"if core.{attr}:"):
                w.line(f"core.{attr} = {empty}")
        w.line(f"core.played = [False] * {int(n)}")
        if prog.lead_patterns:
            w.line(f"core.broken = [False] * {len(prog.lead_patterns)}")
        w.line(f"core.tricks_won = [0] * {int(n)}")
        if prog.auctions:
            _reset_auction(w)
        w.line("core.deal_scores = core.scores[:]")
        w.line("events = core.events")
        with w.block(f"if len(events._tail) >= {int(SEAL_AT_LEAST)}:"):
            w.line("events.seal()  # the earlier deals' events are packed away (interpreter.logs)")
        w.line("core.deal_events = events._sealed + len(events._tail)")
        w.line(f"core.ev_room = min(core.deal_events + {int(limits.MAX_EVENTS_PER_DEAL)}, "
               f"{int(limits.MAX_EVENTS_PER_MATCH)}) - events._sealed")
        w.line(f"core.bids = [-1] * {int(n)}")
        if prog.holders:
            w.line(f"core.dealt_to = [-1] * {int(size)}")
            w.line(f"core.taken_by = [-1] * {int(size)}")
        w.line(f"core.steps += {int(size)}  # a shuffle counts, so a deal that always redeals is stopped")
        roles = _roles_tuple(w, prog) if prog.seat_roles else "()"
        emit(w, prog, f"({int(ev.DEAL)}, core.deal_no + 1, core.dealer, {roles})", events=True)


def _end(w: Writer, prog: Program, prog_name: str) -> None:
    """``end_deal``: the deal's end logged, the target tested, the next deal started."""
    w.line()
    w.line("# a deal ends: Program.end_deal (the match's end by the generic methods)")
    with w.block(f"def {END}(core):"):
        emit(w, prog, f"({int(ev.DEAL_END)}, core.deal_no + 1, tuple(core.scores))")
        if not prog.at_once and prog.target is not None:
            with w.block(f"if max(core.scores) >= {_target(w, prog)}:  # a side reached it: the generic test"):
                w.line(f"{prog_name}._check_target_after_deal(core)")
                with w.block("if core.terminal:"):
                    w.line("return")
        with w.block("if core.last_deal:"):
            w.line(f"{prog_name}._finish_by_best_score(core)")
            w.line("return")
        w.line("no = core.deal_no + 1")
        w.line("core.deal_no = no")
        with w.block(f"if no >= {int(prog.deal_limit)}:"):
            w.line(f"{prog_name}._abandon(core)")
            w.line("return")
        w.line(f"core.dealer = (core.dealer + {int(prog.rotation)}) % {int(prog.n)}")
        w.line(f"{START}(core)")


def _new_core(w: Writer, prog: Program, prog_name: str) -> None:
    """``new_core`` for a match shuffled from its seed (with a prearranged deck, decks,
    reseeds or explicit chance, the generic method): the fields the deal's start does not
    set, the first dealer, the first deal's start."""
    n, size, sides = prog.n, prog.tables.size, len(prog.sides)
    w.line()
    w.line("# a match starts: Program.new_core, for a match shuffled from its seed")
    generic = _obj(w, "z_NEW_CORE_GENERIC", Program.new_core)
    with w.block(f"def {NEW}(seed, deck, dealer, table=False, tape=None, decks=None, reseeds=None):"):
        with w.block("if deck is not None or tape is not None or decks or reseeds:"):
            w.line(f"return {generic}({prog_name}, seed, deck, dealer, table, tape, decks, reseeds)")
        w.line(f"core = {_obj(w, 'z_Core', Core)}()")
        w.line("core.decks = {}")
        w.line("core.reseeds = {}")
        w.line("core.table = table")
        w.line("core.tape = core.deck = None")
        w.line("core.tape_pos = core.deal_no = core.steps = 0")
        w.line("core.zones = [" + "[], " * len(prog.zones) + "]")
        w.line(f"core.scores = [0] * {int(sides)}")
        counters = [f"{_obj(w, f'z_COUNTER{i}', name)}: [0] * {int(n if kind == 'player' else sides if kind == 'side' else 1)}, "
                    for i, (name, kind) in enumerate(prog.counters.items())]
        w.line("core.counters = {" + "".join(counters) + "}")
        w.line("core.seed = seed")
        w.line("core.terminal = core.last_deal = False")
        w.line("core.winner = -1")
        w.line(f"core.events = {_obj(w, 'z_EventLog', EventLog)}()")
        w.line("core.ev_room = 0  # (set by the deal's start)")
        if not prog.auctions:  # else the deal's start sets them
            _reset_auction(w)
        w.line("core.tr_cards = []")
        w.line("core.tr_players = []")
        w.line("core.calls = []")
        w.line("core.declared = set()")
        w.line("core.exposed = set()")
        if not prog.lead_patterns:  # else the deal's start sets it
            w.line("core.broken = []")
        if not prog.holders:  # else the deal's start sets them
            w.line(f"core.dealt_to = [-1] * {int(size)}")
            w.line(f"core.taken_by = [-1] * {int(size)}")
        with w.block("if dealer is None:"):
            if prog.first_dealer is not None:
                w.line(f"dealer = {int(prog.first_dealer)}")
            else:
                w.line(f"dealer = {_obj(w, 'z_first_dealer', seeding.first_dealer)}(seed, {int(n)})")
        w.line("core.first_dealer = core.dealer = dealer")
        w.line(f"{START}(core)")
        w.line("return core")


def _reset_auction(w: Writer) -> None:
    """:meth:`Program._reset_auction` written out."""
    w.line("core.au_active = False")
    w.line("core.au_order = []")
    w.line("core.au_pos = core.au_high = 0")
    w.line("core.au_bidder = -1")
    w.line("core.au_passed = []")


def attach(prog: Program, ns: dict[str, Any], entries: list[tuple[int, str, str]]) -> None:
    """Set the program's generated methods (entries with pc -1) on its instance."""
    for pc, method, fn in entries:
        if pc < 0:
            setattr(prog, method, ns[fn])
