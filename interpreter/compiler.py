"""Compile a checked ruleset into a :class:`~interpreter.program.Program`.

Expressions become Python closures over the game core, statements become a flat
list of instructions with jumps. This happens once per ruleset and options, so
that play never walks the syntax tree again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tricklang import Ruleset
from tricklang import model as m
from tricklang.types import PLAYER, Kind, Type
from tricklang.walk import Value, Visitor

from . import codegen, keeping, pauses, remedies
from . import instructions as ins
from .cards import NO_TRUMP, CardTables
from .core import Core
from .errors import RuleRuntimeError
from .expressions import ExpressionCompiler, constant
from .program import Fn, Program

_CACHE: dict[tuple[str, tuple[tuple[str, Any], ...], bool], Program] = {}


_LAST: list[Any] = [None, None, None]
"""The ruleset last compiled (the very object: a frozen model), ``codegen.ENABLED`` then, and
its program: a match started per deal (a simulation, a benchmark) finds it without a key."""


_PINNED: dict[tuple[str, tuple[tuple[str, Any], ...], bool], Program] = {}
"""Programs given by :func:`pin` (native builds, :mod:`interpreter.native`, which bounds
how many): never evicted."""


def _key(ruleset: Ruleset) -> tuple[str, tuple[tuple[str, Any], ...], bool]:
    return (ruleset.digest + ruleset.path, tuple(sorted(ruleset.options.items())), codegen.ENABLED)


def compile_ruleset(ruleset: Ruleset) -> Program:
    """The program for a ruleset and its option values (cached; a program given by
    :func:`pin` for them, if any)."""
    last = _LAST
    if last[0] is ruleset and last[1] is codegen.ENABLED:
        cached: Program = last[2]
        return cached
    key = _key(ruleset)
    prog = _PINNED.get(key) or _CACHE.get(key)
    if prog is None:
        prog = _Compiler(ruleset).build()
        if codegen.ENABLED:
            codegen.attach(prog)  # trick play as generated Python (see interpreter/codegen.py)
        if len(_CACHE) > 64:
            _CACHE.clear()
        _CACHE[key] = prog
    last[:] = ruleset, codegen.ENABLED, prog
    return prog


def compile_bare(ruleset: Ruleset) -> Program:
    """A new program for a ruleset and its option values, without generated code (nor
    cache): :func:`interpreter.codegen.generate` and :func:`~interpreter.codegen.bind`
    give it its module."""
    return _Compiler(ruleset).build()


def pinned(ruleset: Ruleset) -> Program | None:
    """The program :func:`pin` gave for this ruleset and its options, or None."""
    return _PINNED.get(_key(ruleset))


def pin(ruleset: Ruleset, prog: Program) -> None:
    """Use ``prog`` for this ruleset and its options from now on, in this process (new
    games, and states rebuilt from records), instead of compiling them."""
    _PINNED[_key(ruleset)] = prog
    _LAST[:] = None, None, None


def pinned_count() -> int:
    """How many rulesets (and options) :func:`pin` was given."""
    return len(_PINNED)


class _Compiler(ExpressionCompiler, Visitor[None]):
    """Statements to instructions (a ``visit_<Statement>`` method each); expressions (see
    :class:`ExpressionCompiler`) to closures."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self.rules = ruleset.rules
        assert self.rules.deck is not None and self.rules.players is not None
        self.tables = CardTables(self.rules.deck, self.rules.points)
        self.prog = Program(self.tables, self.rules.players.count, self.rules.players.teams)
        self.prog.options = dict(ruleset.options)
        self.prog.holders = False  # until an expression reads who held a card (card_holder)
        self.symbols = ruleset.symbols
        self.slots: dict[str, int] = {}
        self.roles = {r.name: r.value for r in self.rules.roles}
        self.loop_ends: list[list[ins.Jump]] = []
        self.context: dict[str, Type] = {}
        # Names whose value is known when compiling: choice values (unless a role has
        # that name), true and false, the options; never a variable of the rule file.
        self.constants: dict[str, Value] = {
            c: c for c in self.symbols.choice_values if c not in self.roles}
        self.constants.update({"true": True, "false": False, **self.prog.options})
        for name in self.symbols.variables:
            self.constants.pop(name, None)
        # The referee's moments some irregularity names (see interpreter/pauses.py): a pause
        # follows each statement of the deal (not of a remedy) that ends such a moment.
        self.moments = {ph for irr in self.rules.irregularities for ph in irr.phases if ph in pauses.MOMENTS}
        self.in_remedy = False

    # ------------------------------------------------------------ helpers
    def slot(self, name: str) -> int:
        if name not in self.slots:
            self.slots[name] = len(self.prog.var_names)
            self.prog.var_names.append(name)
        return self.slots[name]

    def hidden_slot(self, what: str) -> int:
        return self.slot(f"<{what}#{len(self.prog.var_names)}>")

    def type(self, e: m.Expr) -> Type:
        return self.symbols.type_of(e, self.context)

    def emit(self, instr: ins.Instruction, st: m.Stmt | None = None, laws: tuple[str, ...] = ()) -> int:
        if st is not None:
            instr.line = st.span.line
            if st.cite is not None:
                instr.laws = st.cite.laws
        if laws and not instr.laws:
            instr.laws = laws
        self.prog.instructions.append(instr)
        return len(self.prog.instructions) - 1

    @property
    def here(self) -> int:
        return len(self.prog.instructions)

    # ------------------------------------------------------------ build
    def build(self) -> Program:
        prog = self.prog
        for z in self.rules.zones:
            prog.add_zone(z.name, z.owner, z.visibility)
            if z.pack:
                prog.pack = prog.zone_base[z.name]
        prog.hand = prog.zone_base["hand"]
        if "won" in prog.zone_base:
            prog.won = prog.zone_base["won"]
            prog.won_kind = prog.zone_kind["won"]
        for role in self.rules.roles:
            if self._depends_on_dealer_only(role.value):
                prog.seat_roles[role.name] = self.expr(role.value)
        for counter in self.rules.counters:
            prog.counters[counter.name] = counter.owner
        mt = self.rules.match
        if mt is not None:
            prog.lowest_wins = mt.lowest_wins
            if mt.target is not None:
                prog.target = self.expr(mt.target)
            prog.at_once = mt.target_when == "at_once"
            if mt.ties is not None:
                prog.ties = self.expr(mt.ties)
                prog.ties_is_player = self.type(mt.ties) == "player"
            prog.rotation = {"left": 1, "right": -1, "never": 0}[mt.rotation]
            if isinstance(mt.first_dealer, int):
                prog.first_dealer = mt.first_dealer
            if mt.deal_limit is not None:
                prog.deal_limit = mt.deal_limit
        self.block(self.rules.deal)
        prog.deal_end = self.emit(ins.FinishDeal(prog))
        self.context["offender"] = PLAYER
        offender = self.slot("offender")
        for irr in self.rules.irregularities:
            saved = dict(self.context)
            params = tuple(self.parameter(p) for p in irr.params)
            test = self.guard(irr.guard)
            if test is False:
                self.context = saved
                continue
            laws = irr.cite.laws if irr.cite else ()
            entry = ins.IrregularityEntry(
                irr.name, self.expr(irr.by) if irr.by is not None else None,
                frozenset(irr.phases or ("any",)), None if test is True else test, laws, offender, params,
            )
            entry.entry = self.here
            entry.anytime = "any" in irr.phases
            self.in_remedy = True
            self.block(irr.body)
            self.in_remedy = False
            self.emit(ins.Return(prog))
            prog.irregularities.append(entry)
            self.context = saved
        del self.context["offender"]
        prog.auctions = any(isinstance(i, ins.Auction) for i in prog.instructions)
        return prog

    def parameter(self, p: m.IrregularityParam) -> ins.ParamSpec:
        """An irregularity's parameter, bound by name for its guard and body."""
        self.context[p.name] = {"count": Kind.INT, "suit": Kind.SUIT}.get(p.kind, Kind.CARD)
        slot = self.slot(p.name)
        if p.kind == "count":
            return ins.ParamSpec(p.name, "count", slot, p.low, p.high)
        if p.kind == "suit":
            return ins.ParamSpec(p.name, "suit", slot, 0, self.tables.nsuits - 1)
        zone = self.zone_expr(p.zone) if p.zone is not None else None
        table = self.tables.pattern_table(p.matching) if p.matching is not None else None
        return ins.ParamSpec(p.name, "card", slot, zone=zone, table=table)

    # ------------------------------------------------------------ statements
    def block(self, stmts: tuple[m.Statement, ...]) -> None:
        for st in stmts:
            self.stmt(st)

    def stmt(self, st: m.Statement) -> None:
        """Compile one statement: ``visit_<Statement>`` below emits its instructions."""
        self.line = st.span.line
        self.visit(st)

    def generic_visit(self, node: m.Node, *args: Any) -> None:  # pragma: no cover - every statement has a visit_
        raise TypeError(node)

    # dealing and the trump
    def visit_DealCards(self, st: m.DealCards) -> None:
        first = self.seat(st.first) if st.first is not None else None
        self.emit(ins.DealCards(self.prog, [self.expr(p) for p in st.packets], first), st)
        self.pause("deal", st)

    def pause(self, moment: str, st: m.Statement, tricks_at: int = -1) -> None:
        """The referee's pause after ``st`` when an irregularity names ``moment``."""
        if moment in self.moments and not self.in_remedy:
            self.emit(pauses.RefereePause(self.prog, moment, tricks_at), st)

    def visit_TurnUp(self, st: m.TurnUp) -> None:
        self.emit(ins.TurnUp(self.prog, self.expr(st.count), self.zone_expr(st.to)), st)

    def visit_SetTrump(self, st: m.SetTrump) -> None:
        zone = self.zone_expr(st.zone) if st.zone is not None else None
        suit = self.tables.suit_names.index(st.suit) if st.suit is not None else NO_TRUMP
        self.emit(ins.SetTrump(self.prog, st.source, zone, suit), st)

    def visit_NameTrump(self, st: m.NameTrump) -> None:
        exclude = self.expr(st.exclude) if st.exclude is not None else None
        self.emit(ins.NameTrump(self.prog, self.seat(st.player), exclude), st)

    def visit_Redeal(self, st: m.Redeal) -> None:
        self.emit(ins.Redeal(self.prog, st.same_dealer), st)

    # bidding
    def visit_Bid(self, st: m.Bid) -> None:
        forbidden = self.expr(st.forbidden) if st.forbidden is not None else None
        self.emit(ins.Bid(self.prog, self.seat(st.player), self.expr(st.low), self.expr(st.high), forbidden), st)

    def visit_Auction(self, st: m.Auction) -> None:
        self.emit(ins.Auction(
            self.prog, st.kind == "once_around", self.seat(st.start), self.expr(st.low), self.expr(st.high),
            self.expr(st.all_pass_maker) if st.all_pass_maker is not None else None,
            self.expr(st.all_pass_bid) if st.all_pass_bid is not None else None,
            st.all_pass_cite.laws if st.all_pass_cite else (),
        ), st)

    # scores, counters, variables
    def visit_Score(self, st: m.Score) -> None:
        self.emit(self.score(st), st)

    def score(self, st: m.Score) -> ins.Score:
        is_player = self.type(st.who) == "player"
        who = self.seat(st.who, "scoring") if is_player else self.expr(st.who)
        return ins.Score(self.prog, who, is_player, self.expr(st.amount),
                         st.label, -1 if st.negative else 1)

    def visit_Add(self, st: m.Add) -> None:
        self.emit(ins.AddCounter(self.prog, st.counter, self.expr(st.amount), self.expr(st.owner),
                                 self.type(st.owner) == "player"), st)

    def visit_Let(self, st: m.Let) -> None:
        if st.rebind and st.name in ("maker", "bid"):
            self.emit(ins.SetBuiltin(self.prog, st.name, self.expr(st.value)), st)
        else:
            self.emit(ins.SetVar(self.prog, self.slot(st.name), self.expr(st.value)), st)

    def visit_Forbid(self, st: m.Forbid) -> None:
        self.emit(ins.Forbid(self.prog, st.declaration, self.seat(st.who), st.kind), st)

    def visit_Cancel(self, st: m.Cancel) -> None:
        self.emit(ins.Cancel(self.prog, st.label, self.expr(st.who), self.type(st.who) == "player"), st)

    # control
    def visit_Phase(self, st: m.Phase) -> None:
        self.block(st.body)

    def visit_Pass(self, st: m.Pass) -> None:
        pass

    def visit_StopLoop(self, st: m.StopLoop) -> None:
        jump = ins.Jump(self.prog)
        self.emit(jump, st)
        self.loop_ends[-1].append(jump)

    def visit_EndDeal(self, st: m.EndDeal) -> None:
        self.emit(ins.EndDeal(self.prog), st)

    def visit_EndMatch(self, st: m.EndMatch) -> None:
        self.emit(ins.EndMatch(self.prog), st)

    # moving cards
    def visit_Discard(self, st: m.Discard) -> None:
        player = self.seat(st.player)
        low, high = self.count_fns(st.count)
        test = self.tables.pattern_table(st.matching) if st.matching is not None else None
        hand = self.prog.hand
        self.emit(ins.Select(self.prog, "discard", player, st.count.kind, low, high, test,
                             lambda core: hand + player(core), self.zone_expr(st.to, player), source_is_hand=True), st)

    def visit_Take(self, st: m.Take) -> None:
        player = self.seat(st.player)
        low, high = self.count_fns(st.count)
        test = self.tables.pattern_table(st.matching) if st.matching is not None else None
        hand = self.prog.hand
        self.emit(ins.Select(self.prog, st.verb, player, st.count.kind, low, high, test,
                             self.zone_expr(st.source, player), lambda core: hand + player(core), dest_is_hand=True), st)

    def visit_Draw(self, st: m.Draw) -> None:
        player = self.seat(st.player)
        fallback = self.zone_expr(st.fallback, player) if st.fallback is not None else None
        ftest = self.tables.pattern_table(st.fallback_matching) if st.fallback_matching is not None else None
        self.emit(ins.Draw(self.prog, player, st.count.kind, self.expr(st.count.low),
                           self.zone_expr(st.source, player), fallback, ftest), st)

    def visit_Move(self, st: m.Move) -> None:
        test = self.tables.pattern_table(st.matching) if st.matching is not None else None
        amount = self.expr(st.amount) if st.amount is not None else None
        kind = keeping.MoveUnder if st.bottom else ins.Move
        self.emit(kind(self.prog, st.mode, amount, test, self.zone_expr(st.source), self.zone_expr(st.to)), st)

    def visit_Keep(self, st: m.Keep) -> None:
        player = self.seat(st.player)
        source = self.zone_expr(st.source, player)
        rest = self.zone_expr(st.rest, player) if st.rest is not None else None
        for step in keeping.keep_instructions(self.prog, st.verb, player, self.expr(st.count), source, rest):
            self.emit(step, st)

    def visit_Cut(self, st: m.Cut) -> None:
        self.emit(keeping.Cut(self.prog, self.zone_expr(st.zone)), st)

    # remedies that reach into trick play and into who deals
    def visit_Leads(self, st: m.Leads) -> None:
        self.emit(remedies.Leads(self.prog, self.seat(st.player, "'leads'")), st)

    def visit_ReplayTricks(self, st: m.ReplayTricks) -> None:
        self.emit(remedies.ReplayTricks(self.prog), st)

    def visit_BecomesDealer(self, st: m.BecomesDealer) -> None:
        self.emit(remedies.BecomesDealer(self.prog, self.seat(st.player, "'becomes dealer'")), st)

    def visit_Expose(self, st: m.Expose) -> None:
        if st.zone.owner is None and self.context.get(st.zone.name) == Kind.CARD:  # a card parameter
            self.emit(ins.ExposeCard(self.prog, self.slot(st.zone.name)), st)
        else:
            self.emit(ins.Expose(self.prog, self.zone_expr(st.zone)), st)

    # branches and loops
    def visit_If(self, st: m.If) -> None:
        prog = self.prog
        ends: list[ins.Jump] = []
        for cond, body in st.branches:
            test = ins.JumpUnless(prog, self.expr(cond))
            self.emit(test, st)
            self.block(body)
            j = ins.Jump(prog)
            self.emit(j)
            ends.append(j)
            test.target = self.here
        self.block(st.orelse)
        for j in ends:
            j.target = self.here

    def visit_Choose(self, st: m.Choose) -> None:
        prog = self.prog
        choose = ins.Choose(prog, self.seat(st.player), [o.name for o in st.options])
        self.emit(choose, st)
        ends: list[ins.Jump] = []
        for opt in st.options:
            choose.targets.append(self.here)
            self.block(opt.body)
            j = ins.Jump(prog)
            self.emit(j)
            ends.append(j)
        for j in ends:
            j.target = self.here

    def visit_Repeat(self, st: m.Repeat) -> None:
        prog = self.prog
        assert isinstance(st.bound, m.IntLit)
        counter = self.hidden_slot("repeat")
        self.emit(ins.SetVar(prog, counter, constant(0)), st)
        head = ins.LoopHead(prog, counter, st.bound.value, self.expr(st.condition) if st.condition is not None else None)
        head_at = self.emit(head, st)
        self.loop_body(st.body, head_at)
        head.end = self.here

    def visit_ForEach(self, st: m.ForEach) -> None:
        prog = self.prog
        order = self.hidden_slot("for")
        var = self.slot(st.kind)
        start = self.seat(st.start) if st.start is not None else None
        exclude = self.expr(st.exclude) if st.exclude is not None else None
        ex_player = st.exclude is not None and self.type(st.exclude) == "player"
        self.emit(ins.ForInit(prog, order, st.kind, start, exclude, ex_player), st)
        nxt = ins.ForNext(prog, order, var)
        at = self.emit(nxt, st)
        saved = dict(self.context)
        self.context[st.kind] = Kind(st.kind)
        self.loop_body(st.body, at)
        self.context = saved
        nxt.end = self.here

    def loop_body(self, body: tuple[m.Statement, ...], head_at: int) -> None:
        """A loop's body, then the jump back to its head at ``head_at``; a ``stop`` inside
        it jumps past that jump."""
        self.loop_ends.append([])
        self.block(body)
        self.emit(ins.Jump(self.prog, head_at))
        for j in self.loop_ends.pop():
            j.target = self.here

    # trick play
    def visit_Tricks(self, st: m.Tricks) -> None:
        prog = self.prog
        obligations = []
        lead_rules: list[tuple[int, Fn | None]] = []
        lead_lines: list[int] = []
        for ob in st.obligations:
            test = self.guard(ob.guard)
            if test is False:
                continue  # switched off by an option
            guard = None if test is True else test
            laws = ob.cite.laws if ob.cite else ()
            if ob.kind == "lead_until_broken":
                assert ob.pattern is not None
                prog.lead_patterns.append(self.tables.pattern_table(ob.pattern))
                lead_rules.append((len(prog.lead_patterns) - 1, guard))
                lead_lines.append(ob.span.line)
            else:
                table = self.tables.pattern_table(ob.pattern) if ob.pattern is not None else None
                obligations.append(ins.Obligation(ob.kind, guard, laws, table, ob.span.line))
        declarations = []
        saved = dict(self.context)
        self.context["declarer"] = PLAYER
        declarer = self.slot("declarer")
        for d in st.declarations:
            test = self.guard(d.guard)
            if test is False:
                continue  # switched off by an option
            declaration = ins.Declaration(
                d.name, self.tables.pattern_table(d.holding), d.deadline == "before_first_card",
                None if test is True else test,
                self.effects(d.body, d.cite.laws if d.cite else ()), d.cite.laws if d.cite else (), declarer,
            )
            declaration.after_lead = d.deadline == "after_leading_it"
            declarations.append(declaration)
            prog.declaration_names.append(d.name)
        self.context = saved
        tricks = ins.Tricks(prog, self.expr(st.count), self.seat(st.leader), obligations, lead_rules, declarations)
        tricks.window_slot = self.hidden_slot("window")
        tricks.lead_lines = lead_lines
        at = self.emit(tricks, st)
        self.pause("end_of_play", st, at)

    def effects(self, stmts: tuple[m.Statement, ...], laws: tuple[str, ...]) -> Callable[[Core], None]:
        """Compile the body of a declaration: scores, variables and conditions only."""
        steps: list[Callable[[Core], None]] = []
        for st in stmts:
            if isinstance(st, m.Score):
                score = self.score(st)
                score.laws = st.cite.laws if st.cite else laws
                score.line = st.span.line
                def add(core: Core, s: ins.Score = score) -> None:
                    ins.do_score(s, core)
                steps.append(add)
            elif isinstance(st, m.Let):
                slot, value = self.slot(st.name), self.expr(st.value)

                def assign(core: Core, slot: int = slot, value: Fn = value) -> None:
                    core.vars[slot] = value(core)
                steps.append(assign)
            elif isinstance(st, m.If):
                branches = [(self.expr(c), self.effects(b, laws)) for c, b in st.branches]
                orelse = self.effects(st.orelse, laws)

                def branch(core: Core, branches: list[tuple[Fn, Callable[[Core], None]]] = branches,
                           orelse: Callable[[Core], None] = orelse) -> None:
                    for cond, body in branches:
                        if cond(core):
                            body(core)
                            return
                    orelse(core)
                steps.append(branch)
            elif isinstance(st, m.Pass):
                continue
            else:
                raise RuleRuntimeError(f"line {st.span.line}: a declaration may only score, set variables or test conditions")

        def run(core: Core) -> None:
            for step in steps:
                if core.terminal:
                    return
                step(core)
        return run
