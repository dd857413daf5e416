"""The laws of irregularities of Écarté (rules/ecarte.trick, last section), in table mode.

Each test lays out a prearranged deal (seat 0 deals, seat 1 is the elder), brings
about the moment a law speaks of, performs the irregular action and checks the exact
consequence: who scores what under which label, who loses which right, whether the
deal goes on, ends or is dealt again (deal number, dealer), and that nothing else
changed (the 32 cards all accounted for, the innocent player's score untouched).
Laws are numbered as in rules/laws.md, which maps each law
to its irregularity and its test here.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import (
    cards_everywhere,
    legal,
    mark,
    offered,
    offered_with_arguments,
    regular,
    scores_since,
    tricks_of_deal,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import IllegalActionError, State

ROOT = Path(__file__).resolve().parents[2]
RULES_PATH = ROOT / "rules" / "ecarte.trick"
LAWS_MD = ROOT / "rules" / "laws.md"
RULES = tricklang.load(RULES_PATH)
PACK = RULES.cards

DEALER, ELDER = 0, 1

# Hands used by most tests: trumps are hearts (7H turned), the stock starts 9D 8D 7D.
ELDER_HAND = ["QS", "JS", "AS", "8C", "7C"]
ELDER_WITH_KING = ["KH", "QS", "JS", "8C", "7C"]
DEALER_HAND = ["QH", "JH", "KC", "QC", "JC"]
DEALER_WITH_KING = ["KH", "QH", "JH", "KC", "QC"]
STOCK_TOP = ["9D", "8D", "7D"]

FAST = settings(max_examples=30, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ helpers


def deck(elder: list[str], dealer: list[str], turnup: str, stock: list[str] | None = None) -> list[str]:
    """The dealing order for the given hands (3 then 2 cards each, elder first, E5),
    the turn-up (E6) and the top of the stock; the other cards follow in pack order."""
    top = STOCK_TOP if stock is None else stock
    fixed = elder[:3] + dealer[:3] + elder[3:] + dealer[3:] + [turnup] + top
    assert len(set(fixed)) == len(fixed)
    return fixed + [c for c in PACK if c not in fixed]


def game(elder: list[str] | None = None, dealer: list[str] | None = None, turnup: str = "7H",
         stock: list[str] | None = None, seed: int = 1, at_deal: bool = False, **options: Any) -> State:
    """A table-mode game of the given first deal, at the elder's first decision (after the
    turn-up), or with ``at_deal`` at the referee's pause before the turn-up."""
    order = deck(elder or ELDER_HAND, dealer or DEALER_HAND, turnup, stock)
    state = interpreter.new_game(RULES, seed=seed, deck=order, dealer=DEALER, mode="table", options=options)
    assert state.phase == "deal" and state.current_player == DEALER and regular(state) == ["continue"]
    if not at_deal:
        state.apply("continue")
    return state








def codes_everywhere(state: State) -> list[str]:
    """Every card of every zone plus the cards of the trick in progress."""
    return sorted(cards_everywhere(state))


def assert_all_cards_accounted(state: State) -> None:
    assert sorted(codes_everywhere(state)) == sorted(PACK)






def final(state: State) -> list[int]:
    """The match score when the last deal ended or was abandoned (before the next
    deal's own turned-up king, which is random)."""
    done = [e for e in state.events(None) if e["type"] in ("deal_end", "redeal")]
    return list(done[-1]["scores"])


def exchange(state: State, elder_discard: str = "7C", dealer_discard: str = "none") -> None:
    """One proposal accepted: the elder discards, then the dealer (E22-E25)."""
    state.apply("propose")
    state.apply("accept")
    state.apply("discard " + elder_discard)
    if state.current_player == DEALER and state.phase == "discard":
        state.apply("discard " + dealer_discard)


def play_out_deal(state: State) -> None:
    """Play the first legal card until the deal is over (no declarations)."""
    deal = state.deal_number
    while not state.is_terminal() and state.deal_number == deal:
        moves = [a for a in regular(state) if a.startswith("play ")] or regular(state)
        state.apply(moves[0])




# ------------------------------------------------------------------ E8-E15: the deal


def test_e8_wrong_count_before_turnup_dealer_corrects_or_new_deal() -> None:
    state = game(turnup="KH", at_deal=True)  # the king is the eleventh card, not yet turned
    assert state.zone("turnup") == [] and state.trump is None and state.scores == [0, 0] and len(state.hand(ELDER)) == 5
    hands = (state.hand(0), state.hand(1))
    assert "wrong_count_before_turnup 0" in offered(state)
    state.apply("irregular wrong_count_before_turnup 0")
    assert state.current_player == ELDER and regular(state) == ["correct", "new_deal"]
    again = state.clone()

    state.apply("correct")  # the engine's deal is the corrected one: nothing changes
    assert (state.hand(0), state.hand(1)) == hands and state.phase == "deal" and regular(state) == ["continue"]
    state.apply("continue")  # now the trump is turned: the dealer's king (E16)
    assert state.scores == [1, 0] and state.deal_number == 1 and regular(state) == ["stand", "propose"]

    again.apply("new_deal")  # default: the deal passes (misdeal_effect); no king was ever turned
    assert again.deal_number == 2 and again.dealer == ELDER and final(again) == [0, 0]
    assert again.phase == "deal" and again.current_player == ELDER  # the new dealer's deal, before its turn-up
    assert_all_cards_accounted(again)

    same = game(turnup="KH", misdeal_effect="same_dealer", at_deal=True)
    same.apply("irregular wrong_count_before_turnup 0")
    same.apply("new_deal")
    assert same.deal_number == 2 and same.dealer == DEALER and final(same) == [0, 0]


BEFORE_TURNUP = {"wrong_count_before_turnup 0", "faced_card_in_pack 0", "dealer_exposed_elders_card 0",
                 "deal_out_of_turn 1"}


def test_e8_e12_e13_are_recorded_before_the_turn_up_and_e9_e11_after_it() -> None:
    state = game(at_deal=True)
    after = {"dealer_short_after_deal 0", "dealer_long_after_deal 0", "elder_short_after_deal 0",
             "elder_long_after_deal 0", "two_cards_turned_up 0", "two_cards_turned_up_hand_seen 0",
             "deal_out_of_turn_stands 1"}
    assert offered(state) == BEFORE_TURNUP | {"imperfect_pack 0"}  # E15 at any moment
    state.apply("continue")
    assert after <= offered(state) and not BEFORE_TURNUP & offered(state)
    exchange(state)
    assert state.phase == "choice" and not (BEFORE_TURNUP | after) & offered(state)


def test_the_pause_before_the_turn_up_is_table_mode_only() -> None:
    order = deck(ELDER_HAND, DEALER_HAND, "KH")
    strict = interpreter.new_game(RULES, seed=1, deck=order, dealer=DEALER)
    table = game(turnup="KH")
    assert strict.phase == "choice" and strict.actions == [] and strict.scores == [1, 0]
    assert list(table.actions) == ["continue"] and table.actors.tolist() == [DEALER]
    assert [e for e in table.events(None) if e["type"] != "irregularity"] == strict.events(None)


def test_e9_dealer_short_fills_from_the_stock_or_loses_the_deal() -> None:
    state = game()
    state.apply("irregular dealer_short_after_deal 0 1")
    # His missing card (the last dealt to him) is still on top of the stock.
    assert state.hand(DEALER) == ["QH", "JH", "KC", "QC"] and state.zone("stock")[-1] == "JC"
    assert regular(state) == ["fill", "new_deal"]
    lost = state.clone()
    state.apply("fill")
    assert sorted(state.hand(DEALER)) == sorted(DEALER_HAND) and len(state.zone("stock")) == 21
    assert state.scores == [0, 0] and state.deal_number == 1 and state.current_player == ELDER
    lost.apply("new_deal")
    assert lost.deal_number == 2 and lost.dealer == ELDER and final(lost) == [0, 0]
    assert_all_cards_accounted(state)
    assert_all_cards_accounted(lost)


def test_e9_dealer_long_the_elder_draws_one_at_random_or_the_deal_is_lost() -> None:
    state = game()
    state.apply("irregular dealer_long_after_deal 0 1")
    assert len(state.hand(DEALER)) == 6 and "9D" in state.hand(DEALER)
    assert regular(state) == ["draw", "new_deal"]
    six = set(state.hand(DEALER))
    lost = state.clone()
    state.apply("draw")
    drawn = state.zone("discards", DEALER)
    assert len(state.hand(DEALER)) == 5 and len(drawn) == 1
    assert set(state.hand(DEALER)) | set(drawn) == six
    assert sorted(state.hand(ELDER)) == sorted(ELDER_HAND)
    assert state.scores == [0, 0] and state.deal_number == 1
    lost.apply("new_deal")
    assert lost.deal_number == 2 and lost.dealer == ELDER
    assert_all_cards_accounted(state)


def test_e9_elder_short_fills_from_the_stock_or_claims_the_deal() -> None:
    state = game()
    state.apply("irregular elder_short_after_deal 0 1")
    assert len(state.hand(ELDER)) == 4 and state.zone("stock")[-1] == "7C"
    assert regular(state) == ["fill", "claim_deal"]
    claim = state.clone()
    state.apply("fill")
    assert sorted(state.hand(ELDER)) == sorted(ELDER_HAND) and state.deal_number == 1
    assert regular(state) == ["stand", "propose"]
    claim.apply("claim_deal")  # the elder deals the next deal
    assert claim.deal_number == 2 and claim.dealer == ELDER and final(claim) == [0, 0]


def test_e9_elder_long_discards_the_surplus_or_claims_the_deal() -> None:
    state = game()
    state.apply("irregular elder_long_after_deal 0 1")
    assert len(state.hand(ELDER)) == 6 and "9D" in state.hand(ELDER)
    assert regular(state) == ["discard", "claim_deal"]
    claim = state.clone()
    state.apply("discard")
    assert state.current_player == ELDER and state.phase == "discard"
    assert len(regular(state)) == 6  # exactly one of his six cards (only E15, `during any`, meanwhile)
    assert offered(state) == {"imperfect_pack 0"}
    state.apply("discard 9D")
    assert sorted(state.hand(ELDER)) == sorted(ELDER_HAND) and state.zone("discards", ELDER) == ["9D"]
    assert regular(state) == ["stand", "propose"] and state.scores == [0, 0]
    claim.apply("claim_deal")
    assert claim.deal_number == 2 and claim.dealer == ELDER
    assert_all_cards_accounted(state)


def test_e9_misdeal_by_the_same_dealer_under_the_option() -> None:
    state = game(misdeal_effect="same_dealer")
    state.apply("irregular elder_long_after_deal 0 1")
    state.apply("claim_deal")
    assert state.deal_number == 2 and state.dealer == DEALER


@pytest.mark.parametrize(("name", "keep"), [
    ("dealer_short_after_deal", "fill"), ("dealer_long_after_deal", "draw"),
    ("elder_short_after_deal", "fill"), ("elder_long_after_deal", "discard"),
])
def test_e14_a_king_turned_on_a_faulty_deal_does_not_count(name: str, keep: str) -> None:
    state = game(turnup="KH")
    assert state.scores == [1, 0]
    since = mark(state)
    state.apply(f"irregular {name} 0 1")
    state.apply(keep)
    if keep == "discard":
        state.apply("discard 9D")
    assert scores_since(state, since) == [(DEALER, -1, "king turned up cancelled")]
    assert state.scores == [0, 0] and state.deal_number == 1 and state.trump == "hearts"


def test_e10_elder_miscount_under_maxwell_loses_the_point_and_the_king() -> None:
    state = game(elder=ELDER_WITH_KING, elder_miscount="elder_loses_point")
    assert "elder_miscounted_exchange 1" not in offered(state)  # not before he has exchanged
    exchange(state)
    assert "elder_miscounted_exchange 1" in offered(state)
    assert not {"elder_asked_too_many 1", "elder_asked_too_few 1"} & offered(state)
    state.apply("stand")
    state.apply("declare king")  # E17: +1 to the elder
    assert state.scores == [0, 1]
    since = mark(state)
    state.apply("irregular elder_miscounted_exchange 1")
    assert scores_since(state, since) == [(ELDER, -1, "king cancelled"), (DEALER, 1, "elder's miscount")]
    assert final(state) == [1, 0] and state.deal_number == 2 and state.dealer == ELDER
    assert_all_cards_accounted(state)
    # Under the default option the law is Foster's (E37, E38), not Maxwell's.
    default = game()
    exchange(default)
    assert "elder_miscounted_exchange 1" not in offered(default)


def test_e11_two_cards_turned_the_elder_keeps_the_first_as_trump() -> None:
    state = game(stock=["KD", "8D", "7D"])
    state.apply("irregular two_cards_turned_up 0")
    assert state.zone("turnup") == ["7H", "KD"]
    assert regular(state) == ["first_card", "second_card", "new_deal"]
    state.apply("first_card")
    assert state.zone("turnup") == ["7H"] and state.trump == "hearts"
    assert state.zone("discards", DEALER) == ["KD"] and len(state.zone("stock")) == 20
    assert state.scores == [0, 0] and regular(state) == ["stand", "propose"]
    assert_all_cards_accounted(state)


def test_e11_two_cards_turned_the_elder_takes_the_second_as_trump() -> None:
    state = game(stock=["KD", "8D", "7D"])
    since = mark(state)
    state.apply("irregular two_cards_turned_up 0")
    state.apply("second_card")
    assert state.zone("turnup") == ["KD"] and state.trump == "diamonds"
    assert state.zone("discards", DEALER) == ["7H"]
    # The second card is a king: it counts as turned up (E16).
    assert scores_since(state, since) == [(DEALER, 1, "king turned up")]
    # A turned-up king that is not chosen no longer counts.
    other = game(turnup="KH")
    since = mark(other)
    other.apply("irregular two_cards_turned_up 0")
    other.apply("second_card")
    assert other.trump == "diamonds" and other.scores == [0, 0]
    assert scores_since(other, since) == [(DEALER, -1, "king turned up cancelled")]
    assert_all_cards_accounted(other)


def test_e11_two_cards_turned_new_deal_by_the_same_dealer() -> None:
    state = game(turnup="KH")
    state.apply("irregular two_cards_turned_up 0")
    state.apply("new_deal")
    assert state.deal_number == 2 and state.dealer == DEALER and final(state) == [0, 0]


def test_e11_two_cards_turned_after_the_elder_looked() -> None:
    state = game()
    state.apply("irregular two_cards_turned_up_hand_seen 0")
    assert regular(state) == ["proper_card", "new_deal"]
    misdeal = state.clone()
    state.apply("proper_card")
    assert state.zone("turnup") == ["7H"] and state.zone("discards", DEALER) == ["9D"]
    assert state.trump == "hearts" and state.deal_number == 1
    misdeal.apply("new_deal")
    assert misdeal.deal_number == 2 and misdeal.dealer == DEALER
    # Club Code: the new deal is compulsory.
    club = game(multi_turnup_remedy="club_code")
    club.apply("irregular two_cards_turned_up_hand_seen 0")
    assert club.deal_number == 2 and club.dealer == DEALER and regular(club) == ["continue"]  # the new deal's pause


def test_e11_maxwells_remedies_for_two_cards_turned() -> None:
    """Maxwell's law 13 (option value `maxwell`): the proper card, or the cards seen put
    under the stock with a new cut and a new turn-up, or a new deal."""
    state = game(multi_turnup_remedy="maxwell")
    stock = list(state.zone("stock"))
    state.apply("irregular two_cards_turned_up_hand_seen 0")
    assert regular(state) == ["proper_card", "bottom_and_cut", "new_deal"]
    cut, misdeal = state.clone(), state.clone()
    state.apply("proper_card")
    assert state.zone("turnup") == ["7H"] and state.trump == "hearts"
    assert state.zone("stock")[0] == "9D" and len(state.zone("stock")) == len(stock)  # the other card went under
    cut.apply("bottom_and_cut")
    seen = {"7H", "9D"}
    assert [e["type"] for e in cut.events(None)].count("cut") == 1
    assert len(cut.zone("turnup")) == 1 and len(cut.zone("stock")) == len(stock) - 1 + 1
    assert sorted(cut.zone("stock") + cut.zone("turnup")) == sorted(stock[:-1] + list(seen))
    assert cut.trump is not None and cut.trump[0].upper() == cut.zone("turnup")[0][-1]
    assert cut.deal_number == 1 and regular(cut) == ["stand", "propose"]
    assert_all_cards_accounted(cut)
    misdeal.apply("new_deal")
    assert misdeal.deal_number == 2


def test_e11_under_maxwell_the_hand_unseen_has_the_same_three_remedies() -> None:
    """Maxwell's law 13 does not ask whether the elder has seen his hand: under the
    option, two cards turned before he looked never make the twelfth card trump."""
    state = game(stock=["KD", "8D", "7D"], multi_turnup_remedy="maxwell")
    stock = list(state.zone("stock"))
    since = mark(state)
    state.apply("irregular two_cards_turned_up 0")
    assert state.zone("turnup") == ["7H", "KD"]
    assert regular(state) == ["proper_card", "bottom_and_cut", "new_deal"]
    assert not state.is_legal("second_card")
    cut, misdeal = state.clone(), state.clone()
    state.apply("proper_card")
    # The proper card stays trump; the king seen by mistake goes under the stock and scores nothing.
    assert state.zone("turnup") == ["7H"] and state.trump == "hearts"
    assert state.zone("stock")[0] == "KD" and len(state.zone("stock")) == len(stock)
    assert state.zone("discards", DEALER) == [] and scores_since(state, since) == []
    assert regular(state) == ["stand", "propose"]
    assert_all_cards_accounted(state)
    cut.apply("bottom_and_cut")
    assert [e["type"] for e in cut.events(None)].count("cut") == 1
    assert sorted(cut.zone("stock") + cut.zone("turnup")) == sorted(stock[:-1] + ["7H", "KD"])
    assert cut.trump is not None and cut.trump[0].upper() == cut.zone("turnup")[0][-1]
    assert cut.deal_number == 1 and regular(cut) == ["stand", "propose"]
    assert_all_cards_accounted(cut)
    misdeal.apply("new_deal")
    assert misdeal.deal_number == 2 and misdeal.dealer == DEALER and final(misdeal) == [0, 0]


def test_e12_faced_card_in_the_pack_means_a_fresh_deal() -> None:
    state = game(turnup="KH", at_deal=True)
    state.apply("irregular faced_card_in_pack 0")
    assert state.deal_number == 2 and state.dealer == DEALER and final(state) == [0, 0]
    assert_all_cards_accounted(state)


def test_e12_dealer_exposing_an_elder_card_voids_the_deal_at_the_elder_option() -> None:
    state = game(at_deal=True)
    assert offered_with_arguments(state, "dealer_exposed_elders_card") == [f"0 {c}" for c in ELDER_HAND]  # in deck order
    state.apply(f"irregular dealer_exposed_elders_card 0 {ELDER_HAND[0]}")
    assert {"type": "exposed", "zone": f"hand of seat {ELDER}", "cards": [ELDER_HAND[0]], "laws": ["E12"]} in state.events(DEALER)
    assert regular(state) == ["new_deal", "play_on"]
    void = state.clone()
    state.apply("play_on")
    assert state.deal_number == 1 and regular(state) == ["continue"]  # back at the pause before the turn-up
    state.apply("continue")
    assert regular(state) == ["stand", "propose"]
    void.apply("new_deal")
    assert void.deal_number == 2 and void.dealer == DEALER


def test_e13_deal_out_of_turn_is_dealt_again_by_the_rightful_dealer() -> None:
    state = game(turnup="KH", at_deal=True)
    assert "deal_out_of_turn 1" in offered(state) and "deal_out_of_turn 0" not in offered(state)
    state.apply("irregular deal_out_of_turn 1")
    assert state.deal_number == 2 and state.dealer == DEALER and final(state) == [0, 0]


def test_e13_a_deal_out_of_turn_noticed_after_the_turn_up_stands_with_the_roles_changed() -> None:
    state = game(turnup="KH")
    assert state.scores == [1, 0]  # seat 0, the engine's dealer, turned up the king
    assert "deal_out_of_turn_stands 1" in offered(state) and "deal_out_of_turn_stands 0" not in offered(state)
    state.apply("irregular deal_out_of_turn_stands 1")
    # Seat 1 dealt: he is the dealer of this deal, the king he turned up is his point,
    # and seat 0, now the elder, is asked to propose.
    assert state.dealer == ELDER and state.current_player == DEALER and state.scores == [0, 1]
    assert regular(state) == ["stand", "propose"]
    state.apply("stand")
    assert state.phase == "play" and state.current_player == DEALER  # the elder leads first
    play_out_deal(state)
    assert state.deal_number == 2 and state.dealer == DEALER  # the deal passes on from seat 1
    assert [e for e in state.events(None) if e["type"] == "dealer"][0]["roles"] == {"elder": DEALER}


def test_e15_imperfect_pack_voids_only_the_deal_in_progress() -> None:
    state = game(elder=ELDER_WITH_KING)
    state.apply("stand")
    state.apply("declare king")
    assert state.scores == [0, 1]
    state.apply("irregular imperfect_pack 0")  # during play: the king point goes with the deal
    assert state.deal_number == 2 and state.dealer == DEALER and final(state) == [0, 0]
    play_out_deal(state)  # deal 2 stands ...
    after_two = final(state)
    assert sum(after_two) > 0 and state.deal_number == 3
    dealer = state.dealer
    state.apply("irregular imperfect_pack " + str(dealer))  # ... when deal 3 is void
    assert final(state) == after_two and state.deal_number == 4 and state.dealer == dealer


# ------------------------------------------------------------------ E19, E20: the king


def test_e19_false_announcement_of_the_king_gives_the_adversary_one() -> None:
    state = game(turnup="KH")  # nobody holds the king of trumps
    state.apply("stand")
    since = mark(state)
    state.apply("irregular false_king 1")
    assert scores_since(state, since) == [(DEALER, 1, "false king")]
    assert state.scores == [2, 0] and state.deal_number == 1 and state.phase == "play"
    # A player who does hold the king has not announced falsely: nothing happens.
    holder = game(elder=ELDER_WITH_KING)
    holder.apply("stand")
    since = mark(holder)
    holder.apply("irregular false_king 1")
    assert scores_since(holder, since) == [] and holder.scores == [0, 0] and "declare king" in legal(holder)


def test_e20_king_right_lost_unless_turned_up_or_even_if_turned_up() -> None:
    # E34: a king the dealer marked from his hand is taken back ...
    held = game(dealer=DEALER_WITH_KING)
    exchange(held)
    held.apply("stand")
    held.apply("play QS")
    held.apply("declare king")
    assert held.scores == [1, 0]
    held.apply("irregular dealer_served_wrong_number 0")
    assert final(held) == [0, 1]
    # ... but a king he turned up stands (unless turned up) ...
    turned = game(turnup="KH")
    exchange(turned)
    turned.apply("irregular dealer_served_wrong_number 0")
    assert final(turned) == [1, 1]
    # ... while under E39 even the turned-up king is lost.
    even = game(turnup="KH")
    even.apply("stand")
    even.apply("irregular undisclosed_wrong_count 0")
    assert final(even) == [0, 2]


# ------------------------------------------------------------------ E28, E32-E40: the exchange


def test_e28_looking_at_discards_exposes_the_hand_at_the_adversary_option() -> None:
    state = game()
    exchange(state)
    assert "cards" not in state.observation(DEALER)["zones"]["hand"][str(ELDER)]
    state.apply("irregular looked_at_discards 1")
    assert state.current_player == DEALER and regular(state) == ["expose", "waive"]
    waived = state.clone()
    state.apply("expose")
    seen = state.observation(DEALER)["zones"]["hand"][str(ELDER)]
    assert sorted(seen["cards"]) == sorted(state.hand(ELDER))
    assert state.scores == [0, 0] and regular(state) == ["stand", "propose"]
    waived.apply("waive")
    assert "cards" not in waived.observation(DEALER)["zones"]["hand"][str(ELDER)]
    # Maxwell: the exposure is compulsory.
    strict = game(discard_peek_penalty="compulsory")
    exchange(strict)
    strict.apply("irregular looked_at_discards 1")
    assert "cards" in strict.observation(DEALER)["zones"]["hand"][str(ELDER)]
    assert regular(strict) == ["stand", "propose"]


def test_e32_card_turned_while_serving_costs_the_next_refusal() -> None:
    state = game()
    state.apply("propose")
    state.apply("accept")
    state.apply("discard 7C")
    stock_before = len(state.zone("stock"))
    scores_before = list(state.scores)
    state.apply("irregular card_turned_while_serving 0")
    assert len(state.zone("stock")) == stock_before - 1  # the turned card went to the discards
    assert state.scores == scores_before
    assert_all_cards_accounted(state)
    while state.phase != "choice":
        state.apply(state.legal_actions()[0])
    state.apply("propose")
    assert regular(state) == ["accept"]  # the next proposal cannot be refused
    state.apply("accept")
    while state.phase != "choice":
        state.apply(state.legal_actions()[0])
    state.apply("propose")
    assert regular(state) == ["refuse", "accept"]  # ...but only the next one


def test_e33_faced_card_for_the_elder_he_takes_it_or_new_deal() -> None:
    state = game()
    state.apply("propose")
    state.apply("accept")
    assert state.phase == "discard" and "faced_card_for_elder 0" in offered(state)
    state.apply("irregular faced_card_for_elder 0")
    assert regular(state) == ["take_it", "new_deal"]
    fresh = state.clone()
    state.apply("take_it")
    assert state.phase == "discard" and state.current_player == ELDER and state.deal_number == 1
    fresh.apply("new_deal")
    assert fresh.deal_number == 2 and fresh.dealer == DEALER and final(fresh) == [0, 0]


def test_e34_dealer_serves_the_elder_wrongly_and_loses_the_point() -> None:
    state = game()
    state.apply("propose")
    state.apply("accept")
    assert "dealer_served_wrong_number 0" not in offered(state)  # the elder has not been served
    state.apply("discard 7C")
    assert state.phase == "discard" and state.current_player == DEALER
    since = mark(state)
    state.apply("irregular dealer_served_wrong_number 0")
    assert scores_since(state, since) == [(ELDER, 1, "dealer's misdeal")]
    assert final(state) == [0, 1] and state.deal_number == 2 and state.dealer == ELDER
    assert_all_cards_accounted(state)


def test_e35_dealer_over_serves_himself_and_loses_the_point() -> None:
    state = game(dealer=DEALER_WITH_KING)
    assert "dealer_took_too_many 0" not in offered(state)
    exchange(state)
    since = mark(state)
    state.apply("irregular dealer_took_too_many 0")
    assert scores_since(state, since) == [(ELDER, 1, "dealer's misdeal")]
    assert final(state) == [0, 1] and state.deal_number == 2 and state.dealer == ELDER


def test_e35_dealer_loses_the_right_to_mark_the_king() -> None:
    state = game(dealer=DEALER_WITH_KING)
    exchange(state)
    state.apply("stand")
    state.apply("play QS")
    assert "declare king" in legal(state)
    state.apply("declare king")
    state.apply("irregular dealer_took_too_many 0")
    assert final(state) == [0, 1]


def test_e36_dealer_short_before_playing_may_complete_his_hand() -> None:
    state = game()
    exchange(state, "7C", "QC")  # the elder takes 9D, the dealer 8D
    state.apply("stand")
    state.apply("play QS")
    hand = state.hand(DEALER)
    state.apply("irregular dealer_took_too_few 0 1")
    assert state.zone("stock")[-1] == "8D" and len(state.hand(DEALER)) == 4
    assert regular(state) == ["complete", "play_short"]
    short = state.clone()
    state.apply("complete")
    assert state.hand(DEALER) == hand and state.scores == [0, 0] and state.phase == "play"
    short.apply("play_short")
    assert len(short.hand(DEALER)) == 4
    play_out_deal(short)
    tricks = tricks_of_deal(short, 1)
    # The fifth trick, for which the dealer has no card, goes to the elder.
    assert len(tricks) == 5 and tricks[-1]["players"] == [ELDER] and tricks[-1]["winner"] == ELDER


def test_e36_dealer_short_after_playing_loses_the_missing_tricks() -> None:
    state = game()
    exchange(state, "7C", "QC")
    state.apply("stand")
    state.apply("play QS")
    state.apply(regular(state)[0])  # the dealer has played a card
    assert state.phase == "play"
    state.apply("irregular dealer_took_too_few 0 1")
    assert state.phase == "play" and len(state.hand(DEALER)) == 3  # no choice any more
    play_out_deal(state)
    tricks = tricks_of_deal(state, 1)
    assert len(tricks) == 5 and tricks[-1]["players"] == [ELDER]
    assert_all_cards_accounted(state)


def test_e37_elder_asked_too_many_dealer_declines_and_marks_the_point() -> None:
    state = game(elder=ELDER_WITH_KING)
    state.apply("propose")
    state.apply("accept")
    state.apply("discard 7C")
    since = mark(state)
    state.apply("irregular elder_asked_too_many 1 1")
    assert len(state.hand(ELDER)) == 6 and state.current_player == DEALER
    assert regular(state) == ["play", "decline"]
    state.apply("decline")
    assert scores_since(state, since) == [(DEALER, 1, "elder asked for too many")]
    assert final(state) == [1, 0] and state.deal_number == 2 and state.dealer == ELDER


def test_e37_elder_asked_too_many_dealer_plays_and_the_elder_cannot_mark_the_king() -> None:
    for seed in range(50):
        state = game(elder=ELDER_WITH_KING, seed=seed)
        state.apply("propose")
        state.apply("accept")
        state.apply("discard 7C")
        state.apply("irregular elder_asked_too_many 1 1")
        six = set(state.hand(ELDER))
        state.apply("play")
        if "KH" in state.hand(ELDER):
            break
    else:  # pragma: no cover - 50 draws of one card in six
        pytest.fail("no seed kept the king in the elder's hand")
    drawn = state.zone("surplus", DEALER)
    assert len(state.hand(ELDER)) == 5 and len(drawn) == 1 and set(state.hand(ELDER)) | set(drawn) == six
    # Foster: the dealer may look at the surplus card (the elder has seen it); it is out of play.
    assert state.observation(DEALER)["zones"]["surplus"][str(DEALER)]["cards"] == drawn
    assert "cards" not in state.observation(ELDER)["zones"]["surplus"][str(DEALER)]
    assert drawn[0] in {c for e in state.events(DEALER) for c in e.get("cards", [])}
    assert state.phase == "discard" and state.current_player == DEALER  # back to the exchange
    state.apply("discard none")
    state.apply("stand")
    assert state.phase == "play" and "KH" in state.hand(ELDER)
    assert "declare king" not in legal(state)  # he holds it but may not mark it
    assert state.scores == [0, 0]
    assert_all_cards_accounted(state)


def test_e38_elder_asked_too_few_plays_short_and_may_mark_the_king() -> None:
    state = game(elder=ELDER_WITH_KING)
    exchange(state)  # the elder throws 7C and takes 9D
    state.apply("stand")
    state.apply("irregular elder_asked_too_few 1 1")
    assert "9D" not in state.hand(ELDER) and len(state.hand(ELDER)) == 4 and state.zone("stock")[-1] == "9D"
    assert "declare king" in legal(state)
    state.apply("declare king")
    assert state.scores == [0, 1]
    play_out_deal(state)
    tricks = tricks_of_deal(state, 1)
    assert len(tricks) == 5 and tricks[-1]["players"] == [DEALER] and tricks[-1]["winner"] == DEALER
    assert_all_cards_accounted(state)


def test_e9_e36_e37_e38_the_count_says_how_many_cards_were_wrong() -> None:
    # E9: the dealer dealt himself two cards too many; the elder draws both at random.
    state = game()
    state.apply("irregular dealer_long_after_deal 0 2")
    assert len(state.hand(DEALER)) == 7 and {"9D", "8D"} <= set(state.hand(DEALER))
    state.apply("draw")
    assert len(state.hand(DEALER)) == 5 and len(state.zone("discards", DEALER)) == 2
    # E9: the elder was dealt three too many and discards exactly three.
    state = game()
    state.apply("irregular elder_long_after_deal 0 3")
    state.apply("discard")
    assert state.legal_actions().selection is not None and state.legal_actions().selection.lo == 3
    state.apply("discard 9D 8D 7D")
    assert sorted(state.hand(ELDER)) == sorted(ELDER_HAND)
    # E37: the elder asked for two beyond his one discard; the dealer plays on and draws both.
    state = game()
    state.apply("propose")
    state.apply("accept")
    state.apply("discard 7C")
    state.apply("irregular elder_asked_too_many 1 2")
    assert len(state.hand(ELDER)) == 7
    state.apply("play")
    assert len(state.hand(ELDER)) == 5 and len(state.zone("surplus", DEALER)) == 2
    # E38: two short; E36: the dealer two short completes his hand before playing.
    state = game(elder=ELDER_WITH_KING)
    exchange(state)
    state.apply("stand")
    assert offered_with_arguments(state, "elder_asked_too_few") == ["1 1", "1 2", "1 3", "1 4"]
    assert offered_with_arguments(state, "dealer_took_too_few") == ["0 1", "0 2", "0 3", "0 4"]
    short, held = state.clone(), set(state.hand(ELDER))
    short.apply("irregular elder_asked_too_few 1 2")  # the two cards he did not ask for stay on the stock
    assert len(short.hand(ELDER)) == 3 and set(short.zone("stock")[-2:]) <= held
    state.apply("irregular dealer_took_too_few 0 2")
    assert len(state.hand(DEALER)) == 3
    state.apply("complete")
    assert len(state.hand(DEALER)) == 5
    assert_all_cards_accounted(state)
    assert_all_cards_accounted(short)


def test_a_count_outside_the_laws_range_or_the_cards_there_are_is_refused_unchanged() -> None:
    state = game(elder=ELDER_WITH_KING)
    exchange(state)
    state.apply("stand")
    before = state.to_json()
    for text, says in [("irregular elder_asked_too_few 1 5", "missing must be a count from 1 to 4, not '5'"),
                       ("irregular elder_asked_too_few 1", "is written 'irregular elder_asked_too_few SEAT MISSING'"),
                       ("irregular elder_asked_too_few 0 1", "can only be committed by seat 1")]:
        with pytest.raises(IllegalActionError, match=re.escape(says)):
            state.apply(text)
        assert state.to_json() == before


def test_e39_undisclosed_wrong_count_loses_two_and_even_the_turned_up_king() -> None:
    state = game(turnup="KH")
    state.apply("stand")
    since = mark(state)
    state.apply("irregular undisclosed_wrong_count 0")
    assert scores_since(state, since) == [(DEALER, -1, "king turned up cancelled"),
                                          (ELDER, 2, "undisclosed wrong count")]
    assert final(state) == [0, 2] and state.deal_number == 2 and state.dealer == ELDER
    # Also while discarding, by the elder.
    other = game()
    other.apply("propose")
    other.apply("accept")
    other.apply("irregular undisclosed_wrong_count 1")
    assert final(other) == [2, 0] and other.deal_number == 2


def test_e40_more_than_five_cards_in_play_loses_the_point_and_the_king() -> None:
    state = game(elder=ELDER_WITH_KING)
    state.apply("stand")
    assert "more_than_five_in_play 1" not in offered(state)  # no exchange, no drawing
    exchanged = game(elder=ELDER_WITH_KING)
    exchange(exchanged)
    exchanged.apply("stand")
    exchanged.apply("declare king")
    since = mark(exchanged)
    exchanged.apply("irregular more_than_five_in_play 1")
    assert scores_since(exchanged, since) == [(ELDER, -1, "king cancelled"),
                                              (DEALER, 1, "played with more than five cards")]
    assert final(exchanged) == [1, 0] and exchanged.deal_number == 2


# ------------------------------------------------------------------ E44-E48: trick play

# The elder holds the five best trumps: he wins every trick he leads.
STRONG_ELDER = ["KH", "QH", "JH", "AH", "10H"]
WEAK_DEALER = ["KS", "QS", "JS", "AS", "10S"]
# The elder wins the first trick with the king of trumps, then loses the second.
ONE_TRICK_ELDER = ["KH", "7S", "8S", "9S", "7C"]
SPADES_DEALER = ["KS", "QS", "JS", "KC", "QC"]


def lead_and_follow(state: State, lead: str) -> None:
    state.apply("play " + lead)
    if "continue" in legal(state):  # the elder led the king unmarked: he lets the chance go (E18)
        state.apply("continue")
    state.apply(regular(state)[0])


def test_e47_abandoning_without_a_trick_gives_the_adversary_the_vole() -> None:
    state = game(elder=STRONG_ELDER, dealer=WEAK_DEALER)
    state.apply("stand")
    lead_and_follow(state, "KH")
    lead_and_follow(state, "QH")
    since = mark(state)
    state.apply("irregular abandoned_hand 0")
    assert scores_since(state, since) == [(ELDER, 2, "abandoned hand")]
    assert final(state) == [0, 2] and state.deal_number == 2 and state.dealer == ELDER
    assert_all_cards_accounted(state)


def test_e47_abandoning_with_one_trick_gives_the_point_or_the_stand_penalty() -> None:
    # After an exchange the elder's stand carries no penalty: the dealer marks the point.
    state = game(elder=ONE_TRICK_ELDER, dealer=SPADES_DEALER)
    exchange(state)
    state.apply("stand")
    lead_and_follow(state, "KH")
    lead_and_follow(state, "7S")
    assert [t["winner"] for t in tricks_of_deal(state, 1)] == [ELDER, DEALER]
    since = mark(state)
    state.apply("irregular abandoned_hand 1")
    assert scores_since(state, since) == [(DEALER, 1, "abandoned hand")]
    # Having stood without proposing, he owes the two points of E51 (the greater award).
    stood = game(elder=ONE_TRICK_ELDER, dealer=SPADES_DEALER)
    stood.apply("stand")
    lead_and_follow(stood, "KH")
    lead_and_follow(stood, "7S")
    since = mark(stood)
    stood.apply("irregular abandoned_hand 1")
    assert scores_since(stood, since) == [(DEALER, 2, "stand or refusal penalty")]
    assert stood.deal_number == 2


def test_e47_abandoning_with_three_tricks_keeps_the_point_unless_older_code() -> None:
    state = game(elder=STRONG_ELDER, dealer=WEAK_DEALER)
    state.apply("stand")
    for lead in ("KH", "QH", "JH"):
        lead_and_follow(state, lead)
    since = mark(state)
    state.apply("irregular abandoned_hand 1")
    assert scores_since(state, since) == [(ELDER, 1, "point")]
    older = game(elder=STRONG_ELDER, dealer=WEAK_DEALER, abandon_penalty="two_or_one")
    older.apply("stand")
    for lead in ("KH", "QH", "JH"):
        lead_and_follow(older, lead)
    since = mark(older)
    older.apply("irregular abandoned_hand 1")
    assert scores_since(older, since) == [(DEALER, 1, "abandoned hand")]


def test_e48_looking_at_tricks_the_adversary_may_have_the_offender_show_his_own() -> None:
    state = game(elder=STRONG_ELDER, dealer=WEAK_DEALER)
    state.apply("stand")
    lead_and_follow(state, "KH")
    hands = (state.hand(0), state.hand(1))
    state.apply("irregular looked_at_tricks 0")
    assert state.current_player == ELDER and regular(state) == ["show", "waive"]
    since = mark(state)
    state.apply("show")
    assert [e["type"] for e in state.events(None)[since:]] == ["choice", "exposed"]
    assert state.events(None)[-1]["zone"] == "won of side 0"
    assert (state.hand(0), state.hand(1)) == hands and state.scores == [0, 0] and state.phase == "play"


def test_e44_naming_one_suit_and_leading_another_the_adversary_may_have_the_named_suit_led() -> None:
    plain = game()
    plain.apply("stand")
    plain.apply("play 8C")
    assert "named_another_suit 1" not in offered(plain)  # the leader names no suit by default
    for remedy in ("play_to_it", "named_suit"):
        state = game(announce_suit=True)
        state.apply("stand")
        assert "named_another_suit 1" not in offered(state)  # nothing led yet
        state.apply("play 8C")  # having named spades, say
        assert "named_another_suit 1" in offered(state) and "named_another_suit 0" not in offered(state)
        # He holds spades and clubs still (ELDER_HAND less the 8C led): only those may have been named.
        assert offered_with_arguments(state, "named_another_suit") == ["1 spades", "1 clubs"]
        before = state.to_json()
        with pytest.raises(IllegalActionError, match=r"named must be a suit \(spades, hearts, diamonds, clubs\), not 'trumps'"):
            state.apply("irregular named_another_suit 1 trumps")
        with pytest.raises(IllegalActionError, match="its condition does not hold"):
            state.apply("irregular named_another_suit 1 hearts")  # he holds no heart: the lead stands
        assert state.to_json() == before
        state.apply("irregular named_another_suit 1 Spades")
        assert [e["args"] for e in state.events(DEALER) if e["type"] == "irregularity"] == [{"named": "spades"}]
        assert state.current_player == DEALER and regular(state) == ["play_to_it", "named_suit"]
        state.apply(remedy)
        if remedy == "play_to_it":
            assert state.current_player == DEALER and "8C" not in state.hand(ELDER)
            continue
        assert state.current_player == ELDER and sorted(state.hand(ELDER)) == sorted(ELDER_HAND)
        state.apply("play QS")  # the named suit
        state.apply(regular(state)[0])
        [trick] = tricks_of_deal(state, 1)
        assert trick["cards"][0] == "QS" and trick["players"] == [ELDER, DEALER]
        assert_all_cards_accounted(state)


def test_e45_a_lead_out_of_turn_covered_by_the_adversary_stands() -> None:
    state = game()
    state.apply("stand")
    assert state.current_player == ELDER
    assert "lead_out_of_turn 0" in offered(state) and "lead_out_of_turn 1" not in offered(state)
    state.apply("irregular lead_out_of_turn 0")
    assert state.current_player == DEALER and sorted(a[5:] for a in regular(state)) == sorted(DEALER_HAND)
    state.apply("play KC")
    assert "lead_out_of_turn 0" not in offered(state)  # a card is on the table
    assert sorted(regular(state)) == ["play 7C", "play 8C"]  # the elder covers it under E42
    state.apply("play 8C")
    [trick] = tricks_of_deal(state, 1)
    assert trick["players"] == [DEALER, ELDER] and trick["winner"] == DEALER
    assert state.current_player == DEALER and state.scores == [0, 0]  # it stands as a trick
    play_out_deal(state)
    assert state.deal_number == 2


def test_e46_a_revoke_the_adversary_has_the_hands_replayed_from_the_first_trick() -> None:
    state = game(elder=ONE_TRICK_ELDER, dealer=SPADES_DEALER)
    state.apply("stand")
    hands = (sorted(state.hand(DEALER)), sorted(state.hand(ELDER)))
    lead_and_follow(state, "KH")
    state.apply("play 7S")
    assert "revoke_or_failure_to_head 0" in offered(state)
    state.apply("irregular revoke_or_failure_to_head 0")
    assert state.current_player == ELDER and regular(state) == ["replay", "score_less"]
    state.apply("replay")
    assert (sorted(state.hand(DEALER)), sorted(state.hand(ELDER))) == hands
    assert state.tricks_won == [0, 0] and state.phase == "play" and state.current_player == ELDER
    assert_all_cards_accounted(state)
    lead_and_follow(state, "KH")  # again without marking the king
    play_out_deal(state)
    tricks = [e for e in state.events(None) if e["type"] == "trick" and e["trick"] >= 1]
    assert [t["trick"] for t in tricks[1:]] == [1, 2, 3, 4, 5]  # the replay, after the one trick first played
    assert state.deal_number == 2 and final(state) == [2, 0]  # the stand failed: the dealer's two (E51)


# The elder holds three top trumps and two small spades: he wins three tricks.
THREE_TRICK_ELDER = ["KH", "QH", "JH", "7S", "8S"]
FIVE_TRICKS = ["KH", "KS", "QH", "QS", "JH", "JS", "AH", "AS", "10H", "10S"]
THREE_TRICKS = ["KH", "KS", "QH", "QS", "JH", "JS", "7S", "AS", "10S", "8S"]


@pytest.mark.parametrize(("elder", "opening", "plays", "normal", "reduced"), [
    (STRONG_ELDER, ["propose", "refuse"], FIVE_TRICKS, (2, "stand or refusal penalty"), [(1, "after a revoke")]),
    (STRONG_ELDER, ["stand"], FIVE_TRICKS, (2, "vole"), [(1, "after a revoke")]),
    (THREE_TRICK_ELDER, ["stand"], THREE_TRICKS, (1, "point"), []),
])
def test_e46_an_offender_who_plays_on_and_wins_scores_one_point_less(
        elder: list[str], opening: list[str], plays: list[str], normal: tuple[int, str],
        reduced: list[tuple[int, str]]) -> None:
    for fault in (False, True):
        state = game(elder=elder, dealer=WEAK_DEALER)
        for move in opening:
            state.apply(move)
        since = mark(state)
        for i, card in enumerate(plays):
            state.apply("play " + card)
            if "continue" in legal(state):
                state.apply("continue")  # the king led unmarked
            if fault and i == 1:  # the elder failed to head the first trick, say
                state.apply("irregular revoke_or_failure_to_head 1")
                state.apply("score_less")
        got = [(points, label) for side, points, label in scores_since(state, since) if side == ELDER]
        assert got == (reduced if fault else [normal])
        assert [side for side, _, _ in scores_since(state, since)] == [ELDER] * len(got)  # the innocent gets nothing
        assert state.deal_number == 2


def test_e46_both_seats_fault_and_play_on_the_winner_still_scores_less() -> None:
    # The elder fails to head a trick, then the dealer revokes; each time the adversary
    # plays on. The elder wins the vole and, being an offender, scores one, whoever
    # faulted last.
    state = game(elder=STRONG_ELDER, dealer=WEAK_DEALER)
    state.apply("stand")
    since = mark(state)
    for i, card in enumerate(FIVE_TRICKS):
        state.apply("play " + card)
        if "continue" in legal(state):
            state.apply("continue")  # the king led unmarked
        if i in (1, 3):
            state.apply(f"irregular revoke_or_failure_to_head {ELDER if i == 1 else DEALER}")
            state.apply("score_less")
    assert scores_since(state, since) == [(ELDER, 1, "after a revoke")]
    assert state.deal_number == 2


def play_cards(state: State, cards: list[str]) -> None:
    """Play these cards in turn, passing over the window after a led king (left unmarked)."""
    for card in cards:
        state.apply("play " + card)
        if state.phase == "play" and "continue" in legal(state):
            state.apply("continue")


def test_e46_the_same_revoke_is_not_recorded_twice_a_later_one_is() -> None:
    state = game(elder=STRONG_ELDER, dealer=WEAK_DEALER)
    state.apply("stand")
    since = mark(state)
    assert "revoke_or_failure_to_head 0" not in offered(state)  # no card played yet: nothing to record
    play_cards(state, FIVE_TRICKS[:2])
    state.apply("irregular revoke_or_failure_to_head 1")
    state.apply("score_less")
    assert state.phase == "play" and not any(o.startswith("revoke") for o in offered(state))  # that one is penalised
    play_cards(state, FIVE_TRICKS[2:3])
    assert "revoke_or_failure_to_head 1" in offered(state)  # a card played since: a new revoke may be recorded
    state.apply("irregular revoke_or_failure_to_head 1")
    state.apply("replay")  # this time the dealer has the hands played again
    assert state.tricks_won == [0, 0] and not any(o.startswith("revoke") for o in offered(state))
    play_cards(state, FIVE_TRICKS)
    assert state.deal_number == 1 and "revoke_or_failure_to_head 1" in offered(state)  # at the pause, after the replay
    state.apply("continue")
    # The fault marked before the replay still costs the winner his vole's second point (one fault a deal).
    assert scores_since(state, since) == [(ELDER, 1, "after a revoke")] and state.deal_number == 2


def test_e46_a_revoke_in_the_last_trick_is_recorded_after_the_last_card_before_the_scoring() -> None:
    for remedy in ("score_less", "replay"):
        state = game(elder=STRONG_ELDER, dealer=WEAK_DEALER)
        state.apply("stand")
        hands = (sorted(state.hand(DEALER)), sorted(state.hand(ELDER)))
        since = mark(state)
        play_cards(state, FIVE_TRICKS)
        # The last card is played, the deal is not yet scored: the referee's pause.
        assert state.phase == "end_of_play" and state.current_player == DEALER and state.deal_number == 1
        assert scores_since(state, since) == [] and state.hand(ELDER) == [] and state.tricks_won == [0, 5]
        assert regular(state) == ["continue"] and "revoke_or_failure_to_head 1" in offered(state)
        state.apply("irregular revoke_or_failure_to_head 1")  # the elder revoked in the last trick
        assert state.current_player == DEALER and regular(state) == ["replay", "score_less"]
        state.apply(remedy)
        if remedy == "score_less":  # that revoke cannot be recorded again: the deal is scored, the vole scores one
            assert scores_since(state, since) == [(ELDER, 1, "after a revoke")] and state.deal_number == 2
        else:  # every card back in the hand that played it, and the first trick again
            assert (sorted(state.hand(DEALER)), sorted(state.hand(ELDER))) == hands
            assert state.phase == "play" and state.current_player == ELDER and state.tricks_won == [0, 0]
            assert_all_cards_accounted(state)
            play_cards(state, FIVE_TRICKS)
            state.apply("continue")
            assert scores_since(state, since) == [(ELDER, 2, "vole")] and state.deal_number == 2


# ------------------------------------------------------------------ properties


def random_match(state: State, rng: random.Random, irregular_share: float, limit: int = 4000) -> int:
    """Play to the end with random actions (irregular ones with the given chance);
    checks card conservation at every step. Returns the number of actions."""
    for n in range(limit):
        if state.is_terminal():
            return n
        actions = state.legal_actions()
        usual = [a for a in actions if a.verb != "irregular"]
        unusual = [a for a in actions if a.verb == "irregular"]
        assert usual, f"no regular action at {state.actions[-3:]}"
        pick = rng.choice(unusual) if unusual and rng.random() < irregular_share else rng.choice(usual)
        state.apply(pick)
        assert_all_cards_accounted(state)
    raise AssertionError(f"the match did not end within {limit} actions")


option_sets = st.fixed_dictionaries({
    "misdeal_effect": st.sampled_from(["deal_passes", "same_dealer"]),
    "multi_turnup_remedy": st.sampled_from(["foster", "club_code", "maxwell"]),
    "elder_miscount": st.sampled_from(["dealer_option", "elder_loses_point"]),
    "discard_peek_penalty": st.sampled_from(["at_option", "compulsory"]),
    "abandon_penalty": st.sampled_from(["vole_or_point", "two_or_one"]),
    "stock_shortfall": st.sampled_from(["own_discard", "no_overask"]),
})


@FAST
@given(seed=st.integers(0, 2**31 - 1), opts=option_sets)
def test_strict_mode_never_offers_an_irregularity(seed: int, opts: dict[str, Any]) -> None:
    state = interpreter.new_game(RULES, seed=seed, options=opts)
    assert state.mode == "strict"
    rng = random.Random(seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert all(a.verb != "irregular" for a in actions)
        assert not state.is_legal("irregular looked_at_discards 0")
        state.apply(rng.choice(actions))
    with pytest.raises(IllegalActionError):
        interpreter.new_game(RULES, seed=seed).apply("irregular imperfect_pack 0")


@FAST
@given(seed=st.integers(0, 2**31 - 1), share=st.sampled_from([0.05, 0.2]), opts=option_sets)
def test_table_mode_with_random_irregularities_always_ends_and_keeps_every_card(
        seed: int, share: float, opts: dict[str, Any]) -> None:
    state = interpreter.new_game(RULES, seed=seed, mode="table", options=opts)
    random_match(state, random.Random(seed), share)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None
    assert max(state.scores) >= 5


def test_table_mode_random_irregularities_replay_from_json() -> None:
    for seed in range(8):
        state = interpreter.new_game(RULES, seed=seed, mode="table")
        random_match(state, random.Random(seed), 0.2)
        again = State.from_json(state.to_json())
        assert again.events(None) == state.events(None) and again.scores == state.scores


# ------------------------------------------------------------------ laws.md coverage

LAW_ROW = re.compile(r"^\|\s*([EC]\d+)\s*\|", re.MULTILINE)
TEST_REF = re.compile(r"`(test_\w+\.py)::(test_\w+)`")


def laws_table() -> dict[str, str]:
    """Law id -> its row in rules/laws.md."""
    text = LAWS_MD.read_text(encoding="utf-8")
    rows: dict[str, str] = {}
    for line in text.splitlines():
        m = LAW_ROW.match(line)
        if m:
            assert m.group(1) not in rows, f"{m.group(1)} has two rows in laws.md"
            rows[m.group(1)] = line
    return rows


def test_every_law_is_in_laws_md() -> None:
    rows = laws_table()
    expected = {f"E{i}" for i in range(1, 57)} | {f"C{i}" for i in range(1, 39)}
    missing = sorted(expected - rows.keys(), key=lambda x: (x[0], int(x[1:])))
    assert not missing, f"laws missing from rules/laws.md: {missing}"


def test_the_last_laws_not_encoded_are_now_encoded_or_do_not_apply_to_a_program() -> None:
    rows = laws_table()
    where = {law: rows[law].split(" | ")[4] for law in ("E13", "E44", "E45", "E46", "C24", "C38")}
    for law in ("E13", "E44", "E45", "E46"):
        assert where[law].startswith("rules/ecarte.trick"), law
    assert where["C38"].startswith("examples/cinch-widow.trick")
    assert where["C24"].startswith("not applicable")


def test_every_irregularity_cites_a_law_that_laws_md_maps_to_it() -> None:
    rows = laws_table()
    for irr in RULES.rules.irregularities:
        assert irr.cite is not None, f"irregularity {irr.name} cites no law"
        main = irr.cite.laws[0]
        assert f"`{irr.name}`" in rows[main], f"laws.md row {main} does not name {irr.name}"


def test_tests_named_in_laws_md_exist() -> None:
    for law, row in laws_table().items():
        for file, name in TEST_REF.findall(row):
            found = sorted((ROOT / "tests").rglob(file))
            assert found, f"{law}: laws.md names {file}, which does not exist"
            path = found[0]
            assert f"def {name}(" in path.read_text(encoding="utf-8"), f"{law}: {file} has no {name}"


# ------------------------------------------------------------------ regressions: short hands, offender in guards

VARIANT_TAIL = """
irregularity cards_thrown_away during play:                 [E47]
  move all from hand of offender to discards of offender   [E47]

irregularity conceded_without_a_trick during play when tricks(offender) == 0:   [E47]
  left of offender scores 2 "abandoned hand"                                 [E47]
"""


def variant() -> tricklang.Ruleset:
    return tricklang.loads(RULES_PATH.read_text(encoding="utf-8") + VARIANT_TAIL, path="ecarte-variant.trick")


def test_a_player_left_without_cards_in_the_middle_of_a_trick_is_skipped() -> None:
    rules = variant()
    state = interpreter.new_game(rules, seed=1, deck=deck(ELDER_HAND, DEALER_HAND, "7H"), dealer=DEALER, mode="table")
    state.apply("continue")  # the referee's pause before the turn-up
    state.apply("stand")
    state.apply("play QS")  # the elder leads; the dealer is to play
    state.apply("irregular cards_thrown_away 0")
    assert [a for a in state.legal_actions() if a.verb != "irregular"], "stuck: nothing regular to do"


def test_an_irregularity_guard_may_use_the_offender() -> None:
    rules = variant()
    state = interpreter.new_game(rules, seed=1, deck=deck(ELDER_HAND, DEALER_HAND, "7H"), dealer=DEALER, mode="table")
    state.apply("continue")  # the referee's pause before the turn-up
    state.apply("stand")
    texts = state.legal_actions().texts()
    assert "irregular conceded_without_a_trick 0" in texts and "irregular conceded_without_a_trick 1" in texts
