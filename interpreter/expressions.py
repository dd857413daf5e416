"""Expressions of a rule file compiled to closures over the game core (``Fn``).

:class:`ExpressionCompiler` is the part of the compiler that turns expressions,
names, zones, functions and card holders into closures, folding what is constant
(literals and options) at compile time. Run-time failures name the rule line.
"""

from __future__ import annotations

from typing import Any
from weakref import WeakKeyDictionary

from tricklang import model as m
from tricklang.types import Kind, Symbols, Type
from tricklang.walk import BINARY, UNKNOWN, Unknown, Value, fold

from . import sources as src
from .cards import CardTables
from .core import Core
from .errors import RuleRuntimeError
from .instructions import MAX_NUMBER
from .program import Fn, Program

_ARITHMETIC = frozenset({"+", "-", "*", "%"})

_CONSTANTS: WeakKeyDictionary[Fn, Value] = WeakKeyDictionary()
HAS: WeakKeyDictionary[Fn, tuple[Fn, Any]] = WeakKeyDictionary()
"""The closures of ``ZONE has PATTERN`` (not a suit parameter's): their zone's closure and
pattern table (``table[trump index][card]``), for the code generator to write the test out."""

_BUILTIN_NAMES: dict[str, tuple[Fn, str]] = {  # a built-in name: its value, and its source
    "dealer": (lambda core: core.dealer, "core.dealer"),
    "maker": (lambda core: core.maker, "core.maker"),
    "bid": (lambda core: core.bid, "core.bid"),
    "nobody": (lambda core: -1, "-1"),
    "deal_number": (lambda core: core.deal_no + 1, "(core.deal_no + 1)"),
    # the seat that led, or is to lead, the trick in progress
    "leader": (lambda core: core.tr_leader if core.tr_active else -1, "(core.tr_leader if core.tr_active else -1)"),
    "played_to_trick": (lambda core: len(core.tr_cards) if core.tr_active else 0,
                        "(len(core.tr_cards) if core.tr_active else 0)"),
    "trump": (lambda core: core.trump, "core.trump"),
}


def _ints(values: list[int]) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """A tuple of ints (a table such as ``side_of``) as a source: its placeholder and the
    object it names. (A named table, not a literal: Cython (:mod:`interpreter.native`)
    miscompiles a literal tuple indexed by a conditional expression.)"""
    k = src.key("o")
    return f"{{{k}}}", ((k, tuple(int(v) for v in values)),)


def _total(values: list[int], seats: tuple[int, ...]) -> int:
    """The sum of ``values`` at ``seats`` (a side's tricks, in written-out sources)."""
    total = 0
    for p in seats:
        total += values[p]
    return total


def _side_tricks(sides: list[list[int]], who: Fn) -> Fn:
    """``tricks(S)`` of a side: its members' tricks summed (a source when ``who`` has one)."""
    fn = lambda core: sum(core.tricks_won[p] for p in sides[who(core)])  # noqa: E731
    w = src.of(who)
    if w is None:
        return fn
    total, members = src.key("o"), src.key("o")
    return src.register(fn, f"{{{total}}}(core.tricks_won, {{{members}}}[{w.text}])", w,
                        objects=((total, _total), (members, tuple(tuple(side) for side in sides))))


def _partner(sides: list[list[int]], side_of: list[int], arg: Fn) -> Fn:
    """``partner of P`` (``arg`` a checked seat): the next member of P's side; a source
    (a table of each seat's partner) when ``arg`` has one."""

    def partner(core: Core) -> int:
        p = arg(core)
        members = sides[side_of[p]]
        return members[(members.index(p) + 1) % len(members)]
    a = src.of(arg)
    if a is None:
        return partner
    partners = []
    for p in range(len(side_of)):
        members = sides[side_of[p]]
        partners.append(members[(members.index(p) + 1) % len(members)])
    table, objects = _ints(partners)
    return src.register(partner, f"{table}[{a.text}]", a, objects=objects)


def constant(value: Value) -> Fn:
    """A closure that always gives ``value`` (:func:`known` tells its value without a core)."""

    def fn(core: Core) -> Value:
        return value
    _CONSTANTS[fn] = value
    text = src.number(value)
    if text is not None:
        src.register(fn, text)
    return fn


def known(fn: Fn) -> Value | Unknown:
    """The value of a closure made by :func:`constant`, else ``UNKNOWN`` (for the code generator)."""
    return _CONSTANTS.get(fn, UNKNOWN)


def _checked_arithmetic(op_name: m.BinaryOp, left: Fn, right: Fn, line: int) -> Fn:
    """``+ - * %`` at run time: a number beyond 18 digits or ``%`` by zero is a
    :class:`RuleRuntimeError` naming the line (the state is then left as it was)."""
    op = BINARY[op_name]

    def arithmetic(core: Core) -> Any:
        a, b = left(core), right(core)
        if op_name == "%" and b == 0:
            raise RuleRuntimeError(f"line {line}: '%' by zero")
        value = op(a, b)
        if not -MAX_NUMBER <= value <= MAX_NUMBER:
            raise RuleRuntimeError(f"line {line}: a number grew beyond 18 digits")
        return value
    return arithmetic



class ExpressionCompiler:
    """Expressions to closures; mixed into the compiler, which provides the state below."""

    prog: Program
    tables: CardTables
    symbols: Symbols
    roles: dict[str, m.Expr]
    context: dict[str, Type]
    constants: dict[str, Value]
    line = 0
    """The line of the statement being compiled, for run-time errors in its expressions."""

    def seat(self, e: m.Expr, what: str = "") -> Fn:
        """A player expression used where a seat is needed (an actor, `tricks(P)`, `left of P`...).

        A value that is not a seat (`nobody`, a maker not yet chosen) raises RuleRuntimeError
        naming the rule's line, instead of silently reading some other seat's value.
        """
        fn = self.expr(e)
        if self._depends_on_dealer_only(e) or isinstance(e, m.Name) and e.name in self.context:
            return fn  # always a seat
        n, line = self.prog.n, self.line
        said = e.name if isinstance(e, m.Name) else "the player"
        where = f" in {what}" if what else ""

        message = f"line {line}: a seat is needed{where}, but {said} is nobody"

        def checked(core: Core) -> Any:
            v = fn(core)
            if not (isinstance(v, int) and 0 <= v < n):
                raise RuleRuntimeError(message)
            return v
        inner = src.of(fn)
        if inner is not None:
            seat = src.seat(inner, n, message)
            src.register(checked, seat.text, seat)
        return checked

    def slot(self, name: str) -> int:  # pragma: no cover - provided by the compiler
        raise NotImplementedError

    def type(self, e: m.Expr) -> Type:  # pragma: no cover - provided by the compiler
        raise NotImplementedError

    # ------------------------------------------------------------ expressions
    def constant(self, e: m.Expr) -> Value | Unknown:
        """The value of an expression made of literals and options only, else UNKNOWN."""
        env = self.constants
        if self.context:
            env = {k: v for k, v in env.items() if k not in self.context}
        value = fold(e, env)
        if isinstance(value, int) and not -MAX_NUMBER <= value <= MAX_NUMBER:
            return UNKNOWN  # too large to fold: the run-time check reports it, naming the line
        return value

    def guard(self, e: m.Expr | None) -> Fn | None | bool:
        """A guard's test; True when it always holds (or is absent), False when it never does."""
        if e is None:
            return True
        v = self.constant(e)
        if not isinstance(v, Unknown):
            return bool(v)
        return self.expr(e)

    def expr(self, e: m.Expr) -> Fn:
        value = self.constant(e)
        if not isinstance(value, Unknown):
            return constant(value)
        if isinstance(e, m.IntLit):
            return constant(e.value)
        if isinstance(e, m.Name):
            return self.name(e.name)
        if isinstance(e, m.Of):
            return self.of(e)
        if isinstance(e, m.Call):
            return self.call(e)
        if isinstance(e, m.BinOp):
            left, right = self.expr(e.left), self.expr(e.right)
            a, b = src.of(left), src.of(right)
            if e.op == "and":
                fn = lambda core: bool(left(core)) and bool(right(core))  # noqa: E731
                return src.register(fn, f"(True if ({a.text}) and ({b.text}) else False)", a, b) if a and b else fn
            if e.op == "or":
                fn = lambda core: bool(left(core)) or bool(right(core))  # noqa: E731
                return src.register(fn, f"(True if ({a.text}) or ({b.text}) else False)", a, b) if a and b else fn
            if e.op in _ARITHMETIC:
                fn = _checked_arithmetic(e.op, left, right, e.span.line)
                if a and b and e.op in src.ARITHMETIC:
                    text = src.arithmetic(e.op, a, b, MAX_NUMBER, f"line {e.span.line}: a number grew beyond 18 digits")
                    src.register(fn, text.text, text)
                return fn
            op = BINARY[e.op]
            fn = lambda core: op(left(core), right(core))  # noqa: E731
            compare = src.COMPARISONS.get(e.op)
            if a and b and compare:
                src.register(fn, f"(({a.text}) {compare} ({b.text}))", a, b)
            return fn
        if isinstance(e, m.Not):
            inner = self.expr(e.operand)
            fn = lambda core: not inner(core)  # noqa: E731
            a = src.of(inner)
            return src.register(fn, f"(not ({a.text}))", a) if a else fn
        if isinstance(e, m.Neg):
            inner = self.expr(e.operand)
            return lambda core: -inner(core)
        if isinstance(e, m.CardHolder):
            return self.card_holder(e)
        if isinstance(e, m.Has):
            zone = self.zone_expr(e.zone)
            if isinstance(e.pattern, m.PatWord) and self.context.get(e.pattern.word) == Kind.SUIT:
                return self.has_suit(zone, self.slot(e.pattern.word))
            table = self.tables.pattern_table(e.pattern)

            def has(core: Core) -> bool:
                cards = core.zones[zone(core)]
                core.steps += len(cards)  # cards scanned count towards the work budget
                t = table[core.ti]
                return any(t[c] for c in cards)
            HAS[has] = (zone, table)
            return has
        raise TypeError(e)  # pragma: no cover

    def has_suit(self, zone: Fn, slot: int) -> Fn:
        """`ZONE has S`, S a suit parameter of an irregularity: a card of that (effective) suit."""
        eff_suit = self.tables.eff_suit

        def has(core: Core) -> bool:
            cards = core.zones[zone(core)]
            core.steps += len(cards)  # cards scanned count towards the work budget
            suits, suit = eff_suit[core.ti], core.vars[slot]
            return any(suits[c] == suit for c in cards)
        return has

    def name(self, name: str) -> Fn:
        prog = self.prog
        if name in self.context or name in self.symbols.variables:
            slot = self.slot(name)
            line_name = name

            message = f"variable '{line_name}' was read before it was given a value"

            def read(core: Core) -> Any:
                v = core.vars[slot]
                if v is None:
                    raise RuleRuntimeError(message)
                return v
            variable = src.variable(slot, message)
            return src.register(read, variable.text, variable)
        if name in _BUILTIN_NAMES:
            fn, text = _BUILTIN_NAMES[name]
            return src.register(fn, text)
        if name == "total_bids":
            return lambda core: sum(b for b in core.bids if b >= 0)
        if name in ("true", "false"):
            value = name == "true"
            return src.register(lambda core: value, "True" if value else "False")
        if name in prog.options:
            opt = prog.options[name]
            fn = lambda core: opt  # noqa: E731
            literal = src.number(opt)
            return src.register(fn, literal) if literal is not None else fn
        if name in self.roles:
            return self.expr(self.roles[name])
        if name in self.symbols.choice_values:
            return lambda core: name
        if name in prog.zone_base and prog.zone_kind[name] == "shared":
            z = prog.zone_base[name]
            return src.register(lambda core: z, repr(int(z)))
        raise RuleRuntimeError(f"cannot compile name '{name}'")  # pragma: no cover - checked

    def of(self, e: m.Of) -> Fn:
        prog = self.prog
        player_arg = e.name != "suit" and self.type(e.arg) == "player"
        arg = self.seat(e.arg, f"'{e.name} of'") if player_arg else self.expr(e.arg)
        n = prog.n
        a = src.of(arg)
        if e.name == "left":
            fn = lambda core: (arg(core) + 1) % n  # noqa: E731
            return src.register(fn, f"(({a.text}) + 1) % {int(n)}", a) if a else fn
        if e.name == "right":
            fn = lambda core: (arg(core) - 1) % n  # noqa: E731
            return src.register(fn, f"(({a.text}) - 1) % {int(n)}", a) if a else fn
        if e.name == "partner":
            return _partner(prog.sides, prog.side_of, arg)
        if e.name == "side":
            side_of = prog.side_of
            fn = lambda core: side_of[arg(core)]  # noqa: E731
            if a is None:
                return fn
            table, objects = _ints(side_of)
            return src.register(fn, f"{table}[{a.text}]", a, objects=objects)
        if e.name == "suit":
            zone = self.zone_expr(e.arg)
            suits = self.tables.suit
            return lambda core: suits[core.zones[zone(core)][-1]] if core.zones[zone(core)] else -1
        if e.name in prog.counters:
            name, kind = e.name, prog.counters[e.name]
            owner_is_player = self.type(e.arg) == "player"
            side_of = prog.side_of

            def counter(core: Core) -> int:
                owner = arg(core)
                if kind == "side" and owner_is_player:
                    owner = side_of[owner]
                elif kind == "shared":
                    owner = 0
                value: int = core.counters[name][owner]
                return value
            return counter
        if e.name == "opponents":
            is_player = self.type(e.arg) == "player"
            side_of = prog.side_of
            nsides = len(prog.sides)

            def opponents(core: Core) -> int:
                s: int = arg(core)
                if is_player:
                    s = side_of[s]
                if nsides != 2:
                    raise RuleRuntimeError("'opponents of' needs exactly two sides")
                return 1 - s
            if a is None or nsides != 2:
                return opponents
            table, objects = _ints(side_of)
            return src.register(opponents, f"1 - {table}[{a.text}]" if is_player else f"1 - ({a.text})", a,
                                objects=objects if is_player else ())
        return self.zone_expr(e)

    def zone_expr(self, e: m.Expr | m.ZoneRef, subject: Fn | None = None) -> Fn:
        prog = self.prog
        if isinstance(e, m.ZoneRef):
            name, owner_expr = e.name, e.owner
        elif isinstance(e, m.Of):
            name, owner_expr = e.name, e.arg
        elif isinstance(e, m.Name):
            name, owner_expr = e.name, None
        else:  # pragma: no cover - checked
            raise RuleRuntimeError("not a zone")
        base = prog.zone_base[name]
        kind = prog.zone_kind[name]
        if kind == "shared":
            return src.register(lambda core: base, repr(int(base)))
        owner = self.seat(owner_expr, f"'{name} of'") if owner_expr is not None and self.type(owner_expr) == "player" else (
            self.expr(owner_expr) if owner_expr is not None else subject)
        if owner is None:  # pragma: no cover - checked
            raise RuleRuntimeError(f"zone '{name}' needs an owner")
        if kind == "side":
            owner_is_player = owner_expr is None or self.type(owner_expr) == "player"
            side_of = prog.side_of
            if owner_is_player:
                fn = lambda core: base + side_of[owner(core)]  # noqa: E731
                a = src.of(owner)
                if a is None:
                    return fn
                table, objects = _ints(side_of)
                return src.register(fn, f"({int(base)} + {table}[{a.text}])", a, objects=objects)
        fn = lambda core: base + owner(core)  # noqa: E731
        a = src.of(owner)
        return src.register(fn, f"({int(base)} + ({a.text}))", a) if a else fn

    def _min_max(self, least: bool, fns: list[Fn]) -> Fn:
        """``min(...)`` or ``max(...)`` of the values (with a source when each has one)."""
        f = min if least else max
        fn = lambda core: f(g(core) for g in fns)  # noqa: E731
        parts = [p for p in map(src.of, fns) if p is not None]
        if len(parts) < 2 or len(parts) < len(fns):
            return fn
        return src.register(fn, f"{'min' if least else 'max'}({', '.join(p.text for p in parts)})", *parts)

    def call(self, e: m.Call) -> Fn:
        prog = self.prog
        args = e.args
        if e.name in ("min", "max"):
            return self._min_max(e.name == "min", [self.expr(a.value) for a in args])
        arg = args[0]
        if e.name == "count":
            zone = self.zone_expr(arg.value)
            if arg.matching is None:
                fn = lambda core: len(core.zones[zone(core)])  # noqa: E731
                a = src.of(zone)
                return src.register(fn, f"len(core.zones[{a.text}])", a) if a else fn
            table = self.tables.pattern_table(arg.matching)

            def count(core: Core) -> int:
                cards = core.zones[zone(core)]
                core.steps += len(cards)  # cards scanned count towards the work budget
                t = table[core.ti]
                return sum(1 for c in cards if t[c])
            return count
        is_player = self.type(arg.value) == "player"
        who = self.seat(arg.value, f"'{e.name}()'") if is_player else self.expr(arg.value)
        sides, side_of = prog.sides, prog.side_of
        w = src.of(who)
        if e.name == "tricks":
            if is_player:
                fn = lambda core: core.tricks_won[who(core)]  # noqa: E731
                return src.register(fn, f"core.tricks_won[{w.text}]", w) if w else fn
            return _side_tricks(sides, who)
        if e.name == "bids":
            if is_player:
                return lambda core: max(core.bids[who(core)], 0)
            return lambda core: sum(max(core.bids[p], 0) for p in sides[who(core)])
        if e.name == "score":
            if is_player:
                fn = lambda core: core.scores[side_of[who(core)]]  # noqa: E731
                if w is None:
                    return fn
                sides_of, objects = _ints(side_of)
                return src.register(fn, f"core.scores[{sides_of}[{w.text}]]", w, objects=objects)
            fn = lambda core: core.scores[who(core)]  # noqa: E731
            return src.register(fn, f"core.scores[{w.text}]", w) if w else fn
        if e.name == "points":
            won, per_side = prog.won, prog.won_kind == "side"
            table_name = ""
            if len(args) > 1 and isinstance(args[1].value, m.Name):
                table_name = args[1].value.name
            values = self.tables.point_values[table_name]

            def points(core: Core) -> int:
                x = who(core)
                value, zones = values[core.ti].__getitem__, core.zones
                if per_side:
                    return sum(map(value, zones[won + (side_of[x] if is_player else x)]))
                if is_player:
                    return sum(map(value, zones[won + x]))
                return sum(sum(map(value, zones[won + p])) for p in sides[x])
            return points
        raise RuleRuntimeError(f"unknown function {e.name}")  # pragma: no cover - checked

    def _depends_on_dealer_only(self, e: m.Expr) -> bool:
        if isinstance(e, m.Name):
            return e.name == "dealer" or (e.name in self.roles and self._depends_on_dealer_only(self.roles[e.name]))
        if isinstance(e, m.Of):
            return e.name in ("left", "right", "partner") and self._depends_on_dealer_only(e.arg)
        return False

    def card_holder(self, e: m.CardHolder) -> Fn:
        """`holder of`, `original holder of`, `taker of` a card chosen by a pattern."""
        prog, tables = self.prog, self.tables
        prog.holders = True  # the cards dealt are tracked (Program.note_hand)
        table = tables.pattern_table(e.card.pattern)
        ranking, kind = e.card.ranking, e.kind
        hand, n = prog.hand, prog.n

        def pick(core: Core) -> int:
            core.steps += tables.size  # cards scanned count towards the work budget
            t = table[core.ti]
            in_play = [c for c in range(tables.size) if t[c] and core.dealt_to[c] >= 0]
            if not in_play:
                return -1
            if ranking is None:
                card = in_play[0]
            else:
                strength = tables.trump_strength[core.ti]
                def key(c: int) -> tuple[int, int]:
                    return (strength[c], tables.plain[c])
                card = max(in_play, key=key) if ranking == "highest" else min(in_play, key=key)
            if kind == "original":
                return core.dealt_to[card]
            if kind == "taker":
                return core.taken_by[card]
            for p in range(n):
                if card in core.zones[hand + p]:
                    return p
            return -1
        return pick

    def count_fns(self, c: m.Count) -> tuple[Fn, Fn | None]:
        return self.expr(c.low), self.expr(c.high) if c.high is not None else None

