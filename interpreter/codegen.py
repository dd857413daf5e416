"""Generate Python source for the hot instructions of a compiled program, as Jinja2 compiles
templates: a visitor writes source lines once per ruleset and options, the module is
executed once, and its functions replace the generic methods of the instructions they
stand for.

What runs as generated code: trick play (``Tricks``: getting a trick ready, who is to
act, the legal plays, playing a card, taking the trick), dealing (``DealCards``), card
selections (``Select``, see :mod:`interpreter.codegen_select`) and the steps between
decisions (basic blocks of automatic instructions, see :mod:`interpreter.codegen_flow`).
Cards are small ints; the legal plays come from per-(trump, suit led) bitmasks, the
winner of a trick from per-(trump, suit led) strength tables, both written into the
module as literals; obligations switched off by an option are left out, the others
inlined in their order; packets of a known size are unrolled. Auctions, bids, choices,
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from . import events as ev
from . import tricks as tr
from . import windows
from .cards import NO_TRUMP
from .codegen_flow import KINDS, FlowGen
from .codegen_select import SelectGen
from .dealing import DealCards, set_trump
from .decisions import Select
from .errors import RuleRuntimeError
from .expressions import known
from .legal import LegalActions
from .program import Program

ENABLED = True
"""Whether :func:`interpreter.compiler.compile_ruleset` attaches generated code (tests of the
generic methods turn it off; it is part of the compile cache's key)."""

BUILTINS: dict[str, Any] = {"len": len, "sorted": sorted, "max": max, "tuple": tuple, "list": list, "map": map, "type": type,
                           "int": int}
"""The only builtins the generated module sees."""

_GENERATED = (tr.Tricks, DealCards, Select)
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


def _mask(row: list[bool] | tuple[bool, ...]) -> int:
    return sum(1 << c for c, on in enumerate(row) if on)


def _plus(base: int, index: str) -> str:
    """The source of ``base + index`` (``index`` alone when the base is 0)."""
    return f"{int(base)} + {index}" if base else index


def _any_mask(tables: list[list[list[bool]]], ti: int) -> int:
    """The cards any of these pattern tables matches under trump index ti."""
    out = 0
    for table in tables:
        out |= _mask(table[ti])
    return out


def _masks(table: list[list[bool]]) -> tuple[int, ...]:
    """A pattern's table (per trump index, per card) as one bitmask per trump index."""
    return tuple(_mask(row) for row in table)


# ------------------------------------------------------------------ the module


def generate(prog: Program) -> Generated:
    """The generated module of a compiled program (see the module's docstring)."""
    w = Writer()
    w.line('"""Generated by tricklang from a rule file: trick play, dealing and the steps between decisions."""')
    blocks = FlowGen(w, prog, {})
    _header(w, prog, blocks.where())
    attach: list[tuple[int, str, str]] = []
    for pc, ins in enumerate(prog.instructions):
        if type(ins) is tr.Tricks:
            attach.extend(_TricksGen(w, prog, ins, pc).write())
        elif type(ins) is DealCards:
            attach.append((pc, "run", _deal(w, prog, ins, pc)))
        elif type(ins) is Select:
            attach.extend(SelectGen(w, prog, ins, pc).write())
    w.line()
    w.line("# ---------------------------------------------------------------- the steps between decisions")
    blocks.generated_run = {pc: fn for pc, method, fn in attach if method == "run"}
    attach.extend(blocks.write())  # after dealing's: a block's `run` replaces its first instruction's
    return Generated(w.text(), w.objects, attach)


def attach(prog: Program) -> Generated:
    """Generate, run and attach the module to the program's instructions (their methods,
    as instance attributes). Returns what was generated."""
    gen = generate(prog)
    ns = gen.run()
    for pc, method, fn in gen.attach:
        setattr(prog.instructions[pc], method, ns[fn])
    return gen


_OBLIGATIONS = {  # the comment of each obligation (never the rule file's text)
    "follow_suit": "must follow suit", "trump_if_void": "must trump if void", "beat_if_able": "must beat if able",
    "not_first_trick": "may not play it on the first trick", "lead_first": "must lead it first",
}

def _header(w: Writer, prog: Program, blocks: dict[int, str]) -> None:
    """Comments listing every instruction, its rule line and where it runs."""
    w.line("#")
    w.line("# The program, instruction by instruction (pc: rule line, what, where it runs):")
    for pc, ins in enumerate(prog.instructions):
        kind = KINDS.get(type(ins).__name__, "an instruction")
        where = "generated below" if type(ins) in _GENERATED else blocks.get(pc, "closure compiler")
        line = f"line {int(ins.line)}" if ins.line > 0 else "no rule line (the flow between blocks)"
        w.line(f"#   {pc}: {line}, {kind}: {where}")
    w.line("#")
    w.line()


# ------------------------------------------------------------------ dealing


def _deal(w: Writer, prog: Program, ins: DealCards, pc: int) -> str:
    """``deal A, B to each``: packets of a known size unrolled, seat by seat from ``first``."""
    fn = f"d{pc}_run"
    n = prog.n
    w.line()
    w.rule_line(ins.line, f"deal cards (instruction {pc})")
    emit = w.obj(f"d{pc}_PROG", prog) + ".emit"  # looked up when called (tests patch Program.emit)
    error = w.obj(f"d{pc}_RuleRuntimeError", RuleRuntimeError)
    message = w.obj(f"d{pc}_RUN_OUT", f"line {ins.line}: the pack ran out while dealing")
    sizes = [k for k in map(known, ins.packets) if type(k) is int]
    shares = _shares(w, pc, n, sizes) if len(sizes) == len(ins.packets) else None
    with w.block(f"def {fn}(core):"):
        if ins.first is None:
            w.line(f"first = (core.dealer + 1) % {n}")
        else:
            w.line(f"first = {w.obj(f'd{pc}_first', ins.first)}(core)")
        w.line("zones = core.zones")
        w.line(f"pack = zones[{prog.pack}]")
        w.line("dealt_to = core.dealt_to")
        w.line(f"seats = [(first + i) % {n} for i in (" + ", ".join(str(i) for i in range(n)) + ",)]")
        if shares is not None:
            _deal_known(w, prog, shares, emit, f"raise {error}({message})")
            return fn
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
                    w.line(f"raise {error}({message})")
                with w.block("if k > 0:"):
                    w.line("cards = pack[-1:-k - 1:-1]")
                    w.line("del pack[-k:]")
                with w.block("else:"):
                    w.line("cards = []")
                w.line(f"zones[{_plus(prog.hand, 'p')}].extend(cards)")
                with w.block("for c in cards:"):
                    with w.block("if dealt_to[c] < 0:"):
                        w.line("dealt_to[c] = p")
                w.line("got[p].extend(cards)")
        with w.block("for p in seats:"):
            w.line(f"{emit}(core, ({int(ev.DEALT)}, p, tuple(got[p])))")
        w.line("core.pc += 1")
    return fn


def _shares(w: Writer, pc: int, n: int, sizes: list[int]) -> tuple[int, list[str]]:
    """Packets all of a known size: where each seat's cards (in the order the packets give
    them) lie among the cards leaving the pack, as module constants; and how many leave."""
    shares: list[list[int]] = [[] for _ in range(n)]
    j = 0
    for k in sizes:
        for i in range(n):
            for _ in range(max(k, 0)):
                shares[i].append(j)
                j += 1
    w.line(f"# packets of {', '.join(str(max(k, 0)) for k in sizes)} cards to each: {j} cards")
    return j, [w.const(f"d{pc}_SHARE{i}", tuple(shares[i])) if shares[i] else "" for i in range(n)]


def _deal_known(w: Writer, prog: Program, shares: tuple[int, list[str]], emit: str, fail: str) -> None:
    """The cards leave the pack at once, each seat's share picked by position. The pack
    running short is found before any card moves (the message is the same; a failed action
    is undone anyway)."""
    total, picks = shares
    with w.block(f"if {total} > len(pack):"):
        w.line(fail)
    if total:
        w.line(f"order = pack[-1:{-total - 1}:-1]")
        w.line(f"del pack[{-total}:]")
    for i in range(prog.n):
        w.line(f"p = seats[{i}]")
        w.line(f"cards = [order[j] for j in {picks[i]}]" if picks[i] else "cards = []")
        w.line("zones[" + _plus(prog.hand, "p") + "].extend(cards)")
        with w.block("for c in cards:"):
            with w.block("if dealt_to[c] < 0:"):
                w.line("dealt_to[c] = p")
        w.line(f"{emit}(core, ({int(ev.DEALT)}, p, tuple(cards)))")
    w.line("core.pc += 1")


# ------------------------------------------------------------------ trick play


class _TricksGen:
    """Writes the functions of one trick-play instruction (prefix ``t<pc>_``)."""

    def __init__(self, w: Writer, prog: Program, ins: tr.Tricks, pc: int) -> None:
        self.w, self.prog, self.ins, self.pc = w, prog, ins, pc
        self.p = f"t{pc}_"
        t = prog.tables
        self.nt = t.nsuits + 1
        # A window opens only after a card an `after leading it` declaration names.
        self.windows = any(d.after_lead for d in ins.declarations) and ins.window_slot >= 0
        self.first = True

    def name(self, what: str) -> str:
        return self.p + what

    def guard(self, fn: Callable[..., Any] | None, what: str) -> str:
        """The source of a guard's test (a call of a closure handed to the module)."""
        if fn is None:
            return "True"
        return self.w.obj(self.name(what), fn) + "(core)"

    def write(self) -> list[tuple[int, str, str]]:
        w, ins = self.w, self.ins
        w.line()
        w.rule_line(ins.line, f"trick play (instruction {self.pc})")
        self._tables()
        out = [
            (self.pc, "ready", self._ready()),
            (self.pc, "actor", self._actor()),
            (self.pc, "legal", self._legal()),
            (self.pc, "_finish_trick", self._finish()),
            (self.pc, "apply", self._apply()),
        ]
        return out

    def _tables(self) -> None:
        w, t, n = self.w, self.prog.tables, self.nt
        w.const(self.name("EFF"), tuple(tuple(row) for row in t.eff_suit))
        w.const(self.name("FOLLOW"), tuple(
            tuple(_mask([t.eff_suit[ti][c] == led for c in range(t.size)]) for led in range(t.nsuits))
            for ti in range(n)))
        w.const(self.name("TRUMPS"), tuple(
            _mask([ti < t.nsuits and t.eff_suit[ti][c] == ti for c in range(t.size)]) for ti in range(n)))
        w.const(self.name("POWER"), tuple(tuple(tuple(row) for row in per_led) for per_led in t.power))
        w.const(self.name("NEXT"), tuple((p + 1) % self.prog.n for p in range(self.prog.n)))
        w.obj(self.name("OKEY"), tuple(row.__getitem__ for row in t.order))
        w.obj(self.name("PLAY"), tuple(self.ins.play_actions))
        w.obj(self.name("GENERIC"), self.ins)
        w.obj(self.name("TRICKS"), tr.Tricks)  # its methods: the generic paths, looked up when called
        for pat, _ in self.ins.lead_rules:
            w.const(self.name(f"LEAD{pat}"), _masks(self.prog.lead_patterns[pat]))
        for i, ob in enumerate(self.ins.obligations):
            if ob.test is not None:
                w.const(self.name(f"OB{i}"), _masks(ob.test))
        after = [d for d in self.ins.declarations if d.after_lead]
        before = [d for d in self.ins.declarations if not d.after_lead]
        # The cards some declaration names (under each trump): none held, none to declare.
        w.const(self.name("AFTER"), tuple(_any_mask([d.test for d in after], ti) for ti in range(n)))
        w.const(self.name("DECLARE"), tuple(_any_mask([d.test for d in before], ti) for ti in range(n)))

    # -------------------------------------------------------------- ready / actor
    def _ready(self) -> str:
        w, prog, fn = self.w, self.prog, self.name("ready")
        hands = " or ".join(f"zones[{prog.hand + q}]" for q in range(prog.n))
        with w.block(f"def {fn}(core):"):
            with w.block("if not core.tr_active:"):
                w.line(f"return {self.name('TRICKS')}.ready({self.name('GENERIC')}, core)")
            w.line("zones = core.zones")
            with w.block("if not core.tr_cards:"):
                with w.block(f"if core.tr_no >= core.tr_total or not ({hands}):"):
                    w.line("core.tr_active = False")
                    w.line("core.pc += 1")
                    w.line("return False")
                with w.block(f"if not zones[{_plus(prog.hand, 'core.tr_turn')}]:"):
                    w.line(f"core.tr_turn = {self.name('GENERIC')}._next_with_cards(core, core.tr_turn)")
            with w.block(f"elif not zones[{_plus(prog.hand, 'core.tr_turn')}]:"):
                w.line(f"return {self.name('TRICKS')}.ready({self.name('GENERIC')}, core)")
            w.line("return True")
        return fn

    def _actor(self) -> str:
        w, fn = self.w, self.name("actor")
        with w.block(f"def {fn}(core):"):
            if self.windows:
                w.line(f"held = core.vars[{self.ins.window_slot}]")
                with w.block("if held is not None:"):
                    w.line(f"return {self.name('TRICKS')}.actor({self.name('GENERIC')}, core)")
            w.line("return core.tr_turn")
        return fn

    # -------------------------------------------------------------- legal plays
    def _legal(self) -> str:
        w, prog, ins, fn = self.w, self.prog, self.ins, self.name("legal")
        w.obj(self.name("LegalActions"), LegalActions)
        with w.block(f"def {fn}(core):"):
            if self.windows:
                with w.block(f"if core.vars[{ins.window_slot}] is not None:"):
                    w.line(f"return {self.name('TRICKS')}.legal({self.name('GENERIC')}, core)")
            w.line("p = core.tr_turn")
            w.line(f"hand = core.zones[{_plus(prog.hand, 'p')}]")
            w.line("ti = core.ti")
            w.line("cards = core.tr_cards")
            w.line("allowed = hand")
            with w.block("if not cards:"):
                self._lead()
            with w.block("else:"):
                self._follow()
            w.obj(self.name("PLAYGET"), ins.play_actions.__getitem__)
            cards_in_order = f"map({self.name('PLAYGET')}, sorted(allowed, key={self.name('OKEY')}[ti]))"
            if not any(not d.after_lead for d in ins.declarations):
                w.line(f"return {self.name('LegalActions')}(tuple({cards_in_order}))")
                return fn
            w.line(f"out = list({cards_in_order})")
            if any(not d.after_lead for d in ins.declarations):
                cond = "not core.played[p]" if ins.only_before_first_card else "True"
                with w.block(f"if {cond}:"):
                    w.line(f"m = {self.name('DECLARE')}[ti]")
                    with w.block("for c in hand:"):
                        with w.block("if m >> c & 1:"):
                            w.line(f"out.extend([d.action for d in {self.name('GENERIC')}.available_declarations(core, p)])")
                            w.line("break")
            w.line(f"return {self.name('LegalActions')}(tuple(out))")
        return fn

    def _narrow(self, test: str, what: str) -> None:
        """``allowed`` narrowed to the cards passing ``test`` when some, not all, pass."""
        w = self.w
        w.line(f"narrowed = [c for c in allowed if {test}]")
        with w.block("if narrowed and len(narrowed) < len(allowed):"):
            w.line("allowed = narrowed")
            if what:
                w.line(f"{what} = True")

    def _lead(self) -> None:
        w, ins = self.w, self.ins
        if not ins.lead_rules and not ins.lead_chain:
            w.line("pass  # leading is free")
            return
        for j, (pat, guard) in enumerate(ins.lead_rules):
            w.rule_line(ins.lead_lines[j], "lead until broken")
            cond = f"not core.broken[{pat}]"
            if guard is not None:
                cond += f" and {self.guard(guard, f'GLEAD{j}')}"
            with w.block(f"if {cond}:"):
                w.line(f"m = {self.name(f'LEAD{pat}')}[ti]")
                self._narrow("not m >> c & 1", "")
        if ins.lead_chain:
            with w.block("if core.tr_no == 0:"):
                for ob in ins.lead_chain:
                    i = ins.obligations.index(ob)
                    w.rule_line(ob.line, _OBLIGATIONS[ob.kind])
                    with w.block(f"if {self.guard(ob.guard, f'G{i}')}:"):
                        w.line(f"m = {self.name(f'OB{i}')}[ti]")
                        self._narrow("m >> c & 1" if ob.kind == "lead_first" else "not m >> c & 1", "")

    def _follow(self) -> None:
        w, ins = self.w, self.ins
        kinds = {ob.kind for ob in ins.chain}
        w.line(f"led = {self.name('EFF')}[ti][cards[0]]")
        w.line(f"fm = {self.name('FOLLOW')}[ti][led]")
        if kinds & {"follow_suit", "trump_if_void", "beat_if_able"}:
            w.line("follow = [c for c in hand if fm >> c & 1]")
        w.line("tif = False")
        self.first = True  # nothing has narrowed `allowed` yet: it is the hand
        for ob in ins.chain:
            i = ins.obligations.index(ob)
            if ob.kind not in ("follow_suit", "trump_if_void", "not_first_trick", "beat_if_able"):
                continue  # the generic chain ignores other kinds too
            w.rule_line(ob.line, _OBLIGATIONS[ob.kind])
            guard = self.guard(ob.guard, f"G{i}")
            if guard == "True":
                getattr(self, "_" + ob.kind)(i)
            else:
                with w.block(f"if {guard}:"):
                    getattr(self, "_" + ob.kind)(i)
            self.first = False

    def _follow_suit(self, i: int) -> None:
        w, ins = self.w, self.ins
        if self.first and not ins.may_trump:  # the cards of the suit led are the ones that follow
            with w.block("if follow and len(follow) < len(allowed):"):
                w.line("allowed = follow")
            return
        with w.block("if follow:"):
            if ins.may_trump:
                tests = [self.guard(o.guard, f"GMAY{ins.obligations.index(o)}") for o in ins.may_trump]
                may = "True" if "True" in tests else " or ".join(tests)
                w.line(f"may = core.trump != {NO_TRUMP} and led != core.trump and ({may})")
                w.line(f"m = fm | {self.name('TRUMPS')}[ti] if may else fm")
            else:
                w.line("m = fm")
            self._narrow("m >> c & 1", "")

    def _trump_if_void(self, i: int) -> None:
        w = self.w
        with w.block(f"if not follow and core.trump != {NO_TRUMP}:"):
            w.line(f"m = {self.name('TRUMPS')}[ti]")
            self._narrow("m >> c & 1", "tif")

    def _not_first_trick(self, i: int) -> None:
        w = self.w
        with w.block("if core.tr_no == 0:"):
            w.line(f"m = {self.name(f'OB{i}')}[ti]")
            self._narrow("not m >> c & 1", "")

    def _beat_if_able(self, i: int) -> None:
        w = self.w
        with w.block("if follow or tif:"):
            w.line(f"power = {self.name('POWER')}[ti][led]")
            w.line("best = max([power[c] for c in cards])")
            self._narrow("power[c] > best", "")

    # -------------------------------------------------------------- playing a card
    def _apply(self) -> str:
        w, prog, ins, fn = self.w, self.prog, self.ins, self.name("apply")
        generic = self.name("GENERIC")
        with w.block(f"def {fn}(core, action):"):
            if self.windows:
                with w.block(f"if core.vars[{ins.window_slot}] is not None:"):
                    w.line(f"return {self.name('TRICKS')}.apply({generic}, core, action)")
            w.line("card = action.card")
            with w.block("if card < 0:"):
                w.line(f"return {self.name('TRICKS')}.apply({generic}, core, action)")
            w.line("p = core.tr_turn")
            w.line("cards = core.tr_cards")
            if ins.sets_trump:
                w.line("# the first card led sets the trump")
                with w.block(f"if core.trump == {NO_TRUMP} and core.tr_no == 0 and not cards:"):
                    w.obj(self.name("set_trump"), set_trump)
                    if self.name("PROG") not in w.objects:
                        w.obj(self.name("PROG"), prog)
                    w.obj(self.name("SETLAWS"), ins.sets_trump[0].laws)
                    w.const(self.name("SUIT"), tuple(prog.tables.suit))
                    w.line(f"{self.name('set_trump')}({self.name('PROG')}, core, {self.name('SUIT')}[card], p, "
                           f"{self.name('SETLAWS')})")
            w.line("zones = core.zones")
            w.line(f"zones[{_plus(prog.hand, 'p')}].remove(card)")
            w.line("cards.append(card)")
            w.line("players = core.tr_players")
            w.line("players.append(p)")
            w.line("core.played[p] = True")
            assert ev.play(1, 2, 3) == 3 << 15 | 2 << 5 | 1  # the entry written below
            w.line("core.events.append((core.tr_no + 1) << 15 | card << 5 | p)")
            if self.windows:
                w.obj(self.name("after_play"), windows.after_play)
                with w.block(f"if len(cards) == 1 and {self.name('AFTER')}[core.ti] >> card & 1:"):
                    w.line(f"{self.name('after_play')}({generic}, core, p)")
            w.line(f"q = {self.name('NEXT')}[p]")
            with w.block(f"while q != p and not zones[{_plus(prog.hand, 'q')}]:"):
                w.line(f"q = {self.name('NEXT')}[q]")
            with w.block("if q == core.tr_leader or q == p or q in players:"):
                w.line(f"{self.name('finish')}(core)")
            with w.block("else:"):
                w.line("core.tr_turn = q")
        return fn

    def _finish(self) -> str:
        w, prog, ins, fn = self.w, self.prog, self.ins, self.name("finish")
        if self.name("PROG") not in w.objects:
            w.obj(self.name("PROG"), prog)
        w.const(self.name("SIDE"), tuple(prog.side_of))
        w.line("# the first of the strongest cards takes the trick")
        with w.block(f"def {fn}(core):"):
            w.line("cards = core.tr_cards")
            w.line("ti = core.ti")
            w.line(f"power = {self.name('POWER')}[ti][{self.name('EFF')}[ti][cards[0]]]")
            w.line("best = 0")
            w.line("top = power[cards[0]]")
            w.line("i = 1")
            with w.block("while i < len(cards):"):
                with w.block("if power[cards[i]] > top:"):
                    w.line("best = i")
                    w.line("top = power[cards[i]]")
                w.line("i += 1")
            w.line("winner = core.tr_players[best]")
            won = f"{prog.won} + {self.name('SIDE')}[winner]" if prog.won_kind == "side" else f"{prog.won} + winner"
            w.line(f"core.zones[{won}].extend(cards)")
            w.line("core.tricks_won[winner] += 1")
            w.line("taken_by = core.taken_by")
            with w.block("for c in cards:"):
                w.line("taken_by[c] = winner")
            for pat, _ in ins.lead_rules:
                w.line(f"m = {self.name(f'LEAD{pat}')}[ti]")
                with w.block("for c in cards:"):
                    with w.block("if m >> c & 1:"):
                        w.line(f"core.broken[{pat}] = True")
                        w.line("break")
            w.line(f"{self.name('PROG')}.emit(core, ({int(ev.TRICK)}, core.tr_no + 1, winner, tuple(cards), "
                   "tuple(core.tr_players)))")
            w.line("core.tr_no += 1")
            w.line("core.tr_cards = []")
            w.line("core.tr_players = []")
            w.line("core.tr_leader = core.tr_turn = winner")
            if ins.window_slot >= 0:
                w.line(f"core.vars[{ins.window_slot}] = None")
        return fn


__all__ = ["BUILTINS", "ENABLED", "Generated", "RuleRuntimeError", "attach", "generate"]
