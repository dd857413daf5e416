"""Decision points other than trick play: named choices, card selections (discards,
takes, the two steps of `takes all ... and keeps N`), naming trumps, a player's own bid,
auctions, the referee's pauses, and the functions of irregularities.

Each decision point ``D`` gets a *ready block* (who decides, and what: it may find
nothing to decide and go on) and the functions the state calls while it waits:
``legal_D(c)`` (the local codes of the legal actions, in their fixed order),
``apply_D(c, code)`` (carry one out, then run on to the next decision) and
``sample_D(c, rng)`` (the code ``legal_D(c)[randbelow(rng, n)]`` would give). A card
selection has no list of codes: its ready block leaves the cards that may be chosen and
the bounds in the core (``c.sel_*``), and ``apply_D(c, cards)`` takes the chosen cards.
"""

from __future__ import annotations

from tricklang import model as m

from .auctions import Auctions
from .fallback import fallback_bounds, forced_cards
from .layout import DecisionPoint, Irregularity, ZoneDecl
from .seats import onward
from .writer import Writer, lit

MAX_CHOICES = 20_000
"""The most card selections (or bids) one decision may offer."""


def wait(w: Writer, dp: DecisionPoint, actor: str) -> None:
    w.line(f"c.actor = {actor}")
    w.line(f"c.dp = {lit(dp.id)}")
    w.line(f"c.pc = {lit(dp.extra['ready'])}")
    w.line("return -1")


def _int_list(values: object) -> str:
    return "[" + ", ".join(lit(v) for v in values) + "]"  # type: ignore[attr-defined]


# ---------------------------------------------------------------- card selections


class Decisions(Auctions):
    """Decision points other than trick play (see the module docstring)."""

    __slots__ = ()

    def new_dp(self, kind: str, phase: str, st: m.Stmt, *, verb: str = "", options: tuple[str, ...] = (),
               moment: str = "", tricks: object = None) -> DecisionPoint:
        """A new decision point for statement ``st``, numbered in the order written."""
        lay = self.lay
        dp = DecisionPoint(len(lay.dps), kind, phase, st.span.line, lay.law(getattr(st, "cite", None)),
                           verb=verb, options=options, moment=moment, tricks=tricks)
        lay.dps.append(dp)
        return dp


    def ready(self, dp: DecisionPoint, what: str) -> Writer:
        """The decision's ready block (its writer); the block's id is kept on the decision point."""
        b = self.block(dp.line, what)
        dp.extra["ready"] = b.id
        return b.w


    def decision(self, st: m.Statement, cont: int) -> int:
        """Compile a decision statement; returns its ready block."""
        if isinstance(st, m.Choose):
            return self.choose(st, cont)
        if isinstance(st, m.Discard):
            return self.select(st, "discard", st.player, st.count, st.matching, None, st.to, cont, source_is_hand=True,
                               fallback=st.fallback)
        if isinstance(st, m.Take):
            return self.select(st, st.verb, st.player, st.count, st.matching, st.source, None, cont, dest_is_hand=True,
                               fallback=st.fallback)
        if isinstance(st, m.Keep):
            return self.keep(st, cont)
        if isinstance(st, m.NameTrump):
            return self.name_trump(st, cont)
        if isinstance(st, m.Shows):
            return int(self.shows(st, cont))  # type: ignore[attr-defined] # (Showing, a sibling mixin)
        if isinstance(st, m.NameLed):
            return int(self.name_led(st, cont))  # type: ignore[attr-defined] # (NamedLed, a sibling mixin)
        if isinstance(st, m.Bid):
            return self.own_bid(st, cont)
        if isinstance(st, m.Auction):
            return self.auction(st, cont)
        if isinstance(st, m.TableAuction):
            return self.rich_auction(st, cont)
        if isinstance(st, m.TableBid):
            return self.rich_own_bid(st, cont)
        raise TypeError(f"not a decision: {type(st).__name__}")  # pragma: no cover


    # ---------------------------------------------------------------- choices
    def choose(self, st: m.Choose, cont: int) -> int:
        lay = self.lay
        names = tuple(o.name for o in st.options)
        dp = self.new_dp("choice", "choice", st, options=names)
        words = [lay.choice_word(n) for n in names]
        dp.extra["words"] = words
        w = self.ready(dp, "a choice")
        w.line(f"p = {self.ex.seat(st.player)}")
        wait(w, dp, "p")
        targets = []
        for opt in st.options:
            b = self.block(opt.span.line, "a choice's option")
            targets.append(b.id)
            self.line = opt.span.line
            self.seq(opt.body, b.w, cont)
        f = self.funcs
        d = dp.id
        f.line()
        f.comment(f"line {dp.line}: a choice among {len(names)} options")
        guarded = any(o.guard is not None for o in st.options)
        with f.block(f"def legal_{d}(c: Core) -> list:"):
            f.line(f"allowed = {lit(0)}")
            if guarded:
                self.offered(st, dp.line)
            f.line("if c.decl:")
            with f.indented():
                f.line("p = c.actor")
                f.line("out = []")
                for k, word in enumerate(words):
                    also = f"{lit(k)} in offered and " if guarded else ""
                    f.line(f"if {also}not _forbidden(c, WORD_KEY + {lit(word)}, p):")
                    f.line(f"    out.append({lit(k)})")
                f.line("if out:")
                f.line("    return out")
            f.line("return offered" if guarded else f"return {_int_list(range(len(names)))}")
        with f.block(f"def apply_{d}(c: Core, k: cython.int) -> None:"):
            f.line("p = c.actor")
            f.line("if c.decl:")
            with f.indented():
                for word in sorted(set(words)):
                    f.line(f"_allow(c, WORD_KEY + {lit(word)}, p)")
            f.line(f"if c.rec and c.rec >> CHOICE & 1: c.log.append((CHOICE, p, CHOICE_WORDS_{d}[k], {lit(dp.laws)}))")
            f.line("_ev(c)")
            f.line(f"c.pc = CHOICE_TARGETS_{d}[k]")
            f.line("advance(c)")
        with f.block(f"def sample_{d}(c: Core, rng: object) -> cython.int:"):
            if guarded:  # (the options offered now)
                f.line(f"legal = legal_{d}(c)")
                f.line("return legal[_randbelow(rng, len(legal))]")
            elif len(names) == 1:
                f.line("_randbelow(rng, 1)")
                f.line("return 0")
            else:
                f.line("if c.decl:")
                f.line(f"    legal = legal_{d}(c)")
                f.line("    return legal[_randbelow(rng, len(legal))]")
                f.line(f"return _randbelow(rng, {lit(len(names))})")
        self.tables_extra.append((f"CHOICE_TARGETS_{d}", targets))
        self.tables_extra.append((f"CHOICE_WORDS_{d}", words))
        return int(dp.extra["ready"])


    def offered(self, st: m.Choose, line: int) -> None:
        """Into a choice's legal function: ``offered``, its options whose 'when' holds now
        (none is a fault naming the line)."""
        f = self.funcs
        none = self.lay.fault(f"line {line}: no option of the choice is offered")
        f.line("offered = []")
        for k, opt in enumerate(st.options):
            cond = self.ex.at(opt.span.line).cond(opt.guard)
            if cond is True:
                f.line(f"offered.append({lit(k)})")
            elif cond is not False:
                f.line(f"if {cond}:")
                f.line(f"    offered.append({lit(k)})")
        f.line("if not offered:")
        f.line(f"    _fail({lit(none)})")

    def select(self, st: m.Stmt, verb: str, player: m.Expr, count: m.Count | None,
               matching: m.Pattern | None, source: m.ZoneRef | None, dest: m.ZoneRef | None, cont: int, *,
               source_is_hand: bool = False, dest_is_hand: bool = False, bounds: tuple[str, str] | None = None,
               rest: m.ZoneRef | None = None, fallback: m.Pattern | None = None) -> int:
        """A player picks cards from a zone (``bounds``: the (low, high) source of a step of
        `keeps N`, instead of ``count``; ``fallback``: Q of `matching P, else Q`, see :mod:`.fallback`)."""
        lay, ex = self.lay, self.ex
        dp = self.new_dp("select", verb, st, verb=verb)
        w = self.ready(dp, f"choosing cards ({verb})")
        hand = lay.zone_by_name["hand"]
        w.line(f"p = {ex.seat(player)}")
        h = f"{lit(lay.hand)} + p" if lay.hand else "p"
        src_decl = hand if source_is_hand else lay.zone_by_name[source.name]  # type: ignore[union-attr]
        dst_decl = hand if dest_is_hand else lay.zone_by_name[dest.name]  # type: ignore[union-attr]
        w.line(f"s = {h if source_is_hand else ex.zone(source, 'p')}")  # type: ignore[arg-type]
        w.line(f"d = {h if dest_is_hand else ex.zone(dest, 'p')}")  # type: ignore[arg-type]
        if matching is not None:
            w.line(f"elig = c.z[s] & {ex.pattern_mask(matching)}")
        else:
            w.line("elig = c.z[s]")
        if fallback is not None:
            w.line(f"q = c.z[s] & {ex.pattern_mask(fallback)} & ~elig")
            w.line("n = _pc(elig) + _pc(q)")
        else:
            w.line("n = _pc(elig)")
        lo, hi = bounds if bounds is not None else self.select_bounds(count, h, source_is_hand)
        w.line(f"lo = {lo}")
        w.line(f"hi = {hi}")
        w.line("if hi > n:")
        w.line("    hi = n")
        w.line("if hi < 0:")
        w.line("    hi = 0")
        w.line("if lo > hi:")
        w.line("    lo = hi")
        w.line("elif lo < 0:")
        w.line("    lo = 0")
        if fallback is not None:
            fallback_bounds(w)
        w.line("if hi == 0:")
        w.line(f"    return {lit(cont)}")
        w.line("c.sel_cards = elig")
        w.line("c.sel_lo = lo")
        w.line("c.sel_hi = hi")
        w.line("c.sel_src = s")
        w.line("c.sel_dst = d")
        wait(w, dp, "p")
        forced = ex.pattern_mask(matching) if fallback is not None and matching is not None else None
        if isinstance(st, m.Shows):  # (the cards stay where they are: .shows)
            self.show_apply(dp, src_decl, cont, forced)  # type: ignore[attr-defined]
        else:
            self.select_apply(dp, verb, src_decl, dst_decl, cont, forced)
        return int(dp.extra["ready"])

    def select_bounds(self, count: m.Count | None, h: str, source_is_hand: bool) -> tuple[str, str]:
        """The least and most cards of a selection, as source (``n``: the cards eligible)."""
        ex = self.ex
        assert count is not None  # pragma: no cover - checked
        if count.kind == "exact":
            return ex.expr(count.low), "lo"
        if count.kind == "range":
            assert count.high is not None  # pragma: no cover - checked
            return ex.expr(count.low), ex.expr(count.high)
        if count.kind == "at_least":
            return ex.expr(count.low), "n"
        if source_is_hand:  # discard to N: as many as leave N in the hand
            return f"_pc(c.z[{h}]) - {ex.expr(count.low)}", "lo"
        return f"{ex.expr(count.low)} - _pc(c.z[{h}])", "lo"  # take to N: as many as bring the hand to N

    def select_apply(self, dp: DecisionPoint, verb: str, src_decl: ZoneDecl, dst_decl: ZoneDecl, cont: int,
                     forced: str | None = None) -> None:
        """``apply_D(c, cards)``: the chosen cards (in the order listed) move, and play goes on (``forced``:
        the mask of P of `matching P, else Q`, whose cards go first when the selection fell back)."""
        f = self.funcs
        d = dp.id
        verb_id = self.lay.verb(verb)
        f.line()
        f.comment(f"line {dp.line}: choosing cards ({verb_id})")
        with f.block(f"def apply_{d}(c: Core, cards: list) -> None:"):
            f.line("p = c.actor")
            f.line("s = c.sel_src")
            f.line("d = c.sel_dst")
            if forced is not None:
                forced_cards(f, forced, self.moves.ordered(src_decl, "s"))
            f.line("chosen_bits: MASK = 0")  # (the cards' bits leave and enter the zones at once: one step each)
            f.line("for card in cards:")
            with f.indented():
                self.moves.leave(f, src_decl, "s", "card")
                self.moves.enter(f, dst_decl, "d", "card")
                f.line("chosen_bits |= BIT[card]")
            f.line("c.z[s] ^= chosen_bits")
            f.line("c.z[d] |= chosen_bits")
            f.line("_ev(c)")
            f.line(f"if c.rec and c.rec >> SELECT & 1: c.log.append((SELECT, {lit(verb_id)}, p, tuple(cards), s, d, {lit(dp.laws)}, _vis(c, d, s, p)))")
            f.line(f"c.pc = {lit(cont)}")
            f.line("advance(c)")

    def keep(self, st: m.Keep, cont: int) -> int:
        """`P takes any from Z and keeps N [, the rest to R]`: two selections (the cards taken
        from Z, at least enough to reach N and at most N; then the discard down to N, to R
        or back to Z), and what is left in Z goes to R. `P takes all ...`: every card of Z
        moves to his hand (an event as public as Z), then the one selection, the discard
        down to N (its cards seen only by those who see R, or Z)."""
        if not st.choose:
            return self.keep_all(st, cont)
        lay, ex = self.lay, self.ex
        count = ex.expr(st.count)
        h = f"{lit(lay.hand)} + p" if lay.hand else "p"
        after = cont
        if st.rest is not None:
            b = self.block(st.span.line, "the rest of a zone taken up goes on")
            mover = m.Move.model_construct(mode="all", amount=None, matching=None, source=st.source, to=st.rest,
                                           bottom=False, cite=st.cite, span=st.span)
            self.visit_Move(mover, b.w)
            b.w.line(f"return {lit(cont)}")
            after = b.id
        drop_rest = st.rest if st.rest is not None else st.source
        drop = self.select(st, "discard", st.player, m.Count.model_construct(kind="to", low=st.count, high=None, span=st.span),
                      None, None, drop_rest, after, source_is_hand=True)
        take = self.select(st, st.verb, st.player, None, None, st.source, None, drop, dest_is_hand=True,
                      bounds=(f"max(0, {count} - _pc(c.z[{h}]))", count))
        return take

    def keep_all(self, st: m.Keep, cont: int) -> int:
        """`P takes all from Z and keeps N [, the rest to R]` (see :meth:`keep`): the move,
        then the discard; Z is empty by then, so `the rest` has nothing left to move."""
        drop_to = st.rest if st.rest is not None else st.source
        drop = self.select(st, "discard", st.player, m.Count.model_construct(kind="to", low=st.count, high=None, span=st.span),
                           None, None, drop_to, cont, source_is_hand=True)
        source = st.source
        if source.owner is None and self.lay.zone_by_name[source.name].kind != "shared":
            source = m.ZoneRef.model_construct(name=source.name, owner=st.player, span=source.span)
        hand = m.ZoneRef.model_construct(name="hand", owner=st.player, span=st.span)
        b = self.block(st.span.line, "a zone taken up whole")
        mover = m.Move.model_construct(mode="all", amount=None, matching=None, source=source, to=hand,
                                       bottom=False, cite=st.cite, span=st.span)
        self.visit_Move(mover, b.w)
        b.w.line(f"return {lit(drop)}")
        return b.id


    # ---------------------------------------------------------------- naming trumps, bids
    def name_trump(self, st: m.NameTrump, cont: int) -> int:
        lay = self.lay
        dp = self.new_dp("name_trump", "naming", st)
        w = self.ready(dp, "naming trumps")
        w.line(f"p = {self.ex.seat(st.player)}")
        wait(w, dp, "p")
        f = self.funcs
        d = dp.id
        exclude = self.ex.expr(st.exclude) if st.exclude is not None else None
        f.line()
        f.comment(f"line {dp.line}: naming trumps")
        with f.block(f"def legal_{d}(c: Core) -> list:"):
            if exclude is None:
                f.line(f"return {_int_list(range(lay.ns))}")
            else:
                f.line(f"banned = {exclude}")
                f.line(f"return [s for s in range({lit(lay.ns)}) if s != banned]")
        with f.block(f"def apply_{d}(c: Core, s: cython.int) -> None:"):
            f.line(f"_set_trump(c, s, c.actor, {lit(dp.laws)})")
            f.line(f"c.pc = {lit(cont)}")
            f.line("advance(c)")
        with f.block(f"def sample_{d}(c: Core, rng: object) -> cython.int:"):
            f.line(f"legal = legal_{d}(c)")
            f.line("return legal[_randbelow(rng, len(legal))]")
        return int(dp.extra["ready"])


    def own_bid(self, st: m.Bid, cont: int) -> int:
        if st.above is not None or st.or_pass:
            return self.rich_own_bid(st, cont)
        lay, ex = self.lay, self.ex
        dp = self.new_dp("bid", "bidding", st)
        w = self.ready(dp, "a player's own bid")
        w.line(f"p = {ex.seat(st.player)}")
        wait(w, dp, "p")
        f = self.funcs
        d = dp.id
        none_left = lay.fault(f"line {dp.line}: no bid is left to make")
        too_many = lay.fault(f"line {dp.line}: more than {MAX_CHOICES} bids to choose from")
        f.line()
        f.comment(f"line {dp.line}: a player's own bid")
        with f.block(f"def legal_{d}(c: Core) -> list:"):
            f.line(f"lo = {ex.expr(st.low)}")
            f.line(f"hi = {ex.expr(st.high)}")
            f.line(f"step = {self.bid_step(st.step, dp.line)}")
            f.line(f"if (hi - lo) // step + 1 > {lit(MAX_CHOICES)}:")
            f.line(f"    _too_many({lit(too_many)})")
            if st.forbidden is not None:
                f.line(f"banned = {ex.expr(st.forbidden)}")
                f.line("out = [b for b in range(lo, hi + 1, step) if b != banned]")
            else:
                f.line("out = list(range(lo, hi + 1, step))")
            f.line("if not out:")
            f.line(f"    _fail({lit(none_left)})")
            f.line("return out")
        with f.block(f"def apply_{d}(c: Core, b: cython.longlong) -> None:"):
            f.line("p = c.actor")
            f.line("c.bids[p] = b")
            f.line("_ev(c)")
            f.line(f"if c.rec and c.rec >> BID & 1: c.log.append((BID, p, b, {lit(dp.laws)}))")
            f.line(f"c.pc = {lit(cont)}")
            f.line("advance(c)")
        with f.block(f"def sample_{d}(c: Core, rng: object) -> cython.longlong:"):
            f.line(f"legal = legal_{d}(c)")
            f.line("return legal[_randbelow(rng, len(legal))]")
        return int(dp.extra["ready"])


    def bid_step(self, step: m.Expr | None, line: int) -> str:
        """Source of a bid range's step ('by N'): 1 without one; one below 1 at run time is a
        fault naming the line (the checker refuses a constant one)."""
        if step is None:
            return "1"
        fault = self.lay.fault(f"line {line}: bids go up by at least 1")
        return f"_step({self.ex.expr(step)}, {lit(fault)})"

    def auction(self, st: m.Auction, cont: int) -> int:
        """An auction: ``au_*`` fields of the core hold it while it runs (bids as codes: -1 is a pass);
        one with rules, ``until N passes`` or ``no contract`` keeps the full state (:mod:`.auctions`)."""
        if st.rules or st.kind == "until_n_passes" or st.all_pass == "none":
            return self.rich_auction(st, cont)
        lay, ex = self.lay, self.ex
        dp = self.new_dp("auction", "auction", st)
        w = self.ready(dp, "an auction")
        high = ex.expr(st.high)
        w.line("if not c.au_active:")
        with w.indented():
            w.line("c.au_active = True")
            w.line(f"c.au_first = {ex.seat(st.start)}")
            w.line("c.au_pos = 0")
            w.line("c.au_high = 0")
            w.line("c.au_bidder = -1")
            w.line("c.au_passed = 0")
        w.line(f"if _auction_over_{dp.id}(c):")
        with w.indented():
            w.line("c.au_active = False")
            w.line("if c.au_bidder >= 0:")
            with w.indented():
                w.line("c.maker = c.au_bidder")
                w.line("c.bid = c.au_high")
                w.line("_ev(c)")
                w.line(f"if c.rec and c.rec >> CONTRACT & 1: c.log.append((CONTRACT, c.maker, c.bid, False, {lit(dp.laws)}))")
                w.line(f"return {lit(cont)}")
            all_laws = lit(lay.law(st.all_pass_cite))
            if st.all_pass == "maker" and st.all_pass_maker is not None:
                w.line(f"c.maker = {ex.expr(st.all_pass_maker)}")
                w.line(f"c.bid = {ex.expr(st.all_pass_bid) if st.all_pass_bid is not None else '0'}")
                w.line("_ev(c)")
                w.line(f"if c.rec and c.rec >> CONTRACT & 1: c.log.append((CONTRACT, c.maker, c.bid, True, {all_laws}))")
                w.line(f"return {lit(cont)}")
            else:
                w.line("_ev(c)")
                w.line(f"if c.rec and c.rec >> ALL_PASSED & 1: c.log.append((ALL_PASSED, {all_laws}))")
                w.line(f"return {lit(self.deal_end)}")
        w.line("pos = c.au_pos")
        w.line(f"while c.au_passed >> ({onward(self.lay, 'c.au_first', 'pos')}) & 1:")
        w.line("    pos += 1")
        w.line("c.au_pos = pos")
        wait(w, dp, onward(self.lay, "c.au_first", "pos"))
        self.auction_functions(st, dp, high)
        return int(dp.extra["ready"])

    def auction_functions(self, st: m.Auction, dp: DecisionPoint, high: str) -> None:
        """Whether the auction is over, its legal bids (-1: pass), a bid taken, a bid drawn."""
        lay = self.lay
        n = lay.n
        once = st.kind == "once_around"
        f = self.funcs
        d = dp.id
        too_many = lay.fault(f"line {dp.line}: more than {MAX_CHOICES} bids to choose from")
        f.line()
        f.comment(f"line {dp.line}: an auction")
        with f.block(f"def _auction_over_{d}(c: Core) -> cython.bint:"):
            if once:
                f.line(f"return c.au_pos >= {lit(n)}")
            else:
                f.line("active = " + lit(n) + " - _pc(c.au_passed)")
                f.line("if c.au_bidder >= 0:")
                if st.step is None:
                    f.line(f"    return active <= 1 or c.au_high >= {high}")
                else:  # over too when no bid of the grid is above the highest
                    f.line(f"    return active <= 1 or c.au_high + {self.bid_step(st.step, dp.line)} > {high}")
                f.line("return active == 0")
        for drawn in (False, True):  # legal_D lists pass and the bids; sample_D draws one as from that list
            self.auction_bids(st, dp, high, too_many, drawn)
        with f.block(f"def apply_{d}(c: Core, b: cython.longlong) -> None:"):
            f.line("p = c.actor")
            f.line("_ev(c)")
            f.line("if b < 0:")
            with f.indented():
                f.line("c.au_passed |= 1 << p")
                f.line("if c.rec and c.rec >> PASS & 1: c.log.append((PASS, p))")
            f.line("else:")
            with f.indented():
                f.line("c.au_high = b")
                f.line("c.au_bidder = p")
                f.line("c.bids[p] = b")
                f.line("if c.rec and c.rec >> BID & 1: c.log.append((BID, p, b, 0))")
            f.line("c.au_pos += 1")
            f.line(f"c.pc = {lit(dp.extra['ready'])}")
            f.line("advance(c)")

    def auction_bids(self, st: m.Auction, dp: DecisionPoint, high: str, too_many: int, drawn: bool) -> None:
        """``legal_D``: pass (-1) and the bids above the highest; or (``drawn``) ``sample_D``, one
        of them drawn as ``legal[randbelow(len(legal))]`` draws it, without making the list."""
        f, d = self.funcs, dp.id
        head = f"def sample_{d}(c: Core, rng: object) -> cython.longlong:" if drawn else f"def legal_{d}(c: Core) -> list:"
        with f.block(head):
            f.line("if c.decl and _forbidden(c, BID_KEY, c.actor):")
            f.line("    " + ("_randbelow(rng, 1)" if drawn else "return [-1]"))
            if drawn:
                f.line("    return -1")
            f.line(f"low = {self.ex.expr(st.low)}")
            if st.step is None:
                f.line("lo = max(low, c.au_high + 1 if c.au_bidder >= 0 else low)")
                f.line("step = 1")
            else:  # bids on the grid low, low + step...: the first above the highest bid
                f.line(f"step = {self.bid_step(st.step, dp.line)}")
                f.line("lo = low")
                f.line("if c.au_bidder >= 0 and c.au_high >= low:")
                f.line("    lo = low + ((c.au_high - low) // step + 1) * step")
            f.line(f"hi = {high}")
            f.line(f"if (hi - lo) // step + 1 > {lit(MAX_CHOICES)}:")
            f.line(f"    _too_many({lit(too_many)})")
            if drawn:  # (the r-th of [-1] + list(range(lo, hi + 1, step)))
                f.line("r = _randbelow(rng, 1 + max(0, (hi - lo) // step + 1))")
                f.line("return lo + (r - 1) * step if r else -1")
            else:
                f.line("return [-1] + list(range(lo, hi + 1, step))")

    # ---------------------------------------------------------------- the referee's pauses
    def pause(self, moment: str, st: m.Stmt, cont: int) -> int:
        """A referee's pause after ``st`` (table mode: it waits while an irregularity that
        names ``moment`` can be recorded; strict mode passes over it)."""
        dp = self.new_dp("pause", moment, st, moment=moment)
        dp.laws = 0
        w = self.ready(dp, f"the referee's pause ({moment})")
        dp.extra["cont"] = cont
        w.line(f"if c.table and not c.ncalls and _irr_named(c, {lit(['deal', 'end_of_play'].index(moment))}):")
        with w.indented():
            wait(w, dp, "c.dealer")
        w.line(f"return {lit(cont)}")
        f = self.funcs
        d = dp.id
        f.line()
        with f.block(f"def legal_{d}(c: Core) -> list:"):
            f.line("return [0]")
        with f.block(f"def apply_{d}(c: Core, k: cython.int) -> None:"):
            f.line(f"c.pc = {lit(cont)}")
            f.line("advance(c)")
        with f.block(f"def sample_{d}(c: Core, rng: object) -> cython.int:"):
            f.line("_randbelow(rng, 1)")
            f.line("return 0")
        return int(dp.extra["ready"])


    # ---------------------------------------------------------------- irregularities
    def irregularity_functions(self, irr: m.Irregularity, entry: Irregularity, test: str | bool) -> None:
        """``irr_by_K(c)`` (the only seat that may commit it, or -1), ``irr_ok_K(c)`` (its guard,
        with the offender and arguments in their slots) and ``irr_card_zone_K_J(c)`` (the zone
        a card parameter is taken from)."""
        f = self.funcs
        k = len(self.lay.irregularities)
        f.line()
        f.comment(f"line {irr.span.line}: an irregularity")
        with f.block(f"def irr_by_{k}(c: Core) -> cython.int:"):
            f.line(f"return {self.ex.expr(irr.by) if irr.by is not None else '-1'}")
        with f.block(f"def irr_ok_{k}(c: Core) -> cython.bint:"):
            f.line(f"return {test if isinstance(test, str) else lit(test)}")
        for j, p in enumerate(entry.params):
            if p.kind == "card" and p.zone is not None:
                with f.block(f"def irr_zone_{k}_{j}(c: Core) -> cython.int:"):
                    f.line(f"return {self.ex.zone(p.zone)}")
