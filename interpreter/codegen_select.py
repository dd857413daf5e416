"""Generated code for card selections (``Select``: discarding, drawing back, robbing): its
``ready``, ``legal`` and ``apply``, written for one instruction with what is known when
compiling (the kind of count, bounds that are constants, a pattern as one bitmask per
trump, whether the cards come from or go to the player's hand).

The legal actions are the same lazy :class:`~interpreter.legal.Selection` as the generic
method's, in the same order; errors carry the same messages. Expressions are written out when they have a source
(:mod:`interpreter.sources`), else closures handed to the module under generated names; no text of the rule file reaches the source
(see :mod:`interpreter.codegen`).
"""

from __future__ import annotations

import random

from . import events as ev
from .actions import Action
from .codegen_base import InstructionGen, card_mask, plus
from .codegen_deals import emit
from .decisions import Select
from .errors import GameLimitError
from .flow import MAX_CHOICES, _visible_mask
from .legal import GETRANDBITS, LegalActions, Selection, draw_subset, listing

_KIND_TEXT = {0: "exactly N", 1: "from N to M", 2: "at least N", 3: "down to N in the hand", 4: "up to N in the hand"}


class SelectGen(InstructionGen):
    """Writes the functions of one card selection (prefix ``s<pc>_``)."""

    PREFIX = "s"
    ins: Select

    def write(self) -> list[tuple[int, str, str]]:
        w, ins = self.w, self.ins
        w.line()
        w.rule_line(ins.line, f"choose cards, {_KIND_TEXT[ins._kind]} (instruction {self.pc})")
        if ins.test is not None:
            w.const(self.name("TEST"), tuple(card_mask(row) for row in ins.test))
        ready, legal, draw, apply = self._ready(), self._legal(), self._draw(), self._apply()
        step = self._apply(step=True)
        return [(self.pc, "ready", ready), (self.pc, "legal", legal), (self.pc, "fast_draw", draw),
                (self.pc, "apply", apply), (self.pc, "take", apply), (self.pc, "take_step", step)]

    # -------------------------------------------------------------- counts
    def _source(self) -> None:
        """``p``, ``zones`` and ``src`` (and ``s``, the source zone, unless it is the hand)."""
        w, ins, prog = self.w, self.ins, self.prog
        w.line(f"p = {self.value('PLAYER', ins.player)}")
        w.line("zones = core.zones")
        if ins.source_is_hand:
            w.line(f"src = zones[{plus(prog.hand, 'p')}]")
        else:
            w.line(f"s = {self.value('SOURCE', ins.source)}")
            w.line("src = zones[s]")

    def _counts(self, clamp_low: bool) -> None:
        """``eligible``, ``lo`` and ``hi`` as :meth:`Select._counts_of` computes them."""
        w, ins, prog = self.w, self.ins, self.prog
        self._source()
        if ins.test is None:
            w.line("eligible = src")
        else:
            w.line(f"m = {self.name('TEST')}[core.ti]")
            w.line("eligible = [c for c in src if m >> c & 1]")
        kind = ins._kind
        low = self.value("LOW", ins.low)
        if kind == 0:
            w.line(f"lo = hi = {low}")
        elif kind == 1:
            w.line(f"lo = {low}")
            w.line(f"hi = {self.value('HIGH', ins.high)}")
        elif kind == 2:
            w.line(f"lo = {low}")
            w.line("hi = len(eligible)")
        elif kind == 3:
            w.line(f"lo = hi = len(zones[{plus(prog.hand, 'p')}]) - {low}")
        else:
            w.line(f"lo = hi = {low} - len(zones[{plus(prog.hand, 'p')}])")
        if kind != 2:  # at least N: hi is every eligible card already
            w.line("n = len(eligible)")
            with w.block("if hi > n:"):
                w.line("hi = n")
            with w.block("if hi < 0:"):
                w.line("hi = 0")
        if clamp_low:
            with w.block("if lo > hi:"):
                w.line("lo = hi")
            with w.block("elif lo < 0:"):
                w.line("lo = 0")

    # -------------------------------------------------------------- the three methods
    def _ready(self) -> str:
        w, fn = self.w, self.name("ready")
        w.line()
        with w.block(f"def {fn}(core):"):
            self._counts(clamp_low=False)
            with w.block("if hi == 0:"):
                w.line("core.pc += 1  # nothing to choose")
                w.line("return False")
            w.line("return True")
        return fn

    def _legal(self) -> str:
        w, ins, tables = self.w, self.ins, self.prog.tables
        fn = self.name("legal")
        okey = self.obj("OKEY", tuple(row.__getitem__ for row in tables.order))
        sel = self.obj("Selection", Selection)
        error = self.obj("GameLimitError", GameLimitError)
        message = self.obj("TOO_MANY", f"line {ins.line}: more than {MAX_CHOICES} ways to choose cards")
        w.line()
        with w.block(f"def {fn}(core):"):
            self._counts(clamp_low=True)
            w.line(f"selection = {sel}({self.obj('VERB', ins.verb)}, tuple(sorted(eligible, key={okey}[core.ti])), "
                   f"lo, hi, {self.obj('CODES', tables.codes)})")
            with w.block(f"if selection.total > {int(MAX_CHOICES)}:"):
                w.line(f"raise {error}({message})")
            w.line(f"return {self.obj('LegalActions', LegalActions)}((), selection)")
        return fn

    def _draw(self) -> str:
        """``fast_draw``: the subset ``legal``'s selection would give for ``randbelow(rng, len)``:
        read from the shape's list of subsets (:func:`~interpreter.legal.listing`, kept per
        shape), ``randbelow`` inlined; a shape too large to be listed is unranked alone
        (None when there are too many: ``legal`` refuses them)."""
        w, tables = self.w, self.prog.tables
        fn = self.name("draw")
        verb, codes = self.obj("VERB", self.ins.verb), self.obj("CODES", tables.codes)
        w.line()
        with w.block(f"def {fn}(core, rng):"):
            self._counts(clamp_low=True)
            w.line(f"cards = sorted(eligible, key={self.obj('OKEY', tuple(row.__getitem__ for row in tables.order))}[core.ti])")
            if self.ins._kind == 2:  # (else n, the count of eligible cards, is known)
                w.line("n = len(cards)")
            w.line(f"entry = {self.obj('LISTED', {})}.get((n, lo, hi))")
            with w.block("if entry is None:"):
                w.line(f"entry = {self.obj('listing', listing)}({self.name('LISTED')}, n, lo, hi)")
            w.line("listed, k = entry")
            with w.block("if not k:  # too many subsets to list: unranked"):
                w.line(f"return {self.obj('draw_subset', draw_subset)}(rng, {verb}, cards, lo, hi, {codes}, {int(MAX_CHOICES)})")
            w.line("total = len(listed)")
            with w.block(f"if type(rng) is {self.obj('Random', random.Random)}:  # randbelow's draw, inlined"):
                getrandbits = self.obj("getrandbits", GETRANDBITS)
                w.line(f"i = {getrandbits}(rng, k)")
                with w.block("while i >= total:"):
                    w.line(f"i = {getrandbits}(rng, k)")
            with w.block("else:"):
                w.line("i = rng.randrange(total)")
            w.line("positions = listed[i]")
            with w.block("if positions:"):
                w.line(f"return {self.obj('Action', Action)}({verb}, tuple([{codes}[cards[j]] for j in positions]))")
            w.line(f"return {self.name('Action')}({verb}, {self.obj('NONE', ('none',))})")
        return fn

    def _apply(self, step: bool = False) -> str:
        """``apply``, which returns the seat that chose (so it is ``take`` too). Whose hand
        a destination zone is, and which seats see each zone, are tables of the program.
        With ``step``, ``take_step``: the same, then on to the next decision as
        ``Program.advance`` goes (the block after the selection called at once)."""
        w, ins, prog = self.w, self.ins, self.prog
        fn = self.name("step" if step else "apply")
        prog_name = self.obj("PROG", prog)  # its emit looked up when called
        w.line()
        if step:
            owner, seen = self.name("HAND_OF"), self.name("SEEN")
        else:
            owner = w.const(self.name("HAND_OF"), tuple(z.owner if z.name == "hand" else -1 for z in prog.zones))
            seen = w.const(self.name("SEEN"), tuple(int(z.mask) for z in prog.zones))
        every = int(prog.all_mask)
        with w.block(f"def {fn}(core, action):"):
            w.line(f"p = {self.value('PLAYER', ins.player)}")
            if ins.source_is_hand:
                w.line(f"s = {plus(prog.hand, 'p')}")
            else:
                w.line(f"s = {self.value('SOURCE', ins.source)}")
            if ins.dest_is_hand:
                w.line(f"d = {plus(prog.hand, 'p')}")
            else:
                w.line(f"d = {self.value('DEST', ins.dest)}")
            w.line("args = action.args")
            w.line("zones = core.zones")
            with w.block(f"if args == {self.obj('NONE', ('none',))}:"):
                w.line("cards = []")
            with w.block("else:"):
                w.line(f"index = {self.obj('INDEX', prog.tables.index)}")
                w.line("cards = [index[a] for a in args]")
                w.line("remove = zones[s].remove")
                with w.block("for c in cards:"):
                    w.line("remove(c)")
                w.line("zones[d].extend(cards)")
                if prog.holders:  # kept only where a rule reads it (Program.note_hand)
                    w.line(f"owner = {'p' if ins.dest_is_hand else f'{owner}[d]'}  # cards into a hand: who was first given each")
                    with w.block("if owner >= 0:"):
                        w.line("dealt_to = core.dealt_to")
                        with w.block("for c in cards:"):
                            with w.block("if dealt_to[c] < 0:"):
                                w.line("dealt_to[c] = owner")
            with w.block("if core.exposed:"):
                w.line(f"mask = {self.obj('visible_mask', _visible_mask)}({prog_name}, core, d, s, p)")
            with w.block("else:  # who sees the cards: the destination's seats, all if they came from a public zone"):
                w.line(f"mask = ({every} if {seen}[s] == {every} else {seen}[d]) | 1 << p")
            laws = self.obj("LAWS", ins.laws)
            emit(w, prog, f"({int(ev.SELECT)}, {self.obj('VERB', ins.verb)}, p, tuple(cards), s, d, {laws}, mask)")
            if step:
                self.advance_from(self.pc + 1, False)
            else:
                w.line("core.pc += 1")
                w.line("return p")
        return fn
