"""Melds in a double pack (``copies 2``): a meld's cards are read by face, any copy serves, and two
of a meld at once count as its ``double`` (a double pinochle, a double run), in the language's own
count (:func:`tricklang.melds.count`) and in the generated module alike."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import native
from interpreter.harness import check_invariants
from interpreter.state import compiled
from interpreter.state.compiled import module_of
from tricklang.deck import CardModel
from tricklang.melds import count

GAME = """\
tricklang 1
game "Double melding"
players 2
role eldest = left of dealer
deck
  suits spades black, hearts red, clubs black, diamonds red
  ranks A 10 K Q J 9
  copies 2
option size: int = 12 in 1..24 "cards to each"
melds pinochle
  sequences:
    "run" A 10 K Q J of trump = 150, double 1500
    "royal marriage" K Q of trump = 40
    "marriage" K Q in any suit except trump = 20
  arounds:
    "aces around" A in every suit = 100, double 1000
  others:
    "pinochle" (Q of spades) (J of diamonds) = 40, double 300
    "dix" 9 of trump = 10
zone hand: per player, owner
zone stock: shared, hidden, pack
match
  at most 2 deals
deal
  deal size to each from eldest
  trump is hearts
  for each player from eldest:
    player melds pinochle
"""
RULES = tricklang.loads(GAME, path="double-melding.trick")
CARDS = CardModel(RULES.rules.deck)  # type: ignore[arg-type]
TABLE = RULES.rules.melds[0]
FACES = [r + s for s in "SHCD" for r in "A 10 K Q J 9".split()]


def held(codes: list[str]) -> list[int]:
    """Card indices for face codes, a face's second copy the second time it is named."""
    out: list[int] = []
    for code in codes:
        first = CARDS.index[code]
        out.append(first + 1 if first in out else first)
    return out


def meld_event(hand: list[str], size: int = 12) -> dict[str, Any]:
    rest = list(FACES * 2)
    for code in hand:
        rest.remove(code)
    rules = RULES if size == 12 else tricklang.loads(GAME, path="double-melding.trick", options={"size": size})
    state = interpreter.new_game(rules, deck=[*hand, *rest], dealer=0)
    return next(e for e in state.events(None) if e["type"] == "meld" and e["player"] == 1)


def test_a_double_pinochle_in_a_double_pack_counts_as_the_double_meld() -> None:
    hand = "QS QS JD JD 9S 9S 9C 9C 10S 10C 10D 9D".split()
    assert count(TABLE, held(hand), CARDS, trump=1).points == 300
    event = meld_event(hand)
    assert event["points"] == 300
    assert [(m["name"], sorted(m["cards"])) for m in event["melds"]] == [
        ("double pinochle", ["JD", "JD", "QS", "QS"])]


def test_one_pinochle_and_a_double_run_and_the_dix_twice() -> None:
    hand = "AH AH 10H 10H KH KH QH QH JH JH 9H QS".split()
    assert meld_event(hand)["points"] == 1500 + 10 == count(TABLE, held(hand), CARDS, trump=1).points
    hand = "AH 10H KH QH JH 9H 9H QS JD JD AS QS".split()
    event = meld_event(hand)
    assert event["points"] == 150 + 10 + 10 + 300 == count(TABLE, held(hand), CARDS, trump=1).points
    assert sorted(m["name"] for m in event["melds"]) == ["double dix", "double pinochle", "run"]


def test_any_copy_serves_and_one_copy_too_few_is_the_single_meld() -> None:
    # The second copies of QS and JD (the first went to the other seat): still a pinochle.
    assert count(TABLE, [CARDS.index["QS"] + 1, CARDS.index["JD"] + 1], CARDS, trump=1).points == 40
    hand = "QS QS JD AS AH AC AD AS AH AC 9D 9C".split()  # one AD: aces around once
    event = meld_event(hand)
    assert event["points"] == 40 + 100 == count(TABLE, held(hand), CARDS, trump=1).points


@settings(max_examples=30, deadline=None)
@given(st.permutations(FACES * 2), st.integers(1, 24))
def test_the_module_counts_what_the_language_counts(pack: list[str], size: int) -> None:
    hand = pack[:size]
    event = meld_event(hand, size)
    assert event["points"] == count(TABLE, held(hand), CARDS, trump=1).points
    for meld in event["melds"]:  # every counted card is held, as many times as counted
        assert all(meld["cards"].count(c) <= hand.count(c) for c in meld["cards"])


def test_the_harness_finds_no_leak_in_double_melding() -> None:
    report = check_invariants(RULES, seed=random.Random(5).randrange(100), finish=True, stop_on_first=False)
    assert report.violations == []


@pytest.fixture
def isolated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """The native build is forgotten after the test (the rest of the suite runs CPython)."""
    for name in ("_NATIVE", "_MODULES", "_GAMES"):
        monkeypatch.setattr(compiled, name, type(getattr(compiled, name))())
    monkeypatch.setattr(native, "_BUILDS", {})
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(tmp_path))
    yield


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_melds_a_double_pack_as_cpython_does() -> None:
    rules = tricklang.loads(GAME.replace("deal size to each", "deal 24 to each"), path="native-double.trick")

    def melds() -> list[Any]:
        out = []
        for seed in range(6):
            state = interpreter.new_game(rules, seed=seed)
            out.append([e for e in state.events(None) if e["type"] == "meld"])
        return out

    python = melds()
    assert any(m["points"] > 0 for found in python for m in found)
    native.accelerate(rules)
    assert type(module_of(rules)[1]["advance"]).__name__ == "builtin_function_or_method"
    assert melds() == python


def test_meld_tables_with_more_than_two_copies_are_refused_clearly() -> None:
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.loads(GAME.replace("copies 2", "copies 3"), path="triple.trick")
    [found] = [d for d in err.value.diagnostics if d.code == "unsupported-construct"]
    assert "3 copies" in found.message and found.line == GAME.splitlines().index("  copies 2") + 1
