"""The code generator: a checked rule file (with its option values) to one Python module.

Like Jinja2's ``CodeGenerator``, one visitor walks the rule file once and writes the whole
module that plays it; the module calls only the plain library :mod:`interpreter.runtime`.
Every statement of the language is compiled here, once: dealing, decisions, trick play,
scoring, loops, the match's flow and the remedies of irregularities. The module is typed
for Cython's pure-Python mode, so the same source runs in CPython and compiles to C
(:mod:`interpreter.native`).

Layout of the generated module (``tricklang compile FILE`` prints it):

* constants and card tables (masks per order index: every trump suit, then no trump);
* ``class Core``: the flat state of a match (ints, masks, small arrays);
* helpers (the prelude): bits, stacks, checked arithmetic, scoring, events;
* blocks ``bK(c)``, each commented with its rule line, and ``advance(c)``;
* per decision point: ``legal_D``, ``apply_D``, ``sample_D`` (trick play also ``play_D``);
* the match's flow: ``new_core``, ``start_deal``, ``end_deal``, ``redeal``;
* irregularities (``irr_offers``, ``irr_start``) and accessors for the state's views.
"""

from __future__ import annotations

from typing import Any

from tricklang import Ruleset
from tricklang import model as m
from tricklang.types import PLAYER, Kind
from tricklang.walk import Visitor

from . import module
from .card_loops import CardLoops
from .exposure import Exposure
from .layout import Irregularity, Param
from .loops import Loops
from .melds import MeldPlay
from .module import Generated
from .named_led import NamedLed
from .seats import onward
from .shows import Showing
from .teams import TeamPlay
from .tricks import TrickPlay
from .writer import Writer, lit


class CodeGenerator(Loops, CardLoops, Exposure, TrickPlay, MeldPlay, NamedLed, Showing, TeamPlay, Visitor[bool]):
    """Statements to blocks (``visit_<Statement>`` writes a statement that does not wait
    and returns whether control goes on past it); see the module docstring. The decision
    points and trick play are its mixins (:mod:`.decisions`, :mod:`.tricks`)."""

    # ------------------------------------------------------------ the whole module
    def generate(self) -> Generated:
        first = self.block(0, "the deal's first statement")
        self.deal_end = self.block(0, "the end of the deal's statements: the match is scored").id
        self.ret_block = self.block(0, "the end of a remedy: back to the decision it interrupted").id
        end = self.blocks[self.deal_end]
        end.w.line("return _end_deal(c)")
        ret = self.blocks[self.ret_block]
        ret.w.line("if c.ncalls:")
        ret.w.line("    c.ncalls -= 1")
        ret.w.line("    return c.calls[c.ncalls]")
        ret.w.line(f"return {lit(self.deal_end)}")
        self.seq(self.rules.deal, first.w, self.deal_end)
        self.irregularities()
        return module.assemble(self)

    # ------------------------------------------------------------ sequences
    def seq(self, stmts: tuple[m.Statement, ...], w: Writer, cont: int | None) -> bool:
        """Write ``stmts`` into ``w``; control then goes to block ``cont`` (``return cont``),
        or falls through when ``cont`` is None (only for statements that never wait).
        Returns whether the code written always leaves (returns, or jumps out of a loop)."""
        for i, st in enumerate(stmts):
            self.line = st.span.line
            if not self.waits(st):
                if st.span.line:
                    w.comment(f"line {st.span.line}")
                if not self.visit(st, w):
                    return True  # control leaves here; what follows is unreachable
                continue
            rest = stmts[i + 1:]
            if rest and not all(isinstance(s, m.Pass) for s in rest):
                after = self.block(rest[0].span.line, "after a decision")
                self.wait(st, w, after.id)
                self.seq(rest, after.w, cont)
            else:
                self.wait(st, w, cont if cont is not None else self.deal_end)
            return True
        if cont is not None:
            w.line(f"return {lit(cont)}")
            return True
        return False

    def wait(self, st: m.Statement, w: Writer, cont: int) -> None:
        """A statement that may wait for a decision: its code ends the current block
        (control goes on at block ``cont`` once it is done)."""
        w.comment(f"line {st.span.line}")
        if isinstance(st, m.If):
            branches, orelse = self.branches(st)
            for k, (test, body) in enumerate(branches):
                w.line(f"{'if' if k == 0 else 'elif'} {test}:")
                with w.indented():
                    self.seq(body, w, cont)
            if branches:
                w.line("else:")
                with w.indented():
                    self.seq(orelse, w, cont)
            else:
                self.seq(orelse, w, cont)
        elif isinstance(st, m.Phase):
            self.seq(st.body, w, cont)
        elif isinstance(st, m.Repeat):
            self.repeat_blocks(st, w, cont)
        elif isinstance(st, m.ForEach):
            self.for_blocks(st, w, self._hook_loop_exit(st, w, cont) if st.kind in self.hook_names else cont)
        elif isinstance(st, m.ForCard):
            self.card_loop_blocks(st, w, cont)
        elif isinstance(st, m.DealCards):
            self.deal_cards(st, w)
            pause = self.pause("deal", st, cont)
            w.line(f"return {lit(pause)}")
        elif isinstance(st, m.Tricks):
            after = self.pause("end_of_play", st, cont) if "end_of_play" in self.pauses and not self.in_remedy else cont
            ready = self.trick_play(st, after)
            if after != cont:
                self.dps_by_block(after).extra["tricks_ready"] = ready
            w.line(f"return {lit(ready)}")
        else:
            ready = self.decision(st, cont)
            w.line(f"return {lit(ready)}")

    def dps_by_block(self, ready: int) -> Any:
        return next(dp for dp in self.lay.dps if dp.extra.get("ready") == ready)

    # ------------------------------------------------------------ statements that never wait
    def generic_visit(self, node: m.Node, *args: Any) -> bool:
        raise TypeError(f"the code generator cannot compile {type(node).__name__} (line {self.line})")  # pragma: no cover - checked

    def visit_Pass(self, st: m.Pass, w: Writer) -> bool:
        return True

    def visit_Phase(self, st: m.Phase, w: Writer) -> bool:
        return not self.seq(st.body, w, None)

    def branches(self, st: m.If) -> tuple[list[tuple[str, tuple[m.Statement, ...]]], tuple[m.Statement, ...]]:
        """An `if`'s branches with their tests as source, those never taken left out; a
        branch always taken becomes the `else` (and those after it are left out)."""
        out: list[tuple[str, tuple[m.Statement, ...]]] = []
        for cond, body in st.branches:
            test = self.ex.cond(cond)
            if test is False:
                continue
            if test is True:
                return out, body
            out.append((test, body))
        return out, st.orelse

    def visit_If(self, st: m.If, w: Writer) -> bool:
        branches, orelse = self.branches(st)
        if not branches:
            return not self.seq(orelse, w, None)
        goes_on = False
        for k, (test, body) in enumerate(branches):
            w.line(f"{'if' if k == 0 else 'elif'} {test}:")
            with w.indented():
                w.line("pass")
                goes_on |= not self.seq(body, w, None)
        if orelse:
            w.line("else:")
            with w.indented():
                w.line("pass")
                goes_on |= not self.seq(orelse, w, None)
        else:
            goes_on = True
        return goes_on

    def visit_EndDeal(self, st: m.EndDeal, w: Writer) -> bool:
        w.line("c.ncalls = 0")
        w.line(f"return {lit(self.deal_end)}")
        return False

    def visit_Redeal(self, st: m.Redeal, w: Writer) -> bool:
        w.line(f"return _redeal(c, {lit(st.same_dealer)}, {self.laws(st)})")
        return False

    def visit_EndMatch(self, st: m.EndMatch, w: Writer) -> bool:
        w.line("c.last_deal = True")
        self.event(w, f"(LAST_DEAL, {self.laws(st)})")
        return True

    def visit_Let(self, st: m.Let, w: Writer) -> bool:
        ex = self.ex
        value = ex.expr(st.value)
        if st.rebind and st.name in ("maker", "bid"):
            w.line(f"c.{st.name} = {value}")
            kind = "MAKER" if st.name == "maker" else "CONTRACT_BID"
            self.event(w, f"({kind}, c.{st.name}, {self.laws(st)})")
            return True
        slot = self.lay.slot(st.name)
        if self.lay.symbols.type_of(st.value, self.context) in (Kind.INT, Kind.ANY) and not value.lstrip("-").isdigit():
            fault = self.lay.fault(f"line {st.span.line}: a number grew beyond 18 digits")
            value = f"_num({value}, {lit(fault)})"
        w.line(f"c.v[{lit(slot)}] = {value}")
        return True

    def visit_Score(self, st: m.Score, w: Writer) -> bool:
        ex = self.ex
        is_player = ex.type(st.who) == PLAYER
        who = ex.seat(st.who, "scoring") if is_player else ex.expr(st.who)
        side = f"SIDE_OF[{who}]" if is_player else who
        call = "_team_score" if ex.type(st.who) == Kind.TEAM else "_score"  # a team: each member's side (.teams)
        amount = ex.expr(st.amount)
        label = self.lay.label(st.label)
        fault = self.lay.fault(f"line {st.span.line}: a score grew beyond 18 digits")
        nobody = self.lay.fault(f"line {st.span.line}: nobody to score")
        sign = -1 if st.negative else 1
        w.line(f"{call}(c, {side}, {amount}, {lit(sign)}, {lit(label)}, {self.laws(st)}, {lit(fault)}, {lit(nobody)})")
        if self.lay.rules.match is not None and self.lay.rules.match.target_when == "at_once":
            w.line("if c.terminal:")
            w.line("    return -1")
        return True

    def visit_Add(self, st: m.Add, w: Writer) -> bool:
        ex = self.ex
        kind, base, _ = self.lay.counters[st.counter]
        if kind == "shared":
            owner = "0"
        else:
            owner_is_player = ex.type(st.owner) == PLAYER
            owner = ex.seat(st.owner, f"'add to {st.counter}'") if owner_is_player else ex.expr(st.owner)
            if kind == "side" and owner_is_player:
                owner = f"SIDE_OF[{owner}]"
        counter = list(self.lay.counters).index(st.counter)
        fault = self.lay.fault(f"line {st.span.line}: counter '{st.counter}' grew beyond 18 digits")
        w.line(f"_count(c, {lit(counter)}, {lit(base)}, {owner}, {ex.expr(st.amount)}, {self.laws(st)}, {lit(fault)})")
        return True

    def visit_Forbid(self, st: m.Forbid, w: Writer) -> bool:
        lay = self.lay
        who = self.ex.seat(st.who, "'forbid'")
        key: str
        if st.kind == "declare":
            name = lay.declaration(st.declaration)
            key = lit(name)
        elif st.kind == "choice":
            name = lay.choice_word(st.declaration)
            key = f"WORD_KEY + {lit(name)}"
        else:
            key, name = "BID_KEY", 0
        kind = {"declare": 0, "choice": 1, "bidding": 2}[st.kind]
        w.line(f"c.decl |= DBIT[({key}) * N + {who}]")
        self.event(w, f"(FORBID, {who}, {lit(kind)}, {lit(name)}, {self.laws(st)})")
        return True

    def visit_Cancel(self, st: m.Cancel, w: Writer) -> bool:
        ex = self.ex
        is_player = ex.type(st.who) == PLAYER
        who = ex.seat(st.who, "'cancel'") if is_player else ex.expr(st.who)
        side = f"SIDE_OF[{who}]" if is_player else who
        label = self.lay.label(st.label)
        cancelled = self.lay.label(f"{st.label} cancelled")
        w.line(f"_cancel(c, {side}, {lit(label)}, {lit(cancelled)}, {self.laws(st)})")
        if self.lay.rules.match is not None and self.lay.rules.match.target_when == "at_once":
            w.line("if c.terminal:")
            w.line("    return -1")
        return True

    # dealing, trumps, moving cards
    def visit_DealCards(self, st: m.DealCards, w: Writer) -> bool:
        self.deal_cards(st, w)
        return True

    def deal_cards(self, st: m.DealCards, w: Writer) -> None:
        lay, ex = self.lay, self.ex
        first = ex.seat(st.first) if st.first is not None else onward(lay, "c.dealer")
        fault = lay.fault(f"line {st.span.line}: the pack ran out while dealing")
        w.line(f"first = {first}")
        packets = [ex.expr(p) for p in st.packets]
        w.line(f"_deal(c, first, ({', '.join(packets)},), {lit(fault)})")

    def visit_TurnUp(self, st: m.TurnUp, w: Writer) -> bool:
        lay, ex = self.lay, self.ex
        decl = lay.zone_by_name[st.to.name]
        z = ex.zone(st.to)
        fault = lay.fault(f"line {st.span.line}: the pack ran out when turning up")
        w.line(f"k = {ex.expr(st.count)}")
        w.line(f"if k > c.sl[{lit(lay.pack_stack)}]:")
        w.line(f"    _fail({lit(fault)})")
        w.line(f"d = {z}")
        w.line("for _ in range(k):")
        with w.indented():
            w.line(f"card = _pop(c, {lit(lay.pack_stack)})")
            w.line(f"c.z[{lit(lay.pack)}] ^= BIT[card]")
            self.moves.add(w, decl, "d", "card")
        self.event(w, f"(TURN_UP, _popped(c, {lit(lay.pack_stack)}, k), d, _zmask(c, d))")  # (no list kept)
        return True

    def visit_SetTrump(self, st: m.SetTrump, w: Writer) -> bool:
        lay = self.lay
        if st.source == "zone":
            assert st.zone is not None  # pragma: no cover - checked
            fault = lay.fault(f"line {st.span.line}: 'trump is suit of' an empty zone")
            w.line(f"s = _top_suit(c, {self.ex.zone(st.zone)}, {lit(fault)})")
        elif st.source == "fixed" and st.suit in lay.orders:  # a named order (design 3.3)
            w.line(f"_set_order(c, {lit(lay.orders[st.suit])}, -1, {self.laws(st)})")
            return True
        elif st.source == "fixed":
            assert st.suit is not None  # pragma: no cover - checked
            w.line(f"s = {lit(lay.tables.suit_names.index(st.suit))}")
        elif st.source == "value":  # a suit or an order as a value: `trump is strain of bid`
            assert st.value is not None  # pragma: no cover - checked
            w.line(f"s = {self.ex.expr(st.value)}")
            if lay.orders:  # a named order's value is its order index, above the suits and no trump
                with w.block("if s > NS:"):
                    w.line(f"_set_order(c, s, -1, {self.laws(st)})")
                with w.block("else:"):
                    w.line(f"_set_trump(c, s, -1, {self.laws(st)})")
                return True
        else:
            w.line("s = -1")
        w.line(f"_set_trump(c, s, -1, {self.laws(st)})")
        return True

    def visit_Draw(self, st: m.Draw, w: Writer) -> bool:
        lay, ex = self.lay, self.ex
        p = ex.seat(st.player)
        w.line(f"p = {p}")
        hand = lay.zone_by_name["hand"]
        src_decl = lay.zone_by_name[st.source.name]
        k = self.moves.stack_index(src_decl, "s")
        w.line(f"s = {ex.zone(st.source, 'p')}")
        want = ex.expr(st.count.low)
        if st.count.kind == "to":
            w.line(f"need = {want} - _pc(c.z[{lit(lay.hand)} + p])")
        else:
            w.line(f"need = {want}")
        w.line("h = " + (f"{lit(lay.hand)} + p" if lay.hand else "p"))
        w.line(f"got = c.sl[{k}]")  # (less the stock's height after: the cards drawn, read back by the event)
        w.line("drawn_bits: MASK = 0")  # (the drawn cards' bits leave the stock at once, and enter the hand)
        w.line(f"while need > 0 and c.sl[{k}] > 0:")
        with w.indented():
            w.line(f"c.sl[{k}] -= 1")  # (_pop, written out)
            w.line(f"card = c.stk[{k} * NC + c.sl[{k}]]")
            w.line("drawn_bits |= BIT[card]")
            self.moves.enter(w, hand, "h", "card")  # (stamped as drawn: before the cards taken back, if any)
            w.line("need -= 1")
        w.line(f"got -= c.sl[{k}]")
        w.line("c.z[s] ^= drawn_bits")
        w.line("back = ()")
        if st.fallback is not None:
            fb_decl = lay.zone_by_name[st.fallback.name]
            w.line(f"f = {ex.zone(st.fallback, 'p')}")
            w.line("if need > 0:")
            with w.indented():
                w.line("back = []")
                w.line(f"for card in reversed({self.moves.ordered(fb_decl, 'f')}):")
                with w.indented():
                    w.line("if need <= 0:")
                    w.line("    break")
                    if st.fallback_matching is not None:
                        pat = lay.pattern(st.fallback_matching)
                        w.line(f"if not (PAT[{lit(pat)} * NT + c.ti] & BIT[card]):")
                        w.line("    continue")
                    self.moves.remove(w, fb_decl, "f", "card")
                    w.line("back.append(card)")
                    w.line("need -= 1")
        w.line("c.z[h] |= drawn_bits")
        w.line("for card in back:")
        with w.indented():
            self.moves.add(w, hand, "h", "card")
        w.line("if got or back:")
        with w.indented():
            self.event(w, f"(DRAW, p, _popped(c, {k}, got), tuple(back), {self.laws(st)}, _zmask(c, h) | (1 << p))")
        return True

    def visit_Move(self, st: m.Move, w: Writer) -> bool:
        lay, ex = self.lay, self.ex
        src, dst = lay.zone_by_name[st.source.name], lay.zone_by_name[st.to.name]
        w.line(f"s = {ex.zone(st.source)}")
        w.line(f"d = {ex.zone(st.to)}")
        w.line(f"cand = {self.moves.ordered(src, 's')}")
        if st.matching is not None:
            w.line(f"t = {ex.pattern_mask(st.matching)}")
            w.line("cand = [card for card in cand if t & BIT[card]]")
        if st.mode == "all":
            w.line("moved = cand")
        else:
            assert st.amount is not None  # pragma: no cover - checked
            w.line(f"k = max(0, min({ex.expr(st.amount)}, len(cand)))")
            if st.mode == "top":
                w.line("moved = cand[len(cand) - k:][::-1] if k else []")
            else:
                w.line("moved = _sample(c, cand, k)")
        w.line("for card in moved:")
        with w.indented():
            self.moves.remove(w, src, "s", "card")
        if st.bottom:
            w.line(f"_put_under(c, {self.stack_arg(dst, 'd')}, d, moved)")
        else:
            w.line("for card in moved:")
            with w.indented():
                self.moves.add(w, dst, "d", "card")
        w.line("if moved:")
        with w.indented():
            self.event(w, f"(MOVE, s, d, tuple(moved), {self.laws(st)}, _vis(c, d, s, -1), {lit(st.bottom)})")
        return True

    def stack_arg(self, decl: Any, z: str) -> str:
        return self.moves.stack_index(decl, z) if decl.stack >= 0 else "-1"

    def visit_Cut(self, st: m.Cut, w: Writer) -> bool:
        decl = self.lay.zone_by_name[st.zone.name]
        z = self.ex.zone(st.zone)
        w.line(f"_cut(c, {self.moves.stack_index(decl, z)}, {z}, {self.laws(st)})")
        return True

    def visit_BecomesDealer(self, st: m.BecomesDealer, w: Writer) -> bool:
        w.line(f"p = {self.ex.seat(st.player, chr(39) + 'becomes dealer' + chr(39))}")
        w.line("if p != c.dealer:")
        with w.indented():
            w.line("c.dealer = p")
            self.event(w, f"(DEALER, p, _roles(c), {self.laws(st)})")
        return True

    def visit_Leads(self, st: m.Leads, w: Writer) -> bool:
        return self.leads(st, w)

    def visit_ReplayTricks(self, st: m.ReplayTricks, w: Writer) -> bool:
        return self.replay(st, w)

    # ------------------------------------------------------------ irregularities
    def irregularities(self) -> None:
        lay = self.lay
        self.context["offender"] = PLAYER
        offender = lay.slot("offender")
        for irr in self.rules.irregularities:
            saved = dict(self.context)
            params = tuple(self.parameter(p) for p in irr.params)
            self.line = irr.span.line
            test = self.ex.cond(irr.guard)
            if test is False:
                self.context = saved
                continue
            entry = Irregularity(irr.name, frozenset(irr.phases or ("any",)), "any" in irr.phases, lay.law(irr.cite),
                                 params, offender, irr.by is not None, test is not True)
            start = self.block(irr.span.line, f"the remedy of irregularity {len(lay.irregularities)}")
            entry.entry = start.id
            self.irregularity_functions(irr, entry, test)
            self.in_remedy = True
            self.seq(irr.body, start.w, self.ret_block)
            self.in_remedy = False
            lay.irregularities.append(entry)
            self.context = saved
        del self.context["offender"]

    def parameter(self, p: m.IrregularityParam) -> Param:
        lay = self.lay
        self.context[p.name] = {"count": Kind.INT, "suit": Kind.SUIT}.get(p.kind, Kind.CARD)
        slot = lay.slot(p.name)
        if p.kind == "count":
            return Param(p.name, "count", slot, p.low, p.high)
        if p.kind == "suit":
            return Param(p.name, "suit", slot, 0, lay.ns - 1)
        return Param(p.name, "card", slot, zone=p.zone,
                     pattern=lay.pattern(p.matching) if p.matching is not None else -1)


def generate(ruleset: Ruleset) -> Generated:
    """The module that plays a ruleset with its option values.

    Raises:
        GameLimitError: the rule file's card tables would be too large.
    """
    return CodeGenerator(ruleset).generate()
