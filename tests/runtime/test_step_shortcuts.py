"""The shortcuts of the pure-Python step: the same actions, keys and draws as the long way.

``State.apply`` takes an action object as listed by ``legal_actions()`` by its position
(its code is known: no text, no lookup in the game's tables), ``sample_action`` builds
its draw's key itself, and a generated module run in CPython has its hottest helpers
rebound to the C methods they wrap (:mod:`interpreter.runtime.speedups`). None of it
may change a match: the keys, draws and states must be those of the general path.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import assert_id_step_is_the_step
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter.codegen import generate
from interpreter.runtime.speedups import SPEEDUPS, speed_up
from interpreter.state.compiled import _BUILTINS, Compiled

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


@pytest.mark.parametrize("name", GAMES)
def test_a_listed_actions_shortcut_key_is_the_general_one(name: str) -> None:
    rng = random.Random(name)
    for seed in range(3):
        state = interpreter.new_game(tricklang.load(name), seed=seed)
        while not state.is_terminal() and state.action_count < 300:
            legal = state.legal_actions()
            for action in legal.explicit:
                got = legal.listed_key(action)
                assert got == (state._key(action) if legal._keyed is not None else -1)
            # an equal action that is another object is not taken by the shortcut
            assert all(legal.listed_key(interpreter.Action(a.verb, a.args)) == -1 for a in legal.explicit)
            state.apply(legal[rng.randrange(len(legal))])


def test_apply_takes_a_listed_action_without_looking_it_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """Écarté's decisions other than card selections list actions by code: applying the
    listed objects never asks the game for an action's code (the long way did, each time)."""
    def no_lookup(self: Compiled, dp: int, action: interpreter.Action) -> int | None:
        raise AssertionError(f"looked up {action}")

    state = interpreter.new_game(tricklang.load("ecarte"), seed=11)
    monkeypatch.setattr(Compiled, "code", no_lookup)
    rng = random.Random(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert state.action_count > 20


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), game=st.sampled_from(GAMES))
def test_the_shortcuts_play_the_match_the_texts_play(seed: int, game: str) -> None:
    rules = tricklang.load(game)
    fast = interpreter.new_game(rules, seed=seed)
    slow = interpreter.new_game(rules, seed=seed)
    rng_fast, rng_slow = random.Random(seed), random.Random(seed)
    while not fast.is_terminal() and fast.action_count < 400:
        legal = fast.legal_actions()
        fast.apply(legal[rng_fast.randrange(len(legal))])  # the listed object: by position
        texts = slow.legal_actions().texts()
        slow.apply(texts[rng_slow.randrange(len(texts))])  # its text: parsed and looked up
        if fast.is_terminal():
            break
        sampled = fast.clone()
        sampled.apply(sampled.sample_action(random.Random(fast.action_count)))  # the drawn key
        listed = fast.clone()
        legal2 = listed.legal_actions()
        listed.apply(legal2[random.Random(fast.action_count).randrange(len(legal2))])
        assert sampled.to_json() == listed.to_json()
    assert fast.to_json() == slow.to_json()
    assert fast.actions == slow.actions


def test_apply_id_checks_against_the_codes_legal_action_ids_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The integer-id step asks the generated module for the legal codes once an action:
    ``apply_id`` checks its id against what ``legal_action_ids`` listed (it asked again)."""
    state = interpreter.new_game(tricklang.load("hearts"), seed=4)
    game = state.game
    calls = [0]

    def counted(fn: Any) -> Any:
        def listing(c: Any) -> Any:
            calls[0] += 1
            return fn(c)
        return listing

    monkeypatch.setattr(game, "legal_fns", tuple(counted(fn) for fn in game.legal_fns))
    rng = random.Random(2)
    steps = 0
    while not state.is_terminal() and state.deal_number == 1:
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
        steps += 1
    assert steps > 40 and 0 < calls[0] <= steps  # (a card selection is checked without the list)


@pytest.mark.parametrize("name", ["hearts", "euchre", "ecarte"])
def test_apply_id_refuses_an_id_listed_before_the_state_changed(name: str) -> None:
    rng = random.Random(name)
    state = interpreter.new_game(tricklang.load(name), seed=9)
    refused = 0
    while not state.is_terminal() and state.action_count < 200:
        ids = state.legal_action_ids()
        state.apply_id(ids[rng.randrange(len(ids))])
        if state.is_terminal():
            break
        now = set(state.legal_action_ids())
        stale = [i for i in ids if i not in now]
        probe = state.clone()
        probe.legal_action_ids()
        probe.apply(probe.legal_actions()[0])  # the codes listed are no longer the state's
        later = set(probe.legal_action_ids()) if not probe.is_terminal() else set()
        for i in stale[:2]:
            with pytest.raises(interpreter.IllegalActionError):
                state.apply_id(i)
            refused += 1
        for i in sorted(now - later)[:2]:
            with pytest.raises(interpreter.IllegalActionError):
                probe.apply_id(i)
            refused += 1
    assert refused > 10


@pytest.mark.parametrize("name", ["euchre", "hearts", "spades", "oh-hell-3", "ecarte", "cinch"])
def test_the_id_step_lists_and_plays_what_the_general_path_does(name: str) -> None:
    """``legal_action_ids`` (codes mapped by the game's id table, a selection's subsets
    listed in order) gives the ids the general listing gives, in its order, and
    ``apply_id`` takes the action ``apply`` takes: the same matches, seed for seed."""
    assert assert_id_step_is_the_step(tricklang.load(name), range(3)) > 100


@settings(max_examples=150, deadline=None)
@given(cards=st.sets(st.integers(0, 51), max_size=18), lo=st.integers(-1, 8), more=st.integers(-1, 4),
       start=st.integers(0, 300))
def test_a_selections_ids_are_every_subset_in_order(cards: set[int], lo: int, more: int, start: int) -> None:
    """The module's ``select_ids`` (what a native build lists a card selection's ids with)
    and the state's own listing give ``start + mask`` of every subset of the cards offered
    of ``lo`` to ``hi`` cards, increasing, or None over the bound of choices."""
    from itertools import combinations
    from math import comb

    from interpreter.codegen.module import MAX_CHOICES
    from interpreter.state.embedding import _subset_ids

    hi = lo + more
    mask = sum(1 << k for k in cards)
    bits = [1 << k for k in sorted(cards)]
    sizes = range(max(lo, 0), min(hi, len(bits)) + 1)
    if sum(comb(len(bits), k) for k in sizes) > MAX_CHOICES:
        expected = None
    else:
        expected = sorted(start + sum(chosen) for k in sizes for chosen in combinations(bits, k))
    state = interpreter.new_game(tricklang.load("hearts"), seed=1)
    assert state._g.m["is_native"]() is False  # (so the state lists them itself: quicker in CPython)
    c = state._g.m["copy"](state._c)
    c.sel_cards, c.sel_lo, c.sel_hi = mask, lo, hi
    assert state._g.m["select_ids"](c, start) == expected
    assert _subset_ids(mask, lo, hi, start) == expected
