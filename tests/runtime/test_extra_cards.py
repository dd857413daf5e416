"""Issue 28, design 3.4, the runtime half of extra cards (`card joker "JK"`): a card in no suit,
played by the one code generator.

Scripted deals of a small joker game prove the three places a joker can stand: the highest
trump of `trump ranks joker A K Q J`, a pseudo-suit of its own under no trump (nothing follows
it, it wins a trick it leads, it never wins one it does not lead), and the whole trump group of
`order notrump` with `trumps joker` (Five Hundred's no trump). A small Excuse game (French
Tarot's, as an extra card) proves the card rules of design 3.2 work with a card in no suit. The
card's own code is in actions, events, transcripts, records, action ids, tensors and chance
outcomes; resampling redeals it; the native build plays what CPython plays.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import assert_native_plays_as_cpython
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import native
from interpreter.record import Record
from interpreter.state.tensors import tensor_layout
from interpreter.transcript import render

JOKER = """\
tricklang 1
game "Joker"
players 3
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J
  card joker "JK"
  trump ranks joker A K Q J
order notrump "NT"
  trumps joker
zone hand: per player, owner
zone won: per player, public
zone stock: shared, hidden, pack
points
  "Joker" joker = 5
  "Aces" A = 1
match
  at most 2 deals
deal
  deal 5 to each
  trump is hearts
  tricks 5, left of dealer leads first
    must follow suit
  for each player:
    player scores points(player)
"""
NO_TRUMP = JOKER.replace("  trump is hearts\n", "  trump is none\n")
NOTRUMP_ORDER = JOKER.replace("  trump is hearts\n", "  trump is notrump\n")
FACES = [r + s for s in "SHDC" for r in "AKQJ"] + ["JK"]

# Dealer 0: five cards to seats 1, 2, 0 in turn, then the stock. Seat 2 holds the joker, no club
# and no heart but the joker.
HANDS = {1: "AH KS QD JC QC", 2: "JK AS QS KD AD", 0: "KH JS JD KC AC"}
STOCK = "QH JH"


def pack(hands: dict[int, str] = HANDS, stock: str = STOCK) -> list[str]:
    order = [card for seat in (1, 2, 0) for card in hands[seat].split()] + stock.split()
    assert sorted(order) == sorted(FACES), "each card of the pack exactly once"
    return order


def rules(text: str = JOKER, path: str = "joker.trick") -> tricklang.Ruleset:
    return tricklang.loads(text, path=path)


def new(text: str = JOKER, path: str = "joker.trick") -> interpreter.State:
    return interpreter.new_game(rules(text, path), deck=pack(), dealer=0)


def plays(state: interpreter.State) -> list[str]:
    return sorted(a.args[0] for a in state.legal_actions() if a.verb == "play")


def play(state: interpreter.State, *cards: str) -> interpreter.State:
    for card in cards:
        state.apply(f"play {card}")
    return state


def winners(state: interpreter.State) -> list[int]:
    return [e["winner"] for e in state.events(None) if e["type"] == "trick"]


def test_the_pack_holds_the_extra_card_last_with_its_own_code() -> None:
    state = new()
    assert state.cards == FACES and state.hand(2)[0] == "JK"  # sorted first: the highest trump


def test_under_a_suit_the_joker_is_its_highest_trump_and_follows_it() -> None:
    state = play(new(), "AH")
    assert plays(state) == ["JK"]  # hearts led: the joker is a heart, and seat 2's only one
    play(state, "JK")
    assert plays(state) == ["KH"]
    play(state, "KH")
    assert winners(state) == [2]  # above the ace of trumps
    assert state.is_trump("JK") and state.effective_suit("JK") == "hearts"
    assert state.card_strength("JK") > state.card_strength("AH") > 1000
    state = play(new(), "QC", "JK", "KC")  # void in clubs, seat 2 trumps with the joker
    assert winners(state) == [2]


def test_under_no_trump_the_joker_is_a_suit_of_its_own() -> None:
    state = play(new(NO_TRUMP, "nt.trick"), "KS")
    assert plays(state) == ["AS", "QS"]  # the joker does not follow spades
    state = play(new(NO_TRUMP, "nt.trick"), "QC")
    assert plays(state) == sorted(HANDS[2].split())  # void in clubs: any card, the joker too
    play(state, "JK", "KC")
    assert winners(state) == [0]  # a joker it did not lead never wins the trick
    assert not state.is_trump("JK") and state.effective_suit("JK") == "joker"
    # The joker leads: nothing can follow it, and it wins.
    state = play(new(NO_TRUMP, "nt.trick"), "KS", "AS", "JS")
    assert winners(state) == [2]
    play(state, "JK")
    assert plays(state) == ["AC", "JD", "KC", "KH"]
    play(state, "AC", "AH")
    assert winners(state) == [2, 2]


def test_an_order_whose_trumps_are_the_joker_makes_it_the_only_trump() -> None:
    state = play(new(NOTRUMP_ORDER, "order.trick"), "QC", "JK", "KC")
    assert winners(state) == [2]  # the one trump takes the club trick
    assert state.is_trump("JK") and not state.is_trump("AH")
    state = play(new(NOTRUMP_ORDER, "order.trick"), "KS", "AS", "JS", "JK")
    assert plays(state) == ["AC", "JD", "KC", "KH"]  # trumps led, and no one else holds one
    play(state, "KC", "AH")
    assert winners(state) == [2, 2]
    assert state.observation(0)["trump"] == "notrump"


def test_the_joker_led_at_no_trump_names_the_suit_the_others_follow() -> None:
    # Five Hundred [FH7]: the joker's holder, leading it at no trump, names the suit led.
    text = NOTRUMP_ORDER.replace("    must follow suit\n", "    must follow suit\n    after leading joker:\n"
                                 "      player names the suit led\n")
    state = play(new(text, "named.trick"), "KS", "AS", "JS", "JK")
    assert [a.text for a in state.legal_actions()] == ["name spades", "name hearts", "name diamonds", "name clubs"]
    state.apply("name clubs")
    assert plays(state) == ["AC", "KC"]
    play(state, "KC")
    assert plays(state) == ["JC", "QC"]
    play(state, "QC")
    assert winners(state) == [2, 2]  # the one trump takes the clubs it called for


def test_the_joker_is_a_pattern_word_in_the_points() -> None:
    state = new()
    state.playout(random.Random(3), deal=True)
    deal_end = next(e for e in state.events(None) if e["type"] == "deal_end")
    assert sum(deal_end["scores"]) == 5 + 4  # the joker and the four aces, whoever took them


def test_the_code_is_in_events_transcripts_records_ids_and_tensors(tmp_path: Path) -> None:
    state = play(new(), "AH", "JK")
    assert [e["card"] for e in state.events(None) if e["type"] == "play"] == ["AH", "JK"]
    assert "JK" in render(state)
    space = [state.action_from_id(i).text for i in range(state.num_distinct_actions)]
    assert [t for t in space if t.startswith("play ")] == [f"play {c}" for c in FACES]
    assert state.action_from_id(state.action_id("play jk")).text == "play JK"
    layout = tensor_layout(state)
    start, size = layout.segment("zone hand 0")
    assert size == len(FACES)
    fresh = new()
    plane = dict(zip(FACES, fresh.observation_tensor(2)[start:start + size], strict=True))
    assert plane["JK"] == 1.0 and sum(plane.values()) == 5
    path = tmp_path / "joker.trick"
    path.write_text(JOKER, encoding="utf-8")
    for played in (interpreter.new_game(tricklang.load(path), deck=pack(), dealer=0),
                   interpreter.new_game(tricklang.load(path), seed=5)):
        played.playout(random.Random(5))
        saved = Record.from_state(played).save(tmp_path / "game.json")
        actions = [text for _, text in json.loads(saved.read_text(encoding="utf-8"))["actions"]]
        assert "play JK" in actions
        assert Record.load(saved).replay().to_dict() == played.to_dict()


def test_chance_outcomes_deal_the_extra_card() -> None:
    ruleset = rules()
    explicit = interpreter.new_game(ruleset, chance="explicit", dealer=0)
    rng = random.Random(2)
    outcomes = []
    while explicit.is_chance_node():
        choices = explicit.chance_outcomes()
        assert abs(sum(p for _, p in choices) - 1) < 1e-9
        outcomes.append(rng.choice(choices)[0])
        explicit.apply_chance_outcome(outcomes[-1])
    assert sorted(outcomes) == list(range(len(FACES)))
    fixed = interpreter.new_game(ruleset, deck=[ruleset.cards[o] for o in outcomes], dealer=0)
    assert explicit.observation(None) == fixed.observation(None)


def test_openspiel_plays_and_names_the_extra_card(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from interpreter.embedding.openspiel import load_game
    path = tmp_path / "joker.trick"
    path.write_text(JOKER, encoding="utf-8")
    game = load_game(path)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    names = [state.action_to_string(state.current_player(), a) for a in range(game.num_distinct_actions())]
    assert "play JK" in names


def test_resampling_redeals_the_hidden_joker() -> None:
    state = play(new(NO_TRUMP, "nt.trick"), "KS")
    seen = set()
    for k in range(12):
        world = state.resample(1, random.Random(k))
        assert world.observation(1) == state.observation(1)
        holder = [p for p in range(3) if "JK" in world.hand(p)]
        seen.add(holder[0] if holder else "stock")
    assert len(seen) > 1  # hidden from seat 1, the joker is sometimes elsewhere


def suit_of(card: str, trump: str | None) -> str:
    """A card's suit in the joker game: the joker's is the trump suit, else a suit of its own."""
    return (trump or "joker") if card == "JK" else card[-1]


def reference_winner(trick: list[tuple[int, str]], trump: str | None) -> int:
    """Who takes a trick of the joker game, from the rules: trumps win (the joker the highest),
    else the highest card of the suit led."""
    order = ["JK", "A", "K", "Q", "J"]
    led = suit_of(trick[0][1], trump)
    live = [(p, c) for p, c in trick if trump and suit_of(c, trump) == trump]
    live = live or [(p, c) for p, c in trick if suit_of(c, trump) == led]
    return min(live, key=lambda pc: order.index("JK" if pc[1] == "JK" else pc[1][:-1]))[0]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([(JOKER, "H"), (NO_TRUMP, None)]))
def test_random_deals_follow_and_take_tricks_as_the_rules_say(seed: int, game: tuple[str, str | None]) -> None:
    text, trump = game
    state = interpreter.new_game(rules(text, "random.trick"), seed=seed)
    rng = random.Random(seed)
    trick: list[tuple[int, str]] = []
    while state.deal_number == 1 and not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        hand = state.hand(seat)
        if trick:
            same = [c for c in hand if suit_of(c, trump) == suit_of(trick[0][1], trump)]
            assert plays(state) == sorted(same or hand)
        card = rng.choice(plays(state))
        state.apply(f"play {card}")
        trick.append((seat, card))
        if len(trick) == 3:
            assert winners(state)[-1] == reference_winner(trick, trump)
            trick = []


# ---------------------------------------------------------------- the Excuse, an extra card

EXCUSE = """\
tricklang 1
game "Excuse"
players 3
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J
  card excuse "EX"
zone hand: per player, owner
zone won: per player, public
zone stock: shared, hidden, pack
points
  "Excuse" excuse = 4
match
  at most 1 deals
deal
  deal 5 to each
  trump is diamonds
  tricks 5, left of dealer leads first
    must follow suit
    must trump if void
    may play excuse at any time
    a trick is never won by excuse when not last_trick
    the suit led is not set by excuse
    after each trick:
      if led_suit == hearts:
        winner scores 10 "hearts led"
  for each player:
    player scores points(player)
"""
EXCUSE_FACES = [r + s for s in "SHDC" for r in "AKQJ"] + ["EX"]
LEADS_IT = {1: "EX AS KS AH KH", 2: "QS JS QH JH AC", 0: "AD KD QD KC QC"}
PLAYS_IT = {1: "AC AS KS AH KH", 2: "QS JS QH JH EX", 0: "AD KD QD KC QC"}


def excuse_game(hands: dict[int, str], text: str = EXCUSE) -> interpreter.State:
    order = [card for seat in (1, 2, 0) for card in hands[seat].split()] + ["JD", "JC"]
    assert sorted(order) == sorted(EXCUSE_FACES)
    return interpreter.new_game(tricklang.loads(text, path="excuse.trick"), deck=order, dealer=0)


def test_the_excuse_led_leaves_the_suit_to_the_next_card() -> None:
    state = play(excuse_game(LEADS_IT), "EX")
    assert plays(state) == sorted(LEADS_IT[2].split())  # no suit led yet
    play(state, "QH")
    assert plays(state) == ["AD", "KD", "QD"]  # hearts now: void, seat 0 must trump
    play(state, "QD")
    assert winners(state) == [0]
    labels = [e["label"] for e in state.events(None) if e["type"] == "score"]
    assert labels == ["hearts led"]


def test_the_excuse_may_be_played_at_any_time_and_never_wins() -> None:
    state = play(excuse_game(PLAYS_IT), "AS")
    assert plays(state) == ["EX", "JS", "QS"]
    play(state, "EX", "AD")
    assert winners(state) == [0]
    # Without `never won by`, the Excuse played to spades still cannot win: it is in no suit.
    text = EXCUSE.replace("    a trick is never won by excuse when not last_trick\n", "")
    state = play(excuse_game(PLAYS_IT, text), "AS", "EX")
    assert plays(state) == ["AD", "KD", "QD"]
    play(state, "KD")
    assert winners(state) == [0]


def test_without_the_rules_the_excuse_led_wins_as_nothing_follows_it() -> None:
    text = EXCUSE.replace("    the suit led is not set by excuse\n", "").replace(
        "    a trick is never won by excuse when not last_trick\n", "").replace("    must trump if void\n", "")
    state = play(excuse_game(LEADS_IT, text), "EX")
    assert plays(state) == sorted(LEADS_IT[2].split())
    play(state, "AC", "KC")
    assert winners(state) == [1]


# ---------------------------------------------------------------- native


@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
@pytest.mark.parametrize(("text", "path"), [(JOKER, "native-joker.trick"), (NO_TRUMP, "native-nt.trick"),
                                            (EXCUSE, "native-excuse.trick")])
def test_the_native_build_plays_what_cpython_plays(text: str, path: str) -> None:
    ruleset = rules(text, path)
    assert_native_plays_as_cpython(ruleset, range(8))
