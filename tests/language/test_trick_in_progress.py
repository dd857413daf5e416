"""Step 2 of issue 28, the language half: the trick in progress and the legal-play chain
(design 3.1, 3.2).

The trick's names are typed and live only in trick play (``not-in-trick`` elsewhere; a
variable of the same name is ``ambiguous-name`` there); the card forms (``is``, ``beats``,
``the card played by``, ``who played``), the two obligations, the card rules and the tie
rule parse, check, format, read and complete; each is refused until the runtime plays it,
and the whole language half checks clean with the support table opened. Écarté, whose
``let winner`` is read after its tricks, is unchanged (the compatibility test says so too).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import tricklang
from tricklang import model as m
from tricklang.checker import Checker
from tricklang.explain import explain_statement
from tricklang.fmt import format_text, meaning
from tricklang.lints import lint
from tricklang.lsp import completion
from tricklang.lsp.analysis import analyse
from tricklang.lsp.hover import hover
from tricklang.ruleset import Ruleset
from tricklang.support import language_constructs

ROOT = Path(__file__).resolve().parents[2]

HEAD = """tricklang 1
game "Trick"
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
  trump is hearts
"""
TRICKS = """\
  tricks 8, eldest leads first
    must follow suit
    must trump if void when highest_trump == no_card and winner != partner of to_play
    must overtrump if able when led_suit == trump or winner != partner of to_play
    may not undertrump
    must beat if able when led_card is (A or K) and count(trick) < 3
    may play (J of trump) at any time when led_card is trump and card beats led_card
    a trick is never won by 7 of clubs when not last_trick
    the suit led is not set by 7 of clubs
    of equal cards the later wins matching 10 of hearts when trick_number > 1
    declare belote holding K of trump, before own first card when who played (Q of trump) == nobody:
      if the card played by partner of declarer != no_card and winning_card is trump:
        declarer scores 20
"""
TEXT = HEAD + TRICKS


def line_of(fragment: str, text: str = TEXT) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def errors(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in Checker(tricklang.parse(text, "t.trick")).run() if d.severity == "error"]


def language_only(text: str) -> Ruleset:
    rules = tricklang.parse(text, "t.trick")
    checker = Checker(rules)
    checker.run()
    return Ruleset.model_construct(rules=rules, source=text, path="t.trick", options={}, warnings=(), bases=(),
                                   symbols=checker.symbols)


def test_each_form_parses_to_its_model() -> None:
    tricks = tricklang.parse(TEXT, "t.trick").deal[-1]
    assert isinstance(tricks, m.Tricks)
    assert [ob.kind for ob in tricks.obligations] == ["follow_suit", "trump_if_void", "overtrump_if_able",
                                                      "no_undertrump", "beat_if_able"]
    assert [r.kind for r in tricks.card_rules] == ["free", "never_wins", "sets_no_suit"]
    assert [(t.winner, t.matching is not None, t.guard is not None) for t in tricks.ties] == [("later", True, True)]
    beat = tricks.obligations[4].guard
    assert isinstance(beat, m.BinOp) and isinstance(beat.left, m.CardIs)
    free = tricks.card_rules[0].guard
    assert isinstance(free, m.BinOp) and isinstance(free.right, m.CardBeats)
    dec = tricks.declarations[0]
    assert isinstance(dec.guard, m.BinOp) and isinstance(dec.guard.left, m.WhoPlayed)
    cond = dec.body[0].branches[0][0]
    assert isinstance(cond.left.left, m.CardPlayedBy)


def test_every_construct_is_refused_until_the_runtime_plays_it() -> None:
    found = errors(TEXT)
    assert {code for code, _ in found} <= {"unsupported-construct"}
    # The runtime plays the trick's names, 'is', 'beats', 'the card played by', 'who played', the two
    # obligations and 'may play P at any time' (tests/runtime/test_trick_reads.py), the Excuse's two
    # card rules (tests/runtime/test_trick_card_rules.py) and the tie rule (tests/runtime/test_deck_play.py).
    for fragment in ("highest_trump == no_card", "must overtrump", "may not undertrump", "led_card is",
                     "the card played by", "who played", "may play", "a trick is never won", "the suit led is not set",
                     "of equal cards"):
        assert ("unsupported-construct", line_of(fragment)) not in found, fragment


def test_the_language_half_checks_clean_with_the_table_opened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tricklang.checker.RUNTIME", language_constructs())
    tricklang.loads(TEXT, path="t.trick")


@pytest.mark.parametrize(("body", "code", "fragment"), [
    ("  if led_suit == hearts:\n    dealer scores 1\n", "not-in-trick", "led_suit"),
    ("  dealer scores trick_number\n", "not-in-trick", "trick_number"),
    ("  if who played (A of spades) == dealer:\n    pass\n", "not-in-trick", "who played"),
    ("  if the card played by dealer == no_card:\n    pass\n", "not-in-trick", "card played"),
    ("  let winner = dealer\n  tricks 1, eldest leads first\n    must follow suit when winner == dealer\n",
     "ambiguous-name", "when winner"),
    ("  tricks 1, eldest leads first\n    must follow suit when led_suit == 3\n", "type-error", "led_suit == 3"),
    ("  tricks 1, eldest leads first\n    must follow suit when the card played by side of dealer == no_card\n",
     "type-error", "side of dealer"),
    ("  tricks 1, eldest leads first\n    must follow suit when winner is trump\n", "type-error", "winner is"),
    ("  tricks 1, eldest leads first\n    must follow suit when led_card beats 2\n", "type-error", "beats 2"),
    ("  tricks 1, eldest leads first\n    may play K at any time when 3\n", "type-error", "may play"),
    ("  tricks 1, eldest leads first\n    a trick is never won by Z\n", "bad-rank", "never won"),
])
def test_misuses_are_reported_with_their_codes(body: str, code: str, fragment: str) -> None:
    text = HEAD + body
    assert (code, line_of(fragment, text)) in errors(text)


def test_a_variable_named_like_a_trick_name_is_the_variable_outside_trick_play() -> None:
    ecarte = tricklang.load(ROOT / "rules" / "ecarte.trick")
    assert "winner" in ecarte.symbols.variables
    text = HEAD + "  let winner = dealer\n  tricks 1, eldest leads first\n    must follow suit\n  winner scores 1\n"
    assert errors(text) == []


def test_a_remedy_offered_during_play_reads_the_trick() -> None:
    text = TEXT + "irregularity slip during play when led_suit != no_suit:\n  offender loses trick_number\n"
    assert not [c for c, _ in errors(text) if c != "unsupported-construct"]
    text = TEXT + "irregularity slip during auction when led_suit != no_suit:\n  pass\n"
    assert ("not-in-trick", line_of("irregularity slip", text)) in errors(text)


def test_lints_say_when_a_card_rule_matches_nothing_and_when_overtrumping_cannot_happen() -> None:
    rules = tricklang.parse(TEXT, "t.trick")
    found = [(d.code, d.line) for d in lint(rules)]
    assert ("rule-matches-nothing", line_of("of equal cards")) in found  # no copies in this deck
    doubled = TEXT.replace("  ranks A K Q J 10 9 8 7\n", "  ranks A K Q J 10 9 8 7\n  copies 2\n", 1)
    assert "copies 2" in doubled
    found = [(d.code, d.line) for d in lint(tricklang.parse(doubled, "t.trick"))]
    assert ("rule-matches-nothing", line_of("of equal cards", doubled)) not in found  # a double pack has equal cards
    no_trump = HEAD.replace("  trump is hearts\n", "") + "  tricks 8, eldest leads first\n    must overtrump if able\n"
    warnings = [(d.code, d.line) for d in Checker(tricklang.parse(no_trump, "x")).run() if d.severity == "warning"]
    assert ("unreachable-code", line_of("must overtrump", no_trump)) in warnings


def test_the_forms_format_canonically() -> None:
    messy = TEXT.replace("is (A or K)", "is(A or K)").replace("  may not undertrump", "  may  not undertrump")
    out = format_text(messy, "t.trick")
    assert out == TEXT and format_text(out) == out
    assert meaning(tricklang.parse(out, "x")) == meaning(tricklang.parse(messy, "x"))


def test_each_rule_reads_in_english() -> None:
    ruleset = language_only(TEXT)
    tricks = ruleset.rules.deal[-1]
    assert isinstance(tricks, m.Tricks)
    read = explain_statement(ruleset, tricks)
    for words in ("there is no highest trump of the trick and the player winning the trick so far is not the "
                  "partner of the player to play",
                  "a player who can beat the highest trump of the trick must do so",
                  "may not play a trump that does not beat the highest trump of the trick",
                  "the card led is an A or a K",
                  "the J of trumps may be played at any time",
                  "a trick is never won by the 7 of clubs",
                  "the 7 of clubs, led, does not set the suit led",
                  "of two equal cards the later played wins (only the 10 of hearts",
                  "the player who played the Q of trumps to the trick is nobody"):
        assert words.lower() in read.lower(), words


def test_the_language_server_completes_and_explains_the_trick_rules() -> None:
    analysis = analyse(TEXT, "t.trick")
    at = line_of("    may not undertrump")
    rules = {i.label for i in completion.complete(TEXT.replace("    may not undertrump", "    "), at, 5, analysis)}
    assert {"must overtrump if able", "may not undertrump", "may play", "a trick is never won by",
            "the suit led is not set by"} <= rules
    assert {"of equal cards the", "of equal cards the first wins"} & rules  # (the grammar's phrases, since the merge)
    shown = hover(analysis, line_of("a trick is never won"), 6)
    assert shown is not None and "never won by the 7 of clubs" in shown.markdown
