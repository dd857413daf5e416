"""The trick play's runner: a random playout's inner loop over one trick play, written
out for each (the draws of ``sample_D``, the moves of ``apply_D`` and what ``advance``
would do between two cards, inline), so that a playout makes no call a card that the
cards do not need. The pieces it inlines are written by :class:`~.tricks.TrickPlay`
(the legal-play chain, playing a card), which mixes this in."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricklang import model as m

from .layout import DecisionPoint
from .parts import Parts
from .writer import Writer, lit

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
            f.line("taken: cython.longlong = 0")
            f.line("plain: cython.bint = type(rng) is _Random")
            f.line("n: cython.longlong")
            f.line("r: cython.longlong")
            f.line("card: cython.int")
            f.line(f"while taken < most and c.dp == {lit(d)} and not c.terminal "
                   "and (stop_deal < 0 or c.deal_no == stop_deal):")
            with f.indented():
                if dp.tricks.window:
                    f.line("if c.window >= 0:")
                    f.line("    break")
                f.line("p = c.tr_turn")
                if offer_tests:  # (offered_D, written out)
                    f.line(f"if {' or '.join(f'({t})' for t in offer_tests)}:")
                    f.line("    break")
                f.line(f"hand: MASK = c.z[{lit(self.lay.hand)} + p]")
                self._allowed_chain(f, obligations, lead_rules)
                self._runner_draw(f)
                f.line("c.steps = 0")
                self._play_card(f, dp, obligations)
                self._runner_after(f, dp)
                # Logged once carried out, the trick taken and the rules after it too: a
                # failure there leaves the card out of the log, and the state rolls back to
                # before it (as the step does).
                f.line("if log is not None:  # (natively kept in the core's buffer: flush_keys)")
                f.line("    if cython.compiled:")
                f.line("        if c.kn < KEYS_BUF:  # (_keep_key's common case, written out)")
                f.line(f"            c.kb[c.kn] = {lit(d)} | (card + 1) << 16")
                f.line("            c.kn += 1")
                f.line("        else:")
                f.line(f"            _keep_key(c, log, {lit(d)} | (card + 1) << 16)")
                f.line("    else:")
                f.line(f"        log.append(LOG_KEYS[{lit(d)} * LOG_W + card + 1])  # ({lit(d)} | (card + 1) << 16, made once)")
                f.line("taken += 1")
            f.line("return taken")


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
            f.line(f"hand: MASK = c.z[{lit(self.lay.hand)} + p]")
            self._allowed_chain(f, obligations, lead_rules)
            f.line("n: cython.longlong = _pc(allowed)")
            f.line("r: cython.longlong")
            f.line("if type(rng) is _Random and n < 256:  # (_randbelow's draw, written out)")
            f.line("    r = _bits(rng, BITLEN[n])")
            f.line("    while r >= n:")
            f.line("        r = _bits(rng, BITLEN[n])")
            f.line("else:")
            f.line("    r = _randbelow(rng, n)")
            f.line("if allowed & TRUMPS[ti]:")
            f.line("    return _ith(c, allowed, r)")
            f.line("while r:  # (no trump among them: the r-th lowest card)")
            f.line("    allowed &= allowed - 1")
            f.line("    r -= 1")
            f.line("return _low(allowed) if cython.compiled else (allowed & -allowed).bit_length() - 1")

    def _resume(self, f: Writer, dp: DecisionPoint) -> None:
        """The end of ``apply_D`` once a card is played and ``c.pc`` is the ready block: what
        ``advance`` does there (its step counted, the ready block's wait for the next turn of
        the trick play), written out while the trick play goes on; else ``advance``."""
        d = dp.id
        hand = lit(self.lay.hand)
        hands = " | ".join(f"c.z[{lit(self.lay.hand + q)}]" for q in range(self.lay.n))
        ready = lit(dp.extra["ready"])
        f.line(f"if c.pc == {ready} and c.tr_active and (c.tr_n != 0 and c.z[{hand} + c.tr_turn] "
               f"or c.tr_n == 0 and c.tr_no < c.tr_total and ({hands})):")
        with f.indented():
            f.line("c.steps += 1")
            f.line("if c.steps > MAX_STEPS:")
            f.line("    _too_many_steps()")
            f.line(f"if not c.z[{hand} + c.tr_turn]:")
            f.line("    c.tr_turn = _next_with_cards(c, c.tr_turn)")
            f.line("c.actor = c.window if c.window >= 0 else " + self.actor_of(dp.tricks.controlled, d, "c.tr_turn"))
            f.line(f"c.dp = {lit(d)}")
            f.line("return")
        f.line("advance(c)")

    @staticmethod
    def _runner_draw(f: Writer) -> None:
        """Draw the card to play among ``allowed`` (``sample_D``'s draw: ``randbelow`` of their count)."""
        f.line("if cython.compiled and not WIDE:")
        f.line("    n = popcountll(allowed)")
        f.line("else:")
        f.line("    n = allowed.bit_count()")
        f.line("if plain and n < 256:")
        with f.indented():
            f.line("r = _bits(rng, BITLEN[n])")
            f.line("while r >= n:")
            f.line("    r = _bits(rng, BITLEN[n])")
        f.line("else:")
        f.line("    r = _randbelow(rng, n)")
        f.line("if allowed & TRUMPS[ti]:")
        f.line("    card = _ith(c, allowed, r)")
        f.line("else:  # (no trump among them: the r-th lowest card)")
        with f.indented():
            f.line("while r:")
            f.line("    allowed &= allowed - 1")
            f.line("    r -= 1")
            f.line("if cython.compiled and not WIDE:")
            f.line("    card = ctzll(allowed)")
            f.line("else:")
            f.line("    card = (allowed & -allowed).bit_length() - 1")

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
                    f.line(f"if not c.z[{lit(self.lay.hand)} + c.tr_turn]:")
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
