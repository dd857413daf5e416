"""The public random step ``state.apply(state.sample_action(rng))`` and ``playout``.

The generated module draws a decision's action itself (``sample_D``: a card of the
allowed mask, a choice, a bid; a card selection by :func:`~interpreter.state.legal.draw_subset`)
without listing the legal actions, and ``playout`` runs its own loop of draws. Both must
draw exactly what ``legal[rng.randrange(len(legal))]`` draws, play the match the listed
actions play, and leave the state as it was when the rules fail in the middle of an action.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from helpers import SHORT
from hypothesis import given, settings
from hypothesis import strategies as st

import interpreter
import tricklang
from interpreter import Action, GameLimitError
from interpreter.runtime.faults import Fault
from interpreter.state.legal import LegalActions, PlayedCards, randbelow
from tricklang.catalog import bundled_games

GAMES = sorted(bundled_games())


def _by_listing(state: interpreter.State, rng: random.Random, limit: int) -> interpreter.State:
    """Random legal actions chosen from the listed actions (each list is read first)."""
    while not state.is_terminal() and state.action_count < limit:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def _by_sampling(state: interpreter.State, rng: random.Random, limit: int) -> interpreter.State:
    while not state.is_terminal() and state.action_count < limit:
        state.apply(state.sample_action(rng))
    return state


def _twin(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


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


def _check_draws(game: str, mode: str, seeds: tuple[int, ...] = (1, 2)) -> set[str]:
    """At every decision of random matches the draw is ``legal[randrange(len(legal))]``
    of the actions listed on a twin state, and it uses the generator exactly as much.
    Returns the kinds of decision point met."""
    rules = tricklang.load(bundled_games()[game])
    kinds: set[str] = set()
    for seed in seeds:
        state, rng = interpreter.new_game(rules, seed=seed, mode=mode), random.Random(seed)
        while not state.is_terminal() and state.action_count < 250:
            listed, twin = state.clone(), _twin(rng)
            drawn = state.sample_action(rng)
            legal = listed.legal_actions()
            assert drawn == legal[randbelow(twin, len(legal))], (seed, state.action_count, drawn)
            assert rng.getstate() == twin.getstate()
            kinds.add(state.game.dps[state._c.dp].kind)
            state.apply(drawn)
    return kinds


@pytest.mark.parametrize(("game", "mode"), [*((g, "strict") for g in GAMES), ("ecarte", "table"), ("cinch", "table")])
def test_every_draw_is_the_listed_action_at_randbelow_of_the_count(game: str, mode: str) -> None:
    kinds = _check_draws(game, mode)
    assert "play" in kinds or mode == "table" and kinds  # (a table's random irregularities may redeal at once)


def test_the_draws_are_checked_at_every_decision_kind() -> None:
    """Choices, selections, bids, auctions, naming the trump, plays (with declarations:
    Écarté's king) and the referee's pauses (table mode) are all drawn as listed."""
    kinds = _check_draws("ecarte", "table", (1,)) | _check_draws("cinch", "strict", (1,))
    kinds |= _check_draws("oh-hell", "strict", (1,))
    every = {dp.kind for g in GAMES for dp in interpreter.new_game(tricklang.load(bundled_games()[g]), seed=1).game.dps}
    assert kinds == every == {"auction", "bid", "choice", "name_trump", "pause", "play", "select"}


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
    assert action in legal
    again = state.clone()
    listed = again.legal_actions()
    assert legal == listed and legal.texts() == listed.texts() and list(legal) == list(listed)
    assert len(legal) == len(listed) and legal[-1] == listed[-1] and legal[:2] == listed[:2]
    assert legal.index(action.text) == listed.index(action.text) and legal.find(action) == listed.find(action)
    assert repr(legal) == repr(listed)
    state.apply(action)  # the draw still applies once the list was read
    again.apply(action.text)
    assert state.to_json() == again.to_json()


def test_a_drawn_card_not_applied_at_once_is_checked_again() -> None:
    state, rng = _mid_trick("hearts")
    drawn = state.sample_action(rng)
    other = next(a for a in state.legal_actions() if a is not drawn) if len(state.legal_actions()) > 1 else drawn
    state.apply(other)
    if drawn.text in state.legal_actions():  # pragma: no cover - a card two seats both hold cannot exist
        return
    before = state.to_json()
    with pytest.raises(interpreter.IllegalActionError):
        state.apply(drawn)  # drawn for the previous seat: its key is not taken as it was drawn
    assert state.to_json() == before


# ------------------------------------------------------------------ failures in the middle of an action


HOOKS = ("_ev", "_deal", "_add_score", "_set_trump", "start_deal", "_end_deal")
"""Functions of the generated module called by name while a block runs: ``_ev`` counts
each event as it is logged, the others deal, score, set the trump, lay out a deal."""


@contextmanager
def _failing(state: interpreter.State, at: int, error: BaseException | None,
             plays: bool = True) -> Iterator[list[int]]:
    """The generated module's functions in HOOKS (and each trick play's ``finish_D``, and
    with ``plays`` its ``play_D``) raise ``error`` at the ``at``-th call of any of them (0:
    never) while the rules run; the list yielded counts the calls. The state's recorder is
    caught up first, so that only the live core calls them."""
    state.events(None)
    m = state.game.m
    points = [d for d, dp in enumerate(state.game.dps) if dp.kind == "play"]
    kinds = ("play", "finish") if plays else ("finish",)
    names = [name for name in (*HOOKS, *(f"{f}_{d}" for d in points for f in kinds)) if name in m]
    real = {name: m[name] for name in names}
    calls = [0]

    def hooked(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            calls[0] += 1
            if calls[0] == at and error is not None:
                raise error
            return fn(*args)
        return call

    m.update({name: hooked(fn) for name, fn in real.items()})
    try:
        yield calls
    finally:
        m.update(real)


def _core(state: interpreter.State) -> dict[str, Any]:
    """Every field of a state's core (the generated module's flat data)."""
    c = state._c
    return {name: (list(v) if isinstance(v := getattr(c, name), list) else v) for name in type(c).__slots__}


def _kept(state: interpreter.State) -> tuple[Any, ...]:
    """What a state keeps: its record, events, actors and core."""
    return state.to_json(), state.events(None), list(state.actors), _core(state)


def _seen(state: interpreter.State) -> tuple[Any, ...]:
    """What a state keeps and shows: its views and legal actions too."""
    return *_kept(state), state.observation(None), state.legal_actions().texts()


def _calls_of(state: interpreter.State, step: Callable[[interpreter.State], object], plays: bool = True) -> int:
    """How many calls of the hooked functions ``step`` makes (on a clone)."""
    twin = state.clone()
    with _failing(twin, 0, None, plays) as calls:
        step(twin)
    return calls[0]


def _check_every_failure(state: interpreter.State, step: Callable[[interpreter.State], object],
                         expect: Callable[[interpreter.State], object] | None = None) -> int:
    """``step`` (an action, a playout) fails at each call of a hooked function in turn: the
    state is as it was before the failing action each time (or as ``expect`` checks).
    Returns how many such calls the step makes."""
    game = state.game
    fault = next(i for i, text in enumerate(game.layout.faults) if text)
    n = _calls_of(state, step)
    errors: list[tuple[BaseException, type[BaseException], str]] = [
        (Fault(fault), interpreter.RuleRuntimeError, game.layout.faults[fault]),
        (GameLimitError("the event log is full (test)"), GameLimitError, "the event log is full (test)"),
        (ZeroDivisionError("by zero"), interpreter.RuleRuntimeError,
         "the rules failed at run time (ZeroDivisionError: by zero)")]
    for at in range(1, n + 1):
        error, typed, message = errors[at % len(errors)]
        trial = state.clone()
        before = _seen(trial)
        with _failing(trial, at, error), pytest.raises(typed) as raised:
            step(trial)
        assert str(raised.value) == message
        if expect is None:
            assert _seen(trial) == before
        else:
            expect(trial)
    return n


def test_a_failure_of_the_rules_in_the_random_step_leaves_the_state() -> None:
    state, rng = _mid_trick("euchre")
    while len(state.current_trick) < 3:  # the next card takes the trick, which logs an event
        state.apply(state.sample_action(rng))
    before = _twin(rng)
    action = state.sample_action(rng)
    assert _check_every_failure(state, lambda s: s.apply(s.sample_action(_twin(before)))) >= 1
    state.apply(action)  # and then it goes on
    assert not state.current_trick and state.events(None)[-1]["type"] == "trick"


def _at(game: str, phase: str, seed: int = 5, mode: str = "strict") -> tuple[interpreter.State, random.Random]:
    state = interpreter.new_game(tricklang.load(bundled_games()[game]), seed=seed, mode=mode)
    rng = random.Random(seed)
    while state.phase != phase:
        legal = [a for a in state.legal_actions() if a.verb != "irregular"]
        state.apply(legal[rng.randrange(len(legal))])
    return state, rng


@pytest.mark.parametrize(("game", "phase"), [("ecarte", "choice"), ("ecarte", "discard"), ("cinch", "auction"),
                                             ("cinch", "naming"), ("cinch", "rob"), ("euchre", "discard"),
                                             ("oh-hell", "bidding"), ("hearts", "discard")])
def test_a_failure_of_the_rules_in_a_drawn_decision_leaves_the_state(game: str, phase: str) -> None:
    state, rng = _at(game, phase, seed=11)
    before = _twin(rng)
    action = state.sample_action(rng)
    n = _check_every_failure(state, lambda s: s.apply(s.sample_action(_twin(before))))
    assert n >= 1, "the decision logs an event"
    reference = state.clone()
    state.apply(action)
    reference.apply(action.text)
    assert state.to_json() == reference.to_json() and state.events(None) == reference.events(None)


@pytest.mark.parametrize(("game", "phase"), [("ecarte", "choice"), ("ecarte", "discard"), ("cinch", "discard"),
                                             ("cinch", "auction"), ("cinch", "naming"), ("euchre", "naming"),
                                             ("spades", "bidding"), ("cinch", "rob"), ("euchre", "discard")])
def test_a_decision_drawn_without_listing_is_the_listed_one_and_applies_as_it(game: str, phase: str) -> None:
    state, rng = _at(game, phase)
    listed = state.clone()
    again = _twin(rng)
    action = state.sample_action(rng)
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


_RANDBELOW = interpreter.Game.of(tricklang.load("ecarte")).m["_randbelow"]


@given(seed=st.integers(0, 2**64), bound=st.integers(1, 10**18))
def test_the_generated_modules_randbelow_draws_as_randrange(seed: int, bound: int) -> None:
    draw = _RANDBELOW
    a, b = random.Random(seed), random.Random(seed)
    assert [draw(a, bound) for _ in range(3)] == [b.randrange(bound) for _ in range(3)]


# ------------------------------------------------------------------ playouts


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6), limit=st.one_of(st.none(), st.integers(0, 120)))
def test_playout_plays_what_the_random_step_plays(game: str, seed: int, limit: int | None) -> None:
    """Every bundled game, from some way into the first deal, a decision's legal actions read."""
    short = {"hearts": {"target": 3}, "euchre": {"target": 3}}  # short matches
    if limit is None and game.startswith("cinch"):  # long matches: played some way only
        limit = 150
    rules = tricklang.load(bundled_games()[game], options=short.get(game))
    state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
    for _ in range(seed % 7):
        state.legal_actions()
        state.apply(state.sample_action(rng))
    looped, rng2 = state.clone(), _twin(rng)
    taken = state.playout(rng, limit)
    steps = 0
    while not looped.is_terminal() and (limit is None or steps < limit):
        looped.apply(looped.sample_action(rng2))
        steps += 1
    assert taken == steps and state.is_terminal() == looped.is_terminal()
    assert state.to_json() == looped.to_json() and state.events(None) == looped.events(None)
    assert list(state.actors) == list(looped.actors) and rng.random() == rng2.random()
    assert state.playout(rng, 0) == 0


def test_trick_play_is_one_block_named_by_its_rule_line() -> None:
    source = interpreter.new_game(tricklang.load("ecarte"), seed=1).game.generated.source
    line = bundled_games()["ecarte"].read_text(encoding="utf-8").splitlines().index(
        "  tricks 5, elder leads first                                      [E41]") + 1
    assert f"# rule line {line}: trick play" in source


GUARDED = SHORT.replace("  deal 2 to each\n  deal deal_number to each\n", "  deal 3 to each\n").replace(
    "tricks 2, left of dealer leads first",
    "tricks 3, left of dealer leads first\n    must follow suit when 1 % (1 - tricks(dealer)) == 0")


@pytest.mark.parametrize("seed", range(6))
def test_a_rule_failing_in_a_playouts_run_of_cards_leaves_what_the_random_step_leaves(seed: int) -> None:
    """The guard fails (1 % 0) once the dealer has taken a trick, in the middle of the run:
    the cards played before stay played, the failing one is undone, as step by step."""
    rules = tricklang.loads(GUARDED, path="guarded.trick")
    state, stepped, rng = interpreter.new_game(rules, seed=seed), interpreter.new_game(rules, seed=seed), random.Random(seed)
    with pytest.raises(interpreter.RuleRuntimeError, match=r"^line 16: '%' by zero") as failed:
        stepped.playout(random.Random(seed))
    with pytest.raises(interpreter.RuleRuntimeError) as failed_step:
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
    assert str(failed.value) == str(failed_step.value)
    assert _kept(stepped) == _kept(state) and len(state.actions) >= 3  # a trick and a card at least


@pytest.mark.parametrize("seed", range(4))
def test_a_rule_failing_after_a_playouts_last_card_undoes_that_card_as_the_step_does(seed: int) -> None:
    """SHORT's second deal runs out of cards: the steps after the first deal's last card
    fail, so that card is undone with them."""
    rules = tricklang.loads(SHORT, path="short.trick")
    state, played, rng = interpreter.new_game(rules, seed=seed), interpreter.new_game(rules, seed=seed), random.Random(seed)
    with pytest.raises(interpreter.RuleRuntimeError, match=r"^line 15: the pack ran out while dealing"):
        played.playout(random.Random(seed))
    with pytest.raises(interpreter.RuleRuntimeError):
        while not state.is_terminal():
            state.apply(state.sample_action(rng))
    assert len(played.actions) == len(state.actions) == 3 and _seen(played) == _seen(state)
    assert played.deal_number == 1


@pytest.mark.parametrize("game", ["euchre", "ecarte"])
def test_a_rule_failing_anywhere_in_a_playout_keeps_the_actions_before_it(game: str) -> None:
    """A failure planted at each event of a playout's first actions in turn: the playout
    raises it, and the state is the one the random step reaches before the failing action."""
    rules = tricklang.load(game)
    start, rng = interpreter.new_game(rules, seed=6), random.Random(6)

    def playout(s: interpreter.State) -> int:
        return s.playout(_twin(rng), 6)

    logged: list[int] = []  # the hooked calls each of the six actions makes, stepping
    stepped, rng2 = start.clone(), _twin(rng)
    for _ in range(6):
        twin = _twin(rng2)
        logged.append(_calls_of(stepped, lambda s, twin=twin: s.apply(s.sample_action(twin)), plays=False))  # type: ignore[misc]
        stepped.apply(stepped.sample_action(rng2))

    def expect(trial: interpreter.State) -> None:
        reference, rng3 = start.clone(), _twin(rng)
        for _ in range(trial.action_count):
            reference.apply(reference.sample_action(rng3))
        assert _seen(trial) == _seen(reference)
        assert sum(logged[:trial.action_count]) < failing[0] <= sum(logged[:trial.action_count + 1])

    failing = [0]
    n = _calls_of(start, playout, plays=False)  # (a playout plays its cards written out, not by play_D)
    assert n == sum(logged) and n >= 3
    for at in range(1, n + 1):
        failing[0] = at
        trial = start.clone()
        with _failing(trial, at, Fault(0), plays=False), pytest.raises(interpreter.RuleRuntimeError):
            playout(trial)
        expect(trial)


def test_playout_of_a_deal_stops_where_the_next_one_begins() -> None:
    state, rng = interpreter.new_game(tricklang.load(bundled_games()["spades"]), seed=8), random.Random(8)
    looped, rng2 = state.clone(), random.Random(8)
    taken = state.playout(rng, deal=True)
    while looped.deal_number == 1:
        looped.apply(looped.sample_action(rng2))
    assert taken == len(looped.actions) > 52 and state.deal_number == 2 and state.to_json() == looped.to_json()
    assert state.playout(rng, 3, deal=True) == 3 and state.deal_number == 2


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


def test_a_playout_without_a_random_generator_is_refused_before_any_action() -> None:
    state, rng = _at("ecarte", "play")
    before = state.to_json()
    with pytest.raises(TypeError, match="playout\\(\\) takes a random.Random .*not NoneType"):
        state.playout(None)  # type: ignore[arg-type]
    assert state.to_json() == before and state.playout(rng, 1) == 1
