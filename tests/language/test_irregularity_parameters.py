"""Irregularities with parameters: `irregularity NAME(extra: count 1..3, shown: card in
hand of offender)`: parsed, checked like options (names, ranges, zones, patterns, types
in the body), explained and formatted."""

from __future__ import annotations

from pathlib import Path

import pytest

import tricklang
from tricklang.explain import explain
from tricklang.fmt import format_text

ROOT = Path(__file__).resolve().parents[2]
ECARTE = (ROOT / "rules" / "ecarte.trick").read_text(encoding="utf-8")


def with_irregularity(text: str) -> str:
    return ECARTE + "\n" + text


def rejected(text: str) -> tricklang.RulesError:
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.loads(with_irregularity(text), path="rules/variant.trick")
    return info.value


GOOD = """\
irregularity served_wrongly(extra: count 1..3, shown: card in hand of offender matching not trump) by dealer \\
    during play when extra <= count(stock):
  move extra from stock to hand of elder
  expose shown
"""


def test_parameters_are_parsed_in_order_with_their_types_ranges_zones_and_patterns() -> None:
    rules = tricklang.loads(with_irregularity(GOOD), path="rules/variant.trick")
    extra, shown = rules.rules.irregularities[-1].params
    assert (extra.name, extra.kind, extra.low, extra.high) == ("extra", "count", 1, 3)
    assert (shown.name, shown.kind) == ("shown", "card")
    assert shown.zone is not None and shown.zone.name == "hand" and shown.matching is not None


@pytest.mark.parametrize(("params", "code", "words"), [
    ("(extra: count 3..1)", "bad-parameter", "counts 3..1"),
    ("(extra: count 0..100)", "bad-parameter", "at most 64 values"),
    ("(dealer: count 1..2)", "duplicate-name", "parameter 'dealer'"),
    ("(target: count 1..2)", "duplicate-name", "parameter 'target'"),
    ("(shown: card in hand)", "bad-zone", "belongs to each player"),
    ("(shown: card in pile)", "undefined-name", "undefined zone 'pile'"),
    ("(shown: card matching Z of spades)", "bad-rank", "'Z'"),
])
def test_bad_parameters_are_reported_with_a_code(params: str, code: str, words: str) -> None:
    err = rejected(f"irregularity odd{params} during play:\n  pass\n")
    assert code in err.codes, str(err)
    assert words in str(err)


def test_a_card_parameter_is_not_a_number_and_a_count_is_not_a_card() -> None:
    err = rejected("irregularity odd(extra: count 1..2, shown: card) during play:\n"
                   "  move shown from stock to hand of elder\n  if shown > 2: pass\n")
    assert err.codes.count("type-error") == 2
    assert "found a card" in str(err)


def test_too_many_actions_for_one_irregularity_is_a_limit() -> None:
    err = rejected("irregularity odd(a: card, b: card, c: count 1..20) during play:\n  pass\n")
    assert "limit-exceeded" in err.codes
    assert "would offer" in str(err)


def test_explain_names_each_parameter_and_the_exposed_card() -> None:
    text = explain(tricklang.loads(with_irregularity(GOOD), path="rules/variant.trick"))
    assert "**served_wrongly**, naming *extra*, a count from 1 to 3 and *shown*, a card of the hand of the offender (not a trump)" in text
    assert "The card named *shown* is shown to everybody." in text


def test_the_formatter_writes_parameters_like_a_call() -> None:
    messy = GOOD.replace("served_wrongly(extra: count 1..3,", "served_wrongly ( extra : count 1 .. 3 ,")
    formatted = format_text(with_irregularity(messy), path="rules/variant.trick")
    assert formatted.endswith(GOOD), formatted[-len(GOOD):]


SUIT = """\
irregularity wrong_suit(named: suit) during play when named != trump and hand of offender has named:
  if named == suit of turnup: pass
"""


def test_a_suit_parameter_is_a_suit_compared_with_suits_and_not_a_number() -> None:
    rules = tricklang.loads(with_irregularity(SUIT), path="rules/variant.trick")
    [named] = rules.rules.irregularities[-1].params
    assert (named.name, named.kind) == ("named", "suit")
    err = rejected("irregularity odd(named: suit) during play:\n  move named from stock to hand of elder\n"
                   "  if named > 2: pass\n")
    assert err.codes.count("type-error") == 2 and "found a suit" in str(err)
    assert "duplicate-name" in rejected("irregularity odd(trump: suit) during play:\n  pass\n").codes


def test_a_suit_parameter_is_explained_formatted_and_offered_per_suit() -> None:
    import interpreter
    from interpreter.state.spaces import action_space

    rules = tricklang.loads(with_irregularity(SUIT), path="rules/variant.trick")
    assert ("**wrong_suit**, naming *named*, a suit, during play, when `named` is not `trump` and "
            "the hand of the offender holds a card of the suit *named*:") in explain(rules)
    messy = SUIT.replace("wrong_suit(named: suit)", "wrong_suit ( named :  suit )")
    assert format_text(with_irregularity(messy), path="rules/variant.trick").endswith(SUIT)
    state = interpreter.new_game(rules, seed=2, mode="table", options={"announce_suit": False})
    space = action_space(state)
    assert [words for words in space.irregular if words[0] == "wrong_suit"] == [
        ("wrong_suit", seat, suit) for seat in ("0", "1") for suit in ("spades", "hearts", "diamonds", "clubs")]
    state.apply("continue")
    state.apply("stand")
    leader = state.current_player
    held = {state.effective_suit(c) for c in state.hand(leader)} - {state.trump}
    offered = [a.args[2] for a in state.legal_actions()
               if a.verb == "irregular" and a.args[:2] == ("wrong_suit", str(leader))]
    assert offered == [s for s in state.suits if s in held] and offered
