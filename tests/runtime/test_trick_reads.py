"""Issue 28, section 1, the runtime half: rules read the trick in progress (design 3.1) and the
two obligations that compare trumps (3.2), compiled once by the code generator.

Scripted deals of a Klaverjas-like game (four players in partnerships, hearts trumps): the
Rotterdam rule (always trump and overtrump) and the Amsterdam rule (no duty to trump or
overtrump while the partner wins, written as guards that read ``winner``, ``to_play``,
``led_suit`` and ``highest_trump``) give the legal cards the published rules give; a
declaration's effect reads every name of the trick at the moment it is made; the module
compiled natively plays what CPython plays.
"""

from __future__ import annotations

import random

import pytest
from helpers import assert_native_plays_as_cpython

import interpreter
import tricklang
from interpreter import native
from interpreter.codegen import generate

ROTTERDAM = """\
tricklang 1
game "Trumps"
players 4 in partnerships 0 2, 1 3
role eldest = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
match
  at most 2 deals
deal
  deal 8 to each
  trump is hearts
  tricks 8, eldest leads first
    must follow suit
    must trump if void when highest_trump == no_card
    must overtrump if able
    may not undertrump
  for each side:
    side scores tricks(side)
"""
AMSTERDAM = ROTTERDAM.replace(
    "    must trump if void when highest_trump == no_card\n    must overtrump if able\n",
    "    must trump if void when highest_trump == no_card and winner != partner of to_play\n"
    "    must overtrump if able when led_suit == trump or winner != partner of to_play\n")
assert AMSTERDAM != ROTTERDAM
LOOK = """\
    declare look holding any, before playing it:
      declarer scores trick_number "trick number"
      declarer scores count(trick) "cards in the trick"
      if led_suit == trump:
        declarer scores 1 "trump led"
      if led_card is A:
        declarer scores 1 "an ace led"
      if winner == partner of declarer and to_play == declarer:
        declarer scores 1 "partner winning"
      if highest_trump == no_card:
        declarer scores 1 "no trump yet"
      if winning_card is hearts and trick has (9 of hearts):
        declarer scores 1 "a trump wins, the nine played"
      if the card played by partner of declarer beats led_card:
        declarer scores 1 "partner beats the lead"
      if last_trick:
        declarer scores 1 "last trick"
"""
WITH_LOOK = ROTTERDAM.replace("    may not undertrump\n", "    may not undertrump\n" + LOOK)

SUITS = "SHDC"
RANKS = "A K Q J 10 9 8 7".split()


def deck(hands: dict[int, str]) -> list[str]:
    """The pack for dealer 0: eight cards to each from the dealer's left (seats 1, 2, 3, 0)."""
    order = [card for seat in (1, 2, 3, 0) for card in hands[seat].split()]
    assert sorted(order) == sorted(r + s for s in SUITS for r in RANKS), "each card exactly once"
    return order


# Seat 1 leads spades (he holds them all); 2 and 0 are partners, as are 1 and 3.
TRUMPING = deck({1: "AS KS QS JS 10S 9S 8S 7S",
                 2: "AH 9H AD KD QD JD 10D 9D",
                 3: "KH 10H 7H AC KC QC JC 10C",
                 0: "QH JH 8H 8D 7D 9C 8C 7C"})
# As above, but seat 2 holds no trump: seat 3's partner (seat 1) wins the first trick so far.
PARTNER_WINS = deck({1: "AS KS QS JS 10S 9S 8S 7S",
                     2: "AD KD QD JD 10D 9D 8D 7D",
                     3: "KH 10H 7H AC KC QC JC 10C",
                     0: "AH QH JH 9H 8H 9C 8C 7C"})


def new(text: str, pack: list[str]) -> interpreter.State:
    return interpreter.new_game(tricklang.loads(text, path="trumps.trick"), deck=pack, dealer=0)


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def play(state: interpreter.State, *cards: str) -> interpreter.State:
    for card in cards:
        state.apply(f"play {card}")
    return state


@pytest.mark.parametrize("text", [ROTTERDAM, AMSTERDAM], ids=["rotterdam", "amsterdam"])
def test_a_player_must_overtrump_and_may_not_undertrump(text: str) -> None:
    state = play(new(text, TRUMPING), "AS")
    assert plays(state) == ["9H", "AH"]  # void, an opponent winning: he must trump
    play(state, "9H")
    assert plays(state) == ["10H", "KH"]  # he must beat the nine of trumps: not the seven
    play(state, "KH")
    # He cannot beat the king of trumps: he may not undertrump while he holds another card.
    assert plays(state) == ["7C", "7D", "8C", "8D", "9C"]
    assert "lower than the trick's highest trump" in state.why_illegal("play QH")


def test_a_player_holding_only_lower_trumps_may_undertrump() -> None:
    pack = deck({1: "AH AS KS QS JS 10S 9S 8S",
                 2: "KH 9H AD KD QD JD 10D 9D",
                 3: "QH 10H 7S AC KC QC JC 10C",
                 0: "JH 8H 7H 8D 7D 9C 8C 7C"})
    state = play(new(ROTTERDAM, pack), "AH")
    assert plays(state) == ["9H", "KH"]  # he must follow trumps and cannot beat the ace: he plays under it


def test_without_the_rule_a_player_made_to_trump_may_undertrump() -> None:
    text = ROTTERDAM.replace("    must trump if void when highest_trump == no_card\n", "    must trump if void\n")
    state = play(new(text.replace("    may not undertrump\n", ""), TRUMPING), "AS", "9H", "KH")
    assert plays(state) == ["8H", "JH", "QH"]  # must trump, cannot overtrump: any trump
    state = play(new(text, TRUMPING), "AS", "9H", "KH")
    assert plays(state) == ["8H", "JH", "QH"]  # only if able: the duty to trump left him only these


def test_amsterdam_frees_a_player_whose_partner_wins_rotterdam_does_not() -> None:
    rotterdam = play(new(ROTTERDAM, PARTNER_WINS), "AS", "7D")
    assert plays(rotterdam) == ["10H", "7H", "KH"]  # void in spades: he must trump his partner's ace
    amsterdam = play(new(AMSTERDAM, PARTNER_WINS), "AS", "7D")
    assert plays(amsterdam) == ["10C", "10H", "7H", "AC", "JC", "KC", "KH", "QC"]  # his partner wins: free
    # Once an opponent wins the trick, the Amsterdam player must overtrump as the Rotterdam one does.
    for state in (rotterdam, amsterdam):
        play(state, "KH")
        assert plays(state) == ["AH"]


def test_a_guard_on_the_suit_led_and_the_card_led() -> None:
    text = ROTTERDAM.replace("    must trump if void when highest_trump == no_card\n    must overtrump if able\n"
                             "    may not undertrump\n",
                             "    must trump if void when led_card is (A or K) and count(trick) < 3\n")
    assert text != ROTTERDAM
    state = play(new(text, TRUMPING), "AS")
    assert plays(state) == ["9H", "AH"]
    state = play(new(text, TRUMPING), "7S")
    assert plays(state) == sorted("AH 9H AD KD QD JD 10D 9D".split())  # a seven led: no duty to trump


def scored(state: interpreter.State) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in state.events(None):
        if e["type"] == "score" and e["label"] != "tricks":
            out[e["label"]] = out.get(e["label"], 0) + e["points"]
    return out


@pytest.mark.parametrize(("pack", "before", "seen"), [
    (TRUMPING, (), {"trick number": 1, "no trump yet": 1}),
    (TRUMPING, ("AS",), {"trick number": 1, "cards in the trick": 1, "an ace led": 1, "no trump yet": 1}),
    (TRUMPING, ("AS", "9H"), {"trick number": 1, "cards in the trick": 2, "an ace led": 1,
                              "a trump wins, the nine played": 1}),
    (TRUMPING, ("AS", "9H", "KH"), {"trick number": 1, "cards in the trick": 3, "an ace led": 1,
                                    "a trump wins, the nine played": 1, "partner beats the lead": 1}),
    (PARTNER_WINS, ("AS", "7D"), {"trick number": 1, "cards in the trick": 2, "an ace led": 1, "partner winning": 1,
                                  "no trump yet": 1}),
])
def test_a_declaration_reads_the_trick_as_it_stands(pack: list[str], before: tuple[str, ...],
                                                     seen: dict[str, int]) -> None:
    state = play(new(WITH_LOOK, pack), *before)
    seat = state.current_player
    state.apply("declare look")
    got = scored(state)
    assert got == seen, (seat, got)


WHO = ROTTERDAM.replace("    may not undertrump\n", """    may not undertrump
    declare who holding any, before playing it:
      if who played (A of spades) == partner of declarer:
        declarer scores 1 "partner led the ace"
      if who played winning_card == winner and who played led_card == leader:
        declarer scores 1 "consistent"
      if who played highest hearts == left of declarer:
        declarer scores 1 "the highest trump is from his left"
      if who played lowest hearts == right of declarer:
        declarer scores 1 "the lowest trump is from his right"
      if who played (7 of clubs) == nobody:
        declarer scores 1 "no seven of clubs"
""")


def test_who_played_a_card_or_the_first_highest_or_lowest_of_a_pattern() -> None:
    state = play(new(WHO, TRUMPING), "AS", "9H", "KH")
    state.apply("declare who")  # seat 0: seat 1 (his left) led the ace, 2 trumped low, 3 (his right) over
    assert scored(state) == {"consistent": 1, "no seven of clubs": 1}
    state = play(new(WHO, TRUMPING), "AS", "9H")
    state.apply("declare who")  # seat 3: his partner (seat 1) led the ace; the nine is the only trump
    assert scored(state) == {"partner led the ace": 1, "consistent": 1, "no seven of clubs": 1,
                             "the lowest trump is from his right": 1}
    state = play(new(WHO, PARTNER_WINS), "AS", "7D", "KH")
    state.apply("declare who")  # seat 0: the king of trumps is the highest and lowest trump, from his right
    assert scored(state) == {"consistent": 1, "no seven of clubs": 1, "the lowest trump is from his right": 1}


FREE = ROTTERDAM.replace("    may not undertrump\n", """    may not undertrump
    may play (J of hearts) at any time
    may play (Q of hearts or 7 of hearts) at any time when to_play == dealer and card beats led_card
""")


def test_cards_playable_at_any_time_join_the_legal_cards_and_make_nobody_able() -> None:
    state = play(new(FREE, TRUMPING), "AS", "9H")
    assert plays(state) == ["10H", "KH"]  # seat 3 is not the dealer: his seven of trumps stays out
    play(state, "KH")
    # The dealer (seat 0): the jack of trumps always, the queen of trumps as it beats the ace led; the
    # chain (no undertrumping) runs on the rest of his hand, which the two do not make able to overtrump.
    assert plays(state) == ["7C", "7D", "8C", "8D", "9C", "JH", "QH"]
    pack = deck({1: "AS KS QS JS 10S 9S 8S 7S",
                 2: "AH 9H AD KD QD JD 10D 9D",
                 3: "KH 10H 7H AC KC QC JC 10C",
                 0: "JH QH 8H 8D 7D 9C 8C 7C"})
    state = play(new(FREE.replace("when to_play == dealer and", "when"), pack), "AS", "9H", "KH")
    assert plays(state) == ["7C", "7D", "8C", "8D", "9C", "JH", "QH"]


def test_the_card_played_by_the_partner_beats_the_lead_and_the_last_trick_is_known() -> None:
    pack = deck({1: "7S KS QS JS 10S 9S 8S AS",
                 2: "AH 9H AD KD QD JD 10D 9D",
                 3: "KH 10H 7H AC KC QC JC 10C",
                 0: "QH JH 8H 8D 7D 9C 8C 7C"})
    state = play(new(WITH_LOOK.replace("tricks 8,", "tricks 2,"), pack), "7S", "9H", "KH")
    state.apply("declare look")  # seat 0: his partner (seat 2) trumped the seven led
    assert scored(state)["partner beats the lead"] == 1
    play(state, "8D")  # (seat 3 won with the king of trumps and leads the second trick, the last)
    assert state.trick_number == 2 and state.current_player == 3
    state.apply("declare look")
    assert scored(state)["last trick"] == 1


HOOKED = ROTTERDAM.replace("    may not undertrump\n", """    may not undertrump
    after each trick:
      if last_trick:
        winner scores 10 "last trick"
      if winning_card is hearts and trick_number == 1:
        winner scores 5 "first trick trumped"
      set cards = cards + count(trick)
""").replace("  trump is hearts\n", "  trump is hearts\n  let cards = 0\n").replace(
    "    side scores tricks(side)\n", "    side scores tricks(side)\n  dealer scores cards \"cards\"\n")


def test_after_each_trick_reads_the_finished_trick() -> None:
    state = play(new(HOOKED, TRUMPING), "AS", "9H", "KH", "8D")
    trick, bonus = [e for e in state.events(None) if e["type"] in ("trick", "score")]
    assert trick["winner"] == 3 and (bonus["side"], bonus["points"], bonus["label"]) == (1, 5, "first trick trumped")
    rng = random.Random(3)
    while state.deal_number == 1:
        state.apply(state.sample_action(rng))
    scores = [(e["label"], e["side"], e["points"]) for e in state.events(None) if e["type"] == "score"]
    tricks = [e for e in state.events(None) if e["type"] == "trick"]
    assert len(tricks) == 8 and ("last trick", tricks[-1]["winner"] % 2, 10) in scores
    assert scores.count(("last trick", tricks[-1]["winner"] % 2, 10)) == 1
    assert ("cards", 0, 32) in scores  # four cards read in each of the eight tricks


def test_a_file_reading_nothing_of_the_trick_gets_no_helpers() -> None:
    assert "def _tr_best(" in generate(tricklang.loads(AMSTERDAM, path="a.trick")).source
    assert "def _tr_best(" not in generate(tricklang.load("ecarte")).source  # its 'winner' is a variable


def test_random_matches_keep_the_obligations() -> None:
    rules = tricklang.loads(AMSTERDAM, path="a.trick")
    for seed in range(10):
        state = interpreter.new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            assert legal
            state.apply(legal[rng.randrange(len(legal))])
        assert sum(state.scores) == 16


# ---------------------------------------------------------------- native





@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    hooks = HOOKED.split("    may not undertrump\n")[1].split("  for each side:")[0]
    who = WHO.split("    may not undertrump\n")[1].split("  for each side:")[0]
    free = FREE.split("    may not undertrump\n")[1].split("  for each side:")[0]
    text = AMSTERDAM.replace("    may not undertrump\n", "    may not undertrump\n" + LOOK + who + free + hooks)
    rules = tricklang.loads(text.replace("  trump is hearts\n", "  trump is hearts\n  let cards = 0\n"), path="native.trick")
    assert_native_plays_as_cpython(rules, range(12), step=True)
