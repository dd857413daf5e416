"""Variants that replace a top-level statement of their base by its keyword (`replace tricks:`) or
add a phase next to one of its phases or statements (`phase NAME after|before NAME:`), design 3.11
(issue 28, step 10): what the base becomes, the errors (`ambiguous-override`, `unknown-override`),
and that both kinds of variant play whole matches. Before this, a variant could only replace a
named phase (anything else in its deal was an `unknown-override`).
"""

from __future__ import annotations

import random

import pytest

import interpreter
import tricklang
from tricklang import model as m
from tricklang.catalog import find_bundled
from tricklang.fmt import format_text

HEAD = 'tricklang 1\nextends "whist"\ngame "Whist variant"\n\ndeal\n'
BEATING = HEAD + """\
  replace tricks:
    tricks 13, eldest leads first
      must follow suit
      must beat if able
"""
BONUS = HEAD + """\
  phase bonus after tricks:
    dealer scores 1 "bonus"
  phase warm before scoring:
    eldest scores 1 "warm"
"""


def load(text: str) -> tricklang.Ruleset:
    return tricklang.loads(text, path="variant.trick")


def play(rules: tricklang.Ruleset, seed: int) -> interpreter.State:
    state = interpreter.new_game(rules, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    return state


def test_replace_puts_the_new_statement_where_the_bases_only_one_was() -> None:
    base, rules = tricklang.load("whist").rules, load(BEATING).rules
    tricks = [st for st in rules.deal if isinstance(st, m.Tricks)]
    assert len(tricks) == 1 and [o.kind for o in tricks[0].obligations] == ["follow_suit", "beat_if_able"]
    assert [type(st) for st in rules.deal] == [type(st) for st in base.deal]  # in the same place


def test_a_phase_is_added_after_and_before_what_it_names() -> None:
    rules = load(BONUS).rules
    names = [st.name if isinstance(st, m.Phase) else type(st).__name__ for st in rules.deal]
    assert names[names.index("Tricks") + 1:] == ["bonus", "warm", "scoring"]
    assert all(st.place is None for st in rules.deal if isinstance(st, m.Phase))


@pytest.mark.parametrize("seed", range(3))
def test_both_variants_play_whole_matches(seed: int) -> None:
    assert play(load(BEATING), seed).is_terminal()
    events = play(load(BONUS), seed).events(None)
    end = next((i for i, e in enumerate(events) if e["type"] == "deal_end"), len(events))  # the first deal
    last_trick = max(i for i, e in enumerate(events[:end]) if e["type"] == "trick")
    labels = [e["label"] for e in events[last_trick:end] if e["type"] == "score"]
    assert labels[:2] == ["bonus", "warm"]  # after the tricks, before Whist's scoring
    assert not [e for e in events[:last_trick] if e["type"] == "score" and e["label"] in ("bonus", "warm")]


def test_the_replaced_tricks_block_is_what_plays() -> None:
    """`must beat if able` (the variant's) narrows the legal plays that Whist's own rules allow."""
    narrower = 0
    for seed in range(6):
        base, variant = interpreter.new_game(tricklang.load("whist"), seed=seed), interpreter.new_game(load(BEATING), seed=seed)
        rng = random.Random(seed)
        while not variant.is_terminal() and variant.deal_number == 1:
            allowed = set(map(str, variant.legal_actions()))
            assert allowed <= set(map(str, base.legal_actions()))
            narrower += len(allowed) < len(base.legal_actions())
            action = str(variant.sample_action(rng))
            variant.apply(action)
            base.apply(action)
    assert narrower > 0


@pytest.mark.parametrize(("body", "code"), [
    ("  replace move:\n    move 1 from hand of eldest to turnup\n", "ambiguous-override"),
    ("  replace cut:\n    cut stock\n", "unknown-override"),
    ("  phase bonus after auction:\n    dealer scores 1 \"bonus\"\n", "unknown-override"),
    ("  phase bonus before nowhere:\n    dealer scores 1 \"bonus\"\n", "unknown-override"),
])
def test_a_statement_the_base_has_several_of_or_none_is_an_error_at_its_line(body: str, code: str) -> None:
    with pytest.raises(tricklang.RulesError) as info:
        load(HEAD + body)
    assert [(d.code, d.line) for d in info.value.diagnostics] == [(code, 6)]


def test_replace_and_insert_outside_a_variant_are_errors() -> None:
    plain = find_bundled("whist").read_text(encoding="utf-8")  # type: ignore[union-attr]
    for extra in ("  replace tricks:\n    pass\n", "  phase bonus after tricks:\n    pass\n"):
        with pytest.raises(tricklang.RulesError) as info:
            tricklang.loads(plain + extra, path="plain.trick")
        assert {d.code for d in info.value.diagnostics} == {"unknown-override"}


@pytest.mark.parametrize("text", [BEATING, BONUS])
def test_the_new_forms_format_as_they_are_written(text: str) -> None:
    assert format_text(text) == text
    assert format_text(text.replace("  phase bonus after", "  phase   bonus  after")) == text
