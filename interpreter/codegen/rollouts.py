"""The search player's greedy rollouts, written into every module: ``greedy_playout``.

``greedy_playout(c, rng, most, log, stop_deal)`` is the module's random playout
(``playout``, :mod:`.surface`: its arguments, stops, log and count) with the simple rules
of the heuristic player (:class:`interpreter.players.agents.HeuristicAgent`) written out
over the core's tables instead of random actions where they apply, so that a rollout
runs no Python over a State (natively, no Python at all):

- a trick play (no declaration offered, no window open): lead the strongest card; when a
  player of another side is winning the trick, take it with the cheapest legal card that
  beats the best card so far (the least trick power); otherwise (its own side winning,
  or it cannot win) throw the cheapest legal card;
- a choice between named options: the first one listed with a strong hand (the mean of
  its cards' values, each at most 1, at least ``STRONG``), else the second;
- naming trumps: the suit in which the hand is strongest (its trumps there, each counted
  1 and a tenth of its place in the trump order);
- a selection of cards: a discard throws the weakest (those below the middle of their
  suit, as many as allowed), any other selection takes the strongest;
- anything else (a bid, a declaration, a window): a uniformly random legal action, drawn
  as the random playout draws it.

A card's value is the heuristic player's: a trump 1 and a hundredth of its place in the
trump order, another card its rank in its suit over the ranks of a suit plus one. Ties go
to the lowest card number (the first listed option or suit). The trick's winner is
estimated from the cards' trick power (``_power``, as ``finish_D`` ranks a plain trick):
a rule that ranks a trick otherwise makes the rule weaker, never illegal. The same
source runs in CPython and natively: the same draws, the same actions.
"""

from __future__ import annotations

from .layout import DecisionPoint
from .parts import Parts
from .writer import Writer, lit

STRONG = 0.55
"""The hand strength at or above which a choice takes its first option (the heuristic player's threshold)."""


def greedy_rollouts(gen: Parts, w: Writer) -> None:
    """Write the greedy rollouts' helpers and ``greedy_playout`` (see the module docstring)."""
    _values(w)
    _card(gen, w)
    _select(gen, w)
    _dispatch(gen, w)
    _playout(w)


def _values(w: Writer) -> None:
    w.line()
    w.line()
    with w.block("def _greedy_value(ti: cython.int, k: cython.int) -> cython.double:"):
        w.line('"""A card\'s value under order index ``ti`` (a trump above 1)."""')
        w.line("s: cython.int = _power(ti, EFF[ti * NC + k], k)")
        w.line("if s > 1000:")
        w.line("    return 1.0 + (s - 1000) / 100.0")
        w.line("return s / (NC // NS + 1.0)")
    w.line()
    w.line()
    with w.block("def _greedy_strong(c: Core, p: cython.int) -> cython.bint:"):
        w.line('"""Whether seat ``p``\'s hand is strong: the mean of its cards\' values (each at most 1)."""')
        w.line("m: MASK = c.z[HAND + p]")
        w.line("n: cython.int = 0")
        w.line("total: cython.double = 0.0")
        w.line("k: cython.int")
        with w.block("while m:"):
            w.line("k = _low(m)")
            w.line("total += min(1.0, _greedy_value(c.ti, k))")
            w.line("n += 1")
            w.line("m ^= BIT[k]")
        w.line(f"return n > 0 and total >= {STRONG!r} * n")
    w.line()
    w.line()
    with w.block("def _greedy_suit(c: Core, legal: list) -> cython.longlong:"):
        w.line('"""The suit of ``legal`` in which the actor\'s hand is strongest as trumps (the first of equals)."""')
        w.line("best: cython.longlong = legal[0]")
        w.line("top: cython.double = -1.0")
        w.line("total: cython.double")
        w.line("s: cython.int")
        w.line("k: cython.int")
        w.line("m: MASK")
        with w.block("for s in legal:"):
            w.line("if s < 0 or s >= NS:")
            w.line("    continue")
            w.line("total = 0.0")
            w.line("m = c.z[HAND + c.actor] & TRUMPS[s]")
            with w.block("while m:"):
                w.line("k = _low(m)")
                w.line("total += 1.0 + (_power(s, s, k) - 1000) / 10.0")
                w.line("m ^= BIT[k]")
            w.line("if total > top:")
            w.line("    best = s")
            w.line("    top = total")
        w.line("return best")


def _card(gen: Parts, w: Writer) -> None:
    keeps_led = gen.lay.keeps_led
    w.line()
    w.line()
    with w.block("def _greedy_card(c: Core, allowed: MASK, p: cython.int) -> cython.longlong:"):
        w.line('"""The greedy card for seat ``p`` among ``allowed`` (not empty)."""')
        w.line("ti: cython.int = c.ti")
        w.line("n: cython.int = c.tr_n")
        w.line("led: cython.int")
        w.line("best: cython.int = 0")
        w.line("top: cython.int")
        w.line("pw: cython.int")
        w.line("i: cython.int")
        w.line("k: cython.int")
        w.line("pick: cython.int = -1")
        w.line("least: cython.int = 0")
        w.line("m: MASK = allowed")
        with w.block("if n == 0 or c.tr_led < 0:" if keeps_led else "if n == 0:"):
            w.comment("the lead: the strongest card (the most power in its own suit, trumps above)")
            with w.block("while m:"):
                w.line("k = _low(m)")
                w.line("pw = _power(ti, EFF[ti * NC + k], k)")
                w.line("if pick < 0 or pw > least:")
                w.line("    pick = k")
                w.line("    least = pw")
                w.line("m ^= BIT[k]")
            w.line("return pick")
        w.line("led = c.tr_led" if keeps_led else "led = EFF[ti * NC + c.tr_c[0]]")
        w.line("top = _power(ti, led, c.tr_c[0])")
        with w.block("for i in range(1, n):"):
            w.line("pw = _power(ti, led, c.tr_c[i])")
            w.line("if pw > top:")
            w.line("    best = i")
            w.line("    top = pw")
        with w.block("if SIDE_OF[c.tr_p[best]] != SIDE_OF[p]:"):
            w.comment("another side is winning: the cheapest card that beats the best so far")
            with w.block("while m:"):
                w.line("k = _low(m)")
                w.line("pw = _power(ti, led, k)")
                w.line("if pw > top and (pick < 0 or pw < least):")
                w.line("    pick = k")
                w.line("    least = pw")
                w.line("m ^= BIT[k]")
            w.line("if pick >= 0:")
            w.line("    return pick")
        w.line("m = allowed  # (the cheapest card: the least power in its own suit, trumps above)")
        with w.block("while m:"):
            w.line("k = _low(m)")
            w.line("pw = _power(ti, EFF[ti * NC + k], k)")
            w.line("if pick < 0 or pw < least:")
            w.line("    pick = k")
            w.line("    least = pw")
            w.line("m ^= BIT[k]")
        w.line("return pick")


def _select(gen: Parts, w: Writer) -> None:
    w.line()
    w.line()
    with w.block("def _greedy_cards(c: Core, weak: cython.bint) -> MASK:"):
        w.line('"""The selection\'s cards: ``weak``, the weakest (those below the middle of their suit, as many')
        w.line('as allowed); else as many of the strongest as allowed."""')
        w.line("cards: MASK = c.sel_cards")
        w.line("n: cython.longlong = _pc(cards)")
        w.line("lo: cython.longlong = max(c.sel_lo, 0)")
        w.line("hi: cython.longlong = min(c.sel_hi, n)")
        w.line("want: cython.longlong = hi")
        w.line("out: MASK = 0")
        w.line("m: MASK")
        w.line("k: cython.int")
        w.line("pick: cython.int")
        w.line("v: cython.double")
        w.line("least: cython.double")
        with w.block("if weak:"):
            w.line("want = 0")
            w.line("m = cards")
            with w.block("while m:"):
                w.line("k = _low(m)")
                w.line("if _greedy_value(c.ti, k) < 0.5:")
                w.line("    want += 1")
                w.line("m ^= BIT[k]")
            w.line("want = max(lo, min(hi, want))")
        with w.block("while want > 0:"):
            w.line("m = cards & ~out")
            w.line("pick = -1")
            w.line("least = 0.0")
            with w.block("while m:"):
                w.line("k = _low(m)")
                w.line("v = _greedy_value(c.ti, k)")
                w.line("if pick < 0 or (v < least if weak else v > least):")
                w.line("    pick = k")
                w.line("    least = v")
                w.line("m ^= BIT[k]")
            w.line("out |= BIT[pick]")
            w.line("want -= 1")
        w.line("return out")
    discards = [d.id for d in gen.lay.dps if d.kind == "select" and d.verb == "discard"]
    w.line()
    w.line()
    with w.block("def _greedy_select(c: Core, dp: cython.int) -> MASK:"):
        w.line('"""The greedy selection at ``dp``: a discard throws the weakest, any other takes the strongest."""')
        weak = " or ".join(f"dp == {lit(d)}" for d in discards) or "False"
        w.line(f"return _greedy_cards(c, {weak})")


def _dispatch(gen: Parts, w: Writer) -> None:
    lay = gen.lay
    w.line()
    w.line()
    with w.block("def _greedy_at(c: Core, dp: cython.int) -> cython.longlong:"):
        w.line('"""The greedy action\'s code at ``dp`` (not a selection), or -1 where the rollout draws'
               ' at random."""')
        w.line("p: cython.int")
        w.line("legal: list")
        for d in lay.dps:
            body = _rule(d, lay.hand)
            if body:
                w.line(f"if dp == {lit(d.id)}:")
                with w.indented():
                    for line in body:
                        w.line(line)
        w.line("return -1")


def _rule(d: DecisionPoint, hand: int) -> list[str]:
    """The lines of ``_greedy_at`` for decision point ``d`` (none: drawn at random)."""
    if d.kind == "play":
        tests = (["c.window >= 0"] if d.tricks is not None and d.tricks.window else []) + [f"offered_{d.id}(c, p)"]
        return ["p = c.tr_turn",
                f"if {' or '.join(tests)}:",
                "    return -1",
                f"return _greedy_card(c, allowed_{d.id}(c, c.z[{lit(hand)} + p]), p)"]
    if d.kind == "choice":
        return [f"legal = legal_{d.id}(c)",
                "if len(legal) == 1 or _greedy_strong(c, c.actor):",
                "    return legal[0]",
                "return legal[1]"]
    if d.kind == "name_trump":
        return [f"return _greedy_suit(c, legal_{d.id}(c))"]
    return []


def _playout(w: Writer) -> None:
    w.line()
    w.line()
    with w.block("def greedy_playout(c: Core, rng: object, most: cython.longlong, log: object, "
                 "stop_deal: cython.int) -> cython.longlong:"):
        w.line('"""As ``playout`` (its arguments, its stops, its log, what it returns), with the greedy')
        w.line("action (``_greedy_at``, ``_greedy_select``) wherever there is one; every other action is")
        w.line('drawn as the random playout draws it."""')
        w.line("taken: cython.longlong = 0")
        w.line("code: cython.longlong")
        w.line("dp: cython.int")
        w.line("mask: MASK")
        with w.block("while not c.terminal and taken < most and (stop_deal < 0 or c.deal_no == stop_deal):"):
            w.line("dp = c.dp")
            with w.block("if SELECTS[dp]:"):
                w.line("mask = _greedy_select(c, dp)")
                w.line("c.steps = 0")
                w.line("_select_at(c, dp, _in_order(c, mask))")
                w.line("if log is not None:")
                w.line("    log.append(dp | (cython.cast(object, mask) + 1) << 16)")
            with w.block("else:"):
                w.line("code = _greedy_at(c, dp)")
                w.line("if code < 0:")
                w.line("    code = _sample_at(c, dp, rng)")
                w.line("c.steps = 0")
                w.line("_apply_at(c, dp, code)")
                w.line("if log is not None:")
                w.line("    log.append(dp | (code + 1) << 16)")
            w.line("taken += 1")
        w.line("return taken")
