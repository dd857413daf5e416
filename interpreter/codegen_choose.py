"""Generated code for named choices (``elder chooses: stand: ... propose: ...``): the
random step's draw and the carrying out of a chosen option, written for one
instruction with what is known when compiling (how many options, where each goes).

``draw`` picks an option as ``legal_actions()[randbelow(rng, len)]`` does, from the
instruction's :class:`~interpreter.actions.Action` objects (made once per program),
without building the legal actions; it gives None when an option may be withheld
(``core.declared`` holds something), and the State lists them instead. ``take`` does what
:meth:`~interpreter.decisions.Choose.apply` does and returns the seat that chose, so that
the State does not ask for it again. Options are the rule file's names: they reach the
module as objects under generated names, never as source (see :mod:`interpreter.codegen`).
"""

from __future__ import annotations

import random

from . import events as ev
from .codegen_base import InstructionGen
from .codegen_deals import emit
from .decisions import Choose, PlayerDecision
from .legal import GETRANDBITS


def ready_at_once(ins: object) -> bool:
    """Whether ``ready`` of this instruction is always True (a choice, naming a trump...:
    ``PlayerDecision.ready``, never replaced by generated code)."""
    return isinstance(ins, PlayerDecision) and type(ins).ready is PlayerDecision.ready


class ChooseGen(InstructionGen):
    """Writes the functions of one choice (prefix ``c<pc>_``)."""

    PREFIX = "c"
    ins: Choose

    def write(self) -> list[tuple[int, str, str]]:
        w, ins = self.w, self.ins
        w.line()
        w.rule_line(ins.line, f"a choice of {len(ins.names)} options (instruction {self.pc})")
        return [(self.pc, "fast_draw", self._draw()), (self.pc, "take", self._take()),
                (self.pc, "take_step", self._step())]

    def _draw(self) -> str:
        w, fn = self.w, self.name("draw")
        n = len(self.ins.actions)
        actions = self.obj("ACTIONS", tuple(self.ins.actions))
        w.line()
        with w.block(f"def {fn}(core, rng):"):
            with w.block("if core.declared:"):
                w.line("return None  # an option may be withheld: drawn from the listed actions")
            with w.block(f"if type(rng) is not {self.obj('Random', random.Random)}:"):
                w.line(f"return {actions}[rng.randrange({int(n)})]")
            getrandbits = self.obj("getrandbits", GETRANDBITS)  # randbelow's draw, inlined
            w.line(f"i = {getrandbits}(rng, {int(n.bit_length())})")
            with w.block(f"while i >= {int(n)}:"):
                w.line(f"i = {getrandbits}(rng, {int(n.bit_length())})")
            w.line(f"return {actions}[i]")
        return fn

    def _take(self) -> str:
        w, ins, fn = self.w, self.ins, self.name("take")
        # the first option of each name, and where it goes
        target = self.obj("TARGET", {name: ins.targets[i] for name, i in ins.position.items()})
        w.line()
        with w.block(f"def {fn}(core, action):"):
            self._taken()
            w.line(f"core.pc = {target}[verb]")
            w.line("return p")
        return fn

    def _taken(self, *after_generic: str) -> None:
        """The lines ``take`` and ``take_step`` begin with: the chooser in ``p``; an option
        withheld once goes to the generic method (then the lines ``after_generic``); else the
        choice is logged and its option left in ``verb``."""
        w, ins = self.w, self.ins
        w.line(f"p = {self.value('PLAYER', ins.player)}")
        with w.block("if core.declared:"):
            w.line(f"{self.obj('APPLY', Choose.apply)}({self.obj('INS', ins)}, core, action)"
                   "  # an option withheld once: the generic method")
            for line in after_generic:
                w.line(line)
            w.line("return p")
        w.line("verb = action.verb")
        emit(w, self.prog, f"({int(ev.CHOICE)}, p, verb, {self.obj('LAWS', ins.laws)})")

    def _step(self) -> str:
        """``take_step``: ``take``, then on to the next decision as ``Program.advance`` goes,
        each option's target known here (a choice there: ready at once; a block: called)."""
        w, ins, fn = self.w, self.ins, self.name("step")
        target = self.obj("TARGET", {name: ins.targets[i] for name, i in ins.position.items()})
        prog = self.obj("PROG", self.prog)
        w.line()
        with w.block(f"def {fn}(core, action):"):
            self._taken(f"{prog}.advance(core)")
            for k, (name, i) in enumerate(ins.position.items()):
                t = ins.targets[i]
                with w.block(f"if verb == {self.obj(f'NAME{k}', name)}:"):
                    self.advance_from(t, ready_at_once(self.prog.instructions[t]) if 0 <= t < len(self.prog.instructions) else False)
            w.line(f"core.pc = {target}[verb]  # (an unknown option: KeyError, as take)")
            w.line(f"{prog}.advance(core)")
            w.line("return p")
        return fn
