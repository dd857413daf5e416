"""Loops, written out: ``repeat N times`` and ``for each player|side`` (the deal's and a
hook's), inline as Python loops when their bodies never wait for a decision, or as blocks
(a head block and variable slots for the loop's position) when they may; and ``stop``.

A mixin of :class:`~.generator.CodeGenerator`; every loop's turn counts as an automatic
step against the work budget between decisions (``MAX_STEPS``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tricklang import model as m
from tricklang.types import PLAYER, Kind

from .seats import onward
from .writer import Writer, lit

if TYPE_CHECKING:
    from .parts import Parts

    _Base = Parts
else:
    _Base = object


class Loops(_Base):
    """See the module docstring."""

    def repeat_blocks(self, st: m.Repeat, w: Writer, cont: int) -> None:
        assert isinstance(st.bound, m.IntLit)
        counter = self.lay.hidden_slot("repeat")
        w.line(f"c.v[{lit(counter)}] = 0")
        head = self.block(st.span.line, "a loop's head")
        w.line(f"return {lit(head.id)}")
        hw = head.w
        hw.line(f"n = c.v[{lit(counter)}]")
        test = self.ex.cond(st.condition) if st.condition is not None else True
        stop = f"n >= {lit(st.bound.value)}"
        if test is not True:
            stop += f" or not {test if isinstance(test, str) else lit(test)}"
        hw.line(f"if {stop}:")
        hw.line(f"    return {lit(cont)}")
        hw.line(f"c.v[{lit(counter)}] = n + 1")
        self.loops.append(cont)
        self.seq(st.body, hw, head.id)
        self.loops.pop()

    def for_blocks(self, st: m.ForEach, w: Writer, cont: int) -> None:
        lay = self.lay
        first, ex, pos = lay.hidden_slot("for"), lay.hidden_slot("for"), lay.hidden_slot("for")
        var = lay.slot(st.kind)
        self.for_setup(st, w, first, ex)
        w.line(f"c.v[{lit(pos)}] = 0")
        head = self.block(st.span.line, f"a loop over each {st.kind}")
        w.line(f"return {lit(head.id)}")
        hw = head.w
        count = lay.n if st.kind == "player" else lay.nsides
        hw.line(f"i = c.v[{lit(pos)}]")
        hw.line("x = -1")
        hw.line(f"while i < {lit(count)}:")
        if st.kind == "player":
            hw.line(f"    x = {onward(lay, f'c.v[{lit(first)}]', 'i')}")
        else:
            hw.line("    x = i")
        hw.line("    i += 1")
        hw.line(f"    if x != c.v[{lit(ex)}]:")
        hw.line("        break")
        hw.line("    x = -1")
        hw.line(f"c.v[{lit(pos)}] = i")
        hw.line("if x < 0:")
        hw.line(f"    return {lit(cont)}")
        hw.line(f"c.v[{lit(var)}] = x")
        saved = dict(self.context)
        self.context[st.kind] = Kind(st.kind)
        self.loops.append(cont)
        self.seq(st.body, hw, head.id)
        self.loops.pop()
        self.context = saved

    def for_setup(self, st: m.ForEach, w: Writer, first: int, ex: int) -> None:
        """The first seat (players) and the one left out (-1: none) of a `for each`."""
        lay = self.lay
        if st.kind == "player":
            start = self.ex.seat(st.start) if st.start is not None else onward(lay, "c.dealer")
            w.line(f"c.v[{lit(first)}] = {start}")
        else:
            w.line(f"c.v[{lit(first)}] = 0")
        if st.exclude is None:
            w.line(f"c.v[{lit(ex)}] = -1")
        else:
            value = self.ex.expr(st.exclude)
            if st.kind == "side" and self.ex.type(st.exclude) == PLAYER:
                value = f"SIDE_OF[{self.ex.seat(st.exclude)}]"
            w.line(f"c.v[{lit(ex)}] = {value}")

    def visit_Repeat(self, st: m.Repeat, w: Writer) -> bool:
        assert isinstance(st.bound, m.IntLit)
        n = self.lay.hidden_slot("repeat")  # (a local would do; a slot keeps names unique)
        w.line(f"for _r{n} in range({lit(st.bound.value)}):")
        with w.indented():
            self.loop_step(w)
            if st.condition is not None:
                test = self.ex.cond(st.condition)
                if test is not True:
                    w.line(f"if not {test if isinstance(test, str) else lit(test)}:")
                    w.line("    break")
            self.loops.append(-1)
            self.seq(st.body, w, None)
            self.loops.pop()
        return True

    def visit_ForEach(self, st: m.ForEach, w: Writer) -> bool:
        return self.for_each_inline(st, w, lambda body: self.seq(st.body, body, None), st.kind in self.hook_names)

    def for_each_inline(self, st: m.ForEach, w: Writer, write_body: Callable[[Writer], object],
                        keep: bool = False) -> bool:
        """`for each player`/`for each side` as a Python loop, its body written by ``write_body``
        (the deal's statements; a hook's or a declaration's effects, :meth:`_effects`) with the
        loop's name bound; ``keep``: the name is a hook's own (`player`), given back after the loop."""
        lay = self.lay
        first, ex = lay.hidden_slot("for"), lay.hidden_slot("for")
        var = lay.slot(st.kind)
        if keep:
            w.line(f"kept{first} = c.v[{lit(var)}]")
        self.for_setup(st, w, first, ex)
        count = lay.n if st.kind == "player" else lay.nsides
        w.line(f"for _i{first} in range({lit(count)}):")
        with w.indented():
            if st.kind == "player":
                w.line(f"x = {onward(lay, f'c.v[{lit(first)}]', f'_i{first}')}")
            else:
                w.line(f"x = _i{first}")
            w.line(f"if x == c.v[{lit(ex)}]:")
            w.line("    continue")
            self.loop_step(w)
            w.line(f"c.v[{lit(var)}] = x")
            saved = dict(self.context)
            self.context[st.kind] = Kind(st.kind)
            self.loops.append(-1)
            write_body(w)
            self.loops.pop()
            self.context = saved
        if keep:
            w.line(f"c.v[{lit(var)}] = kept{first}")
        return True

    def loop_step(self, w: Writer) -> None:
        """A loop's turn counts as an automatic step (the work budget between decisions)."""
        w.line("c.steps += 1")
        w.line("if c.steps > MAX_STEPS:")
        w.line("    _too_many_steps()")

    def visit_StopLoop(self, st: m.StopLoop, w: Writer) -> bool:
        target = self.loops[-1]
        w.line("break" if target < 0 else f"return {lit(target)}")
        return False
