"""The trick play's runner: a random playout's inner loop over one trick play, written
out for each (the draws of ``sample_D``, the moves of ``apply_D`` and what ``advance``
would do between two cards, inline), so that a playout makes no call a card that the
cards do not need. The pieces it inlines are written by :class:`~.tricks.TrickPlay`
(the legal-play chain, playing a card), which mixes this in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricklang import model as m

from .hoist import hoisted
from .layout import DecisionPoint
from .parts import Parts
from .writer import Writer, lit, plus

HOT_ARRAYS = ("z", "tr_c", "tr_p", "played_by")
"""The core's arrays a card played indexes, read through locals where cards are played."""

if TYPE_CHECKING:
    Obligations = list[tuple[m.Obligation, str | bool]]
    LeadRules = list[tuple[int, str | bool, m.Obligation]]


class TrickRunner(Parts):
    """``run_D`` of a trick play (mixed into :class:`~.tricks.TrickPlay`)."""

    __slots__ = ()

    if TYPE_CHECKING:  # written by TrickPlay
        def _allowed_chain(self, f: Writer, obligations: Obligations, lead_rules: LeadRules) -> None: ...
        def _play_card(self, f: Writer, dp: DecisionPoint, obligations: Obligations) -> None: ...
        @staticmethod
        def actor_of(controlled: bool, d: int, seat: str) -> str: ...

    def _runner(self, f: Writer, dp: DecisionPoint, obligations: Obligations, lead_rules: LeadRules,
                offer_tests: list[str]) -> None:
        """``run_D(c, rng, most, log, stop_deal)``: the playout's inner loop over this trick
        play: random card plays (the draws of ``sample_D``, the moves of ``apply_D``, written
        inline) while no declaration or window is offered; returns how many were taken. And
        ``sample_D`` before it (:meth:`_sample`)."""
        self._sample(f, dp, obligations, lead_rules, offer_tests)
        d = dp.id
        with f.block(f"def run_{d}(c: Core, rng: object, most: cython.longlong, log: object, "
                     "stop_deal: cython.int) -> cython.longlong:"):
            body = Writer()  # (the core's arrays it indexes then read through locals: .hoist)
            body.line("taken: cython.longlong = 0")
            body.line("plain: cython.bint = type(rng) is _Random")
            body.line("n: cython.longlong")
            body.line("r: cython.longlong")
            body.line("card: cython.int")
            body.line(f"while taken < most and c.dp == {lit(d)} and not c.terminal "
                      "and (stop_deal < 0 or c.deal_no == stop_deal):")
            with body.indented():
                if dp.tricks.window:
                    body.line("if c.window >= 0:")
                    body.line("    break")
                body.line("p = c.tr_turn")
                if offer_tests:  # (offered_D, written out)
                    body.line(f"if {' or '.join(f'({t})' for t in offer_tests)}:")
                    body.line("    break")
                body.line(f"hand: MASK = c.z[{plus(self.lay.hand, 'p')}]")
                self._allowed_chain(body, obligations, lead_rules)
                self._runner_draw(body)
                body.line("c.steps = 0")
                self._play_card(body, dp, obligations)
                self._runner_after(body, dp)
                # Logged once carried out, the trick taken and the rules after it too: a
                # failure there leaves the card out of the log, and the state rolls back to
                # before it (as the step does).
                body.line("if log is not None:  # (natively kept in the core's buffer: flush_keys)")
                body.line("    if cython.compiled:")
                body.line("        if c.kn < KEYS_BUF:  # (_keep_key's common case, written out)")
                body.line(f"            c.kb[c.kn] = {lit(d)} | (card + 1) << 16")
                body.line("            c.kn += 1")
                body.line("        else:")
                body.line(f"            _keep_key(c, log, {lit(d)} | (card + 1) << 16)")
                body.line("    else:")
                body.line(f"        log.append(LOG_KEYS[{lit(d)} * LOG_W + card + 1])  # ({lit(d)} | (card + 1) << 16, made once)")
                body.line("taken += 1")
            body.line("return taken")
            f.extend(hoisted(body, self.lay.wide, HOT_ARRAYS))


    def _sample(self, f: Writer, dp: DecisionPoint, obligations: Obligations, lead_rules: LeadRules,
                offer_tests: list[str]) -> None:
        """``sample_D`` of a trick play: a random legal card (or, while a window or a declaration
        is offered, any legal action), drawn as ``legal_D(c)[_randbelow(rng, len)]`` would; the
        tests of ``offered_D`` and the chain of ``allowed_D`` written out, as in ``run_D``."""
        d = dp.id
        with f.block(f"def sample_{d}(c: Core, rng: object) -> cython.longlong:"):
            f.line("p = c.tr_turn")
            guard = (["c.window >= 0"] if dp.tricks.window else []) + [f"({t})" for t in offer_tests]
            if guard:
                f.line(f"if {' or '.join(guard)}:")
                f.line(f"    legal = legal_{d}(c)")
                f.line("    return legal[_randbelow(rng, len(legal))]")
            f.line(f"hand: MASK = c.z[{plus(self.lay.hand, 'p')}]")
            self._allowed_chain(f, obligations, lead_rules)
            f.line("n: cython.longlong")
            f.line("r: cython.longlong")
            f.line("card: cython.int")
            self._runner_draw(f, "type(rng) is _Random")
            f.line("return card")

    def _resume(self, f: Writer, dp: DecisionPoint) -> None:
        """The end of ``apply_D`` once a card is played and ``c.pc`` is the ready block: what
        ``advance`` does there (its step counted, the ready block's wait for the next turn of
        the trick play), written out while the trick play goes on; else ``advance``."""
        d = dp.id
        hands = " | ".join(f"c.z[{lit(self.lay.hand + q)}]" for q in range(self.lay.n))
        ready = lit(dp.extra["ready"])
        f.line(f"if c.pc == {ready} and c.tr_active and (c.tr_n != 0 and c.z[{plus(self.lay.hand, 'c.tr_turn')}] "
               f"or c.tr_n == 0 and c.tr_no < c.tr_total and ({hands})):")
        with f.indented():
            f.line("c.steps += 1")
            f.line("if c.steps > MAX_STEPS:")
            f.line("    _too_many_steps()")
            f.line(f"if not c.z[{plus(self.lay.hand, 'c.tr_turn')}]:")
            f.line("    c.tr_turn = _next_with_cards(c, c.tr_turn)")
            f.line("c.actor = c.window if c.window >= 0 else " + self.actor_of(dp.tricks.controlled, d, "c.tr_turn"))
            f.line(f"c.dp = {lit(d)}")
            f.line("return")
        f.line("advance(c)")

    def _native_or(self, f: Writer, native: str, python: str) -> None:
        """``native`` natively (a pack of at most 64 cards: the masks are C integers), else
        ``python``: the pack's width decided here, not by a test of ``WIDE`` a card."""
        if self.lay.wide:
            f.line(python)
            return
        f.line("if cython.compiled:")
        f.line("    " + native)
        f.line("else:")
        f.line("    " + python)

    def _runner_draw(self, f: Writer, plain: str = "plain") -> None:
        """Draw the card to play among ``allowed`` into ``card``: ``randbelow`` of their count
        (written out for a plain Random, ``plain``), then that card in the order of the legal
        actions (``_ith``, written out)."""
        self._native_or(f, "n = popcountll(allowed)", "n = allowed.bit_count()")
        f.line(f"if {plain} and n < 256:  # (_randbelow's draw, written out)")
        with f.indented():
            f.line("r = _bits(rng, BITLEN[n])")
            f.line("while r >= n:")
            f.line("    r = _bits(rng, BITLEN[n])")
        f.line("else:")
        f.line("    r = _randbelow(rng, n)")
        # (_ith written out: the trumps first, strongest first in TORDER, then the others lowest first)
        f.line("card = -1")
        f.line("t: MASK = allowed & TRUMPS[ti]")
        f.line("if t:")
        with f.indented():
            self._native_or(f, "n = popcountll(t)", "n = t.bit_count()")
            f.line("if r < n:")
            with f.indented():
                f.line("for j in range(TSTART[ti], TSTART[ti + 1]):")
                f.line("    if t & BIT[TORDER[j]]:")
                f.line("        if r == 0:")
                f.line("            card = TORDER[j]")
                f.line("            break")
                f.line("        r -= 1")
            f.line("else:")
            f.line("    r -= n")
            f.line("    allowed ^= t")
        f.line("if card < 0:  # (the r-th lowest card)")
        with f.indented():
            f.line("while r:")
            f.line("    allowed &= allowed - 1")
            f.line("    r -= 1")
            self._native_or(f, "card = ctzll(allowed)", "card = (allowed & -allowed).bit_length() - 1")

    def _runner_after(self, f: Writer, dp: DecisionPoint) -> None:
        """After a card: the trick taken (and the next one led, or ``advance``), or the next player's turn."""
        d = dp.id
        ready = lit(dp.extra["ready"])
        if "hook_block" in dp.extra:  # the hooks on a card, which may decide: as apply_D does
            f.line(f"c.pc = {lit(dp.extra['hook_block'])}")
            f.line("advance(c)")
            return
        hands = " | ".join(f"c.z[{lit(self.lay.hand + q)}]" for q in range(self.lay.n))
        f.line("if nxt == c.tr_leader or nxt == p or c.tr_pm >> nxt & 1:")
        with f.indented():
            f.line(f"finish_{d}(c)")
            if "trick_hooks" in dp.extra:  # the hooks after the trick, which may decide: as apply_D does
                f.line(f"c.pc = {ready}")
                f.line("advance(c)")
            else:
                f.line(f"if c.tr_no < c.tr_total and ({hands}):  # (the next trick: advance, written out)")
                with f.indented():
                    f.line(f"if not c.z[{plus(self.lay.hand, 'c.tr_turn')}]:")
                    f.line("    c.tr_turn = _next_with_cards(c, c.tr_turn)")
                    f.line("c.actor = c.window if c.window >= 0 else " + self.actor_of(dp.tricks.controlled, d, "c.tr_turn"))
                    f.line("c.steps = 1")
                f.line("else:")
                f.line(f"    c.pc = {ready}")
                f.line("    advance(c)")
        f.line("else:  # (the trick goes on: what advance would do, written out)")
        with f.indented():
            f.line("c.tr_turn = nxt")
            f.line("c.actor = c.window if c.window >= 0 else " + self.actor_of(dp.tricks.controlled, d, "nxt"))
            f.line("c.steps = 1")
