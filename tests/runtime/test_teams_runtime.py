"""Issue 28, the runtime half of per-deal teams (design 3.9; interpreter/codegen/teams.py).

Two small games. French Tarot's shape: the auction's winner ``joins taker`` and plays alone
against the three others, who ``join defence``; the contract is counted on the taker's card
points and each defender pays the taker (``defence loses N``, ``taker scores 3 * N``); an
obligation's guard reads ``team of winner != team of to_play`` (a defender need not beat his
partner's card). A Doppelkopf-like secret partnership: the holders of the black queens join
``re``, the others ``kontra``; the party with more card points wins.

Scripted deals check the guard and the scores against a scorer written here from the trick
events; the teams are reset at every deal. Team membership is hidden: two rule files that differ
only in who joins which team give every seat the same observations, tensors, events and legal
actions at every step of the play (Hypothesis over seeds), ``joins`` logs no event, and the
harness finds no violation. A native build plays what CPython plays.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import assert_native_plays_as_cpython
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import native
from interpreter.harness import check_invariants

TAROT = """\
tricklang 1
game "Alone against three"
players 4
role eldest = left of dealer
teams taker, defence
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks K Q J 10
points
  "kings" K = 4
  "queens" Q = 3
  "jacks" J = 2
  "tens" 10 = 1
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 3 deals
deal
  deal 4 to each
  auction once around from eldest, bids 1..3
    if all pass: redeal
  for each player:
    if player == maker:
      player joins taker
    else:
      player joins defence
  let defence_tricks = 0
  tricks 4, eldest leads first
    must follow suit
    must beat if able when team of winner != team of to_play
    after each trick:
      if team of winner == defence:
        set defence_tricks = defence_tricks + 1
  phase scoring:
    let unit = (points(won of taker) - 20) * bid
    defence loses unit "contract"
    taker scores 3 * unit "contract"
    taker scores tricks(taker) "tricks"
    defence scores tricks(defence) + 10 * defence_tricks "tricks"
    taker scores count(won of defence matching K) + 10 * points(defence) "defence took"
    taker scores 0 - deal_score(defence) "paid"
"""

DOPPEL = """\
tricklang 1
game "Secret partners"
players 4
role eldest = left of dealer
teams re, kontra
deck
  suits clubs black, spades black, hearts red, diamonds red
  ranks A K Q J
points
  "aces" A = 11
  "kings" K = 4
  "queens" Q = 3
  "jacks" J = 2
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  at most 4 deals
deal
  deal 4 to each
  for each player:
    if hand of player has (Q of clubs) or hand of player has (Q of spades):
      player joins re
    else:
      player joins kontra
  tricks 4, eldest leads first
    must follow suit
  phase scoring:
    if points(re) > points(kontra):
      re scores 1 "won"
      kontra loses 1 "lost"
    else:
      kontra scores 1 "won"
      re loses 1 "lost"
"""

VALUE = {"K": 4, "Q": 3, "J": 2, "10": 1}
# Dealer 0, so seat 1 is eldest and is dealt first.
HANDS = {1: "KS JH QD 10S", 2: "QS JS QH 10D", 3: "KH 10H KD JD", 0: "KC QC JC 10C"}
PACK = [card for seat in (1, 2, 3, 0) for card in HANDS[seat].split()]


def tarot(deck: list[str] | None = PACK, seed: int = 0) -> interpreter.State:
    return interpreter.new_game(tricklang.loads(TAROT, path="tarot.trick"), deck=deck, dealer=0, seed=seed)


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def events(state: interpreter.State, kind: str, seat: int | None = None) -> list[dict[str, Any]]:
    return [e for e in state.events(seat) if e["type"] == kind]


def play_out_deal(state: interpreter.State, rng: random.Random) -> None:
    """Random legal actions until the deal in progress is scored."""
    deals = len(events(state, "deal_end"))
    while not state.is_terminal() and len(events(state, "deal_end")) == deals:
        state.apply(rng.choice(state.legal_actions()))


def test_a_defender_must_beat_the_takers_card_but_not_his_partners() -> None:
    state = tarot()
    for action in ("bid 2", "pass", "pass", "pass"):
        state.apply(action)
    assert list(state._c.team) == [1, 0, 1, 1]  # seat 1 took the contract: taker (0), the rest defence (1)
    state.apply("play QD")
    state.apply("play 10D")
    assert state.current_player == 3 and plays(state) == ["KD"]  # the taker is winning: beat him
    assert "must beat" in state.why_illegal("play JD")

    partner = tarot()
    for action in ("bid 2", "pass", "pass", "pass", "play JH", "play QH"):
        partner.apply(action)
    assert partner.current_player == 3 and plays(partner) == ["10H", "KH"]  # his partner is winning: free


def expected_scores(state: interpreter.State, bid: int, taker: int) -> dict[str, list[int]]:
    """What each seat scores under each label, from the deal's trick events (the rules written again)."""
    won: dict[int, list[str]] = {p: [] for p in range(4)}
    tricks = {p: 0 for p in range(4)}
    for trick in events(state, "trick"):
        won[trick["winner"]] += trick["cards"]
        tricks[trick["winner"]] += 1
    points = {p: sum(VALUE[card[:-1]] for card in won[p]) for p in range(4)}
    defenders = [p for p in range(4) if p != taker]
    unit = (points[taker] - 20) * bid
    defence_tricks = sum(tricks[p] for p in defenders)
    kings = sum(card.startswith("K") for p in defenders for card in won[p])
    out = {label: [0] * 4 for label in ("contract", "tricks", "defence took", "paid")}
    for p in defenders:
        out["contract"][p] = -unit
        out["tricks"][p] = defence_tricks + 10 * defence_tricks
    out["contract"][taker] = 3 * unit
    out["tricks"][taker] = tricks[taker]
    out["defence took"][taker] = kings + 10 * sum(points[p] for p in defenders)
    out["paid"][taker] = 3 * unit - 3 * (defence_tricks + 10 * defence_tricks)  # what the defence lost this deal
    return out


def scored(state: interpreter.State) -> dict[str, list[int]]:
    out = {label: [0] * 4 for label in ("contract", "tricks", "defence took", "paid")}
    for e in events(state, "score"):
        out[e["label"]][e["side"]] += e["points"]
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_takers_team_is_counted_and_each_defender_pays_the_taker(seed: int) -> None:
    rng = random.Random(seed)
    deck = PACK[:] if seed == 0 else None
    state = tarot(deck, seed)
    taker = 1 + seed % 4 if seed % 4 != 3 else 0
    while state.current_player != taker:
        state.apply("pass")
    bid = 1 + seed % 3
    state.apply(f"bid {bid}")
    while events(state, "contract") == []:
        state.apply("pass")
    play_out_deal(state, rng)
    assert scored(state) == expected_scores(state, bid, taker)
    assert sum(state.scores) == sum(sum(v) for v in scored(state).values())


def test_the_teams_are_reset_at_every_deal() -> None:
    state = tarot()
    for action in ("bid 1", "pass", "pass", "pass"):
        state.apply(action)
    play_out_deal(state, random.Random(1))
    assert list(state._c.team) == [-1, -1, -1, -1]  # a new deal: no seat in a team before the auction
    for action in ("pass", "bid 3", "pass", "pass"):  # dealer 1: seat 2 is eldest; seat 3 takes it
        state.apply(action)
    assert list(state._c.team) == [1, 1, 1, 0]


def doppel_deck(rng: random.Random) -> list[str]:
    cards = [f"{r}{s}" for s in "CSHD" for r in ("A", "K", "Q", "J")]
    rng.shuffle(cards)
    return cards


@pytest.mark.parametrize("seed", range(8))
def test_the_holders_of_the_black_queens_play_together_in_secret(seed: int) -> None:
    rng = random.Random(seed)
    deck = doppel_deck(rng)
    state = interpreter.new_game(tricklang.loads(DOPPEL, path="doppel.trick"), deck=deck, dealer=0)
    hands = {seat: deck[4 * k:4 * k + 4] for k, seat in enumerate((1, 2, 3, 0))}
    re = {p for p in range(4) if {"QC", "QS"} & set(hands[p])}
    assert [p for p in range(4) if state._c.team[p] == 0] == sorted(re)
    play_out_deal(state, rng)
    values = {"A": 11, "K": 4, "Q": 3, "J": 2}
    taken = {p: 0 for p in range(4)}
    for trick in events(state, "trick"):
        taken[trick["winner"]] += sum(values[c[0]] for c in trick["cards"])
    re_won = sum(taken[p] for p in re) > sum(taken[p] for p in range(4) if p not in re)
    assert state.scores == [(1 if (p in re) == re_won else -1) for p in range(4)]


def _views(state: interpreter.State) -> list[Any]:
    return [(state.observation(p), state.observation_tensor(p), state.information_state_tensor(p), state.events(p),
             [str(a) for a in state.legal_actions()] if state.current_player == p else None) for p in range(4)]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_two_deals_that_differ_only_in_hidden_team_membership_look_the_same_to_every_seat(seed: int) -> None:
    """The same cards and play under two rule files whose teams differ (black queens, red queens): as
    long as the deal is played, no seat can tell them apart (nothing before the scores shows a team)."""
    by_black = tricklang.loads(DOPPEL.replace("game \"Secret partners\"", "game \"Partners\""), path="a.trick")
    red = DOPPEL.replace("(Q of clubs) or hand of player has (Q of spades)", "(Q of hearts) or hand of player has (Q of diamonds)")
    by_red = tricklang.loads(red.replace("game \"Secret partners\"", "game \"Partners\""), path="a.trick")
    deck = doppel_deck(random.Random(seed))
    one = interpreter.new_game(by_black, deck=deck, dealer=seed % 4, seed=seed)
    two = interpreter.new_game(by_red, deck=deck, dealer=seed % 4, seed=seed)
    assume(list(one._c.team) != list(two._c.team))  # the hidden state differs...
    rng = random.Random(seed)
    while not events(one, "deal_end"):
        assert _views(one) == _views(two)  # ...and no seat sees it
        action = rng.choice(one.legal_actions())
        one.apply(action)
        two.apply(str(action))


def test_joins_logs_no_event() -> None:
    rules = tricklang.loads(TAROT, path="tarot.trick")
    without = tricklang.loads(TAROT.replace("      player joins taker", "      pass")
                              .replace("      player joins defence", "      pass"), path="tarot.trick")
    one = interpreter.new_game(rules, deck=PACK, dealer=0)
    two = interpreter.new_game(without, deck=PACK, dealer=0)
    for action in ("bid 2", "pass", "pass", "pass", "play JH"):
        one.apply(action)
        two.apply(action)
    assert list(one._c.team) == [1, 0, 1, 1] and list(two._c.team) == [-1, -1, -1, -1]
    assert one.events(None) == two.events(None)
    assert all(one.observation(p) == two.observation(p) for p in range(4))


def test_the_harness_finds_no_violation_with_teams() -> None:
    for text, path in ((TAROT, "tarot.trick"), (DOPPEL, "doppel.trick")):
        rules = tricklang.loads(text, path=path)
        for seed in range(3):
            report = check_invariants(rules, seed=seed, finish=True)
            assert report.ok, report


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
def test_the_native_build_plays_teams_as_cpython_does() -> None:
    for text, path in ((TAROT, "native-teams.trick"), (DOPPEL, "native-partners.trick")):
        python = assert_native_plays_as_cpython(tricklang.loads(text, path=path), range(4), playout=True, step=True)
        labels = {e.get("label") for _, evs in python for e in evs if e["type"] == "score"}
        assert labels >= ({"paid", "defence took"} if text is TAROT else {"won", "lost"})


SIDES = """\
tricklang 1
game "Teams over partnerships"
players 4 in partnerships 0 2, 1 3
role eldest = left of dealer
teams everyone, nobody_else
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks K Q J 10
points
  "kings" K = 4
  "queens" Q = 3
  "jacks" J = 2
  "tens" 10 = 1
melds pairs
  "pair" K Q in any suit = 5
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
match
  at most 1 deals
deal
  deal 4 to each
  for each player:
    player joins everyone
    player melds pairs
  let kings = 0
  for each card in hand of everyone matching K:
    set kings = kings + 1
  tricks 4, eldest leads first
    must follow suit
  everyone scores points(everyone) "all points"
  everyone scores melded(everyone) + 100 * kings "melded"
  nobody_else scores 7 "nobody"
  if hand of everyone has K or tricks(nobody_else) != 0 or points(nobody_else) != 0:
    everyone scores 1000 "wrong"
"""


@pytest.mark.parametrize("seed", range(4))
def test_a_team_over_sides_scores_each_side_once_and_sums_its_members(seed: int) -> None:
    """Partnerships and a per-side won zone: a team of all four players scores each side once, its
    points are the whole pack's, its melds every member's; an empty team has nothing and scores nowhere."""
    state = interpreter.new_game(tricklang.loads(SIDES, path="sides.trick"), seed=seed)
    state.playout(random.Random(seed))
    melded = sum(e["points"] for e in events(state, "meld"))
    kings = sum(card.startswith("K") for e in events(state, "dealt") for card in e["cards"])
    assert kings == 4
    assert scored_by_label(state) == {"all points": [40, 40], "melded": [melded + 400, melded + 400]}
    assert state.scores == [40 + melded + 400] * 2


def scored_by_label(state: interpreter.State) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for e in events(state, "score"):
        out.setdefault(e["label"], [0, 0])[e["side"]] += e["points"]
    return out


def test_a_player_joins_in_a_hook_as_a_marriages_partner_would() -> None:
    """Doppelkopf's marriage: the first trick's winner joins the team, in an `after each trick` hook
    (leaving the other team); no event says so."""
    text = DOPPEL.replace("    must follow suit\n", "    must follow suit\n"
                          "    after each trick when trick_number == 1 and team of winner != re:\n"
                          "      winner joins re\n")
    plain = interpreter.new_game(tricklang.loads(DOPPEL, path="plain.trick"), seed=3)
    married = interpreter.new_game(tricklang.loads(text, path="plain.trick"), seed=3)
    before = list(married._c.team)
    rng = random.Random(3)
    while not events(married, "trick"):
        action = rng.choice(married.legal_actions())
        married.apply(action)
        plain.apply(str(action))
    winner = events(married, "trick")[0]["winner"]
    assert list(married._c.team) == [0 if p == winner else before[p] for p in range(4)]
    assert married.events(None) == plain.events(None)
