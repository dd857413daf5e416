"""The static checker: every problem in a parsed rule file, as diagnostics.

The checker never stops at the first problem. It resolves every name, checks the
type of every expression, the deck, the zones, the options, the loop bounds and
the card counts, and reports each problem with a stable code. Warnings (lints)
do not stop a rule file from loading.

Codes: ``missing-version``, ``unsupported-version``, ``missing-section``,
``duplicate-section``, ``duplicate-name``, ``undefined-name``, ``type-error``,
``bad-rank``, ``bad-suit``, ``bad-colour``, ``ambiguous-card-code``, ``bad-deck``, ``ambiguous-card``,
``bad-option-default``, ``bad-partnerships``, ``missing-pack``, ``bad-zone``,
``deck-too-small``, ``stop-outside-loop``, ``duplicate-choice``, ``bad-count``,
``bad-bound``, ``limit-exceeded``, ``bad-call``; warnings ``unreachable-code``,
``unused-option``, ``unused-variable``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from . import model as m
from .card_counts import card_count_problems
from .check_bids import check_tables
from .check_cards import CardChecks
from .check_orders import OrderChecks
from .check_statements import StatementChecker
from .deck import all_ranks
from .diagnostics import Diagnostic, origin
from .support import RUNTIME, constructs, words
from .types import (
    ANY,
    BID,
    BOOL,
    BUILTIN_NAMES,
    BUILTIN_PLAYERS,
    CARD,
    INT,
    LOOP_NAMES,
    NEW_NAMES,
    PLAYER,
    SIDE,
    SUIT,
    TEAM,
    ZONE,
    ChoiceOf,
    Scope,
    Symbols,
    Type,
    Typer,
    bid_type,
    declared_names,
)
from .walk import statements, statements_of
from .words import RESERVED_WORDS

LANGUAGE_VERSION = 1
MAX_PLAYERS = 16
MAX_NAME = 64
MAX_PARAMETER_VALUES = 64
"""The most values a count parameter of an irregularity may range over."""
MAX_PARAMETER_IDS = 20_000
"""The most actions one irregularity may offer: its parameters' values multiplied, times the seats."""


_REQUIRED_SECTIONS = (
    ("players", "e.g. 'players 4 in partnerships 0 2, 1 3'"),
    ("deck", "e.g. 'deck' followed by indented 'suits ...' and 'ranks ...' lines"),
    ("deal", "the 'deal' section, with its indented statements, says how each deal is played"),
)


@dataclass
class Checker:
    """Checks one :class:`~tricklang.model.RuleFile`; see :func:`check`."""

    rules: m.RuleFile
    diagnostics: list[Diagnostic] = field(default_factory=list)
    used_names: set[str] = field(default_factory=set)
    typed_constructs: list[tuple[str, m.Span | None]] = field(default_factory=list)
    """Built-in names and forms met by the typer (see :mod:`tricklang.support`)."""
    _hints: dict[tuple[str, tuple[str, ...]], str] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------ reporting
    def error(self, code: str, message: str, span: m.Span | None, hint: str = "") -> None:
        self._add(code, message, span, hint, "error")

    def warn(self, code: str, message: str, span: m.Span | None, hint: str = "") -> None:
        self._add(code, message, span, hint, "warning")

    def _add(self, code: str, message: str, span: m.Span | None, hint: str, severity: str) -> None:
        line, col, end = (span.line, span.column, span.end_column if span.end_line == span.line else 0) if span else (0, 0, 0)
        path, note = origin(self.rules.path, span.path if span else None)
        self.diagnostics.append(
            Diagnostic(code, message, line, col, end, severity, hint, path, note)  # type: ignore[arg-type]
        )

    # ------------------------------------------------------------ entry point
    def run(self) -> list[Diagnostic]:
        r = self.rules
        self._check_header()
        self.declared = declared_names(r)
        self.variable_names = frozenset(st.name for st in statements_of(r) if isinstance(st, m.Let) and not st.rebind)
        self.suits = {s.name: s for s in r.deck.suits} if r.deck else {}
        self.ranks = set(all_ranks(r.deck)) if r.deck else set()
        self.zones = {z.name: z for z in r.zones}
        self.options = {o.name: o for o in r.options}
        self.choice_values: dict[str, str] = {}
        for o in r.options:
            for c in o.choices:
                self.choice_values.setdefault(c, o.name)
        self._check_deck()
        self._check_options()
        self._check_zones()
        self.env = self._global_names()
        for role in r.roles:
            self._expect(role.value, PLAYER, Scope(dict(self.env)))
        self.variables = self._collect_variables(statements_of(r))
        self.shadowing_reported: set[str] = set()
        for pc in r.points:
            self._check_pattern(pc.pattern)
        self._check_match()
        scope = Scope(dict(self.env))
        scope.names.update(self.variables)
        self._check_block(r.deal, scope)
        self._check_irregularities()
        self._check_trick_remedies()
        self._check_name_lengths()
        self._check_card_counts()
        self._check_support()
        for name, opt in self.options.items():
            # An option a variant inherits but no longer uses (its phase was replaced)
            # cannot be removed by the variant: not worth a warning there.
            seats = name == "players" and r.players is not None and r.players.kind == "range"  # (read by the seating)
            if name not in self.used_names and opt.span.path in (None, r.path) and not seats:
                self.warn("unused-option", f"option '{name}' is never used", opt.span)
        first_let: dict[str, m.Span] = {}
        for st in statements_of(r):
            if isinstance(st, m.Let) and not st.rebind:
                first_let.setdefault(st.name, st.span)
        for name, span in first_let.items():
            if name not in self.used_names:
                self.warn("unused-variable", f"variable '{name}' is never used", span)
        self.symbols = Symbols(self.env, self.variables, self.choice_values, r, self.declared)
        return self.diagnostics

    # ------------------------------------------------------------ sections
    def _check_header(self) -> None:
        r = self.rules
        if r.version is None:
            self.error("missing-version", "the rule file does not start with 'tricklang 1'", m.Span.model_construct(line=1, column=1, end_line=1, end_column=2), "write 'tricklang 1' on the first line")
        elif r.version != LANGUAGE_VERSION:
            self.error("unsupported-version", f"language version {r.version} is not supported (this is version {LANGUAGE_VERSION})", r.version_span)
        seen: dict[str, m.Span] = {}
        for name, span in r.sections:
            if name in seen and name != "points":
                word = "play passes" if name == "direction" else name
                self.error("duplicate-section", f"the '{word}' section appears twice", span, f"the first is on line {seen[name].line}")
            seen.setdefault(name, span)
        for needed, example in _REQUIRED_SECTIONS:
            if needed not in seen:
                self.error("missing-section", f"the rule file has no '{needed}' section", self._header_span(), example)
        if r.game is None:
            self.error("missing-section", "the rule file has no 'game \"Name\"' line", self._header_span(), 'e.g. \'game "Écarté"\'')
        p = r.players
        if p is not None and p.kind == "range":
            self._player_range(p)
        elif p is not None:
            if not 2 <= p.count <= MAX_PLAYERS:
                self.error("limit-exceeded", f"{p.count} players: the language supports 2 to {MAX_PLAYERS}", p.span)
            elif p.teams:
                seats = [s for t in p.teams for s in t]
                if sorted(seats) != list(range(p.count)) or len({len(t) for t in p.teams}) != 1 or len(p.teams) < 2:
                    self.error("bad-partnerships", f"partnerships must divide seats 0..{p.count - 1} into equal teams, each seat once", p.span)

    def _player_range(self, p: m.Players) -> None:
        """`players LO..HI = D`: bounds in 2..MAX_PLAYERS, the default inside, no partnerships (``bad-players``)."""
        low, high = p.low or 0, p.high or 0
        if not 2 <= low <= high <= MAX_PLAYERS:
            self.error("bad-players", f"'players {low}..{high}': the language supports 2 to {MAX_PLAYERS} players, "
                       "the lower bound first", p.span)
        elif not low <= p.count <= high:
            self.error("bad-players", f"the default number of players, {p.count}, is outside {low}..{high}", p.span)
        if p.teams:
            self.error("bad-players", "partnerships name seats, so they need a fixed number of players", p.span,
                       "write 'players N in partnerships ...', or leave the partnerships out")

    def _header_span(self) -> m.Span:
        """Where to report something missing from the whole file: its version line,
        else its first line."""
        return self.rules.version_span or m.Span.model_construct(line=1, column=1, end_line=1, end_column=2)

    def _zones_span(self) -> m.Span:
        """Where to report a zone that is missing: the first zone declared, else the header."""
        return self.rules.zones[0].span if self.rules.zones else self._header_span()

    def _check_deck(self) -> None:
        CardChecks(self).deck()
        CardChecks(self).melds()
        OrderChecks(self).check()
        self.bids = check_tables(self)

    def _check_options(self) -> None:
        seen: set[str] = set()
        for o in self.rules.options:
            if o.name in seen:
                self.error("duplicate-name", f"option '{o.name}' is declared twice", o.span)
            seen.add(o.name)
            if o.type == "int":
                if not isinstance(o.default, int) or isinstance(o.default, bool):
                    self.error("bad-option-default", f"option '{o.name}' is an int but its default {o.default!r} is not a number", o.span)
                elif o.low is not None and o.high is not None and o.low > o.high:
                    self.error("bad-option-default", f"option '{o.name}' has an empty range {o.low}..{o.high}", o.span)
                elif o.low is not None and o.high is not None and not o.low <= o.default <= o.high:
                    self.error("bad-option-default", f"option '{o.name}' defaults to {o.default}, outside {o.low}..{o.high}", o.span)
            elif o.type == "bool":
                if not isinstance(o.default, bool):
                    self.error("bad-option-default", f"option '{o.name}' is a bool; its default must be true or false", o.span)
            else:
                if o.default not in o.choices:
                    self.error("bad-option-default", f"option '{o.name}' defaults to '{o.default}', which is not one of its choices", o.span, "choices: " + ", ".join(o.choices))
                if len(set(o.choices)) != len(o.choices):
                    self.error("duplicate-name", f"option '{o.name}' lists a choice twice", o.span)
                for c in o.choices:
                    if c in RESERVED_WORDS:
                        self.error("reserved-name", f"option '{o.name}' cannot have a value named '{c}': {RESERVED_WORDS[c]}", o.span,
                                   "choose another name for the value")

    def _check_zones(self) -> None:
        seen: set[str] = set()
        for z in self.rules.zones:
            if z.name in seen:
                self.error("duplicate-name", f"zone '{z.name}' is declared twice", z.span)
            seen.add(z.name)
        packs = [z for z in self.rules.zones if z.pack]
        if not packs and self.rules.deal:
            self.error("missing-pack", "no zone is marked 'pack' (the undealt cards)", self._zones_span(), "e.g. 'zone stock: shared, hidden, pack'")
        for z in packs[1:]:
            self.error("missing-pack", "only one zone may be the pack", z.span)
        for z in packs[:1]:
            if z.owner != "shared":
                self.error("bad-zone", "the pack must be a shared zone", z.span)
        hand = self.zones.get("hand")
        if hand is None:
            self.error("missing-section", "no 'hand' zone: declare 'zone hand: per player, owner'", self._zones_span())
        elif hand.owner != "player":
            self.error("bad-zone", "the 'hand' zone must be per player", hand.span)
        for z in self.rules.zones:
            if z.bookkeeping and (z.pack or z.name in ("hand", "won") or z.visibility == "public"):
                what = ("the pack" if z.pack else f"the '{z.name}' zone" if z.name in ("hand", "won")
                        else f"the public zone '{z.name}'")
                self.error("bad-zone", f"{what} cannot be bookkeeping: the table sees every card go into it and out of it",
                           z.span, "mark only a scratch zone of your own 'bookkeeping', one nobody sees into")

    def _check_match(self) -> None:
        mt = self.rules.match
        if mt is None:
            return
        if mt.target is not None:
            self._expect(mt.target, INT, Scope(dict(self.env)))
        if mt.ties is not None:
            scope = Scope(dict(self.env))
            scope.names.update(self.variables)
            t = self._type(mt.ties, scope)
            if t not in (PLAYER, SIDE, ANY):
                self.error("type-error", f"'ties go to' needs a player or a side, not {t}", mt.ties.span)
        if mt.deal_limit is not None and not 1 <= mt.deal_limit <= 100_000:
            self.error("limit-exceeded", "the deal limit must be 1..100000", mt.span)
        if isinstance(mt.first_dealer, int) and self.rules.players and mt.first_dealer >= self.rules.players.count:
            self.error("bad-zone", f"seat {mt.first_dealer} does not exist", mt.span)

    # ------------------------------------------------------------ names and types
    def _global_names(self) -> dict[str, Type]:
        env: dict[str, Type] = dict(BUILTIN_NAMES)
        self._check_global_clashes(set(env))
        for o in self.rules.options:
            env[o.name] = INT if o.type == "int" else BOOL if o.type == "bool" else ChoiceOf(o.name)
        for value, opt in self.choice_values.items():
            env.setdefault(value, ChoiceOf(opt))
        for z in self.rules.zones:
            env.setdefault(z.name, ZONE)
        for role in self.rules.roles:
            env[role.name] = PLAYER
        seen: set[str] = set()
        for c in self.rules.counters:
            if c.name in env or c.name in seen:
                self.error("duplicate-name", f"counter '{c.name}' reuses a name already declared", c.span)
            seen.add(c.name)
        for teams in self.rules.teams:  # (design 3.9)
            for team in teams.names:
                if team in env or team in seen or team in NEW_NAMES or team in LOOP_NAMES or team in self.suits:
                    self.error("duplicate-name", f"team '{team}' reuses a name already declared", teams.span,
                               "choose another name for the team")
                seen.add(team)
                env.setdefault(team, TEAM)
        for suit in self.suits:  # a suit as a value (`trump == spades`), unless the file names something so
            if suit not in seen and suit not in self.declared:
                env.setdefault(suit, SUIT)
        env["bid"] = bid_type(self.rules)  # a bid of the bid table, or a number
        for name, t in NEW_NAMES.items():
            if name not in self.declared:
                env.setdefault(name, t)
        for table in self.rules.bids[:1]:
            for line in table.lines:
                if isinstance(line, m.NamedBid) and line.name not in seen and line.name not in self.declared:
                    env.setdefault(line.name, BID)  # a named bid, as a value
        return env

    def name_declared_as(self, name: str) -> str:
        """What a name already declared is, for messages: "the zone 'won'", "the role 'elder'",
        "'foster', a value of the option 'multi_turnup_remedy'", "the built-in player 'dealer'"."""
        if name in self.zones:
            return f"the zone '{name}'"
        if name in self.options:
            return f"the option '{name}'"
        if any(role.name == name for role in self.rules.roles):
            return f"the role '{name}'"
        if name in self.choice_values:
            return f"'{name}', a value of the option '{self.choice_values[name]}'"
        if name in BUILTIN_PLAYERS:
            return f"the built-in player '{name}'"
        return f"the built-in name '{name}'"

    def _check_global_clashes(self, builtins: set[str]) -> None:
        """Options, zones and roles share one namespace: report a role declared
        twice, a name declared as two kinds of thing, and a built-in name reused.
        (An option or a zone declared twice is reported with the options and zones.)"""
        declared: dict[str, tuple[str, m.Span]] = {}
        named: list[tuple[str, str, m.Span]] = [("option", o.name, o.span) for o in self.rules.options]
        named += [("zone", z.name, z.span) for z in self.rules.zones]
        named += [("role", r.name, r.span) for r in self.rules.roles]
        named += [("table", t.name, t.span) for t in self.rules.tables]
        for kind, name, span in named:
            first = declared.get(name)
            if name in builtins:
                self.error("duplicate-name", f"{kind} '{name}' reuses the built-in name '{name}'", span, "choose another name")
            elif first is not None and (first[0] != kind or kind == "role"):
                what = "declared twice" if first[0] == kind else f"already declared as {'an' if first[0] == 'option' else 'a'} {first[0]}"
                self.error("duplicate-name", f"{kind} '{name}' is {what}", span, f"the first is on line {first[1].line}")
            declared.setdefault(name, (kind, span))

    def _collect_variables(self, stmts: Iterable[m.Statement]) -> dict[str, Type]:
        found: dict[str, Type] = {}
        for st in statements(stmts):
            if isinstance(st, m.Let) and not st.rebind:  # noqa: SIM102
                scope = Scope(dict(self.env))
                scope.names.update(found)
                scope.names.update(LOOP_NAMES)
                t = self._type(st.value, scope, report=False)
                found.setdefault(st.name, t)
        return found

    def _type(self, e: m.Expr, scope: Scope, report: bool = True) -> Type:
        """The type of an expression, reporting what is wrong in it (unless ``report`` is False)."""
        return _CheckingTyper(self, report).visit(e, scope)

    def _expect(self, e: m.Expr, wanted: Type, scope: Scope, report: bool = True) -> None:
        _CheckingTyper(self, report).expect(e, wanted, scope)

    def _seat(self, e: m.Expr, scope: Scope) -> None:
        """A player who must act or be a seat here: a player expression that is not `nobody`."""
        _CheckingTyper(self, True).not_nobody(e, "this")
        self._expect(e, PLAYER, scope)

    def _not_nobody(self, e: m.Expr, what: str) -> None:
        _CheckingTyper(self, True).not_nobody(e, what)

    def _suggest(self, name: str, scope: Scope) -> str:
        return self._closest(name, (*scope.names, *self.zones))

    def _closest(self, word: str, candidates: tuple[str, ...]) -> str:
        """``did you mean 'X'?`` for the candidate closest to ``word`` (each asked once)."""
        key = (word, candidates)
        hint = self._hints.get(key)
        if hint is None:
            import difflib

            close = difflib.get_close_matches(word, candidates, n=1)
            hint = self._hints[key] = f"did you mean '{close[0]}'?" if close else ""
        return hint

    def _check_pattern(self, p: m.Pattern, report: bool = True, scope: Scope | None = None, fixed: bool = False) -> None:
        """Check a card pattern (``scope``: the names around it, for a suit named by a variable; ``fixed``: a
        pattern the runtime compiles to a fixed table, where a suit variable is ``Pattern.suit_variable_in_rule``)."""
        if report and self.rules.deck is not None:  # without a deck (reported once) every card would be unknown
            CardChecks(self, fixed).pattern(p, scope)

    def construct(self, key: str, span: m.Span | None) -> None:
        """A construct found while checking, which only the checker can name (see :mod:`tricklang.support`)."""
        self.typed_constructs.append((key, span))

    # ------------------------------------------------------------ statements
    def _check_block(self, stmts: Iterable[m.Statement], scope: Scope) -> None:
        StatementChecker(self).block(stmts, scope)

    def _check_name_lengths(self) -> None:
        """Every name a rule file declares is at most MAX_NAME characters long."""
        r = self.rules
        named: list[tuple[str, str, m.Span]] = []
        named += [("role", x.name, x.span) for x in r.roles]
        named += [("option", x.name, x.span) for x in r.options]
        named += [("choice", c, x.span) for x in r.options for c in x.choices]
        named += [("zone", x.name, x.span) for x in r.zones]
        named += [("counter", x.name, x.span) for x in r.counters]
        named += [("team", name, x.span) for x in r.teams for name in x.names]
        named += [("irregularity", x.name, x.span) for x in r.irregularities]
        if r.deck is not None:
            named += [("suit", s.name, s.span) for s in r.deck.suits]
            named += [("colour", s.colour, s.span) for s in r.deck.suits]
        for st in statements_of(r):
            if isinstance(st, m.Let):
                named.append(("variable", st.name, st.span))
            elif isinstance(st, m.Phase):
                named.append(("phase", st.name, st.span))
            elif isinstance(st, m.Choose):
                named += [("choice", o.name, o.span) for o in st.options]
            elif isinstance(st, m.Tricks):
                named += [("declaration", d.name, d.span) for d in st.declarations]
            elif isinstance(st, (m.Take, m.Keep)):
                named.append(("verb", st.verb, st.span))
        for kind, name, span in named:
            if len(name) > MAX_NAME:
                self.error("limit-exceeded", f"{kind} name '{name[:20]}…' is longer than {MAX_NAME} characters", span)

    def _declaration_names(self) -> set[str]:
        return {d.name for st in statements(self.rules.deal) if isinstance(st, m.Tricks) for d in st.declarations}

    def _decision_kinds(self) -> set[str]:
        """What ``during KIND`` may name: every kind of decision of the deal, ``any``, and the
        referee's pauses (``deal``: right after a deal statement; ``end_of_play``: after the last card)."""
        kinds = {"any"}
        for st in statements(self.rules.deal):
            kinds.update(st.decision_kinds())
            if isinstance(st, m.DealCards):
                kinds.add("deal")
        if "play" in kinds:
            kinds.add("end_of_play")
        return kinds

    def _check_irregularities(self) -> None:
        seen: set[str] = set()
        kinds = self._decision_kinds()
        for irr in self.rules.irregularities:
            if irr.name in seen:
                self.error("duplicate-name", f"irregularity '{irr.name}' is declared twice", irr.span)
            seen.add(irr.name)
            scope = Scope(dict(self.env))
            scope.names.update(self.variables)
            if irr.phases and set(irr.phases) <= {"play"}:
                scope = scope.in_trick(self.declared)  # a remedy offered only during play reads the trick
            scope.names["offender"] = PLAYER
            self._check_parameters(irr, scope)
            if irr.by is not None:
                self._seat(irr.by, scope)
            for phase in irr.phases:
                if phase not in kinds:
                    self.error("undefined-name", f"'{phase}' is not a kind of decision in this game", irr.span,
                               "kinds here: " + ", ".join(sorted(kinds)))
            if irr.guard is not None:
                self._expect(irr.guard, BOOL, scope)
            self._check_block(irr.body, scope)

    def _check_parameters(self, irr: m.Irregularity, scope: Scope) -> None:
        """An irregularity's parameters: names not taken, count ranges within bounds, card zones
        and patterns that exist; the choices they offer (times the seats) within the action budget.
        Each is added to ``scope`` for the guard and the body."""
        ids = 1
        for p in irr.params:
            if p.name in scope.names or p.name in ("player", "side", "declarer"):
                self.error("duplicate-name", f"parameter '{p.name}' of irregularity '{irr.name}' reuses a name already declared",
                           p.span, "choose another name")
                continue
            if p.kind == "count":
                if not 0 <= p.low <= p.high:
                    self.error("bad-parameter", f"parameter '{p.name}' counts {p.low}..{p.high}: the range must be "
                               "of numbers 0 or more, low to high", p.span)
                elif p.high - p.low >= MAX_PARAMETER_VALUES:
                    self.error("bad-parameter", f"parameter '{p.name}' counts {p.low}..{p.high}: at most "
                               f"{MAX_PARAMETER_VALUES} values", p.span)
                ids *= max(1, p.high - p.low + 1)
                scope.names[p.name] = INT
            elif p.kind == "suit":
                ids *= max(1, len(self.suits))
                scope.names[p.name] = SUIT
            else:
                if p.zone is not None:
                    StatementChecker(self)._zone(p.zone, scope)
                if p.matching is not None:
                    self._check_pattern(p.matching)
                ids *= max(1, len(self.ranks) * len(self.suits))
                scope.names[p.name] = CARD
            self.used_names.add(p.name)
        seats = self.rules.players.count if self.rules.players else 1
        if ids * seats > MAX_PARAMETER_IDS:
            self.error("limit-exceeded", f"irregularity '{irr.name}' would offer {ids * seats} actions "
                       f"(its parameters' values times the seats); at most {MAX_PARAMETER_IDS}", irr.span)

    def _check_trick_remedies(self) -> None:
        """`P leads` and `replay the tricks` act on the trick play in progress: only the
        remedy of an irregularity offered during play (and at no other decision) may use them;
        `replay the tricks` also at the pause after the deal's last card (`end_of_play`)."""
        def remedies(stmts: tuple[m.Statement, ...]) -> list[m.Statement]:
            return [st for st in statements(stmts) if isinstance(st, (m.Leads, m.ReplayTricks))]

        hint = "use it in an irregularity declared 'during play'"
        for st in remedies(self.rules.deal):
            self.error("remedy-outside-play", f"{_remedy_words(st)} acts on the trick play in progress; "
                       "only an irregularity's remedy can run then", st.span, hint)
        for irr in self.rules.irregularities:
            for st in remedies(irr.body):
                # Replaying the tricks also fits the pause after the last card; a lead needs a trick in progress.
                allowed = {"play", "end_of_play"} if isinstance(st, m.ReplayTricks) else {"play"}
                if irr.phases and set(irr.phases) <= allowed:
                    continue
                during = ", ".join(irr.phases) if irr.phases else "any decision"
                self.error("remedy-outside-play", f"{_remedy_words(st)} acts on the trick play in progress, but "
                           f"irregularity '{irr.name}' is offered during {during}", st.span,
                           hint + (" (or 'during play, end_of_play')" if isinstance(st, m.ReplayTricks) else ""))

    # ------------------------------------------------------------ what the runtime plays
    def _check_support(self) -> None:
        """Every construct the file uses is one the runtime plays (:mod:`tricklang.support`): a
        construct of the language whose runtime half has not landed is refused where it is used."""
        reported: set[str] = set()
        for key, span in [*constructs(self.rules), *self.typed_constructs]:
            if key in RUNTIME or key in reported:
                continue
            reported.add(key)
            self.error("unsupported-construct", f"{words(key)} is part of the language but this runtime cannot play "
                       "it yet", span, "see docs/language/README.md for what each construct needs")

    # ------------------------------------------------------------ card counts
    def _check_card_counts(self) -> None:
        """Deals the deck cannot hold (``deck-too-small``); with a range of players, at the largest count."""
        rules, values = self.rules, {o.name: o.default for o in self.rules.options}
        p = rules.players
        if p is not None and p.kind == "range" and p.high is not None and 2 <= p.high <= MAX_PLAYERS:
            rules = rules.model_copy(update={"players": p.model_copy(update={"count": p.high})})
            values["players"] = p.high
        card_count_problems(rules, values, self.error)


def check(rules: m.RuleFile) -> list[Diagnostic]:
    """Return every diagnostic (errors and warnings) of the checker for a parsed rule file.

    The lints (:func:`tricklang.lints.lint`) are a separate pass, run by the loader
    on a rule file without errors.
    """
    return Checker(rules).run()


class _CheckingTyper(Typer):
    """The typer of :mod:`tricklang.types`, reporting to a checker (and noting used names)."""

    def __init__(self, checker: Checker, report: bool) -> None:
        super().__init__(checker.rules, checker.choice_values, checker.declared, checker.variable_names)
        self.checker = checker
        self.report = report

    def error(self, code: str, message: str, span: m.Span | None, hint: str = "") -> None:
        if self.report:
            self.checker.error(code, message, span, hint)

    def use(self, name: str) -> None:
        self.checker.used_names.add(name)

    def construct(self, key: str, span: m.Span) -> None:
        if self.report:
            self.checker.typed_constructs.append((key, span))

    def pattern(self, p: m.Pattern, scope: Scope, fixed: bool = False) -> None:
        self.checker._check_pattern(p, self.report, scope, fixed)

    def suggest(self, name: str, scope: Scope) -> str:
        return self.checker._suggest(name, scope) if self.report else ""


def _remedy_words(st: m.Statement) -> str:
    return "'P leads'" if isinstance(st, m.Leads) else "'replay the tricks'"
