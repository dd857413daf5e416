"""Issue 28, step 7, the language half (design 3.4): decks that are not suits x ranks.

A suit's or a rank's own code, `remove P`, extra cards (`card joker "JK"`) and `copies N`
parse to the model, build the card model (codes, deck order, the removed cards gone, the
joker placed by `trump ranks`), are checked (`ambiguous-card-code`, `bad-rank`, `bad-deck`,
`ambiguous-card`, sizes counting copies), explained, and laid out by `fmt` unchanged.
"""

from __future__ import annotations

import pytest

import tricklang
from tricklang import model as m
from tricklang.checker import Checker
from tricklang.deck import NO_SUIT, NO_TRUMP, CardModel, deck_size
from tricklang.explain import explain
from tricklang.fmt import format_text, meaning
from tricklang.lsp import completion
from tricklang.lsp.analysis import analyse

BODY = """\
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 2 deals
deal
  deal DEALT to each
  trump is hearts
  tricks DEALT, left of dealer leads first
    must follow suit
  for each player:
    player scores tricks(player)
"""


def game(deck: str, dealt: int = 8) -> str:
    return 'tricklang 1\ngame "Decks"\nplayers 4\ndeck\n' + deck + BODY.replace("DEALT", str(dealt))


FIVE_HUNDRED = game("""\
  suits spades black, clubs black, diamonds red, hearts red
  ranks A K Q J 10 9 8 7 6 5 4 3 2
  remove 2 or 3 or (4 and black)
  card joker "JK"
  trump ranks joker J (J of same colour as trump) A K Q 10 9 8 7 6 5 4
""", 10)
TAROT = game("""\
  suits spades black, hearts red, diamonds red, clubs black, atouts "T" none
  ranks R D Cavalier "C" V 10 9 8 7 6 5 4 3 2 1
  card excuse "EX"
""", 18)
DOUBLE = game("""\
  suits clubs black, spades black, hearts red, diamonds red
  ranks A 10 K Q J 9
  copies 2
""", 12)


def errors(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.line) for d in Checker(tricklang.parse(text, "decks.trick")).run()
            if d.severity == "error" and d.code != "unsupported-construct"]


def line_of(fragment: str, text: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


def test_each_line_parses_to_the_model() -> None:
    deck = tricklang.parse(TAROT, "t.trick").deck
    assert deck is not None
    assert [(s.name, s.code) for s in deck.suits][-2:] == [("clubs", None), ("atouts", "T")]
    assert deck.ranks[:4] == ("R", "D", "Cavalier", "V") and deck.rank_codes == (("Cavalier", "C"),)
    assert [(x.name, x.code) for x in deck.extra_cards] == [("excuse", "EX")]
    five = tricklang.parse(FIVE_HUNDRED, "f.trick").deck
    assert five is not None and len(five.removed) == 1 and five.copies is None
    double = tricklang.parse(DOUBLE, "d.trick").deck
    assert double is not None and double.copies == 2


def test_codes_are_the_rank_code_then_the_suit_code() -> None:
    deck = tricklang.parse(TAROT, "t.trick").deck
    assert deck is not None
    cards = CardModel(deck)
    assert cards.codes[:4] == ["RS", "DS", "CS", "VS"]
    assert "10T" in cards.codes and "1T" in cards.codes and cards.codes[-1] == "EX"
    assert cards.size == 5 * 14 + 1 and cards.suit[-1] == NO_SUIT


def test_five_hundred_has_43_cards_in_deck_order_and_the_joker_tops_the_trumps() -> None:
    deck = tricklang.parse(FIVE_HUNDRED, "f.trick").deck
    assert deck is not None
    cards = CardModel(deck)
    assert cards.size == 43 == deck_size(deck)
    assert cards.codes[:11] == ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "AC"]
    assert "4D" in cards.codes and "4H" in cards.codes and "4S" not in cards.codes and "2H" not in cards.codes
    hearts = cards.suit_names.index("hearts")
    joker = cards.index["JK"]
    strength = cards.trump_strength[hearts]
    order = sorted((c for c in range(cards.size) if strength[c]), key=lambda c: -strength[c])
    assert [cards.codes[c] for c in order[:4]] == ["JK", "JH", "JD", "AH"]
    assert cards.eff_suit[hearts][joker] == hearts  # under a trump, the joker is a trump
    joker_test = cards.pattern(m.PatWord(word="joker", span=m.NO_SPAN))
    red_test = cards.pattern(m.PatWord(word="red", span=m.NO_SPAN))
    assert not red_test(joker, NO_TRUMP) and not cards.pattern(m.PatWord(word="A", span=m.NO_SPAN))(joker, NO_TRUMP)
    assert [c for c in range(cards.size) if joker_test(c, NO_TRUMP)] == [joker]


def test_the_size_counts_copies() -> None:
    deck = tricklang.parse(DOUBLE, "d.trick").deck
    assert deck is not None
    cards = CardModel(deck)
    assert deck_size(deck) == 48 == cards.size and len(cards.face_codes) == 24 and cards.copies == 2
    assert cards.codes[:4] == ["AC", "AC", "10C", "10C"] and cards.index["10C"] == 2 and cards.face[3] == 1
    clubs = cards.suit_names.index("clubs")
    assert cards.trump_strength[clubs][0] == cards.trump_strength[clubs][1] > cards.trump_strength[clubs][2]
    assert cards.power[clubs][clubs][4] == cards.power[clubs][clubs][5]
    assert ("deck-too-small", line_of("deal 12", DOUBLE)) not in errors(DOUBLE)
    single = DOUBLE.replace("  copies 2\n", "")
    assert ("deck-too-small", line_of("deal 12", single)) in errors(single)


def test_well_formed_decks_draw_no_error() -> None:
    assert errors(FIVE_HUNDRED) == []
    assert errors(TAROT.replace("deal 18", "deal 17").replace("tricks 18", "tricks 17")) == []
    assert errors(DOUBLE) == []


@pytest.mark.parametrize(("old", "new", "code"), [
    ("atouts \"T\" none", "atouts \"S\" none", "ambiguous-card-code"),  # the code of spades
    ("atouts \"T\" none", "atouts \"T x\" none", "ambiguous-card-code"),
    ("atouts \"T\" none", "atouts \"TOOL\" none", "ambiguous-card-code"),
    ("Cavalier \"C\"", "Cavalier", "bad-rank"),  # too long to be its own code
    ("Cavalier \"C\"", "Cavalier \"d\"", "ambiguous-card-code"),  # D, ignoring case
    ("Cavalier \"C\"", "Cavalier \"C-\"", "bad-rank"),
    ("card excuse \"EX\"", "card excuse \"rs\"", "ambiguous-card-code"),  # the king of spades
    ("card excuse \"EX\"", "card hearts \"EX\"", "duplicate-name"),
])
def test_codes_are_checked(old: str, new: str, code: str) -> None:
    text = TAROT.replace(old, new)
    assert (code, line_of(new.split()[0], text)) in errors(text)


def test_bad_deck() -> None:
    every = FIVE_HUNDRED.replace("remove 2 or 3 or (4 and black)", "remove red or black")
    assert ("bad-deck", line_of("remove", every)) in errors(every)
    joker = FIVE_HUNDRED.replace("remove 2 or 3 or (4 and black)", "remove 2 or joker")
    assert ("bad-deck", line_of("remove", joker)) in errors(joker)
    for n in (0, 5):
        text = DOUBLE.replace("copies 2", f"copies {n}")
        assert ("bad-deck", line_of("copies", text)) in errors(text)
    unknown = FIVE_HUNDRED.replace("remove 2 or 3", "remove 2 or 1")
    assert ("bad-rank", line_of("remove", unknown)) in errors(unknown)


def test_holder_of_a_face_with_copies_is_ambiguous() -> None:
    for kind in ("holder of", "original holder of", "taker of"):
        text = DOUBLE.replace("  for each player:\n", f"  if {kind} (Q of clubs) == dealer:\n    dealer scores 1\n"
                              "  for each player:\n")
        assert ("ambiguous-card", line_of(kind, text)) in errors(text)
        single = text.replace("  copies 2\n", "  copies 1\n")
        assert not [c for c, _ in errors(single) if c == "ambiguous-card"]


def test_the_runtime_plays_every_new_deck_line() -> None:
    refused = {d.message.split(" is part")[0] for d in Checker(tricklang.parse(TAROT, "t")).run()
               if d.code == "unsupported-construct"}
    assert refused == set()


def test_explain_tells_the_pack() -> None:
    codes = game("""\
  suits spades black, hearts red, schellen "X" red, clubs black
  ranks Ober "O" Unter "U" A K 10 9 8 7 6 5 4 3 2
  remove 2 or 3 or (4 and black)
""", 10)
    text = explain(tricklang.loads(codes, path="c.trick"))
    assert "The deck has 42 cards in four suits" in text
    assert "taken out of the pack" in text
    assert "`OS` (Ober of spades)" in text and "schellen `X`" in text


def test_fmt_keeps_the_new_lines_and_their_meaning() -> None:
    for text in (FIVE_HUNDRED, TAROT, DOUBLE):
        messy = text.replace("  copies 2", "  copies   2").replace('card joker "JK"', 'card  joker   "JK"')
        out = format_text(messy)
        assert out == text and format_text(out) == out
        assert meaning(tricklang.parse(out, "x")) == meaning(tricklang.parse(text, "x"))


def test_the_language_server_offers_extra_cards_and_own_codes() -> None:
    prefix = "  for each card in hand of dealer matching "
    text = TAROT.replace("  for each player:\n", prefix + ":\n    dealer scores 1\n  for each player:\n")
    items = completion.complete(text, line_of(prefix, text), len(prefix) + 1, analyse(TAROT, "t.trick"))
    labels = {i.label: i.detail for i in items}
    assert labels.get("excuse") == "the card EX, in no suit"
    assert labels.get("Cavalier of atouts") == "the card CT"


def test_choosing_cards_from_a_pack_with_copies_is_played() -> None:
    text = DOUBLE.replace("  trump is hearts\n", "  trump is hearts\n  dealer discards 1 to stock\n")
    assert not [d for d in Checker(tricklang.parse(text, "d")).run() if d.code == "unsupported-construct"]
    assert not [d for d in Checker(tricklang.parse(DOUBLE, "d")).run() if d.code == "unsupported-construct"]


# ---------------------------------------------------------------- a suit with ranks of its own

TAROT_78 = game("""\
  suits spades black, hearts red, diamonds red, clubs black, atouts "T" special
  ranks K Q C J 10 9 8 7 6 5 4 3 2 1
  ranks in atouts 21 20 19 18 17 16 15 14 13 12 11 10 9 8 7 6 5 4 3 2 1
  card excuse "EX"
""", 19).replace("  trump is hearts\n", "  trump is atouts\n")


def test_a_suit_with_ranks_of_its_own_makes_the_78_card_tarot_pack() -> None:
    deck = tricklang.parse(TAROT_78, "t.trick").deck
    assert deck is not None and errors(TAROT_78) == []
    cards = CardModel(deck)
    assert cards.size == deck_size(deck) == 4 * 14 + 21 + 1 == 78
    atouts = [c for c in cards.codes if c.endswith("T")]
    assert atouts == [f"{n}T" for n in range(21, 0, -1)] and cards.codes[:2] == ["KS", "QS"]
    assert tricklang.loads(TAROT_78, path="t.trick").cards == cards.codes
    t = cards.suit_names.index("atouts")
    top, second, petit = cards.index["21T"], cards.index["20T"], cards.index["1T"]
    assert cards.trump_strength[t][top] > cards.trump_strength[t][second] > cards.trump_strength[t][petit] > 0
    assert cards.eff_suit[t][top] == t and cards.power[t][0][top] > 1000
    hearts = cards.suit_names.index("hearts")
    assert cards.power[hearts][t][top] > cards.power[hearts][t][second] > 0  # a plain suit under hearts
    assert cards.plain[cards.index["KS"]] > cards.plain[cards.index["QS"]] > cards.plain[cards.index["1S"]]


@pytest.mark.parametrize(("pattern", "matched"), [
    ("21 of atouts", ["21T"]),
    ("1 of atouts", ["1T"]),
    ("atouts", [f"{n}T" for n in range(21, 0, -1)]),
    ("21", ["21T"]),
    ("K of atouts", []),  # atouts have no king
    ("21 of spades", []),  # nor spades a 21
    ("1 and black", ["1S", "1C"]),  # the atouts' colour is their own
    ("special", [f"{n}T" for n in range(21, 0, -1)]),
])
def test_rank_patterns_read_each_suit_s_own_ranks(pattern: str, matched: list[str]) -> None:
    text = TAROT_78.replace("zone hand:", f'points\n  "x" {pattern} = 1\nzone hand:', 1)
    assert errors(text) == []
    rules = tricklang.parse(text, "t.trick")
    assert rules.deck is not None
    cards = CardModel(rules.deck, rules.points)
    values = cards.point_values[""][cards.nsuits]  # read with no trump
    assert [cards.codes[c] for c in range(cards.size) if values[c]] == matched


def test_a_permutation_of_the_deck_s_ranks_still_reorders_the_suit() -> None:
    text = game("""\
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J
  ranks in hearts J Q K A
""", 4)
    deck = tricklang.parse(text, "p.trick").deck
    assert deck is not None and errors(text) == []
    cards = CardModel(deck)
    assert cards.size == 16 and cards.codes[4:8] == ["AH", "KH", "QH", "JH"]  # deck order kept
    assert cards.plain[cards.index["JH"]] > cards.plain[cards.index["AH"]]
    assert cards.plain[cards.index["AS"]] > cards.plain[cards.index["JS"]]


@pytest.mark.parametrize(("old", "new", "code", "at"), [
    ("ranks in atouts 21 20", "ranks in atouts 21 21 20", "bad-rank", "ranks in atouts"),  # a rank twice
    ("ranks in atouts 21", "ranks in atouts 2100", "bad-rank", "ranks in atouts"),  # too long to be a code
    ("ranks in atouts", "ranks in trumps", "bad-suit", "ranks in trumps"),  # no such suit
    ("ranks in atouts", "ranks in special", "bad-order", "ranks in special"),  # a colour has no ranks of its own
    ("  card excuse", "  ranks in atouts 3 2 1\n  card excuse", "bad-deck", "ranks in atouts 3 2 1"),  # twice
])
def test_ranks_of_their_own_are_checked(old: str, new: str, code: str, at: str) -> None:
    text = TAROT_78.replace(old, new, 1)
    found = [(d.code, d.line, d.column) for d in Checker(tricklang.parse(text, "t.trick")).run() if d.severity == "error"]
    assert (code, line_of(at, text), 3) in found


def test_the_language_server_offers_each_suit_s_own_ranks() -> None:
    prefix = "  for each card in hand of dealer matching "
    text = TAROT_78.replace("  for each player:\n", prefix + ":\n    dealer scores 1\n  for each player:\n")
    items = completion.complete(text, line_of(prefix, text), len(prefix) + 1, analyse(TAROT_78, "t.trick"))
    labels = {i.label: i.detail for i in items}
    assert labels.get("21 of atouts") == "the card 21T" and labels.get("1 of atouts") == "the card 1T"
    assert labels.get("K of clubs") == "the card KC" and labels.get("21") == "any 21"
    assert "K of atouts" not in labels and "21 of spades" not in labels


def test_explain_tells_a_suit_s_own_ranks() -> None:
    text = explain(tricklang.loads(TAROT_78, path="t.trick"))
    assert "in atouts the ranks, from high to low, are 21 20 19" in text


def test_fmt_keeps_a_suit_s_own_ranks() -> None:
    out = format_text(TAROT_78.replace("ranks in atouts 21 20", "ranks in   atouts 21  20"))
    assert out == TAROT_78
    assert meaning(tricklang.parse(out, "x")) == meaning(tricklang.parse(TAROT_78, "x"))
