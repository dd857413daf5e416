"""Assembling a generated module: constants and card tables, the core's class, the
prelude of helpers, the blocks and ``advance``, the decision points' functions, the
match's flow (new match, deals, scores, the end), irregularities and accessors; and the
Cython declarations (``.pxd``) that type the core in a native build.
"""

from __future__ import annotations

from dataclasses import dataclass

from tricklang.bounds import DEFAULT_DEAL_LIMIT

from .layout import UNSET, Layout
from .parts import Parts
from .prelude import PRELUDE
from .writer import Writer, ints, lit


@dataclass
class Generated:
    """A generated module: its source, the Cython declarations that type its core for a
    native build, and the layout the Game reads its facts from."""

    source: str
    pxd: str
    layout: Layout

MAX_STEPS = 100_000
"""Automatic steps allowed between two decisions (a shuffle counts one per card)."""
MAX_EVENTS_PER_DEAL = 20_000
MAX_EVENTS_PER_MATCH = 1_000_000

EVENT_KINDS = ("TRICK", "DEALT", "SELECT", "BID", "PASS", "DRAW", "SCORE", "DEAL_END", "DEAL", "TRUMP", "CONTRACT",
               "MOVE", "CHOICE", "TURN_UP", "MAKER", "CONTRACT_BID", "REDEAL", "ALL_PASSED", "LAST_DEAL",
               "MATCH_END", "EXPOSED", "FORBID", "COUNTER", "DECLARE", "LEADS", "REPLAY", "DEALER", "CUT",
               "IRREGULARITY")
"""The kinds of the compact events a module logs (a played card is one int, not a tuple):
``TRICK`` is 1, ``DEALT`` 2... in this order (see :mod:`interpreter.state.events`)."""

HEADER = '''"""A tricklang game module, generated from a rule file (with its option values) by
interpreter.codegen. It holds no text of the rule file: rule lines are named by number,
names, labels and laws by id (the Game holds the words)."""
from __future__ import annotations

import random as _random_module

import cython

from interpreter.errors import GameLimitError
from interpreter.runtime.chance import draw as _chance_draw
from interpreter.runtime.faults import Fault, LimitFault
from interpreter.runtime.seeding import below as _below
from interpreter.runtime.seeding import chance_key as _chance_key
from interpreter.runtime.seeding import deal_order as _deal_order
from interpreter.runtime.seeding import first_dealer as _first_dealer
from interpreter.runtime.seeding import permutation as _permutation

_Random = _random_module.Random
_getrandbits = _random_module.Random.getrandbits
'''


def assemble(gen: Parts) -> Generated:
    """The whole module of a generator whose statements are all written."""
    lay = gen.lay
    w = Writer()
    for ln in HEADER.splitlines():
        w.line(ln)
    constants(gen, w)
    tables(gen, w)
    core_class(gen, w)
    for ln in PRELUDE.splitlines():
        w.line(ln)
    match_flow(gen, w)
    w.line()
    w.comment("---------------------------------------------------------------- blocks")
    for b in gen.blocks:
        w.line()
        w.line()
        w.line("@cython.cfunc")
        with w.block(f"def {b.name}(c: Core) -> cython.int:"):
            w.comment(f"rule line {b.line}: {b.what}" if b.line else b.what)
            if not b.w.lines:
                w.line("return -1")
            w.extend(b.w)
    advance(gen, w)
    w.line()
    w.comment("---------------------------------------------------------------- decision points")
    w.extend(gen.funcs)
    dispatch(gen, w)
    irregularities(gen, w)
    accessors(gen, w)
    return Generated(w.text(), pxd(lay), lay)


# ---------------------------------------------------------------- constants and tables
def constants(gen: Parts, w: Writer) -> None:
    lay = gen.lay
    rules = lay.rules
    mt = rules.match
    nd, nw = len(lay.declaration_names), len(lay.choice_words)
    keys = (nd + nw + 1) * lay.n
    w.line()
    w.comment("---------------------------------------------------------------- constants")
    w.line(f"MASK = cython.typedef({'object' if lay.wide else 'cython.ulonglong'})")
    w.line(f"WIDE = {lit(lay.wide)}")
    values = {
        "N": lay.n, "NC": lay.nc, "NS": lay.ns, "NT": lay.nt, "NZ": lay.nz, "NV": max(1, len(lay.slot_names)),
        "NSIDES": lay.nsides, "ND": nd, "NW": nw, "WORD_KEY": nd, "BID_KEY": nd + nw, "NKEYS": keys,
        "NL": max(1, len(lay.labels)), "NCNT": max(1, lay.counter_size), "NSTK": max(1, len(lay.stacks)),
        "HAND": lay.hand, "PACK": lay.pack, "PACK_STACK": lay.pack_stack, "WON": lay.won,
        "WON_PER_SIDE": lay.won_kind == "side", "ALL": lay.all_seats, "MAX_STEPS": MAX_STEPS,
        "MAX_EV_DEAL": MAX_EVENTS_PER_DEAL, "MAX_EV_MATCH": MAX_EVENTS_PER_MATCH, "UNSET": UNSET,
        "MAXN": 10**18 - 1, "HOLDERS": lay.uses.holders, "CANCEL": lay.uses.cancel,
        "AT_ONCE": mt is not None and mt.target_when == "at_once" and mt.target is not None,
        "HAS_TARGET": mt is not None and mt.target is not None,
        "LOWEST_WINS": mt is not None and mt.lowest_wins,
        "ROTATION": {"left": 1, "right": lay.n - 1, "never": 0}[mt.rotation] if mt is not None else 1,
        "DEAL_LIMIT": mt.deal_limit if mt is not None and mt.deal_limit is not None else DEFAULT_DEAL_LIMIT,
        "FIRST_DEALER": mt.first_dealer if mt is not None and isinstance(mt.first_dealer, int) else -1,
        "NLEAD": max(1, len(lay.lead_patterns)),
    }
    for name, value in values.items():
        ctype = "cython.bint" if isinstance(value, bool) else "cython.longlong"
        w.line(f"{name} = cython.declare({ctype}, {lit(value)})")
    for k, kind in enumerate(EVENT_KINDS, start=1):
        w.line(f"{kind} = cython.declare(cython.int, {lit(k)})")


def table(w: Writer, name: str, ctype: str, values: list[int], wide: bool = False) -> None:
    """A module-level table: a C array in a native build (a Python tuple when its values
    may be wider than 64 bits)."""
    if wide:
        w.line(f"{name} = cython.declare(tuple, ({''.join(lit(v) + ', ' for v in values)}))")
    else:
        w.line(f"{name} = cython.declare({ctype}[{lit(max(1, len(values)))}], {ints(values or [0])})")


def tables(gen: Parts, w: Writer) -> None:
    lay = gen.lay
    t = lay.tables
    nc, ns, nt = lay.nc, lay.ns, lay.nt
    mask = "cython.ulonglong"
    wide = lay.wide
    w.line()
    w.comment("---------------------------------------------------------------- card tables")
    table(w, "BIT", mask, [1 << c for c in range(nc)], wide)
    table(w, "SUIT", "cython.int", t.suit)
    table(w, "EFF", "cython.int", [t.eff_suit[ti][c] for ti in range(nt) for c in range(nc)])
    suits = lay.suit_masks()
    table(w, "SUITS", mask, [suits[ti][s] for ti in range(nt) for s in range(ns)], wide)
    table(w, "TRUMPS", mask, lay.trump_masks(), wide)
    if not wide:  # how strongly each card plays to a trick, and the cards above it
        power = [t.power[ti][led][c] for ti in range(nt) for led in range(ns) for c in range(nc)]
        table(w, "POWER", "cython.int", power)
        above = []
        for ti in range(nt):
            for led in range(ns):
                row = t.power[ti][led]
                for c in range(nc):
                    above.append(sum(1 << x for x in range(nc) if row[x] > row[c]))
        table(w, "ABOVE_CARD", mask, above)
    table(w, "TSTRENGTH", "cython.int", [t.trump_strength[ti][c] for ti in range(nt) for c in range(nc)])
    table(w, "PLAIN", "cython.int", t.plain)
    order = lay.trump_order()
    starts = [0]
    flat: list[int] = []
    for ti in range(nt):
        flat.extend(order[ti])
        starts.append(len(flat))
    table(w, "TORDER", "cython.int", flat)
    table(w, "TSTART", "cython.int", starts)
    rank_key = [t.trump_strength[ti][c] * (nc + 1) + t.plain[c] for ti in range(nt) for c in range(nc)]
    table(w, "RANKKEY", "cython.int", rank_key)
    table(w, "PAT", mask, [m for rows in lay.patterns for m in rows], wide)
    points = [v for rows in t.point_values.values() for row in rows for v in row]
    table(w, "POINTS", "cython.longlong", points)
    table(w, "SIDE_OF", "cython.int", lay.side_of)
    table(w, "PARTNER", "cython.int", lay.partner)
    starts, seats = [0], []
    for side in lay.sides:
        seats.extend(side)
        starts.append(len(seats))
    table(w, "SIDE_START", "cython.int", starts)
    table(w, "SIDE_SEATS", "cython.int", seats)
    table(w, "ZMASK", "cython.longlong", [inst.mask for inst in lay.instances])
    table(w, "STACK_OF", "cython.int", [lay.stack_of.get(z, -1) for z in range(lay.nz)])
    nkeys = (len(lay.declaration_names) + len(lay.choice_words) + 1) * lay.n
    table(w, "DBIT", "cython.ulonglong", [1 << k for k in range(nkeys)], nkeys > 64)
    table(w, "ZBIT", "cython.ulonglong", [1 << k for k in range(lay.nz)], lay.nz > 64)
    for name, values in gen.tables_extra:
        table(w, name, "cython.int", values)
    dps = lay.dps
    w.line("TRICK_READY = frozenset(" + ints(d.extra["ready"] for d in dps if d.kind == "play") + ")")
    w.line("TRICK_SETS_TRUMP = {" + ", ".join(f"{lit(d.extra['ready'])}: {lit(bool(d.extra.get('sets_trump')))}"
                                                for d in dps if d.kind == "play") + "}")
    w.line("PAUSE_TRICKS = {" + ", ".join(f"{lit(d.extra['ready'])}: {lit(d.extra['tricks_ready'])}"
                                            for d in dps if d.kind == "pause" and "tricks_ready" in d.extra) + "}")


# ---------------------------------------------------------------- the core
def fields(lay: Layout) -> list[tuple[str, str, str]]:
    """The core's fields: (name, Cython declaration, Python initial value)."""
    mask = "object" if lay.wide else "unsigned long long"
    nkeys = (len(lay.declaration_names) + len(lay.choice_words) + 1) * lay.n
    out = [
        ("pc", "public int", "0"), ("dp", "public int", "-1"), ("actor", "public int", "-1"),
        ("terminal", "public bint", "False"), ("winner", "public int", "-1"), ("dealer", "public int", "0"),
        ("first_dealer", "public int", "0"), ("deal_no", "public int", "0"), ("last_deal", "public bint", "False"),
        ("trump", "public int", "-1"), ("ti", "public int", lit(lay.ns)), ("maker", "public int", "-1"),
        ("bid", "public long long", "0"), ("steps", "public long long", "0"), ("nev", "public long long", "0"),
        ("nevm", "public long long", "0"), ("table", "public bint", "False"), ("rec", "public bint", "False"),
        ("seed", "public object", "0"), ("tape_pos", "public int", "0"), ("chance", "public int", "0"),
        ("tick", "public long long", "0"), ("btick", "public long long", "0"),
        ("tr_active", "public bint", "False"), ("tr_total", "public long long", "0"), ("tr_no", "public int", "0"),
        ("tr_leader", "public int", "-1"), ("tr_turn", "public int", "-1"), ("tr_n", "public int", "0"),
        ("tr_pm", "public long long", "0"), ("played", "public long long", "0"), ("window", "public int", "-1"),
        ("broken", "public unsigned long long", "0"),
        ("au_active", "public bint", "False"), ("au_pos", "public int", "0"), ("au_first", "public int", "0"),
        ("au_high", "public long long", "0"), ("au_bidder", "public int", "-1"), ("au_passed", "public long long", "0"),
        ("sel_cards", f"public {mask}", "0"), ("sel_lo", "public int", "0"), ("sel_hi", "public int", "0"),
        ("sel_src", "public int", "0"), ("sel_dst", "public int", "0"), ("ncalls", "public int", "0"),
        ("decl", "public object" if nkeys > 64 else "public unsigned long long", "0"),
        ("exp", "public object" if lay.nz > 64 else "public unsigned long long", "0"),
        ("log", "public object", "None"), ("tape", "public object", "None"), ("deck", "public object", "None"),
        ("decks", "public object", "None"), ("reseeds", "public object", "None"),
    ]
    arrays = [
        ("z", mask, lay.nz), ("sc", "long long", lay.nsides), ("dsc", "long long", lay.nsides),
        ("cnt", "long long", max(1, lay.counter_size)), ("v", "long long", max(1, len(lay.slot_names))),
        ("tw", "int", lay.n), ("bids", "long long", lay.n), ("tr_c", "int", lay.n + 1), ("tr_p", "int", lay.n + 1),
        ("calls", "int", 64), ("stk", "int", max(1, len(lay.stacks)) * lay.nc), ("sl", "int", max(1, len(lay.stacks))),
        ("st", "long long", lay.nc), ("dealt_to", "int", lay.nc), ("taken_by", "int", lay.nc),
        ("played_by", "int", lay.nc), ("lt", "long long", max(1, len(lay.labels)) * lay.nsides),
    ]
    for name, ctype, size in arrays:
        if ctype == "object":
            out.append((name, "public list", f"[0] * {lit(size)}"))
        else:
            out.append((name, f"{ctype} [{size}]", f"[0] * {lit(size)}"))
    return out


def core_class(gen: Parts, w: Writer) -> None:
    lay = gen.lay
    fs = fields(lay)
    w.line()
    w.comment("---------------------------------------------------------------- the core")
    w.line()
    with w.block("class Core:"):
        w.line('"""The state of a match: ints, masks and small arrays (typed by the .pxd natively)."""')
        w.line()
        w.line("__slots__ = (" + ", ".join(f'"{name}"' for name, _, _ in fs) + ",)")
        w.line()
        with w.block("def __init__(self) -> None:"):
            for name, _, init in fs:
                w.line(f"self.{name} = {init}")
    w.line()
    w.line()
    with w.block("def copy(c: Core) -> Core:"):
        w.line('"""An independent copy of a core."""')
        w.line("n: Core = Core.__new__(Core)")
        for name, decl, _ in fs:
            if "[" in decl:
                w.line(f"n.{name} = c.{name} if cython.compiled else list(c.{name})")
            elif decl.endswith("list"):
                w.line(f"n.{name} = list(c.{name})")
            elif name == "log":
                w.line("n.log = list(c.log) if c.log is not None else None")
            else:
                w.line(f"n.{name} = c.{name}")
        w.line("return n")


def pxd(lay: Layout) -> str:
    """The Cython declarations of a module's core (its .pxd, for a native build)."""
    lines = [
        "# Generated by interpreter.codegen: the core of a game module, typed for Cython.",
        "cdef extern from *:",
        '    """',
        "    static inline int popcountll(unsigned long long m) { return __builtin_popcountll(m); }",
        "    static inline int ctzll(unsigned long long m) { return __builtin_ctzll(m); }",
        "    static inline int _bitlen(long long n) { return n > 0 ? 64 - __builtin_clzll((unsigned long long) n) : 0; }",
        '    """',
        "    int popcountll(unsigned long long m) nogil",
        "    int ctzll(unsigned long long m) nogil",
        "    int _bitlen(long long n) nogil",
        "",
        "cdef class Core:",
    ]
    for name, decl, _ in fields(lay):
        if "[" in decl:
            ctype, size = decl.split(" [")
            lines.append(f"    cdef {ctype} {name}[{size}")
        else:
            lines.append(f"    cdef {decl} {name}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- the match
def match_flow(gen: Parts, w: Writer) -> None:
    lay = gen.lay
    mt = lay.rules.match
    ex = gen.ex
    w.line()
    w.comment("---------------------------------------------------------------- the match")
    w.line()
    with w.block("def _target(c: Core) -> cython.longlong:"):
        w.line(f"return {ex.expr(mt.target) if mt is not None and mt.target is not None else '0'}")
    ties = mt.ties if mt is not None else None
    with w.block("def _ties(c: Core) -> cython.int:"):
        if ties is None:
            w.line("return -1")
        else:
            value = ex.expr(ties)
            w.line(f"who = {value}")
            if ex.type(ties) == "player":
                w.line("return SIDE_OF[who] if 0 <= who < N else -1")
            else:
                w.line("return who")
    w.line()
    with w.block("def _roles(c: Core) -> tuple:"):
        roles = [ex.expr(lay.roles[name]) for name in lay.seat_roles]
        w.line("return (" + "".join(r + ", " for r in roles) + ")")
    for ln in MATCH.splitlines():
        w.line(ln)


MATCH = '''

def _finish(c: Core, side: cython.int, tie_break: cython.bint) -> None:
    c.terminal = True
    c.winner = side
    c.dp = -1
    _ev(c)
    if c.rec:
        c.log.append((MATCH_END, side, 1 if tie_break else 0, (), tuple([c.sc[s] for s in range(NSIDES)])))


def _draw_match(c: Core, tied: list) -> None:
    c.terminal = True
    c.winner = -1
    c.dp = -1
    _ev(c)
    if c.rec:
        c.log.append((MATCH_END, -1, 2, tuple(tied), tuple([c.sc[s] for s in range(NSIDES)])))


def _abandon(c: Core) -> None:
    c.terminal = True
    c.winner = -1
    c.dp = -1
    _ev(c)
    if c.rec:
        c.log.append((MATCH_END, -1, 3, (), tuple([c.sc[s] for s in range(NSIDES)])))


def _check_target(c: Core) -> None:
    target: cython.longlong = _target(c)
    reached: list = [s for s in range(NSIDES) if c.sc[s] >= target]
    if not reached:
        return
    if len(reached) > 1 and not LOWEST_WINS:
        side: cython.int = _ties(c)
        if side >= 0 and side in reached:
            _finish(c, side, True)
            return
    if LOWEST_WINS:
        low = min([c.sc[s] for s in range(NSIDES)])
        top = [s for s in range(NSIDES) if c.sc[s] == low]
    else:
        best = max([c.sc[s] for s in reached])
        top = [s for s in reached if c.sc[s] == best]
    if len(top) == 1:
        _finish(c, top[0], False)


def _finish_by_best(c: Core) -> None:
    scores = [c.sc[s] for s in range(NSIDES)]
    best = min(scores) if LOWEST_WINS else max(scores)
    top = [s for s in range(NSIDES) if scores[s] == best]
    if len(top) > 1:
        side: cython.int = _ties(c)
        if side >= 0 and side in top:
            _finish(c, side, True)
            return
    if len(top) == 1:
        _finish(c, top[0], False)
        return
    _draw_match(c, top)


def _pack_order(c: Core, deal_no: cython.int) -> list:
    """The pack of a deal as laid out, top last: prearranged, or the seeded shuffle."""
    if deal_no == 0 and c.deck is not None:
        return list(reversed(c.deck))
    if c.decks and deal_no in c.decks:
        return list(reversed(c.decks[deal_no]))
    return _deal_order(_seed_of(c, deal_no) if c.reseeds else c.seed, deal_no, NC)


def _reset_deal(c: Core) -> None:
    i: cython.int
    for i in range(NV):
        c.v[i] = UNSET
    c.trump = -1
    c.ti = NS
    c.maker = -1
    c.bid = 0
    c.pc = 0
    c.tr_total = 0
    c.tr_no = 0
    c.chance = 0
    c.tr_active = False
    c.tr_leader = -1
    c.tr_turn = -1
    c.tr_n = 0
    c.tr_pm = 0
    c.played = 0
    c.window = -1
    c.decl = 0
    c.broken = 0
    c.au_active = False
    c.au_pos = 0
    c.au_first = 0
    c.au_high = 0
    c.au_bidder = -1
    c.au_passed = 0
    c.ncalls = 0
    c.exp = 0
    for i in range(N):
        c.tw[i] = 0
        c.bids[i] = -1
    for i in range(NSIDES):
        c.dsc[i] = c.sc[i]
    c.nevm += c.nev
    c.nev = 0
    if HOLDERS:
        for i in range(NC):
            c.dealt_to[i] = -1
            c.taken_by[i] = -1
    for i in range(NC):
        c.played_by[i] = -1
    if CANCEL:
        for i in range(NL * NSIDES):
            c.lt[i] = 0


def start_deal(c: Core) -> None:
    """Gather the cards, lay out the pack (prearranged, taped or shuffled) and reset the deal.

    Raises:
        ChanceNeeded: explicit chance, and the tape holds too few outcomes.
    """
    i: cython.int
    for i in range(NZ):
        c.z[i] = 0
    for i in range(NSTK):
        c.sl[i] = 0
    if c.tape is not None and not (c.deal_no == 0 and c.deck is not None) and not (c.decks and c.deal_no in c.decks):
        _reset_deal(c)
        order = _chance_draw(c.tape, c.tape_pos, "deck", range(NC), NC)[::-1]
        c.tape_pos += NC
    else:
        order = _pack_order(c, c.deal_no)
    m: MASK = 0
    for i in range(NC):
        card: cython.int = order[i]
        c.stk[PACK_STACK * NC + i] = card
        m |= BIT[card]
    c.sl[PACK_STACK] = NC
    c.z[PACK] = m
    _reset_deal(c)
    c.steps += NC
    _ev(c)
    if c.rec:
        c.log.append((DEAL, c.deal_no + 1, c.dealer, _roles(c)))


def new_core(seed: object, deck: object, dealer: object, table: cython.bint, tape: object, decks: object,
             reseeds: object, rec: cython.bint) -> Core:
    """A match at its start (the deal laid out, not yet advanced to the first decision).

    Raises:
        ChanceNeeded: explicit chance, and the tape holds too few outcomes.
    """
    c: Core = make_core(seed, deck, table, tape, decks, reseeds, rec)
    begin(c, dealer)
    return c


def make_core(seed: object, deck: object, table: cython.bint, tape: object, decks: object, reseeds: object,
              rec: cython.bint) -> Core:
    """A core for a new match, before its first dealer is known and its first deal laid out."""
    c: Core = Core()
    c.seed = seed
    c.deck = deck
    c.decks = decks if decks else None
    c.reseeds = reseeds if reseeds else None
    c.table = table
    c.tape = tape
    c.rec = rec
    c.log = [] if rec else None
    for i in range(NC):
        c.dealt_to[i] = -1
        c.taken_by[i] = -1
        c.played_by[i] = -1
    return c


def begin(c: Core, dealer: object) -> None:
    """Settle the first dealer (given, the rule file's, seeded or taped) and lay out the first deal.

    Raises:
        ChanceNeeded: explicit chance, and the tape holds too few outcomes (``c`` is then
            the table at the chance node).
    """
    tape = c.tape
    if dealer is None and FIRST_DEALER >= 0:
        dealer = FIRST_DEALER
    if dealer is None:
        if tape is not None:
            c.dealer = 0
            c.first_dealer = 0
            _reset_deal(c)
            dealer = _chance_draw(tape, 0, "dealer", range(N), 1)[0]
            c.tape_pos = 1
        else:
            dealer = _first_dealer(c.seed, N)
    c.first_dealer = dealer
    c.dealer = dealer
    start_deal(c)


def _end_deal(c: Core) -> cython.int:
    """Score the match at the end of a deal; the next deal, or the end of the match."""
    _ev(c)
    if c.rec:
        c.log.append((DEAL_END, c.deal_no + 1, tuple([c.sc[s] for s in range(NSIDES)])))
    if not AT_ONCE and HAS_TARGET:
        _check_target(c)
        if c.terminal:
            return -1
    if c.last_deal:
        _finish_by_best(c)
        return -1
    c.deal_no += 1
    if c.deal_no >= DEAL_LIMIT:
        _abandon(c)
        return -1
    c.dealer = (c.dealer + ROTATION) % N
    start_deal(c)
    return 0


def _redeal(c: Core, same: cython.bint, laws: cython.int) -> cython.int:
    """Abandon the deal (its points are taken back) and deal again."""
    for s in range(NSIDES):
        c.sc[s] = c.dsc[s]
    _ev(c)
    if c.rec:
        c.log.append((REDEAL, same, tuple([c.sc[s] for s in range(NSIDES)]), laws))
    c.deal_no += 1
    if c.deal_no >= DEAL_LIMIT:
        _abandon(c)
        return -1
    if not same:
        c.dealer = (c.dealer + ROTATION) % N
    start_deal(c)
    return 0
'''


def advance(gen: Parts, w: Writer) -> None:
    w.line()
    w.line()
    w.line("BLOCKS = (" + "".join(f"{b.name}, " for b in gen.blocks) + ")")
    w.line()
    w.line()
    with w.block("def advance(c: Core) -> None:"):
        w.line('"""Run blocks from ``c.pc`` until a player must decide or the match is over.')
        w.line()
        w.line("Raises:")
        w.line("    GameLimitError: more than MAX_STEPS automatic steps without a decision.")
        w.line("    Fault: a rule failed (the state words it and puts itself back).")
        w.line('"""')
        w.line("pc: cython.int = c.pc")
        w.line("while pc >= 0:")
        with w.indented():
            w.line("c.steps += 1")
            w.line("if c.steps > MAX_STEPS:")
            w.line("    _too_many_steps()")
            w.line("if cython.compiled:")
            with w.indented():
                first = True
                for b in gen.blocks:
                    w.line(f"{'if' if first else 'elif'} pc == {lit(b.id)}:")
                    w.line(f"    pc = {b.name}(c)")
                    first = False
            w.line("else:")
            w.line("    pc = BLOCKS[pc](c)")


def dispatch(gen: Parts, w: Writer) -> None:
    dps = gen.lay.dps

    def row(name: str, has: bool) -> str:
        return name if has else "None"

    w.line()
    w.line("LEGAL = (" + "".join(row(f"legal_{d.id}", d.kind != "select") + ", " for d in dps) + ")")
    w.line("APPLY = (" + "".join(f"apply_{d.id}, " for d in dps) + ")")
    w.line("SAMPLE = (" + "".join(row(f"sample_{d.id}", d.kind != "select") + ", " for d in dps) + ")")
    w.line("ALLOWED = (" + "".join(row(f"allowed_{d.id}", d.kind == "play") + ", " for d in dps) + ")")
    w.line("WHY = (" + "".join(row(f"why_{d.id}", d.kind == "play") + ", " for d in dps) + ")")
    w.line("OFFERED = (" + "".join(row(f"offered_{d.id}", d.kind == "play") + ", " for d in dps) + ")")


def irregularities(gen: Parts, w: Writer) -> None:
    lay = gen.lay
    irrs = lay.irregularities
    w.line()
    w.comment("---------------------------------------------------------------- irregularities")
    w.line("IRR_BY = (" + "".join(f"irr_by_{k}, " for k in range(len(irrs))) + ")")
    w.line("IRR_OK = (" + "".join(f"irr_ok_{k}, " for k in range(len(irrs))) + ")")
    w.line("IRR_ENTRY = (" + "".join(f"{lit(i.entry)}, " for i in irrs) + ")")
    w.line("IRR_SLOT = (" + "".join(f"{lit(i.slot)}, " for i in irrs) + ")")
    w.line("IRR_LAWS = (" + "".join(f"{lit(i.laws)}, " for i in irrs) + ")")
    params = []
    for k, irr in enumerate(irrs):
        ps = []
        for j, p in enumerate(irr.params):
            zone = f"irr_zone_{k}_{j}" if p.kind == "card" and p.zone is not None else "None"
            kind = {"count": 0, "card": 1, "suit": 2}[p.kind]
            ps.append(f"({lit(kind)}, {lit(p.slot)}, {lit(p.low)}, {lit(p.high)}, {zone}, {lit(p.pattern)})")
        params.append("(" + "".join(x + ", " for x in ps) + ")")
    w.line("IRR_PARAMS = (" + "".join(x + ", " for x in params) + ")")
    moments = []
    for irr in irrs:
        moments.append(lit(sum(1 << i for i, mo in enumerate(("deal", "end_of_play")) if mo in irr.phases)))
    w.line("IRR_MOMENTS = (" + "".join(x + ", " for x in moments) + ")")
    for ln in IRREGULAR.splitlines():
        w.line(ln)


IRREGULAR = '''

def irr_values(c: Core, k: cython.int, j: cython.int) -> list:
    """The values the j-th parameter of irregularity k may take now."""
    kind, slot, lo, hi, zone, pat = IRR_PARAMS[k][j]
    if kind != 1:
        return list(range(lo, hi + 1))
    m = c.z[zone(c)] if zone is not None else -1
    if pat >= 0:
        m = m & PAT[pat * NT + c.ti] if zone is not None else PAT[pat * NT + c.ti]
    return [card for card in range(NC) if m & BIT[card]] if zone is not None or pat >= 0 else list(range(NC))


def irr_holds(c: Core, k: cython.int, seat: cython.int, args: tuple) -> cython.bint:
    """Whether irregularity k's guard holds for the seat and arguments (slots restored)."""
    slots = [IRR_SLOT[k]] + [p[1] for p in IRR_PARAMS[k][:len(args)]]
    saved = [c.v[s] for s in slots]
    c.v[slots[0]] = seat
    for i in range(len(args)):
        c.v[slots[i + 1]] = args[i]
    try:
        return bool(IRR_OK[k](c))
    finally:
        for i in range(len(slots)):
            c.v[slots[i]] = saved[i]


def irr_bound_values(c: Core, k: cython.int, seat: cython.int, j: cython.int) -> list:
    """:func:`irr_values` with the offender bound (a card parameter's zone may name him)."""
    slot = IRR_SLOT[k]
    saved = c.v[slot]
    c.v[slot] = seat
    try:
        return irr_values(c, k, j)
    finally:
        c.v[slot] = saved


def irr_zone(c: Core, k: cython.int, j: cython.int, seat: cython.int) -> cython.int:
    """The zone instance the j-th (card) parameter of irregularity k is taken from."""
    slot = IRR_SLOT[k]
    saved = c.v[slot]
    c.v[slot] = seat
    try:
        return IRR_PARAMS[k][j][4](c)
    finally:
        c.v[slot] = saved


def irr_by(c: Core, k: cython.int) -> cython.int:
    return IRR_BY[k](c)


def _irr_named(c: Core, moment: cython.int) -> cython.bint:
    """Whether an irregularity that names this referee's moment can be recorded now."""
    for k in range(len(IRR_OK)):
        if not IRR_MOMENTS[k] >> moment & 1:
            continue
        by = IRR_BY[k](c)
        seats = [by] if by >= 0 else range(N)
        for seat in seats:
            if 0 <= seat < N and _irr_any(c, k, seat, ()):
                return True
    return False


def _irr_any(c: Core, k: cython.int, seat: cython.int, args: tuple) -> cython.bint:
    j = len(args)
    if j == len(IRR_PARAMS[k]):
        return irr_holds(c, k, seat, args)
    for v in irr_bound_values(c, k, seat, j):
        if _irr_any(c, k, seat, args + (v,)):
            return True
    return False


def irr_start(c: Core, k: cython.int, seat: cython.int, args: tuple) -> None:
    """Begin irregularity k's remedy: log it, bind the offender and the arguments, and run
    its body (it returns to the decision it interrupted)."""
    _ev(c)
    if c.rec:
        c.log.append((IRREGULARITY, k, seat, args, IRR_LAWS[k]))
    c.calls[c.ncalls] = c.pc
    c.ncalls += 1
    c.v[IRR_SLOT[k]] = seat
    for i in range(len(args)):
        c.v[IRR_PARAMS[k][i][1]] = args[i]
    c.pc = IRR_ENTRY[k]
    c.dp = -1
    c.steps = 0
    advance(c)
'''


def accessors(gen: Parts, w: Writer) -> None:
    for ln in ACCESSORS.splitlines():
        w.line(ln)


ACCESSORS = '''

# ---------------------------------------------------------------- accessors (the state's views)


def zone_masks(c: Core) -> list:
    return [c.z[i] for i in range(NZ)]


def zone_cards(c: Core, z: cython.int) -> list:
    """The cards of zone instance z in order, bottom first (top last)."""
    return _zone_list(c, z)


def set_zone(c: Core, z: cython.int, cards: list) -> None:
    """Replace the cards of zone instance z (tests and hypothetical hands only)."""
    k: cython.int = STACK_OF[z]
    m: MASK = 0
    for card in cards:
        m |= BIT[card]
        if k < 0:
            c.st[card] = c.tick
            c.tick += 1
    if k >= 0:
        for i in range(len(cards)):
            c.stk[k * NC + i] = cards[i]
        c.sl[k] = len(cards)
    c.z[z] = m


def scores(c: Core) -> list:
    return [c.sc[s] for s in range(NSIDES)]


def set_scores(c: Core, values: list) -> None:
    for s in range(NSIDES):
        c.sc[s] = values[s]


def tricks_won(c: Core) -> list:
    return [c.tw[p] for p in range(N)]


def bids(c: Core) -> list:
    return [c.bids[p] for p in range(N)]


def counters(c: Core) -> list:
    return [c.cnt[i] for i in range(NCNT)]


def trick(c: Core) -> list:
    """The trick in progress as [(seat, card), ...]."""
    return [(c.tr_p[i], c.tr_c[i]) for i in range(c.tr_n)] if c.tr_active else []


def variables(c: Core) -> list:
    return [c.v[i] for i in range(NV)]


def in_order(c: Core, m: object) -> list:
    return _in_order(c, m)


def ith(c: Core, m: object, i: cython.int) -> cython.int:
    return _ith(c, m, i)


def exposed(c: Core, z: cython.int) -> cython.bint:
    return c.exp >> z & 1


def zmask(c: Core, z: cython.int) -> cython.longlong:
    return _zmask(c, z)


def playout(c: Core, rng: object, most: cython.longlong, log: list, stop_deal: cython.int) -> cython.longlong:
    """Random legal actions (non-selection decisions only) until the match is over, a
    selection is to be made, ``most`` are taken or (``stop_deal`` >= 0) the deal changes;
    each taken is logged as ``dp | (code + 1) << 16``. Returns how many were taken."""
    taken: cython.longlong = 0
    while not c.terminal and taken < most and (stop_deal < 0 or c.deal_no == stop_deal):
        dp: cython.int = c.dp
        sample = SAMPLE[dp]
        if sample is None:
            break
        code = sample(c, rng)
        c.steps = 0
        APPLY[dp](c, code)
        log.append(dp | (code + 1) << 16)
        taken += 1
    return taken
'''
