"""Contract Bridge (examples/bridge.trick): the declarer and the dummy [BR6, BR7], the dummy's
hand shown after the opening lead and played by declarer [BR7], and the duplicate scoring of
every contract checked against a scorer written here from the published table [BR2, BR9]."""

from __future__ import annotations

import random
from typing import Any

from helpers import load_example
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang

RULES = load_example("bridge.trick")
NS_VULNERABLE = [0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0]  # boards 1..16 [BR2]
EW_VULNERABLE = [0, 0, 1, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1]


def reference_score(level: int, strain: str, doubling: int, vulnerable: bool, taken: int) -> tuple[int, int]:
    """(declarers' points, defenders' points) of a deal, from the Law 77 table [BR9]."""
    need = 6 + level
    if taken >= need:
        per = 20 if strain in ("C", "D") else 30
        trick_score = (per * level + (10 if strain == "NT" else 0)) * (1, 2, 4)[doubling]
        over = taken - need
        if doubling == 0:
            over_score = over * per
        else:
            over_score = over * (200 if vulnerable else 100) * doubling
        bonus = (300 if not vulnerable else 500) if trick_score >= 100 else 50
        if level == 6:
            bonus += 750 if vulnerable else 500
        if level == 7:
            bonus += 1500 if vulnerable else 1000
        return trick_score + over_score + bonus + 50 * doubling, 0
    down = need - taken
    if doubling == 0:
        return 0, down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return 0, penalty * doubling


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), board=st.integers(1, 16))
def test_every_contract_scores_as_the_duplicate_table_says(seed: int, board: int) -> None:
    rules = tricklang.load(RULES.path, options={"boards": 16})
    rng = random.Random(seed)
    state = interpreter.new_game(rules, seed=seed)
    # Reach the board wanted by passing out the boards before it (a passed-out board scores nothing).
    while state.deal_number < board:
        state.apply("pass")
    while state.deal_number == board and not state.is_terminal():
        state.apply(state.sample_action(rng))
    deal_events = _deal(state, board)
    contract = next(e for e in deal_events if e["type"] == "contract")
    scored = [e for e in deal_events if e["type"] == "score"]
    if contract["bid"] is None:  # passed out [BR5]
        assert scored == []
        return
    maker = contract["maker"]
    code = contract["bid"]
    level, strain = int(code[0]), code[1:]
    side = maker % 2
    taken = sum(1 for e in deal_events if e["type"] == "trick" and e["winner"] % 2 == side)
    vulnerable = bool((NS_VULNERABLE if side == 0 else EW_VULNERABLE)[board - 1])
    declarers, defenders = reference_score(level, strain, contract.get("doubling", 0), vulnerable, taken)
    got = {e["side"]: e["points"] for e in scored}
    assert got.get(side, 0) == declarers and got.get(1 - side, 0) == defenders, (code, contract, taken, vulnerable)


def _deal(state: interpreter.State, board: int) -> list[dict[str, Any]]:
    """The events of one deal (board)."""
    out: list[dict[str, Any]] = []
    current = 0
    for e in state.events(None):
        if e["type"] == "deal":
            current = e["deal"]
        if current == board:
            out.append(e)
    return out


def test_the_first_of_the_side_to_name_the_strain_declares_and_his_partner_is_dummy() -> None:
    state = interpreter.new_game(RULES, seed=7, dealer=0)
    for call in ("bid 1H", "pass", "bid 2H", "pass", "pass", "pass"):  # 0 names hearts, 2 raises [BR6]
        state.apply(call)
    contract = next(e for e in state.events(None) if e["type"] == "contract")
    assert contract["maker"] == 0 and contract["bid"] == "2H"
    assert state.current_player == 1  # the player on declarer's left leads [BR7]
    dummy_cards = set(state.hand(2))
    assert not dummy_cards & set(_visible(state, 1))  # before the opening lead the dummy is hidden
    lead = state.legal_actions()[0]
    state.apply(lead)
    assert state.current_player == 0  # declarer plays dummy's card, in dummy's turn [BR7]
    assert {a.args[0] for a in state.legal_actions() if a.verb == "play"} <= dummy_cards
    for seat in (1, 3):
        assert dummy_cards <= set(_visible(state, seat))  # spread face up after the opening lead [BR7]


def _visible(state: interpreter.State, seat: int) -> list[str]:
    """The cards of other hands that ``seat`` sees in its observation."""
    hands = state.observation(seat)["zones"]["hand"]
    return [card for holder, zone in hands.items() if holder != str(seat) for card in zone.get("cards", [])]


def test_a_passed_out_board_scores_nothing_and_the_next_board_is_dealt() -> None:
    state = interpreter.new_game(RULES, seed=3, dealer=0)
    for _ in range(4):
        state.apply("pass")
    assert state.deal_number == 2  # [BR5]
    assert not [e for e in state.events(None) if e["type"] == "score"]
