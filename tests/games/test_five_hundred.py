"""Five Hundred (examples/five-hundred.trick) on scripted deals: the 43-card pack and the deal
with its kitty [FH1, FH2], the Joker and the bowers [FH3], the auction by the Avondale schedule,
misère only after a seven bid and open misère at any time [FH4], the kitty taken up and three
cards laid away [FH5], misère played alone and open misère exposed [FH6], the Joker at no trump
[FH7] and the scoring with the slam and the match to +500 / -500 [FH8]; then random deals whose
every legal play, trick and score is checked against a player and a scorer written here from the
published rules."""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import assert_native_plays_as_cpython, deal_events, load_example, set_scores

import interpreter
from interpreter import native

RULES = load_example("five-hundred.trick")
SUITS = "SCDH"  # spades, clubs, diamonds, hearts: low to high in the bidding [FH4]
RED_RANKS = "A K Q J 10 9 8 7 6 5 4".split()  # [FH1]
PLAIN = "A K Q J 10 9 8 7 6 5 4".split()  # a plain suit, and every suit at no trump [FH3]
PACK = [r + s for s in SUITS for r in (RED_RANKS if s in "DH" else RED_RANKS[:-1])] + ["JK"]
SAME_COLOUR = {"S": "C", "C": "S", "D": "H", "H": "D"}


def deck(hands: dict[int, str], kitty: str) -> list[str]:
    """The pack for dealer 0: 3, 4 and 3 cards to each from his left, one to the kitty after
    each round [FH2]."""
    cards = {seat: hand.split() for seat, hand in hands.items()}
    rest = kitty.split()
    order: list[str] = []
    for k, (lo, hi) in enumerate(((0, 3), (3, 7), (7, 10))):
        order += [card for seat in (1, 2, 3, 0) for card in cards[seat][lo:hi]]
        order.append(rest[k])
    assert sorted(order) == sorted(PACK), "each card of the 43 once"  # [FH1]
    return order


# Seat 1 holds the Joker, both red jacks and seven more hearts: the top ten trumps at hearts.
TOP_TRUMPS = deck({1: "JK JH JD AH KH QH 10H 9H 8H 7H",
                   2: "AS KS QS JS 10S 9S 8S 7S 6S 5S",
                   3: "AC KC QC JC 10C 9C 8C 7C 6C 5C",
                   0: "AD KD QD 10D 9D 8D 7D 6H 5H 4H"}, kitty="6D 5D 4D")
# Seat 2 holds the Joker with nine spades; seat 0 the last spade, two low hearts, seven diamonds.
JOKER_WEST = deck({1: "JH JD AH KH QH 10H 9H 8H 7H 6H",
                   2: "JK AS KS QS JS 10S 9S 8S 7S 6S",
                   3: "AC KC QC JC 10C 9C 8C 7C 6C 5C",
                   0: "AD KD QD 10D 9D 8D 7D 5H 4H 5S"}, kitty="6D 5D 4D")
# Seat 1 holds the lowest card of every suit; seats 2 and 0 hold higher cards of every suit,
# seat 3 the Joker (laid aside when his partner plays a misère).
LOW_HAND = deck({1: "4H 5H 6H 4D 5D 6D 5S 6S 5C 6C",
                 2: "AH KH QH AD KD QD AS KS QS AC",
                 3: "8H 8D 8S QC JC 10C 9C 8C 7C JK",
                 0: "JH 10H 9H JD 10D 9D JS 10S 9S KC"}, kitty="7H 7D 7S")


def events(state: interpreter.State, kind: str, deal: int = 1) -> list[dict[str, Any]]:
    return [e for e in deal_events(state, deal) if e["type"] == kind]


def calls(state: interpreter.State, *actions: str) -> None:
    for action in actions:
        state.apply(action)


def legal(state: interpreter.State) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def legal_cards(state: interpreter.State) -> set[str]:
    return {a.args[0] for a in state.legal_actions() if a.verb == "play"}


def scores(state: interpreter.State, deal: int = 1) -> dict[int, tuple[str, int]]:
    return {e["side"]: (e["label"], e["points"]) for e in events(state, "score", deal)}


def play_deal(state: interpreter.State, rng: random.Random | None = None) -> None:
    """Each player takes the first action he may (or a random one) to the end of the deal."""
    deal = state.deal_number
    while state.deal_number == deal and not state.is_terminal():
        actions = state.legal_actions()
        state.apply(actions[0] if rng is None else rng.choice(actions))


# --- an independent reading of the rules ------------------------------------------------------

def worth(bid: str) -> int:
    """The Avondale schedule [FH4]."""
    if bid == "MI":
        return 250
    if bid == "OM":
        return 500
    level, strain = int(bid.rstrip("SCDHNT")), bid.lstrip("0123456789")
    return 40 + 20 * ("S", "C", "D", "H", "NT").index(strain) + 100 * (level - 6)


def strain_of(bid: str) -> str:
    """The trump suit's letter, or 'NT' (misère plays at no trump) [FH4, FH6]."""
    return "NT" if bid in ("MI", "OM") else bid.lstrip("0123456789")


def suit_of(card: str, strain: str) -> str:
    """A card's suit in play: the Joker and the left bower are trumps in a suit contract; at no
    trump the Joker is in no suit ('JK') [FH3, FH7]."""
    if card == "JK":
        return strain if strain != "NT" else "JK"
    if strain != "NT" and card == "J" + SAME_COLOUR[strain]:
        return strain
    return card[-1]


def power(card: str, strain: str, led: str) -> int:
    """A card's strength in a trick whose suit led is ``led`` [FH3, FH7]."""
    if card == "JK":
        return 1000
    if strain != "NT" and suit_of(card, strain) == strain:
        if card[:-1] == "J":
            return 900 if card[-1] == strain else 800
        return 500 + len(PLAIN) - PLAIN.index(card[:-1])
    if suit_of(card, strain) == led:
        return 100 + len(PLAIN) - PLAIN.index(card[:-1])
    return 0


def allowed(hand: list[str], trick: list[str], strain: str, named: str | None) -> set[str]:
    """The cards a player may play: follow the suit led if able [FH7]; at no trump the suit of
    a led Joker is the one its player named."""
    if not trick:
        return set(hand)
    led = named if trick[0] == "JK" and strain == "NT" else suit_of(trick[0], strain)
    following = {c for c in hand if suit_of(c, strain) == led}
    return following or set(hand)


def winner_of(cards: list[str], players: list[int], strain: str, named: str | None) -> int:
    led = named if cards[0] == "JK" and strain == "NT" else suit_of(cards[0], strain)
    powers = [power(c, strain, led) for c in cards]
    return players[powers.index(max(powers))]


def reference_scores(bid: str, maker: int, tricks: list[int], before: list[int]) -> dict[int, tuple[str, int]]:
    """The deal's scores by side [FH8]: ``tricks`` are the winners of the tricks played."""
    makers = maker % 2
    took = sum(1 for w in tricks if w % 2 == makers)
    misere = bid in ("MI", "OM")
    made = took == 0 if misere else took >= int(bid.rstrip("SCDHNT"))
    if made and took == 10 and worth(bid) < 250:
        out = {makers: ("slam", 250)}
    elif made:
        out = {makers: ("contract made", worth(bid))}
    else:
        out = {makers: ("contract lost", -worth(bid))}
    if before[makers] + out[makers][1] >= 500:  # the contractors' score first: the match ends [FH8]
        return out
    if not misere and len(tricks) > took:  # (nothing is scored for no trick)
        out[1 - makers] = ("tricks", 10 * (len(tricks) - took))
    return out


# --- the pack, the deal, the auction ------------------------------------------------------------

def test_the_pack_has_43_cards_ten_to_each_and_three_in_the_kitty() -> None:
    assert RULES.warnings == () and RULES.player_count == 4 and len(RULES.cards) == 43  # [FH1]
    state = interpreter.new_game(RULES, deck=TOP_TRUMPS, dealer=0)
    assert [len(e["cards"]) for e in events(state, "dealt") if e["player"] == 1] == [3, 4, 3]  # [FH2]
    assert all(len(state.hand(seat)) == 10 for seat in range(4))  # [FH2]
    assert sorted(state.zone("kitty")) == ["4D", "5D", "6D"]  # one after each round [FH2]
    fresh = interpreter.new_game(RULES, seed=11)
    assert sorted([c for seat in range(4) for c in fresh.hand(seat)] + fresh.zone("kitty")) == sorted(PACK)  # [FH1]


def test_bids_rank_by_the_avondale_schedule_with_open_misere_below_ten_hearts() -> None:
    state = interpreter.new_game(RULES, deck=TOP_TRUMPS, dealer=0)
    bids = [a.removeprefix("bid ") for a in legal(state) if a.startswith("bid ")]
    assert legal(state)[0] == "pass" and "MI" not in bids  # misère only after a seven bid [FH4]
    assert bids[:6] == ["6S", "6C", "6D", "6H", "6NT", "7S"]  # [FH4]
    assert bids[-3:] == ["OM", "10H", "10NT"]  # open misère (500) just below ten hearts [FH4]
    assert [worth(b) for b in bids] == sorted(worth(b) for b in bids) and worth("10NT") == 520


def test_misere_only_after_a_seven_bid_and_a_passed_player_bids_no_more() -> None:
    state = interpreter.new_game(RULES, deck=TOP_TRUMPS, dealer=0)
    calls(state, "bid 6H")  # seat 1
    assert "bid MI" not in legal(state) and "bid OM" in legal(state)  # [FH4]
    calls(state, "pass", "bid 7S")  # seat 2 passes; seat 3 bids at the seven level
    assert "bid MI" in legal(state) and "bid 7S" not in legal(state)  # seat 0: misère now [FH4]
    calls(state, "bid MI")
    assert state.current_player == 1  # seat 2 passed: he is passed over [FH4]
    assert legal(state)[:2] == ["pass", "bid 8C"]  # misère (250) is above 8S (240), below 8C (260) [FH4]
    calls(state, "pass", "pass")
    [contract] = events(state, "contract")
    assert (contract["maker"], contract["bid"]) == (0, "MI")  # all but one passed [FH4]


def test_a_deal_all_pass_is_thrown_in_and_the_next_dealer_deals() -> None:
    state = interpreter.new_game(RULES, deck=TOP_TRUMPS, dealer=0)
    calls(state, "pass", "pass", "pass", "pass")
    assert state.deal_number == 2 and state.dealer == 1  # [FH4]
    assert events(state, "score") == []


# --- the kitty, the trumps, the Joker -----------------------------------------------------------

def test_the_contractor_takes_the_kitty_lays_away_three_and_leads() -> None:
    state = interpreter.new_game(RULES, deck=TOP_TRUMPS, dealer=0)
    calls(state, "pass", "bid 6S", "pass", "pass")  # seat 2: the other three have passed [FH4]
    assert len(state.hand(2)) == 13 and state.zone("kitty") == []  # [FH5]
    calls(state, "discard 5S 6D 5D")
    assert sorted(state.zone("laid_away", 2)) == ["5D", "5S", "6D"] and len(state.hand(2)) == 10  # [FH5]
    assert state.current_player == 2  # the contractor leads [FH7]


def test_at_hearts_the_joker_and_both_red_jacks_are_the_top_trumps_and_a_slam_scores_250() -> None:
    state = interpreter.new_game(RULES, deck=TOP_TRUMPS, dealer=0)
    calls(state, "bid 7H", "pass", "pass", "pass")
    calls(state, "discard 6D 5D 4D")
    state.apply("play JD")  # the left bower leads: it is a heart [FH3]
    state.apply(state.legal_actions()[0])  # seat 2, no hearts
    state.apply(state.legal_actions()[0])  # seat 3, no hearts
    assert legal_cards(state) == {"6H", "5H", "4H"}  # seat 0 follows hearts, not diamonds [FH3, FH7]
    play_deal(state)
    tricks = events(state, "trick")
    assert [t["winner"] for t in tricks] == [1] * 10
    assert scores(state) == {1: ("slam", 250)}  # 7H is 200: a slam scores 250 [FH8]


def test_at_diamonds_the_jack_of_hearts_is_a_diamond_and_beats_the_ace() -> None:
    state = interpreter.new_game(RULES, deck=TOP_TRUMPS, dealer=0)
    calls(state, "bid 6D", "pass", "pass", "pass", "discard 7H 8H 9H")
    state.apply("play JH")  # the left bower at diamonds [FH3]
    calls(state, "play 5S", "play 5C")
    assert legal_cards(state) == {"AD", "KD", "QD", "10D", "9D", "8D", "7D"}  # trumps led: diamonds [FH3]
    state.apply("play AD")
    [trick] = events(state, "trick")
    assert trick["winner"] == 1  # the left bower beats the ace of trumps [FH3]
    state.apply("play JK")  # the Joker is the highest trump [FH3]
    calls(state, "play 6S", "play 6C")
    assert legal_cards(state) == {"KD", "QD", "10D", "9D", "8D", "7D"}  # the Joker led calls for trumps
    state.apply("play KD")
    assert events(state, "trick")[1]["winner"] == 1


def test_at_no_trump_the_joker_wins_but_only_when_its_holder_cannot_follow() -> None:
    state = interpreter.new_game(RULES, deck=JOKER_WEST, dealer=0)
    calls(state, "bid 6NT", "pass", "pass", "pass", "discard 6D 5D 4D")
    state.apply("play AH")  # seat 1 leads [FH7]
    assert "JK" in legal_cards(state)  # seat 2 has no heart: the Joker may be played [FH7]
    state.apply("play JK")
    state.apply(state.legal_actions()[0])  # seat 3
    assert legal_cards(state) == {"5H", "4H"}  # seat 0 follows hearts [FH7]
    state.apply("play 5H")
    assert events(state, "trick")[0]["winner"] == 2  # the Joker is the only trump at no trump [FH3]


def test_at_no_trump_the_joker_holder_must_follow_suit() -> None:
    state = interpreter.new_game(RULES, deck=JOKER_WEST, dealer=0)
    calls(state, "pass", "pass", "pass", "bid 6NT", "discard 6D 5D 4D")  # seat 0 [FH4]
    calls(state, "play 5S", "play JH")  # seat 0 leads a spade; seat 1 has none
    assert "JK" not in legal_cards(state) and legal_cards(state) <= {c for c in PACK if c.endswith("S")}  # [FH7]


def test_the_joker_led_at_no_trump_names_the_suit_the_others_follow_and_wins() -> None:
    state = interpreter.new_game(RULES, deck=JOKER_WEST, dealer=0)
    calls(state, "pass", "bid 6NT", "pass", "pass", "discard 6S 7S 8S")  # seat 2 [FH4, FH5]
    state.apply("play JK")
    assert legal(state) == ["name spades", "name clubs", "name diamonds", "name hearts"]  # [FH7]
    state.apply("name hearts")
    [named] = events(state, "suit_led")
    assert named["player"] == 2
    assert legal_cards(state) == {"5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC"}  # seat 3: none
    state.apply("play 5C")
    assert legal_cards(state) == {"5H", "4H"}  # seat 0 follows the suit named [FH7]
    state.apply("play 4H")
    # At no trump the jack of diamonds is a diamond: seat 1 follows with hearts only [FH3].
    assert legal_cards(state) == {"JH", "AH", "KH", "QH", "10H", "9H", "8H", "7H", "6H"}
    state.apply("play AH")
    assert events(state, "trick")[0]["winner"] == 2  # the Joker wins the trick [FH7]


def test_naming_the_suit_led_has_action_ids_for_game_ai_tools() -> None:
    state = interpreter.new_game(RULES, deck=JOKER_WEST, dealer=0)
    calls(state, "pass", "bid 6NT", "pass", "pass", "discard 6S 7S 8S", "play JK")
    ids = state.legal_action_ids()
    assert [str(state.action_from_id(i)) for i in ids] == legal(state)  # name spades ... name hearts
    state.apply_id(state.action_id("name clubs"))
    assert events(state, "suit_led")[0]["suit"] == "clubs"


# --- misère, open misère, the match -------------------------------------------------------------

def test_misere_is_played_alone_at_no_trump_and_ends_at_the_first_trick_taken() -> None:
    state = interpreter.new_game(RULES, deck=JOKER_WEST, dealer=0)
    calls(state, "bid 7S", "bid MI", "pass", "pass", "pass", "discard 6S 7S 8S")  # seat 2 [FH4]
    assert state.hand(0) == [] and len(state.zone("out", 0)) == 10  # his partner lays his hand aside [FH6]
    [trump] = events(state, "trump")
    assert trump["order"] == "no_trumps"  # misère plays at no trump [FH6]
    calls(state, "play 4D", "play AC")  # seat 2 leads; seat 3 plays; seat 0 is passed over
    assert state.current_player == 1
    assert legal_cards(state) == {"JD"}  # at no trump the jack of diamonds is a diamond [FH3]
    calls(state, "play JD", "play AH", "play JK", "play KC")  # seat 1 wins; then the Joker wins
    assert [t["winner"] for t in events(state, "trick")] == [1, 2]
    assert state.deal_number == 2  # the contractor took a trick: the play ends [FH8]
    assert scores(state) == {0: ("contract lost", -250)}  # no trick score at misère [FH8]


def test_open_misere_made_exposes_the_hand_and_scores_500_which_wins_the_match() -> None:
    state = interpreter.new_game(RULES, deck=LOW_HAND, dealer=0)
    calls(state, "bid OM", "pass", "pass", "pass", "discard 7H 7D 7S")  # [FH4]
    assert state.hand(3) == []  # [FH6]
    state.apply("play 4H")
    before = set(_seen_by(state, 2))
    assert not set(state.hand(1)) & before  # not shown before the first trick
    calls(state, "play AH", "play JH")
    assert events(state, "trick")[0]["winner"] == 2
    assert set(state.hand(1)) <= set(_seen_by(state, 2)) and set(state.hand(1)) <= set(_seen_by(state, 0))  # [FH6]
    play_deal(state)
    assert [t["winner"] for t in events(state, "trick")].count(1) == 0 and len(events(state, "trick")) == 10
    assert scores(state) == {1: ("contract made", 500)}  # [FH8]
    assert state.is_terminal() and events(state, "match_end")[0]["winner"] == 1  # 500 wins [FH8]


def test_a_side_at_minus_500_loses_the_match() -> None:
    state = interpreter.new_game(RULES, deck=JOKER_WEST, dealer=0)
    calls(state, "pass", "bid OM", "pass", "pass", "discard 6D 5D 4D")  # seat 2
    calls(state, "play AS")  # the ace of spades cannot lose: seat 2 takes the first trick
    play_deal(state)
    assert scores(state) == {0: ("contract lost", -500)}  # [FH8]
    assert state.is_terminal() and events(state, "match_end")[0]["winner"] == 1  # -500 loses [FH8]


def test_a_contract_made_scores_its_value_and_the_opponents_ten_a_trick() -> None:
    state = interpreter.new_game(RULES, deck=JOKER_WEST, dealer=0)
    calls(state, "bid 6H", "pass", "pass", "pass", "discard 6D 5D 4D")  # seat 1 [FH4]
    play_deal(state)
    winners = [t["winner"] for t in events(state, "trick")]
    assert scores(state) == reference_scores("6H", 1, winners, [0, 0])  # [FH8]
    assert scores(state)[1] == ("contract made", 100)
    assert scores(state)[0][0] == "tricks" and scores(state)[0][1] > 0  # the others took some [FH8]


def test_the_contractors_reaching_500_win_before_the_others_score_their_tricks() -> None:
    state = interpreter.new_game(RULES, deck=JOKER_WEST, dealer=0)
    calls(state, "bid 6H", "pass", "pass", "pass", "discard 6D 5D 4D")  # seat 1 [FH4]
    set_scores(state, [450, 400])  # (a scripted position: the match so far)
    play_deal(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 1  # [FH8]
    assert outcome.scores == (450, 500)  # side 0 took tricks, not counted: the match ended at 500 [FH8]


def _seen_by(state: interpreter.State, seat: int) -> list[str]:
    """The cards of other hands that ``seat`` sees in its observation."""
    hands = state.observation(seat)["zones"]["hand"]
    return [card for holder, zone in hands.items() if holder != str(seat) for card in zone.get("cards", [])]


# --- random deals against the reading above -----------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_random_deals_play_and_score_as_the_rules_say(seed: int) -> None:
    """Every legal play, every trick and the deal's score of random deals [FH3, FH4, FH7, FH8]."""
    state = interpreter.new_game(RULES, seed=seed, dealer=seed % 4)
    check_deal(state, random.Random(seed))


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("auction", [("bid 7S", "bid MI", "pass", "pass", "pass"), ("bid OM", "pass", "pass", "pass")])
def test_random_misere_deals_play_and_score_as_the_rules_say(seed: int, auction: tuple[str, ...]) -> None:
    """Misère and open misère on random deals, played at random [FH6, FH7, FH8]."""
    state = interpreter.new_game(RULES, seed=seed, dealer=0)
    calls(state, *auction)
    check_deal(state, random.Random(seed))


def check_deal(state: interpreter.State, rng: random.Random) -> None:
    """Play the first deal out at random, checking every play offered, then every trick and
    the score, against the reading of the rules above."""
    while state.deal_number == 1 and not state.is_terminal():
        actions = state.legal_actions()
        plays = [a for a in actions if a.verb == "play"]
        if plays:
            contract = events(state, "contract")[-1]
            trick = [card for _, card in state.current_trick]
            player = state.current_player
            assert player is not None
            expected = allowed(state.hand(player), trick, strain_of(contract["bid"]), _named(state))
            assert {a.args[0] for a in plays} == expected, (trick, state.hand(player), contract)
        state.apply(rng.choice(actions))
    if state.deal_number > 1 and not events(state, "contract"):
        return  # thrown in [FH4]
    [contract] = events(state, "contract")
    misere = contract["bid"] in ("MI", "OM")
    winners = []
    for t in events(state, "trick"):
        assert t["winner"] == winner_of(t["cards"], t["players"], strain_of(contract["bid"]), _named(state)), t
        winners.append(t["winner"])
        if misere:
            assert (contract["maker"] + 2) % 4 not in t["players"] and len(t["players"]) == 3  # alone [FH6]
    if misere and contract["maker"] in winners:
        assert winners.index(contract["maker"]) == len(winners) - 1  # the play ends there [FH8]
    else:
        assert len(winners) == 10
    assert scores(state) == reference_scores(contract["bid"], contract["maker"], winners, [0, 0])  # [FH8]


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    """The Joker, the named suit led, misère's end of play and the match end, natively alike."""
    assert_native_plays_as_cpython(RULES, range(6), step=True)


def _named(state: interpreter.State) -> str | None:
    """The suit named in the first deal when the Joker was led at no trump (once at most) [FH7]."""
    named = events(state, "suit_led")
    return {"spades": "S", "clubs": "C", "diamonds": "D", "hearts": "H"}[named[-1]["suit"]] if named else None
