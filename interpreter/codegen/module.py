"""Assembling a generated module: constants and card tables, the core's class, the
prelude of helpers, the blocks and ``advance``, the decision points' functions, the
match's flow (new match, deals, scores, the end), irregularities and accessors; and the
Cython declarations (``.pxd``) that type the core in a native build.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable
from dataclasses import dataclass

from tricklang.bounds import DEFAULT_DEAL_LIMIT

from . import exposure, teams
from .auctions import bid_tables
from .card_loops import HELPERS as CARD_LOOP_HELPERS
from .counting import COUNTING_HELPERS, in_order_tables
from .gaps import GAPS_HELPERS
from .layout import UNSET, Layout
from .match import match_flow
from .melds import helpers as meld_helpers
from .melds import meld_tables
from .native_c import C_DECLARATIONS, C_HELPERS
from .orders import order_prelude, order_tables
from .parts import Parts
from .prelude import PRELUDE
from .rollouts import greedy_rollouts
from .seats import rightward_prelude
from .surface import accessors, irregularities
from .trick_cards import helpers_with_kept_led
from .trick_names import HELPERS as TRICK_HELPERS
from .writer import Writer, ints, lit


@dataclass
class Generated:
    """A generated module: its source, the Cython declarations that type its core for a
    native build, and the layout the Game reads its facts from."""

    source: str
    pxd: str
    layout: Layout

GENERATED_BUILTINS = frozenset({
    "abs", "bool", "dict", "enumerate", "frozenset", "int", "isinstance", "len", "list", "max", "min", "object", "range",
    "reversed", "set", "sorted", "sum", "tuple", "type", "zip"})
"""The builtins a generated module may read (CPython runs it with these only, and a native
build's source is checked to read no other: :func:`interpreter.native.check_source`)."""

MAX_STEPS = 100_000
"""Automatic steps allowed between two decisions (a shuffle counts one per card)."""
MAX_CHOICES = 20_000
"""The most ways to choose cards a selection may offer (more is a limit error)."""
KEYS_BUF = 128
"""Natively, the log keys a core holds (its C array ``kb``) for the playout: its actions'
keys wait there, as C integers, until ``flush_keys`` appends them to the state's log (when
it is read, or the buffer is full): a playout nobody reads the log of makes no int. (128:
a random Écarté match takes 55 actions on average, over 64 in more than a quarter of them,
at most about 115.)"""
MAX_EVENTS_PER_DEAL = 20_000
MAX_EVENTS_PER_MATCH = 1_000_000

EVENT_KINDS = ("TRICK", "DEALT", "SELECT", "BID", "PASS", "DRAW", "SCORE", "DEAL_END", "DEAL", "TRUMP", "CONTRACT",
               "MOVE", "CHOICE", "TURN_UP", "MAKER", "CONTRACT_BID", "REDEAL", "ALL_PASSED", "LAST_DEAL",
               "MATCH_END", "EXPOSED", "FORBID", "COUNTER", "DECLARE", "LEADS", "REPLAY", "DEALER", "CUT",
               "IRREGULARITY", "MELD", "TAKES_UP", "SUIT_LED", "SHOWN")
"""The kinds of the compact events a module logs (a played card is one int, not a tuple):
``TRICK`` is 1, ``DEALT`` 2... in this order (see :mod:`interpreter.state.events`)."""

EVERY_EVENT = (1 << (len(EVENT_KINDS) + 1)) - 1
"""The core's ``rec`` that logs every event: ``rec`` is a mask of the kinds a core logs,
bit 0 the played cards, bit ``k`` the kind numbered ``k`` (0: it logs none)."""


LATER_KINDS: dict[str, Callable[[Layout], bool]] = {
    "MELD": lambda lay: bool(lay.rules.melds),
    "TAKES_UP": lambda lay: lay.uses.plays_for,
    "SUIT_LED": lambda lay: lay.uses.name_led,
    "SHOWN": lambda lay: lay.uses.shows,
}
"""Kinds of events added with a construct: a module names one only when its rule file uses it."""

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
    prelude = order_prelude(PRELUDE) if lay.pseudo_suits else PRELUDE
    prelude = rightward_prelude(prelude) if lay.rightward else prelude
    for ln in (exposure.prelude(prelude, lay.uses.shown_to_seats) + COUNTING_HELPERS + GAPS_HELPERS).splitlines():
        w.line(ln)
    if lay.uses.trick:
        helpers = helpers_with_kept_led(TRICK_HELPERS, lay.never_wins) if lay.keeps_led else TRICK_HELPERS
        for ln in helpers.splitlines():
            w.line(ln)
    for name in sorted(lay.uses.helpers):
        for ln in CARD_LOOP_HELPERS[name].splitlines():
            w.line(ln)
    if lay.rules.melds:
        for ln in meld_helpers(lay).splitlines():
            w.line(ln)
    for ln in teams.helpers(lay).splitlines():
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
    return Generated(c_calls(w.text()), pxd(lay), lay)


PUBLIC = frozenset({
    # what the state, the players and the embeddings call (interpreter.state and the rest)
    "advance", "begin", "bids", "copy", "counters", "exposed", "flush_keys", "in_order", "irr_bound_values", "irr_by",
    "irr_holds", "irr_start", "irr_values", "irr_zone", "ith", "make_core", "new_core", "new_match", "playout",
    "random_matches", "scores", "set_scores", "set_zone", "shown_to", "start_deal", "trick", "tricks_won", "variables",
    "zmask", "zone_cards", "zone_masks",
    # the search player's greedy rollouts (interpreter.players.search)
    "greedy_playout",
    # the integer-id step's native helpers (interpreter.state.spaces.CodeIds)
    "code_ids", "is_native", "select_ids",
    # the draws done in C, compared with Python's by tests/integrations/test_native.py
    "_mt_in_c", "_pack_order", "_randbelow", "_shuffled_in_c"})
"""The functions of a generated module read by name from outside it: natively, these are
Python functions as well as C functions (``@cython.ccall``); every other one is a C
function only (``@cython.cfunc``; Cython gives the few that sit in a module's tables, such
as ``APPLY``, a Python wrapper shared by all of one signature). Natively the module's own
calls are C calls either way; what this saves is a Python wrapper a function, about a
third of the C a native build compiled (and of its time)."""


def c_calls(source: str) -> str:
    """``source`` with every module-level function that is not declared otherwise marked
    ``@cython.ccall`` when it is in :data:`PUBLIC`, else ``@cython.cfunc``: natively, calls
    between them are C calls with C arguments. A function holding a closure (a lambda, a
    generator) stays a Python function (Cython can make it neither). A C function only that
    returns nothing (``-> None``) is made to return a C int, 0 (``-> cython.int``, its bare
    ``return``s ``return 0``): natively Cython's ``-> None`` returns the object None, which
    every call takes and gives back, where an int is checked against -1 (its error value)."""
    lines = source.split("\n")
    marks: list[tuple[int, str]] = []
    edits: list[tuple[int, int, int, str]] = []  # (line, first column, column after, new text)
    for node in ast.parse(source).body:
        if not isinstance(node, ast.FunctionDef) or node.decorator_list:
            continue
        inner = (ast.Lambda, ast.GeneratorExp, ast.FunctionDef, ast.Yield, ast.YieldFrom)
        if any(isinstance(sub, inner) for sub in ast.walk(node) if sub is not node):
            continue
        if node.args.vararg or node.args.kwarg:
            continue
        public = node.name in PUBLIC
        marks.append((node.lineno - 1, "@cython.ccall" if public else "@cython.cfunc"))
        if not public and isinstance(node.returns, ast.Constant) and node.returns.value is None:
            edits += _int_returns(node)
    for line, start, end, text in sorted(edits, reverse=True):
        lines[line] = lines[line][:start] + text + lines[line][end:]
    for i, mark in reversed(marks):
        lines.insert(i, mark)
    return "\n".join(lines)


def _int_returns(node: ast.FunctionDef) -> list[tuple[int, int, int, str]]:
    """The edits that make function ``node`` (``-> None``) return a C int: its annotation,
    and ``return 0`` for each bare ``return`` (a falling off its end returns 0 natively)."""
    ann = node.returns
    assert ann is not None and ann.end_col_offset is not None  # pragma: no cover - checked
    edits = [(ann.lineno - 1, ann.col_offset, ann.end_col_offset, "cython.int")]
    for sub in ast.walk(node):
        if isinstance(sub, ast.Return) and sub.value is None:
            edits.append((sub.lineno - 1, sub.col_offset, sub.col_offset + len("return"), "return 0"))
    return edits


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
    w.line(f"WIDE = cython.declare(cython.bint, {lit(lay.wide)})  # (a C constant natively: no global read a call)")
    values = {
        "N": lay.n, "NC": lay.nc, "NS": lay.ns, "NT": lay.nt, "NZ": lay.nz, "NV": max(1, len(lay.slot_names)),
        "NSIDES": lay.nsides, "ND": nd, "NW": nw, "WORD_KEY": nd, "BID_KEY": nd + nw, "NKEYS": keys,
        "NL": max(1, len(lay.labels)), "NCNT": max(1, lay.counter_size), "NSTK": max(1, len(lay.stacks)),
        "HAND": lay.hand, "PACK": lay.pack, "PACK_STACK": lay.pack_stack, "WON": lay.won,
        "WON_PER_SIDE": lay.won_kind == "side", "ALL": lay.all_seats, "MAX_STEPS": MAX_STEPS,
        "MAX_CHOICES": MAX_CHOICES, "COMB_CAP": 1 << 62,
        "MAX_EV_DEAL": MAX_EVENTS_PER_DEAL, "MAX_EV_MATCH": MAX_EVENTS_PER_MATCH, "UNSET": UNSET,
        "MAXN": 10**18 - 1, "HOLDERS": lay.uses.holders, "CANCEL": lay.uses.cancel,
        "AT_ONCE": mt is not None and mt.target_when == "at_once" and mt.target is not None,
        "HAS_TARGET": mt is not None and mt.target is not None,
        "LOWEST_WINS": mt is not None and mt.lowest_wins,
        "ROTATION": {"left": 1, "right": lay.n - 1, "never": 0}[mt.rotation] if mt is not None else 1,
        "DEAL_LIMIT": mt.deal_limit if mt is not None and mt.deal_limit is not None else DEFAULT_DEAL_LIMIT,
        "FIRST_DEALER": mt.first_dealer if mt is not None and isinstance(mt.first_dealer, int) else -1,
        "NLEAD": max(1, len(lay.lead_patterns)), "NDCNT": len(lay.deal_counter_slots),
    }
    for name, value in values.items():
        ctype = "cython.bint" if isinstance(value, bool) else "cython.longlong"
        w.line(f"{name} = cython.declare({ctype}, {lit(value)})")
    for k, kind in enumerate(EVENT_KINDS, start=1):
        if kind in LATER_KINDS and not LATER_KINDS[kind](lay):
            continue  # (a kind of event only the modules that log it name: the others stay as they were)
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
    nc, nt = lay.nc, lay.nt
    mask = "cython.ulonglong"
    wide = lay.wide
    w.line()
    w.comment("---------------------------------------------------------------- card tables")
    table(w, "BIT", mask, [1 << c for c in range(nc)], wide)
    table(w, "SUIT", "cython.int", t.suit)
    table(w, "DEAL_CNT", "cython.int", lay.deal_counter_slots)  # counters 'per deal'
    table(w, "EFF", "cython.int", [t.eff_suit[ti][c] for ti in range(nt) for c in range(nc)])
    suits = lay.suit_masks()
    table(w, "SUITS", mask, [suits[ti][s] for ti in range(nt) for s in range(lay.nled)], wide)
    table(w, "TRUMPS", mask, lay.trump_masks(), wide)
    if not wide:  # how strongly each card plays to a trick, and the cards above it
        power = [t.power[ti][led][c] for ti in range(nt) for led in range(lay.nled) for c in range(nc)]
        table(w, "POWER", "cython.int", power)
        above = []
        for ti in range(nt):
            for led in range(lay.nled):
                row = t.power[ti][led]
                for c in range(nc):
                    above.append(sum(1 << x for x in range(nc) if row[x] > row[c]))
        table(w, "ABOVE_CARD", mask, above)
    else:  # named for the prelude's narrow branch, never read by a wide pack (more than 64 cards)
        table(w, "POWER", "cython.int", [])
        table(w, "ABOVE_CARD", mask, [], wide)
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
    in_order_tables(lay, w)
    rank_key = [t.trump_strength[ti][c] * (nc + 1) + t.plains[ti][c] for ti in range(nt) for c in range(nc)]
    table(w, "RANKKEY", "cython.int", rank_key)
    table(w, "PAT", mask, [m for rows in lay.patterns for m in rows], wide)
    if lay.pseudo_suits:
        w.line(f"NLED = cython.declare(cython.longlong, {lit(lay.nled)})")
        for name, values in order_tables(lay):
            table(w, name, "cython.int", values)
    seat_tables(gen, w)
    meld_tables(gen, w, table)


def seat_tables(gen: Parts, w: Writer) -> None:
    """The tables of points, seats and sides, zones, keys, what a deal resets, and the
    decision points' kinds."""
    lay = gen.lay
    t = lay.tables
    nc, wide = lay.nc, lay.wide
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
    full = (1 << nc) - 1
    w.line(f"FULL = {lit(full)}" if wide else f"FULL = cython.declare(cython.ulonglong, {lit(full)})")
    # What a new deal resets, for CPython's slice assignments (a native build loops instead).
    nl = max(1, len(lay.labels))
    for name, value, size in (("UNSETS", UNSET, max(1, len(lay.slot_names))), ("NO_TRICKS", 0, lay.n),
                              ("NO_BIDS", -1, lay.n), ("NOBODY_CARDS", -1, nc), ("NO_LABELS", 0, nl * lay.nsides),
                              ("NO_STACKS", 0, max(1, len(lay.stacks)))):
        w.line(f"{name} = ({lit(value)},) * {lit(size)}")
    w.line(f"NO_CARDS = (0,) * {lit(lay.nz)}")  # (a mask array: Python ints either way)
    table(w, "SELECTS", "cython.bint", [int(d.kind == "select") for d in lay.dps])
    table(w, "TRICK_DPS", "cython.bint", [int(d.kind == "play") for d in lay.dps])
    table(w, "BITLEN", "cython.int", [n.bit_length() for n in range(256)])
    cn = min(nc, 64) + 1  # (Pascal's triangle up to the pack's size: _comb reads it)
    w.line(f"COMB_N = cython.declare(cython.longlong, {lit(cn)})")
    table(w, "COMB_TAB", "cython.longlong", [math.comb(n, k) for n in range(cn) for k in range(cn)])
    # The log's keys (dp | (code + 1) << 16) of the codes -1..LOG_W - 2 of every decision
    # point, made once: a playout appends them without making an int an action.
    log_w = nc + len(lay.declaration_names) + 2
    w.line(f"LOG_W = cython.declare(cython.longlong, {lit(log_w)})")
    w.line(f"LOG_KEYS = cython.declare(tuple, tuple([d | k << 16 for d in range({lit(len(lay.dps))}) "
           f"for k in range({lit(log_w)})]))")
    w.line("LOG_WIDE = cython.declare(cython.ulonglong, 1 << 46)  # (below it, a selection's key is a C integer)")
    w.line(f"KEYS_BUF = cython.declare(cython.int, {lit(KEYS_BUF)})  # (natively, the core's buffer of keys: flush_keys)")
    for name, values in gen.tables_extra:
        table(w, name, "cython.int", values)
    for name, ctype, values in bid_tables(lay):
        table(w, name, ctype, values)
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
        ("nevm", "public long long", "0"), ("table", "public bint", "False"), ("rec", "public long long", "0"),
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
        ("kn", "public int", "0"),  # (natively, the keys waiting in the buffer ``kb``: surface.flush_keys)
    ]
    if lay.keeps_led:  # the suit led, kept once set (interpreter.codegen.trick_cards)
        out.append(("tr_led", "public int", "-1"))
    if lay.never_wins:  # the cards of the trick that never win it
        out.append(("tr_nw", f"public {mask}", "0"))
    if lay.rich_auction:  # design 3.7's auction state (interpreter.codegen.auctions)
        at = out.index(("au_passed", "public long long", "0")) + 1
        out = [*out[:at], ("au_dbl", "public int", "0"), ("au_run", "public int", "0"),
               ("au_any", "public bint", "False"), ("au_held", "public bint", "False"), *out[at:]]
    arrays = [
        ("z", mask, lay.nz), ("sc", "long long", lay.nsides), ("dsc", "long long", lay.nsides),
        ("cnt", "long long", max(1, lay.counter_size)), ("v", "long long", max(1, len(lay.slot_names))),
        ("tw", "int", lay.n), ("bids", "long long", lay.n), ("tr_c", "int", lay.n + 1), ("tr_p", "int", lay.n + 1),
        ("calls", "int", 64), ("stk", "int", max(1, len(lay.stacks)) * lay.nc), ("sl", "int", max(1, len(lay.stacks))),
        ("st", "long long", lay.nc), ("dealt_to", "int", lay.nc), ("taken_by", "int", lay.nc),
        ("played_by", "int", lay.nc), ("lt", "long long", max(1, len(lay.labels)) * lay.nsides),
    ]
    if lay.uses.shown_to_seats:  # the seats each zone instance is shown to ('expose Z to S')
        arrays.append(("zsee", "long long", lay.nz))
    if lay.rules.melds:
        arrays.append(("mld", "long long", len(lay.rules.melds) * lay.n))
    if lay.rich_auction:
        arrays.append(("au_fs", "int", lay.nsides * lay.nstrains))
    arrays += teams.fields(lay)
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
            for name, decl, init in fs:
                if "[" not in decl:
                    w.line(f"self.{name} = {init}")
            # Natively the C arrays are the object's own memory, zeroed when it is made
            # (every one starts at 0): filling them from lists would cost a list each.
            with w.block("if not cython.compiled:"):
                for name, decl, init in fs:
                    if "[" in decl:
                        # pragma: no cover - checked: the core's own field table (no rule file sets it)
                        assert init.startswith("[0] * "), init
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
            elif name == "kn":  # (the buffered keys are the log of the original's state: not copied)
                w.line("n.kn = 0")
            else:
                w.line(f"n.{name} = c.{name}")
        w.line("return n")


def pxd(lay: Layout) -> str:
    """The Cython declarations of a module's core (its .pxd, for a native build)."""
    lines = [
        "# Generated by interpreter.codegen: the core of a game module, typed for Cython.",
        "cdef extern from *:",
        '    """',
        *("    " + ln if ln else "" for ln in C_HELPERS.strip("\n").split("\n")),
        '    """',
        *("    " + d for d in C_DECLARATIONS),
        "",
        "cdef class Core:",
    ]
    for name, decl, _ in fields(lay):
        if "[" in decl:
            ctype, size = decl.split(" [")
            lines.append(f"    cdef {ctype} {name}[{size}")
        else:
            lines.append(f"    cdef {decl} {name}")
    lines.append(f"    cdef long long kb[{KEYS_BUF}]  # (native only: the playout's keys until flush_keys)")
    return "\n".join(lines) + "\n"


def advance(gen: Parts, w: Writer) -> None:
    w.line()
    w.line()
    w.line("if not cython.compiled:  # (natively, advance calls each block itself)")
    w.line("    BLOCKS = (" + "".join(f"{b.name}, " for b in gen.blocks) + ")")
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
    w.line("if not cython.compiled:  # (natively, _run_at calls each runner itself)")
    w.line("    OFFERED = (" + "".join(row(f"offered_{d.id}", d.kind == "play") + ", " for d in dps) + ")")
    w.line("    RUNS = (" + "".join(row(f"run_{d.id}", d.kind == "play") + ", " for d in dps) + ")")
    playout_dispatch(gen, w)
    greedy_rollouts(gen, w)


def playout_dispatch(gen: Parts, w: Writer) -> None:
    """The playout's dispatch: C switches natively (no Python call an action), the tables in CPython."""
    dps = gen.lay.dps
    w.line()
    w.line()
    with w.block("def _sample_at(c: Core, dp: cython.int, rng: object) -> cython.longlong:"):
        w.line('"""The sampler of decision point ``dp`` (not a selection\'s) draws an action\'s code."""')
        w.line("if not cython.compiled:")
        w.line("    return SAMPLE[dp](c, rng)")
        for d in dps:
            if d.kind != "select":
                w.line(f"if dp == {lit(d.id)}:")
                w.line(f"    return sample_{d.id}(c, rng)")
        w.line("return -1")
    w.line()
    w.line()
    with w.block("def _apply_at(c: Core, dp: cython.int, code: cython.longlong) -> None:"):
        w.line('"""Carry out the action ``code`` at decision point ``dp`` (not a selection)."""')
        w.line("if not cython.compiled:")
        w.line("    APPLY[dp](c, code)")
        w.line("    return")
        for d in dps:
            if d.kind != "select":
                w.line(f"if dp == {lit(d.id)}:")
                w.line(f"    apply_{d.id}(c, code)")
                w.line("    return")
    w.line()
    w.line()
    with w.block("def _run_at(c: Core, dp: cython.int, rng: object, most: cython.longlong, log: object, "
                 "stop_deal: cython.int) -> cython.longlong:"):
        w.line('"""The trick play runner of decision point ``dp`` (0 when it has none: not a trick play)."""')
        w.line("if not cython.compiled:")
        w.line("    run = RUNS[dp]")
        w.line("    return run(c, rng, most, log, stop_deal) if run is not None else 0")
        for d in dps:
            if d.kind == "play":
                w.line(f"if dp == {lit(d.id)}:")
                w.line(f"    return run_{d.id}(c, rng, most, log, stop_deal)")
        w.line("return 0")
    w.line()
    w.line()
    with w.block("def _select_at(c: Core, dp: cython.int, cards: list) -> None:"):
        w.line('"""Carry out the selection of ``cards`` at decision point ``dp``."""')
        w.line("if not cython.compiled:")
        w.line("    APPLY[dp](c, cards)")
        w.line("    return")
        for d in dps:
            if d.kind == "select":
                w.line(f"if dp == {lit(d.id)}:")
                w.line(f"    apply_{d.id}(c, cards)")
                w.line("    return")


