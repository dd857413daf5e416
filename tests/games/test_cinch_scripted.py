"""Scripted Cinch deals: prearranged packs that replay the worked examples of
rules/laws.md (C20-C22 plays, the five scoring examples) and
walk through the deal, the auction, the discard, the draw and robbing (C1-C36)."""

from __future__ import annotations

import re
from math import comb
from pathlib import Path
from typing import Any

from helpers import deal_events, decision, set_scores

import interpreter
import tricklang
from interpreter.errors import RuleRuntimeError

RULES = Path(__file__).resolve().parents[2] / "rules" / "cinch.trick"
CINCH = tricklang.load(RULES)
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]




def test_the_rule_file_loads_without_warnings() -> None:
    assert CINCH.warnings == ()
    assert CINCH.options == {"target": 51, "show_left_trumps": False, "scoring": "setback", "short_hand_from": "own_discards"}
    assert CINCH.player_count == 4 and len(CINCH.cards) == 52


# ---------------------------------------------------------------- arranging a deal


def pack(hands: dict[int, list[str]], dealer: int, stock: list[str] | None = None) -> list[str]:
    """The pack in dealing order: three rounds of three cards, from the dealer's
    left round to the dealer [C5], then the stock, top card first."""
    order: list[str] = []
    for r in range(3):
        for i in range(4):
            order += hands[(dealer + 1 + i) % 4][3 * r: 3 * r + 3]
    rest = [c for c in ALL_CARDS if c not in order and c not in (stock or [])]
    return order + (stock or []) + rest


def spare(kept: dict[int, list[str]], avoid: str = "H") -> list[str]:
    """Cards nobody keeps, those of the avoided suit last."""
    used = {c for h in kept.values() for c in h}
    free = [c for c in ALL_CARDS if c not in used]
    return sorted(free, key=lambda c: (c[-1] == avoid, ALL_CARDS.index(c)))


def arranged(kept: dict[int, list[str]], *, dealer: int = 3, bids: dict[int, int] | None = None,
             trump: str = "hearts", scoring: str = "setback", target: int = 51,
             junk: dict[int, list[str]] | None = None) -> interpreter.State:
    """A deal brought to the first lead: each seat is dealt its six kept cards and
    three spares, the given bids are made (the others pass), the maker names the
    trump and each seat throws its three spares, so that nobody draws or robs."""
    given = junk or {}
    free = [c for c in spare(kept) if not any(c in j for j in given.values())]
    junk = {}
    for seat in range(4):
        junk[seat] = given.get(seat) or free[:3]
        if seat not in given:
            free = free[3:]
    hands = {seat: kept[seat] + junk[seat] for seat in range(4)}
    state = interpreter.new_game(CINCH, deck=pack(hands, dealer), dealer=dealer,
                                 options={"scoring": scoring, "target": target})
    bids = bids or {}
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        assert state.current_player == seat
        state.apply(f"bid {bids[seat]}" if seat in bids else "pass")
    state.apply(f"name {trump}")
    for i in range(4):
        seat = (dealer + 1 + i) % 4
        state.apply("discard " + " ".join(junk[seat]))
    rob_nothing(state)
    assert decision(state) == "play"
    for seat in range(4):
        assert sorted(state.hand(seat)) == sorted(kept[seat])
    return state


def rob_nothing(state: interpreter.State) -> None:
    """The dealer, holding six, looks through the pack and takes nothing from it [C16]."""
    if decision(state) == "rob":
        state.apply("rob none")


def play(state: interpreter.State, *cards: str) -> None:
    for card in cards:
        seat = state.current_player
        assert seat is not None and card in state.hand(seat), (card, seat, state.hand(seat) if seat is not None else None)
        state.apply(f"play {card}")


def legal_cards(state: interpreter.State) -> set[str]:
    return {a.args[0] for a in state.legal_actions() if a.verb == "play"}


def scores_of(state: interpreter.State, deal: int = 1) -> dict[int, int]:
    got: dict[int, int] = {}
    for e in deal_events(state, deal):
        if e["type"] == "score":
            got[e["side"]] = got.get(e["side"], 0) + e["points"]
    return got


# ---------------------------------------------------------------- C5, C6: the deal and the auction


def test_nine_cards_each_three_at_a_time_from_the_dealers_left() -> None:
    deck = list(ALL_CARDS)
    state = interpreter.new_game(CINCH, deck=deck, dealer=1)
    # Seat 2 (the dealer's left) gets cards 0-2, 12-14 and 24-26; the dealer seat 1 gets 9-11, 21-23, 33-35.
    assert sorted(state.hand(2)) == sorted(deck[0:3] + deck[12:15] + deck[24:27])
    assert sorted(state.hand(1)) == sorted(deck[9:12] + deck[21:24] + deck[33:36])
    assert state.zone("stock")[::-1] == deck[36:]  # sixteen left, top last
    assert decision(state) == "auction" and state.current_player == 2
    assert [e["type"] for e in state.events(None)].count("turn_up") == 0  # no trump turned [C5]


def test_one_round_of_rising_bids_from_the_dealers_left() -> None:
    state = interpreter.new_game(CINCH, seed=7, dealer=0)
    assert state.current_player == 1
    assert [a.text for a in state.legal_actions()] == ["pass"] + [f"bid {b}" for b in range(1, 15)]
    state.apply("bid 5")
    assert state.current_player == 2
    assert [a.text for a in state.legal_actions()] == ["pass"] + [f"bid {b}" for b in range(6, 15)]
    assert not state.is_legal("bid 5")
    state.apply("pass")
    state.apply("bid 14")  # every point in the deal
    assert state.current_player == 0  # the dealer speaks last
    assert [a.text for a in state.legal_actions()] == ["pass"]
    state.apply("pass")
    contract = [e for e in state.events(None) if e["type"] == "contract"]
    assert contract[-1]["maker"] == 3 and contract[-1]["bid"] == 14
    assert decision(state) == "naming" and state.current_player == 3  # the maker names [C7]
    assert sorted(a.text for a in state.legal_actions()) == ["name clubs", "name diamonds", "name hearts", "name spades"]


def test_four_passes_leave_the_dealer_to_name_trumps_at_nothing() -> None:
    """C8, C34 with method A: the dealer names trumps and leads; nobody can be set back."""
    kept = {
        0: ["AH", "JH", "3S", "2C", "4C", "5S"],
        1: ["3H", "6H", "4S", "2H", "5C", "6S"],
        2: ["5H", "QH", "2S", "3C", "6C", "7S"],
        3: ["4H", "7H", "AS", "10H", "5D", "KS"],
    }
    state = arranged(kept, dealer=0)  # nobody bids: seat 0 deals, names hearts and leads
    contract = [e for e in deal_events(state) if e["type"] == "contract"][-1]
    assert contract["maker"] == 0 and contract["bid"] == 0
    trump = [e for e in deal_events(state) if e["type"] == "trump"][-1]
    assert trump["player"] == 0 and trump["suit"] == "hearts"
    play_d1(state)
    assert scores_of(state) == {0: 7, 1: 7}


def test_with_no_bid_the_difference_method_scores_the_difference() -> None:
    """C34 with method B: the side with more points scores the difference."""
    state = arranged(KEPT_D2, dealer=0, scoring="difference")
    play_d2(state)
    assert scores_of(state) == {1: 2}  # E/W 8 - N/S 6


# ---------------------------------------------------------------- C12, C14, C16-C18: discards, draw, robbing


def test_discards_are_three_or_more_face_up_in_turn_from_eldest() -> None:
    state = interpreter.new_game(CINCH, seed=3, dealer=2)
    for _seat in (3, 0, 1, 2):
        state.apply("pass")
    state.apply("name spades")
    for seat in (3, 0, 1, 2):  # eldest first, the dealer last
        assert decision(state) == "discard" and state.current_player == seat
        hand = state.hand(seat)
        sizes = [len(a.args) for a in state.legal_actions()]
        assert min(sizes) == 3 and max(sizes) == 9
        assert len(sizes) == sum(comb(9, k) for k in range(3, 10))
        assert not state.is_legal("discard " + " ".join(hand[:2]))
        state.apply("discard " + " ".join(hand[:3 + seat]))
    discards = [e for e in deal_events(state) if e["type"] == "select" and e["verb"] == "discard"]
    assert [e["player"] for e in discards] == [3, 0, 1, 2]
    for viewer in range(4):  # every seat sees every discarded card
        seen = [v for v in state.events(viewer) if v["type"] == "select" and v["verb"] == "discard"]
        assert [v.get("cards") for v in seen] == [e["cards"] for e in discards]


def test_the_dealer_serves_each_other_player_to_six_from_the_top() -> None:
    """C14: seat 0 threw five, seat 1 three, seat 2 four; they get 2, 0, 1 cards in that order."""
    deck = list(ALL_CARDS)
    state = interpreter.new_game(CINCH, deck=deck, dealer=3)
    stock_top = deck[36:]
    state.apply("bid 1")
    for _ in range(3):
        state.apply("pass")
    state.apply("name spades")
    thrown = {0: 5, 1: 3, 2: 4, 3: 6}
    kept = {}
    for seat in range(4):
        hand = state.hand(seat)
        state.apply("discard " + " ".join(hand[-thrown[seat]:]))
        kept[seat] = hand[:-thrown[seat]]
    draws = [e for e in deal_events(state) if e["type"] == "draw"]
    assert [(e["player"], e["cards"]) for e in draws] == [(0, stock_top[0:2]), (2, stock_top[2:3])]
    assert sorted(state.hand(0)) == sorted(kept[0] + stock_top[0:2])
    assert len(state.hand(1)) == 6 and len(state.hand(2)) == 6
    for viewer in (1, 2, 3):  # served face down
        seen = [v for v in state.events(viewer) if v["type"] == "draw" and v["player"] == 0][-1]
        assert "cards" not in seen and seen["count"] == 2
    # C16: the dealer holds three and takes from the thirteen left at least three (to
    # reach six) and at most six (he will then throw down to six).
    assert decision(state) == "rob" and state.current_player == 3
    rest = state.zone("stock")
    assert sorted(rest) == sorted(stock_top[3:])
    assert len(state.legal_actions()) == sum(comb(13, k) for k in range(3, 7))
    assert all(3 <= len(a.args) <= 6 and set(a.args) <= set(rest) for a in state.legal_actions())


def test_the_dealer_robs_to_six_and_shows_the_trumps_he_leaves() -> None:
    """C16, C17, C27: the dealer keeps four trumps, takes two more, and the two left in
    the pack are thrown face up; the Low and the Left Pedro so score for nobody."""
    kept = {
        0: ["AS", "KS", "QS", "JS", "10S", "9S"],
        1: ["AD", "KD", "QD", "JD", "10D", "9D"],
        2: ["AC", "KC", "QC", "JC", "10C", "9C"],
        3: ["AH", "KH", "QH", "9H", "8S", "7S"],
    }
    junk = {0: ["8D", "7D", "6D"], 1: ["8C", "7C", "6C"], 2: ["6S", "5S", "4S"], 3: ["3S", "2S", "4D"]}
    stock = ["JH", "10H", "2H", "5D", "8H", "3D", "2D", "5C", "4C", "3C", "2C", "7H", "6H", "5H", "4H", "3H"]
    hands = {s: kept[s] + junk[s] for s in range(4)}
    deck = pack(hands, 3, stock)
    state = interpreter.new_game(CINCH, deck=deck, dealer=3)
    for call in ("pass", "pass", "pass", "bid 3"):
        state.apply(call)
    state.apply("name hearts")
    for seat in range(3):
        state.apply("discard " + " ".join(junk[seat]))
    state.apply("discard 8S 7S " + " ".join(junk[3]))  # the dealer keeps four trumps
    assert decision(state) == "rob"
    assert len(state.legal_actions()) == sum(comb(16, k) for k in range(2, 7))
    state.apply("rob JH 10H")
    assert sorted(state.hand(3)) == sorted(["AH", "KH", "QH", "JH", "10H", "9H"])
    shown = {"2H", "5D", "8H", "7H", "6H", "5H", "4H", "3H"}  # every trump left in the pack
    assert shown <= set(state.zone("discards", 3))
    assert not shown & set(state.zone("stock"))
    for viewer in range(4):
        moves = [e for e in state.events(viewer) if e["type"] == "move"]
        assert set(moves[-1]["cards"]) == shown
    # The dealer (the maker) leads his six trumps; seats 0-2 hold none and win nothing.
    for _ in range(6):
        play(state, state.hand(3)[0], *[state.hand(s)[0] for s in (0, 1, 2)])
    assert side_points(state) == [0, 3]  # High, Jack, Game; Low and both Pedros are dead
    assert scores_of(state) == {1: 3}


TRUMPS_IF_HEARTS = {r + "H" for r in RANKS} | {"5D"}
PLAIN_JUNK = ["8D", "7D", "6D", "8C", "7C", "6C", "6S", "5S", "4S"]


def robbing(dealer_keeps: list[str], stock_top: list[str], *, others_junk: list[str] = PLAIN_JUNK,
            options: dict[str, Any] | None = None) -> interpreter.State:
    """Hearts are trumps; seats 0-2 keep six plain cards and throw `others_junk` (three
    each), so nobody draws; the dealer (3) keeps `dealer_keeps` and throws three plain
    cards; the pack's top is `stock_top`, the cards nobody holds below it."""
    kept = {0: ["AS", "KS", "QS", "JS", "10S", "9S"], 1: ["AD", "KD", "QD", "JD", "10D", "9D"],
            2: ["AC", "KC", "QC", "JC", "10C", "9C"]}
    junk = {s: others_junk[3 * s: 3 * s + 3] for s in range(3)}
    used = {c for h in (*kept.values(), *junk.values(), dealer_keeps, stock_top) for c in h}
    junk[3] = [c for c in ALL_CARDS if c not in used and c not in TRUMPS_IF_HEARTS][:3]
    hands = {**{s: kept[s] + junk[s] for s in range(3)}, 3: dealer_keeps + junk[3]}
    state = interpreter.new_game(CINCH, deck=pack(hands, 3, stock_top), dealer=3, options=options)
    for call in ("pass", "pass", "pass", "bid 3"):
        state.apply(call)
    state.apply("name hearts")
    for seat in range(4):
        state.apply("discard " + " ".join(junk[seat]))
    assert decision(state) == "rob" and state.current_player == 3 and len(state.zone("stock")) == 16
    return state


def shown_face_up(state: interpreter.State) -> set[str]:
    """The trumps thrown face up by the dealer when he robbed."""
    return {c for e in state.events(0) if e["type"] == "move" and e["to"] == "discards of seat 3" for c in e["cards"]}


LOW_TRUMPS = ["9H", "8H", "7H", "6H", "4H", "3H"]
BEST_IN_PACK = ["AH", "JH", "10H", "5H", "5D"]  # High, Jack, Game and both Pedros: fourteen points with Low


def test_robbing_more_than_six_trumps_he_keeps_the_six_he_chooses_of_hand_and_pack() -> None:
    """C16, C17: six low trumps in hand, the five best and the Low in the pack: he gives
    up all six of his own for them. Fourteen trumps were seen, so every trump he does
    not keep is thrown face up; a plain card he leaves stays hidden in the pack."""
    state = robbing(LOW_TRUMPS, [*BEST_IN_PACK, "2H", "5C", "QH"])
    state.apply("rob " + " ".join(BEST_IN_PACK + ["2H"]))
    assert decision(state) == "discard" and len(state.hand(3)) == 12
    state.apply("discard " + " ".join(LOW_TRUMPS))
    assert sorted(state.hand(3)) == sorted(BEST_IN_PACK + ["2H"])
    thrown = TRUMPS_IF_HEARTS - set(state.hand(3))  # his own low trumps and those he left in the pack
    assert shown_face_up(state) == thrown and not thrown & set(state.zone("stock"))
    assert "5C" in state.zone("stock")
    others = [e for e in state.events(0) if e["type"] == "select" and e["player"] == 3 and e["verb"] in ("rob", "discard")]
    assert [e["verb"] for e in others[-2:]] == ["rob", "discard"] and all("cards" not in e for e in others[-2:])
    for _ in range(6):  # the maker leads his six trumps and takes all fourteen points
        play(state, state.hand(3)[0], *[state.hand(s)[0] for s in (0, 1, 2)])
    assert side_points(state) == [0, 14]


def test_robbing_he_may_keep_trumps_he_held_and_still_throws_the_excess_face_up() -> None:
    """C17: holding 9H 8H and four plain cards, he takes five trumps and keeps his own 9H."""
    state = robbing(["9H", "8H", "2C", "3C", "4C", "5C"], ["AH", "KH", "QH", "JH", "10H"])
    state.apply("rob AH KH QH JH 10H")
    state.apply("discard 8H 2C 3C 4C 5C")
    assert sorted(state.hand(3)) == sorted(["AH", "KH", "QH", "JH", "10H", "9H"])
    assert "8H" in shown_face_up(state) and shown_face_up(state) == TRUMPS_IF_HEARTS - set(state.hand(3))
    assert {"2C", "3C", "4C", "5C"} <= set(state.zone("stock"))  # plain cards stay hidden


def test_robbing_exactly_six_trumps_the_one_he_leaves_stays_hidden() -> None:
    """C17, the law's reading: with six trumps in hand and pack he may leave one in the
    pack, and it is not shown; under the option `show_left_trumps` it is."""
    for show in (False, True):
        state = robbing(["AH", "KH", "QH", "2C", "3C", "4C"], ["JH", "10H", "9H", "5C"],
                        others_junk=["8H", "7H", "6H", "5H", "4H", "3H", "2H", "5D", "8D"],
                        options={"show_left_trumps": show})
        state.apply("rob JH 10H")
        state.apply("discard 2C 3C")
        assert sorted(state.hand(3)) == sorted(["AH", "KH", "QH", "JH", "10H", "4C"])
        assert ("9H" in state.zone("stock")) is not show
        assert shown_face_up(state) == ({"9H"} if show else set())
        seen_by_0 = {c for e in state.events(0) for c in e.get("cards", [])}
        assert ("9H" in seen_by_0) is show


def test_robbing_fewer_than_six_trumps_he_may_take_them_all() -> None:
    state = robbing(["AH", "QH", "2C", "3C", "4C", "5C"], ["JH", "10H", "9H"],
                    others_junk=["8H", "7H", "6H", "5H", "4H", "3H", "2H", "5D", "KH"])
    state.apply("rob JH 10H 9H")
    state.apply("discard 2C 3C 4C")
    assert sorted(state.hand(3)) == sorted(["AH", "QH", "JH", "10H", "9H", "5C"])
    assert shown_face_up(state) == set() and {"2C", "3C", "4C"} <= set(state.zone("stock"))


def test_robbing_still_offers_any_cards_of_the_pack_none_included() -> None:
    """C16 (`dealer takes any from stock and keeps 6 as rob`): the dealer chooses which
    cards of the pack he takes, any of them up to six, none included; only then does he
    throw down to six (`takes all` would put the whole pack in his hand first)."""
    state = robbing(LOW_TRUMPS, [*BEST_IN_PACK, "2H", "5C", "QH"])
    stock = state.zone("stock")
    offered = state.legal_actions()
    assert len(offered) == sum(comb(16, k) for k in range(7))  # every subset of the 16 cards, at most six
    assert "rob none" in offered.texts()
    assert {len(a.args) for a in offered if a.text != "rob none"} == set(range(1, 7))
    assert all(a.verb == "rob" and (a.text == "rob none" or set(a.args) <= set(stock)) for a in offered)
    state.apply("rob none")
    assert sorted(state.hand(3)) == sorted(LOW_TRUMPS)  # he kept his own six
    assert decision(state) == "play"  # six in hand: nothing to throw down


def test_robbing_a_short_pack_he_takes_all_there_is() -> None:
    """C16 after a short stock: seats 0 and 1 throw all nine and are served six each,
    seat 2 keeps six; four cards are left when the dealer, who threw all nine, robs."""
    hands = {0: ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"],
             1: ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "6D"],
             2: ["AH", "KH", "QH", "JH", "10H", "9H", "2C", "3C", "4C"],
             3: ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C"]}
    state = interpreter.new_game(CINCH, deck=pack(hands, 3), dealer=3)
    for call in ("bid 1", "pass", "pass", "pass"):
        state.apply(call)
    state.apply("name hearts")
    for discard in (hands[0], hands[1], ["2C", "3C", "4C"], hands[3]):
        state.apply("discard " + " ".join(discard))
    left = list(state.zone("stock"))
    assert len(left) == 4 and decision(state) == "rob"
    only = state.legal_actions()
    assert len(only) == 1 and sorted(only[0].args) == sorted(left)
    state.apply(only[0])
    assert sorted(state.hand(3)) == sorted(left) and state.zone("stock") == []
    assert decision(state) == "play"


def short_stock(seat2: list[str]) -> interpreter.State:
    """Seats 0-2 throw all nine (seat 2 holding `seat2`), the dealer (3) throws three:
    seats 0 and 1 get six each from the stock, seat 2 the last four."""
    hands = {
        0: ["AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S"],
        1: ["AD", "KD", "QD", "JD", "10D", "9D", "8D", "7D", "6D"],
        2: seat2,
        3: ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C", "6C"],
    }
    state = interpreter.new_game(CINCH, deck=pack(hands, 3), dealer=3)
    state.apply("bid 1")
    for _ in range(3):
        state.apply("pass")
    state.apply("name hearts")
    for seat in range(3):
        state.apply("discard " + " ".join(hands[seat]))
    state.apply("discard 9C 8C 7C")
    draws = [(e["player"], e["count"]) for e in deal_events(state) if e["type"] == "draw"]
    assert draws == [(0, 6), (1, 6), (2, 4)] and state.zone("stock") == []
    return state


def test_a_short_stock_is_made_good_from_the_players_own_plain_discards() -> None:
    """C18: seat 2 gets the last four cards and picks two of his three thrown clubs,
    never a trump; the other seats see which."""
    state = short_stock(["AH", "KH", "QH", "JH", "10H", "5D", "2C", "3C", "4C"])
    assert decision(state) == "keep" and state.current_player == 2
    assert sorted(a.text for a in state.legal_actions()) == ["keep 3C 2C", "keep 4C 2C", "keep 4C 3C"]
    state.apply("keep 4C 2C")
    assert len(state.hand(2)) == 6 and {"4C", "2C"} <= set(state.hand(2))
    for viewer in range(4):
        keep = [e for e in state.events(viewer) if e["type"] == "select" and e["verb"] == "keep"][-1]
        assert sorted(keep["cards"]) == ["2C", "4C"]
    assert decision(state) == "play"  # the dealer kept six and the stock is empty: no robbing


def test_a_player_short_of_plain_discards_plays_with_fewer_cards() -> None:
    """C18: with one plain card among his discards seat 2 keeps it and holds five; the
    deal is played out with 23 cards."""
    state = short_stock(["AH", "KH", "QH", "JH", "10H", "9H", "8H", "5D", "2C"])
    assert [a.text for a in state.legal_actions()] == ["keep 2C"]
    state.apply("keep 2C")
    assert [len(state.hand(p)) for p in range(4)] == [6, 6, 5, 6]
    assert {"AH", "KH", "5D"} <= set(state.zone("discards", 2))
    while decision(state) == "play" and state.deal_number == 1:
        state.apply(state.legal_actions()[0])
    tricks = [e for e in deal_events(state) if e["type"] == "trick"]
    assert len(tricks) == 6 and sum(len(t["cards"]) for t in tricks) == 23


# ---------------------------------------------------------------- C20-C22: the worked play examples


def burn(state: interpreter.State, tricks: int) -> None:
    """Seat 0 leads its top spades and wins; the others follow with their top spade,
    or throw their lowest card that is not a heart (hearts are trumps here)."""
    for _ in range(tricks):
        play(state, [c for c in state.hand(0) if c[-1] == "S"][0])
        for _ in range(3):
            seat = state.current_player
            assert seat is not None
            hand = state.hand(seat)
            spades = [c for c in hand if c[-1] == "S"]
            play(state, spades[0] if spades else [c for c in reversed(hand) if c[-1] != "H"][0])
        assert [e for e in state.events(None) if e["type"] == "trick"][-1]["winner"] == 0


def test_worked_example_diamond_led_with_the_two_the_left_pedro_and_a_heart() -> None:
    """Trumps hearts, KD led, hand {2D, 5D, 3H}: all three may be played."""
    state = arranged({
        0: ["AS", "KS", "QS", "KD", "KC", "QC"],
        1: ["10S", "9S", "8S", "2D", "5D", "3H"],
        2: ["7S", "6S", "4S", "QD", "JD", "JC"],
        3: ["3S", "2S", "JS", "10D", "9D", "10C"],
    }, bids={0: 1})
    burn(state, 3)
    play(state, "KD")
    assert sorted(state.hand(1)) == ["2D", "3H", "5D"]
    assert legal_cards(state) == {"2D", "5D", "3H"}
    play(state, "5D")  # trumping with the Left Pedro
    assert legal_cards(state) == {"QD", "JD"}  # seat 2 holds diamonds and no trump
    play(state, "QD", "10D")
    assert [e for e in state.events(None) if e["type"] == "trick"][-1]["winner"] == 1


def test_worked_example_the_left_pedro_is_no_diamond() -> None:
    """Trumps hearts, KD led, hand {5D, 9C}: void in diamonds, so either card."""
    state = arranged({
        0: ["AS", "KS", "QS", "JS", "KD", "KC"],
        1: ["10S", "9S", "8S", "7S", "5D", "9C"],
        2: ["6S", "5S", "4S", "3S", "QD", "QC"],
        3: ["2S", "2C", "3C", "4C", "JD", "JC"],
    }, bids={0: 1})
    burn(state, 4)
    play(state, "KD")
    assert sorted(state.hand(1)) == ["5D", "9C"]
    assert legal_cards(state) == {"5D", "9C"}


def test_worked_example_a_trump_lead_calls_out_the_left_pedro() -> None:
    """Trumps hearts, 4H led, hand {5D, AC}: only the Left Pedro."""
    state = arranged({
        0: ["AS", "KS", "QS", "JS", "4H", "KC"],
        1: ["10S", "9S", "8S", "7S", "5D", "AC"],
        2: ["6S", "5S", "4S", "3S", "6H", "QC"],
        3: ["2S", "2C", "3C", "4C", "JD", "JC"],
    }, bids={0: 1})
    burn(state, 4)
    play(state, "4H")
    assert sorted(state.hand(1)) == ["5D", "AC"]
    assert legal_cards(state) == {"5D"}


def test_worked_example_a_plain_lead_may_be_trumped_while_holding_the_suit() -> None:
    """Trumps hearts, AC led, hand {3S, JH}: void in clubs, either card."""
    state = arranged({
        0: ["AS", "KS", "QS", "JS", "AC", "KC"],
        1: ["10S", "9S", "8S", "7S", "3S", "JH"],
        2: ["6S", "5S", "4S", "2S", "QC", "JC"],
        3: ["2D", "3D", "4D", "6D", "10C", "9C"],
    }, bids={0: 1})
    burn(state, 4)
    play(state, "AC")
    assert sorted(state.hand(1)) == ["3S", "JH"]
    assert legal_cards(state) == {"3S", "JH"}
    play(state, "3S")
    assert legal_cards(state) == {"QC", "JC"}  # seat 2 has clubs and no trump: must follow


def test_the_left_pedro_led_is_a_trump_lead() -> None:
    """C20: on a Left Pedro lead a player with diamonds but also a trump must trump."""
    state = arranged({
        0: ["5D", "AS", "KS", "QS", "JS", "10S"],
        1: ["AD", "KD", "3H", "QD", "JD", "10D"],
        2: ["9D", "8D", "7D", "6D", "4D", "3D"],
        3: ["2D", "AC", "KC", "QC", "JC", "10C"],
    }, bids={0: 1})
    play(state, "5D")
    assert legal_cards(state) == {"3H"}
    play(state, "3H")
    assert legal_cards(state) == {"9D", "8D", "7D", "6D", "4D", "3D"}  # no trump: anything


def test_worked_example_the_right_pedro_beats_the_left() -> None:
    """C22: 4H led, then the Left Pedro, the Right Pedro and the 2H: the Right Pedro wins
    (and with it Low and both Pedros, 11 points); the Left Pedro beats the four."""
    state = arranged({
        0: ["4H", "AS", "KS", "QS", "JS", "10S"],
        1: ["5D", "2C", "3C", "4C", "6C", "7C"],
        2: ["5H", "AD", "KD", "QD", "JD", "10D"],
        3: ["2H", "AC", "KC", "QC", "JC", "10C"],
    }, bids={0: 1})
    play(state, "4H", "5D", "5H", "2H")
    trick = [e for e in state.events(None) if e["type"] == "trick"][-1]
    assert trick["winner"] == 2

    state = arranged({
        0: ["4H", "AS", "KS", "QS", "JS", "10S"],
        1: ["5D", "2C", "3C", "4C", "6C", "7C"],
        2: ["3H", "AD", "KD", "QD", "JD", "10D"],
        3: ["2H", "AC", "KC", "QC", "JC", "10C"],
    }, bids={0: 1})
    play(state, "4H", "5D", "3H", "2H")
    trick = [e for e in state.events(None) if e["type"] == "trick"][-1]
    assert trick["winner"] == 1


# ---------------------------------------------------------------- C25-C36: the worked scoring examples

# D1: N/S (seats 0 and 2) take High, Jack and the Right Pedro (7); E/W take Low, Game
# and the Left Pedro (7). Trumps hearts, seat 0 leads.
KEPT_D1 = {
    0: ["AH", "JH", "3S", "2C", "4C", "5S"],
    1: ["3H", "6H", "4S", "2H", "5C", "6S"],
    2: ["5H", "QH", "2S", "3C", "6C", "7S"],
    3: ["4H", "7H", "AS", "10H", "5D", "KS"],
}


def play_d1(state: interpreter.State) -> None:
    play(state, "AH", "3H", "5H", "4H")    # N/S: High, Right Pedro
    play(state, "JH", "6H", "QH", "7H")    # N/S: Jack (seat 2's queen wins)
    play(state, "2S", "AS", "3S", "4S")    # seat 3
    play(state, "10H", "2C", "2H", "3C")   # E/W: Game, Low
    play(state, "5D", "4C", "5C", "6C")    # E/W: Left Pedro
    play(state, "KS", "5S", "6S", "7S")


# D2: N/S take High and the Right Pedro (6); E/W take Jack, Low, Game, Left Pedro (8).
KEPT_D2 = {
    0: ["AH", "JH", "2C", "3C", "2S", "3S"],
    1: ["3H", "KH", "2H", "4C", "4S", "5S"],
    2: ["5H", "QH", "5C", "6C", "6S", "7S"],
    3: ["4H", "7H", "10H", "5D", "AS", "KS"],
}


def play_d2(state: interpreter.State) -> None:
    play(state, "AH", "3H", "5H", "4H")    # N/S: High, Right Pedro
    play(state, "JH", "KH", "QH", "7H")    # E/W: Jack
    play(state, "2H", "5C", "10H", "2C")   # E/W: Low, Game
    play(state, "5D", "3C", "4C", "6C")    # E/W: Left Pedro
    play(state, "AS", "2S", "4S", "6S")
    play(state, "KS", "3S", "5S", "7S")


# D3: N/S take High, Low, Jack, Game and the Right Pedro (9); E/W the Left Pedro (5).
KEPT_D3 = {
    0: ["AH", "JH", "5H", "2S", "7C", "8C"],
    1: ["6H", "8H", "3H", "5D", "AC", "KC"],
    2: ["2H", "10H", "2C", "3S", "3C", "4C"],
    3: ["7H", "9H", "4H", "4S", "5C", "6C"],
}


def play_d3(state: interpreter.State) -> None:
    play(state, "AH", "6H", "2H", "7H")    # N/S: High, Low
    play(state, "JH", "8H", "10H", "9H")   # N/S: Jack, Game
    play(state, "5H", "3H", "2C", "4H")    # N/S: Right Pedro
    play(state, "2S", "5D", "3S", "4S")    # E/W: the Left Pedro trumps a spade
    play(state, "AC", "3C", "5C", "7C")
    play(state, "KC", "4C", "6C", "8C")


def side_points(state: interpreter.State) -> list[int]:
    pts = [0, 0]
    values = {"AH": 1, "2H": 1, "JH": 1, "10H": 1, "5H": 5, "5D": 5}
    for e in deal_events(state):
        if e["type"] == "trick":
            pts[e["winner"] % 2] += sum(values.get(c, 0) for c in e["cards"])
    return pts


def test_scoring_example_1_setback_both_sides_make_seven() -> None:
    state = arranged(KEPT_D1, bids={0: 7})
    play_d1(state)
    assert side_points(state) == [7, 7]
    assert scores_of(state) == {0: 7, 1: 7}
    assert state.scores == [7, 7]


def test_scoring_example_2_setback_maker_short_is_set_back_below_zero() -> None:
    """C31, C36: bid 7, N/S take 6 and lose 7; E/W keep their 8; -7 stands."""
    state = arranged(KEPT_D2, bids={0: 7})
    play_d2(state)
    assert side_points(state) == [6, 8]
    assert scores_of(state) == {0: -7, 1: 8}
    assert state.scores == [-7, 8] and not state.is_terminal()
    labels = [e["label"] for e in deal_events(state) if e["type"] == "score"]
    assert "set back" in labels


def test_scoring_example_3_difference_maker_scores_the_margin() -> None:
    state = arranged(KEPT_D3, bids={0: 7}, scoring="difference")
    play_d3(state)
    assert side_points(state) == [9, 5]
    assert scores_of(state) == {0: 4}
    assert state.scores == [4, 0]


def test_scoring_example_4_difference_failed_bid_gives_defenders_points_plus_bid() -> None:
    state = arranged(KEPT_D1, bids={0: 8}, scoring="difference")
    play_d1(state)
    assert side_points(state) == [7, 7]
    assert scores_of(state) == {1: 15}
    assert state.scores == [0, 15]


def test_scoring_example_5_both_pass_51_and_the_makers_go_out() -> None:
    """C33, C35: 45-47, bid 6 made 6-8: 51-55, and the maker's side wins."""
    state = arranged(KEPT_D2, bids={0: 6})
    set_scores(state, [45, 47])
    play_d2(state)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.scores == (51, 55) and outcome.winner == 0 and outcome.winners == (0, 2)


def test_when_only_the_defenders_reach_the_target_they_win() -> None:
    """C35 applies only when both sides are out: here the maker is set back."""
    state = arranged(KEPT_D2, bids={0: 7})
    set_scores(state, [50, 47])
    play_d2(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.scores == (43, 55) and outcome.winner == 1


def test_the_target_option_moves_the_finishing_line() -> None:
    """C33: at 42 (the Chicago club's game) N/S go out with 44; at 51 the match goes on."""
    for target, over in ((42, True), (51, False)):
        state = arranged(KEPT_D3, bids={0: 7}, target=target)
        set_scores(state, [35, 30])
        play_d3(state)
        assert state.scores == [44, 35] and state.is_terminal() == over
        if over:
            outcome = state.outcome()
            assert outcome is not None and outcome.winner == 0


def test_points_thrown_out_score_for_nobody() -> None:
    """C12, C27, C30: seat 1 throws High, Jack and Game face up; the sides then share
    eleven points, not fourteen."""
    kept = {
        0: ["4H", "AS", "KS", "QS", "JS", "10S"],
        1: ["5D", "2C", "3C", "4C", "6C", "7C"],
        2: ["5H", "AD", "KD", "QD", "JD", "10D"],
        3: ["2H", "AC", "KC", "QC", "JC", "10C"],
    }
    state = arranged(kept, bids={0: 1}, junk={1: ["AH", "JH", "10H"]})
    assert {"AH", "JH", "10H"} <= set(state.zone("discards", 1))
    while state.deal_number == 1:
        state.apply(state.legal_actions()[0])
    assert side_points(state) == [11, 0]
    assert scores_of(state) == {0: 11}


# ---------------------------------------------------------------- regressions: card counts


def test_a_negative_card_count_does_not_leave_a_player_without_actions() -> None:
    """A variant of C17 ("the dealer keeps six"): `dealer discards count(hand of dealer) - 6`.
    When the stock ran short the dealer holds fewer than six and the count is negative;
    the game must then skip the discard (or report a rule error), not hang."""
    src = re.sub(r"\n( *)(move all matching trump from stock)",
                 r"\n\1dealer discards count(hand of dealer) - 6 to discards  [C17]\n\1\2",
                 RULES.read_text(encoding="utf-8"))
    variant = tricklang.loads(src)
    state = interpreter.new_game(variant, seed=1, dealer=3)
    for _ in range(4):
        state.apply("pass")
    state.apply("name hearts")
    try:
        for seat in range(4):
            state.apply("discard " + " ".join(state.hand(seat)))  # everybody throws all nine
        if decision(state) == "keep":  # seat 2 makes up his hand from his discards [C18]
            state.apply(state.legal_actions()[0])
        assert len(state.hand(3)) == 0
        assert state.is_terminal() or len(state.legal_actions()) > 0
    except RuleRuntimeError:
        pass


def test_discarding_down_to_a_number_discards_the_excess() -> None:
    """The grammar says a count `to N` takes as many cards as bring the hand to N. A
    Cinch house rule (every player keeps exactly six, cf. C12) written that way must make
    each player throw three of his nine; instead nobody discards and nine cards are played."""
    src = RULES.read_text(encoding="utf-8").replace("player discards at least 3 to discards",
                                                    "player discards to 6 to discards")
    variant = tricklang.loads(src)
    assert variant.warnings == ()
    state = interpreter.new_game(variant, seed=2, dealer=3)
    state.apply("bid 2")
    for _ in range(3):
        state.apply("pass")
    state.apply("name clubs")
    assert decision(state) == "discard"
    assert all(len(a.args) == 3 for a in state.legal_actions())
