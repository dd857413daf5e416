"""Generate Python source for the hot instructions of a compiled program, as Jinja2 compiles
templates: a visitor writes source lines once per ruleset and options, the module is
executed once, and its functions replace the generic methods of the instructions they
stand for.

What runs as generated code: trick play (``Tricks``: getting a trick ready, who is to
act, the legal plays, playing a card, taking the trick; written by
:mod:`interpreter.codegen_tricks`, which also gives the random step of
:meth:`interpreter.State.sample_action` its cards and its play, and :meth:`interpreter.State.playout`
a run of cards, see :mod:`interpreter.codegen_runs`), dealing (``DealCards``),
card selections (``Select``, see :mod:`interpreter.codegen_select`), choices (``Choose``,
see :mod:`interpreter.codegen_choose`), drawing (``Draw``, see :mod:`interpreter.codegen_draw`),
auctions (``Auction``, see :mod:`interpreter.codegen_bids`), the steps between decisions
(basic blocks of automatic instructions, see :mod:`interpreter.codegen_flow`) and the change
of deal (the program's ``end_deal`` and ``start_deal``, see :mod:`interpreter.codegen_deals`).
Cards are small ints; the legal plays come from per-(trump, suit led) bitmasks, the
winner of a trick from per-(trump, suit led) strength tables, both written into the
module as literals; obligations switched off by an option are left out, the others
inlined in their order; packets of a known size are unrolled. A player's own bid,
naming trumps and the expressions of the rule file stay in the closure compiler
(:mod:`interpreter.compiler`), called from the generated code where needed; rare
situations of trick play (a declaration window open or made, a player without cards in
the middle of a trick, the first trick's set-up) call the generic methods. Run-time errors
keep naming the rule line (the messages are made here, with the instruction's line).

Rule files are untrusted: no text of a rule file reaches the generated source. Every
identifier in it is made here (``t3_legal``, ``t3_LEAD0``...); numbers are written with
``repr`` of an ``int``; names, laws and expressions of the rule file are objects handed
to the module's namespace under generated names, never spelled in the source. The
module runs with no builtins but the few it calls (:data:`BUILTINS`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any

from tricklang.walk import Unknown

from . import codegen_deals as deals
from . import codegen_moves as moves
from . import events as ev
from . import sources
from . import tricks as tr
from .codegen_base import expression
from .codegen_base import plus as _plus
from .codegen_bids import AuctionGen
from .codegen_choose import ChooseGen
from .codegen_draw import DrawGen
from .codegen_flow import KINDS, FlowGen
from .codegen_select import SelectGen
from .codegen_tricks import TricksGen
from .dealing import DealCards, Draw
from .decisions import Auction, Choose, Select
from .errors import RuleRuntimeError
from .expressions import known
from .flow import _visible_mask
from .instructions import Move
from .program import Program

ENABLED = True
"""Whether :func:`interpreter.compiler.compile_ruleset` attaches generated code (tests of the
generic methods turn it off; it is part of the compile cache's key)."""

BUILTINS: dict[str, Any] = {"len": len, "sorted": sorted, "min": min, "max": max, "tuple": tuple, "list": list, "map": map,
                           "type": type, "int": int, "set": set, "sum": sum}
"""The only builtins the generated module sees."""

_GENERATED = (tr.Tricks, DealCards, Select, Auction, Choose, Draw)
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass
class Generated:
    """A generated module: its source, and the objects its namespace starts with."""

    source: str
    namespace: dict[str, Any] = field(default_factory=dict)
    attach: list[tuple[int, str, str]] = field(default_factory=list)  # (pc, method, function)

    def run(self) -> dict[str, Any]:
        """Execute the module in a fresh namespace (no builtins beyond :data:`BUILTINS`)."""
        ns: dict[str, Any] = {"__builtins__": dict(BUILTINS), **self.namespace}
        exec(compile(self.source, "<tricklang generated>", "exec"), ns)  # noqa: S102 - source made here only
        return ns


class Writer:
    """Source lines with indentation; every piece of text comes from this module."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.level = 0
        self.objects: dict[str, Any] = {}

    def line(self, text: str = "") -> None:
        self.lines.append("    " * self.level + text if text else "")

    @contextmanager
    def block(self, head: str) -> Iterator[None]:
        self.line(head)
        self.level += 1
        try:
            yield
        finally:
            self.level -= 1

    def rule_line(self, line: int, what: str) -> None:
        """A comment naming the rule-file line a block comes from (``what`` is our text)."""
        self.line(f"# rule line {int(line)}: {what}")

    def const(self, name: str, value: Any) -> str:
        """Write ``name = <literal>``; the value is ints (in tuples) only."""
        assert _IDENT.match(name)
        _check_literal(value)
        self.line(f"{name} = {value!r}")
        return name

    def obj(self, name: str, value: Any) -> str:
        """Hand an object to the module under a generated name."""
        assert _IDENT.match(name) and name not in self.objects
        self.objects[name] = value
        return name

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _check_literal(value: Any) -> None:
    if isinstance(value, tuple):
        for v in value:
            _check_literal(v)
    elif type(value) is not int and type(value) is not bool:
        raise TypeError(f"only ints go into generated source as literals, not {type(value).__name__}")


# ------------------------------------------------------------------ the module


def generate(prog: Program) -> Generated:
    """The generated module of a compiled program (see the module's docstring)."""
    w = Writer()
    w.line('"""Generated by tricklang from a rule file: trick play, dealing and the steps between decisions."""')
    blocks = FlowGen(w, prog, {})
    leads = frozenset(blocks.leaders)  # a decision's take_step calls the block after it
    _header(w, prog, blocks.where())
    attach: list[tuple[int, str, str]] = []
    for pc, ins in enumerate(prog.instructions):
        if type(ins) is tr.Tricks:
            attach.extend(TricksGen(w, prog, ins, pc).write())
        elif type(ins) is DealCards:
            attach.append((pc, "run", _deal(w, prog, ins, pc)))
        elif moves.written(ins):
            attach.append((pc, "run", moves.write(w, prog, ins, pc)))
        elif _moves_all(ins):
            attach.append((pc, "run", _move_all(w, prog, ins, pc)))  # type: ignore[arg-type]
        elif type(ins) is Select:
            attach.extend(SelectGen(w, prog, ins, pc, leads).write())
        elif type(ins) is Auction:
            attach.extend(AuctionGen(w, prog, ins, pc).write())
        elif type(ins) is Choose:
            attach.extend(ChooseGen(w, prog, ins, pc, leads).write())
        elif type(ins) is Draw:
            attach.extend(DrawGen(w, prog, ins, pc).write())
    w.line()
    w.line("# ---------------------------------------------------------------- the change of deal")
    attach.extend(deals.write(w, prog))
    w.line()
    w.line("# ---------------------------------------------------------------- the steps between decisions")
    blocks.generated_run = {pc: fn for pc, method, fn in attach if method == "run"}
    blocks.rounds = {pc: (f"d{pc}_round", f"d{pc}_PROG") for pc, method, fn in attach  # (see _deal)
                     if method == "run" and f"def d{pc}_round(core, out):" in w.lines}
    attach.extend(blocks.write())  # after dealing's: a block's `run` replaces its first instruction's
    w.line()
    w.line("# ---------------------------------------------------------------- expressions read by the instructions")
    for pc, ins in enumerate(prog.instructions):
        attach.extend(_flat_expressions(w, pc, ins))
    return Generated(w.text(), w.objects, attach)


def _flat_expressions(w: Writer, pc: int, ins: Any) -> list[tuple[int, str, str]]:
    """One function for each expression an instruction holds that has a source (see
    :mod:`interpreter.sources`): it takes the place of the closure (a chain of calls, one
    per node), wherever the instruction's methods, generated or generic, read it."""
    out: list[tuple[int, str, str]] = []
    for attr, value in sorted(vars(ins).items()):
        if not isinstance(value, FunctionType) or sources.of(value) is None or not isinstance(known(value), Unknown):
            continue
        fn = f"x{pc}_{len(out)}"
        text = expression(w, fn, value)
        assert text is not None
        with w.block(f"def {fn}(core):"):
            w.line(f"return {text}")
        out.append((pc, attr, fn))
    return out


def attach(prog: Program) -> Generated:
    """Generate, run and attach the module to the program's instructions (their methods,
    as instance attributes). Returns what was generated."""
    gen = generate(prog)
    bind(prog, gen, gen.run())
    return gen


def bind(prog: Program, gen: Generated, ns: dict[str, Any]) -> None:
    """Attach a generated module's functions, found in ``ns`` (the namespace ``gen`` ran
    in, by :meth:`Generated.run` or as a native build, :mod:`interpreter.native`), to the
    program ``gen`` was generated for."""
    deals.attach(prog, ns, gen.attach)
    for pc, method, fn in gen.attach:
        if pc < 0:  # the program's own (interpreter.codegen_deals)
            continue
        ins = prog.instructions[pc]
        source = sources.of(getattr(ins, method, None))
        if source is not None:  # an expression's flat function: it has the closure's source
            sources.register(ns[fn], source.text, source)
        setattr(ins, method, ns[fn])


def _header(w: Writer, prog: Program, blocks: dict[int, str]) -> None:
    """Comments listing every instruction, its rule line and where it runs."""
    w.line("#")
    w.line("# The program, instruction by instruction (pc: rule line, what, where it runs):")
    for pc, ins in enumerate(prog.instructions):
        kind = KINDS.get(type(ins).__name__, "an instruction")
        where = "generated below" if type(ins) in _GENERATED or _moves_all(ins) or moves.written(ins) else blocks.get(pc, "closure compiler")
        line = f"line {int(ins.line)}" if ins.line > 0 else "no rule line (the flow between blocks)"
        w.line(f"#   {pc}: {line}, {kind}: {where}")
    w.line("#")
    w.line()


# ------------------------------------------------------------------ dealing


def _deal(w: Writer, prog: Program, ins: DealCards, pc: int) -> str:
    """``deal A, B to each``: packets of a known size unrolled, seat by seat from ``first``
    (and then ``d<pc>_round``, the same for a loop of this deal alone: see ``FlowGen._deal_loop``)."""
    fn = f"d{pc}_run"
    w.line()
    w.rule_line(ins.line, f"deal cards (instruction {pc})")
    prog_name = w.obj(f"d{pc}_PROG", prog)  # its methods looked up when called (tests patch Program.emit)
    error = w.obj(f"d{pc}_RuleRuntimeError", RuleRuntimeError)
    fail = f"raise {error}({w.obj(f'd{pc}_RUN_OUT', f'line {ins.line}: the pack ran out while dealing')})"
    sizes = [k for k in map(known, ins.packets) if type(k) is int]
    shares = _shares(w, pc, prog.n, sizes) if len(sizes) == len(ins.packets) else None
    with w.block(f"def {fn}(core):"):
        _deal_start(w, prog, ins, pc)
        if shares is not None:
            _deal_known(w, prog, shares, "", fail)
        else:
            _deal_packets(w, prog, ins, pc, prog_name, fail)
        w.line("core.pc += 1")
    if shares is not None:
        w.line("# the same, one round of a loop of it (the loop logs the rounds' entries together)")
        with w.block(f"def d{pc}_round(core, out):"):
            _deal_start(w, prog, ins, pc)
            _deal_known(w, prog, shares, "out.extend(", fail)
    return fn


def _deal_start(w: Writer, prog: Program, ins: DealCards, pc: int) -> None:
    if ins.first is None:
        w.line(f"first = (core.dealer + 1) % {prog.n}")
    else:
        text = expression(w, f"d{pc}_first", ins.first)
        name = f"d{pc}_first"
        w.line(f"first = {text if text is not None else (name if name in w.objects else w.obj(name, ins.first)) + '(core)'}")
    w.line("zones = core.zones")
    w.line(f"pack = zones[{prog.pack}]")
    if prog.holders:  # who was first given each card, for `holder of` (Program.note_hand)
        w.line("dealt_to = core.dealt_to")


def _deal_packets(w: Writer, prog: Program, ins: DealCards, pc: int, prog_name: str, fail: str) -> None:
    """Packets whose size is computed when dealing: seat by seat, then an event a seat."""
    n = prog.n
    w.line(f"seats = [(first + i) % {n} for i in (" + ", ".join(str(i) for i in range(n)) + ",)]")
    w.line(f"got = [{', '.join('[]' for _ in range(n))}]")
    for j, packet in enumerate(ins.packets):
        k = known(packet)
        if type(k) is int:
            if k <= 0:
                w.line(f"# packet {j}: no cards")
                continue
            w.line(f"# packet {j}: {k} cards to each")
            w.line(f"k = {k}")
        else:
            w.line(f"# packet {j}: its size computed now")
            w.line(f"k = {w.obj(f'd{pc}_packet{j}', packet)}(core)")
        with w.block("for p in seats:"):
            with w.block("if k > len(pack):"):
                w.line(fail)
            with w.block("if k > 0:"):
                w.line("cards = pack[-1:-k - 1:-1]")
                w.line("del pack[-k:]")
            with w.block("else:"):
                w.line("cards = []")
            w.line(f"zones[{_plus(prog.hand, 'p')}].extend(cards)")
            if prog.holders:
                with w.block("for c in cards:"):
                    with w.block("if dealt_to[c] < 0:"):
                        w.line("dealt_to[c] = p")
            w.line("got[p].extend(cards)")
    with w.block("for p in seats:"):
        w.line(f"{prog_name}.emit(core, ({int(ev.DEALT)}, p, tuple(got[p])))")


# ------------------------------------------------------------------ moving all cards


def _written(w: Writer, name: str, fn: Any) -> str:
    """An expression written out when it has a source, else its closure's call."""
    text = expression(w, name, fn)
    return text if text is not None else w.obj(name, fn) + "(core)"


def _moves_all(ins: object) -> bool:
    """``move all [matching P] from Z to Y`` (a plain Move: not one to the bottom of a zone)."""
    return type(ins) is Move and ins.mode == "all"


def _move_all(w: Writer, prog: Program, ins: Move, pc: int) -> str:
    """``move all [matching P] from Z to Y``: the cards (those matching, in order) go at once."""
    fn = f"m{pc}_run"
    w.line()
    w.rule_line(ins.line, f"move cards (instruction {pc})")
    name = w.obj(f"m{pc}_PROG", prog)
    with w.block(f"def {fn}(core):"):
        w.line(f"s = {_written(w, f'm{pc}_SOURCE', ins.source)}")
        w.line(f"d = {_written(w, f'm{pc}_DEST', ins.dest)}")
        w.line("zones = core.zones")
        w.line("src = zones[s]")
        if ins.test is None:
            w.line("moved = src")
            w.line("zones[s] = []")
        else:
            w.line(f"test = {w.obj(f'm{pc}_TEST', ins.test)}[core.ti]")
            w.line("moved = [c for c in src if test[c]]")
            w.line("zones[s] = [c for c in src if not test[c]]")
        w.line("zones[d].extend(moved)")
        with w.block("if moved:"):
            w.line(f"{name}.note_hand(core, d, moved)")
            mask = f"{w.obj(f'm{pc}_visible_mask', _visible_mask)}({name}, core, d, s, -1)"
            w.line(f"{name}.emit(core, ({int(ev.MOVE)}, s, d, tuple(moved), {w.obj(f'm{pc}_LAWS', ins.laws)}, {mask}))")
        w.line("core.pc += 1")
    return fn


def _shares(w: Writer, pc: int, n: int, sizes: list[int]) -> tuple[int, list[tuple[int, ...]]]:
    """Packets all of a known size: where each seat's cards (in the order the packets give
    them) lie among the cards leaving the pack (0: the top card); and how many leave."""
    shares: list[list[int]] = [[] for _ in range(n)]
    j = 0
    for k in sizes:
        for i in range(n):
            for _ in range(max(k, 0)):
                shares[i].append(j)
                j += 1
    w.line(f"# packets of {', '.join(str(max(k, 0)) for k in sizes)} cards to each: {j} cards")
    return j, [tuple(share) for share in shares]


def _deal_known(w: Writer, prog: Program, shares: tuple[int, list[tuple[int, ...]]], emit_all: str,
                fail: str) -> None:
    """The cards leave the pack at once, each seat's share read from the pack by position (no
    list a packet); the seats' ``dealt`` events are logged together, in seat order (by
    ``emit_all``, the start of a call, or "": ``Program.emit_all`` written out). The pack
    running short is found before any card moves (the message is the same; a failed action
    is undone anyway)."""
    total, picks = shares
    with w.block(f"if {total} > len(pack):"):
        w.line(fail)
    entries = []
    for i in range(prog.n):
        p = f"p{i}"
        w.line(f"{p} = first % {int(prog.n)}" if i == 0 else f"{p} = (first + {i}) % {int(prog.n)}")
        hand = f"zones[{_plus(prog.hand, p)}]"
        cards = [f"pack[{-1 - j}]" for j in picks[i]]
        if len(cards) == 1:
            w.line(f"c{i} = {cards[0]}")
            w.line(f"{hand}.append(c{i})")
            if prog.holders:
                with w.block(f"if dealt_to[c{i}] < 0:"):
                    w.line(f"dealt_to[c{i}] = {p}")
            entries.append(f"({int(ev.DEALT)}, {p}, (c{i},))")
            continue
        w.line(f"cards{i} = (" + "".join(f"{c}, " for c in cards) + ")")
        if cards:
            w.line(f"{hand}.extend(cards{i})")
            if prog.holders:
                with w.block(f"for c in cards{i}:"):
                    with w.block("if dealt_to[c] < 0:"):
                        w.line(f"dealt_to[c] = {p}")
        entries.append(f"({int(ev.DEALT)}, {p}, cards{i})")
    if total:
        w.line(f"del pack[{-total}:]")
    if emit_all:
        w.line(f"{emit_all}(" + "".join(f"{e}, " for e in entries) + "))")
    else:  # Program.emit_all written out
        deals.emit_all(w, prog, "(" + "".join(f"{e}, " for e in entries) + ")", len(entries))


__all__ = ["BUILTINS", "ENABLED", "Generated", "RuleRuntimeError", "attach", "generate"]
