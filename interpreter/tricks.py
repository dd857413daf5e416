"""Trick play: the legal-play chain (obligations), declarations, and taking tricks."""

from __future__ import annotations

from collections.abc import Callable

from . import events as ev
from . import windows
from .actions import Action
from .cards import NO_TRUMP
from .core import Core
from .dealing import set_trump
from .errors import RuleRuntimeError
from .flow import Instruction
from .legal import LegalActions
from .program import Fn, Program


class Obligation:
    __slots__ = ("kind", "guard", "laws", "test", "line")

    def __init__(self, kind: str, guard: Fn | None, laws: tuple[str, ...], test: list[list[bool]] | None = None,
                 line: int = 0) -> None:
        self.kind = kind
        self.guard = guard
        self.laws = laws
        self.test = test  # the pattern's table, for lead_first and not_first_trick
        self.line = line  # the rule line (for the generated code's comments)


class Declaration:
    __slots__ = ("name", "test", "before_first_card", "guard", "effects", "laws", "action", "slot", "after_lead")

    def __init__(self, name: str, test: list[list[bool]], before_first_card: bool, guard: Fn | None,
                 effects: Callable[[Core], None], laws: tuple[str, ...], slot: int) -> None:
        self.name = name
        self.test = test
        self.before_first_card = before_first_card
        self.guard = guard
        self.effects = effects
        self.laws = laws
        self.action = Action("declare", (name,))
        self.slot = slot
        self.after_lead = False  # `after leading it`: see interpreter/windows.py


class Tricks(Instruction):
    decision = True

    def __init__(self, prog: Program, count: Fn, leader: Fn, obligations: list[Obligation],
                 lead_rules: list[tuple[int, Fn | None]], declarations: list[Declaration]) -> None:
        super().__init__(prog)
        self.count = count
        self.leader = leader
        self.obligations = obligations
        self.may_trump = [o for o in obligations if o.kind == "may_trump"]
        self.sets_trump = [o for o in obligations if o.kind == "first_lead_trump"]
        self.lead_chain = [o for o in obligations if o.kind in ("lead_first", "not_first_trick")]
        self.chain = [o for o in obligations if o.kind not in ("may_trump", "first_lead_trump", "lead_first")]
        self.lead_rules = lead_rules
        self.declarations = declarations
        self.only_before_first_card = all(d.before_first_card or d.after_lead for d in declarations)
        self.window_slot = -1  # set by the compiler: the owner of an open `after leading it` window
        self.lead_lines: list[int] = [0] * len(lead_rules)  # set by the compiler: the lead rules' lines
        self.play_actions = [Action("play", (code,), i) for i, code in enumerate(prog.tables.codes)]
        self.next_seat = [(p + 1) % prog.n for p in range(prog.n)]
        # Leading is free of obligations after the first trick (or always): no chain to walk.
        self.free_lead_after_first = not lead_rules
        self.free_lead = not lead_rules and not self.lead_chain

    def ready(self, core: Core) -> bool:
        prog = self.prog
        if not core.tr_active:
            core.tr_active = True
            core.tr_total = self.count(core)
            core.tr_no = 0
            leader = self.leader(core)
            if not isinstance(leader, int) or not 0 <= leader < prog.n:
                raise RuleRuntimeError(f"line {self.line}: nobody to lead the first trick")
            core.tr_leader = core.tr_turn = leader
            core.tr_cards = []
            core.tr_players = []
        if not core.tr_cards:
            hands = core.zones[prog.hand: prog.hand + prog.n]
            if core.tr_no >= core.tr_total or not any(hands):
                core.tr_active = False
                core.pc += 1
                return False
            if not hands[core.tr_turn]:
                core.tr_turn = self._next_with_cards(core, core.tr_turn)
        elif not core.zones[prog.hand + core.tr_turn]:
            # The player to play has no card left (e.g. after an irregularity):
            # he is passed over, and the trick ends when nobody else can play to it.
            nxt = self._next_with_cards(core, core.tr_turn)
            if nxt == core.tr_turn or nxt in core.tr_players:
                self._finish_trick(core)
                return self.ready(core)
            core.tr_turn = nxt
        return True

    def _next_with_cards(self, core: Core, p: int) -> int:
        zones, hand, nxt = core.zones, self.prog.hand, self.next_seat
        q = nxt[p]
        while q != p:
            if zones[hand + q]:
                return q
            q = nxt[q]
        return q if zones[hand + q] else p

    def actor(self, core: Core) -> int:
        held = windows.owner(self, core)
        return core.tr_turn if held is None else held

    def allowed_cards(self, core: Core, p: int) -> tuple[list[int], list[str]]:
        """The cards p may play now, and the obligations that narrowed the choice."""
        hand = core.zones[self.prog.hand + p]
        allowed, why = self._allowed_follows(core, hand) if core.tr_cards else self._allowed_leads(core, hand)
        return sorted(allowed, key=self.prog.tables.order[core.ti].__getitem__), why

    def _allowed_leads(self, core: Core, hand: list[int]) -> tuple[list[int], list[str]]:
        """The cards that may lead the trick (unsorted), by the lead rules and, to the
        first trick, the lead chain; and the obligations that narrowed them."""
        prog = self.prog
        ti = core.ti
        why: list[str] = []
        allowed = hand
        for pat_index, guard in self.lead_rules:
            if core.broken[pat_index] or (guard is not None and not guard(core)):
                continue
            test = prog.lead_patterns[pat_index][ti]
            rest = [c for c in allowed if not test[c]]
            if rest and len(rest) < len(allowed):
                allowed = rest
                why.append("lead_until_broken")
        if core.tr_no == 0:
            for ob in self.lead_chain:
                if ob.guard is not None and not ob.guard(core):
                    continue
                assert ob.test is not None
                t = ob.test[ti]
                if ob.kind == "lead_first":
                    narrowed = [c for c in allowed if t[c]]
                else:
                    narrowed = [c for c in allowed if not t[c]]
                if narrowed and len(narrowed) < len(allowed):
                    allowed = narrowed
                    why.append(ob.kind)
        return allowed, why

    def _allowed_follows(self, core: Core, hand: list[int]) -> tuple[list[int], list[str]]:
        """The cards that may follow to the trick (unsorted), by the obligations of the
        chain; and the obligations that narrowed them."""
        tables = self.prog.tables
        ti = core.ti
        why: list[str] = []
        eff = tables.eff_suit[ti]
        trump = core.trump
        led = eff[core.tr_cards[0]]
        follow = [c for c in hand if eff[c] == led]
        allowed = hand
        for ob in self.chain:
            if ob.guard is not None and not ob.guard(core):
                continue
            kind = ob.kind
            if kind == "follow_suit":
                if follow:
                    may = trump != NO_TRUMP and led != trump and any(
                        o.guard is None or o.guard(core) for o in self.may_trump
                    )
                    narrowed = [c for c in allowed if eff[c] == led or (may and eff[c] == trump)] if may else [
                        c for c in allowed if eff[c] == led]
                    if narrowed and len(narrowed) < len(allowed):
                        allowed = narrowed
                        why.append("follow_suit")
            elif kind == "trump_if_void":
                if not follow and trump != NO_TRUMP:
                    trumps = [c for c in allowed if eff[c] == trump]
                    if trumps and len(trumps) < len(allowed):
                        allowed = trumps
                        why.append("trump_if_void")
            elif kind == "not_first_trick":
                if core.tr_no == 0:
                    assert ob.test is not None
                    t = ob.test[ti]
                    rest = [c for c in allowed if not t[c]]
                    if rest and len(rest) < len(allowed):
                        allowed = rest
                        why.append("not_first_trick")
            elif kind == "beat_if_able":
                # Beating is a duty of a player who follows suit, or who must trump
                # (then he must over-trump if he can); a void player free to
                # discard is not made to trump by it.
                if not follow and "trump_if_void" not in why:
                    continue
                power = tables.power[ti][led]
                best = max(power[c] for c in core.tr_cards)
                winners = [c for c in allowed if power[c] > best]
                if winners and len(winners) < len(allowed):
                    allowed = winners
                    why.append("beat_if_able")
        return allowed, why

    def _power(self, c: int, led: int, ti: int, trump: int) -> int:
        return self.prog.tables.power[ti][led][c]

    def available_declarations(self, core: Core, p: int) -> list[Declaration]:
        out: list[Declaration] = []
        names: set[str] = set()
        hand = core.zones[self.prog.hand + p]
        for d in self.declarations:
            if d.after_lead or d.name in names or (d.name, p) in core.declared:
                continue
            if not windows.guard_holds(core, d, p):
                continue
            if d.before_first_card and core.played[p]:
                continue
            test = d.test[core.ti]
            if any(test[c] for c in hand):
                out.append(d)
                names.add(d.name)
        return out

    def legal(self, core: Core) -> LegalActions:
        held = windows.owner(self, core)
        if held is not None:
            return LegalActions(tuple(windows.legal(self, core, held)))
        p = core.tr_turn
        if not core.tr_cards and (self.free_lead or (self.free_lead_after_first and core.tr_no)):
            cards = sorted(core.zones[self.prog.hand + p], key=self.prog.tables.order[core.ti].__getitem__)
        else:
            cards, _ = self.allowed_cards(core, p)
        acts = self.play_actions
        out = [acts[c] for c in cards]
        if self.declarations and not (self.only_before_first_card and core.played[p]):
            out.extend(d.action for d in self.available_declarations(core, p))
        return LegalActions(tuple(out))

    def apply(self, core: Core, action: Action) -> None:
        prog = self.prog
        held = windows.owner(self, core)
        if held is not None:
            windows.apply(self, core, held, action)
            return
        p = core.tr_turn
        if action.verb == "declare":
            for d in self.available_declarations(core, p):
                if d.name == action.args[0]:
                    core.declared.add((d.name, p))
                    prog.emit(core, {"type": "declare", "player": p, "name": d.name, **({"laws": list(d.laws)} if d.laws else {})})
                    core.vars[d.slot] = p
                    d.effects(core)
                    return
            return  # pragma: no cover - legality was checked by the caller
        card = action.card
        if self.sets_trump and core.trump == NO_TRUMP and core.tr_no == 0 and not core.tr_cards:
            set_trump(prog, core, prog.tables.suit[card], p, self.sets_trump[0].laws)
        core.zones[prog.hand + p].remove(card)
        core.tr_cards.append(card)
        core.tr_players.append(p)
        core.played[p] = True
        core.events.append(ev.play(p, card, core.tr_no + 1))  # Program.emit's work, inlined: the hottest event
        if len(core.tr_cards) == 1 and self.window_slot >= 0:
            windows.after_play(self, core, p)
        nxt = self._next_with_cards(core, p)
        if nxt == core.tr_leader or nxt == p or nxt in core.tr_players:
            self._finish_trick(core)
        else:
            core.tr_turn = nxt

    def _finish_trick(self, core: Core) -> None:
        prog = self.prog
        cards = core.tr_cards
        power = prog.tables.power[core.ti][prog.tables.eff_suit[core.ti][cards[0]]]
        best, top = 0, power[cards[0]]
        for i in range(1, len(cards)):  # the first of the strongest wins
            if power[cards[i]] > top:
                best, top = i, power[cards[i]]
        winner = core.tr_players[best]
        won = prog.won + (prog.side_of[winner] if prog.won_kind == "side" else winner)
        core.zones[won].extend(cards)
        core.tricks_won[winner] += 1
        if prog.holders:  # who took each card: kept only where a rule reads it (`taker of`)
            taken_by = core.taken_by
            for c in cards:
                taken_by[c] = winner
        for pat_index, _ in self.lead_rules:
            test = prog.lead_patterns[pat_index][core.ti]
            if any(test[c] for c in cards):
                core.broken[pat_index] = True
        prog.emit(core, (ev.TRICK, core.tr_no + 1, winner, tuple(cards), tuple(core.tr_players)))
        core.tr_no += 1
        core.tr_cards = []
        core.tr_players = []
        core.tr_leader = core.tr_turn = winner
        if self.window_slot >= 0:
            core.vars[self.window_slot] = None  # a window closes with its trick

    def phase(self, core: Core) -> str:
        return "play"
