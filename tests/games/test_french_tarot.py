"""French Tarot (examples/french-tarot.trick) on scripted deals: the pack, the deal and play to
the right [FT1-FT3], the bidding once around with its four contracts [FT4], the dog and the
lay-away with its fallback [FT5], the legal plays (follow, trump, overtrump) and the Excuse
[FT7, FT8], the slam's Excuse at the last trick [FT11]; and random deals whose every legal
play, trick winner and score is checked against a model written here from the rules [FT7-FT11]."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from helpers import assert_native_plays_as_cpython, load_example

import interpreter
import tricklang
from interpreter import native
from interpreter.players import HeuristicAgent
from tricklang.explain import explain

RULES = load_example("french-tarot.trick")
ONE_DEAL = tricklang.load(RULES.path, options={"deals": 1})
SLAMS = tricklang.load(RULES.path, options={"deals": 1, "slam_announcements": True})
SUITS = "SHDC"
PLAIN_RANKS = "K Q C J 10 9 8 7 6 5 4 3 2 1".split()
TRUMPS = [f"{n}T" for n in range(21, 0, -1)]
EXCUSE = "EX"
PACK = [r + s for s in SUITS for r in PLAIN_RANKS] + TRUMPS + [EXCUSE]
OUDLERS = {"21T", "1T", EXCUSE}
MULTIPLIER = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
THRESHOLD = {0: 56, 1: 51, 2: 41, 3: 36}  # points the taker needs, by his oudlers [FT9]
DEALER, ELDEST = 0, 3  # play passes right: 0 deals, 3 (on his right) is the eldest, then 2, 1, 0
ORDER = (3, 2, 1, 0)


def half_points(card: str) -> int:
    """A card's value in half points [FT9]: oudlers and kings 4.5, queens 3.5, knights 2.5,
    jacks 1.5, any other card 0.5."""
    if card in OUDLERS or card[:-1] == "K" and card[-1] in SUITS:
        return 9
    if card[-1] in SUITS and card[:-1] in ("Q", "C", "J"):
        return {"Q": 7, "C": 5, "J": 3}[card[:-1]]
    return 1


def suit(card: str) -> str:
    return "X" if card == EXCUSE else card[-1]


def rank(card: str) -> int:
    """A trump's number, a plain card's place in its suit (the king 14, the 1 lowest)."""
    if suit(card) == "T":
        return int(card[:-1])
    return len(PLAIN_RANKS) - PLAIN_RANKS.index(card[:-1])


def deck(hands: dict[int, str], dog: str = "", seed: int = 0) -> list[str]:
    """The pack for dealer 0: three cards at a time to 3, 2, 1, 0, six times, then six to the
    dog [FT3]. Cards the scripted hands and dog do not name are shared out at random."""
    fixed = {seat: hand.split() for seat, hand in hands.items()}
    named = [c for cards in fixed.values() for c in cards] + dog.split()
    assert len(named) == len(set(named)) and set(named) <= set(PACK), "each card once"
    rest = [c for c in PACK if c not in named]
    random.Random(seed).shuffle(rest)
    full = {}
    for seat in ORDER:
        cards = fixed.get(seat, [])
        need = 18 - len(cards)
        full[seat], rest = cards + rest[:need], rest[need:]
    dog_cards = dog.split() + rest
    assert len(dog_cards) == 6
    order = [c for lo in range(0, 18, 3) for seat in ORDER for c in full[seat][lo:lo + 3]] + dog_cards
    assert Counter(order) == Counter(PACK)
    return order


def new(pack: list[str], rules: tricklang.Ruleset = ONE_DEAL) -> interpreter.State:
    return interpreter.new_game(rules, deck=pack, dealer=DEALER)


def run(state: interpreter.State, *actions: str) -> interpreter.State:
    for action in actions:
        state.apply(action)
    return state


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def of(state: interpreter.State, kind: str) -> list[dict[str, object]]:
    return [e for e in state.events(None) if e["type"] == kind]


def scores(state: interpreter.State) -> dict[int, int]:
    return {int(str(e["side"])): int(str(e["points"])) for e in of(state, "score")}


# ---------------------------------------------------------------- the deal and the bidding


def test_the_pack_is_78_cards_dealt_three_at_a_time_to_the_right_with_six_to_the_dog() -> None:
    state = new(deck({3: "21T 20T 19T", 2: "KS QS CS", 1: f"{EXCUSE} 1T 2T", 0: "KH KD KC"}, dog="1S 2S 3S 4S 5S 6S"))
    dealt = {e["player"]: e["cards"] for e in of(state, "dealt")}
    assert [e["player"] for e in of(state, "dealt")] == [3, 2, 1, 0]  # to the right, from the eldest [FT1, FT3]
    assert all(len(cards) == 18 for cards in dealt.values())  # [FT3]
    assert dealt[3][:3] == ["21T", "20T", "19T"] and dealt[1][:3] == [EXCUSE, "1T", "2T"]
    assert sorted(state.zone("dog")) == sorted("1S 2S 3S 4S 5S 6S".split())  # [FT3]
    assert Counter(c for cards in dealt.values() for c in cards) + Counter(state.zone("dog")) == Counter(PACK)  # [FT2]
    assert state.current_player == ELDEST  # the dealer's right bids first [FT4]


def test_each_player_bids_once_higher_than_before_or_passes() -> None:
    state = new(deck({}))
    assert [str(a) for a in state.legal_actions()] == ["pass", "bid petite", "bid garde", "bid garde_sans",
                                                       "bid garde_contre"]  # [FT4]
    run(state, "bid garde")
    assert state.current_player == 2 and [str(a) for a in state.legal_actions()] == [
        "pass", "bid garde_sans", "bid garde_contre"]  # only higher [FT4]
    run(state, "pass", "bid garde_sans", "pass")
    (contract,) = of(state, "contract")
    assert contract["maker"] == 1 and contract["bid"] == "garde_sans"  # once around: 3 does not speak again [FT4]


def test_when_all_pass_the_deal_is_thrown_in_and_the_next_dealer_on_the_right_deals() -> None:
    state = interpreter.new_game(RULES, seed=4, dealer=DEALER)
    run(state, "pass", "pass", "pass", "pass")
    deals = of(state, "deal")
    assert [e["dealer"] for e in deals] == [0, 3]  # [FT1, FT4]
    assert state.current_player == 2 and not of(state, "contract")


def test_a_petit_sec_throws_the_deal_in() -> None:
    state = new(deck({2: "1T KS QS CS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S 1S KH QH CH"}))
    assert [e["dealer"] for e in of(state, "deal")] == [0, 3] and not of(state, "bid")  # [FT12]
    state = new(deck({2: f"1T {EXCUSE} QS CS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S 1S KH QH CH"}))
    assert [e["dealer"] for e in of(state, "deal")] == [0]  # the Excuse with it: no petit sec


# ---------------------------------------------------------------- the dog [FT5]

# The eldest (3) holds fourteen trumps and the four kings; the dog holds two low spades,
# three low trumps and the Excuse.
TRUMP_HEAVY = deck({3: "21T 20T 19T 18T 17T 16T 15T 14T 13T 12T 11T 10T 9T 8T KS KH KD KC"},
                   dog=f"2S 3S 7T 6T 5T {EXCUSE}")


def test_at_petite_the_dog_is_shown_taken_and_six_cards_laid_away_neither_kings_nor_oudlers() -> None:
    state = run(new(deck({3: "21T KS KH 4S 5S 6S 7S 8S 9S 2H 3H 4H 5H 6H 7H 8H 9H 10H"},
                         dog=f"1T 2T KD 2D 3D {EXCUSE}")), "bid petite", "pass", "pass", "pass")
    (shown,) = of(state, "exposed")
    assert sorted(shown["cards"]) == sorted(f"1T 2T KD 2D 3D {EXCUSE}".split())  # shown to all [FT5]
    assert len(state.hand(3)) == 24
    laid = [a.args[0] for a in state.legal_actions()]
    assert "2D" in laid and "4S" in laid  # plain cards below the king
    assert not {"KS", "KD", "21T", "1T", "2T", EXCUSE} & set(laid)  # no king, oudler or trump [FT5]
    run(state, *["discard " + c for c in "2D 3D 4S 5S 6S 7S".split()])
    assert sorted(state.zone("laid_away")) == sorted("2D 3D 4S 5S 6S 7S".split())
    assert len(of(state, "exposed")) == 1  # no trump laid away: nothing more shown
    assert state.current_player == ELDEST and len(state.hand(3)) == 18


def test_trumps_are_laid_away_only_when_nothing_else_may_be_and_are_shown() -> None:
    state = run(new(TRUMP_HEAVY), "bid garde", "pass", "pass", "pass")
    assert sorted(a.args[0] for a in state.legal_actions()) == ["2S", "3S"]  # [FT5]
    run(state, "discard 2S", "discard 3S")
    laid = sorted(a.args[0] for a in state.legal_actions())
    assert "5T" in laid and "20T" in laid  # no plain card left but kings: trumps [FT5]
    assert not {"21T", EXCUSE, "KS", "KH", "KD", "KC"} & set(laid)  # never an oudler or a king [FT5]
    run(state, "discard 5T", "discard 6T", "discard 7T", "discard 8T")
    shown = of(state, "exposed")[-1]
    assert sorted(shown["cards"]) == ["5T", "6T", "7T", "8T"]  # the trumps laid away are shown [FT5]


def test_garde_sans_gives_the_dog_unseen_to_the_taker_and_garde_contre_to_the_defence() -> None:
    sans = run(new(TRUMP_HEAVY), "bid garde_sans", "pass", "pass", "pass")
    assert not of(sans, "exposed") and sorted(sans.zone("laid_away")) == sorted(f"2S 3S 7T 6T 5T {EXCUSE}".split())
    assert len(sans.hand(3)) == 18 and sans.current_player == ELDEST  # [FT5]
    contre = run(new(TRUMP_HEAVY), "bid garde_contre", "pass", "pass", "pass")
    assert not of(contre, "exposed") and not contre.zone("laid_away")
    assert sorted(contre.zone("defence_dog")) == sorted(f"2S 3S 7T 6T 5T {EXCUSE}".split())  # [FT5]


# ---------------------------------------------------------------- handfuls [FT6]


def test_a_handful_is_shown_before_the_first_trick_the_excuse_only_for_a_missing_trump() -> None:
    state = run(new(deck({3: " ".join(TRUMPS[:12]) + " KS", 2: " ".join(TRUMPS[12:]) + f" {EXCUSE}"})),
                "bid garde_sans", "pass", "pass", "pass")
    assert state.current_player == 3 and [str(a) for a in state.legal_actions()] == ["single", "pass"]
    run(state, "single")
    shows = [a.args for a in state.legal_actions()]
    assert len(shows) == 66 and all(len(cards) == 10 for cards in shows)  # ten of his twelve trumps [FT6]
    run(state, "show " + " ".join(TRUMPS[2:12]))
    assert state.current_player == 2 and [str(a) for a in state.legal_actions()] == ["single", "pass"]
    run(state, "single")  # nine trumps and the Excuse: all of them
    assert [str(a) for a in state.legal_actions()] == [f"show {EXCUSE}"]
    run(state, f"show {EXCUSE}")
    shown = of(state, "shown")
    assert [(e["player"], sorted(e["cards"])) for e in shown] == [
        (3, sorted(TRUMPS[2:12])), (2, sorted(TRUMPS[12:] + [EXCUSE]))]  # [FT6]
    assert state.phase == "play" and state.current_player == 3


# ---------------------------------------------------------------- the play [FT7, FT8]


def legal_plays(hand: list[str], trick: list[str]) -> list[str]:
    """The cards a player may play to the trick, from [FT7] and [FT8]."""
    played = [c for c in trick if c != EXCUSE]
    if not played:
        return sorted(hand)  # a lead, or a card after the Excuse led [FT8]
    led = suit(played[0])
    follow = [c for c in hand if suit(c) == led]
    trumps = [c for c in hand if suit(c) == "T"]
    if led != "T" and follow:
        allowed = follow
    elif trumps:
        top = max((rank(c) for c in played if suit(c) == "T"), default=0)
        allowed = [c for c in trumps if rank(c) > top] or trumps  # overtrump if able [FT7]
    else:
        allowed = [c for c in hand if c != EXCUSE]
    if EXCUSE in hand:
        allowed = allowed + [EXCUSE]  # at any time [FT8]
    return sorted(set(allowed) or set(hand))


def trick_winner(cards: list[str], players: list[int], side_won_all: bool) -> int:
    """Who wins a finished trick [FT7, FT8, FT11]: the highest trump, else the highest card of
    the suit led; the Excuse only at the last trick of a side that has won every other."""
    if EXCUSE in cards and side_won_all:
        return players[cards.index(EXCUSE)]
    played = [(c, p) for c, p in zip(cards, players, strict=True) if c != EXCUSE]
    if not played:
        return players[0]
    trumps = [(rank(c), p) for c, p in played if suit(c) == "T"]
    if trumps:
        return max(trumps)[1]
    led = suit(played[0][0])
    return max((rank(c), p) for c, p in played if suit(c) == led)[1]


def test_follow_suit_else_trump_and_overtrump_else_any_card() -> None:
    state = run(new(deck({3: "KS 5S 21T 2T 3T 4T", 2: "10T 18T 1H 2H 3H 4H 5H 6H 7H 8H 9H 10H JH CH QH KH 1D 2D",
                          1: "QS 20T 6T", 0: "9S 19T 1T"}, seed=1)),
                "bid garde_sans", "pass", "pass", "pass")
    hands = {p: state.hand(p) for p in range(4)}
    assert plays(state) == legal_plays(hands[3], [])
    run(state, "play KS")
    assert plays(state) == legal_plays(hands[2], ["KS"]) and "10T" in plays(state) and "1H" not in plays(state)
    run(state, "play 10T")  # 2 has no spade: he trumps [FT7]
    assert plays(state) == legal_plays(hands[1], ["KS", "10T"])
    assert "QS" in plays(state) and "20T" not in plays(state)  # 1 follows suit: no need to trump [FT7]


def test_on_a_trump_the_next_must_play_higher_if_able_else_any_trump() -> None:
    state = run(new(deck({3: "15T 2S 3S 4S 5S 6S", 2: "16T 3T 7H", 1: "14T 13T 8H", 0: "KS 21T 20T 19T 18T 17T"},
                         seed=2)), "bid garde_sans", "pass", "pass", "pass")
    run(state, "play 15T")
    assert "16T" in plays(state) and "3T" not in plays(state)  # a higher trump if able [FT7]
    run(state, "play 16T")
    held = sorted(c for c in state.hand(1) if suit(c) == "T")
    assert {"14T", "13T"} <= set(held) and all(rank(c) < 16 for c in held)
    assert plays(state) == sorted(held + ([EXCUSE] if EXCUSE in state.hand(1) else []))  # no higher: any trump [FT7]


def test_the_excuse_may_be_played_at_any_time_never_wins_and_sets_no_suit_when_led() -> None:
    state = run(new(deck({3: f"{EXCUSE} 2S KS", 2: "5H 9S 1D", 1: "KH 3S 2D", 0: "QH 4S 3D"}, seed=3)),
                "bid garde_sans", "pass", "pass", "pass")
    run(state, f"play {EXCUSE}")
    assert plays(state) == sorted(state.hand(2))  # nothing set yet: any card [FT8]
    run(state, "play 5H")
    assert plays(state) == legal_plays(state.hand(1), [EXCUSE, "5H"])  # hearts were set by the 5 [FT8]
    run(state, "play KH", "play QH")
    (trick,) = of(state, "trick")
    assert trick["winner"] == 1  # the king of hearts, not the Excuse led [FT8]


def test_the_excuse_follows_suit_in_place_of_a_card_and_loses() -> None:
    state = run(new(deck({3: "KS 2S 3S", 2: f"{EXCUSE} 4S 21T", 1: "QS", 0: "CS"}, seed=4)),
                "bid garde_sans", "pass", "pass", "pass")
    run(state, "play 2S")
    assert EXCUSE in plays(state) and "4S" in plays(state) and "21T" not in plays(state)  # [FT7, FT8]
    run(state, f"play {EXCUSE}", "play QS", "play CS")
    assert of(state, "trick")[0]["winner"] == 1  # [FT8]


SLAM_HAND = " ".join(TRUMPS[:17]) + f" {EXCUSE}"  # seventeen trumps and the Excuse; the defence has the four lowest
SLAM_DOG = "1S 2S 3S 4S 5S 6S"


def play_slam(state: interpreter.State, taker: int, *leads: str, order: list[str] = TRUMPS + [EXCUSE],
              dog: str = SLAM_DOG) -> list[dict[str, object]]:
    """After the bidding: lay away the dog's spades, announce the slam if asked, show no
    handful, play ``leads``, then the taker plays his cards in ``order`` (his trumps from the
    top and the Excuse last), the others their cheapest cards; the tricks."""
    run(state, *("discard " + c for c in dog.split()))
    while not state.is_terminal():
        if state.decision is not None and state.decision.kind == "choice":
            state.apply("announce_slam" if "announce_slam" in state.legal_actions() else "pass")  # no handful
            continue
        if leads:
            state.apply(f"play {leads[0]}")
            leads = leads[1:]
            continue
        hand = state.hand(state.current_player or 0)
        legal = plays(state)
        assert legal == legal_plays(hand, [c for _, c in state.current_trick])
        if state.current_player == taker:
            choice = next(c for c in order if c in legal)
        else:
            choice = min(legal, key=half_points)
        state.apply("play " + choice)
    return of(state, "trick")


def test_a_slam_taker_leads_the_excuse_to_the_last_trick_and_it_wins() -> None:
    state = run(new(deck({3: SLAM_HAND}, dog=SLAM_DOG)), "bid petite", "pass", "pass", "pass")
    tricks = play_slam(state, 3)
    assert tricks[-1]["cards"][0] == EXCUSE and tricks[-1]["winner"] == 3  # [FT11]
    assert all(t["winner"] == 3 for t in tricks)
    # 91 points with three oudlers: 25 + 55, at petite, plus 200 for the slam made unannounced
    assert scores(state) == {3: 3 * 280, 0: -280, 1: -280, 2: -280}  # [FT9-FT11]


def test_the_petit_in_the_last_trick_scores_10_times_the_multiplier_to_the_side_that_wins_it() -> None:
    taker = " ".join(TRUMPS[:16]) + " 1T KS"  # 21 down to 6, the petit and a king
    state = run(new(deck({0: taker}, dog=SLAM_DOG)), "pass", "pass", "pass", "bid garde")  # the dealer takes
    tricks = play_slam(state, 0, order=TRUMPS[:16] + ["KS", "1T"])
    assert tricks[-1]["winner"] == 0 and "1T" in tricks[-1]["cards"]  # [FT10]
    got = scores(state)
    assert got == expected_scores(state)
    without = expected_scores(state, petit_au_bout=False)
    assert got[0] - without[0] == 3 * 10 * 2 and got[1] - without[1] == -20  # 10 at garde (x2), to the taker [FT10]


def test_an_announced_slam_is_an_option_and_the_announcer_leads() -> None:
    state = run(new(deck({1: SLAM_HAND}, dog=SLAM_DOG)), "pass", "pass", "bid petite", "pass")
    run(state, *("discard " + c for c in SLAM_DOG.split()))
    assert [str(a) for a in state.legal_actions()] == ["triple", "double", "single", "pass"]  # no announcement
    rules = SLAMS
    state = run(new(deck({1: SLAM_HAND}, dog=SLAM_DOG), rules), "pass", "pass", "bid petite", "pass")
    run(state, *("discard " + c for c in SLAM_DOG.split()))
    assert [str(a) for a in state.legal_actions()] == ["announce_slam", "pass"]
    run(state, "announce_slam", "pass")  # and no handful
    assert state.current_player == 1  # the announcer leads, not the eldest (3) [FT11]
    state = run(new(deck({1: SLAM_HAND}, dog=SLAM_DOG), rules), "pass", "pass", "bid petite", "pass")
    assert all(t["winner"] == 1 for t in play_slam(state, 1))
    assert scores(state) == {1: 3 * 480, 0: -480, 2: -480, 3: -480}  # 80, and 400 for the slam announced and made
    # Announced and failed: the Excuse led to the first trick loses it [FT8, FT11]
    state = run(new(deck({1: SLAM_HAND}, dog=SLAM_DOG), rules), "pass", "pass", "bid petite", "pass")
    tricks = play_slam(state, 1, EXCUSE)
    assert tricks[0]["winner"] != 1 and all(t["winner"] == 1 for t in tricks[1:])
    assert scores(state) == expected_scores(state) and scores(state)[1] < 0  # 200 lost outweighs the contract


# ---------------------------------------------------------------- scoring, against a model of the rules


def expected_scores(state: interpreter.State, petit_au_bout: bool = True) -> dict[int, int]:
    """Each player's score for the deal, worked out from the events by the rules [FT5, FT8-FT11]
    (without petit au bout when asked, to see what it adds)."""
    (contract,) = of(state, "contract")
    taker, bid = int(str(contract["maker"])), str(contract["bid"])
    taker_cards: list[str] = []
    defence_cards: list[str] = []
    for e in of(state, "select"):
        taker_cards += list(e["cards"])  # laid away [FT5]
    for e in of(state, "move"):
        if e["from"] == "dog" and e["to"] == "laid_away":
            taker_cards += list(e["cards"])  # garde sans [FT5]
        if e["from"] == "dog" and e["to"] == "defence_dog":
            defence_cards += list(e["cards"])  # garde contre [FT5]
    tricks = of(state, "trick")
    excuse_owner = excuse_winner = None
    for t in tricks:
        cards, players = list(t["cards"]), list(t["players"])
        (taker_cards if t["winner"] == taker else defence_cards).extend(cards)
        if EXCUSE in cards and t["trick"] != 18:
            excuse_owner, excuse_winner = players[cards.index(EXCUSE)], int(str(t["winner"]))
    taken = sum(half_points(c) for c in taker_cards)
    oudlers = len(OUDLERS & set(taker_cards))
    if excuse_owner is not None and (excuse_owner == taker) != (excuse_winner == taker):
        # The Excuse goes back to its owner's side, for a half-point card if that side has one [FT8].
        to_taker = 1 if excuse_owner == taker else -1
        # (a card from the side's tricks, never from the laid-away cards)
        owners_tricks = [t for t in tricks if (t["winner"] == taker) == (excuse_owner == taker)]
        given = 1 if owners_tricks else 0
        taken += to_taker * (9 - given)
        oudlers += to_taker
    difference = taken - 2 * THRESHOLD[oudlers]  # in half points
    unit = 25 + abs(difference) // 2  # [FT10]
    if difference < 0:
        unit = -unit
    last = tricks[-1]
    if "1T" in last["cards"] and petit_au_bout:
        unit += 10 if last["winner"] == taker else -10  # petit au bout [FT10]
    unit *= MULTIPLIER[bid]  # [FT10]
    bonus = sum({10: 20, 13: 30, 15: 40}[len(list(e["cards"]))] for e in of(state, "shown"))
    unit += bonus if difference >= 0 else -bonus  # handfuls, to the side that wins the deal [FT6]
    won = Counter(int(str(t["winner"])) for t in tricks)
    announced = any(e["choice"] == "announce_slam" for e in of(state, "choice"))
    if won[taker] == 18:
        unit += 400 if announced else 200  # [FT11]
    elif announced:
        unit -= 200
    if won[taker] == 0:
        unit -= 200  # the defence's slam
    return {p: (3 * unit if p == taker else -unit) for p in range(4)}


def test_random_deals_play_and_score_as_the_rules_say() -> None:
    seen = Counter[str]()
    for seed in range(60):
        # The eldest bids each contract in turn, or all pass; the taker plays as the built-in
        # player does, the defenders at random.
        rng = random.Random(seed)
        state = interpreter.new_game(SLAMS if seed % 3 == 0 else ONE_DEAL, seed=seed, dealer=DEALER)
        heuristic = HeuristicAgent(seed=seed)
        won_by = Counter[int]()
        while state.deal_number == 1 and not state.is_terminal():  # (a deal thrown in is dealt again)
            decision = state.decision
            assert decision is not None
            if decision.kind == "play":
                seat = state.current_player
                assert seat is not None
                trick = [c for _, c in state.current_trick]
                assert plays(state) == legal_plays(state.hand(seat), trick), (seed, trick)  # [FT7, FT8]
            if decision.kind == "auction":
                bid = ([*MULTIPLIER, "pass"][seed % 5] if state.current_player == ELDEST else "pass")
                action = bid if bid == "pass" else f"bid {bid}"
            elif state.current_player == ELDEST and seed % 4 == 0 and "announce_slam" in state.legal_actions():
                action = "announce_slam"  # (the heuristic weighs it and, sensibly, hardly ever announces)
            elif state.current_player == ELDEST:
                action = str(heuristic(state))
            else:
                action = str(rng.choice(state.legal_actions()))
            before = len(of(state, "trick"))
            state.apply(action)
            tricks = of(state, "trick")
            if len(tricks) > before:
                t = tricks[-1]
                cards, players = list(t["cards"]), list(t["players"])
                taker = int(str(of(state, "contract")[0]["maker"]))
                all_won = False
                if EXCUSE in cards and t["trick"] == 18:  # the Excuse's side won the 17 tricks before [FT11]
                    taker_won = won_by[taker]
                    all_won = taker_won == 17 if players[cards.index(EXCUSE)] == taker else taker_won == 0
                assert t["winner"] == trick_winner(cards, players, all_won)  # [FT7, FT8, FT11]
                won_by[int(str(t["winner"]))] += 1
        if not of(state, "contract"):
            seen["thrown in"] += 1
            continue
        assert scores(state) == expected_scores(state), seed  # [FT9-FT11]
        (contract,) = of(state, "contract")
        seen[str(contract["bid"])] += 1
        taker = int(str(contract["maker"]))
        for t in of(state, "trick"):
            cards, players = list(t["cards"]), list(t["players"])
            if EXCUSE in cards:
                owner = players[cards.index(EXCUSE)]
                seen["excuse in the last trick" if t["trick"] == 18 else
                     "excuse exchanged" if (owner == taker) != (t["winner"] == taker) else "excuse kept"] += 1
            if t["trick"] == 18 and "1T" in cards:
                seen["petit au bout"] += 1
        seen["made" if scores(state)[taker] > 0 else "set"] += 1
        seen["handful"] += len(of(state, "shown"))
        seen["slam announced"] += sum(e["choice"] == "announce_slam" for e in of(state, "choice"))
    assert all(seen[k] for k in ("petite", "garde", "garde_sans", "garde_contre", "excuse exchanged", "made",
                                 "set", "handful", "slam announced")), seen


# ---------------------------------------------------------------- the built-in player


def test_the_heuristic_player_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    strong = " ".join(TRUMPS[:12]) + f" {EXCUSE} KS KH KD KC QS"
    state = new(deck({3: strong}, seed=5))
    action = HeuristicAgent(seed=0)(state)
    assert action.verb == "bid"  # [FT4]
    weak = "2T 3T 1S 2S 3S 4S 5S 1H 2H 3H 4H 1D 2D 3D 4D 1C 2C 3C"
    state = new(deck({3: weak}, seed=5))
    assert str(HeuristicAgent(seed=0)(state)) == "pass"


# ---------------------------------------------------------------- the rules in words


def test_explain_names_the_excuse_as_the_card_it_is() -> None:
    text = explain(RULES)
    assert "the 21 of atouts, the 1 of atouts or the excuse, 9 points" in text  # [FT9]
    assert "suit *excuse*" not in text


# ---------------------------------------------------------------- native


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_what_cpython_plays() -> None:
    rules = tricklang.loads(RULES.source, path="native-french-tarot.trick",
                            options={"deals": 2, "slam_announcements": True})
    assert_native_plays_as_cpython(rules, range(6))
