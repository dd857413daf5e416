"""The example games of part 1: examples/whist.trick, euchre.trick and spades.trick.

Scripted deals (prearranged packs) pin each game's scoring edge cases; property
checks play whole matches with the built-in players and compare every deal's
score with an oracle written here from the rules (the [W..], [U..], [S..] tags of
the rule files), without the interpreter's card tables. The last section holds
strict xfail tests for interpreter bugs found while writing the examples.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter import State
from interpreter.agents import HeuristicAgent, RandomAgent
from interpreter.transcript import render

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
WHIST = tricklang.load(EXAMPLES / "whist.trick")
EUCHRE = tricklang.load(EXAMPLES / "euchre.trick")
SPADES = tricklang.load(EXAMPLES / "spades.trick")

RANKS52 = "A K Q J 10 9 8 7 6 5 4 3 2".split()
ALL52 = [r + s for s in "SHDC" for r in RANKS52]
RANKS24 = "A K Q J 10 9".split()
ALL24 = [r + s for s in "SHDC" for r in RANKS24]
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
SIDE_OF = [0, 1, 0, 1]


# ---------------------------------------------------------------- helpers


def letter(state: State) -> str:
    assert state.trump is not None
    return state.trump[0].upper()


def round_robin(hands: dict[int, list[str]], dealer: int, pack: list[str] = ALL52) -> list[str]:
    """The pack in dealing order for a deal of one card at a time from the dealer's
    left [W2, S2]: each seat's list is its cards in the order it receives them."""
    size = len(hands[0])
    order = [hands[(dealer + 1 + i) % 4][r] for r in range(size) for i in range(4)]
    assert sorted(order) == sorted(pack), "each card exactly once"
    return order


def euchre_deck(hands: dict[int, list[str]], dealer: int, upcard: str) -> list[str]:
    """Three cards to each from the dealer's left, then two [U3], then the upcard;
    the kitty is what is left."""
    order = [c for i in range(4) for c in hands[(dealer + 1 + i) % 4][:3]]
    order += [c for i in range(4) for c in hands[(dealer + 1 + i) % 4][3:5]]
    order.append(upcard)
    rest = [c for c in ALL24 if c not in order]
    assert len(order) == 21 and len(rest) == 3
    return order + rest


def deal_events(state: State, deal: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    current = 0
    for e in state.events(None):
        if e["type"] == "deal":
            current = e["deal"]
        elif current == deal:
            out.append(e)
    return out


def scores_of(state: State, deal: int) -> list[tuple[int, int, str]]:
    return [(e["side"], e["points"], e["label"]) for e in deal_events(state, deal) if e["type"] == "score"]


def legal_cards(state: State) -> list[str]:
    return [a.args[0] for a in state.legal_actions() if a.verb == "play"]


def tricks_by_seat(events: Iterable[dict[str, Any]]) -> Counter[int]:
    return Counter(e["winner"] for e in events if e["type"] == "trick")


def all_cards_conserved(state: State) -> bool:
    """Every card of the pack is in exactly one zone or on the table [W1, U1, S1]."""
    core = state.core
    cards = [c for z in core.zones for c in z] + list(core.tr_cards)
    return sorted(cards) == list(range(state.program.tables.size))


# Card strength for the scripted players: (is trump, rank) with Euchre's bowers.


def effective_suit(card: str, trump: str, bowers: bool) -> str:
    if bowers and card == "J" + SAME_COLOUR[trump]:
        return trump
    return card[-1]


def power(card: str, trump: str, led: str | None, bowers: bool = False) -> int:
    ranks = RANKS24 if bowers else RANKS52
    suit = effective_suit(card, trump, bowers)
    strength = len(ranks) - ranks.index(card[:-1])
    if bowers and suit == trump:
        strength = {"J" + trump: 20, "J" + SAME_COLOUR[trump]: 19}.get(card, strength)
    if suit == trump:
        return 100 + strength
    if led is None or suit == led:
        return strength
    return 0


def play_out(state: State, strong: set[int], *, bowers: bool = False, deals: int = 1) -> None:
    """Play the card play of the current deal(s): the seats in `strong` play their
    strongest legal card, the others their weakest."""
    start = state.deal_number
    while not state.is_terminal() and state.deal_number < start + deals:
        seat = state.current_player
        assert seat is not None
        plays = [a for a in state.legal_actions() if a.verb == "play"]
        assert plays, f"expected card play, got {state.legal_actions()}"
        led = None
        if state.core.tr_cards:
            first = state.program.tables.codes[state.core.tr_cards[0]]
            led = effective_suit(first, letter(state), bowers)
        powers = [power(a.args[0], letter(state), led, bowers) for a in plays]
        pick = max if seat in strong else min
        state.apply(plays[pick(range(len(plays)), key=powers.__getitem__)])


def test_the_examples_load_without_warnings() -> None:
    for rules in (WHIST, EUCHRE, SPADES):
        assert rules.warnings == ()
        assert rules.player_count == 4
    assert len(WHIST.cards) == len(SPADES.cards) == 52 and len(EUCHRE.cards) == 24
    assert WHIST.options == {"target": 5, "honours": True}
    assert EUCHRE.options == {"target": 10, "stick_the_dealer": False, "defend_alone": False}
    assert SPADES.options["target"] == 500 and SPADES.options["failed_nil_tricks"] == "lost"


# ================================================================ whist

# Seats 0 and 2 hold most of the high cards; seats 1 and 3 hold A K Q J of hearts.
# The dealer, seat 1, is dealt JH last, so hearts are trumps.
WHIST_HANDS = {
    0: "10H 9H 8H 7H 6H AS KS QS JS AD KD QD JD".split(),
    2: "5H 4H 3H 2H AC KC QC JC 10S 9S 8S 7S 6S".split(),
    1: "AH KH QH 10C 9C 8C 7C 6C 5C 4C 3C 2C JH".split(),
    3: "10D 9D 8D 7D 6D 5D 4D 3D 2D 5S 4S 3S 2S".split(),
}


def whist_game(hands: dict[int, list[str]] = WHIST_HANDS, dealer: int = 1, seed: int = 5,
               **options: Any) -> State:
    return interpreter.new_game(WHIST, deck=round_robin(hands, dealer), dealer=dealer, seed=seed,
                                options=options)


def test_whist_deals_thirteen_one_at_a_time_and_the_dealers_last_card_is_trump() -> None:
    deck = list(ALL52)
    state = interpreter.new_game(WHIST, deck=deck, dealer=2)
    for seat in range(4):
        # one card at a time from the dealer's left [W2]
        assert sorted(state.hand(seat)) == sorted(deck[(seat - 3) % 4::4])
    assert deck[51] in state.hand(2)  # the last card falls to the dealer
    assert state.trump == "clubs" and deck[51] == "2C"  # ... and names trumps [W3]
    # It was shown to everybody, and is back in the dealer's hand.
    for seat in range(4):
        shown = [e for e in state.events(seat) if e["type"] == "move" and e["to"] == "turnup"]
        assert shown and shown[0]["cards"] == ["2C"]
    assert state.zone("turnup") == []
    assert state.current_player == 3 and state.phase == "play"  # the dealer's left leads [W4]


def test_trump_is_suit_of_hand_of_dealer_reads_the_last_card_dealt_to_him() -> None:
    """The simpler wording `trump is suit of hand of dealer` gives the same trump:
    the top of a hand is the card dealt last to it."""
    text = (EXAMPLES / "whist.trick").read_text(encoding="utf-8")
    old = ("  move 1 from hand of dealer to turnup                             [W3]\n"
           "  trump is suit of turnup                                          [W3]\n"
           "  move all from turnup to hand of dealer                           [W3]\n")
    assert old in text
    variant = tricklang.load(text.replace(old, "  trump is suit of hand of dealer\n"), path="whist-variant.trick")
    for seed in range(12):
        rng = random.Random(seed)
        deck = list(ALL52)
        rng.shuffle(deck)
        dealer = seed % 4
        state = interpreter.new_game(variant, deck=deck, dealer=dealer)
        assert letter(state) == deck[51][-1]
        assert state.program.tables.codes[state.core.zones[state.program.hand + dealer][-1]] == deck[51]
        assert letter(interpreter.new_game(WHIST, deck=deck, dealer=dealer)) == deck[51][-1]


def test_whist_odd_tricks_then_four_honours_to_the_other_side() -> None:
    state = whist_game()
    assert state.trump == "hearts"
    play_out(state, strong={0, 2})
    won = tricks_by_seat(deal_events(state, 1))
    assert won[0] + won[2] == 9 and won[1] + won[3] == 4
    # Three odd tricks to seats 0 & 2 [W6]; the four honours were dealt to seats 1 & 3 [W7].
    assert scores_of(state, 1) == [(0, 3, "odd tricks"), (1, 4, "four honours")]
    assert state.scores == [3, 4] and not state.is_terminal()


def test_whist_tricks_score_before_honours() -> None:
    """Playing to 3, seats 0 & 2 go out on their odd tricks; the other side's four
    honours (which would have taken it to 4) are never counted [W8]."""
    state = whist_game(target=3)
    play_out(state, strong={0, 2})
    assert scores_of(state, 1) == [(0, 3, "odd tricks")]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 2) and outcome.scores == (3, 0)


def test_whist_a_side_at_the_score_cannot_count_honours() -> None:
    """After the first deal seats 1 & 3 stand at 4, one short of game: in the second
    deal they hold three honours but score nothing for them [W8]."""
    state = whist_game(seed=5)
    play_out(state, strong={0, 2})
    assert state.scores == [3, 4] and state.deal_number == 2
    dealt = {e["player"]: e["cards"] for e in deal_events(state, 2) if e["type"] == "dealt"}
    t = letter(state)
    honours_b = [r + t for r in "AKQJ" if r + t in dealt[1] + dealt[3]]
    assert len(honours_b) == 3  # this seed deals them three honours
    play_out(state, strong={0, 2})
    won = tricks_by_seat(deal_events(state, 2))
    assert won[1] + won[3] <= 6
    assert all(side == 0 for side, _, _ in scores_of(state, 2))


def test_whist_three_honours_score_two() -> None:
    hands = {s: list(h) for s, h in WHIST_HANDS.items()}
    hands[1][hands[1].index("QH")] = "10H"  # seats 1 & 3 keep A K J: three honours
    hands[0][hands[0].index("10H")] = "QH"
    state = whist_game(hands)
    play_out(state, strong={0, 2})
    won = tricks_by_seat(deal_events(state, 1))
    odd = won[0] + won[2] - 6
    assert 0 < odd < 5
    assert scores_of(state, 1) == [(0, odd, "odd tricks"), (1, 2, "three honours")]


def test_whist_without_honours_only_tricks_count() -> None:
    state = whist_game(honours=False)
    play_out(state, strong={0, 2})
    assert scores_of(state, 1) == [(0, 3, "odd tricks")]


def test_whist_one_side_holding_every_trump_takes_all_thirteen_and_the_game() -> None:
    # The dealer, seat 0, holds the thirteen hearts; his last card makes them trumps.
    hands = {s: [c for c in ALL52 if c[-1] == suit] for s, suit in enumerate("HSDC")}
    state = whist_game(hands, dealer=0)
    assert state.trump == "hearts"
    play_out(state, strong={1, 2, 3})
    assert tricks_by_seat(deal_events(state, 1))[0] == 13
    assert scores_of(state, 1) == [(0, 7, "odd tricks")]  # the match is over before honours [W8]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 2) and outcome.scores == (7, 0)


# ================================================================ euchre


def euchre_game(hands: dict[int, list[str]], upcard: str, dealer: int = 3, seed: int = 1,
                **options: Any) -> State:
    return interpreter.new_game(EUCHRE, deck=euchre_deck(hands, dealer, upcard), dealer=dealer,
                                seed=seed, options=options)


def texts(state: State) -> list[str]:
    return [a.text for a in state.legal_actions()]


# Seat 0 holds the five best hearts: right and left bowers, A K Q.
LONE_HANDS = {
    0: "JH JD AH KH QH".split(),
    1: "AS KS QS JS 10S".split(),
    2: "AC KC QC JC 10C".split(),
    3: "AD KD QD 10D 9D".split(),
}


def test_euchre_deal_and_upcard() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    for seat in range(4):
        assert sorted(state.hand(seat)) == sorted(LONE_HANDS[seat])
    assert state.zone("upcard") == ["9H"] and len(state.zone("kitty")) == 3
    assert state.current_player == 0 and texts(state) == ["order_up", "decline"]  # [U4]


def test_euchre_lone_march_scores_four() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    state.apply("order_up")
    assert state.trump == "hearts" and state.current_player == 0
    assert texts(state) == ["alone", "with_partner"]
    state.apply("alone")  # [U8]
    # The dealer takes up the nine and throws a card face down [U5].
    assert state.current_player == 3 and state.phase == "discard"
    assert "9H" in state.hand(3) and len(state.hand(3)) == 6
    state.apply("discard 10D")
    assert state.hand(2) == [] and sorted(state.zone("out", 2)) == sorted(LONE_HANDS[2])
    play_out(state, strong={0}, bowers=True)
    events = deal_events(state, 1)
    assert all(len(e["cards"]) == 3 and 2 not in e["players"] for e in events if e["type"] == "trick")
    assert tricks_by_seat(events)[0] == 5
    assert scores_of(state, 1) == [(0, 4, "lone march")]  # [U11]


def test_euchre_march_with_partner_scores_two() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    state.apply("order_up")
    state.apply("with_partner")
    state.apply("discard 10D")
    play_out(state, strong={0}, bowers=True)
    assert scores_of(state, 1) == [(0, 2, "march")]


def test_euchre_three_or_four_tricks_score_one() -> None:
    hands = {
        0: "JH JD AH 9S 9C".split(),   # three sure trumps and two nines
        1: "AS KS QS AC KC".split(),
        2: "10S 10C 10D 9D QD".split(),
        3: "AD KD QC JC JS".split(),
    }
    state = euchre_game(hands, "9H")
    state.apply("order_up")
    state.apply("with_partner")
    state.apply("discard JS")
    play_out(state, strong={0, 1, 3}, bowers=True)
    won = tricks_by_seat(deal_events(state, 1))
    assert won[0] + won[2] == 4  # the 9S wins too, once seat 1 is out of spades
    assert scores_of(state, 1) == [(0, 1, "made")]


def test_euchre_the_makers_euchred() -> None:
    """Seat 1 orders the dealer's card up; seat 0 holds the five best spades."""
    hands = {
        0: "JS JC AS KS QS".split(),
        1: "AH KH QH AD KD".split(),
        2: "AC KC QC 10C 9C".split(),
        3: "JH JD 10H 9H QD".split(),
    }
    state = euchre_game(hands, "9S")
    state.apply("decline")
    state.apply("order_up")  # seat 1 makes spades
    state.apply("with_partner")
    assert state.current_player == 3  # his partner, the dealer, takes the nine
    state.apply("discard QD")
    play_out(state, strong={0}, bowers=True)
    won = tricks_by_seat(deal_events(state, 1))
    assert won[0] == 5
    assert scores_of(state, 1) == [(0, 2, "euchred")]  # the defenders score two [U11]


def test_euchre_bowers_belong_to_trumps() -> None:
    """Hearts trumps: the jack of diamonds is a heart, not a diamond [U2, U10]."""
    hands = {
        0: "AD AS KS QS JS".split(),
        1: "JD 10S 9S AC KC".split(),    # the left bower, no other heart or diamond
        2: "JH AH KH QH 10H".split(),
        3: "KD QD 10D 9D QC".split(),
    }
    state = euchre_game(hands, "9H")
    state.apply("decline")
    state.apply("decline")
    state.apply("order_up")  # seat 2
    state.apply("with_partner")
    state.apply("discard QC")
    assert state.current_player == 0
    state.apply("play AD")
    # Seat 1 is void in diamonds (his JD is a trump): he may play anything.
    assert sorted(legal_cards(state)) == sorted(hands[1])
    state.apply("play 10S")
    state.apply("play JH")   # seat 2 trumps with the right bower
    assert legal_cards(state) == ["KD", "QD", "10D", "9D"]  # the dealer follows suit
    state.apply("play KD")
    assert tricks_by_seat(deal_events(state, 1))[2] == 1
    state.apply("play AH")   # seat 2 leads a trump
    assert legal_cards(state) == ["9H"]
    state.apply("play 9H")
    assert legal_cards(state) == ["AS", "KS", "QS", "JS"]  # seat 0 has no trump
    state.apply("play JS")
    assert legal_cards(state) == ["JD"]  # seat 1 must follow with the left bower
    state.apply("play JD")
    last = [e for e in deal_events(state, 1) if e["type"] == "trick"][-1]
    assert last["winner"] == 1  # the left bower beats the ace of trumps


def test_euchre_second_round_names_another_suit() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    for _ in range(4):
        state.apply("decline")
    assert state.current_player == 0 and texts(state) == ["name_suit", "decline"]  # [U6]
    state.apply("name_suit")
    assert texts(state) == ["name spades", "name diamonds", "name clubs"]  # not hearts
    assert not state.is_legal("name hearts")
    state.apply("name diamonds")
    assert state.trump == "diamonds" and state.core.maker == 0
    state.apply("with_partner")
    # Nobody takes up the turned card in the second round.
    assert state.phase == "play" and len(state.hand(3)) == 5 and state.zone("upcard") == ["9H"]


def test_euchre_all_pass_twice_the_deal_passes() -> None:
    state = euchre_game(LONE_HANDS, "9H")
    for _ in range(8):
        state.apply("decline")
    assert any(e["type"] == "redeal" for e in state.events(None))  # [U7]
    assert state.dealer == 0 and state.deal_number == 2
    assert state.scores == [0, 0] and state.current_player == 1


def test_euchre_stick_the_dealer() -> None:
    state = euchre_game(LONE_HANDS, "9H", stick_the_dealer=True)
    for _ in range(7):
        state.apply("decline")
    assert state.current_player == 3  # the dealer may not pass [U7]
    assert texts(state) == ["name spades", "name diamonds", "name clubs"]
    state.apply("name clubs")
    assert state.trump == "clubs" and state.core.maker == 3


def test_euchre_sitting_out_dealer_does_not_take_the_card_and_the_next_player_leads() -> None:
    # Seat 1 (the dealer's partner) orders up alone: the dealer sits out.
    hands = {0: "AS KS QS JS 10S".split(), 1: "JH JD AH KH QH".split(),
             2: "AC KC QC JC 10C".split(), 3: "AD KD QD 10D 9D".split()}
    state = euchre_game(hands, "9H")
    state.apply("decline")
    state.apply("order_up")
    state.apply("alone")
    assert state.phase == "play"
    assert state.zone("upcard") == ["9H"] and state.hand(3) == [] and len(state.zone("out", 3)) == 5  # [U8]
    assert state.current_player == 0
    # The dealer's left sitting out: the player after him leads [U9].
    state2 = euchre_game(LONE_HANDS, "9S", dealer=2)  # eldest is seat 3
    state2.apply("decline")  # seat 3
    state2.apply("decline")  # seat 0
    state2.apply("order_up")  # seat 1, partner of seat 3
    state2.apply("alone")
    state2.apply("discard " + state2.hand(2)[-1])
    assert state2.hand(3) == [] and state2.current_player == 0


def test_euchre_lone_defender_euchres_for_four() -> None:
    hands = {0: "AS KS QS 10S 9S".split(), 1: "JH JD AH KH QH".split(),
             2: "AC KC QC JC 10C".split(), 3: "AD KD QD 10D JS".split()}
    state = euchre_game(hands, "9H", defend_alone=True)
    state.apply("order_up")   # seat 0, with no trump at all
    state.apply("alone")
    assert state.current_player == 1 and texts(state) == ["defend_alone", "with_partner"]  # [U13]
    state.apply("defend_alone")
    # The dealer, seat 3, sits out: he does not take up the nine.
    assert state.phase == "play" and state.zone("upcard") == ["9H"]
    assert state.hand(2) == [] and state.hand(3) == [] and len(state.zone("out", 3)) == 5
    play_out(state, strong={1}, bowers=True)
    assert tricks_by_seat(deal_events(state, 1))[1] == 5
    assert scores_of(state, 1) == [(1, 4, "euchred by a lone defender")]


# ================================================================ spades


def spades_game(hands: dict[int, list[str]], dealer: int = 0, seed: int = 3, **options: Any) -> State:
    return interpreter.new_game(SPADES, deck=round_robin(hands, dealer), dealer=dealer, seed=seed,
                                options=options)


def bid_all(state: State, bids: dict[int, int]) -> None:
    for _ in range(4):
        seat = state.current_player
        assert seat is not None and state.phase == "bidding"
        state.apply(f"bid {bids[seat]}")


# Seat 0 holds the thirteen lowest plain cards: he can never win a trick.
LOW = "2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C 6C".split()
NIL_HANDS = {
    0: LOW,
    1: [c for c in ALL52 if c[-1] == "S"],
    2: [c for c in ALL52 if c[-1] == "H" and c not in LOW] + ["6D", "7D", "8D", "9D"],
    3: [c for c in ALL52 if c[-1] in "DC" and c not in LOW and c not in ("6D", "7D", "8D", "9D")],
}

# Seat 0 holds every spade: he wins every trick.
ALL_SPADES = {
    0: [c for c in ALL52 if c[-1] == "S"],
    1: [c for c in ALL52 if c[-1] == "H"],
    2: [c for c in ALL52 if c[-1] == "D"],
    3: [c for c in ALL52 if c[-1] == "C"],
}


def test_spades_bidding_from_the_dealers_left() -> None:
    state = spades_game(NIL_HANDS)
    assert state.trump == "spades"  # [S4]
    assert state.current_player == 1 and texts(state) == [f"bid {b}" for b in range(14)]  # [S3]
    bid_all(state, {1: 5, 2: 3, 3: 4, 0: 0})
    assert [e["bid"] for e in state.events(None) if e["type"] == "bid"] == [5, 3, 4, 0]
    assert state.phase == "play" and state.current_player == 1  # [S5]


def test_spades_successful_nil() -> None:
    state = spades_game(NIL_HANDS)
    bid_all(state, {1: 5, 2: 4, 3: 3, 0: 0})
    play_out(state, strong={1, 2, 3})
    won = tricks_by_seat(deal_events(state, 1))
    assert won[0] == 0 and won[1] == 13  # seat 1 holds every spade
    # Seat 2 bid 4 and took nothing; seats 1 & 3 bid 8 and took 13; seat 0's nil
    # is scored on its own [S7, S9].
    assert scores_of(state, 1) == [(0, -40, "contract set"), (1, 85, "contract made"), (0, 100, "nil")]
    assert state.core.counters["bags"] == [0, 5]


def test_spades_failed_nil_and_its_tricks_do_not_help_the_partner() -> None:
    state = spades_game(ALL_SPADES)
    bid_all(state, {1: 1, 2: 2, 3: 1, 0: 0})
    play_out(state, strong=set())
    assert tricks_by_seat(deal_events(state, 1))[0] == 13
    # Seat 2 bid 2 and took none: set. Seat 0's thirteen tricks count for nothing [S9].
    assert scores_of(state, 1) == [(0, -20, "contract set"), (1, -20, "contract set"), (0, -100, "nil failed")]
    assert state.core.counters["bags"] == [0, 0]


def test_spades_failed_nil_variant_counts_its_tricks() -> None:
    state = spades_game(ALL_SPADES, failed_nil_tricks="counted")
    bid_all(state, {1: 1, 2: 2, 3: 1, 0: 0})
    play_out(state, strong=set())
    assert scores_of(state, 1) == [(0, 20 + 11, "contract made"), (0, -100, "bags"),
                                   (1, -20, "contract set"), (0, -100, "nil failed")]
    assert state.core.counters["bags"] == [1, 0]


def test_spades_ten_bags_cost_a_hundred() -> None:
    state = spades_game(ALL_SPADES)
    bid_all(state, {1: 0, 2: 1, 3: 0, 0: 2})
    play_out(state, strong=set())
    # Thirteen tricks on a bid of three: 30 + 10 overtricks, which are ten bags [S7, S8].
    assert scores_of(state, 1) == [(0, 40, "contract made"), (0, -100, "bags"),
                                   (1, 100, "nil"), (1, 100, "nil")]
    assert state.core.counters["bags"] == [0, 0]
    counters = [e for e in deal_events(state, 1) if e["type"] == "counter"]
    assert [(e["change"], e["value"]) for e in counters] == [(10, 10), (-10, 0)]


def test_spades_bags_carry_over_past_the_penalty() -> None:
    state = spades_game(ALL_SPADES)
    bid_all(state, {1: 2, 2: 1, 3: 2, 0: 1})
    play_out(state, strong=set())
    # Two bid, thirteen taken: eleven bags, one left after the penalty [S8].
    assert scores_of(state, 1) == [(0, 31, "contract made"), (0, -100, "bags"), (1, -40, "contract set")]
    assert state.core.counters["bags"] == [1, 0]


def test_spades_bags_past_twice_the_limit_cost_two_penalties() -> None:
    state = spades_game(ALL_SPADES, bag_limit=5)
    bid_all(state, {1: 2, 2: 1, 3: 2, 0: 1})
    play_out(state, strong=set())
    assert scores_of(state, 1) == [(0, 31, "contract made"), (0, -100, "bags"), (0, -100, "bags"),
                                   (1, -40, "contract set")]
    assert state.core.counters["bags"] == [1, 0]


def test_spades_may_not_be_led_until_broken() -> None:
    hands = {
        0: "AS KS QS JS 10S 9S 8S AH KH QH JH 10H 9H".split(),
        1: "7S 6S 5S 4S 3S 2S AD KD QD JD 10D 9D 8D".split(),
        2: "8H 7H 6H 5H 4H 3H 2H 7D 6D 5D 4D 3D 2D".split(),
        3: [c for c in ALL52 if c[-1] == "C"],
    }
    state = spades_game(hands, dealer=3)  # seat 0 leads
    bid_all(state, {0: 7, 1: 1, 2: 1, 3: 1})
    assert legal_cards(state) == ["AH", "KH", "QH", "JH", "10H", "9H"]  # [S6]
    assert not state.is_legal("play AS")
    state.apply("play AH")
    assert legal_cards(state) == hands[1]  # void in hearts: anything
    state.apply("play 2S")   # seat 1 trumps: spades are broken
    state.apply("play 2H")
    state.apply("play 2C")
    assert state.current_player == 1
    assert len(legal_cards(state)) == 12  # now he may lead a spade
    state.apply("play 3S")
    state.apply("play 3H")
    state.apply("play 3C")
    state.apply("play 8S")
    assert state.current_player == 0 and "AS" in legal_cards(state)
    # A leader holding nothing but spades may lead one at once.
    state2 = spades_game(ALL_SPADES, dealer=3)
    bid_all(state2, {0: 13, 1: 0, 2: 0, 3: 0})
    assert len(legal_cards(state2)) == 13


def test_spades_two_of_clubs_variant() -> None:
    state = spades_game(NIL_HANDS, first_lead="two_of_clubs")
    bid_all(state, {1: 5, 2: 4, 3: 3, 0: 0})
    assert state.current_player == 0 and legal_cards(state) == ["2C"]  # [S11]


def test_spades_blind_nil() -> None:
    """Seats 1 & 3 lose 260 in the first deal; in the second each of them may bid
    blind nil before seeing his cards, and exchanges two cards with his partner."""
    weak = {0: ALL_SPADES[0], 1: ALL_SPADES[1], 2: ALL_SPADES[2], 3: ALL_SPADES[3]}
    state = spades_game(weak, dealer=3, blind_nil=True)
    assert state.phase == "bidding"  # level scores: nobody may bid blind
    bid_all(state, {0: 13, 1: 13, 2: 0, 3: 13})
    play_out(state, strong=set())
    assert state.scores == [130 + 100, -260]
    assert state.deal_number == 2 and state.dealer == 0
    # Before the deal: seat 1 (behind) chooses; seat 2 is not asked; seat 3 chooses.
    assert state.current_player == 1 and texts(state) == ["look", "blind_nil"]
    assert state.hand(1) == []  # he has not seen a card
    state.apply("blind_nil")
    assert state.current_player == 3
    state.apply("look")
    assert state.current_player == 1 and texts(state) == ["bid 0"]  # [S12]
    state.apply("bid 0")
    for _ in range(3):
        state.apply("bid 3")
    # The exchange: seat 3 gives two, then seat 1 gives two back.
    assert state.current_player == 3 and state.phase == "discard"
    given = state.legal_actions()[0]
    state.apply(given)
    assert state.current_player == 1 and len(state.hand(1)) == 15
    assert all(c in state.hand(1) for c in given.args)
    back = state.legal_actions()[-1]
    state.apply(back)
    assert all(len(state.hand(s)) == 13 for s in range(4)) and state.phase == "play"
    play_out(state, strong={0, 2, 3})
    won = tricks_by_seat(deal_events(state, 2))
    blind = [e for e in scores_of(state, 2) if e[2].startswith("blind nil")]
    assert blind == ([(1, 200, "blind nil")] if won[1] == 0 else [(1, -200, "blind nil failed")])


# ================================================================ whole matches: oracles


def whist_expected(events: list[dict[str, Any]], start: list[int], target: int, honours: bool) -> list[tuple[int, int, str]]:
    dealt = {e["player"]: e["cards"] for e in events if e["type"] == "dealt"}
    trump = next(e["suit"] for e in events if e["type"] == "trump")[0].upper()
    won = tricks_by_seat(events)
    scores = list(start)
    out: list[tuple[int, int, str]] = []

    def add(side: int, points: int, label: str) -> bool:
        out.append((side, points, label))
        scores[side] += points
        return scores[side] >= target

    for side in (0, 1):
        taken = won[side] + won[side + 2]
        if taken > 6 and add(side, taken - 6, "odd tricks"):  # [W6, W8]
            return out
    if honours:
        for side in (0, 1):
            held = sum(1 for r in "AKQJ" if r + trump in dealt[side] + dealt[side + 2])
            if start[side] < target - 1:  # [W8]
                if held == 4 and add(side, 4, "four honours"):
                    return out
                if held == 3 and add(side, 2, "three honours"):
                    return out
    return out


def deals_of(state: State) -> list[tuple[int, list[dict[str, Any]], list[int]]]:
    """(deal number, its events, the scores when it began) for every deal played."""
    out = []
    scores = [0] * len(state.sides)
    number = 0
    current: list[dict[str, Any]] = []
    begun = list(scores)
    for e in state.events(None):
        if e["type"] == "deal":
            if number:
                out.append((number, current, begun))
            number, current, begun = e["deal"], [], list(scores)
        else:
            current.append(e)
            if e["type"] == "score":
                scores = list(e["scores"])
    out.append((number, current, begun))
    return out


def check_conserved_play(state: State, agents: list[Any], max_actions: int = 200_000) -> None:
    for _ in range(max_actions):
        if state.is_terminal():
            return
        state.apply_unchecked(agents[state.current_player](state))  # type: ignore[index]
        assert all_cards_conserved(state)
    raise AssertionError("the match did not end")


def players(kind: str, seed: int) -> list[Any]:
    if kind == "random":
        return [RandomAgent(seed * 10 + s) for s in range(4)]
    if kind == "heuristic":
        return [HeuristicAgent(seed * 10 + s) for s in range(4)]
    return [HeuristicAgent(seed * 10 + s) if s % 2 == 0 else RandomAgent(seed * 10 + s) for s in range(4)]


def check_winner(state: State, target: int, max_deals: int) -> None:
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None, "the match ended without a winner"
    assert outcome.deals <= max_deals
    assert state.scores[outcome.winner] >= target
    assert state.scores[outcome.winner] > state.scores[1 - outcome.winner]


@pytest.mark.parametrize("kind", ["random", "heuristic", "mixed"])
@pytest.mark.parametrize("options", [{}, {"target": 7, "honours": False}])
def test_whist_matches_follow_the_oracle(kind: str, options: dict[str, Any]) -> None:
    for seed in range(6):
        state = interpreter.new_game(WHIST, seed=seed, options=options)
        check_conserved_play(state, players(kind, seed))
        target, honours = int(options.get("target", 5)), bool(options.get("honours", True))
        for number, events, start in deals_of(state):
            assert [(e["side"], e["points"], e["label"]) for e in events if e["type"] == "score"] == \
                whist_expected(events, start, target, honours), number
            # The trump is the suit of the card dealt last to the dealer [W3].
            dealer = (next(e for e in state.events(None) if e["type"] == "deal" and e["deal"] == number))["dealer"]
            last = next(e for e in events if e["type"] == "dealt" and e["player"] == dealer)["cards"][-1]
            assert next(e for e in events if e["type"] == "trump")["suit"][0].upper() == last[-1]
        check_winner(state, target, 40)


def euchre_expected(events: list[dict[str, Any]]) -> list[tuple[int, int, str]]:
    if any(e["type"] == "redeal" for e in events):
        return []
    maker = [e for e in events if e["type"] in ("contract", "maker")][-1]["maker"]
    choices = {(e["player"], e["choice"]) for e in events if e["type"] == "choice"}
    lone = (maker, "alone") in choices
    lone_defender = any(c == "defend_alone" for _, c in choices)
    won = tricks_by_seat(events)
    makers = SIDE_OF[maker]
    taken = won[makers] + won[makers + 2]
    if taken == 5:
        return [(makers, 4, "lone march")] if lone else [(makers, 2, "march")]
    if taken >= 3:
        return [(makers, 1, "made")]
    if lone_defender:
        return [(1 - makers, 4, "euchred by a lone defender")]
    return [(1 - makers, 2, "euchred")]


@pytest.mark.parametrize("kind", ["random", "heuristic", "mixed"])
@pytest.mark.parametrize("options", [{}, {"stick_the_dealer": True, "defend_alone": True}])
def test_euchre_matches_follow_the_oracle(kind: str, options: dict[str, Any]) -> None:
    for seed in range(6):
        state = interpreter.new_game(EUCHRE, seed=seed, options=options)
        check_conserved_play(state, players(kind, seed))
        for number, events, _ in deals_of(state):
            assert [(e["side"], e["points"], e["label"]) for e in events if e["type"] == "score"] == \
                euchre_expected(events), number
            sitting = {e["from"].split()[-1] for e in events if e["type"] == "move" and e["to"].startswith("out")}
            for e in events:
                if e["type"] == "trick":
                    assert len(e["cards"]) == 4 - len(sitting)
                    assert not sitting & {str(p) for p in e["players"]}
            if options.get("stick_the_dealer"):
                assert not any(e["type"] == "redeal" for e in events)
        check_winner(state, 10, 60)


class SpadesBidder:
    """Bids a rough count of sure tricks (aces, kings, long spades); plays as the
    heuristic player. The built-in players bid at random here, so their matches
    rarely end (see the report)."""

    def __init__(self, seed: int, nil_rate: float = 0.15) -> None:
        self.play = HeuristicAgent(seed)
        self.rng = random.Random(seed)
        self.nil_rate = nil_rate

    def __call__(self, state: State) -> Any:
        legal = state.legal_actions()
        if legal and all(a.verb == "bid" for a in legal):
            hand = state.hand(state.current_player)  # type: ignore[arg-type]
            spades = [c for c in hand if c[-1] == "S"]
            guess = sum(1 for c in hand if c[:-1] in ("A", "K") and c[-1] != "S")
            guess += sum(1 for c in spades if c[:-1] in ("A", "K", "Q")) + max(0, len(spades) - 4)
            if guess <= 1 and self.rng.random() < self.nil_rate:
                guess = 0
            else:
                guess = max(1, guess)
            return min(legal, key=lambda a: abs(int(a.args[0]) - guess))
        return self.play(state)


def spades_expected(events: list[dict[str, Any]], dealer: int, bags: list[int], options: dict[str, Any]) -> list[tuple[int, int, str]]:
    bids = {e["player"]: e["bid"] for e in events if e["type"] == "bid"}
    won = tricks_by_seat(events)
    out: list[tuple[int, int, str]] = []
    for side in (0, 1):
        seats = (side, side + 2)
        contract = sum(bids[s] for s in seats)
        made = sum(won[s] for s in seats if bids[s] > 0 or options["failed_nil_tricks"] == "counted")
        if contract > 0 or made > 0:
            if made >= contract:
                out.append((side, 10 * contract + made - contract, "contract made"))  # [S7]
                bags[side] += made - contract  # [S8]
            else:
                out.append((side, -10 * contract, "contract set"))
        while bags[side] >= 10:
            out.append((side, -100, "bags"))
            bags[side] -= 10
    for i in range(4):
        p = (dealer + 1 + i) % 4
        if bids[p] == 0:
            out.append((SIDE_OF[p], 100 if won[p] == 0 else -100, "nil" if won[p] == 0 else "nil failed"))  # [S9]
    return [e for e in out if e[1] != 0]


@pytest.mark.parametrize("options", [{}, {"failed_nil_tricks": "counted", "first_lead": "two_of_clubs"}])
def test_spades_matches_follow_the_oracle(options: dict[str, Any]) -> None:
    rules = SPADES.with_options(options)
    for seed in range(5):
        state = interpreter.new_game(SPADES, seed=seed, options=options)
        check_conserved_play(state, [SpadesBidder(seed * 10 + s) for s in range(4)])
        bags = [0, 0]
        for number, events, _ in deals_of(state):
            dealer = next(e for e in state.events(None) if e["type"] == "deal" and e["deal"] == number)["dealer"]
            assert [(e["side"], e["points"], e["label"]) for e in events if e["type"] == "score"] == \
                spades_expected(events, dealer, bags, rules.options), number
            for e in events:
                if e["type"] == "trick" and e["trick"] == 1 and options.get("first_lead"):
                    assert "2C" == e["cards"][0]
        assert state.core.counters["bags"] == bags
        check_winner(state, 500, 100)


def test_spades_with_the_built_in_players_cards_are_conserved() -> None:
    """Twenty deals (or the whole match) with the built-in players: the cards and the bags."""
    state = interpreter.new_game(SPADES, seed=4, options={"blind_nil": True})
    agents = players("mixed", 4)
    while state.deal_number <= 20 and not state.is_terminal():
        state.apply_unchecked(agents[state.current_player](state))  # type: ignore[index]
        assert all_cards_conserved(state)
        assert 0 <= min(state.core.counters["bags"]) and max(state.core.counters["bags"]) < 10


@pytest.mark.parametrize("rules", [WHIST, EUCHRE, SPADES], ids=["whist", "euchre", "spades"])
def test_json_round_trip_replays_the_same_game(rules: tricklang.Ruleset) -> None:
    state = interpreter.new_game(rules, seed=9)
    agents = [SpadesBidder(s) for s in range(4)] if rules is SPADES else players("mixed", 9)
    for _ in range(400):
        if state.is_terminal():
            break
        state.apply_unchecked(agents[state.current_player](state))  # type: ignore[index]
    again = State.from_json(state.to_json())
    assert again == state and render(again) == render(state)


# ================================================================ regressions for interpreter bugs found here


def test_transcript_renders_counter_events_in_words() -> None:
    state = spades_game(ALL_SPADES)
    bid_all(state, {1: 0, 2: 1, 3: 0, 0: 2})
    play_out(state, strong=set())
    assert "{'type'" not in render(state)


TWO_PLAYS = """tricklang 1
game "Two plays"
players 2
deck
  suits spades black, hearts red, clubs black
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  first dealer is 0
  game to 100, after the deal
deal
  deal 4 to each
  trump is none
  tricks 1, left of dealer leads first
    may not lead spades until broken
  tricks 3, left of dealer leads first
    may not lead clubs until broken
"""


def test_a_suit_broken_in_one_tricks_statement_does_not_break_another_suit_later() -> None:
    rules = tricklang.load(TWO_PLAYS, path="two-plays.trick")
    # Seat 1 leads AH; seat 0, void in hearts, throws AS: spades are broken, clubs are not.
    state = interpreter.new_game(rules, deck=["AH", "KH", "AC", "KC", "AS", "KS", "QS", "JS",
                                              "QH", "JH", "QC", "JC"], dealer=0)
    state.apply("play AH")
    state.apply("play AS")
    assert state.current_player == 1
    assert legal_cards(state) == ["KH"]  # no club has been played: clubs may not be led


def test_heuristic_bids_by_its_hand_in_per_player_bidding() -> None:
    for seed in range(20):
        state = spades_game(ALL_SPADES, dealer=3)  # seat 0, holding every spade, bids first
        assert state.current_player == 0
        action = HeuristicAgent(seed)(state)
        assert int(action.args[0]) >= 10


def test_explain_describes_the_statements_inside_phases() -> None:
    from tricklang.explain import explain

    text = explain(EUCHRE)
    assert "order_up" in text  # the first round of making, inside `phase making:`
