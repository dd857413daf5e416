"""Step 1 of issue 28, the language half: the smaller gaps (design 3.11).

Each construct parses to its model, is typed and checked (with its new codes), formats
canonically, reads in English, completes and hovers in the language server, and is
refused with ``unsupported-construct`` at its line until the runtime plays it; with the
support table opened to the whole language, the same file loads with no error at all
(the language half is complete).
"""

from __future__ import annotations

import pytest

import tricklang
from tricklang import model as m
from tricklang.bounds import derive_bounds
from tricklang.checker import Checker
from tricklang.explain import explain_statement
from tricklang.fmt import format_text, meaning
from tricklang.lsp import completion
from tricklang.lsp.analysis import analyse
from tricklang.lsp.hover import hover
from tricklang.ruleset import Ruleset
from tricklang.support import language_constructs
from tricklang.walk import fold, statements

HEAD = """tricklang 1
game "Gaps"
players 4 in partnerships 0 2, 1 3
role eldest = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7 6 5 4 3 2
zone hand: per player, owner
zone stock: shared, hidden, pack
zone kitty: shared, hidden
zone turnup: shared, public
zone discards: per player, hidden
zone won: per side, public
table vulnerable = 0, 1, 1, 0
counter roem: per side, per deal
deal
  deal 12 to each
"""

BODY = """\
  move all matching 2 or 3 or (4 and black) from stock to kitty
  turn up 1 to turnup
  let s = suit of turnup
  if s == spades and hand of dealer has (K of s) and hand of eldest has 4 of black:
    side of seat 0 scores points(kitty) / 10 + abs(deal_score(side of dealer))
  for each card in hand of dealer matching red:
    if suit of card == hearts:
      add vulnerable(deal_number % 4) to roem of side of dealer
  eldest chooses:
    hold when count(hand of eldest matching trump) > 2:
      eldest scores 1
    pass:
      pass
  dealer discards 2 matching not (K or A), else not K to discards
  dealer takes 1 matching trump, else any from kitty
  expose hand of dealer matching A
  expose hand of partner of dealer to dealer
  auction until passes from eldest, bids 250..650 by 10
  eldest bids 0..10 by 5
  tricks 10, eldest leads first
    must follow suit
"""
TEXT = HEAD + BODY


def line_of(fragment: str, text: str = TEXT) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def diagnostics(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in Checker(tricklang.parse(text, "gaps.trick")).run() if d.severity == "error"]


def language_only(text: str) -> Ruleset:
    rules = tricklang.parse(text, "gaps.trick")
    checker = Checker(rules)
    checker.run()
    return Ruleset.model_construct(rules=rules, source=text, path="gaps.trick", options={}, warnings=(), bases=(),
                                   symbols=checker.symbols)


# ---------------------------------------------------------------- the model


def test_each_form_parses_to_its_model() -> None:
    rules = tricklang.parse(TEXT, "gaps.trick")
    found = list(statements(rules.deal))
    assert rules.tables == (m.Table.model_construct(name="vulnerable", values=(0, 1, 1, 0), span=rules.tables[0].span),)
    assert rules.counters[0].per_deal is True
    move = next(st for st in found if isinstance(st, m.Move))
    assert isinstance(move.matching, m.PatOr) and isinstance(move.matching.options[2], m.PatAnd)
    loop = next(st for st in found if isinstance(st, m.ForCard))
    assert loop.zone.name == "hand" and isinstance(loop.matching, m.PatWord) and len(loop.body) == 1
    choose = next(st for st in found if isinstance(st, m.Choose))
    assert [o.name for o in choose.options] == ["hold", "pass"] and choose.options[0].guard is not None
    discard = next(st for st in found if isinstance(st, m.Discard))
    assert isinstance(discard.fallback, m.PatNot)
    exposes = [st for st in found if isinstance(st, m.Expose)]
    assert exposes[0].matching is not None and exposes[1].to is not None
    auction = next(st for st in found if isinstance(st, m.Auction))
    bid = next(st for st in found if isinstance(st, m.Bid))
    assert isinstance(auction.step, m.IntLit) and auction.step.value == 10
    assert isinstance(bid.step, m.IntLit) and bid.forbidden is None
    score = next(st for st in found if isinstance(st, m.Score))
    assert isinstance(score.who, m.Of) and isinstance(score.who.arg, m.SeatLit)
    assert isinstance(score.amount, m.BinOp) and isinstance(score.amount.left, m.BinOp) and score.amount.left.op == "/"


def test_division_rounds_down_and_abs_folds() -> None:
    rules = tricklang.parse(HEAD + "  dealer scores (0 - 7) / 2 + abs(0 - 3) + 7 / 2\n", "x.trick")
    assert fold(rules.deal[-1].amount, {}) == -4 + 3 + 3


# ---------------------------------------------------------------- the checker


def test_every_construct_of_the_page_is_played_now() -> None:
    # the runtime plays them all (tests/runtime/test_small_gaps_runtime.py, test_cards_as_values_runtime.py):
    # none is refused with unsupported-construct any more
    assert diagnostics(TEXT) == []
    assert tricklang.loads(TEXT, path="gaps.trick").warnings == ()


def test_the_language_half_is_whole_with_every_construct_turned_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tricklang.checker.RUNTIME", language_constructs())
    ruleset = tricklang.loads(TEXT, path="gaps.trick")
    assert [w.code for w in ruleset.warnings] == []
    bounds = derive_bounds(ruleset)
    assert bounds.actions_per_deal is not None and bounds.actions_per_deal >= 1 + 2 + 2


@pytest.mark.parametrize(("body", "code", "fragment"), [
    ("  dealer scores abs(dealer)\n", "type-error", "abs"),
    ("  if dealer == seat 4:\n    pass\n", "bad-seat", "seat 4"),
    ("  dealer scores vulnerable(4)\n", "bad-index", "vulnerable(4)"),
    ("  dealer scores vulnerable(dealer)\n", "type-error", "vulnerable(dealer)"),
    ("  dealer scores vulnerable(1, 2)\n", "bad-call", "vulnerable(1, 2)"),
    ("  for each card in hand of dealer:\n    dealer scores card\n", "type-error", "scores card"),
    ("  if trump == 3:\n    pass\n", "type-error", "trump == 3"),
    ("  let n = 2\n  if hand of dealer has (K of n):\n    pass\n", "bad-suit", "K of n"),
    ("  dealer chooses:\n    a when 3:\n      pass\n    b:\n      pass\n", "type-error", "a when 3"),
    ("  expose hand of dealer to 3\n", "type-error", "expose"),
    ("  expose hand of dealer to nobody\n", "nobody-is-no-seat", "expose"),
    ("  auction once around from eldest, bids 1..5 by 0\n", "bad-count", "auction"),
    ("  for each card in hand:\n    pass\n", "bad-zone", "for each card"),
    ("  table t = 1\n", "syntax-error", "table t"),
])
def test_misuses_are_reported_with_their_codes(body: str, code: str, fragment: str) -> None:
    text = HEAD + body
    if code == "syntax-error":
        with pytest.raises(tricklang.RulesError) as info:
            tricklang.parse(text, "x.trick")
        assert info.value.codes == ["syntax-error"]
        return
    found = diagnostics(text)
    assert (code, line_of(fragment, text)) in found, found


def test_division_by_a_constant_zero_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tricklang.checker.RUNTIME", language_constructs())  # the limits run on a file that checks
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.loads(HEAD + "  dealer scores deal_number / 0\n")
    assert "division-by-zero" in info.value.codes


def test_a_variable_may_take_a_suits_name_and_a_name_the_file_declares_wins() -> None:
    text = HEAD.replace("deal\n  deal 12", "option hearts: int = 2 in 1..3\ndeal\n  deal 12") + "  dealer scores hearts\n"
    assert diagnostics(text) == []  # (the runtime plays every construct of HEAD)


# ---------------------------------------------------------------- fmt, prose, language server


def test_the_new_forms_format_canonically_and_keep_their_meaning() -> None:
    messy = TEXT.replace("/ 10", "/10").replace("seat 0", "seat  0").replace(", else", " ,else").replace(
        "by 10", "by  10").replace("(4 and black)", "( 4  and black )")
    out = format_text(messy, "gaps.trick")
    assert out == TEXT
    assert format_text(out) == out
    assert meaning(tricklang.parse(out, "x")) == meaning(tricklang.parse(messy, "x"))


def test_each_form_reads_in_english() -> None:
    ruleset = language_only(TEXT)
    read = {st.span.line: explain_statement(ruleset, st) for st in statements(ruleset.rules.deal)}
    expected = {
        "move all matching": "all cards of the stock that are a 2, a 3 or a card that is a 4 and a black card",
        "side of seat 0": "The side of seat 0 scores the card points of the kitty divided by 10 (rounded down) + "
                          "the absolute value of what the side of the dealer has scored this deal",
        "hand of dealer has (K of s)": "the hand of the dealer holds the K of the suit *s*",
        "for each card": "For each card that is a red card in the hand of the dealer (in deck order; the body names "
                         "it *card*)",
        "add vulnerable": "entry `deal_number` % 4 of the table `vulnerable` is added to the roem",
        "eldest chooses": "**hold** (offered only when the number of cards in the hand of the eldest that are a "
                          "trump is more than 2), the eldest scores 1 point",
        "dealer discards": "cards that are not a K or an A while there are enough of them; else all of those, and "
                           "the rest among cards that are not a K",
        "expose hand of dealer matching": "The cards of the hand of the dealer that are an A are shown to everybody",
        "expose hand of partner": "The hand of the partner of the dealer is shown to the dealer: that player sees it",
        "bids 250..650 by 10": "bids run from 250 to 650 in steps of 10",
        "eldest bids 0..10 by 5": "The eldest bids a number from 0 to 10 in steps of 5",
    }
    for fragment, words in expected.items():
        text = read[line_of(fragment)]
        assert words.split("...")[0].rstrip().lower() in text.lower(), (fragment, text)


def test_the_language_server_completes_and_explains_the_new_forms() -> None:
    analysis = analyse(TEXT, "gaps.trick")
    deal_line = line_of("  eldest bids 0..10")
    keywords = {i.label for i in completion.complete(TEXT.replace("  eldest bids 0..10 by 5", "  "), deal_line, 3,
                                                       analysis)}
    assert {"for each card in", "for each"} & keywords  # (the grammar's phrases since the merge: 'for each')
    values = {i.label for i in completion.complete(TEXT.replace("if s == spades", "if s == "), line_of("if s == "),
                                                   len("  if s == ") + 1, analysis)}
    assert {"spades", "seat", "vulnerable(", "abs(", "deal_score("} <= values
    cards = {i.label for i in completion.complete(TEXT.replace("matching red:", "matching "),
                                                  line_of("for each card"), len("  for each card in hand of dealer "
                                                                                "matching ") + 1, analysis)}
    assert {"red", "black", "and"} <= cards
    tops = {i.label for i in completion.complete(TEXT + "\n", len(TEXT.splitlines()) + 1, 1, analysis)}
    assert "table" in tops
    shown = hover(analysis, line_of("for each card"), 3)
    assert shown is not None and "For each card that is a red card" in shown.markdown
    table = hover(analysis, line_of("table vulnerable"), len("table vul"))
    assert table is not None and "table of 4 numbers" in table.markdown
