"""Issue 28, step 7, the runtime half so far (design 3.4): a suit's or a rank's own code, rank
names longer than three characters, suits sharing a first letter, and cards removed from the
pack by `remove`, played by the one code generator.

Scripted deals name the cards by their codes (`play OS`, typed in any case); the removed cards
are in no hand, no action, no tensor; records round-trip; a 78-card pack (wider than a 64-bit
mask) deals every card once from a seed; Hypothesis draws `remove` lines and checks the pack is
the full deck less the matched cards, in deck order, through whole random matches; the native
build plays what CPython plays.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import assert_native_plays_as_cpython
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import native
from interpreter.errors import InvalidActionError, RecordError
from interpreter.record import Record
from interpreter.state.tensors import tensor_layout

CODES = """\
tricklang 1
game "Codes"
players 4
deck
  suits spades black, hearts red, schellen "X" red, clubs black
  ranks Ober "O" Unter "U" A K 10 9 8 7 6 5 4 3 2
  remove 2 or 3 or (4 and black)
zone hand: per player, owner
zone won: per player, public
zone stock: shared, hidden, pack
points
  "Ober" Ober = 3
match
  at most 2 deals
deal
  deal 10 to each
  trump is hearts
  tricks 10, left of dealer leads first
    must follow suit
  for each player:
    player scores points(player)
"""
RANKS = "Ober Unter A K 10 9 8 7 6 5 4 3 2".split()
RANK_CODES = "O U A K 10 9 8 7 6 5 4 3 2".split()
SUITS = "SHXC"
KEPT = [r + s for s in SUITS for r in RANK_CODES if r not in ("2", "3") and not (r == "4" and s in "SC")]


def rules(text: str = CODES, path: str = "codes.trick") -> tricklang.Ruleset:
    return tricklang.loads(text, path=path)


def pack(hands: dict[int, str], stock: str = "") -> list[str]:
    """The pack for dealer 0: ten cards to each from the dealer's left (seats 1, 2, 3, 0), then the stock."""
    order = [card for seat in (1, 2, 3, 0) for card in hands[seat].split()] + stock.split()
    assert sorted(order) == sorted(KEPT), "each card of the pack exactly once"
    return order


SCRIPTED = pack({1: "OS US AS KS 10S 9S 8S 7S 6S 5S",
                 2: "OH UH AH KH 10H 9H 8H 7H 6H 5H",
                 3: "OX UX AX KX 10X 9X 8X 7X 6X 5X",
                 0: "OC UC AC KC 10C 9C 8C 7C 6C 5C"}, "4H 4X")


def test_the_pack_is_the_deck_less_the_removed_cards_in_deck_order() -> None:
    state = interpreter.new_game(rules(), seed=1)
    assert state.cards == KEPT and len(KEPT) == 42
    with pytest.raises(InvalidActionError, match="unknown card code"):
        state.apply("play 2H")


def test_cards_are_played_by_their_codes_in_any_case() -> None:
    state = interpreter.new_game(rules(), deck=SCRIPTED, dealer=0)
    assert sorted(a.args[0] for a in state.legal_actions()) == sorted("OS US AS KS 10S 9S 8S 7S 6S 5S".split())
    for text in ("play os", "play OH", "play Ux", "play 5C"):
        state.apply(text)
    assert state.events(None)[-1]["type"] == "trick"
    assert [e["card"] for e in state.events(None) if e["type"] == "play"] == ["OS", "OH", "UX", "5C"]
    before = state.to_json()
    with pytest.raises(InvalidActionError):
        state.apply("play Ober")  # a rank's name is not its code
    assert state.to_json() == before


def test_removed_cards_have_no_action_and_no_tensor_column() -> None:
    state = interpreter.new_game(rules(), deck=SCRIPTED, dealer=0)
    ids = [state.action_from_id(i).text for i in range(state.num_distinct_actions)]
    assert [t for t in ids if t.startswith("play ")] == [f"play {c}" for c in KEPT]
    layout = tensor_layout(state)
    start, size = layout.segment("zone hand 0")
    assert size == 42
    hand = state.observation_tensor(1)[start:start + size]
    assert [KEPT[i] for i, v in enumerate(hand) if v] == "OS US AS KS 10S 9S 8S 7S 6S 5S".split()


def test_scoring_reads_the_long_rank_names() -> None:
    state = interpreter.new_game(rules(), deck=SCRIPTED, dealer=0)
    rng = random.Random(0)
    while state.deal_number == 1 and not state.is_terminal():
        state.apply(state.sample_action(rng))
    won = sum(1 for e in state.events(None) if e["type"] == "play" and e["card"].startswith("O"))
    assert won == 4 and sum(state.scores) == 12  # the four Obers, 3 points each, all taken


def test_a_record_with_own_codes_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "codes.trick"
    path.write_text(CODES, encoding="utf-8")
    state = interpreter.new_game(tricklang.load(path), seed=7)
    state.playout(random.Random(7))
    saved = Record.from_state(state).save(tmp_path / "game.json")
    actions = [text for _, text in json.loads(saved.read_text(encoding="utf-8"))["actions"]]
    assert "play OX" in actions and "play UX" in actions
    assert Record.load(saved).replay().to_dict() == state.to_dict()


WIDE = """\
tricklang 1
game "Wide"
players 4
deck
  suits spades black, hearts red, diamonds red, clubs black, stars "R" blue, moons "N" blue
  ranks A K Q J 10 9 8 7 6 5 4 3 2
zone hand: per player, owner
zone won: per player, public
zone stock: shared, hidden, pack
match
  at most 1 deals
deal
  deal 19 to each
  trump is stars
  tricks 19, left of dealer leads first
    must follow suit
  for each player:
    player scores tricks(player)
"""


def test_a_seeded_78_card_pack_deals_every_card_once() -> None:
    wide = rules(WIDE, "wide.trick")
    hands = []
    for seed in (1, 2):
        state = interpreter.new_game(wide, seed=seed)
        assert len(state.cards) == 78
        held = [c for p in range(4) for c in state.hand(p)]
        assert len(held) == 76 and len(set(held)) == 76 and set(held) <= set(state.cards)
        hands.append(held)
        again = interpreter.new_game(wide, seed=seed)
        assert [c for p in range(4) for c in again.hand(p)] == held
    assert hands[0] != hands[1]
    assert any(c.endswith("N") for c in hands[0]) and any(c.endswith("R") for c in hands[0])


# ---------------------------------------------------------------- Hypothesis

REMOVABLE = ["Ober", "Unter", "A", "10", "2", "3", "4", "red", "black", "spades", "(4 and black)", "(K of hearts)"]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(REMOVABLE), min_size=1, max_size=3, unique=True), st.integers(0, 10_000))
def test_any_removal_leaves_the_rest_of_the_deck_in_order(removed: list[str], seed: int) -> None:
    def gone(code: str) -> bool:
        rank, suit = code[:-1], code[-1]
        name = RANKS[RANK_CODES.index(rank)]
        colour = "black" if suit in "SC" else "red"
        return any(w == name or w == colour or (w == "spades" and suit == "S")
                   or (w == "(4 and black)" and rank == "4" and colour == "black")
                   or (w == "(K of hearts)" and code == "KH") for w in removed)
    full = [r + s for s in SUITS for r in RANK_CODES]
    kept = [c for c in full if not gone(c)]
    text = CODES.replace("  remove 2 or 3 or (4 and black)\n", f"  remove {' or '.join(removed)}\n")
    if len(kept) < 4:
        with pytest.raises(tricklang.RulesError):
            rules(text)
        return
    text = text.replace("deal 10 to each", f"deal {len(kept) // 4} to each").replace("tricks 10", f"tricks {len(kept) // 4}")
    state = interpreter.new_game(rules(text), seed=seed)
    assert state.cards == kept
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and all(a.args[0] in kept for a in legal if a.verb == "play")
        state.apply(legal[rng.randrange(len(legal))])
    deals: dict[int, list[str]] = {}
    deal = 0
    for e in state.events(None):
        deal += e["type"] == "deal"
        if e["type"] == "play":
            deals.setdefault(deal, []).append(e["card"])
    assert len(deals) == 2
    assert all(len(cards) == len(set(cards)) == len(kept) // 4 * 4 and set(cards) <= set(kept) for cards in deals.values())


# ---------------------------------------------------------------- copies: equal cards named by face

DOUBLE = """\
tricklang 1
game "A double pack"
players 4
deck
  suits clubs black, spades black, hearts red, diamonds red
  ranks A 10 K Q J 9
  copies 2
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
points
  "Ace" A = 11
  "Ten" 10 = 10
  "King" K = 4
  "Queen" Q = 3
  "Jack" J = 2
match
  at most 2 deals
deal
  deal 12 to each
  trump is diamonds
  tricks 12, left of dealer leads first
    must follow suit
  for each player:
    player scores points(player)
"""
FACES = [r + s for s in "CSHD" for r in "A 10 K Q J 9".split()]


def double_pack(hands: dict[int, str]) -> list[str]:
    order = [card for seat in (1, 2, 3, 0) for card in hands[seat].split()]
    assert sorted(order) == sorted(FACES * 2), "each face exactly twice"
    return order


# Seat 1 holds both queens of clubs; seat 2 one ace of clubs and seat 3 the other.
EQUALS = double_pack({1: "QC QC AS AS 10S 10S KS KS QS QS JS JS",
                      2: "AC KC 9S 9S AH AH 10H 10H KH KH QH QH",
                      3: "AC 10C JC JC 9C 9C JH JH 9H 9H AD AD",
                      0: "10C KC QD QD 10D 10D KD KD JD JD 9D 9D"})


def test_a_double_pack_holds_each_face_twice_and_a_seed_deals_every_card() -> None:
    state = interpreter.new_game(rules(DOUBLE, "double.trick"), seed=3)
    assert sorted(state.cards) == sorted(FACES * 2) and len(state.cards) == 48
    held = sorted(c for p in range(4) for c in state.hand(p))
    assert held == sorted(FACES * 2)


def test_one_play_action_per_face_and_the_lowest_copy_is_played() -> None:
    state = interpreter.new_game(rules(DOUBLE, "double.trick"), deck=EQUALS, dealer=0)
    texts = [a.text for a in state.legal_actions()]
    assert len(texts) == len(set(texts)) == 6 and texts.count("play QC") == 1
    state.apply("play QC")
    assert state.hand(1).count("QC") == 1
    ids = state.legal_action_ids()
    assert len(ids) == len(set(ids))
    space = [state.action_from_id(i).text for i in range(state.num_distinct_actions)]
    assert [t for t in space if t.startswith("play ")] == [f"play {f}" for f in FACES]  # one id per face
    state.apply_id(state.action_id("play AC"))  # seat 2's one ace of clubs
    state.apply("play ac")  # seat 3's: the same face, the same id, the other card
    state.apply("play 10C")
    plays = [e["card"] for e in state.events(None) if e["type"] == "play"]
    assert plays == ["QC", "AC", "AC", "10C"]
    # Of equal cards the first wins: seat 2's ace, played first, takes the trick.
    assert [e for e in state.events(None) if e["type"] == "trick"][-1]["winner"] == 2
    assert state.legal_actions()[0].verb == "play" and state.current_player == 2


def test_the_tensor_holds_the_share_of_each_face() -> None:
    state = interpreter.new_game(rules(DOUBLE, "double.trick"), deck=EQUALS, dealer=0)
    layout = tensor_layout(state)
    start, size = layout.segment("zone hand 0")
    assert size == 24
    plane = dict(zip(FACES, state.observation_tensor(1)[start:start + size], strict=True))
    assert plane["QC"] == 1.0 and plane["AS"] == 1.0 and plane["AC"] == 0.0
    plane = dict(zip(FACES, state.observation_tensor(2)[start:start + size], strict=True))
    assert plane["AC"] == 0.5 and plane["KC"] == 0.5 and plane["9S"] == 1.0


def test_resampling_a_pack_with_copies_redeals_faces() -> None:
    state = interpreter.new_game(rules(DOUBLE, "double.trick"), deck=EQUALS, dealer=0)
    state.apply("play QC")
    before = state.to_json()
    worlds = [state.resample(2, random.Random(k)) for k in range(5)]
    assert state.to_json() == before
    for world in worlds:
        assert world.observation(2) == state.observation(2) and world.hand(2) == state.hand(2)
        assert sorted(c for p in range(4) for c in world.hand(p)) == sorted(c for p in range(4) for c in state.hand(p))
    assert len({tuple(w.hand(3)) for w in worlds}) == 5


def test_a_record_with_copies_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "double.trick"
    path.write_text(DOUBLE, encoding="utf-8")
    for state in (interpreter.new_game(tricklang.load(path), seed=11),
                  interpreter.new_game(tricklang.load(path), deck=EQUALS, dealer=0)):
        state.playout(random.Random(11))
        saved = Record.from_state(state).save(tmp_path / "game.json")
        assert Record.load(saved).replay().to_dict() == state.to_dict()


def test_a_prearranged_pack_with_a_face_three_times_is_refused() -> None:
    bad = list(EQUALS)
    bad[bad.index("AS")] = "QC"
    with pytest.raises(RecordError, match="repeated QC"):
        interpreter.new_game(rules(DOUBLE, "double.trick"), deck=bad, dealer=0)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_random_matches_with_copies_offer_faces_once_and_keep_the_pack(seed: int) -> None:
    state = interpreter.new_game(rules(DOUBLE, "double.trick"), seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        texts = [a.text for a in legal]
        assert len(texts) == len(set(texts))
        p = state.current_player
        assert {t.split()[1] for t in texts} <= set(state.hand(p))
        held = sorted(c for q in range(4) for c in state.hand(q))
        assert all(held.count(f) <= 2 for f in FACES)
        state.apply(legal[rng.randrange(len(legal))])
    assert sum(state.scores) == 2 * 2 * (11 + 10 + 4 + 3 + 2) * 4


# ---------------------------------------------------------------- the tie rule between equal cards

LATER = DOUBLE.replace("    must follow suit\n", "    must follow suit\n    of equal cards the later wins\n")
LATER_ACES_NOT_LAST = DOUBLE.replace("    must follow suit\n", "    must follow suit\n"
                                     "    of equal cards the later wins matching A when not last_trick\n"
                                     "    of equal cards the first wins\n")


def first_trick_winner(text: str, path: str) -> int:
    state = interpreter.new_game(rules(text, path), deck=EQUALS, dealer=0)
    for card in ("QC", "AC", "AC", "10C"):
        state.apply(f"play {card}")
    return int([e for e in state.events(None) if e["type"] == "trick"][-1]["winner"])


def test_of_equal_cards_the_first_wins_by_default_and_the_later_wins_by_rule() -> None:
    assert first_trick_winner(DOUBLE, "first.trick") == 2
    assert first_trick_winner(DOUBLE.replace("    must follow suit\n", "    must follow suit\n"
                                             "    of equal cards the first wins\n"), "first2.trick") == 2
    assert first_trick_winner(LATER, "later.trick") == 3
    assert first_trick_winner(LATER_ACES_NOT_LAST, "aces.trick") == 3
    queens = LATER_ACES_NOT_LAST.replace("matching A when", "matching Q when")
    assert first_trick_winner(queens, "queens.trick") == 2  # the aces tie to the first: the rule is the queens'


def reference_winner(cards: list[tuple[int, str]], trick: int) -> int:
    """Who takes a trick under LATER_ACES_NOT_LAST, from the rule text: diamonds are trumps, then
    the suit led; ranks A 10 K Q J 9; of two equal cards the later wins if aces, before the last
    (twelfth) trick, else the first."""
    order = "A 10 K Q J 9".split()
    led = cards[0][1][-1]
    live = [(p, c) for p, c in cards if c[-1] == "D"] or [(p, c) for p, c in cards if c[-1] == led]
    best = min(order.index(c[:-1]) for _, c in live)
    equal = [p for p, c in live if order.index(c[:-1]) == best]
    return equal[-1] if order[best] == "A" and trick < 11 else equal[0]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000))
def test_random_deals_take_tricks_as_the_tie_rules_say(seed: int) -> None:
    state = interpreter.new_game(rules(LATER_ACES_NOT_LAST, "aces.trick"), seed=seed)
    state.playout(random.Random(seed), deal=True)
    events = state.events(None)
    plays = [(e["player"], e["card"]) for e in events if e["type"] == "play"]
    tricks = [e["winner"] for e in events if e["type"] == "trick"]
    assert len(tricks) == 12
    assert tricks == [reference_winner(plays[4 * k:4 * k + 4], k) for k in range(12)]


def test_the_random_deals_meet_tied_aces() -> None:
    met = 0
    for seed in range(40):
        state = interpreter.new_game(rules(LATER_ACES_NOT_LAST, "aces.trick"), seed=seed)
        state.playout(random.Random(seed), deal=True)
        plays = [e["card"] for e in state.events(None) if e["type"] == "play"]
        met += sum(1 for k in range(11) if len(set(plays[4 * k:4 * k + 4])) < 4 and "A" in "".join(plays[4 * k:4 * k + 4]))
    assert met > 0


# ---------------------------------------------------------------- native





@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
@pytest.mark.parametrize(("text", "path"), [(CODES, "native-codes.trick"), (WIDE, "native-wide.trick"),
                                            (DOUBLE, "native-double.trick"), (LATER_ACES_NOT_LAST, "native-ties.trick")])
def test_the_native_build_plays_what_cpython_plays(text: str, path: str) -> None:
    ruleset = rules(text.replace("  trump is", "  let cards = 0\n  trump is"), path)
    assert_native_plays_as_cpython(ruleset, range(6))
