"""What the writers of one decision's generated functions share: the names they give
(a prefix letter and the instruction's index, so that no text of the rule file names
anything in the generated module) and the objects they hand to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricklang.walk import Unknown

from . import sources
from .expressions import known
from .flow import MAX_NUMBER
from .program import MAX_STEPS_PER_DEAL, Program

if TYPE_CHECKING:
    from .codegen import Writer


class InstructionGen:
    """Writes the functions of one instruction, named ``<PREFIX><pc>_<what>``."""

    PREFIX = "i"

    def __init__(self, w: Writer, prog: Program, ins: Any, pc: int, leaders: frozenset[int] = frozenset()) -> None:
        self.w, self.prog, self.ins, self.pc = w, prog, ins, pc
        self.leaders = leaders  # the instructions a generated block starts at (``b<pc>_run``)

    def name(self, what: str) -> str:
        return f"{self.PREFIX}{self.pc}_{what}"

    def obj(self, what: str, value: Any) -> str:
        """The name of ``value`` handed to the generated module (once, however often asked)."""
        name = self.name(what)
        if name not in self.w.objects:
            self.w.obj(name, value)
        return name

    def value(self, what: str, fn: Any) -> str:
        """An expression's source: an int literal when known when compiling, the
        expression itself when it has a source (:mod:`interpreter.sources`), else the
        closure's call."""
        v = known(fn)
        if type(v) is int and -MAX_NUMBER <= v <= MAX_NUMBER:
            return repr(int(v))
        if not isinstance(v, Unknown):
            return self.obj(what + "_KNOWN", v)
        text = expression(self.w, self.name(what), fn)
        if text is not None:
            return text
        return self.obj(what, fn) + "(core)"


    def advance_from(self, target: int, ready_at_once: bool) -> None:
        """Lines that go on from a decision just taken as ``Program.advance(core)`` does with
        ``core.pc`` at ``target`` (the same steps counted, the same errors), then ``return p``:
        a decision ``ready_at_once`` is the next one; a generated block is called here (as
        advance's first step calls it), then advance's next two steps are written out (a
        decision made ready, or an instruction run, such as the head of the loop the block
        jumped back to, and a decision after it), and advance goes on from where they stop;
        any other instruction at ``target`` is advance's first of two steps written out."""
        w = self.w
        w.line(f"core.pc = {int(target)}")
        if ready_at_once:
            w.line("core.steps = 1  # advance's first step: the decision is ready")
        elif target in self.leaders:
            w.line("core.steps = 1  # advance's first step: the block")
            w.line(f"b{int(target)}_run(core)")
            with w.block("if not core.terminal:  # advance's next steps, written out: a decision ready?"):
                self._written_steps(2)
            w.line(f"{self.obj('PROG', self.prog)}.advance(core, core.steps)  # on from where the steps stopped")
        else:  # a decision that may be passed over, or an instruction that is no block
            w.line("core.steps = 0")
            with w.block("if not core.terminal:  # advance's first steps, written out"):
                self._written_steps(2)
            w.line(f"{self.obj('PROG', self.prog)}.advance(core, core.steps)  # on from where the steps stopped")
        w.line("return p")

    def _written_steps(self, levels: int) -> None:
        """Advance's loop for ``levels`` steps from ``core.pc``: a decision made ready returns
        ``p``; another instruction is run (the head of a loop the block jumped back to) and
        the next step written the same way; a step over the limit is left to advance,
        which counts it and raises."""
        w = self.w
        w.line(f"ins = {self.obj('INSTRUCTIONS', self.prog.instructions)}[core.pc]")
        w.line("steps = core.steps + 1")
        with w.block(f"if steps <= {int(MAX_STEPS_PER_DEAL)}:"):
            with w.block("if ins.decision:"):
                w.line("core.steps = steps")
                with w.block("if ins.ready(core):"):
                    w.line("return p")
            if levels > 1:
                with w.block("else:"):
                    w.line("core.steps = steps")
                    w.line("ins.run(core)")
                    with w.block("if not core.terminal:"):
                        self._written_steps(levels - 1)


def expression(w: Writer, base: str, fn: Any) -> str | None:
    """The source of a closure's expression (its objects handed to the module as
    ``<base>_E<i>``), or None when it has none."""
    source = sources.of(fn)
    if source is None:
        return None

    def name_object(value: Any) -> str:
        i = 0
        while True:
            name = f"{base}_E{i}"
            if name not in w.objects:
                return w.obj(name, value)
            if w.objects[name] is value:
                return name
            i += 1
    return "(" + sources.render(source, name_object) + ")"


def card_mask(row: list[bool] | tuple[bool, ...]) -> int:
    """The cards of a row of booleans (one per card) as a bitmask."""
    return sum(1 << c for c, on in enumerate(row) if on)


def any_mask(tables: list[list[list[bool]]], ti: int) -> int:
    """The cards any of these pattern tables matches under trump index ti."""
    out = 0
    for table in tables:
        out |= card_mask(table[ti])
    return out


def trump_masks(table: list[list[bool]]) -> tuple[int, ...]:
    """A pattern's table (per trump index, per card) as one bitmask per trump index."""
    return tuple(card_mask(row) for row in table)


def plus(base: int, index: str) -> str:
    """The source of ``base + index`` (``index`` alone when the base is 0)."""
    return f"{int(base)} + {index}" if base else index
