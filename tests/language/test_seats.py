"""Issue 28 steps 8 and 9, the language half: `P plays for Q [when G]` in a tricks block (design
3.5) and `play passes right` (3.10).

It parses to :class:`tricklang.model.PlaysFor`, is checked (two players, never nobody, not
the same seat: ``plays-for-self``), formats canonically, reads in English (explain and the
language server's hover), is completed by the language server, and loads (the runtime
plays it: tests/runtime/test_plays_for.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tricklang
from tricklang import model as m
from tricklang.checker import Checker
from tricklang.explain import explain, explain_statement
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


# ---------------------------------------------------------------- `play passes right` (design 3.10)

RIGHT = TEXT.replace("players 4 in partnerships 0 2, 1 3\n",
                     "players 4 in partnerships 0 2, 1 3\nplay passes right                                                  [FT1]\n")


def test_the_direction_parses_formats_and_reads_in_english() -> None:
    rules = tricklang.parse(RIGHT, "t.trick")
    assert rules.direction is not None and rules.direction.direction == "right"
    assert rules.direction.cite is not None and rules.direction.span.line == line_of("play passes", RIGHT)
    assert tricklang.parse(TEXT, "t.trick").direction is None
    messy = RIGHT.replace("play passes right", "play   passes  right")
    assert format_text(messy, "t.trick") == RIGHT
    assert "the turn passes to the right (counter-clockwise)" in explain(tricklang.loads(RIGHT, path="t.trick")).lower()


def test_a_second_direction_is_a_duplicate_section() -> None:
    text = RIGHT.replace("play passes right", "play passes right\nplay passes left")
    found = [d for d in Checker(tricklang.parse(text, "t.trick")).run() if d.code == "duplicate-section"]
    assert found and "'play passes'" in found[0].message and found[0].line == line_of("play passes left", text)


def test_a_variant_inherits_the_direction_or_replaces_it(tmp_path: Path) -> None:
    (tmp_path / "base.trick").write_text(RIGHT, encoding="utf-8")
    same = tmp_path / "same.trick"
    same.write_text('tricklang 1\nextends "base.trick"\ngame "Same"\n', encoding="utf-8")
    turned = tmp_path / "turned.trick"
    turned.write_text('tricklang 1\nextends "base.trick"\ngame "Turned"\nplay passes left\n', encoding="utf-8")
    direction = tricklang.load(same).rules.direction
    assert direction is not None and direction.direction == "right"
    direction = tricklang.load(turned).rules.direction
    assert direction is not None and direction.direction == "left"


def test_the_language_server_completes_the_direction() -> None:
    analysis = analyse(TEXT, "t.trick")
    labels = {i.label for i in completion.complete(TEXT.replace("role dummy", "pla"), line_of("role dummy"), 3, analysis)}
    assert "play passes right" in labels


# ---------------------------------------------------------------- `players LO..HI = D` (design 3.10)


@pytest.mark.parametrize(("line", "fragment"), [
    ("players 1..7 = 4", "2 to 16"),
    ("players 3..17 = 4", "2 to 16"),
    ("players 7..3 = 4", "lower bound first"),
    ("players 3..7 = 8", "outside 3..7"),
    ("players 4..6 = 4 in partnerships 0 2, 1 3", "fixed number of players"),
])
def test_a_bad_range_of_players_is_reported(line: str, fragment: str) -> None:
    text = TEXT.replace("players 4 in partnerships 0 2, 1 3", line).replace("role dummy = partner of dealer\n", "")
    found = [d for d in Checker(tricklang.parse(text, "t.trick")).run() if d.code == "bad-players"]
    assert found and fragment in found[0].message and found[0].line == 3


def test_a_range_of_players_parses_formats_and_reads_in_english() -> None:
    text = TEXT.replace("players 4 in partnerships 0 2, 1 3", "players 3..7 = 4").replace(
        "role dummy = partner of dealer\n", "role dummy = left of dealer\n").replace(
        "zone won: per side, public", "zone won: per player, public").replace(
        "  for each side:\n    side scores tricks(side)\n", "  for each player:\n    player scores player_count\n").replace(
        "  deal 2 to each\n", "  deal 1 to each\n")
    p = tricklang.parse(text, "t.trick").players
    assert p is not None and (p.kind, p.low, p.high, p.count) == ("range", 3, 7, 4)
    assert format_text(text.replace("players 3..7 = 4", "players 3 .. 7  =  4"), "t.trick") == text
    assert "three to seven players, as the option `players` says (five here)" in explain(
        tricklang.loads(text, path="t.trick", options={"players": 5})).lower()
    declared = text.replace("players 3..7 = 4\n", "players 3..7 = 4\noption players: int = 3 in 3..4\n")
    assert ("duplicate-name", 4) in errors(declared)
    named = text.replace("  deal 1 to each\n", "  let player_count = 2\n  deal 1 to each\n")
    assert any(code == "duplicate-name" for code, _ in errors(named))
