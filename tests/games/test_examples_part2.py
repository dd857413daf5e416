"""The part-2 example games: Hearts, Black Maria, Omnibus Hearts, Oh Hell (3-7 players)
and Auction Pitch, as rule files in examples/.

Scripted deals (a prearranged first deal) pin the scoring edge cases: shooting the
moon, no points on the first trick, hearts not led until broken, Black Maria's spade
values, Omnibus's plus card and slam, an exact Oh Hell bid and the dealer's hook,
Pitch's Low going to its original holder, a tied Game point and a pitcher set back.
Property checks play whole matches with the built-in agents: cards are conserved at
every step, and every match ends with a winner within a bound of deals.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

import interpreter
import tricklang
from interpreter.actions import Action
from interpreter.agents import HeuristicAgent, RandomAgent
from interpreter.errors import RuleRuntimeError
from interpreter.transcript import render

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RANKS = "A K Q J 10 9 8 7 6 5 4 3 2".split()
ALL_CARDS = [r + s for s in "SHDC" for r in RANKS]

PART2 = {
    "hearts.trick": 4,
    "black-maria.trick": 3,
    "omnibus-hearts.trick": 4,
    "oh-hell.trick": 4,
    "oh-hell-3.trick": 3,
    "oh-hell-5.trick": 5,
    "oh-hell-6.trick": 6,
    "oh-hell-7.trick": 7,
    "auction-pitch.trick": 4,
}


def load(name: str) -> tricklang.Ruleset:
    return tricklang.load(EXAMPLES / name)


HEARTS = load("hearts.trick")
BLACK_MARIA = load("black-maria.trick")
OMNIBUS = load("omnibus-hearts.trick")
OH_HELL = load("oh-hell.trick")
PITCH = load("auction-pitch.trick")


# ---------------------------------------------------------------- helpers


def suit(letter: str) -> list[str]:
    return [r + letter for r in RANKS]


def one_at_a_time(hands: dict[int, list[str]], dealer: int, extra: Iterable[str] = ()) -> list[str]:
    """The pack in dealing order when cards are dealt singly from the dealer's left,
    followed by `extra` (the next cards of the pack, e.g. a turn-up) and the rest."""
    n = len(hands)
    size = len(hands[0])
    order = [hands[(dealer + 1 + i) % n][r] for r in range(size) for i in range(n)]
    order += list(extra)
    return order + [c for c in ALL_CARDS if c not in order]


def in_packets(hands: dict[int, list[str]], dealer: int, packet: int = 3) -> list[str]:
    """The pack in dealing order for `deal 3 then 3 to each` from the dealer's left."""
    n = len(hands)
    size = len(hands[0])
    order = [c for p in range(0, size, packet) for i in range(n) for c in hands[(dealer + 1 + i) % n][p: p + packet]]
    return order + [c for c in ALL_CARDS if c not in order]


def plays(state: interpreter.State, *cards: str) -> None:
    for card in cards:
        state.apply(f"play {card}")


def legal_cards(state: interpreter.State) -> set[str]:
    return {a.args[0] for a in state.legal_actions() if a.verb == "play"}


def play_deal_out(state: interpreter.State, deal: int | None = None) -> None:
    """Play the current deal to its end, always taking the first legal action."""
    deal = deal or state.deal_number
    while not state.is_terminal() and state.deal_number == deal:
        state.apply(state.legal_actions()[0])


def deal_events(state: interpreter.State, deal: int) -> list[dict[str, object]]:
    """The events of one deal (omniscient)."""
    out: list[dict[str, object]] = []
    current = 0
    for e in state.events(None):
        if e["type"] == "deal":
            current = int(str(e["deal"]))
        if current == deal:
            out.append(e)
    return out


def scores_in_deal(state: interpreter.State, deal: int) -> list[tuple[int, int, str]]:
    return [(int(str(e["side"])), int(str(e["points"])), str(e["label"]))
            for e in deal_events(state, deal) if e["type"] == "score"]


def penalty_by_tricks(state: interpreter.State, deal: int, value: Callable[[str], int]) -> dict[int, int]:
    """Each seat's penalty points, counted independently from the trick events."""
    out: dict[int, int] = {}
    for e in deal_events(state, deal):
        if e["type"] == "trick":
            winner = int(str(e["winner"]))
            cards = e["cards"]
            assert isinstance(cards, list)
            out[winner] = out.get(winner, 0) + sum(value(c) for c in cards)
    return out


def check_conserved(state: interpreter.State) -> None:
    core = state.core
    cards = [c for z in core.zones for c in z] + list(core.tr_cards)
    assert sorted(cards) == list(range(len(state.program.tables.codes)))


class Cautious:
    """Passes in every auction (so the dealer pitches at the lowest bid) and plays
    like the agent it wraps: random bidders in Pitch are set back without end."""

    def __init__(self, base: Callable[[interpreter.State], Action]) -> None:
        self.base = base

    def __call__(self, state: interpreter.State) -> Action:
        if state.phase == "auction":
            return state.legal_actions()[0]
        return self.base(state)


# ---------------------------------------------------------------- every file


@pytest.mark.parametrize("name", sorted(PART2))
def test_rule_file_loads_without_warnings(name: str) -> None:
    rules = load(name)
    assert rules.warnings == ()
    assert rules.player_count == PART2[name]
    assert len(rules.cards) == 52
    assert rules.rules.source and "pagat.com" in rules.rules.source


def test_variants_inherit_the_base_and_replace_by_name() -> None:
    assert BLACK_MARIA.options["passing"] == "right" and HEARTS.options["passing"] == "cycle"
    assert BLACK_MARIA.options["moon"] == "off" and OMNIBUS.options["moon"] == "subtract"
    assert set(HEARTS.options) < set(OMNIBUS.options)
    seven = load("oh-hell-7.trick")
    assert seven.options["max_cards"] == 7
    with pytest.raises(tricklang.OptionError):
        seven.with_options({"max_cards": 8})  # 8 x 7 = 56 cards: not in the pack


# ---------------------------------------------------------------- Hearts

# Seat 0 holds every club, seat 1 every heart, seat 2 every spade, seat 3 every diamond.
BY_SUIT = {0: suit("C"), 1: suit("H"), 2: suit("S"), 3: suit("D")}


def hearts(hands: dict[int, list[str]], rules: tricklang.Ruleset = HEARTS, **options: object) -> interpreter.State:
    options.setdefault("passing", "none")
    return interpreter.new_game(rules, deck=one_at_a_time(hands, dealer=3), dealer=3, options=options)


@pytest.mark.parametrize(("moon", "expected"), [
    ("add_to_others", [0, 26, 26, 26]),
    ("subtract", [-26, 0, 0, 0]),
    ("off", [26, 0, 0, 0]),
])
def test_hearts_shooting_the_moon(moon: str, expected: list[int]) -> None:
    # Seat 0 leads clubs thirteen times and wins every trick: all 26 points [H10].
    state = hearts(BY_SUIT, moon=moon)
    play_deal_out(state)
    assert state.scores == expected
    labels = {label for _, _, label in scores_in_deal(state, 1)}
    assert labels == ({"penalty cards"} if moon == "off" else {"shot the moon"})


@pytest.mark.parametrize(("choice", "expected"), [("add_to_others", [0, 26, 26, 26]), ("subtract", [-26, 0, 0, 0])])
def test_hearts_the_shooter_may_choose(choice: str, expected: list[int]) -> None:
    state = hearts(BY_SUIT, moon="shooter_chooses")
    while state.phase == "play":
        state.apply(state.legal_actions()[0])
    assert state.current_player == 0 and state.legal_actions().texts() == ["add_to_others", "subtract"]
    state.apply(choice)
    assert state.scores == expected


def test_hearts_two_of_clubs_leads_and_no_points_on_the_first_trick() -> None:
    state = hearts(BY_SUIT)
    assert state.current_player == 0 and legal_cards(state) == {"2C"}  # [H5]
    state.apply("play 2C")
    # Seat 1 holds nothing but hearts: he may play one [H7].
    assert legal_cards(state) == set(suit("H"))
    state.apply("play AH")
    # Seat 2 is void in clubs: any spade but the queen [H7].
    assert legal_cards(state) == set(suit("S")) - {"QS"}
    assert "first trick" in state.why_illegal("play QS")
    state.apply("play AS")
    state.apply("play AD")
    # The rule is for the first trick only; the queen may go on the second.
    assert state.current_player == 0
    state.apply("play 3C")
    state.apply("play KH")
    assert "QS" in legal_cards(state)


def test_hearts_points_on_the_first_trick_as_an_option() -> None:
    state = hearts(BY_SUIT, first_trick_points=True)
    plays(state, "2C", "AH")
    assert legal_cards(state) == set(suit("S"))


def test_hearts_the_first_lead_without_the_two_of_clubs_rule() -> None:
    state = hearts(BY_SUIT, lead_two_of_clubs=False)
    assert state.current_player == 0 and legal_cards(state) == set(suit("C"))  # eldest leads any card


# Seat 1 wins the first trick with AC and holds AH and eleven diamonds; seat 0 holds
# 2C and twelve hearts.
BROKEN = {
    0: ["2C"] + suit("H")[1:],
    1: ["AC", "AH"] + suit("D")[:11],
    2: suit("C")[1:12] + ["3D", "2D"],
    3: suit("S"),
}


def test_hearts_not_led_until_broken() -> None:
    state = hearts(BROKEN)
    plays(state, "2C", "AC", "3C", "2S")
    assert state.current_player == 1
    assert legal_cards(state) == set(suit("D")[:11])  # [H8]
    assert "broken" in state.why_illegal("play AH")
    plays(state, "4D", "3D", "3S")
    assert legal_cards(state) == set(suit("H")[1:])  # seat 0 holds only hearts: he discards one
    state.apply("play 2H")
    assert state.current_player == 1
    assert "AH" in legal_cards(state)  # broken


def test_hearts_may_be_led_at_any_time_as_an_option() -> None:
    state = hearts(BROKEN, hearts_broken=False)
    plays(state, "2C", "AC", "3C", "2S")
    assert "AH" in legal_cards(state)


def test_hearts_the_pass_to_the_left_is_chosen_before_it_is_received() -> None:
    state = hearts(BY_SUIT, passing="cycle")
    assert state.phase == "discard"
    for seat, cards in [(0, "2C 3C 4C"), (1, "2H 3H 4H"), (2, "2S 3S 4S")]:
        assert state.current_player == seat
        state.apply("discard " + cards)
    # Seat 3 has not yet received seat 2's spades when he chooses [H4].
    assert state.current_player == 3 and "2S" not in state.hand(3)
    assert state.observation(3)["zones"]["passed"]["2"] == {"count": 3}
    state.apply("discard 2D 3D 4D")
    assert sorted(state.hand(1)) == sorted(suit("H")[:10] + ["2C", "3C", "4C"])
    assert sorted(state.hand(0)) == sorted(suit("C")[:10] + ["2D", "3D", "4D"])
    # The two of clubs went to seat 1, who now leads it [H5].
    assert state.current_player == 1 and legal_cards(state) == {"2C"}


def test_hearts_pass_cycle_left_right_across_hold() -> None:
    state = interpreter.new_game(HEARTS, seed=11, options={"target": 1000})
    agents = [HeuristicAgent(i) for i in range(4)]
    while state.deal_number <= 5:
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    offsets = {1: 1, 2: -1, 3: 2, 5: 1}
    for deal in range(1, 6):
        moves = [e for e in deal_events(state, deal) if e["type"] == "move"]
        if deal == 4:
            assert moves == []
            continue
        assert len(moves) == 4
        for e in moves:
            giver = int(str(e["from"]).rsplit(" ", 1)[1])
            taker = int(str(e["to"]).rsplit(" ", 1)[1])
            assert taker == (giver + offsets[deal]) % 4


def test_hearts_match_ends_at_the_target_and_the_lowest_score_wins() -> None:
    state = interpreter.new_game(HEARTS, seed=5, options={"target": 30})
    agents = [HeuristicAgent(i) for i in range(4)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None
    assert max(outcome.scores) >= 30
    assert outcome.scores[outcome.winner] == min(outcome.scores)
    assert list(outcome.scores).count(min(outcome.scores)) == 1


# ---------------------------------------------------------------- Black Maria


def black_maria_pack(hands: dict[int, list[str]], dealer: int) -> list[str]:
    """Seventeen cards each, dealt singly; the two of clubs anywhere (it is taken out)."""
    order = [hands[(dealer + 1 + i) % 3][r] for r in range(17) for i in range(3)]
    return ["2C"] + order


def black_maria_value(card: str) -> int:
    return {"QS": 13, "KS": 10, "AS": 7}.get(card, 1 if card.endswith("H") else 0)


def test_black_maria_deal_pass_and_free_lead() -> None:
    rest = [c for c in ALL_CARDS if c[-1] != "S" and c != "2C"]
    hands = {0: suit("S")[:6] + rest[:11], 1: suit("S")[6:12] + rest[11:22], 2: ["2S"] + rest[22:38]}
    state = interpreter.new_game(BLACK_MARIA, deck=black_maria_pack(hands, dealer=2), dealer=2)
    assert state.zone("removed") == ["2C"]  # [BM1]
    assert all(len(state.hand(p)) == 17 for p in range(3))
    # Every player passes three cards to his right [BM2].
    for seat, cards in [(0, "AS KS QS"), (1, "8S 7S 6S"), (2, "2S 5D 4D")]:
        assert state.current_player == seat
        state.apply("discard " + cards)
    assert {"AS", "KS", "QS"} <= set(state.hand(2))
    assert {"8S", "7S", "6S"} <= set(state.hand(0))
    assert {"2S", "5D", "4D"} <= set(state.hand(1))
    # The player at the dealer's left leads, anything, hearts included [BM3, BM4].
    assert state.current_player == 0
    assert legal_cards(state) == set(state.hand(0))
    assert any(c.endswith("H") for c in legal_cards(state))


def test_black_maria_spade_values() -> None:
    # Seat 0 leads the ace of spades; the king and queen are the others' only spades.
    rest = [c for c in ALL_CARDS if c[-1] != "S" and c != "2C"]
    hands = {0: ["AS"] + suit("S")[3:] + rest[:6], 1: ["KS"] + rest[6:22], 2: ["QS"] + rest[22:38]}
    state = interpreter.new_game(BLACK_MARIA, deck=black_maria_pack(hands, dealer=2), dealer=2,
                                 options={"passing": "none"})
    plays(state, "AS", "KS", "QS")
    first = next(e for e in deal_events(state, 1) if e["type"] == "trick")
    assert first["winner"] == 0 and first["cards"] == ["AS", "KS", "QS"]
    play_deal_out(state)
    expected = penalty_by_tricks(state, 1, black_maria_value)
    assert state.scores == [expected.get(p, 0) for p in range(3)]
    assert sum(state.scores) == 43  # [BM5]: 13 hearts, 13 + 10 + 7 in spades
    assert state.scores[0] >= 30


def test_black_maria_taking_everything_is_no_moon_by_default() -> None:
    # Seat 0 takes every trick (all the clubs but the removed two, led from the top).
    hands = {0: suit("C")[:12] + suit("D")[:5], 1: suit("H") + suit("D")[5:9], 2: suit("S") + suit("D")[9:]}
    state = interpreter.new_game(BLACK_MARIA, deck=black_maria_pack(hands, dealer=2), dealer=2,
                                 options={"passing": "none"})
    play_deal_out(state)
    assert state.scores == [43, 0, 0]  # [BM6]
    state = interpreter.new_game(BLACK_MARIA, deck=black_maria_pack(hands, dealer=2), dealer=2,
                                 options={"passing": "none", "moon": "add_to_others"})
    play_deal_out(state)
    assert state.scores == [0, 43, 43]


# ---------------------------------------------------------------- Omnibus Hearts


def omnibus_value(card: str) -> int:
    return -10 if card == "10D" else 13 if card == "QS" else 1 if card.endswith("H") else 0


def test_omnibus_plus_card_takes_ten_off() -> None:
    rng = random.Random(7)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    state = interpreter.new_game(OMNIBUS, deck=deck, dealer=0, options={"passing": "none"})
    play_deal_out(state)
    expected = penalty_by_tricks(state, 1, omnibus_value)
    assert state.scores == [expected.get(p, 0) for p in range(4)]
    assert sum(state.scores) == 16  # 26 penalty points less the plus card's 10 [OM1]
    assert ("plus card" in {label for _, _, label in scores_in_deal(state, 1)})


@pytest.mark.parametrize(("moon", "expected"), [("subtract", [-26, 0, 0, 0]), ("add_to_others", [0, 26, 26, 26])])
def test_omnibus_slam(moon: str, expected: list[int]) -> None:
    # Seat 0 takes every trick: the hearts, the queen and the ten of diamonds [OM2].
    state = hearts(BY_SUIT, OMNIBUS, moon=moon)
    play_deal_out(state)
    assert state.scores == expected
    assert {label for _, _, label in scores_in_deal(state, 1)} == {"slam"}


def test_omnibus_jack_of_diamonds_variant() -> None:
    state = hearts(BY_SUIT, OMNIBUS, plus_card="jack_of_diamonds", moon="off")
    play_deal_out(state)
    assert state.scores == [16, 0, 0, 0]  # 26, less 10 for the jack of diamonds


# ---------------------------------------------------------------- Oh Hell

# Three cards each; seat 0 holds the top three spades and the turn-up is the two of
# spades, so seat 0 takes all three tricks.
OH_HANDS = {0: ["AS", "KS", "QS"], 1: ["AH", "KH", "QH"], 2: ["AD", "KD", "QD"], 3: ["AC", "KC", "QC"]}


def oh_hell(hands: dict[int, list[str]] = OH_HANDS, turnup: str = "2S", **options: object) -> interpreter.State:
    options.setdefault("max_cards", len(hands[0]))
    return interpreter.new_game(OH_HELL, deck=one_at_a_time(hands, dealer=3, extra=[turnup]), dealer=3,
                                options=options)


def bid_round(state: interpreter.State, bids: Iterable[int]) -> None:
    for seat, b in zip([0, 1, 2, 3], bids, strict=True):
        assert state.current_player == seat and state.phase == "bidding"
        state.apply(f"bid {b}")


def test_oh_hell_turn_up_and_exact_bids() -> None:
    state = oh_hell()
    assert state.trump == "spades" and state.zone("turnup") == ["2S"]  # [OH4]
    assert all(len(state.hand(p)) == 3 for p in range(4))
    bid_round(state, [3, 0, 0, 1])
    play_deal_out(state)
    # Exact: 10 + tricks (3), 10 + 0, 10 + 0; the dealer bid 1 and took none [OH8].
    assert state.scores == [13, 10, 10, 0]


def test_oh_hell_hook_forbids_the_dealer_one_bid() -> None:
    state = oh_hell()
    for b in (1, 0, 0):
        state.apply(f"bid {b}")
    assert state.current_player == 3
    # Bids so far total 1 of 3 tricks: the dealer may not bid 2 [OH6].
    assert state.legal_actions().texts() == ["bid 0", "bid 1", "bid 3"]
    assert not state.is_legal("bid 2")
    free = oh_hell(hook=False)
    for b in (1, 0, 0):
        free.apply(f"bid {b}")
    assert free.is_legal("bid 2")


@pytest.mark.parametrize(("scoring", "expected"), [
    ("exact_only", [0, 10, 0, 0]),
    ("every_trick", [3, 10, 0, 0]),
    ("minus_difference", [-1, 10, -1, -1]),
])
def test_oh_hell_scoring_variants(scoring: str, expected: list[int]) -> None:
    state = oh_hell(scoring=scoring)
    for b in (2, 0, 1):
        state.apply(f"bid {b}")
    assert not state.is_legal("bid 0")  # 2 + 0 + 1 + 0 would make 3 [OH6]
    state.apply("bid 1")
    play_deal_out(state)
    assert state.scores == expected


def test_oh_hell_full_pack_is_played_without_trumps() -> None:
    rng = random.Random(3)
    deck = list(ALL_CARDS)
    rng.shuffle(deck)
    state = interpreter.new_game(OH_HELL, deck=deck, dealer=3, options={"max_cards": 13})
    assert state.trump is None and state.zone("turnup") == [] and state.zone("stock") == []
    last = interpreter.new_game(OH_HELL, deck=deck, dealer=3,
                                options={"max_cards": 13, "no_turnup_trump": "dealers_last_card"})
    assert last.trump == {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}[deck[51][-1]]


@pytest.mark.parametrize(("sequence", "sizes"), [
    ("down", [3, 2, 1]),
    ("up", [1, 2, 3]),
    ("down_up", [3, 2, 1, 2, 3]),
    ("up_down", [1, 2, 3, 2, 1]),
])
def test_oh_hell_hand_sizes_and_the_end_of_the_series(sequence: str, sizes: list[int]) -> None:
    state = interpreter.new_game(OH_HELL, seed=21, options={"max_cards": 3, "sequence": sequence})
    agents = [RandomAgent(i) for i in range(4)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    outcome = state.outcome()
    assert outcome is not None
    dealt = [sum(1 for e in deal_events(state, d) if e["type"] == "dealt") // 4 for d in range(1, outcome.deals + 1)]
    assert dealt == sizes  # [OH2]: the series, and no more
    top = max(outcome.scores)
    if outcome.winner is None:  # a tie for first is a drawn match [OH9]
        assert list(outcome.scores).count(top) > 1
    else:
        assert outcome.scores[outcome.winner] == top and list(outcome.scores).count(top) == 1


def test_oh_hell_last_deal_ends_the_match_highest_score_wins() -> None:
    hands = {0: ["AS"], 1: ["2H"], 2: ["2D"], 3: ["2C"]}
    state = oh_hell(hands, turnup="3S")
    bid_round(state, [1, 0, 0, 1])  # the dealer may not bid 0
    plays(state, "AS", "2H", "2D", "2C")
    assert state.is_terminal()
    assert state.scores == [11, 10, 10, 0]
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.deals == 1


def test_oh_hell_a_tie_for_first_is_a_drawn_match() -> None:
    hands = {0: ["AS"], 1: ["2H"], 2: ["2D"], 3: ["2C"]}
    state = oh_hell(hands, turnup="3S")
    bid_round(state, [0, 0, 0, 0])  # total 0 of 1 trick: the dealer may bid 0
    plays(state, "AS", "2H", "2D", "2C")
    assert state.scores == [0, 10, 10, 10]
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is None and outcome.deals == 1
    assert state.events(None)[-1]["drawn"] is True


@pytest.mark.parametrize("name", ["oh-hell-3.trick", "oh-hell-5.trick", "oh-hell-6.trick", "oh-hell-7.trick"])
def test_oh_hell_other_player_counts(name: str) -> None:
    rules = load(name)
    n = rules.player_count
    top = next(o.high for o in rules.option_specs() if o.name == "max_cards")
    assert top is not None
    assert top == 52 // n if n != 3 else 17
    state = interpreter.new_game(rules, seed=n, options={"max_cards": top, "sequence": "down_up"})
    assert all(len(state.hand(p)) == top for p in range(n))
    agents = [RandomAgent(i) for i in range(n)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None and outcome.deals >= 2 * top - 1


# ---------------------------------------------------------------- Auction Pitch

# Seat 0 pitches hearts with AH KH QH and the top clubs and wins every trick; seat 1
# was dealt the two of hearts (Low), seat 2 the jack (captured by seat 0).
LOW = {
    0: ["AH", "KH", "QH", "AC", "KC", "QC"],
    1: ["2H", "3S", "4S", "5S", "6S", "7S"],
    2: ["JH", "3D", "4D", "5D", "6D", "7D"],
    3: ["8C", "9C", "10C", "8D", "9D", "10D"],
}

# Only the two of hearts is a trump (High and Low to seat 0), there is no jack, and
# seats 1 and 2 each take a ten: Game is tied.
TIE = {
    0: ["2H", "3C", "4C", "5C", "6C", "7C"],
    1: ["10C", "2D", "3S", "4S", "5S", "6S"],
    2: ["10D", "8C", "7S", "8S", "9S", "2S"],
    3: ["9C", "3D", "4D", "5D", "6D", "7D"],
}
TIE_PLAY = ["2H", "3S", "7S", "3D", "3C", "10C", "8C", "9C", "2D", "10D", "4D", "4C",
            "9S", "5D", "5C", "4S", "8S", "6D", "6C", "5S", "2S", "7D", "7C", "6S"]


def pitch(hands: dict[int, list[str]], bid: int, **options: object) -> interpreter.State:
    state = interpreter.new_game(PITCH, deck=in_packets(hands, dealer=3), dealer=3, options=options)
    assert [sorted(state.hand(p)) for p in range(4)] == [sorted(hands[p]) for p in range(4)]
    state.apply(f"bid {bid}")
    for _ in range(3):
        state.apply("pass")
    assert state.current_player == 0 and state.trump is None
    return state


def test_pitch_the_first_card_led_sets_trumps() -> None:
    state = pitch(LOW, 2)
    state.apply("play AH")
    assert state.trump == "hearts"  # [AP5]
    assert legal_cards(state) == {"2H"}  # a trump is led: seat 1 must play his [AP6]
    state.apply("play 2H")
    state.apply("play JH")
    assert legal_cards(state) == set(LOW[3])  # no trump: any card


@pytest.mark.parametrize(("low_point", "expected"), [("dealt", [3, 1, 0, 0]), ("taken", [4, 0, 0, 0])])
def test_pitch_low_goes_to_its_original_holder_even_when_captured(low_point: str, expected: list[int]) -> None:
    state = pitch(LOW, 2, low_point=low_point)
    state.apply("play AH")
    play_deal_out(state)
    assert state.scores == expected  # [AP8, AP10]
    labels = [(side, label) for side, _, label in scores_in_deal(state, 1)]
    assert labels[0] == (0, "made the bid")  # the pitcher is counted first [AP12]
    if low_point == "dealt":
        assert labels[1:] == [(1, "Low")]


def test_pitch_game_point_tie_scores_nobody() -> None:
    state = pitch(TIE, 2)
    plays(state, *TIE_PLAY)
    tricks = [e for e in deal_events(state, 1) if e["type"] == "trick"]
    assert [e["winner"] for e in tricks] == [0, 1, 2, 2, 2, 1]
    # High and Low are the same card, the pitcher's only trump; no jack; Game tied 10-10.
    assert state.scores == [2, 0, 0, 0]  # [AP9]
    assert [label for _, _, label in scores_in_deal(state, 1)] == ["made the bid"]


def test_pitch_set_back() -> None:
    state = pitch(TIE, 3)
    plays(state, *TIE_PLAY)
    assert state.scores == [-3, 0, 0, 0]  # two points won, three bid [AP10]
    state = pitch(LOW, 4)
    state.apply("play AH")
    play_deal_out(state)
    assert state.scores == [-4, 1, 0, 0]  # the others still score what they won


def test_pitch_the_pitcher_goes_out_first() -> None:
    state = pitch(LOW, 2, target=1)
    state.apply("play AH")
    play_deal_out(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 0 and outcome.scores == (3, 0, 0, 0)  # Low never counted
    state = pitch(LOW, 4, target=1)
    state.apply("play AH")
    play_deal_out(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner == 1 and outcome.scores == (-4, 1, 0, 0)  # [AP12]


def test_pitch_when_all_pass() -> None:
    state = interpreter.new_game(PITCH, seed=4, dealer=3)
    for _ in range(4):
        state.apply("pass")
    assert state.core.maker == 3 and state.core.bid == 2 and state.current_player == 3  # [AP4]
    state = interpreter.new_game(PITCH, seed=4, dealer=3, options={"all_pass": "redeal"})
    for _ in range(4):
        state.apply("pass")
    assert state.deal_number == 2 and state.dealer == 0 and state.phase == "auction"


# ---------------------------------------------------------------- properties

PROPERTY_RUNS = [
    ("hearts.trick", "heuristic", 3),
    ("hearts.trick", "random", 3),
    ("black-maria.trick", "heuristic", 3),
    ("black-maria.trick", "random", 3),
    ("omnibus-hearts.trick", "random", 3),
    ("oh-hell.trick", "random", 3),
    ("oh-hell.trick", "heuristic", 2),
    ("oh-hell-3.trick", "random", 1),
    ("oh-hell-7.trick", "random", 1),
    ("auction-pitch.trick", "cautious-heuristic", 3),
    ("auction-pitch.trick", "cautious-random", 3),
]
DEAL_BOUND = {"hearts.trick": 60, "black-maria.trick": 40, "omnibus-hearts.trick": 80, "auction-pitch.trick": 150}


def make_agent(kind: str, seed: int) -> Callable[[interpreter.State], Action]:
    if kind == "heuristic":
        return HeuristicAgent(seed)
    if kind == "random":
        return RandomAgent(seed)
    return Cautious(HeuristicAgent(seed) if kind.endswith("heuristic") else RandomAgent(seed))


@pytest.mark.parametrize(("name", "kind", "matches"), PROPERTY_RUNS)
def test_matches_conserve_cards_and_end_with_a_winner(name: str, kind: str, matches: int) -> None:
    rules = load(name)
    n = rules.player_count
    for seed in range(matches):
        state = interpreter.new_game(rules, seed=seed)
        agents = [make_agent(kind, 100 * seed + i) for i in range(n)]
        while not state.is_terminal():
            check_conserved(state)
            seat = state.current_player
            assert seat is not None and state.legal_actions()
            state.apply_unchecked(agents[seat](state))
        check_conserved(state)
        outcome = state.outcome()
        assert outcome is not None, render(state)[-2000:]
        bound = DEAL_BOUND.get(name)
        if bound is None:  # Oh Hell: the series of deals; a tie for first is a draw
            bound = 2 * int(rules.options["max_cards"])
            if outcome.winner is None:
                assert list(outcome.scores).count(max(outcome.scores)) > 1
        else:
            assert outcome.winner is not None, render(state)[-2000:]
        assert outcome.deals <= bound


@pytest.mark.parametrize("name", ["black-maria.trick", "oh-hell-5.trick", "auction-pitch.trick"])
def test_variants_replay_from_json(name: str) -> None:
    rules = load(name)
    state = interpreter.new_game(rules, seed=9)
    agents = [RandomAgent(i) for i in range(rules.player_count)]
    for _ in range(60):
        seat = state.current_player
        assert seat is not None
        state.apply(agents[seat](state))
    assert interpreter.State.from_json(state.to_json()) == state


# ---------------------------------------------------------------- interpreter bugs


NOBODY_LEADS = """tricklang 1
game "Three hands, the two of clubs out"
players 3
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7 6 5 4 3 2
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
zone out: shared, public
deal
  move all matching 2 of clubs from stock to out
  deal 17 to each
  tricks 17, holder of 2 of clubs leads first
    must follow suit
"""


def test_a_leader_of_nobody_is_a_runtime_error() -> None:
    # As Black Maria would be with `lead_two_of_clubs` and no guard in hearts.trick.
    rules = tricklang.load(NOBODY_LEADS)
    with pytest.raises(RuleRuntimeError):
        state = interpreter.new_game(rules, seed=1)
        state.legal_actions()


def test_opponents_of_with_three_sides_is_reported_when_loading(tmp_path: Path) -> None:
    # The cut-throat Cinch (C37) cannot simply extend rules/cinch.trick: its
    # counting says `opponents of maker`, which needs two sides.
    variant = tmp_path / "cinch-3.trick"
    variant.write_text(f'tricklang 1\nextends "{ROOT / "rules" / "cinch.trick"}"\ngame "Cinch for three"\nplayers 3\n')
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.load(variant)
    assert "type-error" in err.value.codes and "two sides" in str(err.value)


def test_the_last_deal_of_oh_hell_is_marked_in_transcripts() -> None:
    state = interpreter.new_game(OH_HELL, seed=2, options={"max_cards": 1})
    text = render(state)
    assert "{'type'" not in text
    assert "this is the last deal of the match  [OH9]" in text
