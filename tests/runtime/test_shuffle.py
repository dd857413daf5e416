"""Each deal's pack is shuffled by interpreter.program.shuffle: the same order as
random.Random.shuffle with the same generator, so every seed still gives the same deals."""

from __future__ import annotations

import random

from interpreter import program


def test_the_deal_shuffle_gives_the_order_random_shuffle_gives() -> None:
    assert program.shuffle is program._shuffle  # the fast path is used on this Python
    for size in (0, 1, 3, 24, 32, 52, 104, 1100):
        for seed in range(40):
            a, b = list(range(size)), list(range(size))
            ra, rb = random.Random(f"{seed}/deal/{size}"), random.Random(f"{seed}/deal/{size}")
            ra.shuffle(a)
            program.shuffle(rb, b)
            assert a == b
            assert ra.getstate() == rb.getstate()
