"""The remedies that reach into trick play and into who deals (issue 10): `P leads`,
`replay the tricks`, `P becomes dealer`, and the expressions `leader` and
`played_to_trick`: parsed, checked (`remedy-outside-play`), explained, formatted, run."""

from __future__ import annotations

import random

import pytest

import interpreter
import tricklang
from tricklang.explain import explain
from tricklang.fmt import format_text

HEAD = """tricklang 1
game "Remedies"
players 2
role elder = left of dealer
deck
  suits spades black, hearts red
  ranks K Q J A
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  dealer passes left
  game to 9, after the deal
deal
  deal 4 to each
  tricks 4, elder leads first
    the first card led sets trump
  for each player:
    player scores tricks(player)
"""

REMEDIES = HEAD + """
irregularity lead_out_of_turn during play when played_to_trick == 0 and offender != leader:
  offender leads
irregularity take_back during play when played_to_trick == 1 and offender == leader:
  offender leads
irregularity replay during play:
  replay the tricks
irregularity wrong_dealer during play:
  offender becomes dealer
"""


def load(text: str) -> tricklang.Ruleset:
    return tricklang.loads(text, path="remedies.trick")


def codes(text: str) -> list[str]:
    with pytest.raises(tricklang.RulesError) as info:
        load(text)
    return info.value.codes


@pytest.mark.parametrize("remedy", ["offender leads", "replay the tricks"])
def test_trick_remedies_only_in_an_irregularity_offered_during_play(remedy: str) -> None:
    assert codes(HEAD.replace("  for each player:", f"  dealer scores 0\n  {remedy.replace('offender', 'dealer')}\n  for each player:")) == [
        "remedy-outside-play"]
    assert codes(HEAD + f"irregularity x:\n  {remedy}\n") == ["remedy-outside-play"]
    assert codes(HEAD + f"irregularity x during play, any:\n  {remedy}\n") == ["remedy-outside-play"]
    load(HEAD + f"irregularity x during play:\n  {remedy}\n")


def test_the_new_remedies_want_a_seat() -> None:
    assert codes(HEAD + "irregularity x during play:\n  nobody leads\n") == ["nobody-is-no-seat"]
    assert codes(HEAD + "irregularity x during play:\n  4 becomes dealer\n") == ["type-error"]


def test_explained_and_formatted() -> None:
    text = explain(load(REMEDIES)).lower()
    assert "go back to the hands of those who played them, and the offender leads it" in text
    assert "the tricks are played again from the first" in text
    assert "becomes the dealer: the roles follow him" in text
    assert "when the number of cards played to the trick in progress is 0 and the offender is not the leader" in text
    assert format_text(REMEDIES.replace("  offender leads", "  offender   leads"), "r.trick") == REMEDIES


def game() -> interpreter.State:
    return interpreter.new_game(load(REMEDIES), seed=5, dealer=0, mode="table")


def offered(state: interpreter.State) -> list[str]:
    return [a.text for a in state.legal_actions() if a.verb == "irregular"]


def test_leads_takes_back_the_cards_of_the_trick_and_the_trump_they_set() -> None:
    state = game()
    assert state.current_player == 1 and "irregular lead_out_of_turn 0" in offered(state)
    state.apply("irregular lead_out_of_turn 0")
    assert state.current_player == 0 and state.leader == 0
    card = state.hand(0)[0]
    state.apply("play " + card)
    assert state.trump is not None and "irregular take_back 0" in offered(state)
    state.apply("irregular take_back 0")
    assert state.trump is None and card in state.hand(0) and len(state.hand(0)) == 4
    assert state.current_player == 0 and [a.text for a in state.legal_actions() if a.verb == "play"]
    [event] = [e for e in state.events(None) if e["type"] == "leads" and e["taken_back"]]
    assert event == {"type": "leads", "player": 0, "taken_back": [card]}


def test_replay_gives_every_played_card_back_to_its_player() -> None:
    state = game()
    hands = [sorted(state.hand(p)) for p in range(2)]
    for _ in range(3):  # a trick and a half
        state.apply([a for a in state.legal_actions() if a.verb == "play"][0])
    state.apply("irregular replay 1")
    assert [sorted(state.hand(p)) for p in range(2)] == hands
    assert state.tricks_won == [0, 0] and state.trump is None and state.current_player == 1
    assert not state.zone("won", 0) and not state.zone("won", 1)
    while state.deal_number == 1:
        state.apply([a for a in state.legal_actions() if a.verb == "play"][0])
    assert sum(state.scores) == 4  # four tricks, each counted once


def test_becomes_dealer_moves_the_roles_and_the_rotation() -> None:
    state = game()
    state.apply("irregular wrong_dealer 1")
    assert state.dealer == 1
    [event] = [e for e in state.events(None) if e["type"] == "dealer"]
    assert event["dealer"] == 1 and event["roles"] == {"elder": 0}
    while state.deal_number == 1:
        state.apply([a for a in state.legal_actions() if a.verb == "play"][0])
    assert state.dealer == 0  # the next deal passes on from seat 1


def test_a_state_after_a_lead_taken_back_and_a_replay_can_be_resampled() -> None:
    state = game()
    state.apply("irregular lead_out_of_turn 0")
    for _ in range(3):
        state.apply([a for a in state.legal_actions() if a.verb == "play"][0])
    state.apply("irregular replay 1")
    for seat in (0, 1):
        world = state.resample(seat, random.Random(3))
        assert sorted(world.hand(seat)) == sorted(state.hand(seat)) and len(world.hand(1 - seat)) == 4
        assert world.current_player == state.current_player
