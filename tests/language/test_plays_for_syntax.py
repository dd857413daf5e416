"""Issue 28 step 9, the language half: `P plays for Q [when G]` in a tricks block (design 3.5).

It parses to :class:`tricklang.model.PlaysFor`, is checked (two players, never nobody, not
the same seat: ``plays-for-self``), formats canonically, reads in English (explain and the
language server's hover), is completed by the language server, and loads (the runtime
plays it: tests/runtime/test_plays_for.py).
"""

from __future__ import annotations

import pytest

import tricklang
from tricklang import model as m
from tricklang.checker import Checker
from tricklang.explain import explain_statement
from tricklang.fmt import format_text, meaning
from tricklang.lsp import completion
from tricklang.lsp.analysis import analyse
from tricklang.lsp.hover import hover

TEXT = """\
tricklang 1
game "Dummy"
players 4 in partnerships 0 2, 1 3
role dummy = partner of dealer
deck
  suits spades black, hearts red
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
deal
  deal 2 to each
  tricks 2, left of dealer leads first
    must follow suit
    dealer plays for dummy when trick_number > 0                   [BR7]
    after each trick when trick_number == 1:
      expose hand of dummy
  for each side:
    side scores tricks(side)
"""


def line_of(fragment: str, text: str = TEXT) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def errors(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in Checker(tricklang.parse(text, "t.trick")).run() if d.severity == "error"]


def test_the_rule_parses_to_its_model_and_loads() -> None:
    tricks = tricklang.parse(TEXT, "t.trick").deal[-2]
    assert isinstance(tricks, m.Tricks)
    (rule,) = tricks.plays_for
    assert isinstance(rule.controller, m.Name) and rule.controller.name == "dealer"
    assert isinstance(rule.player, m.Name) and rule.player.name == "dummy"
    assert rule.guard is not None and rule.cite is not None and rule.span.line == line_of("plays for")
    assert tricklang.loads(TEXT, path="t.trick").rules.deal[-2] == tricks


@pytest.mark.parametrize(("rule", "code"), [
    ("dummy plays for dummy", "plays-for-self"),
    ("partner of dealer plays for partner of dealer", "plays-for-self"),
    ("nobody plays for dummy", "nobody-is-no-seat"),
    ("dealer plays for nobody", "nobody-is-no-seat"),
    ("dealer plays for 3", "type-error"),
    ("side of dealer plays for dummy", "type-error"),
    ("dealer plays for dummy when 3", "type-error"),
])
def test_misuses_are_reported_with_their_codes(rule: str, code: str) -> None:
    text = TEXT.replace("dealer plays for dummy when trick_number > 0", rule)
    assert (code, line_of("plays for", text)) in errors(text)


def test_two_different_seats_are_not_one() -> None:
    text = TEXT.replace("dealer plays for dummy when trick_number > 0", "dealer plays for partner of dealer")
    assert errors(text) == []


def test_the_rule_formats_canonically() -> None:
    messy = TEXT.replace("    dealer plays for dummy when", "    dealer   plays  for dummy when")
    out = format_text(messy, "t.trick")
    assert out == TEXT and format_text(out) == out
    assert meaning(tricklang.parse(out, "x")) == meaning(tricklang.parse(messy, "x"))


def test_the_rule_reads_in_english_and_the_language_server_knows_it() -> None:
    ruleset = tricklang.loads(TEXT, path="t.trick")
    read = explain_statement(ruleset, ruleset.rules.deal[-2])
    assert "the dealer plays for the dummy: at the dummy's turns the dealer chooses the card" in read.lower(), read
    assert "sees that hand" in read
    analysis = analyse(TEXT, "t.trick")
    shown = hover(analysis, line_of("plays for"), 6)
    assert shown is not None and "plays for" in shown.markdown
    at = line_of("plays for")
    labels = {i.label for i in completion.complete(TEXT.replace("dealer plays for dummy", "dealer "), at, 11, analysis)}
    assert "plays for" in labels
