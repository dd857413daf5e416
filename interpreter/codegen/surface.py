"""What the state calls beside the decision points: the irregularities of table mode
(their offers, guards and the start of a remedy) and the accessors its views read
(zones, scores, the trick in progress) and the generated playout loop."""

from __future__ import annotations

from .hooks import pending_trick
from .parts import Parts
from .writer import Writer, lit


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
    if c.rec and c.rec >> IRREGULARITY & 1:
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
    text = ACCESSORS
    if "<trick taken>" in gen.lay.slots:  # (hooks after a trick that decide: .hooks)
        text = pending_trick(text, gen.lay.slots["<trick taken>"])
    for ln in text.splitlines():
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


def is_native() -> cython.bint:
    """Whether this module runs compiled (a native build): the state picks its helpers by it."""
    return cython.compiled


def code_ids(codes: list, by_code: tuple) -> object:
    """``by_code[k]`` for each code ``k`` of ``codes`` (a decision point's legal codes and
    the ids of its codes), increasing; None when one has no id (-1)."""
    out: list = []
    k: cython.longlong
    i: cython.longlong
    for k in codes:
        i = by_code[k]
        if i < 0:
            return None
        out.append(i)
    out.sort()
    return out


def select_ids(c: Core, start: cython.longlong) -> object:
    """The ids ``start + mask`` of the choices the selection pending offers (every subset
    of ``c.sel_cards`` of ``sel_lo`` to ``sel_hi`` cards, ``mask`` its cards), increasing;
    None when they are more than MAX_CHOICES, or (natively) when an id might not fit in 64
    bits. The subsets of each size come in increasing order: a subset's successor is the
    sum of the lowest run of its cards (consecutive within ``sel_cards``) and its lowest
    card, carried across the cards not offered, with the run less one card put back at
    the lowest offered cards."""
    if cython.compiled and not WIDE and NC > 60:
        return None
    if _select_total(c) > MAX_CHOICES:
        return None
    out: list = []
    m: MASK = c.sel_cards
    n: cython.longlong = _pc(m)
    base: MASK = start
    s: MASK
    v: MASK
    rest: MASK
    low: MASK
    i: cython.longlong
    j: cython.longlong
    k: cython.longlong
    lo: cython.longlong = max(c.sel_lo, 0)
    hi: cython.longlong = min(c.sel_hi, n)
    for k in range(lo, hi + 1):
        s = 0
        rest = m
        for j in range(k):  # the k lowest cards
            low = rest & (~rest + 1)
            s |= low
            rest ^= low
        for i in range(_comb(n, k)):
            out.append(base + s)
            v = ((s | ~m) + (s & (~s + 1))) & m
            j = k - _pc(v)
            rest = m
            while j > 0:
                low = rest & (~rest + 1)
                v |= low
                rest ^= low
                j -= 1
            s = v
    if hi > lo:
        out.sort()
    return out


def exposed(c: Core, z: cython.int) -> cython.bint:
    return c.exp >> z & 1


def zmask(c: Core, z: cython.int) -> cython.longlong:
    return _zmask(c, z)


def playout(c: Core, rng: object, most: cython.longlong, log: object, stop_deal: cython.int) -> cython.longlong:
    """Random legal actions until the match is over, ``most`` are taken, (``stop_deal``
    >= 0) the deal changes or a selection has more than MAX_CHOICES subsets; each taken
    is logged as ``dp | (code + 1) << 16`` (a selection's code: its cards' mask) unless
    ``log`` is None: natively, the last ones (up to KEYS_BUF) may wait in the core's buffer
    until ``flush_keys(c, log)``. The same draws as the state's ``sample_action``. Returns
    how many were taken."""
    taken: cython.longlong = 0
    code: cython.longlong
    total: cython.longlong
    while not c.terminal and taken < most and (stop_deal < 0 or c.deal_no == stop_deal):
        dp: cython.int = c.dp
        if TRICK_DPS[dp]:
            got: cython.longlong = _run_at(c, dp, rng, most - taken, log, stop_deal)
            if got:
                taken += got
                continue
        if SELECTS[dp]:
            total = _select_total(c)
            if total > MAX_CHOICES:
                break
            chosen: list = []
            mask: MASK = _draw_select(c, rng, total, chosen)
            c.steps = 0
            _select_at(c, dp, chosen)
            if log is not None:
                if mask >= LOG_WIDE:
                    flush_keys(c, log)  # (the keys before it first)
                    log.append(dp | (cython.cast(object, mask) + 1) << 16)  # (a Python int: it may pass 64 bits)
                elif cython.compiled:
                    _keep_key(c, log, dp | (mask + 1) << 16)
                else:
                    log.append(dp | (mask + 1) << 16)
        else:
            code = _sample_at(c, dp, rng)
            c.steps = 0
            _apply_at(c, dp, code)
            if log is not None:
                if not -1 <= code < LOG_W - 1:
                    flush_keys(c, log)  # (the keys before it first)
                    log.append(dp | (code + 1) << 16)
                elif cython.compiled:
                    _keep_key(c, log, dp | (code + 1) << 16)
                else:
                    log.append(LOG_KEYS[dp * LOG_W + code + 1])  # (made once: no new int an action)
        taken += 1
    return taken


def _keep_key(c: Core, log: object, key: cython.longlong) -> None:
    """Natively, a taken action's log key (of code -1..LOG_W - 2, or a selection's mask
    below LOG_WIDE) kept in the core's buffer; a full buffer is appended to ``log`` first."""
    if c.kn == KEYS_BUF:
        flush_keys(c, log)
    c.kb[c.kn] = key
    c.kn += 1


def flush_keys(c: Core, log: list) -> None:
    """Append the log keys the playout left in the core's buffer (natively; none in CPython)
    to ``log``, in the order taken, as the ints the playout would have appended, and empty it."""
    i: cython.int
    k: cython.longlong
    code: cython.longlong
    if cython.compiled:
        for i in range(c.kn):
            k = c.kb[i]
            code = (k >> 16) - 1
            if code < LOG_W - 1:
                log.append(LOG_KEYS[(k & 0xFFFF) * LOG_W + code + 1])  # (made once)
            else:
                log.append(k)
    c.kn = 0


def new_match(seed: object) -> Core:
    """A seeded match in the default modes (no deck, dealer, table, tape, later decks or
    reseeds, no events logged) advanced to its first decision: ``new_core`` then
    ``advance`` in one call (a new match of the public ``new_game`` with a seed only).

    Raises:
        Fault, GameLimitError: the rules failed, or ran over a limit, before the first decision.
    """
    c: Core = new_core(seed, None, None, False, None, None, None, False)
    c.steps = 0
    advance(c)
    return c


def random_matches(first_seed: cython.longlong, count: cython.longlong, rng: object, scores: list,
                   first_deal: cython.bint) -> cython.longlong:
    """``count`` matches, from seeds ``first_seed``, ``first_seed + 1``..., each played to its
    end (``first_deal``: to the end of its first deal) by random legal actions (the draws
    of :func:`playout`) and logging nothing: the scores of each (a tuple, by side) are
    appended to ``scores``. Returns the actions taken; stops early (``scores`` shorter)
    at a selection of more than MAX_CHOICES subsets.

    Raises:
        Fault, GameLimitError: a rule failed, or ran over a limit, in the last match begun.
    """
    taken: cython.longlong = 0
    i: cython.longlong
    s: cython.int
    for i in range(count):
        c: Core = new_match(first_seed + i)
        taken += playout(c, rng, 1 << 62, None, 0 if first_deal else -1)
        if not c.terminal and not (first_deal and c.deal_no):
            break
        scores.append(tuple([c.sc[s] for s in range(NSIDES)]))
    return taken
'''
