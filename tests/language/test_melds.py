"""Step 4 of issue 28, the language half: meld tables (design 3.8).

Tables parse into classes and shapes; the checker reports ``bad-meld``, ``meld-order`` and
the table names; the one reading of how cards count (tricklang.melds, greedy in the order
written, the lead's decision) is checked against Pinochle's and Klaverjas' tables on
hand-built hands, and for its invariants (monotone in the cards held, blind to their
order); ``P melds T``, ``melds()`` and ``melded()`` check and read (the runtime plays them:
tests/runtime/test_meld_play.py).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tricklang
from tricklang import model as m
from tricklang.checker import Checker
from tricklang.deck import NO_TRUMP, CardModel
from tricklang.explain import explain
from tricklang.fmt import format_text
from tricklang.melds import count, instances
from tricklang.ruleset import Ruleset

PINOCHLE = """tricklang 1
game "Melds"
players 4 in partnerships 0 2, 1 3
role eldest = left of dealer
deck
  suits spades black, hearts red, clubs black, diamonds red
  ranks A 10 K Q J 9
melds pinochle
  sequences:
    "run" A 10 K Q J of trump = 150
    "royal marriage" K Q of trump = 40
    "marriage" K Q in any suit except trump = 20
  arounds:
    "aces around" A in every suit = 100
    "kings around" K in every suit = 80
    "queens around" Q in every suit = 60
    "jacks around" J in every suit = 40
  others:
    "pinochle" (Q of spades) (J of diamonds) = 40
    "dix" 9 of trump = 10
melds roem
  sequences:
    "four in sequence" sequence of 4 in A K Q J 10 9 = 50
    "three in sequence" sequence of 3 in A K Q J 10 9 = 20
  stuk:
    "stuk" K Q of trump = 20
  fours:
    "four of a kind" (A or K or Q or J) in every suit = 100
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
deal
  deal 6 to each
  trump is hearts
  for each player from eldest:
    player melds pinochle
  for each side:
    side scores melded(side) + melds(won of side, roem)
"""
RULES = tricklang.parse(PINOCHLE, "p.trick")
CARDS = CardModel(RULES.deck)  # type: ignore[arg-type]
TABLES = {t.name: t for t in RULES.melds}
HEARTS = CARDS.suit_names.index("hearts")


def held(*codes: str) -> list[int]:
    return [CARDS.index[c] for c in codes]


def errors(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in Checker(tricklang.parse(text, "p.trick")).run() if d.severity == "error"]


def line_of(fragment: str, text: str = PINOCHLE) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


# ---------------------------------------------------------------- the model and the checker


def test_tables_parse_into_classes_of_shaped_lines() -> None:
    pinochle = TABLES["pinochle"]
    assert [g.name for g in pinochle.classes] == ["sequences", "arounds", "others"]
    run, royal, marriage = pinochle.classes[0].lines
    assert (run.kind, run.ranks, run.value) == ("cards", ("A", "10", "K", "Q", "J"), 150)
    assert (marriage.kind, marriage.scope, marriage.exclude is not None) == ("suits", "any", True)
    assert [line.kind for line in pinochle.classes[2].lines] == ["listed", "cards"]
    four = TABLES["roem"].classes[2].lines[0]
    assert four.kind == "suits" and four.scope == "every" and isinstance(four.rank_pattern, m.PatOr)
    assert TABLES["roem"].classes[0].lines[1].length == 3


def test_a_checked_file_with_melds_has_no_error_and_loads() -> None:
    assert errors(PINOCHLE) == []  # the runtime plays meld tables (tests/runtime/test_meld_play.py)
    tricklang.loads(PINOCHLE, path="p.trick")


@pytest.mark.parametrize(("old", "new", "code"), [
    ('"dix" 9 of trump = 10', '"dix" 8 of trump = 10', "bad-meld"),
    ('"dix" 9 of trump = 10', '"dix" 9 of stars = 10', "bad-meld"),
    ('"pinochle" (Q of spades) (J of diamonds) = 40', '"pinochle" (Q) (J of diamonds) = 40', "bad-meld"),
    ('"pinochle" (Q of spades) (J of diamonds) = 40', '"pinochle" (Q of spades) (Q of spades) = 40', "bad-meld"),
    ('sequence of 3 in A K Q J 10 9', 'sequence of 7 in A K Q J 10 9', "bad-meld"),
    ('sequence of 3 in A K Q J 10 9', 'sequence of 1 in A K Q J 10 9', "bad-meld"),
    ("melds roem\n", "melds pinochle\n", "duplicate-name"),
    ("melds(won of side, roem)", "melds(won of side, nothing)", "undefined-name"),
    ("melds(won of side, roem)", "melds(side, roem)", "type-error"),
    ("    player melds pinochle", "    player melds nothing", "undefined-name"),
    ("    player melds pinochle", "    nobody melds pinochle", "nobody-is-no-seat"),
])
def test_misuses_are_reported(old: str, new: str, code: str) -> None:
    text = PINOCHLE.replace(old, new, 1)
    assert code in {c for c, _ in errors(text)}


def test_a_line_whose_cards_a_later_line_holds_is_warned_of() -> None:
    text = PINOCHLE.replace('''    "run" A 10 K Q J of trump = 150
    "royal marriage" K Q of trump = 40''', '''    "royal marriage" K Q of trump = 40
    "run" A 10 K Q J of trump = 150''')
    warnings = [(d.code, d.line) for d in Checker(tricklang.parse(text, "p")).run() if d.severity == "warning"]
    assert warnings == [("meld-order", line_of('"royal marriage"', text))]
    assert [w for w in Checker(RULES).run() if w.severity == "warning"] == []


# ---------------------------------------------------------------- how cards count


@pytest.mark.parametrize(("cards", "table", "points", "labels"), [
    (("AH", "10H", "KH", "QH", "JH"), "pinochle", 150, ["run"]),  # the run takes its royal marriage
    (("KH", "QH", "KS", "QS", "KC", "QC"), "pinochle", 40 + 20 + 20, ["royal marriage", "marriage", "marriage"]),
    (("QS", "JD", "KD"), "pinochle", 40, ["pinochle"]),  # a king without its queen: no marriage
    (("QS", "KS", "JD"), "pinochle", 20 + 40, ["marriage", "pinochle"]),  # the Q of spades in two classes
    (("AS", "AH", "AC", "AD", "KS", "KH", "KC", "KD"), "pinochle", 100 + 80, ["aces around", "kings around"]),
    (("9H", "9S"), "pinochle", 10, ["dix"]),
    (("AS", "KS", "QS", "JS"), "roem", 50, ["four in sequence"]),
    (("KH", "QH", "JH"), "roem", 20 + 20, ["three in sequence", "stuk"]),  # stuk is its own class
    (("JS", "JH", "JC", "JD"), "roem", 100, ["four of a kind"]),
    (("10S", "10H", "10C", "10D"), "roem", 0, []),  # tens are not in the four of a kind
])
def test_a_hand_counts_as_the_tables_say(cards: tuple[str, ...], table: str, points: int, labels: list[str]) -> None:
    found = count(TABLES[table], held(*cards), CARDS, HEARTS)
    assert found.points == points
    assert sorted(label for label, _ in found.melds) == sorted(labels)
    for _, used in found.melds:
        assert set(used) <= set(held(*cards))


def test_trump_lines_name_nothing_without_trumps() -> None:
    run = TABLES["pinochle"].classes[0].lines[0]
    assert instances(run, CARDS, NO_TRUMP) == []
    assert count(TABLES["pinochle"], held("AH", "10H", "KH", "QH", "JH"), CARDS, NO_TRUMP).points == 20


def test_a_sequence_line_names_each_window_of_each_suit() -> None:
    three = TABLES["roem"].classes[0].lines[1]
    assert len(instances(three, CARDS, HEARTS)) == 4 * (6 - 3 + 1)


SOME_CARDS = st.lists(st.integers(0, CARDS.size - 1), unique=True, max_size=16)


@given(SOME_CARDS, SOME_CARDS, st.sampled_from(["pinochle", "roem"]), st.integers(0, 4))
def test_more_cards_never_count_less_and_their_order_does_not_matter(
        hand: list[int], more: list[int], table: str, trump: int) -> None:
    t = trump if trump < 4 else NO_TRUMP
    base = count(TABLES[table], hand, CARDS, t).points
    assert count(TABLES[table], list(reversed(hand)), CARDS, t).points == base
    bigger = sorted(set(hand) | set(more))
    assert count(TABLES[table], bigger, CARDS, t).points >= base


# ---------------------------------------------------------------- words and layout


def test_tables_and_melding_read_in_english() -> None:
    checker = Checker(RULES)
    checker.run()
    ruleset = Ruleset.model_construct(rules=RULES, source=PINOCHLE, path="p.trick", options={}, warnings=(), bases=(),
                                      symbols=checker.symbols)
    text = explain(ruleset)
    assert "## Melds: pinochle" in text
    assert "- **run**: the A, 10, K, Q and J of trumps, 150 points." in text
    assert "- **marriage**: the K and Q of one suit, but not trumps, 20 points." in text
    assert "- **four of a kind**: the a card that is" not in text
    assert "**three in sequence**: 3 cards in sequence in one suit (in the order A K Q J 10 9), 20 points." in text
    assert "the player melds: the melds of the table **pinochle** in his hand are counted" in text.lower()
    assert "what the side has melded this deal" in text


def test_tables_format_canonically() -> None:
    messy = PINOCHLE.replace('= 150', '=150').replace("(Q of spades) (J of diamonds)", "( Q of spades )(J of diamonds)")
    assert format_text(messy, "p.trick") == PINOCHLE
