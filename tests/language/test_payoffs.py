"""tricklang.payoffs: what one deal can bring a side, and the fixed total when there is one.

The property: over every shipped rule file and the adapters' fixtures, under drawn
option values, every randomly played deal ends with each side's points within the
derived bounds and, where a total is derived, with the sides' points adding up to it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricklang
from interpreter import new_game
from tricklang.bounds import derive_bounds
from tricklang.payoffs import derive_payoffs

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "tests" / "integrations" / "games"
FILES = sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick"), *GAMES.glob("*.trick")])
RULESETS = {p.stem: tricklang.load(p) for p in FILES}


def _options(draw: Any, ruleset: tricklang.Ruleset) -> dict[str, Any]:
    """Drawn values for the rule file's bool and choice options (numbers stay at their defaults)."""
    chosen: dict[str, Any] = {}
    for opt in ruleset.rules.options:
        if opt.type == "bool":
            chosen[opt.name] = draw(st.booleans())
        elif opt.type == "choice":
            chosen[opt.name] = draw(st.sampled_from(opt.choices))
    return chosen


def _first_deal(ruleset: tricklang.Ruleset, seed: int) -> list[int]:
    """Each side's points at the end of the first deal, played at random."""
    rng = random.Random(seed)
    state = new_game(ruleset, seed=seed)
    while not state.is_terminal() and state.deal_number == 1:
        state.apply(rng.choice(list(state.legal_actions())))
    return list(state.scores)


@settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_deal_ends_within_the_derived_bounds_and_at_the_derived_total(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(sorted(RULESETS)))
    ruleset = RULESETS[name].with_options(_options(data.draw, RULESETS[name]))
    payoffs = derive_payoffs(ruleset)
    scores = _first_deal(ruleset, data.draw(st.integers(0, 2**31 - 1)))
    assert all(payoffs.low <= s <= payoffs.high for s in scores), (name, scores, payoffs)
    if payoffs.total is not None:
        assert sum(scores) == payoffs.total, (name, scores, payoffs)


@pytest.mark.parametrize(("name", "low", "high", "total"), [
    ("tiny-trick", 0, 3, 3),  # each player scores his tricks: 3 tricks
    ("mini-trick", 0, 2, 2),
    ("tiny-stakes", -1, 3, 2),  # 2 for a showdown or a fold, 4 - 1 against 0 - 1 when called
])
def test_a_fixed_total_is_derived_where_every_deal_runs_straight_through(name: str, low: int, high: int,
                                                                         total: int) -> None:
    payoffs = derive_payoffs(RULESETS[name])
    assert (payoffs.low, payoffs.high, payoffs.total, payoffs.derived) == (low, high, total, True)


def test_bounds_are_tighter_than_the_static_bound_where_they_can_be_derived() -> None:
    """Écarté: a king turned up or marked (1) and the vole (2) at most, where the static
    bound adds every statement's amount (9); a side never ends a deal below 0."""
    ecarte = RULESETS["ecarte"]
    assert derive_bounds(ecarte).score_per_deal == 9
    payoffs = derive_payoffs(ecarte)
    assert (payoffs.low, payoffs.high, payoffs.total) == (0, 4, None)
    assert "at once" in payoffs.why or "target" in payoffs.why


def test_conditions_on_options_pick_their_branch() -> None:
    """Oh Hell: the hands' size never exceeds max_cards whatever the sequence, so an
    exact bid brings at most bonus + max_cards; the options decide which scoring applies."""
    oh_hell = RULESETS["oh-hell"]
    assert derive_payoffs(oh_hell).high == 10 + 10
    assert derive_payoffs(oh_hell.with_options({"max_cards": 5, "bonus": 5})).high == 5 + 5
    assert derive_payoffs(oh_hell.with_options({"scoring": "minus_difference"})).low < 0
    assert derive_payoffs(oh_hell).low == 0


TINY = (GAMES / "tiny-trick.trick").read_text(encoding="utf-8")


@pytest.mark.parametrize(("change", "why"), [
    ("  deal 3 to each from elder\n", "  deal 3 to each from elder\n  if count(stock) == 0:\n    end the deal\n"),
    ('    player scores tricks(player) "tricks"\n',
     '    player scores tricks(player) "tricks"\n  if tricks(elder) == 3:\n    elder scores 1 "all"\n'),
    ('    player scores tricks(player) "tricks"\n', '    player scores tricks(player) * tricks(player) "tricks"\n'),
    ("  for each player:\n", "  for each player except dealer:\n"),
    ("  deal 3 to each from elder\n", "  deal 3 to each from elder\n  elder discards 1 to stock\n"),
], ids=["end the deal", "a bonus in a branch", "a square", "somebody left out", "a discard"])
def test_no_total_is_claimed_where_a_deal_may_end_differently(change: str, why: str) -> None:
    text = TINY.replace(change, why)
    assert text != TINY
    payoffs = derive_payoffs(tricklang.loads(text, path="variant.trick"))
    assert payoffs.total is None and payoffs.why


def test_a_variable_that_adds_to_itself_has_no_interval_and_the_static_bound_applies() -> None:
    text = TINY.replace('  for each player:\n    player scores tricks(player) "tricks"\n',
                        '  let total = 0\n  for each player:\n    set total = total + tricks(player)\n'
                        '  dealer scores total "all of them"\n')
    assert text != TINY
    ruleset = tricklang.loads(text, path="variant.trick")
    payoffs = derive_payoffs(ruleset)
    assert not payoffs.derived and payoffs.high == derive_bounds(ruleset).score_per_deal == -payoffs.low
