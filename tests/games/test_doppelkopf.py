"""Doppelkopf (examples/doppelkopf.trick) on scripted deals: the double pack and the trump
order with the tens of hearts highest [DK1, DK3], following suit with the trumps as one suit
[DK5], two equal cards (the first played wins) [DK5], the Re party found from the queens of
clubs and the silent solo [DK4], the scoring [DK6-DK8, DK10], the marriage [DK11] and the
announcements "Re" and "Kontra" [DK12], checked against a scorer written here from the
rules."""

from __future__ import annotations

import random
from collections import Counter

from helpers import load_example

import interpreter
import tricklang
from interpreter.players import HeuristicAgent, RandomAgent

RULES = load_example("doppelkopf.trick")
ONE_DEAL = tricklang.load(RULES.path, options={"deals": 1})
FACES = [r + s for s in "CSHD" for r in "A 10 K Q J 9".split()]
VALUE = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}


def deck(hands: dict[int, str]) -> list[str]:
    """The pack for dealer 0 (forehand 1): three cards at a time to 1, 2, 3, 0, four times [DK2]."""
    cards = {seat: hand.split() for seat, hand in hands.items()}
    order = [c for lo in range(0, 12, 3) for seat in (1, 2, 3, 0) for c in cards[seat][lo:lo + 3]]
    assert Counter(order) == Counter(FACES * 2), "each face exactly twice"
    return order


def deal(pack: list[str], rules: tricklang.Ruleset = ONE_DEAL) -> interpreter.State:
    """Dealer 0's deal of the pack, at its first decision: forehand's reservation [DK11]."""
    return interpreter.new_game(rules, deck=pack, dealer=0)


def new(pack: list[str], rules: tricklang.Ruleset = ONE_DEAL, marriage: bool = False) -> interpreter.State:
    """The deal at its first card: every player has said he is healthy, but the holder of
    both queens of clubs has announced a marriage if ``marriage`` [DK4, DK11]."""
    state = deal(pack, rules)
    while state.decision is not None and state.decision.kind == "choice":
        options = [str(a) for a in state.legal_actions()]
        state.apply("marriage" if marriage and "marriage" in options else "healthy")
    return state


def run(state: interpreter.State, *actions: str) -> interpreter.State:
    for action in actions:
        state.apply(action)
    return state


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def tricks(state: interpreter.State) -> list[dict[str, object]]:
    return [e for e in state.events(None) if e["type"] == "trick"]


def scores(state: interpreter.State) -> dict[int, list[tuple[str, int]]]:
    """Each player's score lines of the deal, in order."""
    out: dict[int, list[tuple[str, int]]] = {p: [] for p in range(4)}
    for e in state.events(None):
        if e["type"] == "score":
            out[e["side"]].append((e["label"], e["points"]))
    return out


# Forehand (1) and player 3 hold a queen of clubs each; 2 and 0 hold none.
NORMAL = deck({1: "10H QC JC AD AD 10D AC AC 10C AS AS 10S",
               2: "10H QS JS KD KD 10D 10C KC KC 9C 9C 10S",
               3: "QC QS JH JH 9D 9D KS KS 9S 9S AH AH",
               0: "QH QH QD QD JC JS JD JD KH KH 9H 9H"})


def test_the_pack_is_two_copies_of_24_cards_dealt_three_at_a_time() -> None:
    state = new(NORMAL)
    dealt = {e["player"]: e["cards"] for e in state.events(None) if e["type"] == "dealt"}
    assert Counter(c for hand in dealt.values() for c in hand) == Counter(FACES * 2)  # [DK1]
    assert dealt[1][:3] == ["10H", "QC", "JC"] and dealt[2][:3] == ["10H", "QS", "JS"]  # [DK2]
    assert state.current_player == 1  # forehand leads [DK5]


def test_the_ten_of_hearts_is_the_highest_trump_and_of_two_equal_cards_the_first_wins() -> None:
    state = run(new(NORMAL), "play 10H")
    assert plays(state) == ["10D", "10H", "JS", "KD", "QS"]  # trumps follow a trump [DK3, DK5]
    run(state, "play 10H", "play QC", "play QH")
    (trick,) = tricks(state)
    assert trick["cards"] == ["10H", "10H", "QC", "QH"] and trick["winner"] == 1  # the first 10H [DK5]


def test_the_ten_of_hearts_is_no_heart_and_the_queens_rank_clubs_first() -> None:
    state = run(new(NORMAL), "play AS", "play 10S", "play 9S")
    assert "QH" in plays(state) and "KH" in plays(state)  # 0 has no spade: any card [DK5]
    run(state, "play QD")
    assert tricks(state)[0]["winner"] == 0  # the lowest queen trumps the ace of spades [DK3]
    run(state, "play KH")
    assert "10H" in plays(state) and "AC" in plays(state)  # 1's ten of hearts is no heart [DK3, DK5]
    run(state, "play 10H", "play 10C")
    assert plays(state) == ["AH"]  # 3 must follow hearts [DK5]
    run(state, "play AH")
    assert tricks(state)[1]["winner"] == 1  # the ten of hearts trumps the ace of hearts [DK3]
    run(state, "play QC", "play QS", "play QS", "play QH")
    assert tricks(state)[2]["winner"] == 1  # queen of clubs above spades above hearts [DK3]


def play_out(state: interpreter.State) -> interpreter.State:
    """Each player plays the first card he may, to the end of the deal."""
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return state


def announced(state: interpreter.State) -> set[str]:
    """The announcements made this deal: "re", "kontra" [DK12]."""
    return {str(e["name"]) for e in state.events(None) if e["type"] == "declare"}


def expected(state: interpreter.State, re: set[int]) -> dict[int, list[tuple[str, int]]]:
    """The scores of [DK6-DK8, DK12], worked out here from the tricks as played."""
    points = Counter[int]()
    taken = Counter[int]()
    for trick in tricks(state):
        winner = int(str(trick["winner"]))
        cards = trick["cards"]
        assert isinstance(cards, list)
        points[winner] += sum(VALUE[str(c)[:-1]] for c in cards)
        taken[winner] += 1
    re_points = sum(points[p] for p in re)
    assert sum(points.values()) == 240  # [DK1]
    said = announced(state)
    re_won = re_points >= (120 if said == {"kontra"} else 121)  # [DK6, DK12]
    losers = [p for p in range(4) if (p in re) != re_won]
    lost_points = sum(points[p] for p in losers)
    value = 1 + (not re_won and len(re) == 2)  # [DK7]
    value += (lost_points < 90) + (lost_points < 60) + (lost_points < 30)
    value += sum(taken[p] for p in losers) == 0
    value += 2 * len(said)  # [DK12]
    out = {}
    for p in range(4):
        share = 3 * value if p in re and len(re) == 1 else value  # [DK8]
        won = (p in re) == re_won
        label = ("Re " if p in re else "Kontra ") + ("won" if won else "lost")
        out[p] = [(label, share if won else -share)]
    net = extra_points(state, re)
    for p in range(4) if net else ():
        out[p].append(("extra points", net if p in re else -net))  # [DK10]
    return out


def extra_points(state: interpreter.State, re: set[int]) -> int:
    """Re's extra points less Kontra's [DK10]: none in a solo."""
    if len(re) == 1:
        return 0
    net = 0
    for trick in tricks(state):
        winner = int(str(trick["winner"]))
        cards, players = trick["cards"], trick["players"]
        assert isinstance(cards, list) and isinstance(players, list)
        extra = sum(VALUE[str(c)[:-1]] for c in cards) >= 40  # Doppelkopf
        extra += trick["trick"] == 12 and cards[players.index(winner)] == "JC"  # Karlchen
        extra += sum(c == "AD" and (p in re) != (winner in re) for c, p in zip(cards, players, strict=True))  # foxes
        net += extra if winner in re else -extra
    return net


def test_the_holders_of_the_queens_of_clubs_are_re_and_score_together() -> None:
    state = play_out(new(NORMAL))
    got = scores(state)
    assert {p for p, lines in got.items() if lines[0][0].startswith("Re")} == {1, 3}  # [DK4]
    assert got == expected(state, {1, 3})  # [DK6-DK8]
    assert sum(points for lines in got.values() for _, points in lines) == 0


def test_a_kontra_win_scores_against_the_queens_of_clubs() -> None:
    # Re (1 and 3) holds little; Kontra (2 and 0) the top trumps and the aces.
    pack = deck({1: "QC 9D 9D 9C 9C 9S 9S 9H 9H KC KS KH",
                 2: "10H 10H QS QS QH QH AC AC AS AS AH AH",
                 3: "QC KD KD KC KS KH JH JD JD 10C 10S 10S",
                 0: "QD QD JC JC JS JS JH AD AD 10D 10D 10C"})
    state = play_out(new(pack))
    got = scores(state)
    assert got == expected(state, {1, 3})
    assert got[2][0][0] == "Kontra won" and got[2][0][1] >= 2  # winning and "gegen die Alten" [DK7]


def test_both_queens_of_clubs_in_one_hand_is_a_silent_solo_scored_three_times() -> None:
    # Forehand holds both queens of clubs and most of the trumps: he plays alone.
    pack = deck({1: "QC QC 10H 10H QS QS QH QH JC JC AD AD",
                 2: "QD QD JS JS JH JH 10D 10D KD KD 9D 9D",
                 3: "AC AC 10C 10C KC KC 9C 9C AS AS 10S 10S",
                 0: "KS KS 9S 9S AH AH KH KH 9H 9H JD JD"})
    state = play_out(new(pack))
    got = scores(state)
    assert got == expected(state, {1})  # [DK4, DK8]
    assert got[1] == [("Re won", -3 * got[2][0][1])] and len(got[2]) == 1  # no extra points in a solo
    assert sum(points for lines in got.values() for _, points in lines) == 0


def test_a_match_is_a_series_of_24_deals() -> None:
    state = interpreter.new_game(RULES, seed=5)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    assert state.deal_number == 24  # [DK9]


def test_foxes_caught_count_for_the_party_that_takes_them() -> None:
    state = play_out(new(NORMAL))
    foxes = [t for t in tricks(state) if "AD" in t["cards"]]
    assert [t["winner"] for t in foxes] == [0, 0]  # Kontra (0) takes both of Re's (1) aces of diamonds
    # Re won (1 game point) but Kontra's two foxes are two extra points: Re is one down [DK10]
    assert scores(state)[1] == [("Re won", 1), ("extra points", -2)]
    assert scores(state)[0] == [("Kontra lost", -1), ("extra points", 2)]


def parties(state: interpreter.State) -> set[int]:
    """The Re party as the rules make it, from the deal, the choices and the tricks: the
    holders of the queens of clubs [DK4]; after a marriage, its announcer and the first other
    player to win one of the first three tricks, or the announcer alone [DK11]."""
    dealt = {e["player"]: e["cards"] for e in state.events(None) if e["type"] == "dealt"}
    re = {int(str(p)) for p, cards in dealt.items() if "QC" in cards}
    married = [e["player"] for e in state.events(None) if e["type"] == "choice" and e["choice"] == "marriage"]
    if married:
        announcer = int(str(married[0]))
        partners = [t["winner"] for t in tricks(state)[:3] if t["winner"] != announcer]
        re = {announcer, int(str(partners[0]))} if partners else {announcer}
    return re


def check_announcements(state: interpreter.State, re: set[int]) -> None:
    """Each announcement was made by a player of its party, at most one for each party, with
    at least 11 cards in hand; after a marriage, once the partner was found, with one card
    fewer for each trick it took (the third when nobody joined) [DK11, DK12]."""
    married = any(choice == "marriage" for _, choice in choices(state))
    clarified = 0
    if married:
        announcer = next(p for p, choice in choices(state) if choice == "marriage")
        clarified = next((int(str(t["trick"])) for t in tricks(state)[:3] if t["winner"] != announcer), 3)
    played = Counter[int]()
    done = 0
    names = []
    for e in state.events(None):
        if e["type"] == "play":
            played[int(str(e["player"]))] += 1
        elif e["type"] == "trick":
            done += 1
        elif e["type"] == "declare":
            player = int(str(e["player"]))
            names.append(e["name"])
            assert (player in re) == (e["name"] == "re")
            assert done >= clarified
            assert played[player] <= max(1, clarified)  # 11 cards in hand, or 10 or 9
    assert len(names) == len(set(names))


def test_random_deals_score_as_the_rules_say_with_every_kind_of_extra_point() -> None:
    seen = Counter[str]()
    for seed in range(80):
        rng = random.Random(seed)
        state = interpreter.new_game(ONE_DEAL, seed=seed, dealer=0)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
        re = parties(state)  # [DK4, DK11]
        assert scores(state) == expected(state, re)  # [DK6-DK8, DK10, DK12]
        check_announcements(state, re)
        seen.update(announced(state))
        seen["solo"] += len(re) == 1
        seen["marriage"] += any(choice == "marriage" for _, choice in choices(state))  # [DK11]
        for trick in tricks(state) if len(re) == 2 else ():
            cards, players = trick["cards"], trick["players"]
            assert isinstance(cards, list) and isinstance(players, list)
            seen["doppelkopf"] += sum(VALUE[str(c)[:-1]] for c in cards) >= 40
            seen["karlchen"] += trick["trick"] == 12 and cards[players.index(trick["winner"])] == "JC"
            seen["fox"] += "AD" in cards
    assert all(seen[k] for k in ("doppelkopf", "karlchen", "fox", "solo", "marriage", "re", "kontra")), seen


# Forehand (1) holds both queens of clubs (3's in NORMAL, for the ten of spades) and both foxes.
MARRIAGE = deck({1: "10H QC JC AD AD 10D AC AC 10C AS AS QC",
                 2: "10H QS JS KD KD 10D 10C KC KC 9C 9C 10S",
                 3: "10S QS JH JH 9D 9D KS KS 9S 9S AH AH",
                 0: "QH QH QD QD JC JS JD JD KH KH 9H 9H"})


def choices(state: interpreter.State) -> list[tuple[int, str]]:
    return [(int(str(e["player"])), str(e["choice"])) for e in state.events(None) if e["type"] == "choice"]


def test_each_player_says_healthy_or_the_holder_of_both_queens_of_clubs_announces_a_marriage() -> None:
    state = deal(MARRIAGE)
    asked = []
    while state.decision is not None and state.decision.kind == "choice":
        asked.append((state.current_player, [str(a) for a in state.legal_actions()]))
        state.apply(asked[-1][1][0])
    # In turn from forehand; only the holder of both queens of clubs may announce one [DK4, DK11]
    assert asked == [(1, ["marriage", "healthy"]), (2, ["healthy"]), (3, ["healthy"]), (0, ["healthy"])]
    assert choices(state) == [(1, "marriage"), (2, "healthy"), (3, "healthy"), (0, "healthy")]  # said aloud
    assert state.current_player == 1 and plays(state)  # then forehand leads [DK5]
    # A silent solo says "healthy" as everybody does: nothing tells the table [DK4]
    silent = new(MARRIAGE)
    assert choices(silent) == [(1, "healthy"), (2, "healthy"), (3, "healthy"), (0, "healthy")]


def test_a_marriage_partner_found_at_the_first_trick() -> None:
    state = run(new(MARRIAGE, marriage=True), "play AS", "play 10S", "play KS", "play QD")
    assert tricks(state)[0]["winner"] == 0  # the first other player to win a trick [DK11]
    got = scores(play_out(state))
    assert got == expected(state, {1, 0})  # 1 and 0 are Re, 2 and 3 Kontra [DK6-DK8, DK10]
    assert got[0][0][0].startswith("Re") and got[2][0][0].startswith("Kontra") and got[3][0][0].startswith("Kontra")
    assert sum(points for lines in got.values() for _, points in lines) == 0


def test_a_marriage_partner_found_at_the_second_trick() -> None:
    state = run(new(MARRIAGE, marriage=True),
                "play 10H", "play KD", "play 9D", "play JD",  # the announcer wins the first trick
                "play AC", "play 9C", "play QS", "play KH")  # 3 trumps the ace of clubs
    assert [t["winner"] for t in tricks(state)] == [1, 3]
    got = scores(play_out(state))
    assert got == expected(state, {1, 3})  # [DK11]
    assert got[3][0][0].startswith("Re") and got[0][0][0].startswith("Kontra")


def test_a_marriage_partner_found_at_the_third_trick() -> None:
    state = run(new(MARRIAGE, marriage=True),
                "play 10H", "play KD", "play 9D", "play JD",
                "play QC", "play KD", "play 9D", "play JD",
                "play AC", "play 9C", "play JH", "play KH")
    assert [t["winner"] for t in tricks(state)] == [1, 1, 3]
    got = scores(play_out(state))
    assert got == expected(state, {1, 3})  # [DK11]
    assert got[3][0][0].startswith("Re") and got[2][0][0].startswith("Kontra")


def test_a_marriage_nobody_else_joins_in_three_tricks_is_a_solo_scored_three_times() -> None:
    state = run(new(MARRIAGE, marriage=True),
                "play 10H", "play KD", "play 9D", "play JD",
                "play QC", "play KD", "play 9D", "play JD",
                "play QC", "play QS", "play JH", "play QH")
    assert [t["winner"] for t in tricks(state)] == [1, 1, 1]
    run(state, "play AC", "play 9C", "play JH", "play KH")
    assert tricks(state)[3]["winner"] == 3  # too late to be a partner [DK11]
    got = scores(play_out(state))
    assert got == expected(state, {1})  # alone against three, three times the game points [DK8]
    assert got[1][0][1] == -3 * got[2][0][1]
    assert all(len(lines) == 1 for lines in got.values())  # no extra points in a solo [DK10]


def test_the_foxes_of_the_tricks_before_the_partner_is_known_go_by_the_parties_found() -> None:
    # 3, the partner-to-be, and 0 (Kontra) each play a fox to the announcer's first trick.
    pack = deck({1: "10H QC QC JC 10D AC AC 10C AS AS 9D 9D",
                 2: "10H QS JS KD KD 10D 10C KC KC 9C 9C 10S",
                 3: "10S QS JH JH AD JD KS KS 9S 9S AH AH",
                 0: "QH QH QD QD JC JS JD AD KH KH 9H 9H"})
    state = run(new(pack, marriage=True),
                "play 10H", "play KD", "play AD", "play AD",
                "play QC", "play KD", "play JD", "play JD",
                "play AC", "play 9C", "play JH", "play KH")
    assert [t["winner"] for t in tricks(state)] == [1, 1, 3]
    play_out(state)
    # 0's fox is caught by Re; 3's is his own party's: one extra point, the deal's only one [DK10, DK11]
    assert scores(state) == expected(state, {1, 3})
    assert scores(state)[1] == [("Re won", 1), ("extra points", 1)]


def test_the_built_in_players_take_the_marriage_and_the_silent_solo() -> None:
    # The heuristic player takes a choice's first option with a fair hand: the marriage.
    assert str(HeuristicAgent(0)(deal(MARRIAGE))) == "marriage"
    # With a weak hand (two trumps) it takes the second: healthy, a silent solo.
    weak = deck({1: "QC QC AC AC 10C 10C KC KC AS AS 10S 10S",
                 2: "10H 10H QS QS QH QH QD QD JC JC JS JS",
                 3: "JH JH JD JD AD AD 10D 10D KD KD 9D 9D",
                 0: "9C 9C KS KS 9S 9S AH AH KH KH 9H 9H"})
    assert str(HeuristicAgent(0)(deal(weak))) == "healthy"
    # The random player takes either.
    taken = Counter[str]()
    for seed in range(40):
        state = interpreter.new_game(ONE_DEAL, seed=seed, dealer=0)
        while state.decision is not None and state.decision.kind == "choice":
            if "marriage" in [str(a) for a in state.legal_actions()]:
                taken[str(RandomAgent(seed)(state))] += 1
            state.apply("healthy")
    assert set(taken) == {"marriage", "healthy"}, taken


def offered(state: interpreter.State) -> list[str]:
    return [str(a) for a in state.legal_actions() if a.verb == "declare"]


def test_re_and_kontra_are_announced_by_their_party_until_the_second_card() -> None:
    state = new(NORMAL)
    assert offered(state) == ["declare re"]  # forehand holds a queen of clubs [DK12]
    run(state, "play 10H")
    assert offered(state) == ["declare kontra"]  # 2 holds none
    run(state, "play 10H", "declare re", "play QC")  # 3, Re, says Re at his first card
    assert offered(state) == ["declare kontra"]
    run(state, "play QH")
    assert tricks(state)[0]["winner"] == 1
    assert offered(state) == []  # Re is said: forehand, his partner, has nothing to say
    run(state, "play AS", "declare kontra", "play 10S", "play 9S")  # 2 at his second card
    assert offered(state) == []  # Kontra is said too
    got = scores(play_out(state))
    assert announced(state) == {"re", "kontra"} and got == expected(state, {1, 3})
    assert abs(got[1][0][1]) >= 5  # 1 for the game, 2 and 2 for the announcements [DK7, DK12]


def test_an_announcement_is_too_late_at_ones_third_card() -> None:
    state = run(new(NORMAL), "play 10H", "play 10H", "play QC", "play QH",
                "play QC", "play QS", "play QS", "play QH")
    assert [t["winner"] for t in tricks(state)] == [1, 1]
    assert offered(state) == []  # forehand's third card: too late [DK12]
    run(state, "play AC")
    assert offered(state) == []  # and for 2, who has played two cards


def game_points(got: dict[int, list[tuple[str, int]]]) -> dict[int, int]:
    """Each player's game points (the first score line) of the deal."""
    return {p: lines[0][1] for p, lines in got.items()}


def test_an_announcement_adds_two_game_points_for_the_winners() -> None:
    quiet = scores(play_out(new(NORMAL)))
    said = play_out(run(new(NORMAL), "declare re"))
    assert scores(said) == expected(said, {1, 3})
    assert game_points(scores(said)) == {p: points + (2 if points > 0 else -2) for p, points in game_points(quiet).items()}


def announcing_kontra(seed: int, kontra: bool) -> interpreter.State:
    """A random deal played out: each player says healthy and plays the first card he may;
    the first Kontra player offered the announcement makes it if ``kontra``."""
    state = interpreter.new_game(ONE_DEAL, seed=seed, dealer=0)
    while not state.is_terminal():
        legal = [str(a) for a in state.legal_actions()]
        state.apply("declare kontra" if kontra and "declare kontra" in legal else
                    "healthy" if "healthy" in legal else next(a for a in legal if not a.startswith("declare")))
    return state


def test_kontra_announced_alone_needs_121_and_re_wins_with_120() -> None:
    # Seed 344, dealt by 0 and played out as above, ends 120 to 120 (Re: 0 and 1).
    said = announcing_kontra(344, kontra=True)
    assert parties(said) == {0, 1} and announced(said) == {"kontra"}
    assert sum(sum(VALUE[str(c)[:-1]] for c in t["cards"]) for t in tricks(said) if t["winner"] in (0, 1)) == 120
    assert game_points(scores(said)) == {0: 3, 1: 3, 2: -3, 3: -3}  # Re wins: 1, and 2 for Kontra [DK6, DK12]
    quiet = announcing_kontra(344, kontra=False)
    assert tricks(quiet) == tricks(said)
    assert game_points(scores(quiet)) == {0: -2, 1: -2, 2: 2, 3: 2}  # Kontra wins with 120, against the queens [DK6, DK7]


def test_after_a_marriage_the_announcements_wait_for_the_partner_and_their_deadline_moves() -> None:
    # The partner is found at the second trick: the deadline moves one card on [DK11, DK12]
    state = new(MARRIAGE, marriage=True)
    for card in ("10H", "KD", "9D", "JD", "AC", "9C", "QS", "KH"):
        assert offered(state) == []  # nothing to say while the partner is unknown
        run(state, "play " + card)
    assert [t["winner"] for t in tricks(state)] == [1, 3]
    assert offered(state) == ["declare re"]  # 3, now Re, at his third card
    run(state, "play AH")
    assert offered(state) == ["declare kontra"]  # 0 at his third card
    run(state, "play 9H")
    assert offered(state) == ["declare re"]  # 1 at his third card
    run(state, "play QC")
    assert offered(state) == ["declare kontra"]  # 2 at his third card
    run(state, "play KC")
    assert tricks(state)[2]["winner"] == 1
    assert offered(state) == []  # fourth cards: too late
    # Found at the first trick: the usual deadline, the second card.
    early = run(new(MARRIAGE, marriage=True), "play AS", "play 10S", "play KS", "play QD")
    assert offered(early) == ["declare re"]  # 0, the partner, leads his second card
    run(early, "play QH")
    assert offered(early) == ["declare re"]  # 1 at his second card
    run(early, "declare re", "play 10H")
    assert offered(early) == ["declare kontra"]
    assert expected(play_out(early), {1, 0}) == scores(early)
