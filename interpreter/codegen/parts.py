"""What every part of the code generator shares: the layout being filled, the blocks
and functions written so far, the names bound where a statement is, and the small
helpers that write blocks, events and law ids. The statement visitor
(:mod:`.generator`), the decision points (:mod:`.decisions`) and trick play
(:mod:`.tricks`) are mixins over it; the module's assembly (:mod:`.module`) reads it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tricklang import Ruleset
from tricklang import model as m
from tricklang.types import Type

from .blocks import Block, waits
from .cards import CardMoves
from .expressions import ExprWriter
from .layout import Layout
from .writer import Writer, lit, logged

MOMENTS = ("deal", "end_of_play")
"""The referee's moments a pause stands for, as written after ``during``."""


class Parts:
    """See the module docstring."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.lay = Layout(ruleset)
        self.rules = ruleset.rules
        self.moves = CardMoves(self.lay)
        self.blocks: list[Block] = []
        self.funcs = Writer()
        self.loops: list[int] = []  # the exit block of each enclosing loop; -1: an inline loop (break)
        self.context: dict[str, Type] = {}
        self.in_remedy = False
        self.line = 0
        self.pauses = frozenset(ph for irr in self.rules.irregularities for ph in irr.phases if ph in MOMENTS)
        self.deal_end = -1
        self.ret_block = -1
        self.tables_extra: list[tuple[str, list[int]]] = []
        self.trick_card_rules: list[m.CardRule] = []
        """The card rules that change the trick (:mod:`.trick_cards`) of the trick play being written."""
        self.anytime = -1
        """The trick play whose cards 'may be played at any time' (``anytime_D``), while its legal-play
        chain is written; -1: none."""
        self.tie = ""
        self.hook_exit = -1
        """Where `end the play` goes in an `after each trick:` hook run as blocks (the next hook's block)."""
        self.hook_names: frozenset[str] = frozenset()
        """The names a hook on a card binds (`player`, `card`) while its body is written as blocks
        (:meth:`~.hooks.TrickHooks._hook_blocks`): a `for each player` there gives `player` back after it."""
        """The function deciding between equal cards of the trick play being written (``.ties``), or ''."""

    if TYPE_CHECKING:  # the statement visitor's (generator.CodeGenerator)
        def seq(self, stmts: tuple[m.Statement, ...], w: Writer, cont: int | None) -> bool: ...
        def visit(self, node: m.Node, w: Writer) -> bool: ...
        def visit_Score(self, st: m.Score, w: Writer) -> bool: ...  # noqa: N802
        def visit_Let(self, st: m.Let, w: Writer) -> bool: ...  # noqa: N802
        def visit_Move(self, st: m.Move, w: Writer) -> bool: ...  # noqa: N802
        def visit_Expose(self, st: m.Expose, w: Writer) -> bool: ...  # noqa: N802
        def _hook_loop_exit(self, st: m.ForEach, w: Writer, cont: int) -> int: ...
        def for_each_inline(self, st: m.ForEach, w: Writer, write_body: Callable[[Writer], object],
                            keep: bool = False) -> bool: ...

    @property
    def ex(self) -> ExprWriter:
        return ExprWriter(self.lay, self.context, self.line)

    def block(self, line: int, what: str) -> Block:
        b = Block(len(self.blocks), line, what)
        self.blocks.append(b)
        return b

    def waits(self, st: m.Statement) -> bool:
        return waits(st, frozenset() if self.in_remedy else self.pauses)

    def event(self, w: Writer, entry: str, counted: bool = True) -> None:
        """Log an event (when the core records them); ``counted`` events count towards
        the limits on events a deal and a match may log."""
        if counted:
            w.line("_ev(c)")
        w.line(f"if {logged(entry)}: c.log.append({entry})")

    def laws(self, st: m.Stmt | m.Node | None) -> str:
        cite = getattr(st, "cite", None)
        return lit(self.lay.law(cite))
