"""Generated code for automatic instructions between decisions that turn up cards, set
the trump or the contract: ``turn up K to Z``, ``trump is suit of Z``, ``trump is S``,
``set maker = P``, ``set bid = N`` (drawing is :mod:`interpreter.codegen_draw`'s). Each is the instruction's ``run`` written out for one
program: the same checks, the same messages naming the rule line, the same events; the
blocks of :mod:`interpreter.codegen_flow` call them in turn, as they call generated dealing.

No text of the rule file reaches the source (see :mod:`interpreter.codegen`): names are
made here from the instruction's index, numbers written with ``repr`` of an ``int``, and
laws, messages and closures handed to the module as objects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import events as ev
from .cards import NO_TRUMP
from .codegen_base import expression
from .codegen_deals import emit
from .dealing import SetTrump, TurnUp
from .errors import RuleRuntimeError
from .expressions import known
from .flow import SetBuiltin
from .program import Program

if TYPE_CHECKING:
    from .codegen import Writer


def written(ins: object) -> bool:
    """Whether :func:`write` writes this instruction (``trump is no trump`` stays generic)."""
    if type(ins) is TurnUp:
        return True
    return type(ins) is SetTrump and ins.source in ("zone", "fixed") or type(ins) is SetBuiltin


def write(w: Writer, prog: Program, ins: Any, pc: int) -> str:
    """Write the instruction's ``run`` (one :func:`written` says yes to); returns its name."""
    if type(ins) is TurnUp:
        return _turn_up(w, prog, ins, pc)
    if type(ins) is SetTrump:
        return _set_trump(w, prog, ins, pc)
    return _set_builtin(w, prog, ins, pc)


def _value(w: Writer, name: str, fn: Any) -> str:
    """An expression's source: an int literal when known, written out when it has a
    source, else its closure's call (``name``: the object's generated name)."""
    v = known(fn)
    if type(v) is int:
        return repr(int(v))
    text = expression(w, name, fn)
    return text if text is not None else w.obj(name, fn) + "(core)"


def _mask(w: Writer, prog: Program, name: str, zone: str) -> str:
    """The source of :meth:`Program.zone_mask` of the zone instance ``zone`` (a local name)."""
    masks = name if name in w.objects else w.obj(name, tuple(int(z.mask) for z in prog.zones))
    return f"({int(prog.all_mask)} if {zone} in core.exposed else {masks}[{zone}])"


def _turn_up(w: Writer, prog: Program, ins: TurnUp, pc: int) -> str:
    """``turn up K to Z``: :meth:`TurnUp.run <interpreter.dealing.TurnUp.run>` written out
    (the top card first)."""
    fn = f"u{pc}_run"
    w.line()
    w.rule_line(ins.line, f"turn up cards (instruction {pc})")
    error = w.obj(f"u{pc}_RuleRuntimeError", RuleRuntimeError)
    count = known(ins.count)
    with w.block(f"def {fn}(core):"):
        w.line(f"pack = core.zones[{int(prog.pack)}]")
        w.line(f"k = {_value(w, f'u{pc}_COUNT', ins.count)}")
        with w.block("if k > len(pack):"):
            w.line(f"raise {error}({w.obj(f'u{pc}_RUN_OUT', f'line {ins.line}: the pack ran out when turning up')})")
        w.line(f"dest = {_value(w, f'u{pc}_DEST', ins.dest)}")
        if type(count) is int and count == 1:
            w.line("cards = (pack.pop(),)")
        else:
            w.line("cards = tuple(pack[-1:-k - 1:-1]) if k > 0 else ()  # the top card first")
            w.line("del pack[len(pack) - len(cards):]")
        w.line("core.zones[dest].extend(cards)")
        emit(w, prog, f"({int(ev.TURN_UP)}, cards, dest, {_mask(w, prog, f'u{pc}_MASKS', 'dest')})")
        w.line("core.pc += 1")
    return fn


def _set_trump(w: Writer, prog: Program, ins: SetTrump, pc: int) -> str:
    """``trump is suit of Z`` or ``trump is S``: :meth:`SetTrump.run
    <interpreter.dealing.SetTrump.run>` written out."""
    fn = f"r{pc}_run"
    w.line()
    w.rule_line(ins.line, f"set the trump (instruction {pc})")
    laws = w.obj(f"r{pc}_LAWS", ins.laws)
    suits = w.const(f"r{pc}_SUIT", tuple(prog.tables.suit))  # never NO_TRUMP
    with w.block(f"def {fn}(core):"):
        if ins.source == "zone":
            w.line(f"cards = core.zones[{_value(w, f'r{pc}_ZONE', ins.zone)}]")
            with w.block("if not cards:"):
                message = w.obj(f"r{pc}_EMPTY", f"line {ins.line}: 'trump is suit of' an empty zone")
                w.line(f"raise {w.obj(f'r{pc}_RuleRuntimeError', RuleRuntimeError)}({message})")
            w.line(f"suit = {suits}[cards[-1]]")
            w.line("core.trump = core.ti = suit")
            emit(w, prog, f"({int(ev.TRUMP)}, suit, None, {laws})")
        else:
            suit = int(ins.suit)
            w.line(f"core.trump = {suit}")
            w.line(f"core.ti = {suit if suit != NO_TRUMP else int(prog.tables.nsuits)}")
            emit(w, prog, f"({int(ev.TRUMP)}, {suit if suit != NO_TRUMP else -1}, None, {laws})")
        w.line("core.pc += 1")
    return fn


def _set_builtin(w: Writer, prog: Program, ins: SetBuiltin, pc: int) -> str:
    """``set maker = P`` or ``set bid = N``: :meth:`SetBuiltin.run
    <interpreter.flow.SetBuiltin.run>` written out (the same event)."""
    fn = f"k{pc}_run"
    w.line()
    w.rule_line(ins.line, f"set the maker or bid (instruction {pc})")
    laws = w.obj(f"k{pc}_LAWS", ins.laws)
    with w.block(f"def {fn}(core):"):
        w.line(f"v = {_value(w, f'k{pc}_VALUE', ins.value)}")
        if ins.name == "maker":
            w.line("core.maker = v")
            emit(w, prog, f"({int(ev.MAKER)}, v, {laws})")
        else:
            w.line("core.bid = v")
            emit(w, prog, f"({int(ev.CONTRACT_BID)}, v, {laws})")
        w.line("core.pc += 1")
    return fn
