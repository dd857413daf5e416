"""What the runtime plays (tricklang/support.py): one table, and the checker refuses the rest.

A construct of the language whose runtime half has not landed is refused with
``unsupported-construct`` at the line that uses it, so that no rule file loads that the
runtime cannot play; adding its key to ``RUNTIME`` is all it takes to turn it on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tricklang
from tricklang import support
from tricklang.support import RUNTIME, WORDS, constructs, language_constructs

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])

GAME = """tricklang 1
game "Support"
players 2
deck
  suits spades black, hearts red
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
deal
  deal 4 to each
  cut stock
  tricks 4, left of dealer leads first
    must follow suit when leader != dealer
"""


def test_the_table_names_only_constructs_of_the_language() -> None:
    assert RUNTIME <= language_constructs()


def test_every_construct_the_runtime_cannot_play_has_words_for_the_message() -> None:
    assert sorted(language_constructs() - RUNTIME - set(WORDS) - set(support.in_play_keys())) == []
    assert sorted(set(WORDS) - language_constructs()) == []


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_file_uses_only_what_the_runtime_plays(path: Path) -> None:
    rules = tricklang.load(path)
    assert {key for key, _ in constructs(rules.rules)} <= RUNTIME


@pytest.mark.parametrize(("key", "line", "column"), [
    ("Cut", 12, 3),                       # a statement
    ("Obligation.follow_suit", 14, 5),    # a form of a node
    ("Of.left", 13, 13),                  # a built-in `X of` form, found by the typer
    ("Name.leader", 14, 27),              # a built-in name, found by the typer
])
def test_a_construct_taken_off_the_table_is_refused_where_it_is_used(
        monkeypatch: pytest.MonkeyPatch, key: str, line: int, column: int) -> None:
    tricklang.loads(GAME)
    monkeypatch.setattr("tricklang.checker.RUNTIME", RUNTIME - {key})
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.loads(GAME)
    found = [(d.code, d.line, d.column) for d in info.value.diagnostics]
    assert found == [("unsupported-construct", line, column)]
    assert "is part of the language but this runtime cannot play it yet" in str(info.value)


def test_words_name_a_construct_plainly() -> None:
    assert support.words("Cut") == "'Cut'"
