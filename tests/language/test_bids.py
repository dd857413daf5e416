"""Step 5 of issue 28, the language half: typed bids and auctions (design 3.7).

The bid table expands into ranked bids (tricklang.bids: codes, levels, strains, worths,
equal worths of equal rank, `above`/`below`); bids are a type of their own when the
table has levels or named bids; auctions take their new kinds and rules, each checked
(``bad-bids``, ``bad-auction``, ``reserved-name``, ``limit-exceeded``, type errors);
everything reads, formats and completes, and loads (the runtime plays it: tests/runtime/test_auctions_runtime.py).
"""

from __future__ import annotations

import pytest

import tricklang
from tricklang import model as m
from tricklang.bids import expand
from tricklang.bounds import derive_bounds
from tricklang.checker import Checker
from tricklang.explain import explain
from tricklang.fmt import format_text, meaning
from tricklang.lsp import completion
from tricklang.lsp.analysis import analyse
from tricklang.ruleset import Ruleset
from tricklang.support import language_constructs

HEAD = """tricklang 1
game "Contracts"
players 4 in partnerships 0 2, 1 3
role eldest = left of dealer
deck
  suits spades black, clubs black, diamonds red, hearts red
  ranks A K Q J 10 9 8 7 6 5 4 3 2
bids contracts
  levels 6..10 in spades 40, clubs 60, diamonds 80, hearts 100, no_trump "NT" 120 worth base + 100 * (level - 6)
  misere worth 250, plays no_trump
  open_misere "OM" worth 500, plays no_trump, below "10H"
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
deal
  deal 13 to each
"""
AUCTION = """\
  auction until 3 passes from dealer, bids contracts
    double and redouble
    first of the side to bid the strain declares
    dealer may hold when high_bidder != nobody
    may not pass when caller == dealer and high_bid == no_bid
    may not bid misere when level of high_bid < 7
    if all pass: no contract
  if bid != no_bid and strain of bid == no_trump:
    maker scores worth of bid * (1 + doubling)
"""
TEXT = HEAD + AUCTION


def line_of(fragment: str, text: str = TEXT) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def errors(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in Checker(tricklang.parse(text, "b.trick")).run() if d.severity == "error"]


def codes(text: str) -> set[str]:
    return {c for c, _ in errors(text)} - {"unsupported-construct"}


# ---------------------------------------------------------------- the table


def test_five_hundreds_table_expands_in_rank_order() -> None:
    rules = tricklang.parse(TEXT, "b.trick")
    found = expand(rules.bids[0], rules)
    assert found.problems == []
    codes_in_order = [b.code for b in found.bids]
    assert codes_in_order[:6] == ["6S", "6C", "6D", "6H", "6NT", "7S"]
    assert codes_in_order.index("misere") == codes_in_order.index("8S") + 1  # 250 after 8S (240)
    assert codes_in_order.index("OM") == codes_in_order.index("10H") - 1  # 500, just below 10H (500)
    ranks = {b.code: b.rank for b in found.bids}
    assert ranks["OM"] < ranks["10H"] < ranks["10NT"] and ranks["8S"] < ranks["misere"] < ranks["8C"]
    grand = next(b for b in found.bids if b.code == "10NT")
    assert (grand.level, grand.strain, grand.worth) == (10, "no_trump", 520)
    misere = next(b for b in found.bids if b.code == "misere")
    assert (misere.level, misere.strain, misere.name) == (0, "no_trump", "misere")


def test_bids_without_worths_keep_the_order_written_and_equal_worths_equal_ranks() -> None:
    rules = tricklang.parse(HEAD.replace('''  levels 6..10 in spades 40, clubs 60, diamonds 80, hearts 100, no_trump "NT" 120 worth base + 100 * (level - 6)
  misere worth 250, plays no_trump
  open_misere "OM" worth 500, plays no_trump, below "10H"''', '''  petite
  garde
  garde_sans'''), "b")
    assert [(b.code, b.rank) for b in expand(rules.bids[0], rules).bids] == [("petite", 0), ("garde", 1),
                                                                              ("garde_sans", 2)]
    solos = tricklang.parse(HEAD.replace('''  misere worth 250, plays no_trump
  open_misere "OM" worth 500, plays no_trump, below "10H"''', '''  queen_solo worth 250
  jack_solo worth 250'''), "b")
    ranks = {b.code: b.rank for b in expand(solos.bids[0], solos).bids}
    assert ranks["queen_solo"] == ranks["jack_solo"]


@pytest.mark.parametrize(("old", "new", "code"), [
    ('open_misere "OM"', 'open_misere "6s"', "bad-bids"),                     # a code twice, in any case
    ('plays no_trump, below', 'plays stars, below', "bad-bids"),               # not a suit nor an order
    ('below "10H"', 'below "11H"', "bad-bids"),                                # no such bid
    ('below "10H"', 'below "10S"', "bad-bids"),                                # a bid of another worth
    ("misere worth 250", "misere worth bid", "bad-bids"),                      # not constant
    ("misere worth 250", "pass worth 250", "reserved-name"),
    ("  deal 13 to each", "bids more\n  numbers 1\ndeal\n  deal 13 to each", "duplicate-name"),
])
def test_what_is_wrong_with_a_table_is_reported(old: str, new: str, code: str) -> None:
    text = TEXT.replace(old, new, 1) if old != "  deal 13 to each" else TEXT.replace("deal\n  deal 13 to each", new, 1)
    assert code in codes(text), errors(text)


def test_a_table_of_too_many_bids_is_over_the_limit() -> None:
    text = HEAD.replace("  misere worth 250, plays no_trump\n", "  numbers 1..30000\n")
    assert "limit-exceeded" in codes(text)


# ---------------------------------------------------------------- auctions and types


def test_auctions_parse_with_their_kinds_and_rules() -> None:
    auction = tricklang.parse(TEXT, "b.trick").deal[1]
    assert isinstance(auction, m.TableAuction)
    assert (auction.kind, auction.passes, auction.table, auction.all_pass) == ("until_n_passes", 3, "contracts", "none")
    assert [r.kind for r in auction.rules] == ["double", "first_of_side", "hold", "no_pass", "no_bid"]
    assert auction.rules[4].bid == "misere"


def test_every_construct_is_playable_now_that_the_runtime_plays_it() -> None:
    """The runtime half landed (tests/runtime/test_auctions_runtime.py plays these): nothing is refused."""
    assert errors(TEXT) == []


def test_with_the_table_opened_the_file_loads_and_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tricklang.checker.RUNTIME", language_constructs())
    ruleset = tricklang.loads(TEXT, path="b.trick")
    bids = len(expand(ruleset.rules.bids[0], ruleset.rules).bids)
    assert derive_bounds(ruleset).actions_per_deal == (bids + 1) * (3 + 1) * 4  # calls, each open to 3 words and a hold


@pytest.mark.parametrize(("body", "code"), [
    ("  if bid == 3:\n    pass\n", "type-error"),                       # a bid is no number here
    ("  if level of dealer > 1:\n    pass\n", "type-error"),
    ("  if high_bid == no_bid:\n    pass\n", "undefined-name"),          # the auction's names live in its rules
    ("  dealer bids 1..5\n", "type-error"),                              # a range in a file of table bids
    ("  auction once around from dealer, bids contracts\n    double and redouble\n", "bad-auction"),
    ("  auction until passes from dealer, bids contracts\n    if all pass: redeal\n    if all pass: no contract\n",
     "bad-auction"),
    ("  auction until 5 passes from dealer, bids contracts\n", "limit-exceeded"),
    ("  auction until passes from dealer, bids others\n", "undefined-name"),
    ("  auction until passes from dealer, bids contracts\n    may not bid grand\n", "undefined-name"),
    ("  dealer bids contracts above 3\n", "type-error"),
])
def test_misuses_are_reported(body: str, code: str) -> None:
    assert code in codes(HEAD + body), errors(HEAD + body)


def test_without_partnerships_the_doubling_and_side_rules_are_bad() -> None:
    text = TEXT.replace("players 4 in partnerships 0 2, 1 3", "players 4")
    found = errors(text)
    assert ("bad-auction", line_of("double and redouble", text)) in found
    assert ("bad-auction", line_of("first of the side", text)) in found


def test_with_numbers_only_bids_stay_numbers() -> None:
    text = HEAD.replace('''  levels 6..10 in spades 40, clubs 60, diamonds 80, hearts 100, no_trump "NT" 120 worth base + 100 * (level - 6)
  misere worth 250, plays no_trump
  open_misere "OM" worth 500, plays no_trump, below "10H"''', "  numbers 18, 20, 22") + (
        "  dealer bids contracts above 18, or passes\n  if bid > 20:\n    dealer scores bid\n")
    assert codes(text) == set()
    assert codes(text + "  if bid == no_bid:\n    pass\n") == {"type-error"}


# ---------------------------------------------------------------- words, layout, completion


def test_the_table_and_the_auction_read_in_english() -> None:
    rules = tricklang.parse(TEXT, "b.trick")
    checker = Checker(rules)
    checker.run()
    text = explain(Ruleset.model_construct(rules=rules, source=TEXT, path="b.trick", options={}, warnings=(),
                                           bases=(), symbols=checker.symbols))
    for words in ("## Bids: contracts",
                  "levels 6 to 10 in spades, clubs, diamonds, hearts and no trump (NT): a bid is a level and a strain, "
                  "each worth `base` + 100 × (`level` - 6)",
                  "**open_misere** (worth 500, played as no trump, just below 10H)",
                  "going round until 3 passes in a row follow a call",
                  "the bids are those of the table **contracts**, in rank order",
                  "A player may double a bid of the other side",
                  "The dealer may hold: take the highest bid at its value, but only when the highest bidder is not nobody",
                  "The player to call may not pass, but only when",
                  "Nobody may bid **misere**, but only when the level of the highest bid so far is less than 7",
                  "If all pass, there is no contract"):
        assert words in text, words


def test_auctions_format_canonically() -> None:
    messy = TEXT.replace("6..10", "6 .. 10").replace("until 3 passes", "until  3 passes")
    out = format_text(messy, "b.trick")
    assert out == TEXT and format_text(out) == out
    assert meaning(tricklang.parse(out, "x")) == meaning(tricklang.parse(messy, "x"))


def test_the_language_server_completes_the_auctions_rules() -> None:
    analysis = analyse(TEXT, "b.trick")
    at = line_of("    double and redouble")
    found = {i.label for i in completion.complete(TEXT.replace("    double and redouble", "    "), at, 5, analysis)}
    assert {"double and redouble", "may not pass", "first of the side to bid the strain declares"} <= found
    tops = {i.label for i in completion.complete(TEXT + "\n", len(TEXT.splitlines()) + 1, 1, analysis)}
    assert "bids" in tops
