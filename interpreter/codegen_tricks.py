"""The generated code of trick play (see :mod:`interpreter.codegen`, which calls
:class:`TricksGen` for each ``Tricks`` instruction): getting a trick ready, who is to act,
the legal plays (as actions, and as cards for the random step), playing a card, taking
the trick. Cards are small ints; the legal plays come from per-(trump, suit led)
bitmasks, the winner of a trick from per-(trump, suit led) strength tables, both written
into the module as literals. No text of the rule file reaches the source (see codegen).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import filterfalse
from typing import TYPE_CHECKING, Any

from . import codegen_deals as deals
from . import codegen_runs as runs
from . import events as ev
from . import tricks as tr
from . import windows
from .cards import NO_TRUMP
from .codegen_base import InstructionGen, any_mask, card_mask, plus, trump_masks
from .dealing import set_trump
from .legal import LegalActions, randbelow
from .program import Program

if TYPE_CHECKING:
    from .codegen import Writer


def _cards(mask: int) -> frozenset[int]:
    """The cards of a mask."""
    return frozenset(c for c in range(mask.bit_length()) if mask >> c & 1)


def _member(mask: int) -> Callable[[int], bool]:
    """Whether a card is one of the mask's (its frozenset's ``__contains__``)."""
    return _cards(mask).__contains__


def _beats(power: list[list[list[int]]], nsuits: int, size: int) -> tuple[tuple[tuple[Callable[[int], bool], ...], ...], ...]:
    """Per trump index, suit led and card: whether a card beats it (the membership test of
    the cards stronger than it; tests of equal sets shared)."""
    shared: dict[frozenset[int], Callable[[int], bool]] = {}

    def beating(row: list[int], c: int) -> Callable[[int], bool]:
        stronger = frozenset(d for d in range(size) if row[d] > row[c])
        return shared.setdefault(stronger, stronger.__contains__)
    return tuple(tuple(tuple(beating(per_led[led], c) for c in range(size)) for led in range(nsuits))
                 for per_led in power)


_OBLIGATIONS = {  # the comment of each obligation (never the rule file's text)
    "follow_suit": "must follow suit", "trump_if_void": "must trump if void", "beat_if_able": "must beat if able",
    "not_first_trick": "may not play it on the first trick", "lead_first": "must lead it first",
}


class TricksGen(InstructionGen):
    """Writes the functions of one trick-play instruction (prefix ``t<pc>_``)."""

    PREFIX = "t"
    ins: tr.Tricks

    def __init__(self, w: Writer, prog: Program, ins: tr.Tricks, pc: int) -> None:
        super().__init__(w, prog, ins, pc)
        t = prog.tables
        self.nt = t.nsuits + 1
        # A window opens only after a card an `after leading it` declaration names.
        self.windows = any(d.after_lead for d in ins.declarations) and ins.window_slot >= 0
        self.first = True

    def guard(self, fn: Callable[..., Any] | None, what: str) -> str:
        """The source of a guard's test (a call of a closure handed to the module)."""
        if fn is None:
            return "True"
        return self.obj(what, fn) + "(core)"  # (once: the legal plays and the random step's cards both test it)

    def write(self) -> list[tuple[int, str, str]]:
        w, ins = self.w, self.ins
        w.line()
        w.rule_line(ins.line, f"trick play (instruction {self.pc})")
        self._tables()
        out = [
            (self.pc, "ready", self._ready()),
            (self.pc, "actor", self._actor()),
            (self.pc, "legal", self._legal()),
            (self.pc, "fast_cards", self._cards()),
            (self.pc, "_finish_trick", self._finish()),
            (self.pc, "fast_play", self._play("step", ready=True)),
            (self.pc, "apply", self._apply(self._play("play", ready=False))),
        ]
        if any(not d.after_lead for d in self.ins.declarations):  # a declaration may be offered beside the cards
            out.append((self.pc, "fast_draw", self._draw()))
            out.append((self.pc, "take", self._take()))
        if runs.possible(self):
            out.append((self.pc, "fast_run", runs.TrickRunGen(self).write()))
        return out

    def _tables(self) -> None:
        w, t, n = self.w, self.prog.tables, self.nt
        w.const(self.name("EFF"), tuple(tuple(row) for row in t.eff_suit))
        follow = tuple(tuple(card_mask([t.eff_suit[ti][c] == led for c in range(t.size)]) for led in range(t.nsuits))
                       for ti in range(n))
        w.const(self.name("FOLLOW"), follow)
        trumps = tuple(card_mask([ti < t.nsuits and t.eff_suit[ti][c] == ti for c in range(t.size)]) for ti in range(n))
        w.const(self.name("TRUMPS"), trumps)
        w.const(self.name("POWER"), tuple(tuple(tuple(row) for row in per_led) for per_led in t.power))
        if self.prog.n > 2:  # the strongest card played: max by these (a row's getter, no dunder in the source)
            w.obj(self.name("POWERKEY"), tuple(tuple(tuple(row).__getitem__ for row in per_led) for per_led in t.power))
        w.const(self.name("NEXT"), tuple((p + 1) % self.prog.n for p in range(self.prog.n)))
        # The sort key of the cards under each trump: none where it is the cards' own order (a
        # list's __getitem__, which sorted calls faster than a tuple's).
        w.obj(self.name("OKEY"), tuple(None if all(row[c] < row[c + 1] for c in range(t.size - 1))
                                       else list(row).__getitem__ for row in t.order))
        w.obj(self.name("PLAY"), tuple(self.ins.play_actions))
        w.obj(self.name("GENERIC"), self.ins)
        w.obj(self.name("TRICKS"), tr.Tricks)  # its methods: the generic paths, looked up when called
        w.obj(self.name("PROG"), self.prog)
        if self.ins.sets_trump:  # the first card led sets the trump
            w.obj(self.name("set_trump"), set_trump)
            w.obj(self.name("SETLAWS"), self.ins.sets_trump[0].laws)
            w.const(self.name("SUIT"), tuple(t.suit))
        if self.windows:
            w.obj(self.name("after_play"), windows.after_play)
        for pat, _ in self.ins.lead_rules:
            w.const(self.name(f"LEAD{pat}"), trump_masks(self.prog.lead_patterns[pat]))
            self._members(f"LEAD{pat}IN", trump_masks(self.prog.lead_patterns[pat]))
            w.obj(self.name(f"LEAD{pat}SET"), tuple(_cards(m) for m in trump_masks(self.prog.lead_patterns[pat])))
        for i, ob in enumerate(self.ins.obligations):
            if ob.test is not None:
                w.const(self.name(f"OB{i}"), trump_masks(ob.test))
                self._members(f"OB{i}IN", trump_masks(ob.test))
        # Tests of a card's membership, for filter: cheaper than a bitmask's test in a loop.
        w.obj(self.name("FOLLOWIN"), tuple(tuple(_member(m) for m in per_ti) for per_ti in follow))
        if self.ins.may_trump:  # the cards of the suit led and the trumps
            w.obj(self.name("FOLLOWTRUMPIN"), tuple(tuple(_member(m | trumps[ti]) for m in per_ti)
                                                    for ti, per_ti in enumerate(follow)))
        self._members("TRUMPSIN", trumps)
        w.obj(self.name("filter"), filter)
        w.obj(self.name("filterfalse"), filterfalse)
        after = [d for d in self.ins.declarations if d.after_lead]
        before = [d for d in self.ins.declarations if not d.after_lead]
        # The cards some declaration names (under each trump): none held, none to declare.
        w.const(self.name("AFTER"), tuple(any_mask([d.test for d in after], ti) for ti in range(n)))
        w.const(self.name("DECLARE"), tuple(any_mask([d.test for d in before], ti) for ti in range(n)))
        w.obj(self.name("DECLARESET"), tuple(_cards(any_mask([d.test for d in before], ti)) for ti in range(n)))
        if any(ob.kind == "beat_if_able" for ob in self.ins.chain):
            w.obj(self.name("BEATIN"), _beats(t.power, t.nsuits, t.size))

    def _members(self, name: str, masks: tuple[int, ...]) -> None:
        """Hand the module one membership test per trump index (see :func:`_member`)."""
        self.w.obj(self.name(name), tuple(_member(m) for m in masks))

    def _narrow_by(self, test: str, keep: bool, what: str) -> None:
        """``allowed`` narrowed to the cards that ``test`` (a membership test) keeps
        (``keep``) or drops, when some, not all, are left."""
        w = self.w
        with w.block("if len(allowed) > 1:"):  # one card is never narrowed away
            w.line(f"narrowed = list({self.name('filter' if keep else 'filterfalse')}({test}, allowed))")
            with w.block("if narrowed and len(narrowed) < len(allowed):"):
                w.line("allowed = narrowed")
                if what:
                    w.line(f"{what} = True")

    # -------------------------------------------------------------- ready / actor
    def _first_trick(self, generic: str) -> None:
        """Trick play's set-up (as ``Tricks.ready``): the count of tricks, then the first
        leader; a leader that is no seat goes to the generic set-up, which names the rule
        line in its error."""
        w, ins = self.w, self.ins
        w.rule_line(ins.line, "trick play begins: the count of tricks and the first leader")
        w.line(f"total = {self.value('COUNT', ins.count)}")
        w.line(f"leader = {self.value('LEADER', ins.leader)}")
        with w.block(f"if type(leader) is not int or not 0 <= leader < {self.prog.n!r}:"):
            w.line(f"return {generic}")
        w.line("core.tr_active = True")
        w.line("core.tr_total = total")
        w.line("core.tr_no = 0")
        w.line("core.tr_leader = core.tr_turn = leader")
        w.line("core.tr_cards = []")
        w.line("core.tr_players = []")

    def _ready(self) -> str:
        """``ready``: whether a player is to act (``fast_play`` has its own lines for the
        moment a trick is taken, see :meth:`ready_after_trick`)."""
        w, prog, fn = self.w, self.prog, self.name("ready")
        with w.block(f"def {fn}(core):"):
            hands = " or ".join(f"zones[{prog.hand + q}]" for q in range(prog.n))
            generic = f"{self.name('TRICKS')}.ready({self.name('GENERIC')}, core)"
            with w.block("if not core.tr_active:"):
                self._first_trick(generic)
            w.line("zones = core.zones")
            with w.block("if not core.tr_cards:"):
                with w.block(f"if core.tr_no >= core.tr_total or not ({hands}):"):
                    w.line("core.tr_active = False")
                    w.line("core.pc += 1")
                    w.line("return False")
                with w.block(f"if not zones[{plus(prog.hand, 'core.tr_turn')}]:"):
                    w.line(f"core.tr_turn = {self.name('GENERIC')}._next_with_cards(core, core.tr_turn)")
            with w.block(f"elif not zones[{plus(prog.hand, 'core.tr_turn')}]:"):
                w.line(f"return {generic}")
            w.line("return True")
        return fn

    def _actor(self) -> str:
        w, fn = self.w, self.name("actor")
        with w.block(f"def {fn}(core):"):
            if self.windows:
                w.line(f"held = core.vars[{self.ins.window_slot}]")
                with w.block("if held is not None:"):
                    w.line(f"return {self.name('TRICKS')}.actor({self.name('GENERIC')}, core)")
            w.line("return core.tr_turn")
        return fn

    # -------------------------------------------------------------- legal plays
    def _legal(self) -> str:
        w, ins, fn = self.w, self.ins, self.name("legal")
        w.obj(self.name("LegalActions"), LegalActions)
        with w.block(f"def {fn}(core):"):
            if self.windows:
                with w.block(f"if core.vars[{ins.window_slot}] is not None:"):
                    w.line(f"return {self.name('TRICKS')}.legal({self.name('GENERIC')}, core)")
            self._allowed(window=False)
            w.obj(self.name("PLAYGET"), ins.play_actions.__getitem__)
            cards_in_order = f"map({self.name('PLAYGET')}, sorted(allowed, key={self.name('OKEY')}[ti]))"
            if not any(not d.after_lead for d in ins.declarations):
                w.line(f"return {self.name('LegalActions')}(tuple({cards_in_order}))")
                return fn
            w.line(f"out = list({cards_in_order})")
            if any(not d.after_lead for d in ins.declarations):
                cond = "not core.played[p]" if ins.only_before_first_card else "True"
                with w.block(f"if {cond}:"):
                    w.line(f"m = {self.name('DECLARE')}[ti]")
                    with w.block("for c in hand:"):
                        with w.block("if m >> c & 1:"):
                            w.line(f"out.extend([d.action for d in {self.name('GENERIC')}.available_declarations(core, p)])")
                            w.line("break")
            w.line(f"return {self.name('LegalActions')}(tuple(out))")
        return fn

    def _draw(self) -> str:
        """``fast_draw``: a legal action drawn as ``legal(core)[randbelow(rng, n)]`` would
        draw it (the cards in order, then the declarations offered), without listing them;
        None when a window is open (the generic listing then)."""
        w, ins, fn = self.w, self.ins, self.name("draw")
        self.obj("randbelow", randbelow)
        w.line("# a legal action drawn as the listed ones would draw it: the cards, then the declarations")
        with w.block(f"def {fn}(core, rng):"):
            self._allowed()
            w.line(f"cards = sorted(allowed, key={self.name('OKEY')}[ti])")
            w.line("offered = ()")
            cond = "not core.played[p]" if ins.only_before_first_card else "True"
            with w.block(f"if {cond} and not {self.name('DECLARESET')}[ti].isdisjoint(hand):"):
                w.line(f"offered = {self.name('GENERIC')}.available_declarations(core, p)")
            w.line("k = len(cards)")
            w.line("n = k + len(offered)")
            with w.block("if not n:"):
                w.line("return None")
            w.line(f"i = {self.name('randbelow')}(rng, n)")
            w.line(f"return {self.name('PLAY')}[cards[i]] if i < k else offered[i - k].action")
        return fn

    def _take(self) -> str:
        """``take``: the drawn action carried out as ``apply`` does; returns who acted."""
        w, fn = self.w, self.name("take")
        with w.block(f"def {fn}(core, action):"):
            w.line(f"p = {self.name('actor')}(core)")
            w.line(f"{self.name('apply')}(core, action)")
            w.line("return p")
        return fn

    def _allowed(self, window: bool = True) -> None:
        """The body that leaves the cards ``p`` may play in ``allowed`` (unsorted); with
        ``window`` it returns None first when a window is open (the generic listing then)."""
        w, prog = self.w, self.prog
        if window and self.windows:
            with w.block(f"if core.vars[{self.ins.window_slot}] is not None:"):
                w.line("return None")
        w.line("p = core.tr_turn")
        w.line(f"hand = core.zones[{plus(prog.hand, 'p')}]")
        w.line("ti = core.ti")
        w.line("cards = core.tr_cards")
        w.line("allowed = hand")
        with w.block("if not cards:"):
            self._lead()
        with w.block("else:"):
            self._follow()

    def _cards(self) -> str:
        """``fast_cards``: the cards that may be played, sorted as the legal actions list
        them, when they are all the legal actions (no window open, no card held that a
        declaration names); else None, and ``fast_draw`` (see :meth:`_draw`) draws among
        the cards and the declarations offered. :meth:`interpreter.State.sample_action`
        draws from them."""
        w, ins, fn = self.w, self.ins, self.name("cards")
        w.line("# the playable cards in order, or None when the legal actions are not only plays")
        with w.block(f"def {fn}(core):"):
            self._allowed()
            if any(not d.after_lead for d in ins.declarations):
                cond = "not core.played[p]" if ins.only_before_first_card else "True"
                # a card a declaration names is held: is one offered (not made yet)?
                with w.block(f"if {cond} and not {self.name('DECLARESET')}[ti].isdisjoint(hand):"):
                    w.line("return None  # a declaration may be offered too: fast_draw draws among all")
            with w.block("if len(allowed) == 1:"):
                w.line("return [allowed[0]]")
            w.line(f"return sorted(allowed, key={self.name('OKEY')}[ti])")
        return fn

    def _lead(self) -> None:
        w, ins = self.w, self.ins
        if not ins.lead_rules and not ins.lead_chain:
            w.line("pass  # leading is free")
            return
        for j, (pat, guard) in enumerate(ins.lead_rules):
            w.rule_line(ins.lead_lines[j], "lead until broken")
            cond = f"not core.broken[{pat}]"
            if guard is not None:
                cond += f" and {self.guard(guard, f'GLEAD{j}')}"
            with w.block(f"if {cond}:"):
                self._narrow_by(f"{self.name(f'LEAD{pat}IN')}[ti]", False, "")
        if ins.lead_chain:
            with w.block("if core.tr_no == 0:"):
                for ob in ins.lead_chain:
                    i = ins.obligations.index(ob)
                    w.rule_line(ob.line, _OBLIGATIONS[ob.kind])
                    with w.block(f"if {self.guard(ob.guard, f'G{i}')}:"):
                        self._narrow_by(f"{self.name(f'OB{i}IN')}[ti]", ob.kind == "lead_first", "")

    def _follow(self) -> None:
        w, ins = self.w, self.ins
        kinds = {ob.kind for ob in ins.chain}
        w.line(f"led = {self.name('EFF')}[ti][cards[0]]")
        if kinds & {"follow_suit", "trump_if_void", "beat_if_able"}:
            w.line(f"follow = list({self.name('filter')}({self.name('FOLLOWIN')}[ti][led], hand))")
        w.line("tif = False")
        self.first = True  # nothing has narrowed `allowed` yet: it is the hand
        for ob in ins.chain:
            i = ins.obligations.index(ob)
            if ob.kind not in ("follow_suit", "trump_if_void", "not_first_trick", "beat_if_able"):
                continue  # the generic chain ignores other kinds too
            w.rule_line(ob.line, _OBLIGATIONS[ob.kind])
            guard = self.guard(ob.guard, f"G{i}")
            if guard == "True":
                getattr(self, "_" + ob.kind)(i)
            else:
                with w.block(f"if {guard}:"):
                    getattr(self, "_" + ob.kind)(i)
            self.first = False

    def _follow_suit(self, i: int) -> None:
        w, ins = self.w, self.ins
        if self.first and not ins.may_trump:  # the cards of the suit led are the ones that follow
            with w.block("if follow:"):  # (all the hand's, in its order, when it holds no other)
                w.line("allowed = follow")
            return
        with w.block("if follow:"):
            if ins.may_trump:
                tests = [self.guard(o.guard, f"GMAY{ins.obligations.index(o)}") for o in ins.may_trump]
                may = "True" if "True" in tests else " or ".join(tests)
                w.line(f"may = core.trump != {NO_TRUMP} and led != core.trump and ({may})")
                # the cards of the suit led, or trumps as well when the player may trump instead
                w.line(f"test = {self.name('FOLLOWTRUMPIN')}[ti][led] if may else {self.name('FOLLOWIN')}[ti][led]")
                self._narrow_by("test", True, "")
            else:
                self._narrow_by(f"{self.name('FOLLOWIN')}[ti][led]", True, "")

    def _trump_if_void(self, i: int) -> None:
        w = self.w
        with w.block(f"if not follow and core.trump != {NO_TRUMP}:"):
            self._narrow_by(f"{self.name('TRUMPSIN')}[ti]", True, "tif")

    def _not_first_trick(self, i: int) -> None:
        w = self.w
        with w.block("if core.tr_no == 0:"):
            self._narrow_by(f"{self.name(f'OB{i}IN')}[ti]", False, "")

    def _beat_if_able(self, i: int) -> None:
        w = self.w
        with w.block("if (follow or tif) and len(allowed) > 1:"):  # (one card is never narrowed away)
            # the strongest card played (one led, the common case: the only one with two players)
            w.line(self.strongest_played(f"{self.name('POWERKEY')}[ti][led]"))
            w.line(f"narrowed = list({self.name('filter')}({self.name('BEATIN')}[ti][led][top], allowed))")
            with w.block("if narrowed and len(narrowed) < len(allowed):"):
                w.line("allowed = narrowed")

    def strongest_played(self, key: str) -> str:
        """The line that sets ``top``, the strongest card on the table (``key``: the source
        of the getter of its strength, when more than one card may be there)."""
        if self.prog.n == 2:  # a follower sees one card: the one led
            return "top = cards[0]"
        return f"top = cards[0] if len(cards) == 1 else max(cards, key={key})"

    # -------------------------------------------------------------- playing a card
    def _apply(self, play: str) -> str:
        w, ins, fn = self.w, self.ins, self.name("apply")
        generic = self.name("GENERIC")
        with w.block(f"def {fn}(core, action):"):
            if self.windows:
                with w.block(f"if core.vars[{ins.window_slot}] is not None:"):
                    w.line(f"return {self.name('TRICKS')}.apply({generic}, core, action)")
            w.line("card = action.card")
            with w.block("if card < 0:"):
                w.line(f"return {self.name('TRICKS')}.apply({generic}, core, action)")
            w.line(f"{play}(core, card)")
        return fn

    def _play(self, what: str, ready: bool) -> str:
        """The player to act plays a legal card (no window open): ``apply``'s work. With
        ``ready`` it is ``fast_play``, which also gets the next trick ready as ``ready``
        does once a trick is taken (``Program.advance``'s first step), and says whether
        the flow must go on: True when trick play is over, False when the next seat is
        to play (ready as he is: his hand holds a card, or the trick was just set up)."""
        w, ins, fn = self.w, self.ins, self.name(what)
        w.line("# a card played" + ("; True when trick play is over" if ready else ""))
        with w.block(f"def {fn}(core, card):"):
            w.line("p = core.tr_turn")
            w.line("cards = core.tr_cards")
            if ins.sets_trump:
                w.line("# the first card led sets the trump")
                with w.block(f"if core.trump == {NO_TRUMP} and core.tr_no == 0 and not cards:"):
                    w.line(f"{self.name('set_trump')}({self.name('PROG')}, core, {self.name('SUIT')}[card], p, "
                           f"{self.name('SETLAWS')})")
            self.play_card(["return False" if ready else "return"])
            if not ready:
                w.line(f"{self.name('finish')}(core)")
                return fn
            self.finish_body()  # `finish` and `ready` written inline: no call a trick
            self.ready_after_trick(["return True"], ["return False"],
                                   [f"return not {self.name('TRICKS')}.ready({self.name('GENERIC')}, core)"])
        return fn

    def play_card(self, next_seat: list[str], run: bool = False) -> None:
        """The lines that play ``card`` from the hand of ``p`` to the trick (``cards``, the
        cards on the table): the lines ``next_seat`` end the step when the trick goes on
        (the next seat to play set); after them the trick is complete. With ``run`` they
        are the playout run's (:mod:`interpreter.codegen_runs`): ``zones``, ``players``,
        ``played``, ``log_event``, ``tr_base`` (the trick's number, shifted as a card's
        event holds it) and ``after_t`` are its locals, and an opened window or a
        changed trump sets ``room`` to 0 (the run stops once the card is logged)."""
        w, prog = self.w, self.prog
        if not run:
            w.line("zones = core.zones")
        w.line(f"zones[{plus(prog.hand, 'p')}].remove(card)")
        w.line("cards.append(card)")
        if not run:
            w.line("players = core.tr_players")
        w.line("players.append(p)")
        w.line("played[p] = True" if run else "core.played[p] = True")
        assert ev.play(1, 2, 3) == 3 << 15 | 2 << 5 | 1  # the entry written below
        w.line("log_event(tr_base | card << 5 | p)" if run else "core.events._tail.append((core.tr_no + 1) << 15 | card << 5 | p)")
        if self.windows:
            after = "after_t" if run else f"{self.name('AFTER')}[core.ti]"
            with w.block(f"if {after} >> card & 1 and len(cards) == 1:"):
                if run:
                    w.line("core.steps = 1")
                w.line(f"{self.name('after_play')}({self.name('GENERIC')}, core, p)")
                if run:
                    w.line("tr_base = (core.tr_no + 1) << 15")
                    with w.block(f"if core.vars[{self.ins.window_slot}] is not None or core.ti != ti:"):
                        w.line("room = 0  # a window opened or the trump changed: the step goes on")
        # the next seat with cards, unless all have played or he has: then the trick is taken
        if prog.n == 2:  # one card played (his): the other seat, if he holds a card and did not lead
            with w.block("if len(players) < 2:"):
                w.line("q = 1 - p")
                with w.block(f"if zones[{plus(prog.hand, 'q')}] and q != core.tr_leader:"):
                    w.line("core.tr_turn = q")
                    for line in next_seat:
                        w.line(line)
            return
        with w.block(f"if len(players) < {int(prog.n)}:"):
            w.line(f"q = {self.name('NEXT')}[p]")
            with w.block(f"while q != p and not zones[{plus(prog.hand, 'q')}]:"):
                w.line(f"q = {self.name('NEXT')}[q]")
            with w.block("if q != core.tr_leader and q != p and q not in players:"):
                w.line("core.tr_turn = q")
                for line in next_seat:
                    w.line(line)

    def ready_after_trick(self, over: list[str], goes_on: list[str], generic: list[str]) -> None:
        """The lines of ``ready`` once a trick is taken (no card on the table, ``winner``
        to lead), written inline after the trick is taken: they end with the lines ``over``
        when trick play is over, ``goes_on`` when the next trick is ready, ``generic`` (which
        ask ``Tricks.ready``) when trick play was stopped meanwhile."""
        w, prog = self.w, self.prog
        with w.block("if not core.tr_active:"):
            for line in generic:
                w.line(line)
        hands = " or ".join(f"zones[{prog.hand + q}]" for q in range(prog.n))
        with w.block(f"if no >= core.tr_total or not ({hands}):"):
            w.line("core.tr_active = False")
            w.line("core.pc += 1")
            for line in over:
                w.line(line)
        with w.block(f"if not zones[{plus(prog.hand, 'winner')}]:"):
            w.line(f"core.tr_turn = {self.name('GENERIC')}._next_with_cards(core, winner)")
        for line in goes_on:
            w.line(line)

    def _finish(self) -> str:
        w, prog, fn = self.w, self.prog, self.name("finish")
        w.const(self.name("SIDE"), tuple(prog.side_of))
        w.line("# the first of the strongest cards takes the trick")
        with w.block(f"def {fn}(core):"):
            w.line("cards = core.tr_cards")
            w.line("players = core.tr_players")
            w.line("zones = core.zones")
            self.finish_body()
        return fn

    def finish_body(self, run: bool = False) -> None:
        """The lines that take the trick (the body of ``finish``, also written inline), with
        the trick's ``cards``, its ``players`` and the ``zones`` in locals; ``winner`` and
        ``no`` (the trick's number) are left in locals. With ``run``, the playout run's
        (its locals ``power_t`` and ``eff``; ``cards``, ``players`` and ``tr_base`` are set anew)."""
        w, prog, ins = self.w, self.prog, self.ins
        if run:
            w.line("power = power_t[eff[cards[0]]]")
        else:
            w.line("ti = core.ti")
            w.line(f"power = {self.name('POWER')}[ti][{self.name('EFF')}[ti][cards[0]]]")
        if prog.n == 2:  # at most two cards: one comparison
            w.line("best = 1 if len(cards) == 2 and power[cards[1]] > power[cards[0]] else 0")
        else:
            w.line("best = 0")
            w.line("top = power[cards[0]]")
            w.line("i = 1")
            with w.block("while i < len(cards):"):
                with w.block("if power[cards[i]] > top:"):
                    w.line("best = i")
                    w.line("top = power[cards[i]]")
                w.line("i += 1")
        w.line("winner = players[best]")
        won = f"{prog.won} + {self.name('SIDE')}[winner]" if prog.won_kind == "side" else f"{prog.won} + winner"
        w.line(f"zones[{won}].extend(cards)")
        w.line("core.tricks_won[winner] += 1")
        if prog.holders:  # who took each card: kept only where a rule reads it (`taker of`)
            w.line("taken_by = core.taken_by")
            with w.block("for c in cards:"):
                w.line("taken_by[c] = winner")
        for pat, _ in ins.lead_rules:
            with w.block(f"if not core.broken[{pat}] and not {self.name(f'LEAD{pat}SET')}[ti].isdisjoint(cards):"):
                w.line(f"core.broken[{pat}] = True")
        w.line("no = core.tr_no + 1")
        # the trick's event, logged as Program.emit logs it (emit itself at a limit, or when hooked)
        deals.emit(w, prog, f"({int(ev.TRICK)}, no, winner, tuple(cards), tuple(players))")
        w.line("core.tr_no = no")
        if run:
            w.line("tr_base = (no + 1) << 15")
        w.line("core.tr_cards = cards = []" if run else "core.tr_cards = []")
        w.line("core.tr_players = players = []" if run else "core.tr_players = []")
        w.line("core.tr_leader = core.tr_turn = winner")
        if ins.window_slot >= 0:
            w.line(f"core.vars[{ins.window_slot}] = None")
