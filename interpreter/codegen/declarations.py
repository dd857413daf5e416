"""A trick play's declarations, written out: what each player may declare before playing
or right after leading (``offered_D``, ``window_D``), making one (``declare_D``) and its
effects, which score, set variables and test conditions in the middle of trick play.
Mixed into :class:`~.tricks.TrickPlay`."""

from __future__ import annotations

from tricklang import model as m

from .parts import Parts
from .writer import Writer, lit, plus

IN_PLAY = (m.Add, m.Expose, m.Melds, m.Joins, m.SetTrump, m.Move)
"""Statements that run in the middle of trick play as they run anywhere (they end no block)."""


class TrickDeclarations(Parts):
    """The declarations of a trick play (see the module docstring)."""

    __slots__ = ()

    def _declarations(self, f: Writer, d: int, decls: list[tuple[m.Declaration, str | bool, int]],
                      declarer: int) -> tuple[list[str], list[str]]:
        """``offered_D(c, p)``: the declarations p may make before playing (a mask of name ids);
        ``window_D(c, p)``: those he may make right after leading; ``declare_D(c, p, k, window)``:
        make one (the first declaration of that name whose conditions hold), and its effects.
        Returns the tests of the declarations offered before playing (for the runner) and of
        those offered right after leading (``window_D``'s, for playing a card: ``p`` the leader)."""
        lay = self.lay
        hand = lay.hand
        conds: list[tuple[m.Declaration, int, str]] = []
        for j, (dcl, test, k) in enumerate(decls):
            pat = f"PAT[{plus(lay.pattern(dcl.holding) * lay.nt, 'c.ti')}]"
            if dcl.deadline == "after_leading_it":
                cond = f"{pat} & BIT[c.tr_c[0]]"
            else:
                cond = f"c.z[{plus(hand, 'p')}] & {pat}"
                if dcl.deadline == "before_first_card":
                    cond += " and not (c.played >> p & 1)"
                elif dcl.deadline == "before_nth_card":  # the cards he played: one a trick he played to
                    assert dcl.card_number is not None  # pragma: no cover - the grammar gives one
                    cond += f" and c.tr_no + (c.tr_pm >> p & 1) < {lit(dcl.card_number)}"
            if test is not True:
                with f.block(f"def guard_{d}_{j}(c: Core, p: cython.int) -> cython.bint:"):
                    f.line(f"saved = c.v[{lit(declarer)}]")
                    f.line(f"c.v[{lit(declarer)}] = p")
                    f.line(f"ok = bool({test})")
                    f.line(f"c.v[{lit(declarer)}] = saved")
                    f.line("return ok")
                cond += f" and guard_{d}_{j}(c, p)"
            conds.append((dcl, k, cond))
        offer_tests = [f"not c.decl >> ({plus(k * lay.n, 'p')}) & 1 and {cond}" for dcl, k, cond in conds
                       if dcl.deadline != "after_leading_it"]
        window_tests = [f"not c.decl >> ({plus(k * lay.n, 'p')}) & 1 and {cond}" for dcl, k, cond in conds
                        if dcl.deadline == "after_leading_it"]
        mask = "object" if len(lay.declaration_names) > 64 else "cython.ulonglong"
        for window in (False, True):
            name = f"window_{d}" if window else f"offered_{d}"
            with f.block(f"def {name}(c: Core, p: cython.int) -> {mask}:"):
                f.line(f"out: {mask} = 0")
                if window:
                    f.line("if c.tr_n != 1 or c.tr_p[0] != p:")
                    f.line("    return out")
                for dcl, k, cond in conds:
                    if (dcl.deadline == "after_leading_it") != window:
                        continue
                    f.line(f"if not out >> {lit(k)} & 1 and not c.decl >> ({plus(k * lay.n, 'p')}) & 1 and {cond}:")
                    f.line(f"    out |= DBIT[{lit(k)}]")
                f.line("return out")
        for j, (dcl, _test, _k) in enumerate(decls):
            inner = Writer()
            with inner.block(f"def effects_{d}_{j}(c: Core) -> None:"):
                inner.line("pass")
                if any(self.waits(s) for s in dcl.body):
                    self._effect_blocks(inner, dcl, d)
                else:
                    self._effects(inner, dcl.body, dcl.cite)
            f.extend(inner)
        self._declare(f, d, declarer, conds)
        return offer_tests, window_tests

    def _effect_blocks(self, w: Writer, dcl: m.Declaration, d: int) -> None:
        """A declaration whose effect may stop for a decision: its body runs as blocks (a decision of
        the game, with its usual actions and events), then trick play goes on where it was. Making
        the declaration leaves the body's first block in the slot ``<declared>``, where the trick
        play's ``apply_D`` goes next (else it goes back to its ready block)."""
        dp = self.lay.dps[d]
        body = self.block(dcl.span.line, f"the effect of declaring {dcl.name}")
        if dcl.cite is not None:  # (a score in it cites the declaration's laws, as its effects do)
            stmts = tuple(st.model_copy(update={"cite": dcl.cite}) if isinstance(st, m.Score) and st.cite is None
                          else st for st in dcl.body)
        else:
            stmts = dcl.body
        self.seq(stmts, body.w, int(dp.extra["ready"]))
        dp.extra["declared"] = self.lay.slot("<declared>")
        w.line(f"c.v[{lit(dp.extra['declared'])}] = {lit(body.id)}")

    def _declare(self, f: Writer, d: int, declarer: int, conds: list[tuple[m.Declaration, int, str]]) -> None:
        """``declare_D(c, p, k, window)``: make the first declaration of name k whose conditions hold."""
        lay = self.lay
        with f.block(f"def declare_{d}(c: Core, p: cython.int, k: cython.int, window: cython.bint) -> None:"):
            f.line("c.decl |= DBIT[k * N + p]")
            f.line(f"c.v[{lit(declarer)}] = p")
            f.line("_ev(c)")
            first = True
            for j, (dcl, k, cond) in enumerate(conds):
                is_window = "window" if dcl.deadline == "after_leading_it" else "not window"
                f.line(f"{'if' if first else 'elif'} k == {lit(k)} and {is_window} and {cond}:")
                first = False
                f.line(f"    if c.rec and c.rec >> DECLARE & 1: c.log.append((DECLARE, p, k, {lit(lay.law(dcl.cite))}))")
                f.line(f"    effects_{d}_{j}(c)")
            if first:
                f.line("pass")


    def _effects(self, w: Writer, stmts: tuple[m.Statement, ...], cite: m.Citation | None,
                 lines: bool = False) -> None:
        """A declaration's or a hook's body: scores, variables, conditions, `for each` loops, `end the play`
        (a hook's), and the statements of :data:`IN_PLAY` (the checker and ``RUNTIME`` see to it)."""

        for st in stmts:
            self.line = st.span.line
            if lines:  # (a hook's statements are named by their rule lines)
                w.comment(f"line {st.span.line}")
            if isinstance(st, m.Score):
                if st.cite is None and cite is not None:
                    st = st.model_copy(update={"cite": cite})
                self.visit_Score(st, w)
                w.line("if c.terminal:")
                w.line("    return")
            elif isinstance(st, m.Let):
                self.visit_Let(st, w)
            elif isinstance(st, m.If):
                for i, (cond, body) in enumerate(st.branches):
                    test = self.ex.cond(cond)
                    w.line(f"{'if' if i == 0 else 'elif'} {test if isinstance(test, str) else lit(test)}:")
                    with w.indented():
                        w.line("pass")
                        self._effects(w, body, cite, lines)
                if st.orelse:
                    w.line("else:")
                    with w.indented():
                        w.line("pass")
                        self._effects(w, st.orelse, cite, lines)
            elif isinstance(st, m.ForEach):  # (each player or side in turn, the body as effects)
                def loop_body(inner: Writer, loop: m.ForEach = st) -> None:
                    self._effects(inner, loop.body, cite, lines)
                self.for_each_inline(st, w, loop_body, st.kind in self.context)  # (a hook's `player`, given back after it)
            elif isinstance(st, m.Pass):
                continue
            elif isinstance(st, m.EndPlay):  # the trick just taken is the trick play's last
                w.line("c.tr_total = c.tr_no + 1")
                w.line("return")
                return
            elif isinstance(st, IN_PLAY):
                self.visit(st, w)
            else:
                raise TypeError(f"line {st.span.line}: a declaration may only score, set variables or test conditions")
