"""Cut-throat Cinch for three players (examples/cinch-cutthroat.trick, reference C37).

A scripted deal checks what differs from the partnership game: each for himself,
the dealer discards and draws blind like the others instead of robbing, and the
scoring reading the file documents (every player scores the points he took, a
maker short of his bid is set back; option `scoring = maker_only`). Random and
heuristic matches check that cards are conserved and that matches end.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from helpers import cards_everywhere, offered, regular
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import State
from interpreter.players import HeuristicAgent
from tricklang.explain import explain

ROOT = Path(__file__).resolve().parents[2]
PATH = ROOT / "examples" / "cinch-cutthroat.trick"
CUTTHROAT = tricklang.load(PATH)
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]

DEALER = 2  # seat 0 is the eldest
# Hearts will be trumps. Seat 0 (the maker) holds High and two more hearts, seat 1
# the Right Pedro, Jack and Game, the dealer the Left Pedro and Low.
HANDS = {
    0: "AH KH QH 2S 3S 4S 2C 3C 4C".split(),
    1: "5H JH 10H AS KS QS 2D 3D 4D".split(),
    2: "5D 2H 9H AC KC QC JC 10C 9C".split(),
}
STOCK_TOP = ["3H", "4H", "6H", "7H"]
DISCARDS = {0: "2S 3S 4S", 1: "AS 2D 3D 4D", 2: "AC KC QC JC"}
# The maker draws trumps out: he takes High, Jack, Game and both Pedros (13);
# seat 1 then takes Low with the three of trumps, and the last two tricks.
PLAY = ["AH", "JH", "9H", "KH", "10H", "5D", "QH", "5H", "4H", "4C", "3H", "2H",
        "KS", "10C", "3C", "QS", "9C", "2C"]

FAST = settings(max_examples=10, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])


def pack(hands: dict[int, list[str]] = HANDS, dealer: int = DEALER, stock: list[str] = STOCK_TOP) -> list[str]:
    """Three rounds of three from the dealer's left [C5, C37], then the stock, top first."""
    order: list[str] = []
    for r in range(3):
        for i in range(3):
            order += hands[(dealer + 1 + i) % 3][3 * r: 3 * r + 3]
    fixed = order + stock
    assert len(set(fixed)) == len(fixed)
    return fixed + [c for c in ALL_CARDS if c not in fixed]


def game(mode: str = "strict", **options: Any) -> State:
    return interpreter.new_game(CUTTHROAT, seed=1, deck=pack(), dealer=DEALER, mode=mode, options=options)






def assert_all_cards_accounted(state: State) -> None:
    assert sorted(cards_everywhere(state)) == sorted(ALL_CARDS)


def to_play(state: State, bid: int = 4) -> None:
    state.apply(f"bid {bid}" if bid else "pass")
    state.apply("pass")
    state.apply("pass")
    state.apply("name hearts")
    for seat in (0, 1, 2):
        assert state.phase == "discard" and state.current_player == seat
        state.apply("discard " + DISCARDS[seat])


def deal_scores(state: State, deal: int = 1) -> list[tuple[int, int, str]]:
    out, current = [], 0
    for e in state.events(None):
        if e["type"] == "deal":
            current = e["deal"]
        elif e["type"] == "score" and current == deal:
            out.append((e["side"], e["points"], e["label"]))
    return out


def points_taken(state: State, deal: int = 1) -> list[int]:
    """Each player's points in the tricks he won (hearts trumps: C25, C26)."""
    values = {"AH": 1, "2H": 1, "JH": 1, "10H": 1, "5H": 5, "5D": 5}
    taken, current = [0, 0, 0], 0
    for e in state.events(None):
        if e["type"] == "deal":
            current = e["deal"]
        elif e["type"] == "trick" and current == deal:
            taken[e["winner"]] += sum(values.get(c, 0) for c in e["cards"])
    return taken


def play_scripted(state: State) -> None:
    for card in PLAY:
        state.apply("play " + card)


# ------------------------------------------------------------------ the file


def test_loads_without_warnings_as_three_players_each_for_himself() -> None:
    assert CUTTHROAT.warnings == ()
    assert CUTTHROAT.player_count == 3 and len(CUTTHROAT.cards) == 52
    assert CUTTHROAT.options == {"target": 51, "show_left_trumps": False, "scoring": "every_player",
                                 "short_hand_from": "own_discards"}
    state = game()
    assert state.sides == [[0], [1], [2]]


def test_nine_cards_each_three_at_a_time_and_twenty_five_left() -> None:
    state = game()
    for seat in range(3):
        assert sorted(state.hand(seat)) == sorted(HANDS[seat])
    assert len(state.zone("stock")) == 25 and state.zone("stock")[::-1][:4] == STOCK_TOP
    assert state.phase == "auction" and state.current_player == 0
    assert regular(state) == ["pass"] + [f"bid {b}" for b in range(1, 15)]


# ------------------------------------------------------------------ C37: the dealer draws instead of robbing


def test_the_dealer_discards_and_draws_blind_like_the_others() -> None:
    state = game()
    to_play(state)
    # Seat 0 kept six and drew nothing; seat 1 then the dealer drew one each from the top.
    draws = [(e["player"], e["cards"]) for e in state.events(None) if e["type"] == "draw"]
    assert draws == [(1, ["3H"]), (2, ["4H"])]
    assert not [e for e in state.events(None) if e["type"] == "select" and e["verb"] == "rob"]
    # The dealer's hand is his six kept cards; the trumps left in the stock stay
    # hidden there (nothing is shown, as after robbing in the partnership game).
    assert sorted(state.hand(DEALER)) == sorted("5D 2H 9H 10C 9C 4H".split())
    assert sorted(state.zone("discards", DEALER)) == sorted("AC KC QC JC".split())
    assert len(state.zone("stock")) == 23 and "6H" in state.zone("stock")
    assert all(len(state.hand(s)) == 6 for s in range(3))
    assert state.phase == "play" and state.current_player == 0  # the maker leads [C19]
    assert_all_cards_accounted(state)


def test_a_player_who_throws_out_everything_draws_six() -> None:
    state = game()
    state.apply("bid 4")
    state.apply("pass")
    state.apply("pass")
    state.apply("name hearts")
    state.apply("discard " + DISCARDS[0])
    state.apply("discard " + DISCARDS[1])
    top = state.zone("stock")[::-1][:7]
    state.apply("discard " + " ".join(HANDS[DEALER]))
    # Seat 1 is served first (the top card), then the dealer the next six.
    draws = [(e["player"], e["cards"]) for e in state.events(None) if e["type"] == "draw"]
    assert draws == [(1, top[:1]), (DEALER, top[1:7])]
    assert sorted(state.hand(DEALER)) == sorted(top[1:7]) and state.phase == "play"
    assert_all_cards_accounted(state)


# ------------------------------------------------------------------ the scoring reading (rules/laws.md, C37)


def test_every_player_scores_his_points_when_the_maker_makes_his_bid() -> None:
    state = game()
    to_play(state, bid=4)
    play_scripted(state)
    # Maker 13 (High, Jack, Game, both Pedros), seat 1 one (Low), the dealer none.
    assert deal_scores(state) == [(0, 13, "made the bid"), (1, 1, "defender's points")]
    assert state.scores == [13, 1, 0] and state.deal_number == 2 and state.dealer == 0
    assert_all_cards_accounted(state)


def test_a_maker_short_of_his_bid_is_set_back_and_the_others_still_score() -> None:
    state = game()
    to_play(state, bid=14)
    play_scripted(state)
    assert deal_scores(state) == [(0, -14, "set back"), (1, 1, "defender's points")]
    assert state.scores == [-14, 1, 0]


def test_the_other_reading_only_a_successful_maker_scores() -> None:
    made = game(scoring="maker_only")
    to_play(made, bid=4)
    play_scripted(made)
    assert deal_scores(made) == [(0, 13, "made the bid")]
    failed = game(scoring="maker_only")
    to_play(failed, bid=14)
    play_scripted(failed)
    assert deal_scores(failed) == [(0, -14, "set back"), (1, 1, "defender's points")]


def test_with_no_bid_the_dealer_names_trumps_and_nobody_is_set_back() -> None:
    state = game()
    for _ in range(3):
        state.apply("pass")
    assert state.phase == "naming" and state.current_player == DEALER
    state.apply("name hearts")
    for seat in (0, 1, 2):
        state.apply("discard " + DISCARDS[seat])
    assert state.current_player == DEALER  # the maker leads
    while state.deal_number == 1:
        state.apply(regular(state)[0])
    taken = points_taken(state)
    expected = [(DEALER, taken[DEALER], "made the bid")] + [
        (seat, taken[seat], "defender's points") for seat in (0, 1)]
    # Whatever he took (even nothing), the maker at 0 is never set back [C34].
    assert deal_scores(state) == [s for s in expected if s[1]]
    assert sum(taken) == 14 and all(s[1] > 0 for s in deal_scores(state))


# ------------------------------------------------------------------ the laws of irregularities in cut-throat


def test_a_revoke_costs_the_revoker_the_bid_and_the_others_score_their_points() -> None:
    state = game(mode="table")
    to_play(state, bid=4)
    for card in PLAY[:6]:
        state.apply("play " + card)
    state.apply("irregular revoke 2")  # the dealer revoked
    for card in PLAY[6:]:
        state.apply("play " + card)
    assert deal_scores(state) == [(2, -4, "revoke"), (0, 13, "points taken"), (1, 1, "points taken")]


def test_no_partner_to_point_out_a_discarded_trump_but_the_dealer_may_ask_wrongly() -> None:
    state = game(mode="table")
    state.apply("bid 4")
    state.apply("pass")
    state.apply("pass")
    state.apply("name hearts")
    state.apply("discard 2S 3S 4S KH")  # a trump thrown out: nobody may point it out (C13)
    assert not any(o.startswith("discarded_trump") for o in offered(state))
    state.apply("discard " + DISCARDS[1])
    state.apply("discard " + DISCARDS[2])
    assert {"asked_for_too_few 2", "asked_for_too_many 2"} <= offered(state)  # the dealer drew too
    hand, stock = state.hand(DEALER), state.zone("stock")
    state.apply("irregular asked_for_too_many 2 1")
    assert sorted(state.hand(DEALER) + [state.zone("stock")[-1]]) == sorted(hand + [stock[-1]])
    assert_all_cards_accounted(state)


def test_a_short_hand_made_good_from_any_players_discards_under_the_option() -> None:
    """`short_hand_from = any_discards` (inherited from the partnership game, C15)."""
    state = game(mode="table", short_hand_from="any_discards")
    to_play(state)
    state.apply("irregular asked_for_too_few 2 1")
    assert state.current_player == DEALER and regular(state)[0] == "keep none"
    assert sorted(regular(state)[1:]) == sorted("keep " + c for c in DISCARDS[2].split())
    state.apply("keep none")
    # Then the discards of the seat on his left, seat 0.
    assert state.current_player == DEALER and sorted(regular(state)[1:]) == ["keep 2S", "keep 3S", "keep 4S"]
    state.apply("keep 3S")
    assert "3S" in state.hand(DEALER) and len(state.hand(DEALER)) == 6 and state.current_player == 0
    assert_all_cards_accounted(state)


# ------------------------------------------------------------------ whole matches


def test_heuristic_matches_end_at_51_and_keep_every_card() -> None:
    for seed in range(4):
        state = interpreter.new_game(CUTTHROAT, seed=seed)
        agents = [HeuristicAgent(seat) for seat in range(3)]
        while not state.is_terminal():
            seat = state.current_player
            assert seat is not None
            state.apply(agents[seat](state))
            assert_all_cards_accounted(state)
        outcome = state.outcome()
        assert outcome is not None and outcome.winner is not None
        assert state.scores[outcome.winner] >= 51


@FAST
@given(seed=st.integers(0, 2**31 - 1), scoring=st.sampled_from(["every_player", "maker_only"]),
       share=st.sampled_from([0.0, 0.1]))
def test_random_matches_conserve_cards_and_end(seed: int, scoring: str, share: float) -> None:
    """Random discards and play in table mode; bidders mostly pass and otherwise bid
    low (uniform random bids set the maker back for ever); a lower target keeps it short."""
    state = interpreter.new_game(CUTTHROAT, seed=seed, mode="table", options={"scoring": scoring, "target": 21})
    rng = random.Random(seed)
    for _ in range(4000):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        usual = [a for a in actions if a.verb != "irregular"]
        unusual = [a for a in actions if a.verb == "irregular"]
        if unusual and rng.random() < share:
            pick = rng.choice(unusual)
        elif state.phase == "auction":
            pick = usual[0] if rng.random() < 0.6 or len(usual) < 2 else usual[1]
        else:
            pick = rng.choice(usual)
        state.apply(pick)
        assert_all_cards_accounted(state)
        if state.phase == "play" and not state.current_trick and state.trick_number == 1:
            assert all(len(state.hand(s)) == 6 for s in range(3)) or share
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None


# ------------------------------------------------------------------ regressions in explain


def test_explain_keeps_the_base_citations_of_inherited_statements() -> None:
    text = explain(CUTTHROAT)
    # `let drawing = false` cites [C13] in rules/cinch.trick; line numbers of the
    # base file are looked up in the text of examples/cinch-cutthroat.trick.
    line = next(ln for ln in text.splitlines() if "Let `drawing` be `false`" in ln)
    assert line.rstrip(".").endswith("[C13]"), line
