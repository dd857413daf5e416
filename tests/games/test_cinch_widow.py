"""Cinch with a widow (examples/cinch-widow.trick, reference C38).

A scripted deal checks what differs from the partnership game: a four-card widow to
each player after the first round of three, taken up when the bidding is over, seven
cards thrown out by everyone with the trumps among them shown, no draw and no robbing;
and the two laws the file reads for this form (C13 until the discarding is over, C15
never).
"""

from __future__ import annotations

from helpers import ALL52, load_example, offered, play_deal_out, regular

import interpreter

WIDOW = load_example("cinch-widow.trick")
DEALER = 3  # seat 0 is the eldest

# Hearts will be trumps. Each player's first three cards, his widow, then his last six.
FIRST = {0: "AH KH 2S", 1: "5H 3S 4S", 2: "5D 5S 6S", 3: "2H 7S 8S"}
WIDOWS = {0: "QH 9S 10S JS", 1: "JH QS KS AS", 2: "10H 2D 3D 4D", 3: "9H 6D 7D 8D"}
LAST = {0: "2C 3C 4C 5C 6C 7C", 1: "8C 9C 10C JC QC KC", 2: "AC 9D 10D JD QD KD", 3: "AD 3H 4H 6H 7H 8H"}


def pack() -> list[str]:
    """Three to each from the dealer's left, four to each widow, then three and three [C5, C38]."""
    seats = [(DEALER + 1 + i) % 4 for i in range(4)]
    order = [c for p in seats for c in FIRST[p].split()]
    order += [c for p in seats for c in WIDOWS[p].split()]
    for half in (slice(0, 3), slice(3, 6)):
        order += [c for p in seats for c in LAST[p].split()[half]]
    assert sorted(order) == sorted(ALL52)
    return order


def widow_game() -> interpreter.State:
    state = interpreter.new_game(WIDOW, deck=pack(), dealer=DEALER, mode="table")
    for p in range(4):
        assert sorted(state.hand(p)) == sorted((FIRST[p] + " " + LAST[p]).split())
    return state


def bid_and_name(state: interpreter.State) -> None:
    state.apply("bid 6")
    for _ in range(3):
        state.apply("pass")
    assert state.current_player == 0 and state.maker == 0
    for p in range(4):  # the widows have been taken up
        assert sorted(state.hand(p)) == sorted((FIRST[p] + " " + WIDOWS[p] + " " + LAST[p]).split())
    state.apply("name hearts")


def test_a_widow_of_four_each_taken_up_after_the_bidding_then_seven_thrown_out() -> None:
    state = widow_game()
    assert len(state.zone("widow", 0)) == 4 and "QH" not in str(state.observation(1))  # face down
    bid_and_name(state)
    state.apply("discard 2S 9S 10S JS 2C 3C QH")  # the maker throws out a trump: it is shown
    shown = [e for e in state.events(1) if e["type"] == "move" and e.get("cards")]
    assert shown and shown[-1]["cards"] == ["QH"]
    [thrown] = [e for e in state.events(1) if e["type"] == "select" and e["player"] == 0]
    assert "cards" not in thrown and thrown["count"] == 7  # the plain cards thrown out stay hidden
    for p, throw in ((1, "3S 4S QS KS AS 8C 9C"), (2, "2D 3D 4D 9D 10D 5S 6S"), (3, "6D 7D 8D 7S 8S 3H 4H")):
        assert state.current_player == p
        state.apply("discard " + throw)
    assert [len(state.hand(p)) for p in range(4)] == [6, 6, 6, 6]
    assert state.phase == "play" and state.current_player == 0  # no draw, no robbing: the maker leads
    assert sorted(state.zone("discards", 3)) == ["3H", "4H"] and len(state.zone("widow", 3)) == 5
    assert state.zone("stock") == []
    play_deal_out(state)
    assert state.deal_number == 2


def test_a_trump_thrown_out_is_taken_back_until_the_discarding_is_over() -> None:
    state = widow_game()
    bid_and_name(state)
    state.apply("discard 2S 9S 10S JS 2C 3C QH")
    assert "discarded_trump_taken_back 0" in offered(state)  # his partner, seat 2, may point it out
    state.apply("irregular discarded_trump_taken_back 0")
    assert state.current_player == 0 and regular(state) == ["retake QH"]
    state.apply("retake QH")
    state.apply("discard 4C")  # another card instead
    assert "QH" in state.hand(0) and len(state.hand(0)) == 6
    for throw in ("3S 4S QS KS AS 8C 9C", "2D 3D 4D 9D 10D 5S 6S", "6D 7D 8D 7S 8S 3H 4H"):
        state.apply("discard " + throw)
    assert state.phase == "play"
    assert not {o for o in offered(state) if o.startswith(("discarded_trump_taken_back", "asked_for"))}
