"""The public random step ``state.apply(state.sample_action(rng))``: its fast path through
generated trick play (State.sample_action drawing a card from the instruction's
``fast_cards``, State.apply playing it with ``fast_play``) gives exactly the match the
listed legal actions give, and leaves the state as it was when the rules fail."""

from __future__ import annotations

import random
from types import MethodType
from typing import Any

import pytest
from helpers import SHORT
from hypothesis import given, settings
from hypothesis import strategies as st
from interpreter.compiler import compile_ruleset
from interpreter.program import Program

import interpreter
import tricklang
from interpreter import Action, GameLimitError, codegen
from interpreter.state.events import CHOICE, SELECT, TRICK
from interpreter.state.legal import LegalActions, PlayedCards, randbelow
from tricklang.catalog import bundled_games

GAMES = sorted(bundled_games())


def _by_listing(state: interpreter.State, rng: random.Random, limit: int) -> interpreter.State:
    """Random legal actions chosen from the listed actions (no fast path: each list is read first)."""
    while not state.is_terminal() and len(state.actions) < limit:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def _by_sampling(state: interpreter.State, rng: random.Random, limit: int) -> interpreter.State:
    while not state.is_terminal() and len(state.actions) < limit:
        state.apply(state.sample_action(rng))
    return state


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=2, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_random_step_plays_the_match_the_listed_actions_give(game: str, seed: int) -> None:
    rules = tricklang.load(bundled_games()[game])
    fast = _by_sampling(interpreter.new_game(rules, seed=seed), random.Random(seed), 300)
    listed = _by_listing(interpreter.new_game(rules, seed=seed), random.Random(seed), 300)
    assert fast.to_json() == listed.to_json()
    assert fast.events(None) == listed.events(None)
    assert list(fast.actors) == list(listed.actors)
    assert fast.observation(0) == listed.observation(0)
    replayed = interpreter.State.from_json(fast.to_json())
    assert replayed.observation(None) == fast.observation(None)


def _mid_trick(game: str, seed: int = 3) -> tuple[interpreter.State, random.Random]:
    state = interpreter.new_game(tricklang.load(bundled_games()[game]), seed=seed)
    rng = random.Random(seed)
    while state.phase != "play" or not state.current_trick:
        state.apply(state.sample_action(rng))
    return state, rng


def test_legal_actions_read_after_a_draw_are_the_listed_ones() -> None:
    state, rng = _mid_trick("spades")
    action = state.sample_action(rng)
    legal = state.legal_actions()
    assert isinstance(legal, PlayedCards) and action in legal
    again = state.clone()
    again._legal = None
    listed = again.legal_actions()
    assert not isinstance(listed, PlayedCards)
    assert legal == listed and legal.texts() == listed.texts() and list(legal) == list(listed)
    assert len(legal) == len(listed) and legal[-1] == listed[-1] and legal[:2] == listed[:2]
    assert legal.index(action.text) == listed.index(action.text) and legal.find(action) == listed.find(action)
    assert repr(legal) == repr(listed)


def test_a_drawn_card_not_applied_at_once_is_checked_again() -> None:
    state, rng = _mid_trick("hearts")
    drawn = state.sample_action(rng)
    other = next(a for a in state.legal_actions() if a is not drawn) if len(state.legal_actions()) > 1 else drawn
    state.apply(other)
    if drawn.text in state.legal_actions():  # pragma: no cover - a card two seats both hold cannot exist
        return
    with pytest.raises(interpreter.IllegalActionError):
        state.apply(drawn)  # drawn for the previous seat: the fast path does not take it


def test_a_failure_of_the_rules_in_the_fast_step_leaves_the_state(monkeypatch: pytest.MonkeyPatch) -> None:
    state, rng = _mid_trick("euchre")
    while len(state.current_trick) < 3:  # the next card takes the trick, which logs an event
        state.apply(state.sample_action(rng))
    before, events, actors = state.to_json(), state.events(None), list(state.actors)
    real, failed = Program.emit, []

    def emit(self: Program, core: Any, full: Any, public: Any = None, mask: int = 0) -> None:
        if not failed:  # the first event fails (the trick taken); replaying the earlier actions does not
            failed.append(full)
            raise GameLimitError("the event log is full (test)")
        real(self, core, full, public, mask)

    # installed on the program, as the invariant harness's hook is (see the drawn decisions' test)
    monkeypatch.setitem(state.program.__dict__, "emit", MethodType(emit, state.program))
    action = state.sample_action(rng)
    with pytest.raises(GameLimitError):
        state.apply(action)
    assert failed and failed[0][0] == TRICK
    assert state.to_json() == before and state.events(None) == events and list(state.actors) == actors
    state.apply(state.sample_action(rng))
    assert len(state.actions) == len(actors) + 1 and not state.current_trick


def test_played_cards_build_their_actions_only_when_read() -> None:
    acts = [Action("play", (code,), i) for i, code in enumerate(["AS", "KS", "QS", "JS"])]
    legal = PlayedCards([3, 1], acts)
    assert len(legal) == 2 and bool(legal)
    assert legal == LegalActions((acts[3], acts[1])) and legal == ["play JS", "play KS"]
    assert legal[0] is acts[3] and "play KS" in legal and "play QS" not in legal
    assert legal.verbs() == {"play"} and legal.explicit == (acts[3], acts[1]) and legal.selection is None
    with pytest.raises(AttributeError):
        legal.nothing  # noqa: B018 - only the actions are built on demand


@given(seed=st.integers(0, 2**64), bound=st.integers(1, 2**70))
def test_randbelow_draws_as_randrange(seed: int, bound: int) -> None:
    a, b = random.Random(seed), random.Random(seed)
    assert [randbelow(a, bound) for _ in range(3)] == [b.randrange(bound) for _ in range(3)]

    class Other(random.Random):
        def randrange(self, *args: object, **kwargs: object) -> int:
            return 0

    assert randbelow(Other(seed), bound) == 0  # another generator is asked, not bypassed


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6), limit=st.one_of(st.none(), st.integers(0, 120)))
def test_playout_plays_what_the_random_step_plays(game: str, seed: int, limit: int | None) -> None:
    """Every bundled game (all but one play their cards through the generated run: see
    test_trick_play_runs_as_one_function_unless_the_first_card_led_sets_the_trump)."""
    short = {"hearts": {"target": 3}, "euchre": {"target": 3}}  # short matches
    if limit is None and game.startswith("cinch"):  # long matches: played some way only
        limit = 150
    rules = tricklang.load(bundled_games()[game], options=short.get(game))
    state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
    for _ in range(seed % 7):  # from some way into the first deal, a decision's legal actions read
        state.legal_actions()
        state.apply(state.sample_action(rng))
    looped, rng2 = state.clone(), random.Random()
    rng2.setstate(rng.getstate())
    taken = state.playout(rng, limit)
    steps = 0
    while not looped.is_terminal() and (limit is None or steps < limit):
        looped.apply(looped.sample_action(rng2))
        steps += 1
    assert taken == steps and state.is_terminal() == looped.is_terminal()
    assert state.to_json() == looped.to_json() and state.events(None) == looped.events(None)
    assert list(state.actors) == list(looped.actors) and rng.random() == rng2.random()
    assert state.playout(rng, 0) == 0


def test_trick_play_runs_as_one_function_unless_the_first_card_led_sets_the_trump() -> None:
    runs = {game: [i.fast_run is not None for i in compile_ruleset(tricklang.load(path)).instructions
                   if type(i).__name__ == "Tricks"] for game, path in bundled_games().items()}
    assert runs["auction-pitch"] == [False]  # the pitch (the first card led) names the trump
    assert all(found and all(found) for game, found in runs.items() if game != "auction-pitch")
    source = codegen.generate(compile_ruleset(tricklang.load("ecarte"))).source
    line = bundled_games()["ecarte"].read_text(encoding="utf-8").splitlines().index(
        "  tricks 5, elder leads first                                      [E41]") + 1
    assert f"# rule line {line}: trick play run for random playouts" in source


GUARDED = SHORT.replace("  deal 2 to each\n  deal deal_number to each\n", "  deal 3 to each\n").replace(
    "tricks 2, left of dealer leads first",
    "tricks 3, left of dealer leads first\n    must follow suit when 1 % (1 - tricks(dealer)) == 0")


@pytest.mark.parametrize("seed", range(6))
def test_a_rule_failing_in_a_playouts_run_of_cards_leaves_what_the_random_step_leaves(seed: int) -> None:
    """The guard fails (1 % 0) once the dealer has taken a trick, in the middle of the run:
    the cards played before stay played, the failing one is undone, as step by step."""
    rules = tricklang.loads(GUARDED, path="guarded.trick")
    assert any(i.fast_run is not None for i in compile_ruleset(rules).instructions)
    state, stepped, rng = interpreter.new_game(rules, seed=seed), interpreter.new_game(rules, seed=seed), random.Random(seed)
    with pytest.raises(interpreter.RuleRuntimeError, match=r"^line 16: '%' by zero") as failed:
        stepped.playout(random.Random(seed))
    with pytest.raises(interpreter.RuleRuntimeError) as failed_step:
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
    assert str(failed.value) == str(failed_step.value)
    assert stepped.to_json() == state.to_json() and stepped.events(None) == state.events(None)
    assert list(stepped.actors) == list(state.actors) and len(state.actions) >= 3  # a trick and a card at least


@pytest.mark.parametrize("seed", range(4))
def test_a_rule_failing_after_a_playouts_last_card_undoes_that_card_as_the_step_does(seed: int) -> None:
    """SHORT's second deal runs out of cards: the steps after the first deal's last card
    fail, so that card is undone with them (it was kept, logged, once)."""
    rules = tricklang.loads(SHORT, path="short.trick")
    state, played, rng = interpreter.new_game(rules, seed=seed), interpreter.new_game(rules, seed=seed), random.Random(seed)
    with pytest.raises(interpreter.RuleRuntimeError, match=r"^line 15: the pack ran out while dealing"):
        played.playout(random.Random(seed))
    with pytest.raises(interpreter.RuleRuntimeError):
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
    assert len(played.actions) == len(state.actions) == 3 and played.to_json() == state.to_json()
    assert list(played.actors) == list(state.actors) and played.deal_number == 1


def test_playout_of_a_deal_stops_where_the_next_one_begins() -> None:
    state, rng = interpreter.new_game(tricklang.load(bundled_games()["spades"]), seed=8), random.Random(8)
    looped, rng2 = state.clone(), random.Random(8)
    taken = state.playout(rng, deal=True)
    while looped.deal_number == 1:
        looped.apply(looped.sample_action(rng2))
    assert taken == len(looped.actions) > 52 and state.deal_number == 2 and state.to_json() == looped.to_json()
    assert state.playout(rng, 3, deal=True) == 3 and state.deal_number == 2


def _at(game: str, phase: str, seed: int = 5) -> tuple[interpreter.State, random.Random]:
    state = interpreter.new_game(tricklang.load(bundled_games()[game]), seed=seed)
    rng = random.Random(seed)
    while state.phase != phase:
        state.apply(state.sample_action(rng))
    return state, rng


@pytest.mark.parametrize(("game", "phase"), [("ecarte", "choice"), ("ecarte", "discard"), ("cinch", "discard"),
                                             ("cinch", "auction"), ("cinch", "naming"), ("euchre", "naming"),
                                             ("spades", "bidding")])
def test_a_decision_drawn_without_listing_is_the_listed_one_and_applies_as_it(game: str, phase: str) -> None:
    state, rng = _at(game, phase)
    listed = state.clone()
    again = random.Random()
    again.setstate(rng.getstate())
    action = state.sample_action(rng)
    assert state.program.instructions[state.core.pc].fast_draw is not None
    assert action == listed.legal_actions()[again.randrange(len(listed.legal_actions()))]
    legal = state.legal_actions()  # read after the draw: listed then, and the draw still applies
    assert legal == listed.legal_actions() and action in legal
    state.apply(action)
    listed.apply(action.text)
    assert state.to_json() == listed.to_json() and state.events(None) == listed.events(None)
    assert list(state.actors) == list(listed.actors)


def test_a_drawn_choice_not_applied_at_once_is_checked_again() -> None:
    state, rng = _at("ecarte", "choice")
    while state.legal_actions().texts() != ["stand", "propose"]:
        state.apply(state.sample_action(rng))
    drawn = state.sample_action(rng)
    state.apply("propose")  # another action first: the draw no longer stands
    before = state.to_json()
    with pytest.raises(interpreter.IllegalActionError, match=f"illegal action '{drawn.text}': seat .* accept or refuse"):
        state.apply(drawn)  # the elder's option, not the dealer's
    assert state.to_json() == before


@pytest.mark.parametrize("phase", ["choice", "discard"])
def test_a_failure_of_the_rules_in_a_drawn_decision_leaves_the_state(phase: str, monkeypatch: pytest.MonkeyPatch) -> None:
    state, rng = _at("ecarte", phase, seed=11)
    before, events, actors = state.to_json(), state.events(None), list(state.actors)
    real, failed = Program.emit, []

    def emit(self: Program, core: Any, full: Any, public: Any = None, mask: int = 0) -> None:
        if not failed:  # the decision's own event fails; replaying the earlier actions does not
            failed.append(full)
            raise GameLimitError("the event log is full (test)")
        real(self, core, full, public, mask)

    # installed on the program, as the invariant harness's hook is: generated code logs its
    # events inline unless a hook is installed (or a limit would be passed), and then calls it
    monkeypatch.setitem(state.program.__dict__, "emit", MethodType(emit, state.program))
    with pytest.raises(GameLimitError):
        state.apply(state.sample_action(rng))
    assert failed and failed[0][0] == (CHOICE if phase == "choice" else SELECT)
    assert state.to_json() == before and state.events(None) == events and list(state.actors) == actors
    state.apply(state.sample_action(rng))
    assert len(state.actions) == len(actors) + 1


def test_a_generator_of_another_class_is_asked_for_every_card() -> None:
    """The step and the playout draw a card inline only from a plain Random; another
    generator's randrange is called (here it draws as Random does: the same match)."""

    class Counting(random.Random):
        calls = 0

        def randrange(self, *args: Any, **kwargs: Any) -> int:
            self.calls += 1
            return super().randrange(*args, **kwargs)

    rules = tricklang.load(bundled_games()["ecarte"])
    plain = interpreter.new_game(rules, seed=4)
    plain.playout(random.Random(4))
    stepped, rng = interpreter.new_game(rules, seed=4), Counting(4)
    while not stepped.is_terminal():
        stepped.apply(stepped.sample_action(rng))
    played, rng2 = interpreter.new_game(rules, seed=4), Counting(4)
    played.playout(rng2)
    plays = sum(a.startswith("play ") for a in plain.actions)
    assert plays and rng.calls == rng2.calls >= plays
    assert stepped.to_json() == played.to_json() == plain.to_json()


def _fields(core: Any) -> dict[str, Any]:
    """A core's data, its event log as a list (the steps counted since the decision included)."""
    return {name: (list(getattr(core, name)) if name == "events" else getattr(core, name)) for name in core.__slots__}


@pytest.mark.parametrize("game", ["ecarte", "cinch", "euchre"])
def test_a_generated_take_step_goes_on_as_take_then_advance(game: str) -> None:
    """``take_step`` (take, then the target's block called at once) leaves the core as
    ``take`` and ``Program.advance`` leave it: the same data, events and steps counted."""
    state = interpreter.new_game(tricklang.load(bundled_games()[game]), seed=2)
    rng, stepped = random.Random(2), 0
    while not state.is_terminal() and len(state.actions) < 400:
        action = state.sample_action(rng)
        ins = state.program.instructions[state.core.pc]
        if ins.take_step is not None:
            one, two = state.core.copy(), state.core.copy()
            assert ins.take_step(one, action) == ins.take(two, action)  # type: ignore[misc]
            state.program.advance(two)
            assert _fields(one) == _fields(two)
            stepped += 1
        state.apply(action)
    assert stepped > 5


def test_a_playout_without_a_random_generator_is_refused_before_any_action() -> None:
    """Not reported as the rules failing (the run of cards would meet it first at trick play)."""
    state, rng = _at("ecarte", "play")
    before = state.to_json()
    with pytest.raises(TypeError, match="playout\\(\\) takes a random.Random .*not NoneType"):
        state.playout(None)  # type: ignore[arg-type]
    assert state.to_json() == before and state.playout(rng, 1) == 1
