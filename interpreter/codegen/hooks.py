"""A trick play's hooks, written out (design 3.6): `after playing P:` and `after leading P:`, run
right after a card matching P is played to a trick (and its `play` event logged), with `player`
and `card` naming who played it and the card; `after each trick:`, run once the trick is taken
and its `trick` event logged, before the next is led. Each hook is a function of its own
(``hook_D_K``), called in the order written at its point (``after_card_D``, ``after_trick_D``)
when its pattern and guard hold; a point with no hook gets no call. A hook's statements run as a
declaration's effects do (:meth:`~.declarations.TrickDeclarations._effects`); `end the play`
(in an `after each trick:` hook) makes the trick just taken the trick play's last and ends the
hook. Mixed into :class:`~.tricks.TrickPlay`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricklang import model as m
from tricklang.types import CARD, PLAYER

from .layout import DecisionPoint
from .parts import Parts
from .writer import Writer, lit


def pending_trick(text: str, slot: int) -> str:
    """The accessors' ``trick``, which shows no trick in progress while the hooks after a trick
    taken run as blocks (slot ``<trick taken>`` is 1 from the trick taken to the hooks' start, 2
    while they run, 0 once the next trick starts: the trick's cards are in its winner's zone)."""
    old = "    return [(c.tr_p[i], c.tr_c[i]) for i in range(c.tr_n)] if c.tr_active else []\n"
    assert old in text  # pragma: no cover - the accessors' own text
    return text.replace(old, old.replace("if c.tr_active else", f"if c.tr_active and not 1 <= c.v[{slot}] <= 2 else"))


class TrickHooks(Parts):
    """The hooks of a trick play (see the module docstring)."""

    __slots__ = ()

    if TYPE_CHECKING:  # written by TrickDeclarations (a sibling mixin)
        def _effects(self, w: Writer, stmts: tuple[m.Statement, ...], cite: m.Citation | None,
                     lines: bool = False) -> None: ...

    def _hook(self, f: Writer, name: str, hook: m.Hook, *, on_card: bool) -> bool:
        """``name(c)`` (``name(c, p, card)`` for a hook on a card): the hook's guard, then its body.
        Returns False when an option switches it off (nothing is written)."""
        saved = dict(self.context)
        if on_card:
            self.context["player"] = PLAYER
            self.context["card"] = CARD
        self.line = hook.span.line
        test = self.ex.cond(hook.guard)
        if test is False:
            self.context = saved
            return False
        args = "c: Core, p: cython.int, card: cython.int" if on_card else "c: Core"
        body = Writer()
        with body.block(f"def {name}_body(c: Core) -> None:"):
            body.line("pass")
            if test is not True:
                body.line(f"if not ({test}):")
                body.line("    return")
            self._effects(body, hook.body, hook.cite, lines=True)
        f.extend(body)
        with f.block(f"def {name}({args}) -> None:"):
            if not on_card:
                f.line(f"{name}_body(c)")
            else:  # `player` and `card` name who played it and the card, for the hook's time
                who, what = self.lay.slot("player"), self.lay.slot("card")
                f.line(f"saved_p = c.v[{lit(who)}]")
                f.line(f"saved_c = c.v[{lit(what)}]")
                f.line(f"c.v[{lit(who)}] = p")
                f.line(f"c.v[{lit(what)}] = card")
                f.line(f"{name}_body(c)")
                f.line(f"c.v[{lit(who)}] = saved_p")
                f.line(f"c.v[{lit(what)}] = saved_c")
        self.context = saved
        return True

    def _hook_loop_exit(self, st: m.ForEach, w: Writer, cont: int) -> int:
        """Where a loop over the name a hook on a card binds (`for each player` in a hook run as
        blocks) goes when done: a block giving the hook's `player` back (kept in a hidden slot,
        written into ``w`` before the loop), then ``cont``."""
        keep, var = self.lay.hidden_slot("for"), self.lay.slot(st.kind)
        w.line(f"c.v[{lit(keep)}] = c.v[{lit(var)}]")
        back = self.block(st.span.line, "after a loop in a hook: the hook's player again")
        back.w.line(f"c.v[{lit(var)}] = c.v[{lit(keep)}]")
        back.w.line(f"return {lit(cont)}")
        return back.id

    def _waits(self, hook: m.Hook) -> bool:
        """Whether a hook may stop for a decision (then it runs as blocks, see :meth:`_hook_blocks`)."""
        return any(self.waits(s) for s in hook.body)

    def _hook_blocks(self, dp: DecisionPoint, st: m.Tricks) -> None:
        """A trick play whose hooks on a card may stop for a decision: those hooks run as blocks
        (their decisions are decisions of the game), from ``dp.extra["hook_block"]`` once a card is
        played (``play_D`` leaves the player in `player`, the card in `card`), each when its
        pattern and guard hold, in order; then the trick goes on (the next player, or the trick
        taken) and control goes back to the trick play's ready block."""
        lay = self.lay
        d = dp.id
        who, what = lay.slot("player"), lay.slot("card")
        resume = self.block(dp.line, "after the hooks on a card: the trick goes on")
        r = resume.w
        r.line("p = c.tr_p[c.tr_n - 1]")
        r.line("nxt = _next_with_cards(c, p)")
        r.line("if nxt == c.tr_leader or nxt == p or c.tr_pm >> nxt & 1:")
        r.line(f"    finish_{d}(c)")
        r.line("else:")
        r.line("    c.tr_turn = nxt")
        r.line(f"return {lit(dp.extra['ready'])}")
        nxt = resume.id
        for hook in reversed([h for h in st.hooks if h.event in ("playing", "leading")]):
            saved = dict(self.context)
            self.context["player"] = PLAYER
            self.context["card"] = CARD
            self.line = hook.span.line
            test = self.ex.cond(hook.guard)
            if test is not False:  # (False: switched off by an option)
                assert hook.pattern is not None  # pragma: no cover - the grammar gives one
                b = self.block(hook.span.line, f"after {hook.event}")
                cond = f"PAT[{lit(lay.pattern(hook.pattern))} * NT + c.ti] & BIT[c.v[{lit(what)}]]"
                if hook.event == "leading":
                    cond = f"c.tr_n == 1 and {cond}"
                if test is not True:
                    cond = f"({cond}) and ({test})"
                b.w.line(f"if {cond}:")
                self.hook_names = frozenset(("player", "card"))
                with b.w.indented():
                    self.seq(hook.body, b.w, nxt)
                self.hook_names = frozenset()
                b.w.line(f"return {lit(nxt)}")
                nxt = b.id
            self.context = saved
        dp.extra["hook_block"] = nxt
        dp.extra["hook_slots"] = (who, what)

    def _trick_hooks_first(self, w: Writer, dp: DecisionPoint, st: m.Tricks) -> None:
        """Into the trick play's ready block: when a trick was just taken and its hooks may decide,
        they run first (:meth:`_trick_hook_blocks`); nothing for a trick play whose hooks do not."""
        self._trick_hook_blocks(dp, st)
        if "trick_hooks" in dp.extra:
            first, pending, _ = dp.extra["trick_hooks"]
            w.line(f"if c.v[{lit(pending)}] == 1:")
            w.line(f"    c.v[{lit(pending)}] = 2")
            w.line(f"    return {lit(first)}")

    def _trick_hook_blocks(self, dp: DecisionPoint, st: m.Tricks) -> None:
        """A trick play whose `after each trick:` hooks may stop for a decision: once a trick is
        taken, ``finish_D`` leaves the trick's cards and players as they are (the trick's names
        still describe it; the state shows no trick in progress: :func:`pending_trick`), keeps
        its winner and sets the slot ``<trick taken>``; the ready block then runs the hooks as
        blocks, in order, each when its guard holds, and the last block starts the next trick
        (led by the winner) and goes back to the ready block. `end the play` in one makes the
        trick just taken the last and goes on with the next hook. Nothing is written for a
        trick play whose hooks after a trick do not decide (they run in ``finish_D``)."""
        hooks = [h for h in st.hooks if h.event == "each_trick"]
        if not any(self._waits(h) for h in hooks):
            return
        lay = self.lay
        pending, winner = lay.slot("<trick taken>"), lay.slot("<trick winner>")
        nxt_trick = self.block(dp.line, "after the hooks of a trick: the next trick")
        r = nxt_trick.w
        r.line(f"c.v[{lit(pending)}] = 0")
        r.line("c.tr_no += 1")
        r.line("c.tr_n = 0")
        r.line("c.tr_pm = 0")
        r.line(f"c.tr_leader = c.v[{lit(winner)}]")
        r.line(f"c.tr_turn = c.v[{lit(winner)}]")
        r.line("c.window = -1")
        r.line(f"return {lit(dp.extra['ready'])}")
        nxt = nxt_trick.id
        for hook in reversed(hooks):
            self.line = hook.span.line
            test = self.ex.cond(hook.guard)
            if test is False:
                continue  # (switched off by an option)
            b = self.block(hook.span.line, "after each trick")
            self.hook_exit = nxt
            if test is True:
                self.seq(hook.body, b.w, nxt)
            else:
                b.w.line(f"if {test}:")
                with b.w.indented():
                    self.seq(hook.body, b.w, nxt)
                b.w.line(f"return {lit(nxt)}")
            nxt = b.id
        self.hook_exit = -1
        dp.extra["trick_hooks"] = (nxt, pending, winner)

    def visit_EndPlay(self, st: m.EndPlay, w: Writer) -> bool:  # noqa: N802 - one method per statement
        """`end the play` in an `after each trick:` hook run as blocks: the trick just taken is the
        trick play's last; the hook ends (the next hook, or the next trick's block, follows)."""
        w.line("c.tr_total = c.tr_no + 1")
        w.line(f"return {lit(self.hook_exit)}")
        return False

    def _after_card(self, f: Writer, d: int, st: m.Tricks) -> bool:
        """``after_card_D(c, p, card, i)``: the `after playing` and `after leading` hooks of a trick
        play, in their order, for the card just played (``i``: its place in the trick). Returns
        whether there are any (else nothing is written, and trick play calls nothing)."""
        hooks = [(k, h) for k, h in enumerate(st.hooks) if h.event in ("playing", "leading")]
        if any(self._waits(h) for _, h in hooks):
            return False  # (they run as blocks: _hook_blocks)
        written = []
        for k, hook in hooks:
            if self._hook(f, f"hook_{d}_{k}", hook, on_card=True):
                written.append((k, hook))
        if not written:
            return False
        with f.block(f"def after_card_{d}(c: Core, p: cython.int, card: cython.int, i: cython.int) -> None:"):
            for k, hook in written:
                assert hook.pattern is not None  # pragma: no cover - the grammar gives one
                f.comment(f"line {hook.span.line}: after {hook.event}")
                test = f"PAT[{lit(self.lay.pattern(hook.pattern))} * NT + c.ti] & BIT[card]"
                if hook.event == "leading":
                    test = f"i == 0 and {test}"
                f.line(f"if {test}:")
                f.line(f"    hook_{d}_{k}(c, p, card)")
                f.line("    if c.terminal:")
                f.line("        return")
        return True

    def _after_trick(self, f: Writer, d: int, st: m.Tricks) -> None:
        """``after_trick_D(c)``: the `after each trick:` hooks of a trick play, in their order, run when
        a trick is complete, before the next is led (the trick's names read the finished trick);
        none when they run as blocks (:meth:`_trick_hook_blocks`)."""
        hooks = [h for h in st.hooks if h.event == "each_trick"]
        if not hooks or any(self._waits(h) for h in hooks):
            return
        written = [k for k, h in enumerate(st.hooks)
                   if h.event == "each_trick" and self._hook(f, f"hook_{d}_{k}", h, on_card=False)]
        with f.block(f"def after_trick_{d}(c: Core) -> None:"):
            f.line("pass")
            for k in written:
                f.comment(f"line {st.hooks[k].span.line}: after each trick")
                f.line(f"hook_{d}_{k}(c)")
                f.line("if c.terminal:")
                f.line("    return")
