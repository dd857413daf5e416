"""The helpers every generated module starts with (bits, stacks, stamps, checked
arithmetic, scoring, events, dealing), written once here and copied into each module
so that a native build compiles them with the module's own types and inlines them.

They read the module's constants (``N``, ``NC``, ``HAND``, the tables...) and know no
game. Where CPython and C differ (counting bits, a product beyond 64 bits) the source
says both, behind ``cython.compiled``, which Cython settles when it compiles.
"""

PRELUDE = '''
# ---------------------------------------------------------------- helpers (the same in every module)


@cython.cfunc
@cython.inline
def _pc(m: MASK) -> cython.int:
    if cython.compiled and not WIDE:
        return popcountll(m)
    return m.bit_count()


@cython.cfunc
@cython.inline
def _low(m: MASK) -> cython.int:
    if cython.compiled and not WIDE:
        return ctzll(m)
    return (m & -m).bit_length() - 1


@cython.cfunc
@cython.inline
def _power(ti: cython.int, led: cython.int, card: cython.int) -> cython.int:
    """How strongly a card plays to a trick led in suit ``led`` under order index ``ti``:
    trumps above the suit led, other cards 0."""
    if not WIDE:
        return POWER[(ti * NS + led) * NC + card]
    s: cython.int = EFF[ti * NC + card]
    if ti < NS and s == ti:
        return 1000 + TSTRENGTH[ti * NC + card]
    return PLAIN[card] if s == led else 0


def _above(c: Core, allowed: MASK, base: cython.int, led: cython.int, best: cython.int) -> MASK:
    """The cards of ``allowed`` that beat ``best`` in the trick."""
    if not WIDE:
        return ABOVE_CARD[base + best]
    top: cython.int = _power(c.ti, led, best)
    out: MASK = 0
    m: MASK = allowed
    while m:
        k: cython.int = _low(m) if cython.compiled else (m & -m).bit_length() - 1
        if _power(c.ti, led, k) > top:
            out |= BIT[k]
        m ^= BIT[k]
    return out


def _var(x: cython.longlong, f: cython.int) -> cython.longlong:
    if x == UNSET:
        raise Fault(f)
    return x


def _seat(x: cython.longlong, f: cython.int) -> cython.int:
    if x < 0 or x >= N:
        raise Fault(f)
    return x


def _num(x: cython.longlong, f: cython.int) -> cython.longlong:
    if x > MAXN or x < -MAXN:
        raise Fault(f)
    return x


def _add(a: cython.longlong, b: cython.longlong, f: cython.int) -> cython.longlong:
    r: cython.longlong = a + b
    if r > MAXN or r < -MAXN:
        raise Fault(f)
    return r


def _sub(a: cython.longlong, b: cython.longlong, f: cython.int) -> cython.longlong:
    r: cython.longlong = a - b
    if r > MAXN or r < -MAXN:
        raise Fault(f)
    return r


def _mul(a: cython.longlong, b: cython.longlong, f: cython.int) -> cython.longlong:
    r: object = cython.cast(object, a) * b
    if r > MAXN or r < -MAXN:
        raise Fault(f)
    return r


def _mod(a: cython.longlong, b: cython.longlong, f: cython.int) -> cython.longlong:
    if b == 0:
        raise Fault(f)
    return a % b


def _fail(f: cython.int) -> cython.int:
    raise Fault(f)


def _too_many(f: cython.int) -> None:
    raise LimitFault(f)


def _too_many_steps() -> None:
    raise GameLimitError(f"more than {MAX_STEPS} automatic steps without a decision")


def _ev(c: Core) -> None:
    """Count an event towards the limits of a deal and a match, and as a step of work."""
    if c.nev >= MAX_EV_DEAL or c.nevm + c.nev >= MAX_EV_MATCH:
        limit = "deal" if c.nev >= MAX_EV_DEAL else "match"
        raise GameLimitError(f"the {limit} logged more than {MAX_EV_DEAL if limit == 'deal' else MAX_EV_MATCH} events")
    c.nev += 1
    c.steps += 1


def _forbidden(c: Core, key: cython.int, p: cython.int) -> cython.bint:
    return c.decl >> (key * N + p) & 1


def _allow(c: Core, key: cython.int, p: cython.int) -> None:
    if c.decl >> (key * N + p) & 1:
        c.decl ^= DBIT[key * N + p]


def _next_with_cards(c: Core, p: cython.int) -> cython.int:
    q: cython.int = (p + 1) % N
    while q != p:
        if c.z[HAND + q]:
            return q
        q = (q + 1) % N
    return p


def _in_order(c: Core, m: MASK) -> list:
    """The cards of a mask as hands list them under the current order index: trumps
    strongest first, then the other cards suit by suit, high first (deck order)."""
    out: list = []
    ti: cython.int = c.ti
    if not cython.compiled and BYTE_CARDS:  # (CPython: a byte of the mask at a time, no call a card)
        j = 0
        for b in m.to_bytes(NBYTES, "little"):
            if b:
                out += BYTE_CARDS[j + b]
            j += 256
        if m & TRUMPS[ti]:  # (trumps strongest first, then deck order)
            out.sort(key=ORDER_KEY[ti])
        return out
    t: MASK = m & TRUMPS[ti]
    if t:
        for j in range(TSTART[ti], TSTART[ti + 1]):
            if t & BIT[TORDER[j]]:
                out.append(TORDER[j])
    m &= ~TRUMPS[ti]
    while m:
        k: cython.int = _low(m) if cython.compiled else (m & -m).bit_length() - 1
        out.append(k)
        m ^= BIT[k]
    return out


def _ith(c: Core, m: MASK, i: cython.int) -> cython.int:
    """The i-th card of a mask in the order of :func:`_in_order`."""
    ti: cython.int = c.ti
    t: MASK = m & TRUMPS[ti]
    if t:
        nt: cython.int = _pc(t)
        if i < nt:
            for j in range(TSTART[ti], TSTART[ti + 1]):
                if t & BIT[TORDER[j]]:
                    if i == 0:
                        return TORDER[j]
                    i -= 1
        i -= nt
        m &= ~TRUMPS[ti]
    while i:
        m &= m - 1
        i -= 1
    return _low(m)


def _push(c: Core, k: cython.int, card: cython.int) -> None:
    c.stk[k * NC + c.sl[k]] = card
    c.sl[k] += 1


def _pop(c: Core, k: cython.int) -> cython.int:
    c.sl[k] -= 1
    return c.stk[k * NC + c.sl[k]]


def _popped(c: Core, k: cython.int, n: cython.int) -> tuple:
    """The last ``n`` cards popped from stack ``k``, in the order they were popped: they stay
    above its top until cards are pushed over them (an event lists them so, no list kept)."""
    top: cython.int = k * NC + c.sl[k] + n - 1
    i: cython.int
    return tuple([c.stk[top - i] for i in range(n)])


def _unstack(c: Core, k: cython.int, card: cython.int) -> None:
    n: cython.int = c.sl[k]
    i: cython.int = k * NC
    end: cython.int = i + n
    if not cython.compiled:  # (CPython: the list's own search and a slice, the same shift)
        held = c.stk[i:end]
        if card in held:
            j = held.index(card)
            c.stk[i + j:end - 1] = held[j + 1:]
        c.sl[k] = n - 1
        return
    while i < end and c.stk[i] != card:
        i += 1
    while i < end - 1:
        c.stk[i] = c.stk[i + 1]
        i += 1
    c.sl[k] = n - 1


def _stack_list(c: Core, k: cython.int) -> list:
    return [c.stk[k * NC + i] for i in range(c.sl[k])]


def _by_stamp(c: Core, m: MASK) -> list:
    """The cards of ``m`` in the order of their stamps: natively sorted in C (no Python call
    a card, the function a C one), in CPython by ``list.sort``."""
    return _stamp_sorted(c, m) if cython.compiled else _by_stamp_py(c, m)


def _by_stamp_py(c: Core, m: MASK) -> list:
    cards: list = []
    while m:
        k: cython.int = _low(m) if cython.compiled else (m & -m).bit_length() - 1
        cards.append(k)
        m ^= BIT[k]
    if len(cards) > 1:
        cards.sort(key=lambda card: c.st[card])
    return cards


def _zone_list(c: Core, z: cython.int) -> list:
    k: cython.int = STACK_OF[z]
    if k >= 0:
        return _stack_list(c, k)
    return _by_stamp(c, c.z[z])


def _suit_of(c: Core, z: cython.int) -> cython.int:
    cards: list = _zone_list(c, z)
    return SUIT[cards[-1]] if cards else -1


def _top_suit(c: Core, z: cython.int, f: cython.int) -> cython.int:
    m: MASK = c.z[z]
    if STACK_OF[z] < 0 and m and not m & (m - 1):  # (one card, the top one: no list)
        return SUIT[_low(m) if cython.compiled else (m & -m).bit_length() - 1]
    cards: list = _zone_list(c, z)
    if not cards:
        raise Fault(f)
    return SUIT[cards[-1]]


def _zone_of(c: Core, card: cython.int) -> cython.int:
    for z in range(NZ):
        if c.z[z] & BIT[card]:
            return z
    return -1


def _zmask(c: Core, z: cython.int) -> cython.longlong:
    return ALL if c.exp >> z & 1 else ZMASK[z]


def _vis(c: Core, d: cython.int, s: cython.int, actor: cython.int) -> cython.longlong:
    m: cython.longlong = _zmask(c, d)
    if s >= 0 and _zmask(c, s) == ALL:
        m = ALL
    if actor >= 0:
        m |= 1 << actor
    return m


def _set_trump(c: Core, s: cython.int, p: cython.int, laws: cython.int) -> None:
    c.trump = s
    c.ti = s if s >= 0 else NS
    _ev(c)
    if c.rec and c.rec >> TRUMP & 1:
        c.log.append((TRUMP, s, p, laws))


def _seed_of(c: Core, deal_no: cython.int) -> object:
    seed = c.seed
    if c.reseeds:
        for start in sorted(c.reseeds):
            if start <= deal_no:
                seed = c.reseeds[start]
    return seed


def _sample(c: Core, cand: list, k: cython.int) -> list:
    """k cards drawn at random among ``cand`` (in order drawn): from the tape, or seeded."""
    if c.tape is not None:
        got = _chance_draw(c.tape, c.tape_pos, "sample", cand, k)
        c.tape_pos += k
        return got
    c.chance += 1
    key = _chance_key(_seed_of(c, c.deal_no), c.deal_no, c.chance)
    return [cand[i] for i in _permutation(key, len(cand))[:k]]


def _cut(c: Core, k: cython.int, z: cython.int, laws: cython.int) -> None:
    n: cython.int = c.sl[k]
    if n < 2:
        return
    c.chance += 1
    key = _chance_key(_seed_of(c, c.deal_no), c.deal_no, c.chance)
    cut: cython.int = 1 + _below(key, n - 1)
    cards: list = _stack_list(c, k)
    cards = cards[n - cut:] + cards[:n - cut]
    for i in range(n):
        c.stk[k * NC + i] = cards[i]
    _ev(c)
    if c.rec and c.rec >> CUT & 1:
        c.log.append((CUT, z, cut, laws))


def _put_under(c: Core, k: cython.int, z: cython.int, moved: list) -> None:
    """Put ``moved`` (in order) under the cards of zone instance z (stack k, or -1)."""
    i: cython.int
    if k >= 0:
        cards: list = moved + _stack_list(c, k)
        for i in range(len(cards)):
            c.stk[k * NC + i] = cards[i]
        c.sl[k] = len(cards)
    else:
        c.btick -= len(moved)
        for i in range(len(moved)):
            c.st[moved[i]] = c.btick + i
    for card in moved:
        c.z[z] |= BIT[card]


def _deal(c: Core, first: cython.int, packets: tuple, f: cython.int) -> None:
    """Deal packets round the table from ``first`` off the top of the pack."""
    t0 = c.tick
    if not cython.compiled:
        _deal_by_slices(c, first, packets, f)
        _dealt(c, first, t0)
        return
    i: cython.int
    j: cython.int
    k: cython.int
    p: cython.int
    card: cython.int
    for packet in packets:
        k = packet
        for i in range(N):
            p = (first + i) % N
            if k > c.sl[PACK_STACK]:
                raise Fault(f)
            for j in range(k):
                c.sl[PACK_STACK] -= 1
                card = c.stk[PACK_STACK * NC + c.sl[PACK_STACK]]
                c.z[PACK] ^= BIT[card]
                c.z[HAND + p] |= BIT[card]
                c.st[card] = c.tick
                c.tick += 1
                if HOLDERS and c.dealt_to[card] < 0:
                    c.dealt_to[card] = p
    _dealt(c, first, t0)


def _deal_by_slices(c: Core, first: cython.int, packets: tuple, f: cython.int) -> None:
    """:func:`_deal` in CPython: each packet taken off the stack as a slice (never run
    natively, where the names below would be copies of the core's arrays)."""
    stk: object = c.stk
    st: object = c.st
    z: object = c.z
    bit: object = BIT
    base: cython.int = PACK_STACK * NC
    top: cython.int = c.sl[PACK_STACK]
    tick = c.tick
    for k in packets:
        for i in range(N):
            p = (first + i) % N
            if k > top:
                c.sl[PACK_STACK] = top
                c.tick = tick
                raise Fault(f)
            m = 0
            if HOLDERS:
                for card in reversed(stk[base + top - k:base + top]):
                    m |= bit[card]
                    st[card] = tick
                    tick += 1
                    if c.dealt_to[card] < 0:
                        c.dealt_to[card] = p
            else:
                for card in reversed(stk[base + top - k:base + top]):
                    m |= bit[card]
                    st[card] = tick
                    tick += 1
            top -= k
            z[PACK] ^= m
            z[HAND + p] |= m
    c.sl[PACK_STACK] = top
    c.tick = tick


def _dealt(c: Core, first: cython.int, t0: cython.longlong) -> None:
    """Count the events of a deal just made, and (recording) log them: each player's
    cards in the order dealt, read back from the stamps (from ``t0`` on, counting up in
    dealing order)."""
    i: cython.int
    for i in range(N):
        p = (first + i) % N
        _ev(c)
        if c.rec and c.rec >> DEALT & 1:
            cards: list = [k for k in _by_stamp(c, c.z[HAND + p]) if c.st[k] >= t0]
            c.log.append((DEALT, p, tuple(cards)))


def _add_score(c: Core, side: cython.int, amount: cython.longlong, label: cython.int, laws: cython.int) -> None:
    c.sc[side] += amount
    if CANCEL:
        c.lt[label * NSIDES + side] += amount
    _ev(c)
    if c.rec and c.rec >> SCORE & 1:
        c.log.append((SCORE, side, amount, label, laws, tuple([c.sc[s] for s in range(NSIDES)])))
    if AT_ONCE and amount > 0:
        if LOWEST_WINS:
            _check_target(c)
        elif c.sc[side] >= _target(c):
            _finish(c, side, False)


def _score(c: Core, side: cython.longlong, amount: cython.longlong, sign: cython.int, label: cython.int,
           laws: cython.int, f: cython.int, nobody: cython.int) -> None:
    if side < 0 or side >= NSIDES:
        raise Fault(nobody)
    if amount > MAXN or amount < -MAXN or c.sc[side] + amount > MAXN or c.sc[side] + amount < -MAXN:
        raise Fault(f)
    if amount:
        _add_score(c, side, sign * amount, label, laws)


def _cancel(c: Core, side: cython.int, label: cython.int, cancelled: cython.int, laws: cython.int) -> None:
    total: cython.longlong = c.lt[label * NSIDES + side]
    if total:
        _add_score(c, side, -total, cancelled, laws)


def _count(c: Core, counter: cython.int, base: cython.int, owner: cython.int, amount: cython.longlong,
           laws: cython.int, f: cython.int) -> None:
    value: cython.longlong = c.cnt[base + owner] + amount
    if value > MAXN or value < -MAXN:
        raise Fault(f)
    c.cnt[base + owner] = value
    if amount:
        _ev(c)
        if c.rec and c.rec >> COUNTER & 1:
            c.log.append((COUNTER, counter, owner, amount, value, laws))


def _total_bids(c: Core) -> cython.longlong:
    t: cython.longlong = 0
    for p in range(N):
        if c.bids[p] >= 0:
            t += c.bids[p]
    return t


def _side_tricks(c: Core, s: cython.int) -> cython.int:
    t: cython.int = 0
    for i in range(SIDE_START[s], SIDE_START[s + 1]):
        t += c.tw[SIDE_SEATS[i]]
    return t


def _side_bids(c: Core, s: cython.int) -> cython.longlong:
    t: cython.longlong = 0
    for i in range(SIDE_START[s], SIDE_START[s + 1]):
        if c.bids[SIDE_SEATS[i]] > 0:
            t += c.bids[SIDE_SEATS[i]]
    return t


def _points_of(c: Core, t: cython.int, z: cython.int) -> cython.longlong:
    m: MASK = c.z[z]
    total: cython.longlong = 0
    base: cython.int = (t * NT + c.ti) * NC
    while m:
        k: cython.int = _low(m) if cython.compiled else (m & -m).bit_length() - 1
        total += POINTS[base + k]
        m ^= BIT[k]
    return total


def _points(c: Core, t: cython.int, x: cython.int, is_player: cython.bint) -> cython.longlong:
    if WON < 0:
        return 0
    if WON_PER_SIDE:
        return _points_of(c, t, WON + (SIDE_OF[x] if is_player else x))
    if is_player:
        return _points_of(c, t, WON + x)
    total: cython.longlong = 0
    for i in range(SIDE_START[x], SIDE_START[x + 1]):
        total += _points_of(c, t, WON + SIDE_SEATS[i])
    return total


def _holder(c: Core, pat: cython.int, ranking: cython.int, kind: cython.int) -> cython.int:
    """`holder of`, `original holder of`, `taker of` a card chosen by a pattern (-1: nobody)."""
    c.steps += NC
    m: MASK = PAT[pat * NT + c.ti]
    best: cython.int = -1
    card: cython.int
    for card in range(NC):
        if not (m & BIT[card]) or c.dealt_to[card] < 0:
            continue
        if best < 0 or (ranking == 1 and RANKKEY[c.ti * NC + card] > RANKKEY[c.ti * NC + best]) or (
                ranking == 2 and RANKKEY[c.ti * NC + card] < RANKKEY[c.ti * NC + best]):
            best = card
            if ranking == 0:
                break
    if best < 0:
        return -1
    if kind == 1:
        return c.dealt_to[best]
    if kind == 2:
        return c.taken_by[best]
    for p in range(N):
        if c.z[HAND + p] & BIT[best]:
            return p
    return -1


def _randbelow(rng: object, n: cython.longlong) -> cython.longlong:
    """``rng.randrange(n)``, the same draw (Random's own steps for a plain Random)."""
    if type(rng) is not _Random:
        return rng.randrange(n)
    k = n.bit_length() if not cython.compiled else _bitlen(n)
    r: cython.longlong = _bits(rng, k)
    while r >= n:
        r = _bits(rng, k)
    return r


@cython.cfunc
@cython.inline
def _bits(rng: object, k: cython.int) -> cython.ulonglong:
    """``rng.getrandbits(k)`` of a plain Random (0 <= k <= 64): natively stepped in C when
    the generator's layout was checked (:func:`_mt_in_c`), else CPython's own."""
    if cython.compiled and MT_IN_C:
        return tl_getrandbits(rng, k)
    return _getrandbits(rng, k)


def _mt_in_c() -> cython.bint:
    """Natively: whether random.Random's Mersenne Twister can be stepped in C here: its
    base's size is the layout's, and 2,000 draws of every width from 1 to 64 bits (the
    state twisted several times) are the generator's own."""
    if not cython.compiled:
        return False
    if not tl_mt_layout(_Random.mro()[1]):
        return False
    a = _Random(20261201)
    b = _Random(20261201)
    i: cython.int
    k: cython.int
    for i in range(2000):
        k = 1 + i % 64
        if tl_getrandbits(a, k) != _getrandbits(b, k):
            return False
    return a.getstate() == b.getstate()


MT_IN_C = cython.declare(cython.bint, _mt_in_c())
'''
