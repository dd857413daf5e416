"""Transcripts show what a table would see announced (issue 29): moves into and out of a
zone marked `bookkeeping`, and a `bookkeeping` counter's changes, are not printed; tricks
are numbered within the deal. The events (and observations) are unchanged: only the
presentation differs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import interpreter
import tricklang
from interpreter.players import HeuristicAgent, play_match
from interpreter.transcript import render, shown_lines
from tricklang.explain import explain
from tricklang.fmt import format_text

ROOT = Path(__file__).resolve().parents[2]

# One card a trick, three tricks in a loop; a scratch zone the cards pass through, and a
# tally kept for the rules' own use.
LOOPED = """\
tricklang 1
game "Looped"
players 2
deck
  suits spades black, hearts red
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone scratch: shared, hidden, bookkeeping
zone won: per player, public
counter tally: per player, bookkeeping
counter bags: per player
match
  first dealer is 0
  dealer passes left
  game to 3, after the deal
deal
  deal 3 to each
  move 2 from stock to scratch
  cut scratch
  move all from scratch to stock
  repeat at most 3 times:
    tricks 1, left of dealer leads first
    add 1 to tally of dealer
    add 1 to bags of dealer
  dealer scores 1
"""
PLAIN = LOOPED.replace(", bookkeeping", "")


def played(text: str, seed: int = 3) -> interpreter.State:
    rules = tricklang.loads(text, path="looped.trick")
    return play_match(interpreter.new_game(rules, seed=seed), [HeuristicAgent(0), HeuristicAgent(1)])


def test_tricks_are_numbered_within_the_deal() -> None:
    state = played(LOOPED)
    out = render(state)
    for deal in out.split("\nDeal ")[1:]:
        numbers = [int(n) for n in re.findall(r"  trick (\d+):", deal)]
        assert numbers == [1, 2, 3], deal
    # The events still say what the runtime says (one trick per `tricks` statement).
    assert {e["trick"] for e in state.events(None) if e["type"] == "trick"} == {1}


def test_bookkeeping_moves_and_counters_are_not_printed_and_the_events_are_the_same() -> None:
    quiet, loud = played(LOOPED), played(PLAIN)
    assert quiet.events(None) == loud.events(None)
    assert [quiet.observation(p) for p in (0, 1)] == [loud.observation(p) for p in (0, 1)]
    shown, full = render(quiet), render(loud)
    assert "scratch" not in shown and "tally" not in shown
    assert "moved from scratch" in full and "scratch is cut" in full and "tally +1" in full
    assert "bags +1" in shown  # what is not bookkeeping is printed as before
    assert [line for line in full.splitlines() if "scratch" not in line and "tally" not in line] == shown.splitlines()
    for seat in (0, 1):
        assert "scratch" not in render(quiet, seat)


def test_lines_of_later_events_number_tricks_from_the_deal_start() -> None:
    state = played(LOOPED)
    events = state.events(None)
    start = max(i for i, e in enumerate(events) if e["type"] == "trick")  # the deal's third trick
    assert shown_lines(state, events, start)[0].startswith("  trick 3:")


def test_replayed_tricks_are_numbered_from_one_again() -> None:
    text = LOOPED.replace("  repeat at most 3 times:\n    tricks 1,", "  if true:\n    tricks 3,").replace(
        "  dealer scores 1\n", "  dealer scores 1\n\nirregularity fault during end_of_play:\n  replay the tricks\n")
    state = interpreter.new_game(tricklang.loads(text, path="looped.trick"), seed=2, mode="table")
    while state.phase != "end_of_play":
        state.apply([a for a in state.legal_actions() if a.verb != "irregular"][0])
    state.apply("irregular fault 0")
    while state.deal_number == 1:
        state.apply([a for a in state.legal_actions() if a.verb != "irregular"][0])
    deal = render(state).split("\nDeal 2")[0]
    assert re.findall(r"  trick (\d+):", deal) == ["1", "2", "3", "1", "2", "3"]
    assert "the tricks are played again" in deal


def test_the_flag_is_read_formatted_explained_and_checked() -> None:
    rules = tricklang.loads(LOOPED, path="looped.trick").rules
    assert [z.name for z in rules.zones if z.bookkeeping] == ["scratch"]
    assert [c.name for c in rules.counters if c.bookkeeping] == ["tally"]
    assert format_text(LOOPED) == LOOPED
    assert format_text(LOOPED.replace("hidden, bookkeeping", "hidden ,bookkeeping")) == LOOPED
    assert "bookkeeping" in explain(tricklang.loads(LOOPED, path="looped.trick"))


@pytest.mark.parametrize("zone", ["zone stock: shared, hidden, pack, bookkeeping",
                                  "zone hand: per player, owner, bookkeeping",
                                  "zone won: per player, public, bookkeeping"])
def test_the_pack_and_the_hands_cannot_be_bookkeeping(zone: str) -> None:
    text = LOOPED.replace(zone.replace(", bookkeeping", ""), zone)
    with pytest.raises(tricklang.RulesError) as caught:
        tricklang.loads(text, path="looped.trick")
    assert [d.code for d in caught.value.diagnostics] == ["bad-zone"]
    assert "cannot be bookkeeping" in caught.value.diagnostics[0].message


def test_shipped_scratch_zone_and_tally_are_bookkeeping() -> None:
    cinch = tricklang.load(ROOT / "rules" / "cinch.trick").rules
    spades = tricklang.load(ROOT / "examples" / "spades.trick").rules
    assert [z.name for z in cinch.zones if z.bookkeeping] == ["aside"]
    assert [c.name for c in spades.counters if c.bookkeeping] == ["blind"]


def test_cinchs_c10_shows_the_card_going_into_the_stock_not_the_lifted_half() -> None:
    text = (ROOT / "rules" / "cinch.trick").read_text(encoding="utf-8")
    renders = []
    for variant in (text, text.replace("zone aside: shared, hidden, bookkeeping", "zone aside: shared, hidden")):
        state = interpreter.new_game(tricklang.loads(variant, path=str(ROOT / "rules" / "c.trick")), seed=1, mode="table")
        while not any(a.text.startswith("irregular bid_with_too_many_cards") for a in state.legal_actions()):
            regular = [a for a in state.legal_actions() if a.verb != "irregular"]
            state.apply(next((a for a in regular if a.text.startswith("bid")), regular[0]))  # somebody bids
        state.apply(next(a for a in state.legal_actions() if a.text.startswith("irregular bid_with_too_many_cards")))
        renders.append(render(state))
    quiet, loud = renders
    assert "aside" in loud and "aside" not in quiet
    assert "moved from hand of seat" in quiet.split("irregularity: bid_with_too_many_cards")[1]
