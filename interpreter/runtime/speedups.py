"""Faster stand-ins for a few helpers of a generated module run in CPython.

A generated module (:mod:`interpreter.codegen`) is written once for CPython and for
Cython. Natively, its tiny helpers compile to C and inline; in CPython each is a Python
call, and the hottest ones only wrap a C method of ``int`` or ``random.Random``. After
the module is executed in CPython (``interpreter.state.compiled.run_source``),
:func:`speed_up` rebinds those names in its namespace to what they wrap: the same
results and the same random draws, without a Python frame each. The module's source
(what ``tricklang compile`` prints, what a native build compiles) is untouched.

>>> namespace = {"_pc": None, "_bits": None, "_randbelow": None}
>>> speed_up(namespace)
>>> namespace["_pc"](0b1011), namespace["_randbelow"](random.Random(1), 6) == random.Random(1).randrange(6)
(3, True)
"""

from __future__ import annotations

import random
from typing import Any

_Random = random.Random
_getrandbits = random.Random.getrandbits


def _randbelow(rng: Any, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` >= 1, the same draw: the generated ``_randbelow``
    with its ``_bits`` calls inlined (the steps of Random's own ``_randbelow``)."""
    if type(rng) is not _Random:
        return int(rng.randrange(n))
    k = n.bit_length()
    r: int = _getrandbits(rng, k)
    while r >= n:
        r = _getrandbits(rng, k)
    return r


SPEEDUPS: dict[str, Any] = {
    "_pc": int.bit_count,  # _pc(m): m.bit_count()
    "_bits": _getrandbits,  # _bits(rng, k): Random.getrandbits(rng, k) in CPython
    "_randbelow": _randbelow,
}
"""The helpers of every generated module (the prelude's) and what stands for each in CPython."""


def speed_up(namespace: dict[str, Any]) -> None:
    """Rebind the helpers of :data:`SPEEDUPS` that a generated module's namespace holds
    (executed in CPython: a native module's own helpers are C already)."""
    for name, fast in SPEEDUPS.items():
        if name in namespace:
            namespace[name] = fast
