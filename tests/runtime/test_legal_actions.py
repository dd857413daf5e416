"""Legal actions as a lazy, immutable sequence; card selections validated directly;
sample_action; the public views of State (decision, history, trick); snapshots."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import Action, IllegalActionError, LegalActions
from interpreter.players import HeuristicAgent, RandomAgent, play_match
from interpreter.state.legal import Selection, draw_subset

ROOT = Path(__file__).resolve().parents[2]
CODES = [f"{r}{s}" for s in "SHDC" for r in ("A", "K", "Q", "J", "10", "9", "8", "7")]


@pytest.fixture(scope="module")
def cinch() -> tricklang.Ruleset:
    return tricklang.load(ROOT / "rules" / "cinch.trick")


@pytest.fixture(scope="module")
def ecarte() -> tricklang.Ruleset:
    return tricklang.load(ROOT / "rules" / "ecarte.trick")


def _enumerated(cards: tuple[int, ...], lo: int, hi: int) -> list[str]:
    """The order the interpreter always listed selections in: by size, then lexicographic."""
    out = []
    for k in range(lo, hi + 1):
        for combo in combinations(cards, k):
            out.append("take " + (" ".join(CODES[c] for c in combo) if combo else "none"))
    return out


@given(st.data())
def test_selection_lists_unranks_and_ranks_every_subset_in_the_old_order(data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 9))
    cards = tuple(data.draw(st.permutations(range(32)))[:n])
    hi = data.draw(st.integers(0, n))
    lo = data.draw(st.integers(0, hi))
    sel = Selection("take", cards, lo, hi, CODES)
    expected = _enumerated(cards, lo, hi)
    assert len(sel) == len(expected)
    assert [a.text for a in sel] == expected
    for i, text in enumerate(expected):
        assert sel[i].text == text  # read from the shape's list of subsets (a small shape)
        assert sel.action(sel.unrank(i)).text == text  # unranked (as a large shape is)
        assert sel.find(text.split()[1:]) == i
        if text != "take none":
            assert sel.rank([CODES.index(c) for c in text.split()[1:]]) == i


def test_legal_actions_is_an_immutable_sequence() -> None:
    sel = Selection("discard", (0, 1, 2, 3, 4), 1, 2, CODES)
    legal = LegalActions((Action("pass"),), sel)
    assert len(legal) == 16 and legal[0].text == "discard AS" and legal[-1].text == "pass"
    assert legal[-2].text == "discard J S 10S".replace("J S", "JS")
    assert [a.text for a in legal[1:3]] == ["discard KS", "discard QS"]
    assert "pass" in legal and Action("discard", ("AS", "QS")) in legal and "discard  AS   QS" in legal
    assert "discard QS AS" not in legal and "discard AS AS" not in legal and "discard" not in legal
    assert "discard AS KS QS" not in legal and 42 not in legal
    assert legal.index("discard KS QS") == 9 and legal.index(legal[9]) == 9
    with pytest.raises(ValueError):
        legal.index("discard 7C")
    assert legal == legal.texts() and legal == list(legal) and legal != legal.texts()[:-1]
    assert all(legal[i] == text for i, text in enumerate(legal.texts()))  # == agrees with `in`
    with pytest.raises(IndexError):
        legal[16]
    for attempt in ("append", "sort", "extend", "insert", "pop", "remove", "clear"):
        assert not hasattr(legal, attempt)
    with pytest.raises(TypeError):
        legal[0] = Action("pass")  # type: ignore[index]


def _state_at_rob(cinch: tricklang.Ruleset) -> interpreter.State:
    """A Cinch deal played by random players up to the dealer's robbing of the pack."""
    rng = random.Random(3)
    for seed in range(200):
        state = interpreter.new_game(cinch, seed=seed)
        while not state.is_terminal() and state.deal_number == 1:
            if state.phase == "rob" and len(state.legal_actions()) > 100:
                return state
            state.apply(state.sample_action(rng))
    raise AssertionError("no deal reached a large robbing decision")  # pragma: no cover


def test_a_large_selection_is_not_built_and_matches_enumeration(cinch: tricklang.Ruleset) -> None:
    state = _state_at_rob(cinch)
    legal = state.legal_actions()
    sel = legal.selection
    assert sel is not None and legal.explicit == ()
    codes = [state.cards[c] for c in sel.cards]
    expected = [" ".join([sel.verb, *combo]) if combo else f"{sel.verb} none"
                for k in range(sel.lo, sel.hi + 1) for combo in combinations(codes, k)]
    assert legal.texts() == expected
    assert state.decision == interpreter.Decision("select", state.current_player or 0, "rob", sel.lo, sel.hi)


def test_illegal_selections_are_refused_naming_the_reason_and_leave_the_state(cinch: tricklang.Ruleset) -> None:
    state = _state_at_rob(cinch)
    sel = state.legal_actions().selection
    assert sel is not None
    before = state.to_json()
    offered = [state.cards[c] for c in sel.cards]
    foreign = next(c for c in state.cards if c not in offered)
    cases = {
        f"rob {' '.join(offered[:sel.hi + 1])}": "not",  # too many
        f"rob {offered[0]} {offered[0]}": "more than once",
        f"rob {foreign}": foreign,
    }
    for text, reason in cases.items():
        with pytest.raises(IllegalActionError) as err:
            state.apply(text)
        assert reason in str(err.value) and "rob" in str(err.value)
        assert state.to_json() == before
    backwards = "rob " + " ".join(reversed(offered[:sel.hi]))  # any order is accepted and listed sorted
    state.apply(backwards)
    assert state.actions[-1] == "rob " + " ".join(offered[:sel.hi])


def test_sample_action_draws_as_indexing_does(cinch: tricklang.Ruleset) -> None:
    state = _state_at_rob(cinch)
    legal = state.legal_actions()
    a, b = random.Random(9), random.Random(9)
    for _ in range(20):
        assert state.sample_action(a) == legal[b.randrange(len(legal))]


@given(st.data())
def test_a_subset_drawn_alone_is_the_one_the_selection_gives(data: st.DataObject) -> None:
    n = data.draw(st.integers(0, 70))  # beyond the listed shapes and the table of binomials too
    cards = tuple(data.draw(st.permutations(range(72)))[:n])
    hi = data.draw(st.integers(0, min(n, 6)))
    lo = data.draw(st.integers(0, hi))
    seed = data.draw(st.integers(0, 2**32))
    codes = [f"c{i}" for i in range(72)]
    sel = Selection("take", cards, lo, hi, codes)
    a, b = random.Random(seed), random.Random(seed)
    drawn = draw_subset(a, "take", cards, lo, hi, codes, len(sel))
    assert drawn is not None and drawn.text == sel[b.randrange(len(sel))].text and a.random() == b.random()
    if len(sel) > 1:  # more subsets than allowed: nothing drawn, the generator untouched
        assert draw_subset(a, "take", cards, lo, hi, codes, len(sel) - 1) is None and a.random() == b.random()


def test_sample_action_is_roughly_uniform(ecarte: tricklang.Ruleset) -> None:
    state = interpreter.new_game(ecarte, seed=42)
    state.apply("propose")
    state.apply("accept")
    rng = random.Random(0)
    sizes = [len(state.sample_action(rng).args) for _ in range(3100)]
    # 5 + 10 + 10 + 5 + 1 discards of 1..5 cards out of 31.
    for k, ways in ((1, 5), (2, 10), (3, 10), (4, 5)):
        assert abs(sizes.count(k) / 3100 - ways / 31) < 0.03


def test_history_records_the_seat_of_every_action(ecarte: tricklang.Ruleset) -> None:
    state = play_match(interpreter.new_game(ecarte, seed=5), [HeuristicAgent(1), RandomAgent(2)])
    replay = interpreter.new_game(ecarte, seed=5)
    for seat, text in state.history:
        assert replay.current_player == seat
        replay.apply(text)
    assert len(state.history) == len(state.actions) > 0


def test_trick_views(ecarte: tricklang.Ruleset) -> None:
    state = interpreter.new_game(ecarte, seed=42)
    state.apply("stand")
    assert state.decision is not None and state.decision.kind == "play" and state.current_trick == []
    assert state.trick_winner() is None and state.trick_number == 1
    leader = state.current_player
    card = state.legal_actions()[0].args[0]
    state.apply("play " + card)
    assert state.current_trick == [(leader, card)] and state.trick_winner() == leader
    follower = state.current_player
    for a in state.legal_actions():
        if a.verb == "play" and state.trick_power(a.args[0]) > state.trick_power(card):
            state.apply(a)
            assert state.current_trick == [] and state.tricks_won[follower] == 1 and state.trick_number == 2
            break


def test_snapshot_restores_and_can_be_restored_again(ecarte: tricklang.Ruleset) -> None:
    state = interpreter.new_game(ecarte, seed=11)
    rng = random.Random(1)
    for _ in range(6):
        state.apply(state.sample_action(rng))
    snap, before = state.snapshot(), state.to_json()
    events = state.events()
    for _ in range(2):
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
        state.restore(snap)
        assert state.to_json() == before and state.events() == events and len(state.history) == 6
    other = interpreter.new_game(ecarte, seed=12)
    with pytest.raises(ValueError):
        other.restore(snap)
