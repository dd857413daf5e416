# cython: language_level=3
"""The pack of a deal in C, for native builds (interpreter.native): exactly the order of
interpreter.seeding.deal_order -- the card indices sorted by their 64-bit words of
SHAKE-256("<seed>/deal/<deal number>"), read little-endian, equal words in index order
(Python's sort is stable) -- with the words sorted by qsort instead of Python's sort.

Compiled by interpreter.native when a ruleset is made native; never imported otherwise.
FALLBACK is set to interpreter.seeding.deal_order when the module is loaded: it deals the
packs of fewer than 2 or more than MAX_SIZE cards.
"""

from hashlib import shake_256

from libc.stdint cimport uint64_t
from libc.stdlib cimport qsort

FALLBACK = None

cdef enum:
    MAX_SIZE = 1024


cdef struct Keyed:
    uint64_t word
    int index


cdef int compare(const void* a, const void* b) noexcept nogil:
    cdef const Keyed* x = <const Keyed*>a
    cdef const Keyed* y = <const Keyed*>b
    if x.word != y.word:
        return -1 if x.word < y.word else 1
    return x.index - y.index


def deal_order(seed, deal_no, int size):
    """The pack of deal ``deal_no`` shuffled from ``seed``: as interpreter.seeding.deal_order."""
    cdef Keyed items[MAX_SIZE]
    cdef bytes digest
    cdef const unsigned char* d
    cdef int i, j
    cdef uint64_t word
    if size < 2 or size > MAX_SIZE:
        return FALLBACK(seed, deal_no, size)
    digest = shake_256(b"%d/deal/%d" % (seed, deal_no)).digest(8 * size)
    d = digest
    for i in range(size):
        word = 0
        for j in range(7, -1, -1):
            word = (word << 8) | d[8 * i + j]
        items[i].word = word
        items[i].index = i
    qsort(items, size, sizeof(Keyed), compare)
    return [items[i].index for i in range(size)]
