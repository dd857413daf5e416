"""The instructions a compiled deal is made of.

Automatic instructions (``decision = False``) change the core and move ``pc`` on.
Decision instructions (``decision = True``) wait for a player: ``ready`` prepares
them (and may finish them, moving ``pc`` on, when nothing is left to decide),
``actor`` says who decides, ``legal`` lists the actions in a fixed order and
``apply`` carries one out. Nothing here knows any particular game.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .actions import Action
from .cards import NO_TRUMP
from .chance import draw
from .core import Core
from .errors import GameLimitError, RuleRuntimeError
from .legal import LegalActions, Selection
from .program import Fn, Program

MAX_CHOICES = 20_000
"""The most card selections (or bids) one decision may offer."""

MAX_NUMBER = 10**18 - 1
"""Numbers (variables, scores) beyond 18 digits stop the game with RuleRuntimeError."""


class Instruction:
    decision = False
    laws: tuple[str, ...] = ()
    line = 0

    def __init__(self, prog: Program) -> None:
        self.prog = prog

    def run(self, core: Core) -> None:  # pragma: no cover - overridden
        core.pc += 1

    def ready(self, core: Core) -> bool:  # pragma: no cover - overridden
        return False

    def actor(self, core: Core) -> int:  # pragma: no cover - overridden
        return -1

    def legal(self, core: Core) -> LegalActions:  # pragma: no cover - overridden
        return LegalActions()

    def apply(self, core: Core, action: Action) -> None:  # pragma: no cover - overridden
        pass

    def phase(self, core: Core) -> str:
        return type(self).__name__.lower()


def _visible_mask(prog: Program, core: Core, dest: int, source: int | None, actor: int) -> int:
    mask = prog.zone_mask(core, dest)
    if source is not None and prog.zone_mask(core, source) == prog.all_mask:
        mask = prog.all_mask
    if actor >= 0:
        mask |= 1 << actor
    return mask


# ---------------------------------------------------------------- control flow


class Jump(Instruction):
    def __init__(self, prog: Program, target: int = -1) -> None:
        super().__init__(prog)
        self.target = target

    def run(self, core: Core) -> None:
        core.pc = self.target


class JumpUnless(Instruction):
    def __init__(self, prog: Program, cond: Fn, target: int = -1) -> None:
        super().__init__(prog)
        self.cond = cond
        self.target = target

    def run(self, core: Core) -> None:
        core.pc = core.pc + 1 if self.cond(core) else self.target


class SetVar(Instruction):
    def __init__(self, prog: Program, slot: int, value: Fn) -> None:
        super().__init__(prog)
        self.slot = slot
        self.value = value

    def run(self, core: Core) -> None:
        value = self.value(core)
        if isinstance(value, int) and not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise RuleRuntimeError(f"line {self.line}: a number grew beyond 18 digits")
        core.vars[self.slot] = value
        core.pc += 1


class LoopHead(Instruction):
    """`repeat at most N times while COND`: counts iterations in a hidden slot."""

    def __init__(self, prog: Program, slot: int, bound: int, cond: Fn | None, end: int = -1) -> None:
        super().__init__(prog)
        self.slot = slot
        self.bound = bound
        self.cond = cond
        self.end = end

    def run(self, core: Core) -> None:
        count = core.vars[self.slot]
        if count >= self.bound or (self.cond is not None and not self.cond(core)):
            core.pc = self.end
        else:
            core.vars[self.slot] = count + 1
            core.pc += 1


class ForInit(Instruction):
    """`for each player|side [from X] [except Y]`: lays out the order to visit."""

    def __init__(self, prog: Program, order_slot: int, kind: str, start: Fn | None, exclude: Fn | None, exclude_is_player: bool) -> None:
        super().__init__(prog)
        self.order_slot = order_slot
        self.kind = kind
        self.start = start
        self.exclude = exclude
        self.exclude_is_player = exclude_is_player

    def run(self, core: Core) -> None:
        prog = self.prog
        if self.kind == "player":
            first = self.start(core) if self.start is not None else (core.dealer + 1) % prog.n
            order = [(first + i) % prog.n for i in range(prog.n)]
            if self.exclude is not None:
                ex = self.exclude(core)
                order = [p for p in order if p != ex]
        else:
            order = list(range(len(prog.sides)))
            if self.exclude is not None:
                ex = self.exclude(core)
                if self.exclude_is_player:
                    ex = prog.side_of[ex]
                order = [s for s in order if s != ex]
        core.vars[self.order_slot] = (order, 0)
        core.pc += 1


class ForNext(Instruction):
    def __init__(self, prog: Program, order_slot: int, var_slot: int, end: int = -1) -> None:
        super().__init__(prog)
        self.order_slot = order_slot
        self.var_slot = var_slot
        self.end = end

    def run(self, core: Core) -> None:
        order, i = core.vars[self.order_slot]
        if i >= len(order):
            core.pc = self.end
            return
        core.vars[self.var_slot] = order[i]
        core.vars[self.order_slot] = (order, i + 1)
        core.pc += 1


class EndDeal(Instruction):
    """`end the deal`: skip the rest of the deal (and leave any irregularity)."""

    def run(self, core: Core) -> None:
        core.calls.clear()
        core.pc = self.prog.deal_end


class EndMatch(Instruction):
    """`end the match`: the match ends when this deal has been scored."""

    def run(self, core: Core) -> None:
        core.last_deal = True
        self.prog.emit(core, {"type": "last_deal", **({"laws": list(self.laws)} if self.laws else {})})
        core.pc += 1


class FinishDeal(Instruction):
    """The end of the deal's code: score the match, then the next deal or the end."""

    def run(self, core: Core) -> None:
        self.prog.end_deal(core)


class Return(Instruction):
    """The end of an irregularity: back to the decision that was interrupted."""

    def run(self, core: Core) -> None:
        core.pc = core.calls.pop() if core.calls else self.prog.deal_end


class Redeal(Instruction):
    def __init__(self, prog: Program, same_dealer: bool) -> None:
        super().__init__(prog)
        self.same_dealer = same_dealer

    def run(self, core: Core) -> None:
        self.prog.redeal(core, self.same_dealer, self.laws)


class Expose(Instruction):
    def __init__(self, prog: Program, zone: Fn) -> None:
        super().__init__(prog)
        self.zone = zone

    def run(self, core: Core) -> None:
        prog = self.prog
        z = self.zone(core)
        core.exposed.add(z)
        event: dict[str, Any] = {"type": "exposed", "zone": prog.zone_label(z),
                                 "cards": [prog.tables.codes[c] for c in core.zones[z]]}
        if self.laws:
            event["laws"] = list(self.laws)
        prog.emit(core, event)
        core.pc += 1


class Forbid(Instruction):
    def __init__(self, prog: Program, name: str, who: Fn, kind: str = "declare") -> None:
        super().__init__(prog)
        self.name = name
        self.who = who
        self.kind = kind

    def run(self, core: Core) -> None:
        p = self.who(core)
        key = {"declare": self.name, "choice": "choice:" + self.name, "bidding": "auction:bid"}[self.kind]
        core.declared.add((key, p))
        event: dict[str, Any] = {"type": "forbid", "player": p, self.kind: self.name}
        if self.laws:
            event["laws"] = list(self.laws)
        self.prog.emit(core, event)
        core.pc += 1


class Cancel(Instruction):
    """Take back the points a side scored this deal under a label."""

    def __init__(self, prog: Program, label: str, who: Fn, who_is_player: bool) -> None:
        super().__init__(prog)
        self.label = label
        self.who = who
        self.who_is_player = who_is_player

    def run(self, core: Core) -> None:
        prog = self.prog
        who = self.who(core)
        side = prog.side_of[who] if self.who_is_player else who
        total = 0
        for full, _, _ in core.events[core.deal_events:]:
            if full["type"] == "score" and full["side"] == side and full.get("label") == self.label:
                total += full["points"]
        if total:
            prog.add_score(core, side, -total, f"{self.label} cancelled", self.laws)
        core.pc += 1


# ---------------------------------------------------------------- cards


class DealCards(Instruction):
    def __init__(self, prog: Program, packets: list[Fn], first: Fn | None) -> None:
        super().__init__(prog)
        self.packets = packets
        self.first = first

    def run(self, core: Core) -> None:
        prog = self.prog
        n = prog.n
        first = self.first(core) if self.first is not None else (core.dealer + 1) % n
        pack = core.zones[prog.pack]
        got: list[list[int]] = [[] for _ in range(n)]
        for packet in self.packets:
            k = packet(core)
            for i in range(n):
                p = (first + i) % n
                if k > len(pack):
                    raise RuleRuntimeError(f"line {self.line}: the pack ran out while dealing")
                cards = [pack.pop() for _ in range(k)]
                core.zones[prog.hand + p].extend(cards)
                prog.note_hand(core, prog.hand + p, cards)
                got[p].extend(cards)
        codes = prog.tables.codes
        for i in range(n):
            p = (first + i) % n
            prog.emit(
                core,
                {"type": "dealt", "player": p, "cards": [codes[c] for c in got[p]]},
                {"type": "dealt", "player": p, "count": len(got[p])},
                1 << p,
            )
        core.pc += 1


class TurnUp(Instruction):
    def __init__(self, prog: Program, count: Fn, dest: Fn) -> None:
        super().__init__(prog)
        self.count = count
        self.dest = dest

    def run(self, core: Core) -> None:
        prog = self.prog
        pack = core.zones[prog.pack]
        k = self.count(core)
        if k > len(pack):
            raise RuleRuntimeError(f"line {self.line}: the pack ran out when turning up")
        dest = self.dest(core)
        cards = [pack.pop() for _ in range(k)]
        core.zones[dest].extend(cards)
        codes = [prog.tables.codes[c] for c in cards]
        mask = prog.zone_mask(core, dest)
        prog.emit(core, {"type": "turn_up", "cards": codes, "zone": prog.zones[dest].name},
                  None if mask == prog.all_mask else {"type": "turn_up", "count": k, "zone": prog.zones[dest].name},
                  mask)
        core.pc += 1


class SetTrump(Instruction):
    def __init__(self, prog: Program, source: str, zone: Fn | None, suit: int) -> None:
        super().__init__(prog)
        self.source = source
        self.zone = zone
        self.suit = suit

    def run(self, core: Core) -> None:
        prog = self.prog
        if self.source == "zone":
            assert self.zone is not None
            cards = core.zones[self.zone(core)]
            if not cards:
                raise RuleRuntimeError(f"line {self.line}: 'trump is suit of' an empty zone")
            suit = prog.tables.suit[cards[-1]]
        elif self.source == "fixed":
            suit = self.suit
        else:
            suit = NO_TRUMP
        set_trump(prog, core, suit, None, self.laws)
        core.pc += 1


def set_trump(prog: Program, core: Core, suit: int, player: int | None, laws: tuple[str, ...]) -> None:
    core.trump = suit
    core.ti = suit if suit != NO_TRUMP else prog.tables.nsuits
    event: dict[str, Any] = {"type": "trump", "suit": prog.tables.suit_names[suit] if suit != NO_TRUMP else None}
    if player is not None:
        event["player"] = player
    if laws:
        event["laws"] = list(laws)
    prog.emit(core, event)


class Draw(Instruction):
    """Automatic drawing from the top of a zone, with an optional fallback zone."""

    def __init__(self, prog: Program, player: Fn, kind: str, amount: Fn, source: Fn, fallback: Fn | None, fallback_test: list[list[bool]] | None) -> None:
        super().__init__(prog)
        self.player = player
        self.kind = kind
        self.amount = amount
        self.source = source
        self.fallback = fallback
        self.fallback_test = fallback_test

    def run(self, core: Core) -> None:
        prog = self.prog
        p = self.player(core)
        hand = core.zones[prog.hand + p]
        want = self.amount(core)
        need = want - len(hand) if self.kind == "to" else want
        src = core.zones[self.source(core)]
        drawn: list[int] = []
        while need > 0 and src:
            drawn.append(src.pop())
            need -= 1
        back: list[int] = []
        if need > 0 and self.fallback is not None:
            fb = core.zones[self.fallback(core)]
            test = self.fallback_test[core.ti] if self.fallback_test is not None else None
            i = len(fb) - 1
            while need > 0 and i >= 0:
                c = fb[i]
                if test is None or test[c]:
                    back.append(fb.pop(i))
                    need -= 1
                i -= 1
        hand.extend(drawn)
        hand.extend(back)
        prog.note_hand(core, prog.hand + p, drawn + back)
        if drawn or back:
            codes = prog.tables.codes
            full: dict[str, Any] = {"type": "draw", "player": p, "cards": [codes[c] for c in drawn], "count": len(drawn)}
            public: dict[str, Any] = {"type": "draw", "player": p, "count": len(drawn)}
            if back:
                full["taken_back"] = [codes[c] for c in back]
                public["taken_back"] = len(back)
            if self.laws:
                full["laws"] = public["laws"] = list(self.laws)
            prog.emit(core, full, public, prog.zone_mask(core, prog.hand + p) | (1 << p))
        core.pc += 1


class Move(Instruction):
    """Automatic movement: all (matching) cards, N from the top, or N at random."""

    def __init__(self, prog: Program, mode: str, amount: Fn | None, test: list[list[bool]] | None,
                 source: Fn, dest: Fn) -> None:
        super().__init__(prog)
        self.mode = mode
        self.amount = amount
        self.test = test
        self.source = source
        self.dest = dest

    def run(self, core: Core) -> None:
        prog = self.prog
        s, d = self.source(core), self.dest(core)
        src = core.zones[s]
        t = self.test[core.ti] if self.test is not None else None
        candidates = [i for i, c in enumerate(src) if t is None or t[c]]
        if self.mode == "all":
            chosen = candidates
        else:
            assert self.amount is not None
            k = max(0, min(self.amount(core), len(candidates)))
            if self.mode == "top":
                chosen = candidates[len(candidates) - k:][::-1] if k else []
            elif core.tape is not None:
                picked = draw(core, "sample", [src[i] for i in candidates], k)
                chosen = [src.index(c) for c in picked]
            else:
                core.chance += 1
                rng = random.Random(f"{core.seed}/chance/{core.deal_no}/{core.chance}")
                chosen = rng.sample(candidates, k)
        moved = [src[i] for i in chosen]
        drop = set(chosen)
        core.zones[s] = [c for i, c in enumerate(src) if i not in drop]
        core.zones[d].extend(moved)
        prog.note_hand(core, d, moved)
        if moved:
            codes = prog.tables.codes
            mask = _visible_mask(prog, core, d, s, -1)
            full: dict[str, Any] = {"type": "move", "from": prog.zone_label(s), "to": prog.zone_label(d),
                                    "cards": [codes[c] for c in moved], "count": len(moved)}
            if self.laws:
                full["laws"] = list(self.laws)
            public = None if mask == prog.all_mask else {k: v for k, v in full.items() if k != "cards"}
            prog.emit(core, full, public, mask)
        core.pc += 1


class Score(Instruction):
    def __init__(self, prog: Program, who: Fn, who_is_player: bool, amount: Fn, label: str, sign: int) -> None:
        super().__init__(prog)
        self.who = who
        self.who_is_player = who_is_player
        self.amount = amount
        self.label = label
        self.sign = sign

    def run(self, core: Core) -> None:
        do_score(self, core)
        core.pc += 1


def do_score(ins: Score, core: Core) -> None:
    prog = ins.prog
    who = ins.who(core)
    if not isinstance(who, int) or who < 0:
        raise RuleRuntimeError(f"line {ins.line}: nobody to score")
    side = prog.side_of[who] if ins.who_is_player else who
    amount = ins.amount(core)
    if not -MAX_NUMBER <= amount <= MAX_NUMBER or not -MAX_NUMBER <= core.scores[side] + amount <= MAX_NUMBER:
        raise RuleRuntimeError(f"line {ins.line}: a score grew beyond 18 digits")
    if amount:
        prog.add_score(core, side, ins.sign * amount, ins.label, ins.laws)


# ---------------------------------------------------------------- decisions


class Choose(Instruction):
    decision = True

    def __init__(self, prog: Program, player: Fn, names: list[str]) -> None:
        super().__init__(prog)
        self.player = player
        self.names = names
        self.targets: list[int] = []
        self.actions = [Action(n) for n in names]
        self.legal_all = LegalActions(tuple(self.actions))

    def ready(self, core: Core) -> bool:
        return True

    def actor(self, core: Core) -> int:
        p: int = self.player(core)
        return p

    def legal(self, core: Core) -> LegalActions:
        if core.declared:
            p = self.actor(core)
            allowed = tuple(a for a in self.actions if ("choice:" + a.verb, p) not in core.declared)
            if allowed:
                return LegalActions(allowed)
        return self.legal_all

    def apply(self, core: Core, action: Action) -> None:
        if core.declared:
            p = self.actor(core)
            for a in self.actions:  # a withheld option is withheld once
                core.declared.discard(("choice:" + a.verb, p))
        i = self.names.index(action.verb)
        self.prog.emit(core, {"type": "choice", "player": self.actor(core), "choice": action.verb, **({"laws": list(self.laws)} if self.laws else {})})
        core.pc = self.targets[i]

    def phase(self, core: Core) -> str:
        return "choice"


class Select(Instruction):
    """A player picks cards from a zone: discards, taking from the stock, robbing."""

    decision = True

    def __init__(self, prog: Program, verb: str, player: Fn, kind: str, low: Fn, high: Fn | None,
                 test: list[list[bool]] | None, source: Fn, dest: Fn, *, source_is_hand: bool = False) -> None:
        super().__init__(prog)
        self.verb = verb
        self.player = player
        self.kind = kind
        self.low = low
        self.high = high
        self.test = test
        self.source = source
        self.dest = dest
        self.source_is_hand = source_is_hand  # a discard (else cards are taken into the hand)

    def _bounds(self, core: Core) -> tuple[list[int], int, int]:
        prog = self.prog
        p = self.player(core)
        src = core.zones[self.source(core)]
        eligible = src if self.test is None else [c for c in src if self.test[core.ti][c]]
        hand_size = len(core.zones[prog.hand + p])
        if self.kind == "exact":
            lo = hi = self.low(core)
        elif self.kind == "range":
            assert self.high is not None
            lo, hi = self.low(core), self.high(core)
        elif self.kind == "at_least":
            lo, hi = self.low(core), len(eligible)
        elif self.source_is_hand:  # discard to N: as many as leave N in the hand
            lo = hi = hand_size - self.low(core)
        else:  # take to N: as many as bring the hand to N
            lo = hi = self.low(core) - hand_size
        hi = max(0, min(hi, len(eligible)))
        lo = max(0, min(lo, hi))
        ordered = sorted(eligible, key=prog.tables.order[core.ti].__getitem__)
        return ordered, lo, hi

    def ready(self, core: Core) -> bool:
        _, lo, hi = self._bounds(core)
        if hi == 0:
            core.pc += 1  # nothing to choose
            return False
        return True

    def actor(self, core: Core) -> int:
        p: int = self.player(core)
        return p

    def legal(self, core: Core) -> LegalActions:
        ordered, lo, hi = self._bounds(core)
        selection = Selection(self.verb, tuple(ordered), lo, hi, self.prog.tables.codes)
        if len(selection) > MAX_CHOICES:
            raise GameLimitError(f"line {self.line}: more than {MAX_CHOICES} ways to choose cards")
        return LegalActions((), selection)

    def apply(self, core: Core, action: Action) -> None:
        prog = self.prog
        p = self.actor(core)
        s, d = self.source(core), self.dest(core)
        cards = [] if action.args == ("none",) else [prog.tables.index[a] for a in action.args]
        src = core.zones[s]
        for c in cards:
            src.remove(c)
        core.zones[d].extend(cards)
        prog.note_hand(core, d, cards)
        mask = _visible_mask(prog, core, d, s, p)
        full: dict[str, Any] = {"type": "select", "verb": self.verb, "player": p, "cards": list(action.args) if cards else [], "count": len(cards),
                                "from": prog.zone_label(s), "to": prog.zone_label(d)}
        if self.laws:
            full["laws"] = list(self.laws)
        public = None if mask == prog.all_mask else {k: v for k, v in full.items() if k != "cards"}
        prog.emit(core, full, public, mask)
        core.pc += 1

    def phase(self, core: Core) -> str:
        return self.verb


class NameTrump(Instruction):
    decision = True

    def __init__(self, prog: Program, player: Fn, exclude: Fn | None = None) -> None:
        super().__init__(prog)
        self.player = player
        self.exclude = exclude
        self.actions = [Action("name", (s,)) for s in prog.tables.suit_names]
        self.legal_all = LegalActions(tuple(self.actions))

    def ready(self, core: Core) -> bool:
        return True

    def actor(self, core: Core) -> int:
        p: int = self.player(core)
        return p

    def legal(self, core: Core) -> LegalActions:
        if self.exclude is None:
            return self.legal_all
        banned = self.exclude(core)
        return LegalActions(tuple(a for i, a in enumerate(self.actions) if i != banned))

    def apply(self, core: Core, action: Action) -> None:
        suit = self.prog.tables.suit_names.index(action.args[0])
        set_trump(self.prog, core, suit, self.actor(core), self.laws)
        core.pc += 1

    def phase(self, core: Core) -> str:
        return "naming"


class Auction(Instruction):
    decision = True

    def __init__(self, prog: Program, once_around: bool, start: Fn, low: Fn, high: Fn,
                 all_pass_maker: Fn | None, all_pass_bid: Fn | None, all_pass_laws: tuple[str, ...]) -> None:
        super().__init__(prog)
        self.once_around = once_around
        self.start = start
        self.low = low
        self.high = high
        self.all_pass_maker = all_pass_maker
        self.all_pass_bid = all_pass_bid
        self.all_pass_laws = all_pass_laws
        self.pass_action = Action("pass")

    def ready(self, core: Core) -> bool:
        prog = self.prog
        if not core.au_active:
            core.au_active = True
            first = self.start(core)
            core.au_order = [(first + i) % prog.n for i in range(prog.n)]
            core.au_pos = 0
            core.au_high = 0
            core.au_bidder = -1
            core.au_passed = [False] * prog.n
        if self._finished(core):
            self._resolve(core)
            return False
        return True

    def _finished(self, core: Core) -> bool:
        n = self.prog.n
        if self.once_around:
            return core.au_pos >= n
        active = n - sum(core.au_passed)
        if core.au_bidder >= 0:
            return active <= 1 or core.au_high >= self.high(core)
        return active == 0

    def _resolve(self, core: Core) -> None:
        prog = self.prog
        core.au_active = False
        if core.au_bidder >= 0:
            core.maker, core.bid = core.au_bidder, core.au_high
            prog.emit(core, {"type": "contract", "maker": core.maker, "bid": core.bid, **({"laws": list(self.laws)} if self.laws else {})})
            core.pc += 1
        elif self.all_pass_maker is not None:
            core.maker = self.all_pass_maker(core)
            core.bid = self.all_pass_bid(core) if self.all_pass_bid is not None else 0
            prog.emit(core, {"type": "contract", "maker": core.maker, "bid": core.bid, "all_passed": True, **({"laws": list(self.all_pass_laws)} if self.all_pass_laws else {})})
            core.pc += 1
        else:
            prog.emit(core, {"type": "redeal", "reason": "all passed", **({"laws": list(self.all_pass_laws)} if self.all_pass_laws else {})})
            core.pc = prog.deal_end

    def actor(self, core: Core) -> int:
        n = self.prog.n
        pos = core.au_pos
        while core.au_passed[core.au_order[pos % n]]:
            pos += 1
        core.au_pos = pos
        return core.au_order[pos % n]

    def legal(self, core: Core) -> LegalActions:
        if core.declared and ("auction:bid", self.actor(core)) in core.declared:
            return LegalActions((self.pass_action,))  # he has lost his bid (an irregularity)
        lo = max(self.low(core), core.au_high + 1 if core.au_bidder >= 0 else self.low(core))
        hi = self.high(core)
        if hi - lo + 1 > MAX_CHOICES:
            raise GameLimitError(f"line {self.line}: more than {MAX_CHOICES} bids to choose from")
        return LegalActions((self.pass_action, *(Action("bid", (str(b),)) for b in range(lo, hi + 1))))

    def apply(self, core: Core, action: Action) -> None:
        p = self.actor(core)
        if action.verb == "pass":
            core.au_passed[p] = True
            self.prog.emit(core, {"type": "pass", "player": p})
        else:
            core.au_high = int(action.args[0])
            core.au_bidder = p
            self.prog.emit(core, {"type": "bid", "player": p, "bid": core.au_high})
        core.au_pos += 1
        if self._finished(core):
            self._resolve(core)

    def phase(self, core: Core) -> str:
        return "auction"


class SetBuiltin(Instruction):
    """`set maker = P`, `set bid = N`: the contract, when no auction makes it."""

    def __init__(self, prog: Program, name: str, value: Fn) -> None:
        super().__init__(prog)
        self.name = name
        self.value = value

    def run(self, core: Core) -> None:
        v = self.value(core)
        if self.name == "maker":
            core.maker = v
        else:
            core.bid = v
        event: dict[str, Any] = {"type": "maker", "maker": core.maker} if self.name == "maker" else {
            "type": "contract_bid", "bid": core.bid}
        if self.laws:
            event["laws"] = list(self.laws)
        self.prog.emit(core, event)
        core.pc += 1


class AddCounter(Instruction):
    def __init__(self, prog: Program, name: str, amount: Fn, owner: Fn, owner_is_player: bool) -> None:
        super().__init__(prog)
        self.name = name
        self.amount = amount
        self.owner = owner
        self.owner_is_player = owner_is_player

    def run(self, core: Core) -> None:
        prog = self.prog
        kind = prog.counters[self.name]
        owner = self.owner(core)
        if kind == "side" and self.owner_is_player:
            owner = prog.side_of[owner]
        elif kind == "shared":
            owner = 0
        amount = self.amount(core)
        if not -MAX_NUMBER <= core.counters[self.name][owner] + amount <= MAX_NUMBER:
            raise RuleRuntimeError(f"line {self.line}: counter '{self.name}' grew beyond 18 digits")
        core.counters[self.name][owner] += amount
        if amount:
            prog.emit(core, {"type": "counter", "counter": self.name, "owner": owner, "change": amount,
                             "value": core.counters[self.name][owner], **({"laws": list(self.laws)} if self.laws else {})})
        core.pc += 1


class Bid(Instruction):
    """A player's own bid (not an auction): `player bids 0..13 but not N`."""

    decision = True

    def __init__(self, prog: Program, player: Fn, low: Fn, high: Fn, forbidden: Fn | None) -> None:
        super().__init__(prog)
        self.player = player
        self.low = low
        self.high = high
        self.forbidden = forbidden
        self.cache: dict[int, Action] = {}

    def ready(self, core: Core) -> bool:
        return True

    def actor(self, core: Core) -> int:
        p: int = self.player(core)
        return p

    def legal(self, core: Core) -> LegalActions:
        banned = self.forbidden(core) if self.forbidden is not None else None
        if self.high(core) - self.low(core) + 1 > MAX_CHOICES:
            raise GameLimitError(f"line {self.line}: more than {MAX_CHOICES} bids to choose from")
        out = []
        cache = self.cache
        for b in range(self.low(core), self.high(core) + 1):
            if b == banned:
                continue
            a = cache.get(b)
            if a is None:
                if len(cache) > MAX_CHOICES:
                    cache.clear()
                a = cache[b] = Action("bid", (str(b),))
            out.append(a)
        if not out:
            raise RuleRuntimeError(f"line {self.line}: no bid is left to make")
        return LegalActions(tuple(out))

    def apply(self, core: Core, action: Action) -> None:
        p = self.actor(core)
        core.bids[p] = int(action.args[0])
        self.prog.emit(core, {"type": "bid", "player": p, "bid": core.bids[p],
                              **({"laws": list(self.laws)} if self.laws else {})})
        core.pc += 1

    def phase(self, core: Core) -> str:
        return "bidding"


class IrregularityEntry:
    """A compiled irregularity: who may commit it, during which decisions, and where its remedy starts."""

    __slots__ = ("name", "by", "phases", "guard", "entry", "laws", "slot")

    def __init__(self, name: str, by: Fn | None, phases: frozenset[str], guard: Fn | None, laws: tuple[str, ...], slot: int) -> None:
        self.name = name
        self.by = by
        self.phases = phases
        self.guard = guard
        self.entry = -1
        self.laws = laws
        self.slot = slot


class Obligation:
    __slots__ = ("kind", "guard", "laws", "test")

    def __init__(self, kind: str, guard: Fn | None, laws: tuple[str, ...], test: list[list[bool]] | None = None) -> None:
        self.kind = kind
        self.guard = guard
        self.laws = laws
        self.test = test  # the pattern's table, for lead_first and not_first_trick


class Declaration:
    __slots__ = ("name", "test", "before_first_card", "guard", "effects", "laws", "action", "slot")

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
        self.only_before_first_card = all(d.before_first_card for d in declarations)
        self.play_actions = [Action("play", (code,), i) for i, code in enumerate(prog.tables.codes)]

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
        prog = self.prog
        for i in range(1, prog.n + 1):
            q = (p + i) % prog.n
            if core.zones[prog.hand + q]:
                return q
        return p

    def actor(self, core: Core) -> int:
        return core.tr_turn

    def allowed_cards(self, core: Core, p: int) -> tuple[list[int], list[str]]:
        """The cards p may play now, and the obligations that narrowed the choice."""
        prog = self.prog
        tables = prog.tables
        hand = core.zones[prog.hand + p]
        ti = core.ti
        order = tables.order[ti].__getitem__
        why: list[str] = []
        if not core.tr_cards:
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
            return sorted(allowed, key=order), why
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
        return sorted(allowed, key=order), why

    def _power(self, c: int, led: int, ti: int, trump: int) -> int:
        return self.prog.tables.power[ti][led][c]

    def _winning_power(self, core: Core, led: int) -> int:
        return max(self._power(c, led, core.ti, core.trump) for c in core.tr_cards)

    def available_declarations(self, core: Core, p: int) -> list[Declaration]:
        out: list[Declaration] = []
        names: set[str] = set()
        hand = core.zones[self.prog.hand + p]
        for d in self.declarations:
            if d.name in names or (d.name, p) in core.declared:
                continue
            if d.guard is not None and not d.guard(core):
                continue
            if d.before_first_card and core.played[p]:
                continue
            test = d.test[core.ti]
            if any(test[c] for c in hand):
                out.append(d)
                names.add(d.name)
        return out

    def legal(self, core: Core) -> LegalActions:
        p = core.tr_turn
        cards, _ = self.allowed_cards(core, p)
        acts = self.play_actions
        out = [acts[c] for c in cards]
        if self.declarations and not (self.only_before_first_card and core.played[p]):
            out.extend(d.action for d in self.available_declarations(core, p))
        return LegalActions(tuple(out))

    def apply(self, core: Core, action: Action) -> None:
        prog = self.prog
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
        core.events.append(({"type": "play", "player": p, "card": action.args[0], "trick": core.tr_no + 1}, None, 0))
        nxt = self._next_with_cards(core, p)
        if nxt == core.tr_leader or nxt == p or nxt in core.tr_players:
            self._finish_trick(core)
        else:
            core.tr_turn = nxt

    def _finish_trick(self, core: Core) -> None:
        prog = self.prog
        led = prog.tables.eff_suit[core.ti][core.tr_cards[0]]
        power = prog.tables.power[core.ti][led]
        powers = [power[c] for c in core.tr_cards]
        best = max(range(len(powers)), key=powers.__getitem__)
        winner = core.tr_players[best]
        won = prog.won + (prog.side_of[winner] if prog.won_kind == "side" else winner)
        core.zones[won].extend(core.tr_cards)
        core.tricks_won[winner] += 1
        for c in core.tr_cards:
            core.taken_by[c] = winner
        for pat_index, _ in self.lead_rules:
            test = prog.lead_patterns[pat_index][core.ti]
            if any(test[c] for c in core.tr_cards):
                core.broken[pat_index] = True
        codes = prog.tables.codes
        prog.emit(core, {"type": "trick", "trick": core.tr_no + 1, "winner": winner,
                         "cards": [codes[c] for c in core.tr_cards], "players": list(core.tr_players)})
        core.tr_no += 1
        core.tr_cards = []
        core.tr_players = []
        core.tr_leader = core.tr_turn = winner

    def phase(self, core: Core) -> str:
        return "play"
