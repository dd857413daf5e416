"""Irregular actions with arguments (`irregular NAME SEAT ARG...`) at run time: offered in
a fixed, finite order with increasing action ids, validated at apply (a bad argument is
refused, naming it, and leaves the state unchanged), logged, and replayed from JSON and
from a record."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter.errors import IllegalActionError, InvalidActionError
from interpreter.record import Record

VARIANT = '''tricklang 1
extends "ecarte"
game "Écarté with a served card shown"

irregularity shown_and_served(extra: count 1..3, shown: card in hand of offender matching not trump) by dealer during choice when extra <= count(stock):
  move extra from stock to hand of elder
  expose shown
'''


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> tricklang.Ruleset:
    path = tmp_path_factory.mktemp("variant") / "variant.trick"
    path.write_text(VARIANT, encoding="utf-8")
    return tricklang.load(path)


def at_first_choice(rules: tricklang.Ruleset, seed: int = 3) -> interpreter.State:
    """A table-mode game past the referee's pause before the turn-up, at the elder's first choice."""
    state = interpreter.new_game(rules, seed=seed, mode="table")
    assert state.phase == "deal"
    state.apply("continue")
    return state


def test_offered_for_each_count_and_each_card_in_order_with_increasing_ids(rules: tricklang.Ruleset) -> None:
    state = at_first_choice(rules)
    dealer = state.dealer
    plain = [c for c in state.hand(dealer) if not state.is_trump(c)]
    listed = [a.text for a in state.legal_actions() if a.args and a.args[0] == "shown_and_served"]
    assert listed == [f"irregular shown_and_served {dealer} {n} {c}" for n in (1, 2, 3) for c in plain]
    ids = state.legal_action_ids()
    assert ids == sorted(ids)
    assert [state.action_from_id(state.action_id(t)).text for t in listed] == listed


def test_the_arguments_reach_the_remedy_and_the_log(rules: tricklang.Ruleset) -> None:
    state = at_first_choice(rules)
    dealer, elder = state.dealer, 1 - state.dealer
    card = next(c for c in state.hand(dealer) if not state.is_trump(c))
    state.apply(f"irregular shown_and_served {dealer} 2 {card.lower()}")
    assert len(state.hand(elder)) == 7
    irregularity = next(e for e in state.events(elder) if e["type"] == "irregularity")
    assert irregularity["args"] == {"extra": 2, "shown": card}
    assert {"type": "exposed", "zone": f"hand of seat {dealer}", "cards": [card]} in state.events(elder)
    assert interpreter.State.from_json(state.to_json()) == state


@pytest.mark.parametrize(("args", "error", "says"), [
    ("4 {card}", IllegalActionError, "extra must be a count from 1 to 3, not '4'"),
    ("two {card}", IllegalActionError, "extra must be a count from 1 to 3"),
    ("1 {trump}", IllegalActionError, "shown must be a card of hand of seat"),
    ("1", IllegalActionError, "is written 'irregular shown_and_served SEAT EXTRA SHOWN'"),
    ("1 {card} 2", IllegalActionError, "is written"),
    ("1 XX", InvalidActionError, "shown must be a card"),
])
def test_a_bad_argument_is_refused_naming_it(rules: tricklang.Ruleset, args: str, error: type[Exception], says: str) -> None:
    state = at_first_choice(rules)
    dealer = state.dealer
    card = next(c for c in state.hand(dealer) if not state.is_trump(c))
    trump = next((c for c in state.hand(dealer) if state.is_trump(c)), state.hand(1 - dealer)[0])
    before = state.to_json()
    with pytest.raises(error) as info:
        state.apply(f"irregular shown_and_served {dealer} " + args.format(card=card, trump=trump))
    assert says in str(info.value)
    assert state.to_json() == before


WORDS = st.sampled_from(["shown_and_served", "imperfect_pack", "nope", "0", "1", "2", "3", "-1", "9", "KS", "th", "7C",
                         "xx", "QH", "AD", "8D", ""])


@settings(max_examples=60, deadline=None)
@given(words=st.lists(WORDS, max_size=5), steps=st.integers(0, 6))
def test_any_irregular_text_is_applied_whole_or_refused_without_a_change(rules: tricklang.Ruleset, words: list[str],
                                                                         steps: int) -> None:
    state = interpreter.new_game(rules, seed=5, mode="table")
    for _ in range(steps):
        regular = [a for a in state.legal_actions() if a.verb != "irregular"]
        if not regular:
            break
        state.apply(regular[0])
    text = " ".join(["irregular", *words])
    before = state.to_json()
    legal = state.is_legal(text)
    try:
        state.apply(text)
    except (IllegalActionError, InvalidActionError):
        assert not legal
        assert state.to_json() == before
    else:
        assert legal


def test_a_table_record_with_arguments_round_trips(rules: tricklang.Ruleset, tmp_path: Path) -> None:
    state = at_first_choice(rules)
    dealer = state.dealer
    card = next(c for c in state.hand(dealer) if not state.is_trump(c))
    state.apply(f"irregular shown_and_served {dealer} 3 {card}")
    for _ in range(12):
        state.apply(next(a for a in state.legal_actions() if a.verb != "irregular"))
    path = Record.from_state(state).save(tmp_path / "game.json")
    assert '"mode": "table"' in path.read_text(encoding="utf-8")
    assert f"shown_and_served {dealer} 3 {card}" in path.read_text(encoding="utf-8")
    assert Record.load(path).replay() == state


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_an_irregularity_during_any_is_recordable_at_every_moment_of_a_deal(seed: int) -> None:
    # Écarté's imperfect pack (E15) is declared `during any`: while the match is not over
    # it is offered at every decision, a remedy's own decisions included, and recording
    # it at any of them voids the deal in progress.
    import random

    state = interpreter.new_game(tricklang.load("ecarte"), seed=seed, mode="table")
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal() and steps < 300:
        offender = state.dealer
        assert f"irregular imperfect_pack {offender}" in state.legal_actions(), state.legal_actions()
        if steps % 25 == 7:
            again = state.clone()
            again.apply(f"irregular imperfect_pack {offender}")
            assert again.deal_number == state.deal_number + 1 or again.is_terminal()
        legal = state.legal_actions()
        others = [a for a in legal if not a.text.startswith("irregular imperfect_pack")]
        state.apply(others[rng.randrange(len(others))])
        steps += 1
    assert steps > 20
