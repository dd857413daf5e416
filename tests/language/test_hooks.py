"""Step 3 of issue 28, the language half: hooks and mid-trick effects (design 3.6).

Hooks parse with their events, run in the trick's scope (``player`` and ``card`` after a
card), may hold decisions but nothing that deals, plays tricks or takes played cards back
(``bad-hook-statement``, also for ``names the suit led`` and ``end the play`` out of their
hooks); declarations gain their new deadlines and lose the need to hold a card; the static
bounds count a hook's decisions and scores per card or per trick; everything reads,
formats and completes, and the runtime plays them.
"""

from __future__ import annotations

import pytest

import tricklang
from tricklang import model as m
from tricklang.bounds import derive_bounds
from tricklang.checker import Checker
from tricklang.explain import explain_statement
from tricklang.fmt import format_text, meaning
from tricklang.lints import lint
from tricklang.lsp import completion
from tricklang.lsp.analysis import analyse
from tricklang.ruleset import Ruleset
from tricklang.support import language_constructs

HEAD = """tricklang 1
game "Hooks"
players 4 in partnerships 0 2, 1 3
role eldest = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
deal
  deal 8 to each
  let handful = 0
"""
TRICKS = """\
  tricks 8, eldest leads first
    must follow suit
    after leading K when trick_number == 1:
      player names the suit led except hearts
    after playing Q of spades:
      player shows 1..2 matching K, else any
      player scores 5
    after each trick:
      if last_trick:
        winner scores 10
      if winner == eldest and trick_number == 1:
        end the play
    declare handful, before own card 2 when count(hand of declarer matching trump) >= 4:
      declarer shows 4 matching trump
      set handful = 20
    declare call_trump, at own turn when not hand of declarer has led_suit:
      trump is hearts
  dealer scores handful
"""
TEXT = HEAD + TRICKS


def line_of(fragment: str, text: str = TEXT) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def errors(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in Checker(tricklang.parse(text, "h.trick")).run() if d.severity == "error"]


def language_only(text: str) -> Ruleset:
    rules = tricklang.parse(text, "h.trick")
    checker = Checker(rules)
    checker.run()
    return Ruleset.model_construct(rules=rules, source=text, path="h.trick", options={}, warnings=(), bases=(),
                                   symbols=checker.symbols)


def test_hooks_and_declarations_parse_to_their_model() -> None:
    tricks = tricklang.parse(TEXT, "h.trick").deal[-2]
    assert isinstance(tricks, m.Tricks)
    assert [(h.event, h.pattern is not None, h.guard is not None) for h in tricks.hooks] == [
        ("leading", True, True), ("playing", True, False), ("each_trick", False, False)]
    assert isinstance(tricks.hooks[0].body[0], m.NameLed) and tricks.hooks[0].body[0].exclude is not None
    shows = tricks.hooks[1].body[0]
    assert isinstance(shows, m.Shows) and shows.count.kind == "range" and shows.fallback is not None
    assert isinstance(tricks.hooks[2].body[1].branches[0][1][0], m.EndPlay)
    assert [(d.deadline, d.card_number, d.no_holding) for d in tricks.declarations] == [
        ("before_nth_card", 2, True), ("at_own_turn", None, True)]


def test_the_runtime_plays_every_hook_statement_here() -> None:
    found = errors(TEXT)
    assert found == []
    # The runtime plays the hooks, 'end the play' and the new deadlines (tests/runtime/test_hook_play.py),
    # 'shows' in a hook on a card (tests/runtime/test_shows.py) and in a declaration (test_hook_decisions.py),
    # 'trump is' in the middle of a trick (test_mid_trick_trump.py).
    for fragment in ("shows 1..2", "declarer shows 4", "trump is hearts", "after leading K", "names the suit led", "after playing Q", "after each trick", "end the play",
                     "declare handful",
                     "declare call_trump"):
        assert ("unsupported-construct", line_of(fragment)) not in found, fragment


def test_the_language_half_checks_clean_with_the_table_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tricklang.checker.RUNTIME", language_constructs())
    ruleset = tricklang.loads(TEXT, path="h.trick")
    bounds = derive_bounds(ruleset)
    # 32 cards, one naming per trick (8), one show per card (32), one per declaration and player (2 x 4),
    # the handful's show once per player (4)
    assert bounds.actions_per_deal == 32 + 2 * 4 + 8 + 32 + 4
    # 5 a card, 10 a trick, 20 for the handful
    assert bounds.score_per_deal == 5 * 32 + 10 * 8 + 20


@pytest.mark.parametrize(("lines", "code", "fragment"), [
    ("    after each trick:\n      deal 1 to each\n", "bad-hook-statement", "deal 1"),
    ("    after playing K:\n      tricks 1, eldest leads first\n", "bad-hook-statement", "tricks 1"),
    ("    after each trick:\n      redeal by same dealer\n", "bad-hook-statement", "redeal"),
    ("    after playing K:\n      player names the suit led\n", "bad-hook-statement", "names the suit"),
    ("    after playing K:\n      end the play\n", "bad-hook-statement", "end the play"),
    ("    declare x, before own card 0:\n      pass\n", "bad-bound", "declare x"),
    ("    declare x, before own first card:\n      set maker = declarer\n", "bad-declaration-body", "set maker"),
    ("    after each trick when 3:\n      pass\n", "type-error", "after each trick"),
    ("    after playing Z:\n      pass\n", "bad-rank", "after playing Z"),
    ("    after each trick:\n      player scores 1\n", "undefined-name", "player scores"),
])
def test_misuses_are_reported_with_their_codes(lines: str, code: str, fragment: str) -> None:
    text = HEAD + "  tricks 8, eldest leads first\n" + lines
    assert (code, line_of(fragment, text)) in errors(text)


def test_end_the_play_and_names_the_suit_led_belong_in_their_hooks_only() -> None:
    text = HEAD + "  end the play\n  dealer names the suit led\n"
    assert [e for e in errors(text) if e[0] != "unsupported-construct"] == [
        ("bad-hook-statement", line_of("end the play", text)), ("bad-hook-statement", line_of("names the suit", text))]


def test_what_follows_end_the_play_is_unreachable() -> None:
    text = TEXT.replace("        end the play\n", "        end the play\n        eldest scores 3\n")
    rules = tricklang.parse(text, "h.trick")
    warnings = [(d.code, d.line) for d in Checker(rules).run() if d.severity == "warning"]
    assert ("unreachable-code", line_of("eldest scores 3", text)) in warnings
    assert not [d for d in lint(rules) if d.line == line_of("eldest scores 3", text)]  # said once


def test_hooks_format_canonically() -> None:
    messy = TEXT.replace("after each trick:", "after  each trick :").replace("before own card 2", "before own card  2")
    out = format_text(messy, "h.trick")
    assert out == TEXT and format_text(out) == out
    assert meaning(tricklang.parse(out, "x")) == meaning(tricklang.parse(messy, "x"))


def test_hooks_and_their_statements_read_in_english() -> None:
    ruleset = language_only(TEXT)
    tricks = ruleset.rules.deal[-2]
    read = explain_statement(ruleset, tricks).lower()
    for words in ("after a card that is a k leads a trick, when the number of the trick (1 for the first) is 1, the "
                  "player names the suit led, the suit the others must follow, but not hearts",
                  "after a card that is the q of spades is played to a trick",
                  "the player shows 1 to 2 cards (cards that are a k while there are enough of them; else all of "
                  "those, and the rest among cards that are any card) to everybody; they stay in his hand",
                  "after each trick (once it is won)",
                  "no more tricks are played this deal; the cards left stay in the hands",
                  "a player may declare **handful** before playing their own card 2",
                  "a player may declare **call_trump** at any of their turns to play (once a deal)"):
        assert words in read, words


def test_the_language_server_completes_hooks() -> None:
    analysis = analyse(TEXT, "h.trick")
    at = line_of("    after each trick:")
    found = {i.label for i in completion.complete(TEXT.replace("    after each trick:", "    "), at, 5, analysis)}
    assert {"after playing", "after leading"} <= found
    assert {"after each trick:", "after each trick"} & found  # (the grammar's phrases, since the merge)
    verbs = {i.label for i in completion.complete(TEXT.replace("      player scores 5", "      player "),
                                                  line_of("player scores 5"), len("      player ") + 1, analysis)}
    assert {"names the suit led", "shows"} <= verbs
