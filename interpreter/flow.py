"""The base of every instruction, and the automatic ones that steer the deal: jumps, loops,
variables, scores, counters, the contract, the end of a deal, and the remedies of irregularities.

Automatic instructions (``decision = False``) change the core and move ``pc`` on.
Decision instructions (``decision = True``) wait for a player: ``ready`` prepares
them (and may finish them, moving ``pc`` on, when nothing is left to decide),
``actor`` says who decides, ``legal`` lists the actions in a fixed order and
``apply`` carries one out. Nothing here knows any particular game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from . import events as ev
from .actions import Action
from .core import Core
from .errors import RuleRuntimeError
from .legal import LegalActions
from .program import Fn, Program

MAX_CHOICES = 20_000
"""The most card selections (or bids) one decision may offer."""

MAX_NUMBER = 10**18 - 1
"""Numbers (variables, scores) beyond 18 digits stop the game with RuleRuntimeError."""


class Instruction:
    decision = False
    laws: tuple[str, ...] = ()
    line = 0
    # Generated trick play (interpreter.codegen) sets these on its instruction: the cards
    # that may be played, in listed order, when plays are all the legal actions (else
    # None: a window open, or a declaration may be offered too, for fast_draw to draw
    # among all); and a card played, True when it took the trick. State's random step uses them.
    fast_cards: Callable[[Core], list[int] | None] | None = None
    fast_play: Callable[[Core, int], bool] | None = None
    play_actions: Sequence[Action] = ()
    # Other generated decisions (choices, card selections) set these: a legal action drawn
    # as ``legal(core)[randbelow(rng, len)]`` would draw it, without listing the legal
    # actions (None when they must be listed); and ``apply`` that returns the seat that
    # acted (State's apply uses it in place of ``actor`` then ``apply``).
    fast_draw: Callable[[Core, random.Random], Action | None] | None = None
    # Generated trick play also sets this when it can: random playouts' run of cards
    # (interpreter.codegen_runs), given the generator, the most actions to take and the
    # appends of the action and actor logs; returns how many it took (cards, and a
    # declaration it drew), the steps after trick play taken when it is over.
    fast_run: Callable[[Core, random.Random, int, Callable[[Action], None], Callable[[int], None]], int] | None = None
    take: Callable[[Core, Action], int] | None = None
    # and ``take`` followed by ``Program.advance`` (the automatic steps up to the next
    # decision), the target's generated block called at once: State's apply of a drawn action.
    take_step: Callable[[Core, Action], int] | None = None

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


class ExposeCard(Instruction):
    """`expose CARD` (a card parameter of an irregularity): the card is shown to every seat."""

    def __init__(self, prog: Program, slot: int) -> None:
        super().__init__(prog)
        self.slot = slot

    def run(self, core: Core) -> None:
        prog = self.prog
        card = core.vars[self.slot]
        where = next((z for z, cards in enumerate(core.zones) if card in cards), -1)
        event: dict[str, Any] = {"type": "exposed", "zone": prog.zone_label(where) if where >= 0 else "the table",
                                 "cards": [prog.tables.codes[card]]}
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
        for entry in core.events[core.deal_events:]:
            if ev.is_score(entry):
                s, points, label = ev.score_of(entry)
                if s == side and label == self.label:
                    total += points
        if total:
            prog.add_score(core, side, -total, f"{self.label} cancelled", self.laws)
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
        self.prog.emit(core, (ev.MAKER, v, self.laws) if self.name == "maker" else (ev.CONTRACT_BID, v, self.laws))
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
