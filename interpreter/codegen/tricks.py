"""Trick play, written out: the legal-play chain as mask arithmetic, playing a card,
taking the trick, declarations and their windows; and the two remedies that reach into
trick play (`P leads`, `replay the tricks`).

Under order index ``ti`` (the trump suit, or no trump) the module's tables give each
card's effective suit (``EFF``), the masks of the cards of each effective suit
(``SUITS``), of the trumps (``TRUMPS``) and how strongly each card plays to a trick led
in each suit (``POWER``). The cards a player may play are his hand narrowed by the
obligations in their order, each applied only if able (it narrows to a non-empty set)
and when its guard holds. A trick play's codes: a card (``0 .. NC-1``), a declaration
(``NC + k``, k its name's index), ``continue`` (``NC + ND``: a window left unused).
"""

from __future__ import annotations

from tricklang import model as m
from tricklang.types import CARD, PLAYER

from .decisions import Decisions, wait
from .declarations import TrickDeclarations
from .hoist import hoisted
from .hooks import TrickHooks
from .layout import DecisionPoint
from .runner import HOT_ARRAYS, TrickRunner
from .seats import SeatControl, onward
from .ties import tie_function
from .trick_cards import TrickCards
from .trick_taking import TrickTaking
from .writer import Writer, lit, logged, plus

WHY = {"follow_suit": 1, "trump_if_void": 2, "beat_if_able": 4, "lead_until_broken": 8, "lead_first": 16,
       "not_first_trick": 32, "overtrump_if_able": 64, "no_undertrump": 128}
"""The bits of the reasons a play is refused (``why_D``), by obligation."""


OVERTRUMPING = ("overtrump_if_able", "no_undertrump")
"""The obligations that compare a trump with the highest trump of the trick (design 3.2)."""


def _narrow(f: Writer, cond: str, narrowed: str, kind: str, first: str | None = None) -> None:
    """An obligation applied if able: the cards narrow to ``narrowed`` when that leaves some
    (``first``: a line written before, once the condition holds)."""
    f.line(f"{cond}:")
    with f.indented():
        if first is not None:
            f.line(first)
        f.line(f"m = {narrowed}")
        f.line("if m and m != allowed:")
        f.line("    allowed = m")
        f.line(f"    why |= {lit(WHY[kind])}")


def _guard(test: str | bool) -> str:
    """An obligation's guard, as a condition's tail (nothing when it always holds)."""
    return "" if test is True else f" and ({test})"


def _guarded(test: str | bool, cond: str) -> str:
    """``if`` an obligation's guard holds and then ``cond``: a player who follows to a trick
    has the guard of every obligation of the chain tested, whether it could narrow his
    cards or not (a guard that fails at run time fails for every card that follows)."""
    return f"if {cond}" if test is True else f"if ({test}) and ({cond})"


class TrickInfo:
    """What the state needs to know of a trick play: its declarations (name ids, whether
    one may be made after leading) and whether plays alone are its legal actions."""

    def __init__(self) -> None:
        self.declarations: list[int] = []  # declaration name ids, in order, as offered
        self.window = False
        self.controlled = False  # some turns may be played by another seat (`plays for`)




class TrickPlay(TrickRunner, TrickCards, TrickTaking, TrickHooks, TrickDeclarations, SeatControl, Decisions):
    """Trick play and the remedies that reach into it (see the module docstring)."""

    __slots__ = ()

    def trick_play(self, st: m.Tricks, cont: int) -> int:
        lay = self.lay
        info = TrickInfo()
        info.controlled = bool(st.plays_for)
        dp = self.new_dp("play", "play", st, tricks=info)
        ex = self.ex
        obligations: list[tuple[m.Obligation, str | bool]] = []
        lead_rules: list[tuple[int, str | bool, m.Obligation]] = []
        for ob in st.obligations:
            test = ex.cond(ob.guard)
            if test is False:
                continue  # switched off by an option
            if ob.kind == "lead_until_broken":
                assert ob.pattern is not None
                k = len(lay.lead_patterns)
                lay.lead_patterns.append(lay.pattern(ob.pattern))
                lead_rules.append((k, test, ob))
            else:
                obligations.append((ob, test))
        saved = dict(self.context)
        self.context["declarer"] = PLAYER
        declarer = lay.slot("declarer")
        decls: list[tuple[m.Declaration, str | bool, int]] = []
        for dcl in st.declarations:
            test = self.ex.cond(dcl.guard)
            if test is False:
                continue  # switched off by an option
            decls.append((dcl, test, lay.declaration(dcl.name)))
            if lay.declaration(dcl.name) not in info.declarations:
                info.declarations.append(lay.declaration(dcl.name))
        info.window = any(dcl.deadline == "after_leading_it" for dcl, _, _ in decls)
        dp.extra["sets_trump"] = any(ob.kind == "first_lead_trump" for ob, _ in obligations)
        order = ["lead_until_broken"] if lead_rules else []
        for ob, _ in obligations:
            if ob.kind in WHY and ob.kind not in order:
                order.append(ob.kind)
        dp.extra["why_order"] = order  # the order in which the reasons are told
        self._anytime_cards(dp.id, [rule for rule in st.card_rules if rule.kind == "free"])
        self.tie = tie_function(self, dp.id, st.ties)
        self.trick_card_rules = [rule for rule in st.card_rules if rule.kind != "free"]
        self._functions(st, dp, obligations, lead_rules, decls, declarer, cont)
        self.anytime = -1
        self.context = saved
        return int(dp.extra["ready"])


    def _functions(self, st: m.Tricks, dp: DecisionPoint,
                   obligations: list[tuple[m.Obligation, str | bool]], lead_rules: list[tuple[int, str | bool, m.Obligation]],
                   decls: list[tuple[m.Declaration, str | bool, int]], declarer: int, cont: int) -> None:
        lay = self.lay
        d = dp.id
        n, hand = lay.n, lay.hand
        hands = " | ".join(f"c.z[{lit(hand + p)}]" for p in range(n))
        self.context.pop("declarer", None)
        count = self.ex.expr(st.count)
        leader = self.ex.seat(st.leader)
        self.context["declarer"] = PLAYER
        nobody = lay.fault(f"line {dp.line}: nobody to lead the first trick")
        w = self.ready(dp, "trick play")
        w.line("if not c.tr_active:")
        with w.indented():
            w.line("c.tr_active = True")
            w.line(f"c.tr_total = {count}")
            w.line("c.tr_no = 0")
            w.line(f"leader = {leader}")
            w.line(f"if leader < 0 or leader >= {lit(n)}:")
            w.line(f"    _fail({lit(nobody)})")
            w.line("c.tr_leader = leader")
            w.line("c.tr_turn = leader")
            w.line("c.tr_n = 0")
            w.line("c.tr_pm = 0")
        w.line("while True:")
        with w.indented():
            self._trick_hooks_first(w, dp, st)  # (a trick just taken whose hooks decide: those first)
            w.line("if c.tr_n == 0:")
            with w.indented():
                w.line(f"if c.tr_no >= c.tr_total or not ({hands}):")
                w.line("    c.tr_active = False")
                w.line(f"    return {lit(cont)}")
                w.line(f"if not c.z[{lit(hand)} + c.tr_turn]:")
                w.line("    c.tr_turn = _next_with_cards(c, c.tr_turn)")
            w.line(f"elif not c.z[{lit(hand)} + c.tr_turn]:")
            with w.indented():
                w.line("nxt = _next_with_cards(c, c.tr_turn)")
                w.line("if nxt == c.tr_turn or c.tr_pm >> nxt & 1:")
                w.line(f"    finish_{d}(c)")
                w.line("    continue")
                w.line("c.tr_turn = nxt")
            w.line("break")
        wait(w, dp, "c.window if c.window >= 0 else " + self.actor_of(dp.tricks.controlled, d, "c.tr_turn"))

        f = self.funcs
        f.line()
        f.comment(f"line {dp.line}: trick play")
        self._allowed(f, d, obligations, lead_rules, why=False)
        self._allowed(f, d, obligations, lead_rules, why=True)
        offer_tests, dp.extra["window_tests"] = self._declarations(f, d, decls, declarer)
        dp.extra["after_card"] = self._after_card(f, d, st)
        if any(h.event != "each_trick" and self._waits(h) for h in st.hooks):
            self._hook_blocks(dp, st)
        self._play(f, dp, obligations)
        self.controllers(f, d, st)
        self._after_trick(f, d, st)
        self._finish(f, d, any(h.event == "each_trick" for h in st.hooks), dp.extra.get("trick_hooks"))
        self._dispatch(f, dp, [x for x in decls if x[0].deadline != "after_leading_it"], decls)
        self._runner(f, dp, obligations, lead_rules, offer_tests)

    @staticmethod
    def _decl_order(decls: list[tuple[m.Declaration, str | bool, int]], window: bool) -> list[int]:
        """The name ids of the declarations offered before playing (or, ``window``, right
        after leading), each once, in the order the legal actions list them."""
        out: list[int] = []
        for dcl, _test, k in decls:
            if (dcl.deadline == "after_leading_it") == window and k not in out:
                out.append(k)
        return out

    def _legal(self, f: Writer, dp: DecisionPoint, plain_decls: list[tuple[m.Declaration, str | bool, int]],
               all_decls: list[tuple[m.Declaration, str | bool, int]]) -> None:
        """``legal_D`` of a trick play: the cards allowed in hand order, then the declarations offered
        (or, in a window, its declarations and continue)."""
        lay = self.lay
        d = dp.id
        hand = lay.hand
        nd_code = f"{lit(lay.nc)} + ND"
        with f.block(f"def legal_{d}(c: Core) -> list:"):
            if dp.tricks.window:
                f.line("if c.window >= 0:")
                with f.indented():
                    f.line(f"got = window_{d}(c, c.window)")
                    f.line("out = []")
                    for k in self._decl_order(all_decls, True):
                        f.line(f"if got >> {lit(k)} & 1:")
                        f.line(f"    out.append({lit(lay.nc + k)})")
                    f.line(f"out.append({nd_code})")
                    f.line("return out")
            f.line("p = c.tr_turn")
            f.line(f"out = _in_order(c, allowed_{d}(c, c.z[{lit(hand)} + p]))")
            if plain_decls:
                f.line(f"got = offered_{d}(c, p)")
                for k in self._decl_order(plain_decls, False):
                    f.line(f"if got >> {lit(k)} & 1:")
                    f.line(f"    out.append({lit(lay.nc + k)})")
            f.line("return out")

    def _dispatch(self, f: Writer, dp: DecisionPoint, plain_decls: list[tuple[m.Declaration, str | bool, int]],
                  all_decls: list[tuple[m.Declaration, str | bool, int]]) -> None:
        """``legal_D`` and ``apply_D`` of a trick play (cards, declarations, a window's continue;
        ``sample_D`` is the runner's, :mod:`.runner`)."""
        lay = self.lay
        d = dp.id
        nd_code = f"{lit(lay.nc)} + ND"
        declared = dp.extra.get("declared", -1)  # (a declaration's effect may decide: its first block)
        then = f"c.v[{lit(declared)}]" if declared >= 0 else lit(dp.extra["ready"])
        self._legal(f, dp, plain_decls, all_decls)
        with f.block(f"def apply_{d}(c: Core, code: cython.longlong) -> None:"):
            if dp.tricks.window:
                f.line("if c.window >= 0:")
                with f.indented():
                    f.line("p = c.window")
                    if declared >= 0:
                        f.line(f"c.v[{lit(declared)}] = {lit(dp.extra['ready'])}")
                    f.line(f"if code != {nd_code}:")
                    f.line(f"    declare_{d}(c, p, code - {lit(lay.nc)}, True)")
                    f.line("c.window = -1")
                    f.line(f"c.pc = {then}")
                    f.line("advance(c)")
                    f.line("return")
            if declared >= 0:
                f.line(f"c.v[{lit(declared)}] = {lit(dp.extra['ready'])}")
            f.line(f"if code >= {lit(lay.nc)}:")
            f.line(f"    declare_{d}(c, c.tr_turn, code - {lit(lay.nc)}, False)")
            if "hook_block" in dp.extra or "trick_hooks" in dp.extra:
                f.line("else:")
                f.line(f"    play_{d}(c, code)")
                if "hook_block" in dp.extra:  # the hooks on a card, which may decide, then the trick goes on
                    f.line(f"    c.pc = {lit(dp.extra['hook_block'])}")
                    f.line("    advance(c)")
                    f.line("    return")
                f.line(f"c.pc = {then}")
                f.line("advance(c)")
            else:
                f.line(f"    c.pc = {then}")
                f.line("    advance(c)")
                f.line("    return")
                f.line(f"play_{d}(c, code)")
                f.line(f"c.pc = {then}")
                self._resume(f, dp)

    def _allowed(self, f: Writer, d: int, obligations: list[tuple[m.Obligation, str | bool]],
                 lead_rules: list[tuple[int, str | bool, m.Obligation]], *, why: bool) -> None:
        """``allowed_D(c, hand)``: the cards that may be played from ``hand`` now (``why_D``: the
        bits of the obligations that narrowed them, for the state's refusals)."""
        name = f"why_{d}" if why else f"allowed_{d}"
        with f.block(f"def {name}(c: Core, hand: MASK) -> {'cython.int' if why else 'MASK'}:"):
            self._allowed_chain(f, obligations, lead_rules)
            f.line(f"return {'why' if why else 'allowed'}")

    def _allowed_chain(self, f: Writer, obligations: list[tuple[m.Obligation, str | bool]],
                       lead_rules: list[tuple[int, str | bool, m.Obligation]]) -> None:
        """Statements leaving in ``allowed`` the cards of ``hand`` that may be played now and
        in ``why`` the bits of the obligations that narrowed them (the body of ``allowed_D``,
        and inline in the trick play's runner)."""
        chain = [(ob, t) for ob, t in obligations if ob.kind not in ("may_trump", "first_lead_trump", "lead_first")]
        if self.anytime >= 0:  # cards playable at any time are left out of the chain, then added (design 3.2)
            f.line(f"anytime = anytime_{self.anytime}(c, hand)")
            f.line("hand = hand & ~anytime")
        f.line("allowed = hand")
        f.line("why = 0")
        f.line("ti = c.ti")
        f.line("if c.tr_n == 0:")
        with f.indented():
            self._lead_chain(f, obligations, lead_rules)
        if self.lay.keeps_led:  # no suit led yet (design 3.2): as free as a leader, without the lead rules
            f.line("elif c.tr_led < 0:")
            f.line("    pass")
        f.line("else:")
        with f.indented():
            f.line("pass")
            if any(ob.kind in ("follow_suit", "trump_if_void", "beat_if_able", *OVERTRUMPING) for ob, _ in chain):
                f.line(f"led = {self.led_of_trick()}")
                f.line(f"follow = hand & SUITS[ti * {self.lay.led_stride} + led]")
            self._follow_chain(f, chain, [(ob, t) for ob, t in obligations if ob.kind == "may_trump"])
        if self.anytime >= 0:
            f.line("allowed |= anytime")

    def _anytime_cards(self, d: int, rules: list[m.CardRule]) -> None:
        """``anytime_D(c, hand)``: the cards of ``hand`` that `may be played at any time` (each rule's
        guard asked of each card matching its pattern, with `card` naming it)."""
        self.anytime = -1
        if not rules:
            return
        lay = self.lay
        saved = dict(self.context)
        self.context["card"] = CARD
        slot = lay.slot("card")
        written = False
        f = self.funcs
        with f.block(f"def anytime_{d}(c: Core, hand: MASK) -> MASK:"):
            f.line("out: MASK = 0")
            f.line("m: MASK")
            f.line("k: cython.int")
            for rule in rules:
                self.line = rule.span.line
                test = self.ex.cond(rule.guard)
                if test is False:
                    continue  # switched off by an option
                written = True
                f.comment(f"line {rule.span.line}: may play at any time")
                f.line(f"m = hand & PAT[{lit(lay.pattern(rule.pattern))} * NT + c.ti]")
                if test is True:
                    f.line("out |= m")
                    continue
                with f.block("while m:"):
                    f.line("k = _low(m)")
                    f.line("m ^= BIT[k]")
                    f.line(f"saved = c.v[{lit(slot)}]")
                    f.line(f"c.v[{lit(slot)}] = k")
                    f.line(f"ok = bool({test})")
                    f.line(f"c.v[{lit(slot)}] = saved")
                    f.line("if ok:")
                    f.line("    out |= BIT[k]")
            f.line("return out")
        self.context = saved
        self.anytime = d if written else -1

    def _lead_chain(self, f: Writer, obligations: list[tuple[m.Obligation, str | bool]],
                    lead_rules: list[tuple[int, str | bool, m.Obligation]]) -> None:
        """The rules that narrow a lead: suits not led until broken, then the first trick's."""
        lay = self.lay
        f.line("pass")
        for k, test, _ob in lead_rules:
            _narrow(f, f"if not (c.broken >> {lit(k)} & 1){_guard(test)}",
                    f"allowed & ~PAT[{lit(lay.lead_patterns[k])} * NT + ti]", "lead_until_broken")
        lead_chain = [(ob, t) for ob, t in obligations if ob.kind in ("lead_first", "not_first_trick")]
        if lead_chain:
            f.line("if c.tr_no == 0:")
            with f.indented():
                f.line("pass")
                for ob, test in lead_chain:
                    assert ob.pattern is not None  # pragma: no cover - checked
                    pat = f"PAT[{lit(lay.pattern(ob.pattern))} * NT + ti]"
                    narrowed = f"allowed & {pat}" if ob.kind == "lead_first" else f"allowed & ~{pat}"
                    _narrow(f, "if True" + _guard(test), narrowed, ob.kind)

    def _follow_chain(self, f: Writer, chain: list[tuple[m.Obligation, str | bool]],
                      may_trump: list[tuple[m.Obligation, str | bool]]) -> None:
        """The obligations of a player who follows to a trick, in their order."""
        for ob, test in chain:
            kind = ob.kind
            if kind == "follow_suit":
                first = None
                if may_trump:  # (their guards tested only for a player able to follow)
                    may = " or ".join("True" if t is True else f"({t})" for _, t in may_trump)
                    first = f"may = c.trump >= 0 and led != c.trump and ({may})"
                    narrowed = f"allowed & (SUITS[ti * {self.lay.led_stride} + led] | (TRUMPS[ti] if may else 0))"
                else:
                    narrowed = f"allowed & SUITS[ti * {self.lay.led_stride} + led]"
                _narrow(f, _guarded(test, "follow"), narrowed, kind, first)
            elif kind == "trump_if_void":
                _narrow(f, _guarded(test, "not follow and c.trump >= 0"), "allowed & TRUMPS[ti]", kind)
            elif kind == "not_first_trick":
                assert ob.pattern is not None  # pragma: no cover - checked
                _narrow(f, _guarded(test, "c.tr_no == 0"),
                        f"allowed & ~PAT[{lit(self.lay.pattern(ob.pattern))} * NT + ti]", kind)
            elif kind == "beat_if_able":
                # A duty of a player who follows suit, or who must trump (then he must
                # over-trump if he can); a void player free to discard is not made to trump.
                f.line(_guarded(test, f"follow or why & {lit(WHY['trump_if_void'])}") + ":")
                with f.indented():
                    f.line(f"base = (ti * {self.lay.led_stride} + led) * NC")
                    f.line("bc = c.tr_c[0]")
                    f.line("for i in range(1, c.tr_n):")
                    f.line(f"    if {self.power('c.tr_c[i]')} > {self.power('bc')}:")
                    f.line("        bc = c.tr_c[i]")
                    f.line(f"m = allowed & {self._above('allowed', 'bc')}")
                    f.line("if m and m != allowed:")
                    f.line("    allowed = m")
                    f.line(f"    why |= {lit(WHY[kind])}")
            elif kind in OVERTRUMPING:
                self._overtrump(f, kind, test)

    def _overtrump(self, f: Writer, kind: str, test: str | bool) -> None:
        """`must overtrump if able` (narrow to the trumps that beat the highest trump of the trick)
        and `may not undertrump` (take out the trumps that do not beat it): only when the trick
        holds a trump, when the guard holds, and only if able (design 3.2)."""
        f.line(_guarded(test, "c.trump >= 0") + ":")
        with f.indented():
            f.line("top = _tr_top_card(c)")
            f.line("if top >= 0:")
            with f.indented():
                f.line(f"base = (ti * {self.lay.led_stride} + led) * NC")
                f.line(f"over = allowed & TRUMPS[ti] & {self._above('allowed & TRUMPS[ti]', 'top')}")
                if kind == "overtrump_if_able":
                    f.line("m = over")
                else:
                    f.line("m = allowed & ~(TRUMPS[ti] & ~over)")
                f.line("if m and m != allowed:")
                f.line("    allowed = m")
                f.line(f"    why |= {lit(WHY[kind])}")

    def _above(self, allowed: str, best: str) -> str:
        """The cards of ``allowed`` that beat ``best`` in the trick: the table's row, or (a
        pack of more than 64 cards) ``_above``'s count."""
        return f"_above(c, {allowed}, base, led, {best})" if self.lay.wide else f"ABOVE_CARD[base + {best}]"

    def power(self, card: str) -> str:
        """How strongly ``card`` plays to the trick (``ti``, ``led`` and ``base`` in scope): a
        table for a pack of at most 64 cards, worked out from smaller tables beyond."""
        power = f"_power(ti, led, {card})" if self.lay.wide else f"POWER[base + {card}]"
        return f"(0 if c.tr_nw & BIT[{card}] else {power})" if self.lay.never_wins else power


    def _play(self, f: Writer, dp: DecisionPoint, obligations: list[tuple[m.Obligation, str | bool]]) -> None:
        d = dp.id
        with f.block(f"def play_{d}(c: Core, card: cython.int) -> None:"):
            body = Writer()
            self._play_card(body, dp, obligations)
            if "hook_block" not in dp.extra:  # (else the hooks' blocks, then the trick goes on: _hook_blocks)
                body.line("if nxt == c.tr_leader or nxt == p or c.tr_pm >> nxt & 1:")
                body.line(f"    finish_{d}(c)")
                body.line("else:")
                body.line("    c.tr_turn = nxt")
            f.extend(hoisted(body, self.lay.wide, HOT_ARRAYS, 2))

    def _play_card(self, f: Writer, dp: DecisionPoint, obligations: list[tuple[m.Obligation, str | bool]]) -> None:
        """Statements playing ``card`` from the hand of ``c.tr_turn`` to the trick, leaving in
        ``p`` the player and in ``nxt`` the next with cards (the trick is full when ``nxt``
        is its leader, the player or has played to it)."""
        lay = self.lay
        d = dp.id
        sets_trump = [ob for ob, _ in obligations if ob.kind == "first_lead_trump"]
        f.line("p = c.tr_turn")
        if sets_trump:
            f.line("if c.trump < 0 and c.tr_no == 0 and c.tr_n == 0:")
            f.line(f"    _set_trump(c, SUIT[card], p, {lit(lay.law(sets_trump[0].cite))})")
        f.line(f"c.z[{plus(lay.hand, 'p')}] ^= BIT[card]")
        f.line("i = c.tr_n")
        f.line("c.tr_c[i] = card")
        f.line("c.tr_p[i] = p")
        f.line("c.tr_n = i + 1")
        self.trick_rules_at_play(f)
        f.line("c.tr_pm |= 1 << p")
        f.line("c.played |= 1 << p")
        if lay.uses.replay:
            f.line("c.played_by[card] = p")
        entry = self.play_entry(dp.tricks.controlled)
        f.line(f"if {logged(entry)}: c.log.append({entry})")
        if dp.tricks.window:  # (window_D's tests, written out: p has just led)
            f.line(f"if i == 0 and ({' or '.join(f'({t})' for t in dp.extra['window_tests']) or 'False'}):")
            f.line("    c.window = p")
        if dp.extra.get("after_card"):
            f.line(f"after_card_{d}(c, p, card, i)")
        if "hook_block" in dp.extra:  # `player` and `card`, for the hooks' blocks
            who, what = dp.extra["hook_slots"]
            f.line(f"c.v[{lit(who)}] = p")
            f.line(f"c.v[{lit(what)}] = card")
        f.line(f"nxt = {onward(lay, 'p')}")  # (_next_with_cards's first step, written out)
        f.line(f"if not c.z[{plus(lay.hand, 'nxt')}]:")
        f.line("    nxt = _next_with_cards(c, p)")

    # ---------------------------------------------------------------- remedies reaching into trick play
    def _interrupted(self, w: Writer, what: str, finished: bool) -> None:
        """Find the trick play an irregularity interrupted (``c.calls`` top); with ``finished``,
        a pause just after its last card counts (the remedy then returns to the trick play)."""
        lay = self.lay
        fault = lay.fault(f"line {self.line}: {what} needs a trick play in progress")
        w.line("back = c.calls[c.ncalls - 1] if c.ncalls else -1")
        if finished:
            w.line("if back in PAUSE_TRICKS:")
            w.line("    back = PAUSE_TRICKS[back]")
            w.line("    c.calls[c.ncalls - 1] = back")
            w.line("elif back not in TRICK_READY or not c.tr_active:")
        else:
            w.line("if back not in TRICK_READY or not c.tr_active:")
        w.line(f"    _fail({lit(fault)})")


    def leads(self, st: m.Leads, w: Writer) -> bool:
        """`P leads`: the cards played to the trick in progress go back to the hands that
        played them, and P leads it."""
        lay = self.lay
        self._interrupted(w, "'P leads'", False)
        w.line(f"p = {self.ex.seat(st.player, chr(39) + 'leads' + chr(39))}")
        w.line("taken = []")
        w.line("for i in range(c.tr_n):")
        with w.indented():
            w.line("q = c.tr_p[i]")
            w.line("card = c.tr_c[i]")
            w.line("taken.append(card)")
            self.moves.add(w, lay.zone_by_name["hand"], f"{lit(lay.hand)} + q", "card")
            w.line("if c.tr_no == 0:")
            w.line("    c.played &= ~(1 << q)")
        w.line("if c.tr_n and c.tr_no == 0 and TRICK_SETS_TRUMP[back]:")
        w.line("    c.trump = -1")
        w.line("    c.ti = NS")
        w.line("c.window = -1")
        w.line("c.tr_n = 0")
        w.line("c.tr_pm = 0")
        w.line("c.tr_leader = p")
        w.line("c.tr_turn = p")
        self.event(w, f"(LEADS, p, tuple(taken), {self.laws(st)})")
        return True


    def replay(self, st: m.ReplayTricks, w: Writer) -> bool:
        """`replay the tricks`: every card played this deal goes back to the hand that played
        it, the tricks won are forgotten, and trick play starts again from its first trick."""
        lay = self.lay
        self._interrupted(w, "'replay the tricks'", True)
        won = lay.zone_by_name.get("won")
        w.line("returned = []")
        if won is not None:
            w.line(f"for z in range({lit(won.base)}, {lit(won.base + won.count)}):")
            with w.indented():
                w.line("for card in _by_stamp(c, c.z[z]):")
                w.line("    if c.played_by[card] >= 0:")
                w.line("        returned.append(card)")
                w.line("        c.z[z] ^= BIT[card]")
        w.line("for i in range(c.tr_n):")
        w.line("    returned.append(c.tr_c[i])")
        w.line("for card in returned:")
        with w.indented():
            w.line("q = c.played_by[card]")
            self.moves.add(w, lay.zone_by_name["hand"], f"{lit(lay.hand)} + q", "card")
            if lay.uses.holders:
                w.line("c.taken_by[card] = -1")
        w.line(f"for q in range({lit(lay.n)}):")
        w.line("    c.tw[q] = 0")
        w.line("c.broken = 0")
        w.line("c.played = 0")
        w.line("c.tr_no = 0")
        w.line("if TRICK_SETS_TRUMP[back]:")
        w.line("    c.trump = -1")
        w.line("    c.ti = NS")
        w.line("c.window = -1")
        w.line("c.tr_active = False")
        w.line("c.tr_n = 0")
        w.line("c.tr_pm = 0")
        self.event(w, f"(REPLAY, len(returned), {self.laws(st)})")
        return True
