"""The match's flow in a generated module: its target and tie-break, the roles the deal
event names, and the deal-to-deal machinery every module shares (a new match, a deal
laid out, the end of a deal, a redeal, the end of the match)."""

from __future__ import annotations

from . import exposure, teams
from .melds import RESET as MELD_RESET
from .parts import Parts
from .writer import Writer


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
    text = MATCH if not lay.rules.melds else MATCH.replace("    c.exp = 0\n", "    c.exp = 0\n" + MELD_RESET, 1)
    text = teams.reset(lay, text)
    for ln in exposure.match_text(text, lay.uses.shown_to_seats).splitlines():
        w.line(ln)


MATCH = '''

def _finish(c: Core, side: cython.int, tie_break: cython.bint) -> None:
    c.terminal = True
    c.winner = side
    c.dp = -1
    _ev(c)
    if c.rec and c.rec >> MATCH_END & 1:
        c.log.append((MATCH_END, side, 1 if tie_break else 0, (), tuple([c.sc[s] for s in range(NSIDES)])))


def _draw_match(c: Core, tied: list) -> None:
    c.terminal = True
    c.winner = -1
    c.dp = -1
    _ev(c)
    if c.rec and c.rec >> MATCH_END & 1:
        c.log.append((MATCH_END, -1, 2, tuple(tied), tuple([c.sc[s] for s in range(NSIDES)])))


def _abandon(c: Core) -> None:
    c.terminal = True
    c.winner = -1
    c.dp = -1
    _ev(c)
    if c.rec and c.rec >> MATCH_END & 1:
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
    seed = _seed_of(c, deal_no) if c.reseeds else c.seed
    if cython.compiled and _c_seed(seed):  # the same draw in C (no hashlib, no sort of Python ints)
        base: cython.int = PACK_STACK * NC
        if tl_deal_order(seed, deal_no, NC, cython.address(c.stk[base])) == 0:
            return [c.stk[base + i] for i in range(NC)]
    return _deal_order(seed, deal_no, NC)


def _shuffled_in_c(c: Core) -> cython.bint:
    """Natively, the seeded shuffle of the deal in progress laid out as the pack's stack,
    in C; False (nothing done) when the deal is prearranged or its seed is not drawn from
    in C."""
    deal_no: cython.int = c.deal_no
    if (deal_no == 0 and c.deck is not None) or (c.decks and deal_no in c.decks):
        return False
    seed = _seed_of(c, deal_no) if c.reseeds else c.seed
    return _c_seed(seed) and tl_deal_order(seed, deal_no, NC, cython.address(c.stk[PACK_STACK * NC])) == 0


def _c_seed(seed: object) -> cython.bint:
    """Whether a seed is drawn from in C natively: an int (not a bool) of 64 bits."""
    return type(seed) is int and -(1 << 63) <= seed < (1 << 63)


def _reset_deal(c: Core) -> None:
    i: cython.int
    for i in range(NDCNT):  # counters 'per deal' start again
        c.cnt[DEAL_CNT[i]] = 0
    if cython.compiled:
        for i in range(NV):
            c.v[i] = UNSET
    else:
        c.v[:] = UNSETS
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
    c.nevm += c.nev
    c.nev = 0
    if not cython.compiled:  # (the same, by slices: CPython)
        c.tw[:] = NO_TRICKS
        c.bids[:] = NO_BIDS
        c.dsc[:] = c.sc
        if HOLDERS:
            c.dealt_to[:] = NOBODY_CARDS
            c.taken_by[:] = NOBODY_CARDS
        c.played_by[:] = NOBODY_CARDS
        if CANCEL:
            c.lt[:] = NO_LABELS
        return
    for i in range(N):
        c.tw[i] = 0
        c.bids[i] = -1
    for i in range(NSIDES):
        c.dsc[i] = c.sc[i]
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
    if cython.compiled:
        for i in range(NZ):
            c.z[i] = 0
        for i in range(NSTK):
            c.sl[i] = 0
    else:  # (the same, by slices: CPython)
        c.z[:] = NO_CARDS
        c.sl[:] = NO_STACKS
    order = None
    if c.tape is not None and not (c.deal_no == 0 and c.deck is not None) and not (c.decks and c.deal_no in c.decks):
        _reset_deal(c)
        order = _chance_draw(c.tape, c.tape_pos, "deck", range(NC), NC)[::-1]
        c.tape_pos += NC
    elif cython.compiled and _shuffled_in_c(c):
        pass  # (the seeded shuffle laid the pack out where it lies)
    else:
        order = _pack_order(c, c.deal_no)
    if order is None:
        pass
    elif cython.compiled:
        for i in range(NC):
            c.stk[PACK_STACK * NC + i] = order[i]
    else:
        c.stk[PACK_STACK * NC:PACK_STACK * NC + NC] = order
    c.sl[PACK_STACK] = NC
    c.z[PACK] = FULL  # (the whole pack: a permutation of the cards)
    _reset_deal(c)
    c.steps += NC
    _ev(c)
    if c.rec and c.rec >> DEAL & 1:
        c.log.append((DEAL, c.deal_no + 1, c.dealer, _roles(c)))


def new_core(seed: object, deck: object, dealer: object, table: cython.bint, tape: object, decks: object,
             reseeds: object, rec: cython.longlong) -> Core:
    """A match at its start (the deal laid out, not yet advanced to the first decision).

    Raises:
        ChanceNeeded: explicit chance, and the tape holds too few outcomes.
    """
    c: Core = make_core(seed, deck, table, tape, decks, reseeds, rec)
    begin(c, dealer)
    return c


def make_core(seed: object, deck: object, table: cython.bint, tape: object, decks: object, reseeds: object,
              rec: cython.longlong) -> Core:
    """A core for a new match, before its first dealer is known and its first deal laid out
    (logging the kinds of events in the mask ``rec``: EVERY_EVENT, interpreter.codegen.module)."""
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
        elif cython.compiled and _c_seed(c.seed):
            dealer = tl_first_dealer(c.seed, N, NC)
        else:
            dealer = _first_dealer(c.seed, N)
    c.first_dealer = dealer
    c.dealer = dealer
    start_deal(c)


def _end_deal(c: Core) -> cython.int:
    """Score the match at the end of a deal; the next deal, or the end of the match."""
    _ev(c)
    if c.rec and c.rec >> DEAL_END & 1:
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
    if c.rec and c.rec >> REDEAL & 1:
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


