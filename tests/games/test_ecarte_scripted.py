"""Scripted Écarté deals (prearranged decks) for the worked examples of the Écarté laws (rules/laws.md).

Each test lays out the first deal with :func:`build_deck`, plays a fixed sequence of
actions and checks the exact legal actions, trick winners, scores and cited laws.
Trumps are spades unless a test says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter import State

RULES = tricklang.load(Path(__file__).resolve().parents[2] / "rules" / "ecarte.trick")

RANKS = ["K", "Q", "J", "A", "10", "9", "8", "7"]
PACK = [r + s for s in "SHDC" for r in RANKS]

DEALER = 0
ELDER = 1


def build_deck(elder: Sequence[str], dealer: Sequence[str], turnup: str, stock: Sequence[str] = (),
               first_packet: int = 3) -> list[str]:
    """The 32 cards in dealing order for the wanted hands (E5, E6).

    The elder is served first in each round: with first_packet=3 the order is elder 3,
    dealer 3, elder 2, dealer 2, then the turn-up; ``stock`` gives the next cards to be
    drawn, in order, and the cards not named anywhere follow in pack order.
    """
    named = [*elder, *dealer, turnup, *stock]
    assert len(elder) == len(dealer) == 5 and len(set(named)) == len(named)
    assert all(c in PACK for c in named), named
    rest = [c for c in PACK if c not in named]
    k = first_packet
    return [*elder[:k], *dealer[:k], *elder[k:], *dealer[k:], turnup, *stock, *rest]


def new_deal(elder: Sequence[str], dealer: Sequence[str], turnup: str, stock: Sequence[str] = (),
             dealer_seat: int = DEALER, **options: Any) -> State:
    deck = build_deck(elder, dealer, turnup, stock, options.get("first_packet", 3))
    return interpreter.new_game(RULES, seed=1, deck=deck, dealer=dealer_seat, options=options)


def legal(state: State) -> set[str]:
    return {a.text for a in state.legal_actions()}


def plays(state: State) -> set[str]:
    return {t.split()[1] for t in legal(state) if t.startswith("play ")}


def run(state: State, actions: Sequence[str]) -> None:
    for a in actions:
        assert state.is_legal(a), f"{a!r} is not legal; legal: {sorted(legal(state))}"
        state.apply(a)


def first_deal_events(state: State) -> list[dict[str, Any]]:
    """The events of the prearranged first deal (later deals are shuffled from the seed)."""
    events = state.events()
    starts = [i for i, e in enumerate(events) if e["type"] == "deal"]
    return events[: starts[1]] if len(starts) > 1 else events


def score_events(state: State) -> list[tuple[int, int, str, list[str]]]:
    return [(e["side"], e["points"], e["label"], e["laws"]) for e in first_deal_events(state) if e["type"] == "score"]


def trick_winners(state: State) -> list[int]:
    return [e["winner"] for e in first_deal_events(state) if e["type"] == "trick"]


def first_deal_over(state: State) -> bool:
    return state.deal_number > 1 or state.is_terminal()


def scores_after_first_deal(state: State) -> list[int]:
    ends = [e["scores"] for e in first_deal_events(state) if e["type"] in ("deal_end", "match_end")]
    assert len(ends) == 1, "the first deal is not over"
    return list(ends[0])


# ------------------------------------------------------------------ the deck helper itself


def test_build_deck_serves_elder_first_in_both_packets() -> None:
    elder = ["KH", "QH", "JH", "AH", "10H"]
    dealer = ["KD", "QD", "JD", "AD", "10D"]
    state = new_deal(elder, dealer, "7S", stock=["9C", "8C"])
    assert sorted(state.hand(ELDER)) == sorted(elder)
    assert sorted(state.hand(DEALER)) == sorted(dealer)
    assert state.zone("turnup") == ["7S"] and state.trump == "spades"
    assert state.zone("stock")[-2:] == ["8C", "9C"]  # top last: 9C is drawn first
    assert len(state.zone("stock")) == 21
    dealt = [(e["player"], e["cards"]) for e in state.events() if e["type"] == "dealt"]
    assert dealt[0][0] == ELDER  # E5: the adversary is served before the dealer
    assert state.current_player == ELDER and legal(state) == {"stand", "propose"}  # E22


def test_first_packet_of_two() -> None:
    elder = ["KH", "QH", "JH", "AH", "10H"]
    dealer = ["KD", "QD", "JD", "AD", "10D"]
    deck = build_deck(elder, dealer, "7S", first_packet=2)
    assert deck[:4] == ["KH", "QH", "KD", "QD"]
    state = interpreter.new_game(RULES, seed=1, deck=deck, dealer=DEALER, options={"first_packet": 2})
    assert sorted(state.hand(ELDER)) == sorted(elder) and sorted(state.hand(DEALER)) == sorted(dealer)
    # With the other pattern the same deck gives other hands.
    other = interpreter.new_game(RULES, seed=1, deck=deck, dealer=DEALER)
    assert sorted(other.hand(ELDER)) == sorted(["KH", "QH", "KD", "10H", "JD"])


def test_the_elder_is_left_of_either_dealer() -> None:
    elder = ["KH", "QH", "JH", "AH", "10H"]
    dealer = ["KD", "QD", "JD", "AD", "10D"]
    state = new_deal(elder, dealer, "7S", dealer_seat=1)
    assert state.dealer == 1 and sorted(state.hand(0)) == sorted(elder) and state.current_player == 0


# ------------------------------------------------------------------ E42 worked examples (trumps spades)
#
# The follower is the dealer. His hand is the example's hand plus "filler" cards of one
# suit; the elder first leads higher cards of that suit, which the dealer must follow
# with fillers and cannot head, so the elder keeps the lead until the example position.

E42_EXAMPLES = [
    # (id, card led, follower's hand, fillers, elder's leads before it, elder's spare, legal replies,
    #  legal replies with must_trump_when_void=false)
    ("heart9-must-beat", "9H", ["QH", "8H", "7S"], ["7C", "8C"], ["KC", "QC"], ["AD", "10D"], {"QH"}, {"QH"}),
    ("heartK-follow-low", "KH", ["QH", "8H", "7S"], ["7C", "8C"], ["KC", "QC"], ["AD", "10D"],
     {"QH", "8H"}, {"QH", "8H"}),
    ("heartA-jack-beats-ace", "AH", ["JH", "10H"], ["7C", "8C", "9C"], ["KC", "QC", "JC"], ["AD"], {"JH"}, {"JH"}),
    ("club8-void-must-trump", "8C", ["7S", "KD"], ["7H", "8H", "9H"], ["KH", "QH", "JH"], ["AC"],
     {"7S"}, {"7S", "KD"}),
    ("spade10-ace-of-trumps", "10S", ["AS", "9S"], ["7C", "8C", "9C"], ["KC", "QC", "JC"], ["AD"], {"AS"}, {"AS"}),
    ("diamond7-void-no-trump", "7D", ["KH", "QC"], ["8D", "9D", "10D"], ["KD", "QD", "JD"], ["AH"],
     {"KH", "QC"}, {"KH", "QC"}),
]


def reach_e42_position(led: str, follower: list[str], fillers: list[str], leads: list[str], spare: list[str],
                       **options: Any) -> State:
    elder = [*leads, led, *spare]
    dealer = [*follower, *fillers]
    state = new_deal(elder, dealer, "8S", **options)
    run(state, ["stand"])
    for card in leads:
        run(state, ["play " + card])
        assert state.current_player == DEALER
        assert plays(state) == set(fillers) & set(state.hand(DEALER))  # must follow, cannot head
        run(state, ["play " + sorted(plays(state))[0]])
        assert trick_winners(state)[-1] == ELDER
    run(state, ["play " + led])
    assert sorted(state.hand(DEALER)) == sorted(follower)
    assert state.current_player == DEALER
    return state


@pytest.mark.parametrize(("led", "follower", "fillers", "leads", "spare", "expected"),
                         [pytest.param(*ex[1:7], id=ex[0]) for ex in E42_EXAMPLES])
def test_e42_worked_examples(led: str, follower: list[str], fillers: list[str], leads: list[str],
                             spare: list[str], expected: set[str]) -> None:
    state = reach_e42_position(led, follower, fillers, leads, spare)
    assert plays(state) == expected
    assert legal(state) == {"play " + c for c in expected}
    # Every other card in hand is refused, and the refusal leaves the state as it was.
    before = state.to_json()
    for card in set(follower) - expected:
        assert not state.is_legal("play " + card)
        with pytest.raises(interpreter.IllegalActionError):
            state.apply("play " + card)
        assert state.to_json() == before
    # E43: the reply decides the trick as the rank order says.
    reply = sorted(expected)[0]
    run(state, ["play " + reply])
    beats = reply[-1] == led[-1] and RANKS.index(reply[:-1]) < RANKS.index(led[:-1])
    assert trick_winners(state)[-1] == (DEALER if beats or (reply[-1] == "S" and led[-1] != "S") else ELDER)


@pytest.mark.parametrize(("led", "follower", "fillers", "leads", "spare", "expected"),
                         [pytest.param(*ex[1:6], ex[7], id=ex[0]) for ex in E42_EXAMPLES])
def test_e42_worked_examples_without_compulsory_trumping(led: str, follower: list[str], fillers: list[str],
                                                         leads: list[str], spare: list[str],
                                                         expected: set[str]) -> None:
    state = reach_e42_position(led, follower, fillers, leads, spare, must_trump_when_void=False)
    assert plays(state) == expected


def test_the_leader_may_lead_anything() -> None:
    state = new_deal(["KS", "7H", "8D", "9C", "10C"], ["QS", "JS", "KH", "KD", "KC"], "7S")
    run(state, ["stand"])
    assert plays(state) == {"KS", "7H", "8D", "9C", "10C"}  # E41, E42: the leader is free


# ------------------------------------------------------------------ worked scoring examples (E49-E51, E30, E16)


def test_elder_stands_and_dealer_takes_three() -> None:
    """Elder stands without proposing; dealer takes 3 tricks -> dealer +2 (E51)."""
    state = new_deal(["KH", "QH", "KC", "QC", "7D"], ["QS", "JS", "KD", "7H", "7C"], "7S")
    run(state, ["stand"])
    run(state, ["play KH", "play 7H",   # elder
                "play KC", "play 7C",   # elder
                "play QH"])             # dealer is void in hearts: must trump
    assert plays(state) == {"QS", "JS"}
    run(state, ["play JS",
                "play KD", "play 7D",   # dealer
                "play QS", "play QC"])  # dealer
    assert trick_winners(state) == [ELDER, ELDER, DEALER, DEALER, DEALER]
    assert score_events(state) == [(DEALER, 2, "stand or refusal penalty", ["E51"])]
    assert scores_after_first_deal(state) == [2, 0]
    assert first_deal_over(state) and state.dealer == ELDER  # E4: the deal passes


def test_elder_stands_and_dealer_takes_the_vole_scores_two_flat() -> None:
    """Elder stands; dealer takes 5 -> dealer +2, not 2 + vole (E51 default)."""
    state = new_deal(["7H", "8H", "7C", "8C", "7D"], ["QS", "JS", "KH", "KC", "KD"], "7S")
    run(state, ["stand", "play 7H"])
    assert plays(state) == {"KH"}  # must follow and head
    run(state, ["play KH", "play KC", "play 7C", "play KD", "play 7D", "play QS", "play 8H", "play JS", "play 8C"])
    assert trick_winners(state) == [DEALER] * 5
    assert score_events(state) == [(DEALER, 2, "stand or refusal penalty", ["E51"])]
    assert scores_after_first_deal(state) == [2, 0]


def test_dealer_refuses_the_first_proposal_and_elder_takes_four() -> None:
    """Dealer refuses the first proposal; elder takes 4 -> elder +2 (E51)."""
    state = new_deal(["QS", "KH", "KC", "KD", "8H"], ["AS", "QH", "7H", "7C", "7D"], "7S")
    run(state, ["propose"])
    assert state.current_player == DEALER and legal(state) == {"accept", "refuse"}  # E23
    run(state, ["refuse"])
    assert state.current_player == ELDER and state.phase == "play"  # the refusal ends the exchanges
    run(state, ["play KH"])
    assert plays(state) == {"QH", "7H"}  # cannot head the king: any heart
    run(state, ["play 7H", "play KC", "play 7C", "play KD", "play 7D", "play QS"])
    assert plays(state) == {"AS"}  # the queen of trumps beats the ace of trumps
    run(state, ["play AS", "play 8H", "play QH"])
    assert trick_winners(state) == [ELDER, ELDER, ELDER, ELDER, DEALER]
    assert score_events(state) == [(ELDER, 2, "stand or refusal penalty", ["E51"])]
    assert scores_after_first_deal(state) == [0, 2]


def test_refusal_after_an_exchange_carries_no_penalty() -> None:
    """E30: only the first proposal's refusal is penalised; the elder then scores the point."""
    state = new_deal(["QS", "KH", "KC", "KD", "9H"], ["AS", "QH", "7H", "7C", "7D"], "7S", stock=["8H", "10C"])
    run(state, ["propose", "accept", "discard 9H"])
    assert "8H" in state.hand(ELDER)
    run(state, ["discard none", "propose", "refuse"])
    run(state, ["play KH", "play 7H", "play KC", "play 7C", "play KD", "play 7D", "play QS", "play AS",
                "play 8H", "play QH"])
    assert trick_winners(state) == [ELDER, ELDER, ELDER, ELDER, DEALER]
    assert score_events(state) == [(ELDER, 1, "point", ["E49"])]


def test_one_exchange_then_the_elder_stands_and_dealer_takes_three() -> None:
    """One exchange, then the elder stands; dealer takes 3 -> dealer +1 (E30)."""
    state = new_deal(["KH", "QH", "KC", "QC", "8D"], ["QS", "JS", "KD", "7H", "9D"], "7S",
                     stock=["7D", "7C", "10H"])
    run(state, ["propose", "accept"])
    assert state.current_player == ELDER and state.phase == "discard"
    assert len(state.legal_actions()) == 31  # E25: 1 to 5 cards
    run(state, ["discard 8D"])
    assert sorted(state.hand(ELDER)) == sorted(["KH", "QH", "KC", "QC", "7D"])  # the top of the stock
    assert state.current_player == DEALER and "discard none" in legal(state)  # E25: dealer may keep all five
    run(state, ["discard 9D"])
    assert sorted(state.hand(DEALER)) == sorted(["QS", "JS", "KD", "7H", "7C"])
    discards = [(e["player"], e.get("cards")) for e in state.events(ELDER) if e["type"] == "select"]
    assert discards == [(ELDER, ["8D"]), (DEALER, None)]  # the dealer's discard is hidden from the elder
    assert state.current_player == ELDER and legal(state) == {"stand", "propose"}  # E29
    run(state, ["stand"])
    run(state, ["play KH", "play 7H", "play KC", "play 7C", "play QH", "play JS", "play KD", "play 7D",
                "play QS", "play QC"])
    assert trick_winners(state) == [ELDER, ELDER, DEALER, DEALER, DEALER]
    assert score_events(state) == [(DEALER, 1, "point", ["E49"])]
    assert scores_after_first_deal(state) == [1, 0]


def test_dealer_turns_up_the_king_and_the_elder_takes_the_vole() -> None:
    """Dealer turns up the king (+1, E16), elder then takes the vole -> elder +2."""
    state = new_deal(["QS", "JS", "KH", "KC", "KD"], ["AS", "7H", "7C", "7D", "8D"], "KS")
    assert score_events(state) == [(DEALER, 1, "king turned up", ["E16", "E50"])]  # at once, before any choice
    assert state.scores == [1, 0]
    run(state, ["stand", "play KH", "play 7H", "play KC", "play 7C", "play KD"])
    assert plays(state) == {"7D", "8D"}
    run(state, ["play 8D", "play QS", "play AS", "play JS", "play 7D"])
    assert trick_winners(state) == [ELDER] * 5
    assert score_events(state) == [(DEALER, 1, "king turned up", ["E16", "E50"]), (ELDER, 2, "vole", ["E49"])]
    assert scores_after_first_deal(state) == [1, 2]
    # Nobody can mark the king of trumps: it is the turn-up (E50: at most one king a deal).
    assert not any(e["type"] == "declare" for e in state.events())


def test_a_turned_up_king_can_win_the_game_before_the_exchange() -> None:
    """E16, E53: points are marked as they arise; reaching the target ends the match at once."""
    state = new_deal(["QS", "JS", "KH", "KC", "KD"], ["AS", "7H", "7C", "7D", "8D"], "KS", target=1)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == DEALER and state.scores == [1, 0]
    assert [e["type"] for e in state.events()][-2:] == ["score", "match_end"]
    assert not any(e["type"] == "choice" for e in state.events())


# ------------------------------------------------------------------ the king (E17, E18)

KING_ELDER = (["KS", "QH", "KC", "KD", "8H"], ["AS", "JH", "7C", "7D", "9S"], "7S")


def test_elder_leads_the_king_of_trumps_and_may_mark_it_until_it_is_covered() -> None:
    """E18 (Maxwell's laws of the king 2-3, and the codes' reading): the elder who leads
    the king unannounced may still mark it right after leading it, before the dealer
    plays to it; he is asked, and marking it scores the king at once."""
    state = new_deal(*KING_ELDER)
    run(state, ["stand"])
    assert "declare king" in legal(state)  # offered before his opening lead
    run(state, ["play KS"])
    assert state.current_player == ELDER and legal(state) == {"declare king", "continue"}
    run(state, ["declare king"])
    assert state.current_player == DEALER and "declare king" not in legal(state)
    run(state, ["play 9S", "play KC", "play 7C", "play KD", "play 7D", "play QH", "play JH", "play 8H", "play AS"])
    assert first_deal_over(state)
    assert score_events(state) == [(ELDER, 1, "king", ["E17", "E50"]), (ELDER, 1, "point", ["E49"])]


def test_once_the_led_king_is_covered_the_point_is_gone() -> None:
    """E18: 'if covered before declared, the point cannot be marked'."""
    state = new_deal(*KING_ELDER)
    run(state, ["stand", "play KS", "continue"])
    assert state.current_player == DEALER and "declare king" not in legal(state)
    run(state, ["play 9S", "play KC", "play 7C", "play KD", "play 7D", "play QH", "play JH"])
    assert state.current_player == ELDER and "declare king" not in legal(state)
    run(state, ["play 8H", "play AS"])
    assert first_deal_over(state)
    assert score_events(state) == [(ELDER, 1, "point", ["E49"])]  # 4 tricks; he stood, so no penalty for him


def test_the_dealer_has_no_window_after_leading_the_king() -> None:
    """E18, Maxwell's king law 3: the second player must always declare before playing it,
    even when he leads it (here under Maxwell's deadline, on trick 2)."""
    elder, dealer = ["AS", "JH", "7C", "7D", "9S"], ["KS", "QH", "KC", "KD", "8H"]
    state = new_deal(elder, dealer, "7S", king_deadline="before_king_played")
    run(state, ["stand", "play 7C", "play KC", "play KS"])  # the dealer won trick 1 and leads the king
    assert state.current_player == ELDER and "continue" not in legal(state)
    assert not any(e["type"] == "declare" for e in state.events(None))


def test_under_the_codes_reading_the_window_is_only_for_the_opening_lead() -> None:
    """E18 (b): a king led later by the elder, unmarked, cannot be marked; under
    Maxwell's literal reading (a) it can be marked on any lead."""
    hands = (["QS", "KS", "KC", "KD", "8H"], ["AS", "JH", "7C", "7D", "9S"], "7S")
    for deadline, window in (("before_own_first_card", False), ("before_king_played", True)):
        state = new_deal(*hands, king_deadline=deadline)
        run(state, ["stand"])
        run(state, ["play KC", "play 7C"])  # the elder wins trick 1 and leads again
        run(state, ["play KS"])
        assert (legal(state) == {"declare king", "continue"}) is window, deadline


def test_elder_announces_the_king_before_his_lead() -> None:
    """E17: the king marked in time scores 1, before the trick points (E53)."""
    state = new_deal(*KING_ELDER)
    run(state, ["stand", "declare king"])
    assert state.scores == [0, 1] and "declare king" not in legal(state)  # at most one mark
    run(state, ["play KS", "play 9S", "play KC", "play 7C", "play KD", "play 7D", "play QH", "play JH",
                "play 8H", "play AS"])
    assert score_events(state) == [(ELDER, 1, "king", ["E17", "E50"]), (ELDER, 1, "point", ["E49"])]
    assert scores_after_first_deal(state) == [0, 2]


def test_king_right_lapses_after_the_holders_first_card_even_if_he_keeps_it() -> None:
    state = new_deal(["KS", "QH", "KC", "KD", "8H"], ["AS", "JH", "7C", "7D", "9S"], "7S")
    run(state, ["stand", "play KC", "play 7C"])
    assert "KS" in state.hand(ELDER) and "declare king" not in legal(state)


def test_king_may_be_marked_until_played_under_before_king_played() -> None:
    state = new_deal(["KS", "QH", "KC", "KD", "8H"], ["AS", "JH", "7C", "7D", "9S"], "7S",
                     king_deadline="before_king_played")
    run(state, ["stand", "play KC", "play 7C"])
    assert "declare king" in legal(state)
    run(state, ["declare king"])
    assert score_events(state) == [(ELDER, 1, "king", ["E17", "E50"])]


def test_dealer_may_mark_the_king_after_seeing_the_lead_but_not_after_playing() -> None:
    """E18 (b): the dealer announces before he plays to trick 1."""
    elder, dealer = ["AS", "JH", "7C", "7D", "9S"], ["KS", "QH", "KC", "KD", "8H"]
    state = new_deal(elder, dealer, "7S")
    run(state, ["stand"])
    assert "declare king" not in legal(state)  # the elder does not hold it
    run(state, ["play 7C"])
    assert state.current_player == DEALER and "declare king" in legal(state)
    late = state.clone()
    run(state, ["declare king"])
    assert score_events(state) == [(DEALER, 1, "king", ["E17", "E50"])]
    run(late, ["play KC", "play KD", "play 7D"])
    assert "KS" in late.hand(DEALER) and "declare king" not in legal(late)


# ------------------------------------------------------------------ the exchange (E25, E29, E31)


def test_stock_shortfall_elder_takes_back_from_his_own_discard() -> None:
    """E31 default: the proposer makes up a short stock from his own last discard; the
    dealer then gets nothing and play starts."""
    elder = ["KH", "QH", "JH", "AH", "10H"]
    dealer = ["KD", "QD", "JD", "AD", "10D"]
    state = new_deal(elder, dealer, "7S")
    # Four full exchanges take 4 * 5 = 20 cards from the stock of 21: the elder discards
    # five and the dealer none each time.
    for _ in range(4):
        run(state, ["propose", "accept"])
        run(state, ["discard " + " ".join(state.hand(ELDER))])
        run(state, ["discard none"])
    assert len(state.zone("stock")) == 1
    run(state, ["propose", "accept"])
    hand = state.hand(ELDER)
    run(state, ["discard " + " ".join(hand[:3])])
    assert len(state.zone("stock")) == 0
    new = set(state.hand(ELDER))
    assert len(new) == 5 and set(hand[3:]) <= new
    assert len(new & set(hand[:3])) == 2  # one from the stock, two back from his discard
    assert state.phase == "play" and state.current_player == ELDER  # no proposal from an empty stock


def test_no_overask_limits_the_elders_discard_to_the_stock() -> None:
    state = new_deal(["KH", "QH", "JH", "AH", "10H"], ["KD", "QD", "JD", "AD", "10D"], "7S",
                     stock_shortfall="no_overask")
    for _ in range(4):
        run(state, ["propose", "accept"])
        run(state, ["discard " + " ".join(state.hand(ELDER)), "discard none"])
    run(state, ["propose", "accept"])
    assert all(len(t.split()) == 2 for t in legal(state))  # one card: the stock holds one
    assert len(state.legal_actions()) == 5


def test_dealer_min_exchange_one() -> None:
    state = new_deal(["KH", "QH", "JH", "AH", "10H"], ["KD", "QD", "JD", "AD", "10D"], "7S",
                     dealer_min_exchange=1)
    run(state, ["propose", "accept", "discard KH"])
    assert "discard none" not in legal(state) and len(state.legal_actions()) == 31


# ------------------------------------------------------------------ records of prearranged deals


def test_prearranged_deal_round_trips_through_json() -> None:
    state = new_deal(["KH", "QH", "KC", "QC", "8D"], ["QS", "JS", "KD", "7H", "9D"], "7S",
                     stock=["7D", "7C", "10H"])
    run(state, ["propose", "accept", "discard 8D", "discard 9D", "stand", "play KH"])
    copy = State.from_json(state.to_json())
    assert copy == state and copy.hand(ELDER) == state.hand(ELDER)
    assert [a.text for a in copy.legal_actions()] == [a.text for a in state.legal_actions()]
