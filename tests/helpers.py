"""Helpers shared by the game tests: arranging a pack for a scripted deal, reading the
event log, playing a deal out, and the players of the property checks.

Imported by the test modules as ``helpers`` (tests/ is on the path through its conftest.py).
"""

from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import tricklang
from interpreter import State
from interpreter.players import HeuristicAgent, RandomAgent
from interpreter.state.actions import Action

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load_example(name: str) -> tricklang.Ruleset:
    """A rule file of examples/."""
    return tricklang.load(EXAMPLES / name)


RANKS52 = "A K Q J 10 9 8 7 6 5 4 3 2".split()
ALL52 = [r + s for s in "SHDC" for r in RANKS52]
RANKS24 = "A K Q J 10 9".split()
ALL24 = [r + s for s in "SHDC" for r in RANKS24]
# A small two-player game (six cards, three deals at most) that tests vary with str.replace.
SHORT = textwrap.dedent("""
    tricklang 1
    game "Short"
    players 2
    deck
      suits spades black, hearts red
      ranks A K Q
    zone hand: per player, owner
    zone stock: shared, hidden, pack
    zone won: per player, public
    match
      at most 3 deals
    deal
      deal 2 to each
      deal deal_number to each
      tricks 2, left of dealer leads first
    """)


SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
SIDE_OF = [0, 1, 0, 1]


# ---------------------------------------------------------------- arranging a pack and reading the log


def letter(state: State) -> str:
    assert state.trump is not None
    return state.trump[0].upper()


def round_robin(hands: dict[int, list[str]], dealer: int, pack: list[str] = ALL52) -> list[str]:
    """The pack in dealing order for a deal of one card at a time from the dealer's
    left [W2, S2]: each seat's list is its cards in the order it receives them."""
    size = len(hands[0])
    order = [hands[(dealer + 1 + i) % 4][r] for r in range(size) for i in range(4)]
    assert sorted(order) == sorted(pack), "each card exactly once"
    return order


def euchre_deck(hands: dict[int, list[str]], dealer: int, upcard: str) -> list[str]:
    """Three cards to each from the dealer's left, then two [U3], then the upcard;
    the kitty is what is left."""
    order = [c for i in range(4) for c in hands[(dealer + 1 + i) % 4][:3]]
    order += [c for i in range(4) for c in hands[(dealer + 1 + i) % 4][3:5]]
    order.append(upcard)
    rest = [c for c in ALL24 if c not in order]
    assert len(order) == 21 and len(rest) == 3
    return order + rest


def deal_events(state: State, deal: int = 1) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    current = 0
    for e in state.events(None):
        if e["type"] == "deal":
            current = e["deal"]
        elif current == deal:
            out.append(e)
    return out


def scores_of(state: State, deal: int) -> list[tuple[int, int, str]]:
    return [(e["side"], e["points"], e["label"]) for e in deal_events(state, deal) if e["type"] == "score"]


def legal_cards(state: State) -> list[str]:
    return [a.args[0] for a in state.legal_actions() if a.verb == "play"]


def tricks_by_seat(events: Iterable[dict[str, Any]]) -> Counter[int]:
    return Counter(e["winner"] for e in events if e["type"] == "trick")


def cards_everywhere(state: State) -> list[str]:
    """Every card of every zone, then the cards on the table in the trick in progress."""
    cards = [c for name, owner in state.game.zones for c in state.zone(name, owner)]
    return cards + [c for _, c in state.current_trick]


def zone_index(state: State, name: str, owner: int | None = None) -> int:
    """The index of a zone instance among ``state.game.zones``."""
    return state.game.zones.index((name, owner))


def zone_cards(state: State, z: int) -> list[int]:
    """The cards (indices) of zone instance z, bottom first (test helper over the core)."""
    cards: list[int] = state.game.m["zone_cards"](state._c, z)
    return cards


def set_zones(state: State, zones: dict[int, list[int]]) -> None:
    """Replace the cards of zone instances (a hypothetical position, for tests); the
    decision pending is asked again."""
    for z, cards in zones.items():
        state.game.m["set_zone"](state._c, z, cards)
    state._refresh()


def set_scores(state: State, scores: list[int]) -> None:
    """Set the match score (a scripted position, for tests of the match's end)."""
    state.game.m["set_scores"](state._c, scores)


def all_cards_conserved(state: State) -> bool:
    """Every card of the pack is in exactly one zone or on the table [W1, U1, S1]."""
    cards = [c for name, owner in state.game.zones for c in state.zone(name, owner)]
    cards += [c for _, c in state.current_trick]
    return sorted(cards) == sorted(state.cards)


# Card strength for the scripted players: (is trump, rank) with Euchre's bowers.


def effective_suit(card: str, trump: str, bowers: bool) -> str:
    if bowers and card == "J" + SAME_COLOUR[trump]:
        return trump
    return card[-1]


def power(card: str, trump: str, led: str | None, bowers: bool = False) -> int:
    ranks = RANKS24 if bowers else RANKS52
    suit = effective_suit(card, trump, bowers)
    strength = len(ranks) - ranks.index(card[:-1])
    if bowers and suit == trump:
        strength = {"J" + trump: 20, "J" + SAME_COLOUR[trump]: 19}.get(card, strength)
    if suit == trump:
        return 100 + strength
    if led is None or suit == led:
        return strength
    return 0


def play_out(state: State, strong: set[int], *, bowers: bool = False, deals: int = 1) -> None:
    """Play the card play of the current deal(s): the seats in `strong` play their
    strongest legal card, the others their weakest."""
    start = state.deal_number
    while not state.is_terminal() and state.deal_number < start + deals:
        seat = state.current_player
        assert seat is not None
        plays = [a for a in state.legal_actions() if a.verb == "play"]
        assert plays, f"expected card play, got {state.legal_actions()}"
        led = None
        if state.current_trick:
            first = state.current_trick[0][1]
            led = effective_suit(first, letter(state), bowers)
        powers = [power(a.args[0], letter(state), led, bowers) for a in plays]
        pick = max if seat in strong else min
        state.apply(plays[pick(range(len(plays)), key=powers.__getitem__)])


def deals_of(state: State) -> list[tuple[int, list[dict[str, Any]], list[int]]]:
    """(deal number, its events, the scores when it began) for every deal played."""
    out = []
    scores = [0] * len(state.sides)
    number = 0
    current: list[dict[str, Any]] = []
    begun = list(scores)
    for e in state.events(None):
        if e["type"] == "deal":
            if number:
                out.append((number, current, begun))
            number, current, begun = e["deal"], [], list(scores)
        else:
            current.append(e)
            if e["type"] == "score":
                scores = list(e["scores"])
    out.append((number, current, begun))
    return out


def check_conserved_play(state: State, agents: list[Any], max_actions: int = 200_000) -> None:
    for _ in range(max_actions):
        if state.is_terminal():
            return
        state.apply(agents[state.current_player](state))  # type: ignore[index]
        assert all_cards_conserved(state)
    raise AssertionError("the match did not end")


def players(kind: str, seed: int) -> list[Any]:
    if kind == "random":
        return [RandomAgent(seed * 10 + s) for s in range(4)]
    if kind == "heuristic":
        return [HeuristicAgent(seed * 10 + s) for s in range(4)]
    return [HeuristicAgent(seed * 10 + s) if s % 2 == 0 else RandomAgent(seed * 10 + s) for s in range(4)]


def check_winner(state: State, target: int, max_deals: int) -> None:
    outcome = state.outcome()
    assert outcome is not None and outcome.winner is not None, "the match ended without a winner"
    assert outcome.deals <= max_deals
    assert state.scores[outcome.winner] >= target
    assert state.scores[outcome.winner] > state.scores[1 - outcome.winner]


def suit(letter: str) -> list[str]:
    return [r + letter for r in RANKS52]


def one_at_a_time(hands: dict[int, list[str]], dealer: int, extra: Iterable[str] = ()) -> list[str]:
    """The pack in dealing order when cards are dealt singly from the dealer's left,
    followed by `extra` (the next cards of the pack, e.g. a turn-up) and the rest."""
    n = len(hands)
    size = len(hands[0])
    order = [hands[(dealer + 1 + i) % n][r] for r in range(size) for i in range(n)]
    order += list(extra)
    return order + [c for c in ALL52 if c not in order]


def in_packets(hands: dict[int, list[str]], dealer: int, packet: int = 3) -> list[str]:
    """The pack in dealing order for `deal 3 then 3 to each` from the dealer's left."""
    n = len(hands)
    size = len(hands[0])
    order = [c for p in range(0, size, packet) for i in range(n) for c in hands[(dealer + 1 + i) % n][p: p + packet]]
    return order + [c for c in ALL52 if c not in order]


def plays(state: State, *cards: str) -> None:
    for card in cards:
        state.apply(f"play {card}")




def play_deal_out(state: State, deal: int | None = None) -> None:
    """Play the current deal to its end, always taking the first legal action."""
    deal = deal or state.deal_number
    while not state.is_terminal() and state.deal_number == deal:
        state.apply(state.legal_actions()[0])




def scores_in_deal(state: State, deal: int) -> list[tuple[int, int, str]]:
    return [(int(str(e["side"])), int(str(e["points"])), str(e["label"]))
            for e in deal_events(state, deal) if e["type"] == "score"]


def penalty_by_tricks(state: State, deal: int, value: Callable[[str], int]) -> dict[int, int]:
    """Each seat's penalty points, counted independently from the trick events."""
    out: dict[int, int] = {}
    for e in deal_events(state, deal):
        if e["type"] == "trick":
            winner = int(str(e["winner"]))
            cards = e["cards"]
            assert isinstance(cards, list)
            out[winner] = out.get(winner, 0) + sum(value(c) for c in cards)
    return out




class Cautious:
    """Passes in every auction (so the dealer pitches at the lowest bid) and plays
    like the agent it wraps: random bidders in Pitch are set back without end."""

    def __init__(self, base: Callable[[State], Action]) -> None:
        self.base = base

    def __call__(self, state: State) -> Action:
        if state.phase == "auction":
            return state.legal_actions()[0]
        return self.base(state)


# ---------------------------------------------------------------- games with irregularities (table mode)


def legal(state: State) -> list[str]:
    """The texts of the legal actions."""
    return state.legal_actions().texts()


def regular(state: State) -> list[str]:
    """The legal actions that are not irregularities."""
    return [a for a in legal(state) if not a.startswith("irregular ")]


def offered(state: State) -> set[str]:
    """The irregularities offered now, as 'NAME SEAT' (whatever their arguments)."""
    return {" ".join(a.split()[1:3]) for a in legal(state) if a.startswith("irregular ")}


def offered_with_arguments(state: State, name: str) -> list[str]:
    """The irregular actions named ``name`` offered now, as 'SEAT ARG...', in their order."""
    return [a.split(" ", 2)[2] for a in legal(state) if a.startswith(f"irregular {name} ")]


def mark(state: State) -> int:
    """A bookmark in the event log."""
    return len(state.events(None))


def scores_since(state: State, since: int) -> list[tuple[int, int, str]]:
    """(side, points, label) of every score event after the bookmark, up to the end
    of that deal."""
    out = []
    for e in state.events(None)[since:]:
        if e["type"] in ("deal_end", "redeal"):
            break
        if e["type"] == "score":
            out.append((e["side"], e["points"], e["label"]))
    return out


def tricks_of_deal(state: State, deal: int) -> list[dict[str, Any]]:
    """The trick events of one deal."""
    return [e for e in deal_events(state, deal) if e["type"] == "trick"]


def decision(state: State) -> str:
    """What is being decided, told by the verbs of the legal actions (not by the
    interpreter's phase names): auction, naming, discard, keep, rob or play."""
    verbs = {a.verb for a in state.legal_actions()}
    if verbs and verbs <= {"bid", "pass"}:
        return "auction"
    if verbs == {"name"}:
        return "naming"
    return "/".join(sorted(verbs)) or "none"


# A rule file whose every action is a deal, and one of whose choices fails at run time
# (a variable read before it was given a value): rollbacks after many deals.
MANY_DEALS = """
    tricklang 1
    game "Unset, many times"
    players 2
    deck
      suits spades black, hearts red
      ranks A K Q J
    zone hand: per player, owner
    zone stock: shared, hidden, pack
    match
      game to 1000, after the deal
    deal
      deal 2 to each
      dealer chooses:
        fine:
          let x = 1
        broken:
          pass
      dealer scores x
"""


# ---------------------------------------------------------------- native builds against CPython


def seeded_matches(rules: tricklang.Ruleset, seeds: Iterable[int], *, playout: bool = True,
                   step: bool = False) -> list[tuple[str, Any]]:
    """Each seed's whole match as (saved state, event log): played out inside the module
    (``playout``) and/or action by action through the State (``step``), with random players
    seeded by the seed."""
    import random

    import interpreter

    out: list[tuple[str, Any]] = []
    for seed in seeds:
        if playout:
            state = interpreter.new_game(rules, seed=seed)
            state.playout(random.Random(seed))
            out.append((state.to_json(), state.events(None)))
        if step:
            state = interpreter.new_game(rules, seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply(state.sample_action(rng))
            out.append((state.to_json(), state.events(None)))
    return out


def assert_native_plays_as_cpython(rules: tricklang.Ruleset, seeds: Iterable[int], *, playout: bool = True,
                                   step: bool = False) -> list[tuple[str, Any]]:
    """Play the seeds in CPython, build the rules natively, play them again and compare.

    Run it under the ``isolated`` fixture (tests/conftest.py), so that the rest of the suite
    keeps CPython. Returns the CPython matches for further checks. Raises AssertionError if
    the native build is not in use or plays any match differently."""
    from interpreter import native
    from interpreter.state.compiled import module_of

    seeds = list(seeds)
    python = seeded_matches(rules, seeds, playout=playout, step=step)
    native.accelerate(rules)
    assert type(module_of(rules)[1]["advance"]).__name__ == "builtin_function_or_method"
    assert seeded_matches(rules, seeds, playout=playout, step=step) == python
    return python


def assert_id_step_is_the_step(rules: tricklang.Ruleset, seeds: Iterable[int], most: int = 400) -> int:
    """Play each seed by the integer-id step (``legal_action_ids``, a random id,
    ``apply_id``) beside the same match played by the general path (the ids worked out
    from ``legal_actions()``, the action of the id drawn applied by ``apply``), at most
    ``most`` actions a match. Raises AssertionError if the ids listed, the actions taken
    or the final states differ. Returns the decisions compared."""
    import random

    import interpreter
    from interpreter.state.spaces import legal_ids

    compared = 0
    for seed in seeds:
        by_id = interpreter.new_game(rules, seed=seed)
        general = interpreter.new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not by_id.is_terminal() and by_id.action_count < most:
            ids = by_id.legal_action_ids()
            pairs = legal_ids(general)
            assert ids == [i for i, _ in pairs], (seed, by_id.action_count)
            k = rng.randrange(len(ids))
            by_id.apply_id(ids[k])
            general.apply(pairs[k][1].text)
            compared += 1
        assert general.is_terminal() == by_id.is_terminal()
        assert by_id.actions == general.actions and by_id.to_json() == general.to_json()
    return compared
