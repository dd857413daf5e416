"""The C a native build of a generated module adds to it (in its ``.pxd``): counting and
finding bits, and the seeded shuffles of :mod:`interpreter.runtime.seeding` (SHAKE-256,
Keccak-f[1600], written out after FIPS 202) so that a deal's pack is drawn without
calling Python. The module reaches them only behind ``cython.compiled``; in CPython the
same draws come from :mod:`hashlib`. ``tests/runtime/test_native_seeding.py`` checks the
two agree (on every word a test draws), natively built.
"""


def _keccak_round(a: str, e: str, rc: str) -> list[str]:
    """One round of Keccak-f[1600] as straight-line C from the lanes ``{a}0..{a}24`` (lane
    x + 5 y) to ``{e}0..{e}24`` (theta, rho and pi, chi, iota with round constant ``rc``):
    scalar lanes the compiler keeps in registers, the offsets computed here as FIPS 202
    defines them."""
    rot = [[0] * 5 for _ in range(5)]
    x, y = 1, 0
    for t in range(24):
        rot[x][y] = (t + 1) * (t + 2) // 2 % 64
        x, y = y, (2 * x + 3 * y) % 5
    out = [f"c{x} = {a}{x} ^ {a}{x + 5} ^ {a}{x + 10} ^ {a}{x + 15} ^ {a}{x + 20};" for x in range(5)]
    out += [f"d{x} = c{(x + 4) % 5} ^ TL_ROTL(c{(x + 1) % 5}, 1);" for x in range(5)]
    for x in range(5):
        for y in range(5):
            r = rot[x][y]
            lane = f"({a}{x + 5 * y} ^ d{x})"
            out.append(f"b{y + 5 * ((2 * x + 3 * y) % 5)} = {f'TL_ROTL({lane}, {r})' if r else lane};")
    for y in range(5):
        for x in range(5):
            out.append(f"{e}{x + 5 * y} = b{x + 5 * y} ^ (~b{(x + 1) % 5 + 5 * y} & b{(x + 2) % 5 + 5 * y});")
    out.append(f"{e}0 ^= {rc};")
    return out


def _lanes(name: str) -> str:
    return ", ".join(f"{name}{i}" for i in range(25))


def _keccak_function(head: str, lane: str = "uint64_t") -> list[str]:
    """Keccak-f[1600] as a C function whose declaration is ``head``: the lanes (of type
    ``lane``: a vector of lanes runs as many permutations at once) in locals, two rounds an
    iteration."""
    return [
        head + " {",
        f"    {lane} {_lanes('a')};",
        f"    {lane} {_lanes('e')};",
        f"    {lane} {_lanes('b')};",
        f"    {lane} c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;",
        "    int r;",
        "    " + " ".join(f"a{i} = s[{i}];" for i in range(25)),
        "    for (r = 0; r < 24; r += 2) {",
        *("        " + ln for ln in _keccak_round("a", "e", "tl_rc[r]") + _keccak_round("e", "a", "tl_rc[r + 1]")),
        "    }",
        "    " + " ".join(f"s[{i}] = a{i};" for i in range(25)),
        "}",
        "",
    ]


_KECCAK = "\n".join([
    "#define TL_ROTL(x, y) (((x) << (y)) | ((x) >> (64 - (y))))",
    "",
    "/* Keccak-f[1600] on 25 lanes (each lane a little-endian 64-bit word of the state). On x86",
    "   with GCC or Clang it is compiled twice, the second time for processors with BMI1 and",
    "   BMI2 (chi's ~x & y one instruction, andn: about a fifth faster), and the processor",
    "   running it picks one the first time (the same words either way). */",
    "#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))",
    "#define TL_KECCAK_BMI 1",
    "#endif",
    *_keccak_function("static void tl_keccakf_plain(uint64_t s[25])"),
    "#ifdef TL_KECCAK_BMI",
    *_keccak_function('__attribute__((target("bmi,bmi2"))) static void tl_keccakf_bmi(uint64_t s[25])'),
    "/* What the processor running the module has, read the first time a draw is made: BMI1 and",
    "   BMI2 (tl_bmi), and tl_simd 0 (no AVX2), 1 (AVX2) or 2 (AVX2 and AVX-512VL). The variable",
    "   TRICKLANG_NATIVE_SIMD=none or =avx2 sets less (for tests and comparisons: the words are",
    "   the same on every path). */",
    "static int tl_bmi = -1, tl_simd = -1;",
    "static void tl_cpu(void) {",
    '    const char *cap = getenv("TRICKLANG_NATIVE_SIMD");',
    "    __builtin_cpu_init();",
    '    tl_bmi = __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");',
    '    tl_simd = !__builtin_cpu_supports("avx2") ? 0',
    '        : __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") ? 2 : 1;',
    "    if (cap != NULL && strcmp(cap, \"none\") == 0) tl_bmi = tl_simd = 0;",
    "    else if (cap != NULL && strcmp(cap, \"avx2\") == 0 && tl_simd > 1) tl_simd = 1;",
    "}",
    "#endif",
    "static void tl_keccakf(uint64_t s[25]) {",
    "#ifdef TL_KECCAK_BMI",
    "    if (tl_bmi < 0) tl_cpu();",
    "    if (tl_bmi) {",
    "        tl_keccakf_bmi(s);",
    "        return;",
    "    }",
    "#endif",
    "    tl_keccakf_plain(s);",
    "}",
    "",
    "#ifdef TL_KECCAK_BMI",
    "/* Four permutations at once, each lane a vector of four, for the words of four keys drawn",
    "   together (tl_draw4): with AVX2 (a 64-bit rotation is two shifts and an or) about twice the",
    "   permutations a second of tl_keccakf_bmi; compiled again for AVX-512VL (a rotation and chi's",
    "   three-input logic one instruction each), about 1.7 times that again. */",
    "typedef uint64_t tl_v4 __attribute__((vector_size(32)));",
    *_keccak_function('__attribute__((target("avx2"))) static void tl_keccakf4(tl_v4 s[25])', "tl_v4"),
    *_keccak_function('__attribute__((target("avx2,avx512f,avx512vl"))) static void tl_keccakf4_512(tl_v4 s[25])',
                      "tl_v4"),
    "#endif",
    "",
])
"""Keccak-f[1600] in C: one permutation (plain, and for BMI1/BMI2), four at once (AVX2,
AVX-512VL)."""


C_HELPERS = r"""
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __POPCNT__
static inline int popcountll(unsigned long long m) { return __builtin_popcountll(m); }
#else  /* (without the instruction, the builtin is a call into libgcc: the same count inline) */
static inline int popcountll(unsigned long long m) {
    m -= (m >> 1) & 0x5555555555555555ULL;
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int) ((m * 0x0101010101010101ULL) >> 56);
}
#endif
static inline int ctzll(unsigned long long m) { return __builtin_ctzll(m); }
static inline int _bitlen(long long n) { return n > 0 ? 64 - __builtin_clzll((unsigned long long) n) : 0; }

static const uint64_t tl_rc[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
%(keccak)s
/* The first n little-endian 64-bit words of SHAKE-256 of a short key (under 136 bytes). */
static void tl_shake_words(const char *key, int len, uint64_t *out, int n) {
    uint64_t s[25];
    int i, got = 0;
    memset(s, 0, sizeof s);
    for (i = 0; i < len; i++) s[i >> 3] |= (uint64_t) (unsigned char) key[i] << (8 * (i & 7));
    s[len >> 3] ^= (uint64_t) 0x1F << (8 * (len & 7));
    s[16] ^= (uint64_t) 0x80 << 56;
    tl_keccakf(s);
    for (;;) {
        for (i = 0; i < 17 && got < n; i++) out[got++] = s[i];
        if (got >= n) return;
        tl_keccakf(s);
    }
}

/* Write the decimal digits of v at p; returns the position after them. */
static char *tl_digits(char *p, long long v) {
    char tmp[24];
    int k = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long) v : (unsigned long long) v;
    if (v < 0) *p++ = '-';
    do { tmp[k++] = (char) ('0' + u % 10); u /= 10; } while (u);
    while (k) *p++ = tmp[--k];
    return p;
}

typedef struct { uint64_t word; int index; } tl_keyed;

static int tl_keyed_cmp(const void *a, const void *b) {
    const tl_keyed *x = (const tl_keyed *) a, *y = (const tl_keyed *) b;
    if (x->word != y->word) return x->word < y->word ? -1 : 1;
    return x->index < y->index ? -1 : (x->index > y->index);
}

/* range(n) sorted by the words (n <= 64) into out: bucketed by their top 6 bits, then by
   insertion (stable: equal words keep index order). */
static void tl_sort_small(const uint64_t *words, int n, int *out) {
    int count[64], bucketed[64], run = 0, had, i;
    memset(count, 0, sizeof count);
    for (i = 0; i < n; i++) count[words[i] >> 58]++;
    for (i = 0; i < 64; i++) { had = count[i]; count[i] = run; run += had; }  /* (the sum in a register) */
    for (i = 0; i < n; i++) bucketed[count[words[i] >> 58]++] = i;
    for (i = 0; i < n; i++) {
        int k = bucketed[i], j = i;
        uint64_t w = words[k];
        while (j > 0 && words[out[j - 1]] > w) { out[j] = out[j - 1]; j--; }
        out[j] = k;
    }
}

/* The key of a draw of a seed at key (64 bytes): "SEED/deal/N" (a deal's shuffle) for deal_no
   N >= 0, "SEED/first-dealer" for -1. Returns its length. */
static int tl_draw_key(char *key, long long seed, long long deal_no) {
    char *end = tl_digits(key, seed);
    if (deal_no < 0) {
        memcpy(end, "/first-dealer", 13);
        return (int) (end + 13 - key);
    }
    memcpy(end, "/deal/", 6);
    end = tl_digits(end + 6, deal_no);
    return (int) (end - key);
}

#ifdef TL_KECCAK_BMI
/* The draws of one seed made ahead, per thread: the first n words of four keys drawn together
   (tl_draw4), the draws first..first + 3 (tl_draw_key's numbers), and the deal orders sorted
   from them as they are asked for (bit j of sorted). A match's first draw takes its first
   dealer's and its first three deals' words, a later deal's the words of the four deals from
   it: most matches play on, so one four-lane permutation (or two, past 17 words) serves four
   draws. Only ever read for the same seed, draw and n. */
typedef struct {
    long long seed, first;
    int n, ready, sorted;
    uint64_t words[4][64];
    int order[4][64];
} tl_ahead_draws;
static __thread tl_ahead_draws tl_ahead;

__attribute__((target("avx2"))) static void tl_draw4(long long seed, long long first, int n, tl_ahead_draws *o) {
    tl_v4 s[25];
    char key[64];
    int i, j, len, got = 0;
    memset(s, 0, sizeof s);
    for (j = 0; j < 4; j++) {  /* (the same absorbing as tl_shake_words, lane j of each word) */
        len = tl_draw_key(key, seed, first + j);
        for (i = 0; i < len; i++) s[i >> 3][j] |= (uint64_t) (unsigned char) key[i] << (8 * (i & 7));
        s[len >> 3][j] ^= (uint64_t) 0x1F << (8 * (len & 7));
        s[16][j] ^= (uint64_t) 0x80 << 56;
    }
    for (;;) {
        if (tl_simd > 1) tl_keccakf4_512(s); else tl_keccakf4(s);
        for (i = 0; i < 17 && got < n; i++, got++)
            for (j = 0; j < 4; j++) o->words[j][got] = s[i][j];
        if (got >= n) break;
    }
    o->seed = seed;
    o->first = first;
    o->n = n;
    o->ready = 1;
    o->sorted = 0;
}

/* The words of draw deal_no (-1: the first dealer) of a seed, n of them (1 <= n <= 64), from
   the draws made ahead (drawn now if they are not there), with their lane's index at *lane;
   NULL when the processor has no AVX2 (the caller draws one key alone). */
static const uint64_t *tl_ahead_words(long long seed, long long deal_no, int n, int *lane) {
    tl_ahead_draws *o = &tl_ahead;
    if (tl_simd < 0) tl_cpu();
    if (tl_simd == 0) return NULL;
    if (!o->ready || o->seed != seed || o->n != n || deal_no < o->first || deal_no > o->first + 3)
        tl_draw4(seed, deal_no < 3 ? -1 : deal_no, n, o);
    *lane = (int) (deal_no - o->first);
    return o->words[*lane];
}
#endif

/* seeding.deal_order(seed, deal_no, n) into out[0..n): range(n) sorted by the words of
   SHAKE-256 of "SEED/deal/N" (equal words keep index order). Returns 0, or -1 when n is
   out of range (the caller asks Python). */
static int tl_deal_order(long long seed, long long deal_no, int n, int *out) {
    char key[64];
    uint64_t words[1024];
    tl_keyed keyed[1024];
    int i, len;
    if (n < 0 || n > 1024) return -1;
#ifdef TL_KECCAK_BMI
    if (n >= 1 && n <= 64 && deal_no >= 0 && deal_no < ((long long) 1 << 62)) {
        int j;
        const uint64_t *ahead = tl_ahead_words(seed, deal_no, n, &j);
        if (ahead != NULL) {
            if (!(tl_ahead.sorted >> j & 1)) {
                tl_sort_small(ahead, n, tl_ahead.order[j]);
                tl_ahead.sorted |= 1 << j;
            }
            memcpy(out, tl_ahead.order[j], sizeof(int) * (size_t) n);
            return 0;
        }
    }
#endif
    len = tl_draw_key(key, seed, deal_no);
    tl_shake_words(key, len, words, n);
    if (n <= 64) {
        tl_sort_small(words, n, out);
        return 0;
    }
    for (i = 0; i < n; i++) { keyed[i].word = words[i]; keyed[i].index = i; }
    qsort(keyed, (size_t) n, sizeof keyed[0], tl_keyed_cmp);
    for (i = 0; i < n; i++) out[i] = keyed[i].index;
    return 0;
}

/* The Mersenne Twister of CPython's random.Random, stepped in C on the generator's own
   state: the object's layout (Modules/_randommodule.c: the header, the index, 624 words)
   is checked once, against the size of _random.Random and against its own getrandbits,
   before the module uses it (see tl_mt_layout and the module's _mt_in_c). */
typedef struct { PyObject_HEAD int index; uint32_t state[624]; } tl_mt_object;

/* Whether the base class of random.Random has the layout above (never with free threading,
   where CPython guards each draw by a lock this would bypass). */
static int tl_mt_layout(PyObject *cls) {
#ifdef Py_GIL_DISABLED
    return 0;
#else
    return PyType_Check(cls) && ((PyTypeObject *) cls)->tp_basicsize == (Py_ssize_t) sizeof(tl_mt_object);
#endif
}

static void tl_twist(tl_mt_object *self) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = self->state;
    int kk;
    for (kk = 0; kk < 624 - 397; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    for (; kk < 623; kk++) {
        y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
        mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
    }
    y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
    mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
    self->index = 0;
}

/* One 32-bit word (inline: the state twisted, 624 words at once, out of line). */
static inline uint32_t tl_genrand(tl_mt_object *self) {
    uint32_t y;
    if (self->index >= 624) tl_twist(self);
    y = self->state[self->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* rng.getrandbits(k) for 0 <= k <= 64, as CPython draws it (32-bit words, low word first). */
static inline unsigned long long tl_getrandbits(PyObject *rng, int k) {
    tl_mt_object *self = (tl_mt_object *) rng;
    unsigned long long lo, hi;
    if (k <= 0) return 0;
    if (k <= 32) return tl_genrand(self) >> (32 - k);
    lo = tl_genrand(self);
    hi = tl_genrand(self) >> (64 - k);
    return lo | hi << 32;
}

/* The high 64 bits of w * n (n small and positive): Lemire's draw below n. */
static inline long long tl_mulhi(uint64_t w, uint64_t n) {
    uint64_t lo = (w & 0xFFFFFFFFULL) * n, hi = (w >> 32) * n;
    return (long long) ((hi + (lo >> 32)) >> 32);
}

/* seeding.first_dealer(seed, players), for a module of n cards (the draws made ahead with it
   are n words long). */
static int tl_first_dealer(long long seed, int players, int n) {
    char key[64];
    uint64_t w;
#ifdef TL_KECCAK_BMI
    if (n >= 1 && n <= 64) {
        int j;
        const uint64_t *ahead = tl_ahead_words(seed, -1, n, &j);
        if (ahead != NULL) return (int) tl_mulhi(ahead[0], (uint64_t) players);
    }
#endif
    tl_shake_words(key, tl_draw_key(key, seed, -1), &w, 1);
    return (int) tl_mulhi(w, (uint64_t) players);
}
""".replace("%(keccak)s", _KECCAK)
"""The C source, pasted verbatim into the ``.pxd`` (``cdef extern from *``)."""

C_DECLARATIONS = (
    "int popcountll(unsigned long long m) nogil",
    "int ctzll(unsigned long long m) nogil",
    "int _bitlen(long long n) nogil",
    "int tl_deal_order(long long seed, long long deal_no, int n, int *out) nogil",
    "int tl_first_dealer(long long seed, int players, int n) nogil",
    "int tl_mt_layout(object cls)",
    "unsigned long long tl_getrandbits(object rng, int k)",
)
"""What the module may call of :data:`C_HELPERS`, as Cython declares it."""

C_NAMES = frozenset(d.split("(")[0].split()[-1] for d in C_DECLARATIONS)
"""The names the generated source may read without defining them (natively only)."""
