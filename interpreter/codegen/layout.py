"""The static layout of a compiled game: seats, sides, card tables, zones, variables and
the other registries the code generator fills and the :class:`~interpreter.state.Game`
reads back (labels, laws, decision points, faults).

Everything a rule file names becomes a small integer here: a zone instance (zone and
owner) an index into the core's masks, a variable a slot, a score label or a law list an
id, a card pattern an index into pattern tables (a mask of the cards it matches under
each order index: every trump suit, then "no trump"). The generated module speaks only
those integers; the words stay in this layout, on the Python side.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from tricklang import Ruleset
from tricklang import model as m
from tricklang.bids import BidEntry, expand
from tricklang.budget import MAX_TABLE_BYTES, patterns_in, table_bytes
from tricklang.deck import NO_TRUMP, CardModel, suit_rank_lists
from tricklang.walk import Unknown, Value, fold, statements, statements_of

from .trick_names import reads_the_trick

MAX_NUMBER = 10**18 - 1
"""Numbers (variables, scores, counters) beyond 18 digits stop the game (RuleRuntimeError)."""

UNSET = -(2**63)
"""A variable slot that was never given a value."""



@dataclass
class ZoneDecl:
    """A declared zone: its instances are ``base .. base + count - 1`` (one per seat, per side, or one)."""

    name: str
    kind: str  # "player" | "side" | "shared"
    visibility: str  # "public" | "owner" | "hidden"
    base: int
    count: int
    stack: int = -1  # >= 0: its instances' cards are also kept in order as stacks base_stack .. (see Layout.stacks)
    pack: bool = False


@dataclass
class Instance:
    """One zone instance: a zone and whose copy it is."""

    zone: ZoneDecl
    owner: int  # seat, side, or -1 (shared)
    mask: int  # the seats that see its cards (all of them for a public zone)

    @property
    def label(self) -> str:
        if self.zone.kind == "player":
            return f"{self.zone.name} of seat {self.owner}"
        if self.zone.kind == "side":
            return f"{self.zone.name} of side {self.owner}"
        return self.zone.name


@dataclass
class DecisionPoint:
    """A place in the deal where a player decides (read by the Game and the State)."""

    id: int
    kind: str  # play | select | choice | auction | bid | name_trump | pause
    phase: str  # State.phase while it waits: 'play', the selection's verb, 'choice', 'auction'...
    line: int
    laws: int = 0  # id of its law list
    verb: str = ""  # a selection's verb (discard, take, rob)
    options: tuple[str, ...] = ()  # a choice's option names
    moment: str = ""  # a referee's pause: 'deal' or 'end_of_play'
    tricks: Any = None  # trick play: its TrickInfo
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Param:
    """A parameter of an irregularity (see the language's irregularities)."""

    name: str
    kind: str  # count | card | suit
    slot: int
    low: int = 0
    high: int = 0
    zone: m.ZoneRef | None = None
    pattern: int = -1  # pattern table id, -1 for none


@dataclass
class Irregularity:
    name: str
    phases: frozenset[str]
    anytime: bool
    laws: int
    params: tuple[Param, ...]
    slot: int  # the offender's variable slot
    has_by: bool
    has_guard: bool
    entry: int = -1  # the block its remedy starts at


class Layout:
    """See the module docstring. Built once per ruleset and option values."""

    meld_rows: list[tuple[str, tuple[int, ...]]]
    """Each meld a meld table may count, (label, cards), by the id the `meld` events log (set by
    :func:`~.melds.meld_rows` for a file with meld tables)."""

    def __init__(self, ruleset: Ruleset) -> None:
        rules = ruleset.rules
        assert rules.deck is not None and rules.players is not None
        self.ruleset = ruleset
        self.rules = rules
        self.options: dict[str, Any] = dict(ruleset.options)
        self.symbols = ruleset.symbols
        self._cards(rules)
        self.n = rules.players.count
        teams = rules.players.teams
        self.sides: list[list[int]] = [list(t) for t in teams] if teams else [[p] for p in range(self.n)]
        self.nsides = len(self.sides)
        self.side_of = [0] * self.n
        for s, members in enumerate(self.sides):
            for p in members:
                self.side_of[p] = s
        self.partner = []
        for p in range(self.n):
            members = self.sides[self.side_of[p]]
            self.partner.append(members[(members.index(p) + 1) % len(members)])
        self.all_seats = (1 << self.n) - 1
        self._check_table_budget()
        self._zones(rules)
        self.counters: dict[str, tuple[str, int, int]] = {}  # name -> (kind, base, size)
        size = 0
        for c in rules.counters:
            k = self.n if c.owner == "player" else self.nsides if c.owner == "side" else 1
            self.counters[c.name] = (c.owner, size, k)
            size += k
        self.counter_size = size
        self.slots: dict[str, int] = {}
        self.slot_names: list[str] = []
        self.labels: list[str] = []
        self._label_ids: dict[str, int] = {}
        self.laws: list[tuple[str, ...]] = [()]
        self._law_ids: dict[tuple[str, ...], int] = {(): 0}
        self.patterns: list[list[int]] = []  # pattern id -> mask per order index
        self._pattern_ids: dict[tuple[int, ...], int] = {}
        self.faults: list[str] = []
        self.dps: list[DecisionPoint] = []
        self.lead_patterns: list[int] = []  # pattern ids of `may not lead P until broken`, by broken index
        self.declaration_names: list[str] = []
        self.choice_words: list[str] = []  # every choice option name, for the ids of choice events
        self.verbs: list[str] = []  # the verbs of card selections (discard, take, rob...)
        self.irregularities: list[Irregularity] = []
        self.roles = {r.name: r.value for r in rules.roles}
        self.seat_roles: list[str] = [r.name for r in rules.roles if self.depends_on_dealer_only(r.value)]
        self.constants: dict[str, Value] = {c: c for c in self.symbols.choice_values if c not in self.roles}
        self.constants.update({"true": True, "false": False, **self.options})
        for name in self.symbols.variables:
            self.constants.pop(name, None)
        self.choice_index: dict[str, int] = {}
        for opt in rules.options:
            for i, value in enumerate(opt.choices):
                self.choice_index[value] = i
        self.uses = _Uses(rules)

    @property
    def meld_names(self) -> list[str]:
        """The meld tables' names, in the order of the file."""
        return [t.name for t in self.rules.melds]

    def meld_index(self, name: str) -> int:
        """The index of a meld table (checked to exist)."""
        return self.meld_names.index(name)

    def _cards(self, rules: m.RuleFile) -> None:
        """The card tables and their sizes."""
        assert rules.deck is not None  # pragma: no cover - checked (a rule file without a deck is refused)
        self.tables = CardModel(rules.deck, rules.points, rules.orders)
        self.nc = self.tables.size
        self.ns = self.tables.nsuits
        self.nt = self.tables.nt  # order indices: each trump suit, then no trump, then each named order
        self.orders = {o.name: self.ns + 1 + k for k, o in enumerate(rules.orders)}
        # The stride of the tables per suit led: the suits, or every order index with named orders.
        self.nled = self.tables.nled
        # Named orders and extra cards (design 3.4) add pseudo-suits, read with the stride NLED.
        self.pseudo_suits = bool(self.orders) or bool(rules.deck.extra_cards)
        self.led_stride = "NLED" if self.pseudo_suits else "NS"
        kinds = {r.kind for st in statements_of(rules) if isinstance(st, m.Tricks) for r in st.card_rules}
        kinds &= {"never_wins", "sets_no_suit"}  # (the card rules of interpreter.codegen.trick_cards)
        self.never_wins = "never_wins" in kinds  # cards without power in the trick: c.tr_nw
        named = any(isinstance(st, m.NameLed) for st in statements_of(rules))  # `names the suit led`
        self.keeps_led = bool(self.orders) or bool(kinds) or named  # the suit led kept once set: c.tr_led
        if not self.keeps_led:  # `trump is` in the middle of a trick: the suit led stays what it was (decision 5)
            self.keeps_led = any(isinstance(s, m.SetTrump) for st in statements_of(rules) if isinstance(st, m.Tricks)
                                 for body in (*(h.body for h in st.hooks), *(d.body for d in st.declarations))
                                 for s in statements(body))
        self.wide = self.nc > 64  # masks wider than a C word: Python ints in native builds too

    # ------------------------------------------------------------ the bid table
    @cached_property
    def bid_table(self) -> list[BidEntry]:
        """The file's bid table in rank order (:mod:`tricklang.bids`; empty without one). A bid of a
        typed table (levels or named bids) is the value ``k + 1`` of its index ``k`` (0 is ``no_bid``);
        a bid of a table of numbers is its number (see :mod:`interpreter.codegen.auctions`)."""
        return expand(self.rules.bids[0], self.rules, dict(self.options)).bids if self.rules.bids else []

    @cached_property
    def bids_typed(self) -> bool:
        """Whether bids are a type of their own (a table of levels or named bids), not numbers."""
        return any(b.name or b.strain or b.level for b in self.bid_table)

    @cached_property
    def bid_ties(self) -> bool:
        """Whether two bids of the table rank equal (comparisons then read their ranks)."""
        return len({b.rank for b in self.bid_table}) != len(self.bid_table)

    @cached_property
    def bid_strains(self) -> list[int]:
        return [self.strain_index(b.strain) for b in self.bid_table]

    @cached_property
    def rich_auction(self) -> bool:
        """Whether the file's auctions or bids need design 3.7's auction state (doubling, passes in a
        row, holds, the first bidder per side and strain: the core's ``au_dbl``...)."""
        return any(isinstance(st, (m.TableAuction, m.TableBid))
                   or isinstance(st, m.Auction) and (bool(st.rules) or st.kind == "until_n_passes"
                                                    or st.all_pass == "none")
                   or isinstance(st, m.Bid) and (st.above is not None or st.or_pass)
                   for st in statements_of(self.rules))

    def strain_index(self, strain: str) -> int:
        """A strain as an int: a suit's index, -1 for no trump (as ``trump`` holds it) and for none, a
        named order's index (above the suits and no trump, as ``trump is`` an order reads it)."""
        names = self.tables.suit_names
        if strain in names:
            return names.index(strain)
        return self.orders.get(strain, -1)

    @property
    def nstrains(self) -> int:
        """How many strain values there are, counted from -1 (no trump) up to the last order index."""
        return self.nt + 1

    # ------------------------------------------------------------ budget
    @property
    def rightward(self) -> bool:
        """Whether the turn passes to the right (`play passes right`)."""
        return self.rules.direction is not None and self.rules.direction.direction == "right"

    def _check_table_budget(self) -> None:
        """Refuse rule files whose card tables would be too large (the checker refuses
        them first, ``limit-exceeded``: see :mod:`tricklang.budget`).

        Raises:
            GameLimitError: the tables would take more than ``MAX_TABLE_BYTES``.
        """
        from ..errors import GameLimitError

        assert self.rules.deck is not None  # pragma: no cover - checked
        ranks = max(len(r) for r in suit_rank_lists(self.rules.deck))  # (a suit may have ranks of its own)
        size = table_bytes(self.ns, ranks, patterns_in(self.rules))
        if size > MAX_TABLE_BYTES:  # pragma: no cover - checked (limit-exceeded)
            raise GameLimitError(f"the card tables of this rule file would take {size:,} bytes, "
                                 f"more than the {MAX_TABLE_BYTES:,} a game may have")

    # ------------------------------------------------------------ zones
    def _zones(self, rules: m.RuleFile) -> None:
        stacked = _stack_zones(rules)
        self.zones: list[ZoneDecl] = []
        self.zone_by_name: dict[str, ZoneDecl] = {}
        self.instances: list[Instance] = []
        self.stacks: list[int] = []  # stack index -> zone instance
        for z in rules.zones:
            count = self.n if z.owner == "player" else self.nsides if z.owner == "side" else 1
            decl = ZoneDecl(z.name, z.owner, z.visibility, len(self.instances), count, pack=z.pack)
            if z.name in stacked or z.pack:
                decl.stack = len(self.stacks)
            self.zones.append(decl)
            self.zone_by_name[z.name] = decl
            owners = range(count) if z.owner != "shared" else [-1]
            for owner in owners:
                if decl.stack >= 0:
                    self.stacks.append(len(self.instances))
                self.instances.append(Instance(decl, owner, self._seen_by(decl, owner)))
        self.nz = len(self.instances)
        self.hand = self.zone_by_name["hand"].base
        won = self.zone_by_name.get("won")
        self.won = won.base if won is not None else -1
        self.won_kind = won.kind if won is not None else "side"
        pack = next(z for z in self.zones if z.pack)
        self.pack = pack.base
        self.pack_stack = pack.stack
        self.stack_of = {inst: k for k, inst in enumerate(self.stacks)}

    def _seen_by(self, decl: ZoneDecl, owner: int) -> int:
        if decl.visibility == "public":
            return self.all_seats
        if decl.visibility == "owner":
            if decl.kind == "player":
                return 1 << owner
            if decl.kind == "side":
                return sum(1 << p for p in self.sides[owner])
        return 0

    # ------------------------------------------------------------ registries
    def slot(self, name: str) -> int:
        """The variable slot of a name (made on first use)."""
        if name not in self.slots:
            self.slots[name] = len(self.slot_names)
            self.slot_names.append(name)
        return self.slots[name]

    def hidden_slot(self, what: str) -> int:
        """A slot of the generator's own (a loop counter, a loop's position)."""
        name = f"<{what}#{len(self.slot_names)}>"
        self.slots[name] = len(self.slot_names)
        self.slot_names.append(name)
        return self.slots[name]

    def label(self, text: str) -> int:
        if text not in self._label_ids:
            self._label_ids[text] = len(self.labels)
            self.labels.append(text)
        return self._label_ids[text]

    def law(self, cite: m.Citation | tuple[str, ...] | None) -> int:
        laws = cite.laws if isinstance(cite, m.Citation) else (cite or ())
        if laws not in self._law_ids:
            self._law_ids[laws] = len(self.laws)
            self.laws.append(laws)
        return self._law_ids[laws]

    def pattern(self, p: m.Pattern) -> int:
        """The id of a pattern's table: per order index, the mask of the cards it matches."""
        rows = self.tables.pattern_table(p)
        masks = tuple(sum(1 << c for c, hit in enumerate(row) if hit) for row in rows)
        if masks not in self._pattern_ids:
            self._pattern_ids[masks] = len(self.patterns)
            self.patterns.append(list(masks))
        return self._pattern_ids[masks]

    @property
    def lookup_tables(self) -> dict[str, tuple[int, ...]]:
        """'table NAME = ...': its numbers, read by position (``NAME(i)``)."""
        return {t.name: t.values for t in self.ruleset.rules.tables}

    @property
    def deal_counter_slots(self) -> list[int]:
        """The slots (of ``c.cnt``) of the counters declared 'per deal': 0 at every deal's start."""
        out: list[int] = []
        for counter in self.ruleset.rules.counters:
            if counter.per_deal:
                _, base, size = self.counters[counter.name]
                out.extend(range(base, base + size))
        return out

    def fault(self, message: str) -> int:
        """The id of a run-time failure's message (the module raises ``Fault(id)``)."""
        self.faults.append(message)
        return len(self.faults) - 1

    def choice_word(self, word: str) -> int:
        if word not in self.choice_words:
            self.choice_words.append(word)
        return self.choice_words.index(word)

    def verb(self, word: str) -> int:
        if word not in self.verbs:
            self.verbs.append(word)
        return self.verbs.index(word)

    def declaration(self, name: str) -> int:
        if name not in self.declaration_names:
            self.declaration_names.append(name)
        return self.declaration_names.index(name)

    # ------------------------------------------------------------ values
    def constant(self, e: m.Expr, context: Sequence[str] = ()) -> Value | Unknown:
        """The value of an expression of literals and options only (names bound in
        ``context`` are never constants), else UNKNOWN."""
        env = self.constants
        if context:
            env = {k: v for k, v in env.items() if k not in context}
        value = fold(e, env)
        if isinstance(value, int) and not isinstance(value, bool) and not -MAX_NUMBER <= value <= MAX_NUMBER:
            return Unknown()
        return value

    def value_int(self, value: Value) -> int:
        """A folded value as the module holds it: ints, bools as 0/1, choice values as their index."""
        if isinstance(value, bool):
            return int(value)
        if isinstance(value, int):
            return value
        return self.choice_index[value]

    def depends_on_dealer_only(self, e: m.Expr) -> bool:
        if isinstance(e, m.Name):
            return e.name == "dealer" or (e.name in self.roles and self.depends_on_dealer_only(self.roles[e.name]))
        if isinstance(e, m.Of):
            return e.name in ("left", "right", "partner") and self.depends_on_dealer_only(e.arg)
        return False

    # ------------------------------------------------------------ card tables (per order index)
    def suit_masks(self) -> list[list[int]]:
        """[order index][suit]: the cards of that effective suit."""
        t = self.tables
        return [[sum(1 << c for c in range(self.nc) if t.eff_suit[ti][c] == s) for s in range(self.nled)]
                for ti in range(self.nt)]

    def trump_masks(self) -> list[int]:
        masks = self.suit_masks()
        return [masks[ti][s] if s >= 0 else 0 for ti, s in enumerate(self.tables.trump_suit)]

    def trump_order(self) -> list[list[int]]:
        """[order index]: the trumps, strongest first (empty for no trump)."""
        t = self.tables
        out: list[list[int]] = []
        for ti in range(self.nt):
            if t.trump_suit[ti] == NO_TRUMP:
                out.append([])
                continue
            trumps = [c for c in range(self.nc) if t.eff_suit[ti][c] == t.trump_suit[ti]]
            out.append(sorted(trumps, key=lambda c: -t.trump_strength[ti][c]))
        return out

    def display_order(self, ti: int) -> list[int]:
        """Every card in the order hands and legal actions list them under order index ti."""
        t = self.tables
        return sorted(range(self.nc), key=t.order[ti].__getitem__)

    def trump_of(self, ti: int) -> int:
        return ti if ti < self.ns else NO_TRUMP


class _Uses:
    """Which costly features a rule file uses (so that the core keeps their data only then)."""

    def __init__(self, rules: m.RuleFile) -> None:
        stmts = list(statements_of(rules))
        kinds = {type(s) for s in stmts}
        self.cancel = m.Cancel in kinds
        self.replay = m.ReplayTricks in kinds
        self.leads = m.Leads in kinds
        self.holders = False
        self.shown_to_seats = False  # `expose Z to S`: the core keeps the seats each zone is shown to (.exposure)
        for node in _all_nodes(rules):
            if isinstance(node, m.CardHolder):
                self.holders = True
            if isinstance(node, m.Expose) and node.to is not None and node.matching is None:
                self.shown_to_seats = True
        self.auction = m.Auction in kinds
        self.trick = reads_the_trick(rules)
        self.name_led = m.NameLed in kinds  # (the suit led, named: c.tr_led)
        self.shows = m.Shows in kinds  # (the SHOWN event)
        self.helpers: set[str] = set()  # helpers of :data:`.card_loops.HELPERS` the module calls (only those are written)
        self.plays_for = any(isinstance(s, m.Tricks) and s.plays_for for s in stmts)
        if self.plays_for:  # the controller sees the hand he plays from: the same seats-per-zone mask
            self.shown_to_seats = True


def _all_nodes(rules: m.RuleFile) -> list[m.Node]:
    from tricklang.walk import nodes

    out: list[m.Node] = []
    for part in (*rules.deal, *rules.irregularities, *rules.roles):
        out.extend(nodes(part))
    if rules.match is not None:
        out.extend(nodes(rules.match))
    return out


def _stack_zones(rules: m.RuleFile) -> set[str]:
    """The zones kept in order as stacks: the sources of draws and the zones cut (cards
    leave them from the top, in the hot paths); every other zone is a set of cards whose
    order of arrival is kept by stamps."""
    out: set[str] = set()
    for st in statements_of(rules):
        if isinstance(st, m.Draw):
            out.add(st.source.name)
        elif isinstance(st, m.Cut):
            out.add(st.zone.name)
    return out
