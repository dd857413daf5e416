"""What the writers of one decision's generated functions share: the names they give
(a prefix letter and the instruction's index, so that no text of the rule file names
anything in the generated module) and the objects they hand to it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tricklang.walk import Unknown

from . import sources
from .expressions import known
from .flow import MAX_NUMBER
from .program import Program

if TYPE_CHECKING:
    from .codegen import Writer


class InstructionGen:
    """Writes the functions of one instruction, named ``<PREFIX><pc>_<what>``."""

    PREFIX = "i"

    def __init__(self, w: Writer, prog: Program, ins: Any, pc: int) -> None:
        self.w, self.prog, self.ins, self.pc = w, prog, ins, pc

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
