"""Auctions with the full state of design 3.7 (issue 28, step 5), and players' own bids
from the bid table or above a bid.

An auction over the file's bid table, or one over a number range with rules (``double and
redouble``, ``P may hold``, ``may not pass``, ``may not bid B``, ``first of the side to bid
the strain declares``), ``until N passes`` or ``if all pass: no contract``, keeps its state
in ints of the core: the high bid (``au_high``: the table index of the bid, or the number of
a number range), its bidder (``au_bidder``, -1 while none stands), the doubling
(``au_dbl``: 0, 1 doubled, 2 redoubled), who has passed (``au_passed``, a mask), the passes
in a row (``au_run``), whether any call but a pass was made (``au_any``), whether the high
bid was held (``au_held``) and, per side and strain, the first of the side who bid it
(``au_fs``). An auction without any of these compiles as before (:mod:`.decisions`), so
that the module of a file that does not use them is unchanged.

The local codes of a call: ``-1`` pass, ``-2`` double, ``-3`` redouble, ``-4`` hold (in
this order, then the bids), a bid its table index (0 .. bids - 1, in rank order) or, for a
number range, its number. A bid's *value* (what ``bid``, ``bids(P)`` and ``high_bid``
hold) is ``index + 1`` in a typed table (0 is ``no_bid``), the number in a table of
numbers or a range. The log records calls as ``(PASS, p, call)`` (call 1 double, 2
redouble, 3 hold) and the contract with its doubling last (in an auction with ``double and redouble``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricklang import model as m

from .layout import DecisionPoint, Layout
from .parts import Parts
from .seats import onward
from .writer import Writer, lit

MAX_CALLS = 20_000
"""The most calls (bids) one decision may offer (as :data:`.decisions.MAX_CHOICES`)."""

CALL_CODES = {"pass": -1, "double": -2, "redouble": -3, "hold": -4}
"""The local code of each word call of an auction."""


def bid_tables(lay: Layout) -> list[tuple[str, str, list[int]]]:
    """The module's tables of the bid table (name, C type, values), by table index
    (``BID_ABOVE``, ``BID_VALUE``) or by value (``BID_RANK``, ``BID_LEVEL``, ``BID_WORTH``,
    ``BID_STRAIN``: entry 0 is ``no_bid``); none without a table."""
    bids = lay.bid_table
    if not bids:
        return []
    ranks = [b.rank for b in bids]
    above = [next((j for j in range(k, len(bids)) if ranks[j] > ranks[k]), len(bids)) for k in range(len(bids))]
    typed = lay.bids_typed
    values = [k + 1 for k in range(len(bids))] if typed else [b.worth or 0 for b in bids]
    return [
        ("BID_ABOVE", "cython.int", above),
        ("BID_VALUE", "cython.longlong", values),
        ("BID_RANK", "cython.int", [-1, *ranks]),
        ("BID_LEVEL", "cython.longlong", [0, *(b.level for b in bids)]),
        ("BID_WORTH", "cython.longlong", [0, *((b.worth if b.worth is not None else b.rank) for b in bids)]),
        ("BID_STRAIN", "cython.int", [-1, *lay.bid_strains]),
    ]


class Auctions(Parts):
    """Auctions with rules, table auctions and own bids from the table (see the module docstring)."""

    __slots__ = ()

    if TYPE_CHECKING:  # the decisions' (interpreter.codegen.decisions.Decisions)
        def new_dp(self, kind: str, phase: str, st: m.Stmt, *, verb: str = "", options: tuple[str, ...] = (),
                   moment: str = "", tricks: object = None) -> DecisionPoint: ...
        def ready(self, dp: DecisionPoint, what: str) -> Writer: ...
        def bid_step(self, step: m.Expr | None, line: int) -> str: ...

    # ---------------------------------------------------------------- values
    def value_of(self, index: str, table: bool) -> str:
        """Source of the value of the bid of local code ``index``."""
        if not table:
            return index
        return f"({index} + 1)" if self.lay.bids_typed else f"BID_VALUE[{index}]"

    # ---------------------------------------------------------------- the auction
    def rich_auction(self, st: m.Auction | m.TableAuction, cont: int) -> int:
        """An auction with the full state (see the module docstring)."""
        lay, ex = self.lay, self.ex
        table = isinstance(st, m.TableAuction)
        dp = self.new_dp("auction", "auction", st)
        dp.extra["table"] = table
        d = dp.id
        w = self.ready(dp, "an auction")
        w.line("if not c.au_active:")
        with w.indented():
            w.line("c.au_active = True")
            w.line(f"c.au_first = {ex.seat(st.start)}")
            for name, value in (("au_pos", "0"), ("au_high", "0"), ("au_bidder", "-1"), ("au_passed", "0"),
                                ("au_dbl", "0"), ("au_run", "0"), ("au_any", "False"), ("au_held", "False")):
                w.line(f"c.{name} = {value}")
            w.line(f"for i in range({lit(lay.nsides * lay.nstrains)}):")
            w.line("    c.au_fs[i] = -1")
        self.contract(st, dp, w, table, cont)
        w.line("pos = c.au_pos")
        if st.kind != "until_n_passes":  # a pass puts the caller out: he is passed over
            w.line(f"while c.au_passed >> ({onward(lay, 'c.au_first', 'pos')}) & 1:")
            w.line("    pos += 1")
        w.line("c.au_pos = pos")
        w.line(f"c.actor = {onward(lay, 'c.au_first', 'pos')}")  # (to the right under `play passes right`)
        w.line(f"if not legal_{d}(c):")
        w.line(f"    _fail({lit(lay.fault(f'line {dp.line}: the caller has no call he may make'))})")
        w.line(f"c.dp = {lit(dp.id)}")
        w.line(f"c.pc = {lit(dp.extra['ready'])}")
        w.line("return -1")
        self.rich_auction_functions(st, dp, table)
        return int(dp.extra["ready"])

    def contract(self, st: m.Auction | m.TableAuction, dp: DecisionPoint, w: Writer, table: bool, cont: int) -> None:
        """Into the ready block: when the auction is over, the contract (its maker, bid and doubling), or
        what happens when all pass."""
        lay, ex = self.lay, self.ex
        w.line(f"if _auction_over_{dp.id}(c):")
        with w.indented():
            w.line("c.au_active = False")
            w.line("if c.au_bidder >= 0:")
            with w.indented():
                if any(r.kind == "first_of_side" for r in st.rules):
                    w.line(f"c.maker = c.au_fs[SIDE_OF[c.au_bidder] * {lit(lay.nstrains)} + BID_STRAIN[c.au_high + 1] + 1]")
                    w.line("if c.maker < 0:")
                    w.line("    c.maker = c.au_bidder")
                else:
                    w.line("c.maker = c.au_bidder")
                w.line(f"c.bid = {self.value_of('c.au_high', table)}")
                doubling = ", c.au_dbl" if any(r.kind == "double" for r in st.rules) else ""  # (its doubling, if any)
                self.event(w, f"(CONTRACT, c.maker, c.bid, False, {lit(dp.laws)}{doubling})")
                w.line(f"return {lit(cont)}")
            all_laws = lit(lay.law(st.all_pass_cite))
            if st.all_pass == "maker" and st.all_pass_maker is not None:
                w.line(f"c.maker = {ex.expr(st.all_pass_maker)}")
                w.line(f"c.bid = {ex.expr(st.all_pass_bid) if st.all_pass_bid is not None else '0'}")
                self.event(w, f"(CONTRACT, c.maker, c.bid, True, {all_laws}{doubling})")
                w.line(f"return {lit(cont)}")
            elif st.all_pass == "none":
                w.line("c.maker = -1")
                w.line("c.bid = 0")
                self.event(w, f"(CONTRACT, -1, 0, True, {all_laws}{doubling})")
                w.line(f"return {lit(cont)}")
            else:
                self.event(w, f"(ALL_PASSED, {all_laws})")
                w.line(f"return {lit(self.deal_end)}")

    def top_reached(self, st: m.Auction | m.TableAuction, table: bool, line: int) -> str:
        """Source: the highest bid there is has been made."""
        if isinstance(st, m.TableAuction):
            return f"BID_ABOVE[c.au_high] >= {lit(len(self.lay.bid_table))}"
        high = self.ex.expr(st.high)
        if st.step is None:
            return f"c.au_high >= {high}"
        return f"c.au_high + {self.bid_step(st.step, line)} > {high}"

    def rich_auction_functions(self, st: m.Auction | m.TableAuction, dp: DecisionPoint, table: bool) -> None:
        lay = self.lay
        n = lay.n
        f = self.funcs
        d = dp.id
        f.line()
        f.comment(f"line {dp.line}: an auction")
        with f.block(f"def _auction_over_{d}(c: Core) -> cython.bint:"):
            if st.kind == "once_around":
                f.line(f"return c.au_pos >= {lit(n)}")
            elif st.kind == "until_passes":
                f.line(f"active = {lit(n)} - _pc(c.au_passed)")
                f.line("if c.au_bidder >= 0:")
                f.line(f"    return active <= 1 or {self.top_reached(st, table, dp.line)}")
                f.line("return active == 0")
            else:  # until N passes in a row after a call; every player passing once when none was made
                f.line("if c.au_any:")
                f.line(f"    return c.au_run >= {lit(st.passes or n)}")
                f.line(f"return c.au_run >= {lit(n)}")
        self.rich_legal(st, dp, table)
        self.rich_apply(st, dp, table)
        with f.block(f"def sample_{d}(c: Core, rng: object) -> cython.longlong:"):
            f.line(f"legal = legal_{d}(c)")
            f.line("return legal[_randbelow(rng, len(legal))]")

    def guard(self, rule: m.AuctionRule) -> str | bool:
        return self.ex.at(rule.span.line).cond(rule.guard)

    def rich_legal(self, st: m.Auction | m.TableAuction, dp: DecisionPoint, table: bool) -> None:
        """``legal_D``: pass (unless 'may not pass' holds), double, redouble, hold, then the bids above the high bid."""
        lay, ex, f = self.lay, self.ex, self.funcs
        d = dp.id
        too_many = lay.fault(f"line {dp.line}: more than {MAX_CALLS} bids to choose from")
        with f.block(f"def legal_{d}(c: Core) -> list:"):
            f.line("p = c.actor")
            f.line("if c.decl and _forbidden(c, BID_KEY, p):")
            f.line("    return [-1]")
            f.line("out = []")
            no_pass = [self.guard(r) for r in st.rules if r.kind == "no_pass"]
            if True in no_pass:  # never a pass
                f.line("# may not pass")
            elif no_pass:
                f.line(f"if not ({' or '.join(g for g in no_pass if isinstance(g, str)) or 'False'}):")
                f.line("    out.append(-1)")
            else:
                f.line("out.append(-1)")
            self.word_calls(st)
            banned: list[tuple[str, str]] = []  # (local code, its guard)
            for r in st.rules:
                if r.kind != "no_bid" or r.bid is None:
                    continue
                g = self.guard(r)
                if g is False:
                    continue
                k = next((i for i, b in enumerate(lay.bid_table) if b.name == r.bid), None)
                if k is None:  # pragma: no cover - checked (undefined-name)
                    continue
                f.line(f"ban{len(banned)} = {lit(True) if g is True else g}")
                banned.append((lit(k), f"ban{len(banned)}"))
            cond = "".join(f" and not (k == {k} and {b})" for k, b in banned)
            if isinstance(st, m.TableAuction):
                f.line(f"lo = BID_ABOVE[c.au_high] if c.au_bidder >= 0 else {lit(0)}")
                f.line(f"for k in range(lo, {lit(len(lay.bid_table))}):")
                f.line(f"    if True{cond}:" if cond else "    if True:")
                f.line("        out.append(k)")
            else:
                f.line(f"low = {ex.expr(st.low)}")
                f.line(f"step = {self.bid_step(st.step, dp.line)}")
                f.line("lo = low")
                f.line("if c.au_bidder >= 0 and c.au_high >= low:")
                f.line("    lo = low + ((c.au_high - low) // step + 1) * step")
                f.line(f"hi = {ex.expr(st.high)}")
                f.line(f"if (hi - lo) // step + 1 > {lit(MAX_CALLS)}:")
                f.line(f"    _too_many({lit(too_many)})")
                f.line("out.extend(range(lo, hi + 1, step))")
            f.line("return out")

    def word_calls(self, st: m.Auction | m.TableAuction) -> None:
        """Into ``legal_D``: double, redouble and hold, where they may be called."""
        ex, f = self.ex, self.funcs
        if any(r.kind == "double" for r in st.rules):
            f.line("if c.au_bidder >= 0 and c.au_dbl == 0 and SIDE_OF[c.au_bidder] != SIDE_OF[p]:")
            f.line("    out.append(-2)")
            f.line("if c.au_bidder >= 0 and c.au_dbl == 1 and SIDE_OF[c.au_bidder] == SIDE_OF[p]:")
            f.line("    out.append(-3)")
        holds = [r for r in st.rules if r.kind == "hold" and r.who is not None]
        if holds:
            tests = []
            for r in holds:
                g = self.guard(r)
                if g is False:
                    continue
                who = ex.at(r.span.line).expr(r.who)  # type: ignore[arg-type]
                tests.append(f"(p == {who})" if g is True else f"(p == {who} and {g})")
            if tests:
                f.line("if c.au_bidder >= 0 and c.au_bidder != p and not c.au_held and "
                       f"({' or '.join(tests)}):")
                f.line("    out.append(-4)")

    def rich_apply(self, st: m.Auction | m.TableAuction, dp: DecisionPoint, table: bool) -> None:
        lay, f = self.lay, self.funcs
        d = dp.id
        with f.block(f"def apply_{d}(c: Core, b: cython.longlong) -> None:"):
            f.line("p = c.actor")
            f.line("_ev(c)")
            f.line("if b == -1:")
            with f.indented():
                if st.kind != "until_n_passes":
                    f.line("c.au_passed |= 1 << p")
                f.line("c.au_run += 1")
                f.line("if c.rec and c.rec >> PASS & 1: c.log.append((PASS, p))")
            f.line("elif b < 0:")
            with f.indented():
                f.line("if b == -4:")
                f.line("    c.au_bidder = p")
                f.line("    c.au_held = True")
                f.line(f"    c.bids[p] = {self.value_of('c.au_high', table)}")
                f.line("else:")
                f.line("    c.au_dbl = -1 - b")
                f.line("c.au_run = 0")
                f.line("c.au_any = True")
                f.line("if c.rec and c.rec >> PASS & 1: c.log.append((PASS, p, -1 - b))")
            f.line("else:")
            with f.indented():
                f.line("c.au_high = b")
                f.line("c.au_bidder = p")
                f.line("c.au_dbl = 0")
                f.line("c.au_held = False")
                f.line("c.au_run = 0")
                f.line("c.au_any = True")
                f.line(f"c.bids[p] = {self.value_of('b', table)}")
                if table:
                    f.line(f"i = SIDE_OF[p] * {lit(lay.nstrains)} + BID_STRAIN[b + 1] + 1")
                    f.line("if c.au_fs[i] < 0:")
                    f.line("    c.au_fs[i] = p")
                f.line(f"if c.rec and c.rec >> BID & 1: c.log.append((BID, p, {self.value_of('b', table)}, 0))")
            f.line("c.au_pos += 1")
            f.line(f"c.pc = {lit(dp.extra['ready'])}")
            f.line("advance(c)")

    # ---------------------------------------------------------------- own bids
    def rich_own_bid(self, st: m.Bid | m.TableBid, cont: int) -> int:
        """`P bids T|LO..HI [above X] [but not Y][, or passes]`: codes -1 (pass) then bids."""
        lay, ex = self.lay, self.ex
        table = isinstance(st, m.TableBid)
        dp = self.new_dp("bid", "bidding", st)
        dp.extra["table"] = table
        w = self.ready(dp, "a player's own bid")
        w.line(f"p = {ex.seat(st.player)}")
        w.line("c.actor = p")
        d = dp.id
        w.line(f"if not legal_{d}(c):")
        w.line(f"    _fail({lit(lay.fault(f'line {dp.line}: no bid is left to make'))})")
        w.line("c.actor = p")
        w.line(f"c.dp = {lit(dp.id)}")
        w.line(f"c.pc = {lit(dp.extra['ready'])}")
        w.line("return -1")
        f = self.funcs
        f.line()
        f.comment(f"line {dp.line}: a player's own bid")
        self.own_legal(st, dp, table)
        with f.block(f"def apply_{d}(c: Core, b: cython.longlong) -> None:"):
            f.line("p = c.actor")
            f.line("_ev(c)")
            f.line("if b < 0:")
            f.line("    c.bids[p] = 0")
            f.line("    if c.rec and c.rec >> PASS & 1: c.log.append((PASS, p))")
            f.line("else:")
            f.line(f"    c.bids[p] = {self.value_of('b', table)}")
            f.line(f"    if c.rec and c.rec >> BID & 1: c.log.append((BID, p, c.bids[p], {lit(dp.laws)}))")
            f.line(f"c.pc = {lit(cont)}")
            f.line("advance(c)")
        with f.block(f"def sample_{d}(c: Core, rng: object) -> cython.longlong:"):
            f.line(f"legal = legal_{d}(c)")
            f.line("return legal[_randbelow(rng, len(legal))]")
        return int(dp.extra["ready"])

    def own_legal(self, st: m.Bid | m.TableBid, dp: DecisionPoint, table: bool) -> None:
        """``legal_D`` of a player's own bid: pass (with ', or passes'), then the bids above X but not Y."""
        lay, ex, f = self.lay, self.ex, self.funcs
        d = dp.id
        too_many = lay.fault(f"line {dp.line}: more than {MAX_CALLS} bids to choose from")
        with f.block(f"def legal_{d}(c: Core) -> list:"):
            f.line("out = [-1]" if st.or_pass else "out = []")
            above = ex.expr(st.above) if st.above is not None else None
            banned = ex.expr(st.forbidden) if st.forbidden is not None else None
            if isinstance(st, m.TableBid):
                f.line(f"for k in range({lit(len(lay.bid_table))}):")
                with f.indented():
                    tests = []
                    if above is not None:
                        tests.append(f"BID_RANK[{self.value_of('k', True)}] > BID_RANK[{above}]" if lay.bids_typed
                                     else f"BID_VALUE[k] > {above}")
                    if banned is not None:
                        tests.append(f"{self.value_of('k', True)} != {banned}")
                    f.line(f"if {' and '.join(tests) or 'True'}:")
                    f.line("    out.append(k)")
            else:
                f.line(f"lo = {ex.expr(st.low)}")
                f.line(f"hi = {ex.expr(st.high)}")
                f.line(f"step = {self.bid_step(st.step, dp.line)}")
                f.line(f"if (hi - lo) // step + 1 > {lit(MAX_CALLS)}:")
                f.line(f"    _too_many({lit(too_many)})")
                tests = []
                if above is not None:
                    tests.append(f"b > {above}")
                if banned is not None:
                    tests.append(f"b != {banned}")
                f.line(f"out.extend([b for b in range(lo, hi + 1, step) if {' and '.join(tests) or 'True'}])")
            f.line("return out")
