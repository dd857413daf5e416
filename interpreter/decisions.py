"""Decisions other than trick play: named choices, card selections, naming trumps,
auctions and a player's own bid; and the entry of an irregularity."""

from __future__ import annotations

import random

from . import events as ev
from .actions import Action
from .core import Core
from .dealing import set_trump
from .errors import GameLimitError, RuleRuntimeError
from .flow import MAX_CHOICES, Instruction, _visible_mask
from .legal import LegalActions, Selection, randbelow
from .program import Fn, Program

# ---------------------------------------------------------------- decisions


class PlayerDecision(Instruction):
    """A decision of one seat, the value of ``player``: ready at once unless a subclass
    says otherwise (a selection with nothing to choose is skipped)."""

    decision = True

    def __init__(self, prog: Program, player: Fn) -> None:
        super().__init__(prog)
        self.player = player

    def ready(self, core: Core) -> bool:
        return True

    def actor(self, core: Core) -> int:
        p: int = self.player(core)
        return p


class Choose(PlayerDecision):
    def __init__(self, prog: Program, player: Fn, names: list[str]) -> None:
        super().__init__(prog, player)
        self.names = names
        self.targets: list[int] = []
        self.actions = [Action(n) for n in names]
        self.legal_all = LegalActions(tuple(self.actions))
        self.position = {n: i for i, n in reversed(list(enumerate(names)))}  # the first option of a name

    def legal(self, core: Core) -> LegalActions:
        if core.declared:
            p = self.actor(core)
            allowed = tuple(a for a in self.actions if ("choice:" + a.verb, p) not in core.declared)
            if allowed:
                return LegalActions(allowed)
        return self.legal_all

    def apply(self, core: Core, action: Action) -> None:
        p = self.player(core)
        if core.declared:
            for a in self.actions:  # a withheld option is withheld once
                core.declared.discard(("choice:" + a.verb, p))
        verb = action.verb
        i = self.position[verb]
        self.prog.emit(core, (ev.CHOICE, p, verb, self.laws))
        core.pc = self.targets[i]

    def phase(self, core: Core) -> str:
        return "choice"


class Select(PlayerDecision):
    """A player picks cards from a zone: discards, taking from the stock, robbing."""

    _KINDS = {"exact": 0, "range": 1, "at_least": 2}  # any other kind ("to") counts from the hand's size

    def __init__(self, prog: Program, verb: str, player: Fn, kind: str, low: Fn, high: Fn | None,
                 test: list[list[bool]] | None, source: Fn, dest: Fn, *, source_is_hand: bool = False,
                 dest_is_hand: bool = False) -> None:
        super().__init__(prog, player)
        self.verb = verb
        self.kind = kind
        self.low = low
        self.high = high
        self.test = test
        self.source = source
        self.dest = dest
        self.source_is_hand = source_is_hand  # a discard from the hand (``source`` is the player's hand)
        self.dest_is_hand = dest_is_hand  # cards taken into the hand (``dest`` is the player's hand)
        self._kind = self._KINDS.get(kind, 3 if source_is_hand else 4)

    def _bounds(self, core: Core) -> tuple[list[int], int, int]:
        """The cards that may be chosen, in listed order, and how few and how many."""
        eligible, lo, hi = self._counts(core)
        return sorted(eligible, key=self.prog.tables.order[core.ti].__getitem__), lo, hi

    def _counts(self, core: Core) -> tuple[list[int], int, int]:
        """The cards that may be chosen (unordered), and how few and how many."""
        return self._counts_of(core, self.player(core))

    def _counts_of(self, core: Core, p: int) -> tuple[list[int], int, int]:
        """:meth:`_counts` for the player ``p`` (the value of ``player``)."""
        zones = core.zones
        src = zones[self.prog.hand + p] if self.source_is_hand else zones[self.source(core)]
        test = self.test
        if test is None:
            eligible = src
        else:
            t = test[core.ti]
            eligible = [c for c in src if t[c]]
        kind = self._kind
        if kind == 0:  # exact
            lo = hi = self.low(core)
        elif kind == 1:  # range
            assert self.high is not None
            lo, hi = self.low(core), self.high(core)
        elif kind == 2:  # at least
            lo, hi = self.low(core), len(eligible)
        elif kind == 3:  # discard to N: as many as leave N in the hand
            lo = hi = len(zones[self.prog.hand + p]) - self.low(core)
        else:  # take to N: as many as bring the hand to N
            lo = hi = self.low(core) - len(zones[self.prog.hand + p])
        n = len(eligible)
        if hi > n:
            hi = n
        if hi < 0:
            hi = 0
        if lo > hi:
            lo = hi
        elif lo < 0:
            lo = 0
        return eligible, lo, hi

    def ready(self, core: Core) -> bool:
        if self._counts(core)[2] == 0:
            core.pc += 1  # nothing to choose
            return False
        return True

    def legal(self, core: Core) -> LegalActions:
        eligible, lo, hi = self._counts(core)
        selection = Selection(self.verb, tuple(sorted(eligible, key=self.prog.tables.order[core.ti].__getitem__)),
                              lo, hi, self.prog.tables.codes)
        if selection.total > MAX_CHOICES:
            raise GameLimitError(f"line {self.line}: more than {MAX_CHOICES} ways to choose cards")
        return LegalActions((), selection)

    def apply(self, core: Core, action: Action) -> None:
        prog = self.prog
        p = self.player(core)
        s = prog.hand + p if self.source_is_hand else self.source(core)
        d = self.dest(core)
        args = action.args
        zones = core.zones
        if args == ("none",):
            cards: list[int] = []
        else:
            index = prog.tables.index
            cards = [index[a] for a in args]
            remove = zones[s].remove
            for c in cards:
                remove(c)
            zones[d].extend(cards)
            prog.note_hand(core, d, cards)
        prog.emit(core, (ev.SELECT, self.verb, p, tuple(cards), s, d, self.laws, _visible_mask(prog, core, d, s, p)))
        core.pc += 1

    def phase(self, core: Core) -> str:
        return self.verb


class NameTrump(PlayerDecision):
    def __init__(self, prog: Program, player: Fn, exclude: Fn | None = None) -> None:
        super().__init__(prog, player)
        self.exclude = exclude
        self.actions = [Action("name", (s,)) for s in prog.tables.suit_names]
        self.legal_all = LegalActions(tuple(self.actions))

    def legal(self, core: Core) -> LegalActions:
        if self.exclude is None:
            return self.legal_all
        banned = self.exclude(core)
        return LegalActions(tuple(a for i, a in enumerate(self.actions) if i != banned))

    def fast_draw(self, core: Core, rng: random.Random) -> Action | None:
        """The suit ``legal`` would give for ``randbelow(rng, len)``, or None to list them."""
        actions = self.actions
        if self.exclude is None:
            return actions[randbelow(rng, len(actions))]
        banned = self.exclude(core)
        if type(banned) is not int or not 0 <= banned < len(actions) or len(actions) < 2:
            return None  # nothing left out, or nothing left: as listed
        i = randbelow(rng, len(actions) - 1)
        return actions[i + 1 if i >= banned else i]

    def take(self, core: Core, action: Action) -> int:
        """:meth:`apply`, returning who named the trump."""
        p = self.actor(core)
        set_trump(self.prog, core, self.prog.tables.suit_names.index(action.args[0]), p, self.laws)
        core.pc += 1
        return p

    def apply(self, core: Core, action: Action) -> None:
        self.take(core, action)

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
        self.bid_actions: dict[int, Action] = {}  # made once per bid (at most MAX_CHOICES + 1 kept)
        self.legal_made: dict[tuple[int, int], tuple[Action, ...]] = {}  # (lowest, highest bid) -> the actions

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
            prog.emit(core, (ev.CONTRACT, core.maker, core.bid, False, self.laws))
            core.pc += 1
        elif self.all_pass_maker is not None:
            core.maker = self.all_pass_maker(core)
            core.bid = self.all_pass_bid(core) if self.all_pass_bid is not None else 0
            prog.emit(core, (ev.CONTRACT, core.maker, core.bid, True, self.all_pass_laws))
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
        low = self.low(core)
        lo = max(low, core.au_high + 1 if core.au_bidder >= 0 else low)
        hi = self.high(core)
        actions = self.legal_made.get((lo, hi))
        if actions is None:
            actions = self._bids(lo, hi)
        return LegalActions(actions)  # a new object per decision (the State keys its action ids on it)

    def _bids(self, lo: int, hi: int) -> tuple[Action, ...]:
        """Pass, and the bids from lo to hi (each bid's action made once, small ranges kept)."""
        if hi - lo + 1 > MAX_CHOICES:
            raise GameLimitError(f"line {self.line}: more than {MAX_CHOICES} bids to choose from")
        made = self.bid_actions
        if len(made) > MAX_CHOICES:
            made.clear()
        for b in range(lo, hi + 1):
            if b not in made:
                made[b] = Action("bid", (str(b),))
        actions = (self.pass_action, *(made[b] for b in range(lo, hi + 1)))
        if hi - lo < 64:
            if len(self.legal_made) >= 256:
                self.legal_made.clear()
            self.legal_made[(lo, hi)] = actions
        return actions

    def apply(self, core: Core, action: Action) -> None:
        p = self.actor(core)
        if action is self.pass_action or action.verb == "pass":
            core.au_passed[p] = True
            self.prog.emit(core, (ev.PASS, p))
        else:
            core.au_high = int(action.args[0])
            core.au_bidder = p
            core.bids[p] = core.au_high  # `bids(P)`: his highest bid in the auction
            self.prog.emit(core, (ev.BID, p, core.au_high, ()))
        core.au_pos += 1
        if self._finished(core):
            self._resolve(core)

    def phase(self, core: Core) -> str:
        return "auction"


class Bid(PlayerDecision):
    """A player's own bid (not an auction): `player bids 0..13 but not N`."""

    def __init__(self, prog: Program, player: Fn, low: Fn, high: Fn, forbidden: Fn | None) -> None:
        super().__init__(prog, player)
        self.low = low
        self.high = high
        self.forbidden = forbidden
        self.cache: dict[int, Action] = {}
        self.made: dict[tuple[int, int, object], tuple[Action, ...]] = {}  # (low, high, forbidden) -> the bids

    def legal(self, core: Core) -> LegalActions:
        return LegalActions(self._open(core))  # a new object per decision (the State keys its action ids on it)

    def fast_draw(self, core: Core, rng: random.Random) -> Action | None:
        """The bid ``legal`` would give for ``randbelow(rng, len)``, without listing them."""
        actions = self._open(core)
        return actions[randbelow(rng, len(actions))]

    def _open(self, core: Core) -> tuple[Action, ...]:
        banned = self.forbidden(core) if self.forbidden is not None else None
        hi = self.high(core)
        lo = self.low(core)
        if banned is not None and type(banned) is not int:  # not a bid: nothing is left out
            return self._bids(lo, hi, banned)
        key = (lo, hi, banned)
        actions = self.made.get(key)
        if actions is None:
            actions = self._bids(lo, hi, banned)
            if hi - lo < 64:  # kept when small
                if len(self.made) >= 256:
                    self.made.clear()
                self.made[key] = actions
        return actions

    def _bids(self, lo: int, hi: int, banned: object) -> tuple[Action, ...]:
        if hi - lo + 1 > MAX_CHOICES:
            raise GameLimitError(f"line {self.line}: more than {MAX_CHOICES} bids to choose from")
        out = []
        cache = self.cache
        for b in range(lo, hi + 1):
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
        return tuple(out)

    def take(self, core: Core, action: Action) -> int:
        """:meth:`apply`, returning the bidder."""
        p = self.actor(core)
        core.bids[p] = int(action.args[0])
        self.prog.emit(core, (ev.BID, p, core.bids[p], self.laws))
        core.pc += 1
        return p

    def apply(self, core: Core, action: Action) -> None:
        self.take(core, action)

    def phase(self, core: Core) -> str:
        return "bidding"



class ParamSpec:
    """A compiled parameter of an irregularity: a count in ``low..high``, a card (of the
    zone ``zone`` when given, matching the pattern table ``table`` when given), or a suit
    (``low..high``: the deck's suits by index); ``slot`` holds its value (a number, the
    card's index, the suit's index) while the remedy runs."""

    __slots__ = ("name", "kind", "slot", "low", "high", "zone", "table")

    def __init__(self, name: str, kind: str, slot: int, low: int = 0, high: int = 0, zone: Fn | None = None,
                 table: list[list[bool]] | None = None) -> None:
        self.name = name
        self.kind = kind
        self.slot = slot
        self.low = low
        self.high = high
        self.zone = zone
        self.table = table


class IrregularityEntry:
    """A compiled irregularity: who may commit it, during which decisions, its parameters, and where its remedy starts."""

    __slots__ = ("name", "by", "phases", "guard", "entry", "laws", "slot", "params", "anytime")

    def __init__(self, name: str, by: Fn | None, phases: frozenset[str], guard: Fn | None, laws: tuple[str, ...], slot: int,
                 params: tuple[ParamSpec, ...] = ()) -> None:
        self.params = params
        self.anytime = False  # declared `during any`: also while a remedy's decision is pending
        self.name = name
        self.by = by
        self.phases = phases
        self.guard = guard
        self.entry = -1
        self.laws = laws
        self.slot = slot
