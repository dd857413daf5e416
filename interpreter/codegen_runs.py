"""The generated run of trick play for random playouts (:meth:`interpreter.State.playout`):
one function plays card after card, each drawn uniformly among the legal plays exactly as
the random step draws it, without a call a card.

The hands are kept as bitmasks in the run's locals, each card's bit at its place in the
order the legal actions list the cards under the trump (so the ``i``-th legal play is the
``i``-th bit set); the obligations narrow the mask of the player's hand with per-(trump,
suit led) masks, in the order and with the tests of the generated legal plays
(:mod:`interpreter.codegen_tricks`). Playing a card and taking a trick are the same lines
as ``fast_play``'s (with the trump's tables, the trick's lists and the logs' appends in
locals, read when the run starts), and a declaration offered beside the cards is drawn
among them, as the step draws it, and made by the generic method. The run stops, leaving
the rest to the step, when a window is open at its start or opened by a card played (the
only generic call in a card's play, after which the trump is checked too), a hand is
empty, ``room`` actions are taken (the caller's checkpoints fall between runs), or after
a declaration; at the end of
trick play it takes the steps up to the next decision itself, as the step does. Each
action is logged once taken, those steps included; a failure leaves the caller to roll
back (see ``State._rolled_back``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from .cards import NO_TRUMP
from .codegen_base import any_mask, trump_masks
from .legal import BITS, randbelow

if TYPE_CHECKING:
    from .codegen_tricks import TricksGen


def possible(gen: TricksGen) -> bool:
    """Whether trick play can run as one function: the trump is not set by the first card
    led, and every trump lists the cards in an order without ties."""
    if gen.ins.sets_trump:
        return False
    return all(len(set(row)) == len(row) for row in gen.prog.tables.order)


class TrickRunGen:
    """Writes ``t<pc>_run`` (see the module's docstring) for a :class:`TricksGen`."""

    def __init__(self, gen: TricksGen) -> None:
        self.t, self.w, self.prog, self.ins = gen, gen.w, gen.prog, gen.ins
        t = self.prog.tables
        # the cards in the listed order under each trump index (the last: no trump)
        self.places = [sorted(range(t.size), key=row.__getitem__) for row in t.order]
        self.place = [[0] * t.size for _ in self.places]
        for ti, cards in enumerate(self.places):
            for i, c in enumerate(cards):
                self.place[ti][c] = i

    def placed(self, ti: int, cards: int) -> int:
        """A mask of cards as the mask of their places in the listed order under trump ti."""
        return sum(1 << self.place[ti][c] for c in range(len(self.place[ti])) if cards >> c & 1)

    def per_trump(self, name: str, masks: list[int] | tuple[int, ...]) -> str:
        """Write the placed masks of ``masks`` (one per trump index)."""
        return self.w.const(self.t.name(name), tuple(self.placed(ti, m) for ti, m in enumerate(masks)))

    def write(self) -> str:
        w, t, ins, name = self.w, self.prog.tables, self.ins, self.t.name
        n = self.t.nt
        w.rule_line(ins.line, "trick play run for random playouts (cards as places in the listed order)")
        # a card's placed bit, per trump: the __getitem__ of a tuple (no dunder in the source)
        w.obj(name("RBIT"), tuple(tuple(1 << i for i in row).__getitem__ for row in self.place))
        w.const(name("RCARD"), tuple(tuple(cards) for cards in self.places))
        follow = [[sum(1 << c for c in range(t.size) if t.eff_suit[ti][c] == led) for led in range(t.nsuits)]
                  for ti in range(n)]
        trumps = [sum(1 << c for c in range(t.size) if ti < t.nsuits and t.eff_suit[ti][c] == ti) for ti in range(n)]
        w.const(name("RFOLLOW"), tuple(tuple(self.placed(ti, m) for m in row) for ti, row in enumerate(follow)))
        w.const(name("RTRUMPS"), tuple(self.placed(ti, m) for ti, m in enumerate(trumps)))
        if ins.may_trump:
            w.const(name("RFOLLOWTRUMP"), tuple(tuple(self.placed(ti, m | trumps[ti]) for m in row)
                                                for ti, row in enumerate(follow)))
        if any(ob.kind == "beat_if_able" for ob in ins.chain):
            w.const(name("RBEAT"), tuple(tuple(tuple(
                self.placed(ti, sum(1 << d for d in range(t.size) if per_led[led][d] > per_led[led][c]))
                for c in range(t.size)) for led in range(t.nsuits)) for ti, per_led in enumerate(t.power)))
        self._pattern_masks()
        w.obj(name("Random"), random.Random)
        self.t.obj("randbelow", randbelow)
        w.const(name("BITS"), tuple(BITS))
        # the tables the run reads, a row per trump index (one unpacking when a run starts)
        w.line(f"{name('RTABLES')} = (")
        for ti in range(n):
            w.line("    (" + "".join(f"{name(t)}[{ti}], " for _, t in self._tables()) + "),")
        w.line(")")
        fn = name("run")
        with w.block(f"def {fn}(core, rng, room, log_action, log_actor):"):
            self._start()
            with w.block("while taken < room:"):
                self._choose_card()
                self._play()
            w.line("return taken")
        return fn

    def _pattern_masks(self) -> None:
        ins, prog, n = self.ins, self.prog, self.t.nt
        for pat, _ in ins.lead_rules:
            self.per_trump(f"RLEAD{pat}", trump_masks(prog.lead_patterns[pat]))
        for i, ob in enumerate(ins.obligations):
            if ob.test is not None:
                self.per_trump(f"ROB{i}", trump_masks(ob.test))
        before = [d.test for d in ins.declarations if not d.after_lead]
        self.per_trump("RDECLARE", [any_mask(before, ti) for ti in range(n)])

    def _start(self) -> None:
        """The run's locals: the draw, the trump's tables, the hands as placed masks."""
        w, prog, name = self.w, self.prog, self.t.name
        w.line("ti = core.ti")
        w.line(f"getrandbits = rng.getrandbits if type(rng) is {name('Random')} else None")
        w.line(", ".join(local for local, _ in self._tables()) + f" = {name('RTABLES')}[ti]")
        w.line(f"plays = {name('PLAY')}")
        w.line("zones = core.zones")
        hands = ", ".join(f"sum(map(bit, zones[{int(prog.hand) + q}]))" for q in range(prog.n))
        w.line(f"masks = [{hands}]  # (the bits differ: their sum is their union)")
        w.line("taken = 0")
        if self.t.windows:  # (a window opened by a card played stops the run: see TricksGen.play_card)
            with w.block(f"if core.vars[{self.ins.window_slot}] is not None:"):
                w.line("return taken")
        # the trick's lists (set anew when a trick is taken)
        w.line("cards = core.tr_cards")
        w.line("players = core.tr_players")
        w.line("played = core.played")
        w.line("log_event = core.events.append")
        w.line("tr_base = (core.tr_no + 1) << 15  # a card's event: the trick's number, the card, the seat")

    def _tables(self) -> list[tuple[str, str]]:
        """The per-trump tables the run reads, as (local, table) pairs."""
        ins = self.ins
        out = [("bit", "RBIT"), ("card_at", "RCARD"), ("eff", "EFF"), ("follow_t", "RFOLLOW"),
               ("trumps_t", "RTRUMPS"), ("power_t", "POWER"), ("declare_t", "RDECLARE")]
        if ins.may_trump:
            out.append(("followtrump_t", "RFOLLOWTRUMP"))
        if any(ob.kind == "beat_if_able" for ob in ins.chain):
            out.append(("beat_t", "RBEAT"))
            if self.prog.n > 2:
                out.append(("powerkey_t", "POWERKEY"))
        if self.t.windows:
            out.append(("after_t", "AFTER"))
        return out

    def _choose_card(self) -> None:
        """The lines that leave in ``card`` a legal play of ``p`` drawn as the random step
        draws it (or return, leaving the rest to the step)."""
        w, ins, name = self.w, self.ins, self.t.name
        w.line("p = core.tr_turn")
        w.line("hm = masks[p]")
        w.line("am = hm")
        with w.block("if not cards:"):
            self._lead()
        with w.block("else:"):
            self._follow()
        if any(not d.after_lead for d in ins.declarations):
            cond = " and not played[p]" if ins.only_before_first_card else ""
            w.line("k = n = am.bit_count()")
            with w.block(f"if declare_t & hm{cond}:"):  # a card a declaration names is held
                w.line(f"offered = {name('GENERIC')}.available_declarations(core, p)")
                w.line("n += len(offered)")
        else:
            w.line("n = am.bit_count()")
        with w.block("if not n:"):
            w.line("return taken")
        with w.block("if getrandbits is not None and n < 256:"):  # randbelow's draw, inlined
            w.line(f"bits = {name('BITS')}[n]")
            w.line("i = getrandbits(bits)")
            with w.block("while i >= n:"):
                w.line("i = getrandbits(bits)")
        with w.block("else:"):
            w.line(f"i = {name('randbelow')}(rng, n)")
        if any(not d.after_lead for d in ins.declarations):
            with w.block("if i >= k:"):  # a declaration (offered), listed after the cards: made as the step makes it
                w.line("action = offered[i - k].action")
                w.line(f"{name('TRICKS')}.apply({name('GENERIC')}, core, action)")
                w.line(f"{name('PROG')}.advance(core)")
                w.line("log_action(action)")
                w.line("log_actor(p)")
                w.line("return taken + 1  # (its effects may have moved cards: the hands' masks are built again)")
        with w.block("while i:"):  # the i-th place set
            w.line("am &= am - 1")
            w.line("i -= 1")
        w.line("b = (am & -am).bit_length() - 1")
        w.line("card = card_at[b]")
        w.line("masks[p] = hm ^ 1 << b")

    def _narrow(self, mask: str, keep: bool, flag: str = "") -> None:
        """``am`` narrowed to its cards in ``mask`` (``keep``) or not, when some, not all, are left."""
        w = self.w
        w.line(f"nm = am & {mask}" if keep else f"nm = am & ~{mask}")
        with w.block("if nm and nm != am:"):
            w.line("am = nm")
            if flag:
                w.line(f"{flag} = True")

    def _guard(self, fn: object, what: str) -> str:
        """The source of a guard's test (a call of the closure, handed to the module once)."""
        return "True" if fn is None else self.t.obj(what, fn) + "(core)"

    @contextmanager
    def _guarded(self, fn: object, what: str) -> Iterator[None]:
        """The lines written inside run under the guard (all of them when there is none)."""
        if fn is None:
            yield
            return
        with self.w.block(f"if {self._guard(fn, what)}:"):
            yield

    def _lead(self) -> None:
        w, ins, name = self.w, self.ins, self.t.name
        if not ins.lead_rules and not ins.lead_chain:
            w.line("pass  # leading is free")
            return
        for j, (pat, guard) in enumerate(ins.lead_rules):
            cond = f"not core.broken[{int(pat)}]"
            if guard is not None:
                cond += f" and {self._guard(guard, f'GLEAD{j}')}"
            with w.block(f"if {cond}:"):
                self._narrow(f"{name(f'RLEAD{pat}')}[ti]", False)
        if ins.lead_chain:
            with w.block("if core.tr_no == 0:"):
                for ob in ins.lead_chain:
                    i = ins.obligations.index(ob)
                    with self._guarded(ob.guard, f"G{i}"):
                        self._narrow(f"{name(f'ROB{i}')}[ti]", ob.kind == "lead_first")

    def _follow(self) -> None:
        w, ins = self.w, self.ins
        w.line("led = eff[cards[0]]")
        w.line("fol = hm & follow_t[led]")
        w.line("tif = False")
        first = True
        for ob in ins.chain:
            i = ins.obligations.index(ob)
            if ob.kind not in ("follow_suit", "trump_if_void", "not_first_trick", "beat_if_able"):
                continue  # the generic chain ignores other kinds too
            with self._guarded(ob.guard, f"G{i}"):
                self._obligation(ob.kind, i, first)
            first = False

    def _obligation(self, kind: str, i: int, first: bool) -> None:
        w, ins, name = self.w, self.ins, self.t.name
        if kind == "follow_suit":
            with w.block("if fol:"):
                if first and not ins.may_trump:
                    w.line("am = fol")
                elif ins.may_trump:
                    tests = [self._guard(o.guard, f"GMAY{ins.obligations.index(o)}") for o in ins.may_trump]
                    may = "True" if "True" in tests else " or ".join(tests)
                    w.line(f"may = core.trump != {NO_TRUMP} and led != core.trump and ({may})")
                    self._narrow("(followtrump_t[led] if may else follow_t[led])", True)
                else:
                    self._narrow("follow_t[led]", True)
        elif kind == "trump_if_void":
            with w.block(f"if not fol and core.trump != {NO_TRUMP}:"):
                self._narrow("trumps_t", True, "tif")
        elif kind == "not_first_trick":
            with w.block("if core.tr_no == 0:"):
                self._narrow(f"{name(f'ROB{i}')}[ti]", False)
        else:  # beat_if_able: the strongest card played (the one led, with two players)
            with w.block("if fol or tif:"):
                w.line(self.t.strongest_played("powerkey_t[led]"))
                self._narrow("beat_t[led][top]", True)

    def _play(self) -> None:
        """``fast_play``'s lines for ``card``, each card logged once played and, when it ends
        trick play, once the steps up to the next decision are taken (as the step logs an
        action once ``Program.advance`` is done: a failure there undoes the card too)."""
        w, name = self.w, self.t.name
        logged = ["log_action(plays[card])", "log_actor(p)", "taken += 1"]
        self.t.play_card([*logged, "continue"], run=True)
        self.t.finish_body(run=True)
        w.line("core.steps = 1  # (as the step counts: the card played)")
        advance = f"{name('PROG')}.advance(core, 1)"  # the steps up to the next decision, as the step takes them
        self.t.ready_after_trick([advance, *logged, "return taken"], logged,
                                 [f"if not {name('TRICKS')}.ready({name('GENERIC')}, core):", "    " + advance,
                                  *logged, "return taken"])
