"""Generated code for the steps between decisions: the automatic instructions of a deal
(jumps and tests, variables, for-each and repeat loops, scores, and every other automatic
instruction called in turn) run as one generated function per basic block.

A block starts at a *leader* (the deal's first instruction, a jump's target, the
instruction after a decision, a test or a loop's head...) and runs its instructions
straight on; where the generic interpreter would come back to
:meth:`~interpreter.program.Program.advance` between two instructions, the block goes
on by itself, and calls the block it jumps to when that block comes later in the
program (a loop's jump back, a decision, or an instruction it does not know returns to
``advance`` with ``core.pc`` set, exactly as the generic instructions leave it). The
generated function replaces the ``run`` method of the block's first instruction only:
entering the program anywhere else runs the generic instructions, which do the same.

Expressions with a source (:mod:`interpreter.sources`: numbers, variables, roles,
``count``, ``tricks``, comparisons...) are written out; the others stay the closures of
:mod:`interpreter.expressions`, handed to the module under generated names (a value
known when compiling is written as a literal when it is an ``int``); scores are written
out; instructions it does not inline are called through their class's method.
No text of the rule file reaches the source (see :mod:`interpreter.codegen`).
"""

from __future__ import annotations

import re
from typing import Any

from tricklang.walk import Unknown

from . import dealing, flow, keeping
from .codegen_base import expression
from .codegen_deals import END, add_score
from .errors import RuleRuntimeError
from .expressions import HAS, known
from .flow import MAX_NUMBER, Instruction
from .pauses import RefereePause
from .program import MAX_STEPS_PER_DEAL, Program

MAX_CHAIN = 24
"""The most blocks one block calls in a row (deeper chains return to ``advance``), so that a
long program never nests Python calls deeply."""

_INLINE = (flow.Jump, flow.JumpUnless, flow.SetVar, flow.ForInit, flow.ForNext, flow.LoopHead, flow.Score)
# (exact types: a subclass may move ``pc`` otherwise)
_CONTROL = (flow.Jump, flow.JumpUnless, flow.ForNext, flow.LoopHead)
"""Instructions that end a block (it goes on at one of their targets)."""
"""Instructions written out in the block."""

_CALLED = (
    dealing.DealCards, dealing.TurnUp, dealing.SetTrump, dealing.Draw, dealing.Move, keeping.MoveUnder, keeping.Cut,
    flow.EndMatch, flow.Expose, flow.ExposeCard, flow.Forbid, flow.Cancel, flow.SetBuiltin, flow.AddCounter,
)
"""Automatic instructions that always end with ``core.pc += 1``: a block calls their ``run`` in
turn. Any other (the end of the deal, a redeal, a remedy's return or its moves in trick
play) ends a block, and ``advance`` runs it."""

_NEVER_END = (dealing.DealCards, dealing.TurnUp, dealing.SetTrump, dealing.Draw, flow.SetBuiltin)
"""Called instructions that never end the match (no test of ``core.terminal`` after them)."""


KINDS = {  # what each instruction class does, for the listing's comments (never the rule file's text)
    "DealCards": "deal cards", "TurnUp": "turn up cards", "SetTrump": "set the trump", "NameTrump": "name a trump",
    "Bid": "bid", "AddCounter": "add to a counter", "Score": "score", "SetBuiltin": "set the maker or bid",
    "SetVar": "set a variable", "Jump": "jump", "JumpUnless": "test a condition", "EndDeal": "end the deal",
    "EndMatch": "end the match", "Select": "choose cards", "Draw": "draw cards", "Move": "move cards",
    "MoveUnder": "move cards under", "Cut": "cut", "Redeal": "redeal", "Expose": "expose a zone", "ExposeCard": "show a card",
    "Forbid": "forbid a declaration", "Cancel": "cancel a score", "LoopHead": "loop", "ForInit": "start a for-each",
    "ForNext": "next of a for-each", "Choose": "a choice", "Auction": "an auction", "Tricks": "trick play",
    "FinishDeal": "finish the deal", "Return": "return from a remedy", "Leads": "restart the trick with a leader",
    "ReplayTricks": "replay the tricks", "BecomesDealer": "change the dealer",
    "RefereePause": "the referee's pause (table mode)",
}


def _straight(ins: Instruction) -> bool:
    """An automatic instruction a block calls in turn (see :data:`_CALLED`)."""
    return type(ins) in _CALLED


def leaders(prog: Program) -> list[int]:
    """The instructions a block starts at, in program order."""
    ins = prog.instructions
    out = {0, prog.deal_end}
    for pc, i in enumerate(ins):
        if i.decision:
            out.add(pc + 1)
            for t in getattr(i, "targets", ()):
                out.add(t)
        elif type(i) is flow.Jump:
            out.update((i.target, pc + 1))
        elif type(i) is flow.JumpUnless:
            out.update((i.target, pc + 1))
        elif type(i) is flow.ForNext or type(i) is flow.LoopHead:
            out.update((i.end, pc, pc + 1))
        elif type(i) not in _INLINE and not _straight(i):
            out.update((pc, pc + 1))
    for irr in prog.irregularities:
        out.add(irr.entry)
    return sorted(pc for pc in out if 0 <= pc < len(ins) and not ins[pc].decision and _runnable(ins[pc]))


_CALL = re.compile(r"( *)return b([0-9]+)_run\(core\)\Z")
_RUN = re.compile(r"( *)([a-z][0-9]+_run)\(core\)\Z")
_INLINE_INDENT = 24
"""The deepest indentation a call is written out at (six levels): a chain of blocks written
in one another stays far from Python's limits of nested blocks."""


def _run_bodies(lines: list[str], names: set[str]) -> dict[str, list[str]]:
    """The bodies (one level less indented) of the generated ``run`` functions named, among
    the module's lines, that have no ``return`` (so that they can be written in a block)."""
    out: dict[str, list[str]] = {}
    for i, line in enumerate(lines):
        name = line[4:-7] if line.startswith("def ") and line.endswith("(core):") else ""
        if name in names:
            body = []
            for text in lines[i + 1:]:
                if text and not text.startswith(" "):
                    break
                body.append(text[4:])
            while body and not body[-1]:
                body.pop()
            if not any(text.lstrip().startswith("return") for text in body):
                out[name] = body
    return out


def _inline(bodies: dict[int, list[str]], runs: dict[str, list[str]]) -> dict[int, list[str]]:
    """The blocks' lines with the call of a block that no other block calls replaced by
    that block's body (a call in tail position: its returns are the caller's; the locals
    it sets are the caller's, unused after it), and the calls of generated ``run``
    functions without a ``return`` (dealing, turning up...) by their bodies: the same
    steps in the same order, Python calls fewer. Every function stays (``advance`` or a
    decision may call it)."""
    sites: dict[int, int] = {}
    for lines in bodies.values():
        for line in lines:
            call = _CALL.match(line)
            if call:
                sites[int(call.group(2))] = sites.get(int(call.group(2)), 0) + 1
    done: dict[tuple[int, int], list[str]] = {}

    def expand(lead: int, extra: int) -> list[str]:
        """The block's lines, to be indented ``extra`` more (calls deeper than
        :data:`_INLINE_INDENT` in the end stay calls)."""
        if (lead, extra) not in done:
            out = []
            for line in bodies[lead]:
                call, run = _CALL.match(line), _RUN.match(line)
                target = int(call.group(2)) if call else -1
                if call and sites[target] == 1 and target in bodies and extra + len(call.group(1)) <= _INLINE_INDENT:
                    indent = call.group(1)  # the target's body, after its comment and `def` line
                    out.append(f"{indent}# block {target}, written here (its only caller)")
                    inner = expand(target, extra + len(indent) - 4)[2:]
                    out.extend(indent + text[4:] if text else text for text in inner)
                elif run and run.group(2) in runs and extra + len(run.group(1)) <= _INLINE_INDENT:
                    out.append(f"{run.group(1)}# {run.group(2)}, written here")
                    out.extend(run.group(1) + text if text else text for text in runs[run.group(2)])
                else:
                    out.append(line)
            done[lead, extra] = out
        return done[lead, extra]
    return {lead: expand(lead, 0) for lead in bodies}


def _runnable(ins: Instruction) -> bool:
    """Whether a block may start with this instruction (one it writes or calls)."""
    return type(ins) in _INLINE or _straight(ins)


class FlowGen:
    """Writes the blocks of a program (functions ``b<pc>_run``) into a :class:`~interpreter.codegen.Writer`."""

    def __init__(self, w: Any, prog: Program, generated_run: dict[int, str]) -> None:
        self.w, self.prog = w, prog
        self.generated_run = generated_run  # pc -> a generated `run` to call (dealing)
        self.rounds: dict[int, tuple[str, str]] = {}  # a deal's pc -> its round function and program (codegen._deal_round)
        self.leaders = leaders(prog)
        self.lead_set = set(self.leaders)
        self.depth: dict[int, int] = {}  # a written block -> how many blocks it may call in a row

    def write(self) -> list[tuple[int, str, str]]:
        """Write every block (in program order); returns the (pc, "run", function) to attach."""
        bodies: dict[int, list[str]] = {}
        for lead in reversed(self.leaders):  # later blocks first: their chain depth is known
            sub = type(self.w)()
            sub.objects = self.w.objects
            self.sub = sub
            self.calls = 0
            self._block(lead)
            bodies[lead] = sub.lines
        inlined = _inline(bodies, _run_bodies(self.w.lines, set(self.generated_run.values())))
        for lead in self.leaders:
            self.w.line()
            self.w.lines.extend(inlined[lead])
        pauses = [pc for pc, ins in enumerate(self.prog.instructions)
                  if type(ins) is RefereePause and pc + 1 in self.depth and self.depth[pc + 1] < MAX_CHAIN]
        for pc in pauses:
            self._pause(pc)
        return [(lead, "run", self.fn(lead)) for lead in self.leaders] + [(pc, "ready", f"p{pc}_ready") for pc in pauses]

    def _pause(self, pc: int) -> None:
        """A referee's pause followed by a block (``p<pc>_ready``): outside table mode it
        passes on and takes ``advance``'s next steps itself (the block, then whatever comes
        next: a decision's ``ready`` is returned; another instruction is run, then a decision
        after it asked), counting and testing the steps as ``advance`` does (over the limit,
        or anything else, it leaves to ``advance``)."""
        w, limit = self.w, int(MAX_STEPS_PER_DEAL)
        w.line()
        w.line(f"# the referee's pause (instruction {int(pc)}): outside table mode, advance's next two steps")
        with w.block(f"def p{pc}_ready(core):"):
            with w.block("if core.table:"):
                ins = self.obj(pc, "INS", self.prog.instructions[pc])
                w.line(f"return {self.obj(pc, 'READY', RefereePause.ready)}({ins}, core)")
            w.line(f"core.pc = {int(pc + 1)}")
            for step in ("block", "next"):
                if step == "next":
                    with w.block("if core.terminal:"):
                        w.line("return False")
                    w.line(f"ins = {self.obj(pc, 'INSTRUCTIONS', self.prog.instructions)}[core.pc]")
                w.line("steps = core.steps + 1")
                with w.block(f"if steps > {limit}:"):
                    w.line("return False  # advance raises the limit")
                w.line("core.steps = steps")
                if step == "block":
                    w.line(f"{self.fn(pc + 1)}(core)")
            with w.block("if ins.decision:"):
                w.line("return ins.ready(core)")
            w.line("ins.run(core)")
            with w.block("if core.terminal:"):  # and advance's step after it, when a decision
                w.line("return False")
            w.line(f"ins = {self.obj(pc, 'INSTRUCTIONS', self.prog.instructions)}[core.pc]")
            w.line("steps = core.steps + 1")
            with w.block(f"if ins.decision and steps <= {limit}:"):
                w.line("core.steps = steps")
                w.line("return ins.ready(core)")
            w.line("return False")

    @staticmethod
    def fn(pc: int) -> str:
        return f"b{pc}_run"

    def obj(self, pc: int, what: str, value: Any) -> str:
        name = f"b{pc}_{what}"
        if name not in self.w.objects:
            self.w.obj(name, value)
        return name

    # -------------------------------------------------------------- a block
    def members(self, lead: int) -> list[int]:
        """The instructions of the block starting at ``lead``, in order."""
        ins = self.prog.instructions
        out = []
        pc = lead
        while pc < len(ins) and (pc == lead or pc not in self.lead_set) and _runnable(ins[pc]):
            out.append(pc)
            if type(ins[pc]) in _CONTROL:
                break
            pc += 1
        return out

    def where(self) -> dict[int, str]:
        """For the listing: the block that writes or calls each instruction."""
        out: dict[int, str] = {}
        for lead in self.leaders:
            for pc in self.members(lead):
                how = "written" if type(self.prog.instructions[pc]) in _INLINE else "called"
                out.setdefault(pc, f"generated, {how} in block {lead}")
        return out

    def _block(self, lead: int) -> None:
        w = self.sub
        members = self.members(lead)
        w.line(f"# block {lead}: instructions {lead} to {members[-1]}")
        with w.block(f"def {self.fn(lead)}(core):"):
            w.line(f"core.steps += {len(members)}")
            pc = lead
            for _ in members:
                pc = self._one(lead, pc)
                if pc < 0:
                    break
            else:
                self.transfer(lead, pc)
        self.depth[lead] = self.calls

    def transfer(self, lead: int, target: int) -> None:
        """Go on at ``target``: call its block when it comes later and the chain stays short,
        else leave it to ``advance``."""
        w = self.sub
        if target > lead and target in self.depth and self.depth[target] < MAX_CHAIN:
            self.calls = max(self.calls, self.depth[target] + 1)
            w.line(f"return {self.fn(target)}(core)")
        elif 0 <= target < len(self.prog.instructions) and type(self.prog.instructions[target]) is flow.FinishDeal:
            w.line(f"core.pc = {int(target)}")
            w.line("core.steps += 1  # the end of the deal's code, counted as advance counts it")
            w.line(f"{END}(core)  # Program.end_deal, generated: the next deal starts at its first instruction")
            w.line("return")
        elif self._passes(lead, target):
            with w.block("if core.table:  # advance asks the referee's pause"):
                w.line(f"core.pc = {int(target)}")
                w.line("return")
            w.line(f"core.steps += 1  # the referee's pause (instruction {int(target)}), passed outside table mode")
            self.calls = max(self.calls, self.depth[target + 1] + 1)
            w.line(f"return {self.fn(target + 1)}(core)")
        else:
            w.line(f"core.pc = {int(target)}")
            w.line("return")

    def _passes(self, lead: int, target: int) -> bool:
        """Whether ``target`` is a referee's pause followed by a later block the chain may
        call: outside table mode the pause only passes on (``RefereePause.ready``)."""
        ins = self.prog.instructions
        after = target + 1
        return (0 <= target < len(ins) and type(ins[target]) is RefereePause and after > lead
                and after in self.depth and self.depth[after] < MAX_CHAIN)

    def _comment(self, pc: int, ins: Instruction) -> None:
        kind = KINDS.get(type(ins).__name__, "an instruction")
        if ins.line > 0:
            self.sub.rule_line(ins.line, f"{kind} (instruction {pc})")
        else:
            self.sub.line(f"# no rule line: {kind} (instruction {pc}, the flow between blocks)")

    def _one(self, lead: int, pc: int) -> int:
        """Write instruction ``pc``; returns the next pc, or -1 when the block ended here."""
        w, ins = self.sub, self.prog.instructions[pc]
        self._comment(pc, ins)
        if type(ins) is flow.Jump:
            self.transfer(lead, ins.target)
            return -1
        if type(ins) is flow.JumpUnless:
            self._test(lead, pc, ins)
            return -1
        if type(ins) is flow.ForNext:
            self._for_next(lead, pc, ins)
            return -1
        if type(ins) is flow.LoopHead:
            self._loop_head(lead, pc, ins)
            return -1
        if isinstance(ins, flow.SetVar):
            self._set_var(pc, ins)
        elif isinstance(ins, flow.ForInit):
            self._for_init(pc, ins)
        elif isinstance(ins, flow.Score):
            self._score(pc, ins)
            if self.prog.at_once and self.prog.target is not None:  # else a score never ends the match
                with w.block("if core.terminal:"):
                    w.line(f"core.pc = {int(pc + 1)}")
                    w.line("return")
        else:  # an automatic instruction called in turn, as advance would
            w.line(f"core.pc = {int(pc)}")
            run = self.generated_run.get(pc)
            if run is not None:
                w.line(f"{run}(core)")
            else:
                w.line(f"{self.obj(pc, 'RUN', type(ins).run)}({self.obj(pc, 'INS', ins)}, core)")
            if type(ins) not in _NEVER_END:
                with w.block("if core.terminal:"):
                    w.line("return")
        return pc + 1

    def _value(self, pc: int, what: str, fn: Any) -> str:
        """The source of a closure's value: an int literal when known, else a call."""
        value = known(fn)
        if type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER:
            return repr(int(value))
        if not isinstance(value, Unknown):
            return self.obj(pc, what + "_KNOWN", value)
        return self.call(pc, what, fn)

    def call(self, pc: int, what: str, fn: Any) -> str:
        """The source of an expression's value: the expression written out when it has a
        source (:mod:`interpreter.sources`), else its closure's call."""
        text = expression(self.w, f"b{pc}_{what}", fn)
        return text if text is not None else self.obj(pc, what, fn) + "(core)"

    def _score(self, pc: int, ins: flow.Score) -> None:
        """:func:`~interpreter.flow.do_score` written out (the same tests and errors)."""
        w, prog = self.sub, self.prog
        error = self.obj(pc, "RuleRuntimeError", RuleRuntimeError)
        w.line(f"who = {self.call(pc, 'WHO', ins.who)}")
        with w.block(f"if not {self.obj(pc, 'isinstance', isinstance)}(who, int) or who < 0:"):
            w.line(f"raise {error}({self.obj(pc, 'NOBODY', f'line {ins.line}: nobody to score')})")
        side = f"{self.obj(pc, 'SIDE_OF', prog.side_of)}[who]" if ins.who_is_player else "who"
        w.line(f"side = {side}")
        amount = self._value(pc, 'AMOUNT', ins.amount)
        too_big = f"raise {error}({self.obj(pc, 'SCORE_TOO_BIG', f'line {ins.line}: a score grew beyond 18 digits')})"
        names = f"{self.obj(pc, 'LABEL', ins.label)}, {self.obj(pc, 'LAWS', ins.laws)}"
        value = known(ins.amount)
        if type(value) is int and -MAX_NUMBER <= value <= MAX_NUMBER:  # a literal: only the total is tested
            if not value:
                w.line("# scores nothing")
                return
            w.line(f"amount = {int(value)}")
            w.line("scores = core.scores")
            with w.block(f"if not {-MAX_NUMBER} <= scores[side] + amount <= {MAX_NUMBER}:"):
                w.line(too_big)
            literal = int(ins.sign) * int(value)
            add_score(w, prog, repr(literal), literal, names)  # Program.add_score written out
            return
        w.line(f"amount = {amount}")
        w.line("scores = core.scores")
        big = f"{-MAX_NUMBER} <= amount <= {MAX_NUMBER}"
        with w.block(f"if not {big} or not {-MAX_NUMBER} <= scores[side] + amount <= {MAX_NUMBER}:"):
            w.line(too_big)
        with w.block("if amount:"):
            add_score(w, prog, "amount" if ins.sign == 1 else f"{int(ins.sign)} * amount", None, names)

    def _test(self, lead: int, pc: int, ins: flow.JumpUnless) -> None:
        w = self.sub
        value = known(ins.cond)
        if not isinstance(value, Unknown):  # known when compiling (an option)
            w.line("# known when compiling")
            self.transfer(lead, pc + 1 if value else ins.target)
            return
        has = HAS.get(ins.cond)
        if has is not None:  # `ZONE has PATTERN` written out: each card counts a step, as the closure's
            w.line(f"cards = core.zones[{self.call(pc, 'ZONE', has[0])}]")
            w.line("core.steps += len(cards)")
            w.line(f"t = {self.obj(pc, 'PATTERN', has[1])}[core.ti]")
            with w.block("for c in cards:"), w.block("if t[c]:"):
                self.transfer(lead, pc + 1)
            self.transfer(lead, ins.target)
            return
        with w.block(f"if {self.call(pc, 'COND', ins.cond)}:"):
            self.transfer(lead, pc + 1)
        self.transfer(lead, ins.target)

    def _set_var(self, pc: int, ins: flow.SetVar) -> None:
        w = self.sub
        value = known(ins.value)
        if not isinstance(value, Unknown) and (type(value) is not int or -MAX_NUMBER <= value <= MAX_NUMBER):
            w.line(f"core.vars[{int(ins.slot)}] = {self._value(pc, 'VALUE', ins.value)}")
            return
        w.line(f"v = {self.call(pc, 'VALUE', ins.value)}")
        error = self.obj(pc, "RuleRuntimeError", RuleRuntimeError)
        message = self.obj(pc, "TOO_BIG", f"line {ins.line}: a number grew beyond 18 digits")
        with w.block(f"if type(v) is int and not {-MAX_NUMBER} <= v <= {MAX_NUMBER}:"):
            w.line(f"raise {error}({message})")
        w.line(f"core.vars[{int(ins.slot)}] = v")

    def _for_init(self, pc: int, ins: flow.ForInit) -> None:
        w, prog = self.sub, self.prog
        if ins.kind == "player":
            n = prog.n
            if ins.start is not None:
                w.line(f"first = {self._value(pc, 'START', ins.start)}")
            else:
                w.line(f"first = (core.dealer + 1) % {int(n)}")
            w.line("order = [" + ", ".join(f"(first + {i}) % {int(n)}" for i in range(n)) + "]")
        else:
            w.line("order = [" + ", ".join(str(int(s)) for s in range(len(prog.sides))) + "]")
        if ins.exclude is not None:
            w.line(f"ex = {self._value(pc, 'EXCLUDE', ins.exclude)}")
            if ins.kind != "player" and ins.exclude_is_player:
                w.line(f"ex = {self.obj(pc, 'SIDE_OF', prog.side_of)}[ex]")
            w.line("order = [p for p in order if p != ex]")
        w.line(f"core.vars[{int(ins.order_slot)}] = (order, 0)")

    def _for_next(self, lead: int, pc: int, ins: flow.ForNext) -> None:
        w = self.sub
        w.line(f"order, i = core.vars[{int(ins.order_slot)}]")
        with w.block("if i >= len(order):"):
            self.transfer(lead, ins.end)
        w.line(f"core.vars[{int(ins.var_slot)}] = order[i]")
        w.line(f"core.vars[{int(ins.order_slot)}] = (order, i + 1)")
        self.transfer(lead, pc + 1)

    def _loop_head(self, lead: int, pc: int, ins: flow.LoopHead) -> None:
        w = self.sub
        back = self.prog.instructions[pc + 2] if ins.end == pc + 3 else None
        if pc + 1 in self.rounds and isinstance(back, flow.Jump) and type(back) is flow.Jump and back.target == pc:
            self._deal_loop(lead, pc, ins)  # `repeat ...: deal ...`, the deal alone
            return
        w.line(f"count = core.vars[{int(ins.slot)}]")
        cond = f" or not {self.call(pc, 'COND', ins.cond)}" if ins.cond is not None else ""
        with w.block(f"if count >= {int(ins.bound)}{cond}:"):
            self.transfer(lead, ins.end)
        w.line(f"core.vars[{int(ins.slot)}] = count + 1")
        self.transfer(lead, pc + 1)

    def _deal_loop(self, lead: int, pc: int, ins: flow.LoopHead) -> None:
        """``repeat at most N times [while C]: deal ...`` (the loop's body is that deal alone):
        the rounds run here, one Python loop, and their ``dealt`` entries are logged together
        at its end (each round counts the steps ``advance`` and the blocks would; a runaway
        loop returns to ``advance``, which raises the limit)."""
        w = self.sub
        deal, prog_name = self.rounds[pc + 1]
        w.line(f"# its body, a deal (instruction {pc + 1}), run here round by round")
        w.line(f"count = core.vars[{int(ins.slot)}]")
        w.line("out = []")
        cond = f" and {self.obj(pc, 'COND', ins.cond)}(core)" if ins.cond is not None else ""
        with w.block(f"while count < {int(ins.bound)}{cond}:"):
            w.line("count += 1")
            w.line(f"core.vars[{int(ins.slot)}] = count")
            w.line("core.steps += 5")
            w.line(f"{deal}(core, out)")
            with w.block(f"if core.steps > {int(MAX_STEPS_PER_DEAL)}:"):
                w.line(f"{prog_name}.emit_all(core, tuple(out))")
                w.line(f"core.pc = {int(pc)}  # advance raises the limit")
                w.line("return")
        w.line(f"{prog_name}.emit_all(core, tuple(out))")
        self.transfer(lead, ins.end)
