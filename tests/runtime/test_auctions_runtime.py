"""The runtime half of bids and auctions (design 3.7, issue 28 step 5): Bridge's legal
calls in every auction state against a reference written apart from the generator
(Hypothesis over call sequences), `until 3 passes` and the passed-out deal, doubling
reset by a new bid, `first of the side` declarer, `hold`, `may not pass`, a player's own
bid from the table, action ids, the contract event and its wording, records, and the
native build playing what CPython plays."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import assert_native_plays_as_cpython
from hypothesis import given, settings
from hypothesis import strategies as st
from reference_traces import Case, record

import interpreter
import tricklang
from interpreter import native
from interpreter.state.spaces import action_space
from interpreter.state.tensors import tensor_layout
from interpreter.transcript import render

BRIDGE = """\
tricklang 1
game "Contract bidding"
players 4 in partnerships 0 2, 1 3

deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7 6 5 4 3 2

zone hand: per player, owner
zone won: per side, public
zone stock: shared, hidden, pack

bids calls
  levels 1..7 in clubs, diamonds, hearts, spades, no_trump "NT"

match
  first dealer is 0
  dealer passes left
  game to 100, after the deal

deal
  deal 13 to each
  auction until 3 passes from dealer, bids calls
    double and redouble
    first of the side to bid the strain declares
  tricks 13, left of maker leads first
    must follow suit
  if tricks(maker) >= 6 + level of bid:
    maker scores 10 * level of bid * (1 + doubling)
  else:
    left of maker scores 10 * (1 + doubling)
"""

STRAINS = ["C", "D", "H", "S", "NT"]
CODES = [f"{level}{s}" for level in range(1, 8) for s in STRAINS]


def bridge() -> tricklang.Ruleset:
    return tricklang.loads(BRIDGE, path="bridge.trick")


# ---------------------------------------------------------------- the reference
def reference(calls: list[str], dealer: int = 0) -> tuple[set[str] | None, dict[str, Any] | None]:
    """Bridge's laws of the auction, written from the laws (not from the generator): the legal
    calls after ``calls`` (None once the auction is over), and the contract (None: passed out
    or not over)."""
    high = -1
    bidder = -1
    doubled = 0
    passes = 0
    first: dict[tuple[int, str], int] = {}
    for k, call in enumerate(calls):
        seat = (dealer + k) % 4
        if call == "pass":
            passes += 1
            continue
        passes = 0
        if call == "double":
            doubled = 1
        elif call == "redouble":
            doubled = 2
        else:
            high = CODES.index(call.split()[1])
            bidder = seat
            doubled = 0
            first.setdefault((seat % 2, STRAINS[high % 5]), seat)
    if (high < 0 and passes == 4) or (high >= 0 and passes == 3):
        if high < 0:
            return None, None
        return None, {"bid": CODES[high], "maker": first[(bidder % 2, STRAINS[high % 5])], "doubling": doubled}
    seat = (dealer + len(calls)) % 4
    legal = {"pass"} | {f"bid {c}" for c in CODES[high + 1:]}
    if high >= 0 and doubled == 0 and bidder % 2 != seat % 2:
        legal.add("double")
    if high >= 0 and doubled == 1 and bidder % 2 == seat % 2:
        legal.add("redouble")
    return legal, None


def contract(state: interpreter.State) -> dict[str, Any]:
    found = [e for e in state.events(None) if e["type"] == "contract"]
    return {k: v for k, v in found[-1].items() if k in ("bid", "maker", "doubling")}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0, max_value=1, exclude_max=True), min_size=1, max_size=60),
       st.floats(min_value=0, max_value=1))
def test_bridges_legal_calls_match_the_reference_in_every_auction_state(picks: list[float], pass_bias: float) -> None:
    state = interpreter.new_game(bridge(), seed=len(picks))
    calls: list[str] = []
    for pick in picks:
        legal, _ = reference(calls)
        assert legal is not None
        assert {str(a) for a in state.legal_actions()} == legal
        ids = state.legal_action_ids()
        assert sorted(str(state.action_from_id(i)) for i in ids) == sorted(legal)
        options = sorted(legal, key=state.action_id)
        # passes often enough that auctions end (pass_bias), else any call
        call = "pass" if pick < pass_bias else options[int(pick * len(options)) % len(options)]
        state.apply(call)
        calls.append(call)
        if reference(calls)[0] is None:
            break
    legal, made = reference(calls)
    if legal is None and made is not None:
        assert state.phase == "play"
        assert contract(state) == made
    elif legal is None:  # passed out: the deal is dealt again, and the auction starts over
        assert {"type": "redeal", "reason": "all passed"} in state.events(None)
        assert state.phase == "auction"


def test_three_passes_after_a_bid_end_the_auction_and_four_pass_the_deal_out() -> None:
    state = interpreter.new_game(bridge(), seed=1)
    for call in ("pass", "pass", "pass", "pass"):
        state.apply(call)
    assert {"type": "redeal", "reason": "all passed"} in state.events(None)
    dealer = state.observation(None)["dealer"]
    for call in ("pass", "bid 1c", "pass", "pass"):
        assert state.phase == "auction"
        state.apply(call)
    state.apply("pass")
    assert state.phase == "play"
    assert contract(state) == {"bid": "1C", "maker": (dealer + 1) % 4, "doubling": 0}


def test_with_no_contract_a_passed_out_deal_is_played_without_a_maker() -> None:
    text = BRIDGE.replace("    first of the side to bid the strain declares\n",
                          "    first of the side to bid the strain declares\n    if all pass: no contract\n")
    text = text.replace("  tricks 13, left of maker leads first", "  if maker == nobody:\n    end the deal\n"
                        "  tricks 13, left of maker leads first")
    state = interpreter.new_game(tricklang.loads(text, path="none.trick"), seed=1)
    for _ in range(4):
        state.apply("pass")
    assert contract(state) == {"bid": None, "maker": -1, "doubling": 0}
    assert "No contract" in render(state)


def test_a_new_bid_resets_the_doubling() -> None:
    state = interpreter.new_game(bridge(), seed=1)
    state.apply("bid 1C")
    state.apply("double")
    assert "redouble" in state.legal_actions() and "double" not in state.legal_actions()
    state.apply("bid 1D")  # seat 2 bids over his partner's doubled 1C
    assert "double" in state.legal_actions()
    for _ in range(3):
        state.apply("pass")
    assert contract(state) == {"bid": "1D", "maker": 2, "doubling": 0}


def test_the_first_of_the_side_to_bid_the_strain_declares() -> None:
    state = interpreter.new_game(bridge(), seed=1)
    for call in ("bid 1H", "pass", "bid 2H", "double", "redouble", "pass", "pass", "pass"):
        state.apply(call)
    assert contract(state) == {"bid": "2H", "maker": 0, "doubling": 2}
    assert state.current_player == 1  # left of the declarer leads
    text = render(state)
    assert "seat 3 doubles" in text and "seat 0 redoubles" in text
    assert "Contract: 2H redoubled by seat 0" in text
    assert state.observation(None)["bid"] == "2H" and state.observation(None)["doubling"] == 2


def test_a_bid_is_typed_in_any_case_and_has_a_fixed_id() -> None:
    state = interpreter.new_game(bridge(), seed=1)
    space = action_space(state)
    block = next(b for b in space.blocks if b.name == "bid")
    assert block.size == 35
    assert state.action_id("bid 3NT") == state.action_id("bid 3nt") == block.start + CODES.index("3NT")
    assert str(state.action_from_id(block.start + 34)) == "bid 7NT"
    words = [str(state.action_from_id(state.action_id(w))) for w in ("pass", "double", "redouble")]
    assert words == ["pass", "double", "redouble"]
    state.apply("bid 3nt")
    assert state.events(None)[-1] == {"type": "bid", "player": 0, "bid": "3NT"}
    with pytest.raises(interpreter.IllegalActionError):
        state.apply("bid 3NT")  # not above the high bid
    with pytest.raises(interpreter.IllegalActionError):
        state.apply("redouble")


def test_the_tensors_hold_the_contract_its_doubling_and_each_seats_calls() -> None:
    state = interpreter.new_game(bridge(), seed=1)
    for call in ("bid 1H", "pass", "bid 2H", "double", "redouble", "pass", "pass", "pass"):
        state.apply(call)
    layout = tensor_layout(state)
    t = state.information_state_tensor(1)  # seat 1: seat 0 is 3 places to its left, seat 2 one
    start, size = layout.segment("contract")
    assert [i for i in range(size) if t[start + i]] == [CODES.index("2H")]
    start, size = layout.segment("doubling")
    assert t[start:start + size] == [0.0, 0.0, 1.0]
    start, size = layout.segment("calls 3")  # seat 0: bid 1H, redoubled
    assert [i for i in range(size) if t[start + i]] == [CODES.index("1H"), size - 2]
    start, size = layout.segment("calls 2")  # seat 3 doubled
    assert [i for i in range(size) if t[start + i]] == [size - 3]


def test_a_match_with_auctions_replays_from_its_record() -> None:
    state = interpreter.new_game(bridge(), seed=5)
    rng = random.Random(5)
    for _ in range(200):
        state.apply(state.sample_action(rng))
    again = interpreter.State.from_json(state.to_json())
    assert again.events(None) == state.events(None)
    assert again.legal_actions() == state.legal_actions()


# ---------------------------------------------------------------- named bids, equal worths, may not bid
SOLOS = BRIDGE.replace("""bids calls
  levels 1..7 in clubs, diamonds, hearts, spades, no_trump "NT"
""", """bids calls
  levels 6..7 in spades 40, no_trump "NT" 120 worth base + 100 * (level - 6)
  misere worth 250, plays no_trump
  queen_solo worth 180
  jack_solo worth 180
""").replace("""  auction until 3 passes from dealer, bids calls
    double and redouble
    first of the side to bid the strain declares
""", """  auction until passes from dealer, bids calls
    may not bid misere when level of high_bid < 7
  if bid == jack_solo and bid >= queen_solo and not (bid > queen_solo) and worth of bid == 180:
    maker scores 1 "solo"
  if bid > no_bid and strain of bid == no_trump and level of bid == 0:
    maker scores 2 "misere"
""")


def test_named_bids_of_equal_worth_rank_equal_and_may_not_bid_is_guarded() -> None:
    state = interpreter.new_game(tricklang.loads(SOLOS, path="solos.trick"), seed=3)
    assert [str(a) for a in state.legal_actions()] == [
        "pass", "bid 6S", "bid 6NT", "bid 7S", "bid queen_solo", "bid jack_solo", "bid 7NT"]
    state.apply("bid jack_solo")
    assert [str(a) for a in state.legal_actions()] == ["pass", "bid 7NT"]  # not queen_solo: of equal rank
    for _ in range(3):
        state.apply("pass")
    assert contract(state) == {"bid": "jack_solo", "maker": 0}
    while not any(e["type"] == "score" for e in state.events(None)):
        state.apply(state.legal_actions()[0])
    assert [e["label"] for e in state.events(None) if e["type"] == "score"][:1] == ["solo"]


def test_misere_is_offered_above_a_bid_of_level_seven() -> None:
    state = interpreter.new_game(tricklang.loads(SOLOS, path="solos.trick"), seed=3)
    state.apply("bid 7S")
    assert [str(a) for a in state.legal_actions()] == ["pass", "bid queen_solo", "bid jack_solo", "bid 7NT",
                                                       "bid misere"]
    state.apply("bid misere")  # the highest bid: the auction is over at once
    assert contract(state) == {"bid": "misere", "maker": 1}  # seat 1, the second to call
    while not any(e["type"] == "score" for e in state.events(None)):
        state.apply(state.legal_actions()[0])
    assert [e["label"] for e in state.events(None) if e["type"] == "score"][:1] == ["misere"]


# ---------------------------------------------------------------- hold, may not pass, own bids
PITCH = """\
tricklang 1
game "Holding"
players 4
role eldest = left of dealer

deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7 6 5 4 3 2

zone hand: per player, owner
zone won: per player, public
zone stock: shared, hidden, pack

match
  first dealer is 0
  dealer passes left
  game to 10, after the deal

deal
  deal 6 to each
  auction AUCTION from eldest, bids 2..4
    dealer may hold
    may not pass when caller == dealer and high_bid == 0
  tricks 6, maker leads first
    must follow suit
  maker scores bid
"""


def holding(kind: str = "once around") -> interpreter.State:
    return interpreter.new_game(tricklang.loads(PITCH.replace("AUCTION", kind), path="hold.trick"), seed=2)


def test_the_dealer_may_hold_the_high_bid_and_makes_at_it() -> None:
    state = holding()
    state.apply("bid 2")
    state.apply("pass")
    state.apply("bid 3")
    assert state.current_player == 0
    assert [str(a) for a in state.legal_actions()] == ["pass", "hold", "bid 4"]
    state.apply("hold")
    assert state.phase == "play"
    assert contract(state) == {"bid": 3, "maker": 0}
    assert "seat 0 holds" in render(state)


def test_the_dealer_may_not_pass_when_all_others_passed() -> None:
    state = holding()
    for _ in range(3):
        state.apply("pass")
    assert [str(a) for a in state.legal_actions()] == ["bid 2", "bid 3", "bid 4"]
    state.apply("bid 2")
    assert contract(state)["maker"] == 0


def test_a_hold_in_an_auction_until_passes_lets_the_others_bid_again() -> None:
    state = holding("until passes")
    state.apply("bid 2")  # seat 1
    state.apply("pass")
    state.apply("pass")
    state.apply("hold")  # the dealer takes 2
    assert [str(a) for a in state.legal_actions()] == ["pass", "bid 3", "bid 4"]  # seat 1 again
    state.apply("pass")
    assert contract(state) == {"bid": 2, "maker": 0}


OWN = """\
bids contracts
  petite worth 1
  garde worth 2
  garde_sans worth 4
  garde_contre worth 6
"""


def test_a_players_own_bid_from_the_table_above_another_or_a_pass() -> None:
    text = PITCH.replace("zone hand", OWN + "\nzone hand").replace(
        "  auction AUCTION from eldest, bids 2..4\n    dealer may hold\n    may not pass when caller == dealer and high_bid == 0\n",
        "  eldest bids contracts above petite, or passes\n  if bids(eldest) == no_bid or worth of bids(eldest) < 4:\n"
        "    end the deal\n  set maker = eldest\n").replace("maker scores bid", "maker scores worth of bids(maker)")
    state = interpreter.new_game(tricklang.loads(text, path="own.trick"), seed=2)
    assert [str(a) for a in state.legal_actions()] == ["pass", "bid garde", "bid garde_sans", "bid garde_contre"]
    state.apply("bid GARDE_SANS")
    assert state.phase == "play"


# ---------------------------------------------------------------- Auction Pitch
def test_auction_pitch_without_the_dealers_privilege_plays_as_the_old_runtime_recorded() -> None:
    """The auction with a `dealer may hold` rule is compiled with the full auction state; with the
    option off it plays exactly the traces the old runtime recorded for the file before the rule."""
    recorded = json.loads((Path(__file__).parent / "reference_traces.json").read_text(encoding="utf-8"))
    case = Case(game="auction-pitch", options={"dealer_privilege": False}, seeds=(1, 2))
    assert record(case)["traces"] == recorded["auction-pitch"]["traces"]


def test_auction_pitchs_dealer_may_take_the_bid_at_the_highest_bid_so_far() -> None:
    state = interpreter.new_game(tricklang.load("auction-pitch"), seed=1)
    while state.current_player != state.observation(None)["dealer"]:
        state.apply("bid 2" if "bid 2" in state.legal_actions() else "pass")
    assert "hold" in state.legal_actions()
    state.apply("hold")
    assert contract(state) == {"bid": 2, "maker": state.observation(None)["dealer"]}


# ---------------------------------------------------------------- native



@pytest.mark.skipif(native.unavailable() is not None, reason=f"no native builds here: {native.unavailable()}")
@pytest.mark.usefixtures("isolated")
@pytest.mark.parametrize("which", ["bridge", "hold"])
def test_the_native_build_plays_what_cpython_plays(which: str) -> None:
    rules = bridge() if which == "bridge" else tricklang.loads(PITCH.replace("AUCTION", "until passes"), path="h.trick")
    assert_native_plays_as_cpython(rules, range(3), playout=False, step=True)
