"""The shortcuts of the pure-Python step: the same results and draws as the long way.

A generated module run in CPython has its hottest helpers rebound to the C methods they
wrap (:mod:`interpreter.runtime.speedups`). None of it may change a match.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import tricklang
from interpreter.codegen import generate
from interpreter.runtime.speedups import SPEEDUPS, speed_up
from interpreter.state.compiled import _BUILTINS

GAMES = ("ecarte", "cinch", "euchre", "hearts", "spades")


def _unaccelerated(name: str) -> dict[str, Any]:
    """A game's generated module executed as it is written (no helper rebound)."""
    namespace: dict[str, Any] = {"__name__": "tricklang_game", "__builtins__": _BUILTINS}
    exec(compile(generate(tricklang.load(name)).source, "<tricklang_game>", "exec"), namespace)  # noqa: S102
    return namespace


def test_every_speedup_stands_for_a_helper_of_the_generated_modules() -> None:
    for name in GAMES:
        written = _unaccelerated(name)
        assert set(SPEEDUPS) <= set(written), name
        fast = dict(written)
        speed_up(fast)
        assert all(fast[h] is SPEEDUPS[h] for h in SPEEDUPS)


class _Subclass(random.Random):
    """A generator that is not a plain Random: the helpers ask its ``randrange``."""


@settings(max_examples=60, deadline=None)
@given(mask=st.integers(0, 2**64 - 1), seed=st.integers(0, 2**32), bound=st.integers(1, 2**63),
       small=st.integers(1, 40))
def test_speedups_give_the_helpers_results_and_draws(mask: int, seed: int, bound: int, small: int) -> None:
    written = _WRITTEN
    assert SPEEDUPS["_pc"](mask) == written["_pc"](mask)
    for n in (bound, small):
        for kind in (random.Random, _Subclass):
            a, b = kind(seed), kind(seed)
            assert [SPEEDUPS["_randbelow"](a, n) for _ in range(5)] == [written["_randbelow"](b, n) for _ in range(5)]
            assert a.getstate() == b.getstate()
        a, b = random.Random(seed), random.Random(seed)
        assert SPEEDUPS["_bits"](a, 64) == written["_bits"](b, 64)


_WRITTEN = _unaccelerated("ecarte")
