"""Issue 28 step 6, card orders that follow the contract (design 3.3): Skat's suit games,
grand (the four jacks alone are trumps, a group of their own) and null (no trumps, another
rank order), selected by ``trump is NAME`` and compiled once by the code generator.

Scripted deals give the legal cards and the trick winners the Skat rules give; random
matches are checked against an oracle written here from those rules; the native build
plays what CPython plays; the checker's ``bad-order``, ``bad-suit`` and ``unused-order``.
"""

from __future__ import annotations

import random

import pytest
from helpers import assert_native_plays_as_cpython
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import native
from interpreter.state.compiled import module_of
from interpreter.transcript import render

SKAT = """\
tricklang 1
game "Skat orders"
players 3
role eldest = left of dealer
deck                                                               [SK1]
  suits clubs black, spades black, hearts red, diamonds red
  ranks A 10 K Q J 9 8 7
  trump ranks (J of clubs) (J of spades) (J of hearts) (J of diamonds) A 10 K Q 9 8 7   [SK4]
order grand                                                        [SK4]
  trumps (J of clubs) (J of spades) (J of hearts) (J of diamonds)
order null                                                         [SK4]
  no trumps
  ranks A K Q J 10 9 8 7
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 1 deals
deal
  deal 10 to each
  eldest chooses:                                                  [SK4]
    grand:
      trump is grand
    null:
      trump is null
    clubs:
      trump is clubs
  tricks 10, eldest leads first
    must follow suit
  for each player:
    player scores tricks(player)
"""

HANDS = {1: "JC JS AC 10C AS 10S KS AH 7H 8D",  # eldest (the dealer is seat 0)
         2: "JH QC 9C KC QS 9S 9H 10H KH QH",
         0: "JD 8C 7C 7S 8S AD 10D KD QD 9D"}
SKAT_CARDS = "8H 7D"


def pack() -> list[str]:
    """Ten cards to each from the dealer's left (seats 1, 2, 0), the last two to the skat."""
    order = [card for seat in (1, 2, 0) for card in HANDS[seat].split()] + SKAT_CARDS.split()
    assert sorted(order) == sorted(r + s for s in "CSHD" for r in "A 10 K Q J 9 8 7".split())
    return order


def new(game: str, text: str = SKAT) -> interpreter.State:
    state = interpreter.new_game(tricklang.loads(text, path="skat.trick"), deck=pack(), dealer=0)
    state.apply(game)
    return state


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def play(state: interpreter.State, *cards: str) -> interpreter.State:
    for card in cards:
        state.apply(f"play {card}")
    return state


def last_winner(state: interpreter.State) -> int:
    return int([e for e in state.events(None) if e["type"] == "trick"][-1]["winner"])


@pytest.mark.parametrize(("game", "legal"), [
    ("grand", ["10H", "9H", "KH", "QH"]),  # the jack of hearts is a trump in grand, not a heart
    ("clubs", ["10H", "9H", "KH", "QH"]),  # ... and in a suit game
    ("null", ["10H", "9H", "JH", "KH", "QH"]),  # in null it is a heart
])
def test_who_follows_hearts(game: str, legal: list[str]) -> None:
    state = play(new(game), "AH")
    assert plays(state) == sorted(legal)


@pytest.mark.parametrize(("game", "winner"), [("grand", 0), ("clubs", 0), ("null", 1)])
def test_a_jack_on_a_heart_lead_trumps_except_in_null(game: str, winner: int) -> None:
    state = play(new(game), "AH", "KH")
    assert plays(state) == sorted(HANDS[0].split())  # void in hearts: any card
    play(state, "JD")
    assert last_winner(state) == winner


def test_a_jack_led_calls_for_trumps_in_grand_and_in_a_suit_game_for_spades_in_null() -> None:
    grand = play(new("grand"), "JS")
    assert plays(grand) == ["JH"]  # the jacks alone are trumps
    play(grand, "JH")
    assert plays(grand) == ["JD"]
    play(grand, "JD")
    assert last_winner(grand) == 1
    clubs = play(new("clubs"), "JS")
    assert plays(clubs) == ["9C", "JH", "KC", "QC"]  # clubs and the jacks
    play(clubs, "KC")
    assert plays(clubs) == ["7C", "8C", "JD"]
    play(clubs, "JD")
    assert last_winner(clubs) == 1  # the jack of spades over the jack of diamonds and the king of trumps
    null = play(new("null"), "JS")
    assert plays(null) == ["9S", "QS"]  # the jack of spades is a spade
    play(null, "QS", "8S")
    assert last_winner(null) == 2  # in null the queen is above the jack


def test_the_ten_ranks_below_the_king_in_null_only() -> None:
    for game, winner in (("grand", 1), ("clubs", 1), ("null", 2)):
        state = play(new(game), "10S", "QS", "7S")
        assert last_winner(state) == winner, game


def test_the_order_is_public_and_read_in_events_and_transcripts() -> None:
    grand = new("grand")
    assert grand.trump == "grand" and grand.observation(2)["trump"] == "grand"
    assert grand.is_trump("JH") and not grand.is_trump("AC")
    assert grand.effective_suit("JD") == "grand" and grand.effective_suit("AD") == "diamonds"
    assert [e for e in grand.events(0) if e["type"] == "trump"] == [{"type": "trump", "suit": "grand", "order": "grand"}]
    assert "  trumps: order grand" in render(grand).splitlines()
    null = new("null")
    assert null.trump is None and not null.is_trump("JH") and null.observation(0)["trump"] == "null"
    assert [e for e in null.events(1) if e["type"] == "trump"] == [{"type": "trump", "suit": None, "order": "null"}]
    assert "  trumps: order null, no trumps" in render(null).splitlines()
    clubs = new("clubs")
    assert clubs.trump == "clubs" and clubs.effective_suit("JH") == "clubs"


def test_the_tensor_carries_the_order_in_force() -> None:
    from interpreter.state.tensors import tensor_layout

    for game, index in (("clubs", 0), ("null", 6), ("grand", 5)):
        state = new(game)
        start, size = tensor_layout(state).segment("trump")
        assert size == 7  # four suits, no trump, two named orders
        assert state.observation_tensor(1)[start:start + size] == [1.0 if k == index else 0.0 for k in range(size)]


# ---------------------------------------------------------------- an oracle from the rules of Skat
PLAIN = "A 10 K Q 9 8 7".split()
NULL = "A K Q J 10 9 8 7".split()
JACKS = ["JC", "JS", "JH", "JD"]


def oracle_suit(card: str, game: str) -> str:
    """The suit a card belongs to in a game: 'T' for the trumps."""
    if game != "null" and card in JACKS:
        return "T"
    if game == "clubs" and card.endswith("C"):
        return "T"
    return card[-1]


def oracle_strength(card: str, game: str, led: str) -> int:
    suit = oracle_suit(card, game)
    if suit == "T":
        return 100 - (JACKS.index(card) if card in JACKS else 4 + PLAIN.index(card[:-1]))
    if suit != led:
        return 0
    return 50 - (NULL if game == "null" else PLAIN).index(card[:-1])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["grand", "null", "clubs"]))
def test_random_deals_follow_the_rules_of_skat(seed: int, game: str) -> None:
    rng = random.Random(seed)
    state = interpreter.new_game(tricklang.loads(SKAT, path="skat.trick"), seed=seed)
    state.apply(game)
    trick: list[tuple[int, str]] = []
    while not state.is_terminal():
        seat = state.current_player
        hand = state.observation(seat)["zones"]["hand"][str(seat)]["cards"]
        led = oracle_suit(trick[0][1], game) if trick else None
        following = [c for c in hand if oracle_suit(c, game) == led]
        assert plays(state) == sorted(following or hand)
        card = rng.choice(plays(state))
        state.apply(f"play {card}")
        trick.append((seat, card))
        if len(trick) == 3:
            assert led is not None
            best = max(trick, key=lambda sc: oracle_strength(sc[1], game, oracle_suit(trick[0][1], game)))
            assert last_winner(state) == best[0]
            trick = []


# ---------------------------------------------------------------- the checker
def diagnostics(text: str) -> list[tuple[str, int]]:
    try:
        rules = tricklang.loads(text, path="orders.trick")
    except tricklang.RulesError as error:
        return [(d.code, d.line) for d in error.diagnostics]
    return [(d.code, d.line) for d in rules.warnings]


@pytest.mark.parametrize(("old", "new", "code", "line"), [
    ("  no trumps\n  ranks A K Q J 10 9 8 7\n", "  ranks A K Q J 10 9 8 7\n", "bad-order", 11),
    ("  no trumps\n", "  no trumps\n  trumps J\n", "bad-order", 11),
    ("  ranks A K Q J 10 9 8 7\n", "  ranks A K Q J 10 9 8\n", "bad-order", 13),
    ("  ranks A K Q J 10 9 8 7\n", "  ranks A K K J 10 9 8 7\n", "bad-order", 13),
    ("  ranks A K Q J 10 9 8 7\n", "  ranks in purple A K Q J 10 9 8 7\n", "bad-suit", 13),
    ("(J of hearts) (J of diamonds)\norder", "(J of hearts) (J of diamonds) X\norder", "bad-order", 10),
    ("(J of hearts) (J of diamonds)\norder", "(J of hearts) (J of diamonds) (J of clubs)\norder", "bad-order", 10),
    ("order null ", "order hearts ", "duplicate-name", 11),
    ("      trump is null\n", "      trump is nothing\n", "bad-suit", 25),
    ("      trump is null\n", "      trump is 3\n", "type-error", 25),
])
def test_the_checker_refuses_a_bad_order(old: str, new: str, code: str, line: int) -> None:
    assert old in SKAT
    assert (code, line) in diagnostics(SKAT.replace(old, new))


def test_an_order_no_statement_selects_is_reported() -> None:
    assert diagnostics(SKAT) == []
    assert diagnostics(SKAT.replace("      trump is null\n", "      pass\n")) == [("unused-order", 11)]


def test_per_colour_ranks_give_the_plain_order_of_those_suits() -> None:
    text = SKAT.replace("  ranks A K Q J 10 9 8 7\n", "  ranks A K Q J 10 9 8 7\n  ranks in black 7 8 9 10 J Q K A\n")
    state = play(new("null", text), "AS", "QS", "7S")
    assert last_winner(state) == 0  # in null, black suits run from the seven up (an invented order)
    state = play(new("null", text), "AH", "KH")
    play(state, "JD")
    assert last_winner(state) == 1  # red suits keep the order's A K Q J ...


def test_fmt_keeps_orders_and_explain_words_them() -> None:
    from tricklang.fmt import format_text

    text = SKAT.replace("  ranks A K Q J 10 9 8 7\n", "  ranks A K Q J 10 9 8 7\n  ranks in red A K Q J 10 9 8 7\n")
    once = format_text(text)
    assert format_text(once) == once
    assert tricklang.parse(once).model_dump(exclude={"span"}) is not None
    assert [o.name for o in tricklang.loads(once, path="f.trick").rules.orders] == ["grand", "null"]
    from tricklang.explain import explain

    words = explain(tricklang.loads(text, path="skat.trick"))
    assert "## Order: grand" in words and "the trumps, from high to low, are the J of clubs" in words
    assert "there are no trumps" in words and "in red the ranks, from high to low, are A K Q J 10 9 8 7" in words
    assert "the card order grand is in force" in words


# ---------------------------------------------------------------- native





@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    text = SCHAFKOPF.replace("  ranks A K Q J 10 9 8 7\n", "  ranks A K Q J 10 9 8 7\n  ranks in red 7 8 9 10 J Q K A\n")
    rules = tricklang.loads(text, path="native.trick")  # grand, null with red ranks, clubs, schafkopf
    assert_native_plays_as_cpython(rules, range(16))


def test_the_language_server_lists_orders_and_goes_to_them() -> None:
    from tricklang.lsp import symbols
    from tricklang.lsp.analysis import analyse

    analysis = analyse(SKAT, "skat.trick")
    found = {s.name: s for s in symbols.outline(analysis) if s.kind == "order"}
    assert sorted(found) == ["grand", "null"]
    assert found["null"].line == 11 and found["null"].detail == "card order, no trumps"
    assert found["grand"].detail == "card order, 4 trump item(s)"
    line = SKAT.splitlines().index("      trump is grand") + 1
    target = symbols.definition(analysis, line, len("      trump is g"))
    assert target is not None and target.line == 9


def test_a_deck_s_ranks_in_a_suit_hold_under_every_order() -> None:
    text = SKAT.replace("  ranks A 10 K Q J 9 8 7\n", "  ranks A 10 K Q J 9 8 7\n  ranks in spades 7 8 9 10 J Q K A\n")
    for game in ("clubs", "grand"):
        state = play(new(game, text), "10S", "QS", "7S")
        assert last_winner(state) == 0, game  # spades run from the seven up
    state = play(new("null", text), "10S", "QS", "7S")
    assert last_winner(state) == 2  # the order's own ranks (A K Q J 10 ...) win over the deck's


def test_an_order_set_in_the_middle_of_a_trick_keeps_the_suit_led() -> None:
    """Decision 5, ahead of the hooks that will set an order mid-trick (step 3): the generated
    module's ``_set_order`` called between two cards, as such a hook's statement will."""
    state = play(new("clubs"), "JS")  # the jack of spades led in a clubs game: trumps (clubs) led
    namespace = module_of(state.ruleset)[1]
    namespace["_set_order"](state._c, 6, -1, 0)  # null (index 4 suits + no trump + grand)
    assert state.trump is None
    assert plays(state) == ["9C", "KC", "QC"]  # clubs were led, and stay led: not the spades
    play(state, "KC")
    assert state.trick_winner() == 2  # under null, with clubs led: the jack of spades is off-suit
    play(state, "8C")
    assert state.current_player == 2  # (the trick's winner leads; the events, rebuilt by replaying
    # the actions, cannot know of a change of order made from outside the rules)


SCHAFKOPF = SKAT.replace("zone hand:", "order schafkopf\n  trumps Q J (hearts and not (Q or J))\nzone hand:").replace(
    "    clubs:\n      trump is clubs\n", "    clubs:\n      trump is clubs\n    schafkopf:\n      trump is schafkopf\n")


def test_trumps_of_several_ranks_of_every_suit_and_a_suit() -> None:
    """Schafkopf's (and, with the ten of hearts first, Doppelkopf's) trumps: the queens, the jacks,
    then the hearts, each rank in the deck's suit order."""
    assert SCHAFKOPF.count("schafkopf") == 3
    state = play(new("schafkopf", SCHAFKOPF), "7H")
    assert plays(state) == ["10H", "9H", "JH", "KH", "QC", "QH", "QS"]  # hearts led are trumps
    play(state, "9H")
    assert plays(state) == ["JD", "QD"]
    play(state, "JD")
    assert last_winner(state) == 0  # a jack over the hearts
    state = play(new("schafkopf", SCHAFKOPF), "AC")
    assert plays(state) == ["9C", "KC"]  # the queen of clubs is a trump, not a club
    state = play(new("schafkopf", SCHAFKOPF), "JC", "QC", "QD")
    assert last_winner(state) == 2  # the queen of clubs, the highest trump


def test_the_language_server_explains_an_order_and_its_selection() -> None:
    from tricklang.lsp.analysis import analyse
    from tricklang.lsp.hover import hover

    analysis = analyse(SKAT, "skat.trick")
    name = hover(analysis, 9, len("order g"))
    assert name is not None and name.markdown.startswith("**order** `grand`: card order, 4 trump item(s)")
    line = SKAT.splitlines().index("      trump is grand") + 1
    selected = hover(analysis, line, len("      trump is g"))
    assert selected is not None and "The card order grand is in force" in selected.markdown
