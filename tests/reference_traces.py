"""Random matches traced step by step, to compare the runtime with the recorded behaviour
of the runtime it replaced (the closure interpreter with its code writers).

A trace is what a match shows through the public API, at every step (the seat to act, the
phase, the legal actions) and at its end (the actions, the event log, the omniscient
observation, the error that stopped it, if any), drawn with ``sample_action`` from
``random.Random(seed)``. ``tests/runtime/reference_traces.json`` holds the SHA-256 of the
trace of every case below as the old runtime played it (with the digest of the rule text
it played); ``tests/make_reference_traces.py`` writes that file, and needs the old runtime
to do so. ``tests/runtime/test_codegen.py`` traces the same cases and compares.

Only the public API both runtimes share is used here (``new_game``, ``legal_actions``,
``sample_action``, ``apply``, ``events``, ``observation``, ``actions``).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import textwrap
from dataclasses import dataclass, field
from typing import Any

import interpreter
import tricklang

# A small two-player game (six cards, three deals at most): helpers.SHORT, written out
# again here so that this module imports nothing the old runtime lacks.
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

# A loop of one deal round by round: three rounds in the first deal, two, then one.
LOOPED = SHORT.replace("  deal 2 to each\n  deal deal_number to each\n",
                       "  repeat at most 9 times while count(hand of dealer) < 4 - deal_number:\n    deal 1 to each\n")

# Drawing from the stock, then from one's own discards (matching a pattern, or not).
DRAWS = textwrap.dedent("""
    tricklang 1
    game "Draws"
    players 3
    deck
      suits spades black, hearts red
      ranks A K Q J 10 9
    zone hand: per player, owner
    zone stock: shared, hidden, pack
    zone discards: per player, public
    zone won: per player, public
    match
      at most 4 deals
    deal
      deal 3 to each
      for each player:
        player discards 1..3 to discards of player
        player draws to 4 from stock, then from discards of player matching hearts
      for each player:
        player draws 1 from stock, then from discards of player
      tricks 4, left of dealer leads first
    """)

# Turning up deal_number cards and taking the trump from them (the third deal runs out).
TURNED = SHORT.replace("  deal deal_number to each\n", "  turn up deal_number to turnup\n  trump is suit of turnup\n") \
    .replace("zone won:", "zone turnup: shared, public\nzone won:")

# The count of tricks is an expression: 2 % 0 in the second deal.
COUNTED = SHORT.replace("  deal deal_number to each\n", "").replace(
    "tricks 2, left of dealer leads first", "tricks 2 + 2 % (2 - deal_number), left of dealer leads first")

# An obligation's guard fails (1 % 0) once the dealer has taken a trick.
GUARDED = SHORT.replace("  deal 2 to each\n  deal deal_number to each\n", "  deal 3 to each\n").replace(
    "tricks 2, left of dealer leads first",
    "tricks 3, left of dealer leads first\n    must follow suit when 1 % (1 - tricks(dealer)) == 0")

# Setting the maker and the bid (the second deal runs out of cards).
CONTRACT = SHORT.replace("  deal 2 to each\n", "  set maker = dealer  [L1]\n  set bid = 3\n  deal 2 to each\n")


def many_tests(count: int) -> str:
    """A deal with ``count`` tests in a row between two decisions: the dealer scores the
    sum of the i < count with i < 100 * deal_number."""
    head = SHORT.replace('game "Short"', 'game "Chain"').split("  deal 2 to each\n")[0] + (
        "  deal 3 to each\n  let x = deal_number * 100\n  let y = 0\n")
    tests = "".join(f"  if x > {i}:\n    set y = y + {i}\n" for i in range(count))
    return head + tests + "  tricks 3, left of dealer leads first\n  dealer scores y \"sum\"\n"


def nested_tests(depth: int) -> str:
    """A deal with ``depth`` tests nested in one another (each one looks into a zone): the
    dealer scores 1 when an ace is left in the stock."""
    head = SHORT.replace('game "Short"', 'game "Nest"').split("  deal deal_number to each\n")[0] + "  let y = 0\n"
    tests = "".join("  " * (i + 1) + "if stock has A:\n" for i in range(depth))
    return head + tests + "  " * (depth + 1) + "set y = 1\n  tricks 2, left of dealer leads first\n  dealer scores y \"y\"\n"


def whist_beating() -> str:
    """Whist with `must beat if able` after `must follow suit` (four seats: the card to beat
    is the strongest on the table, not the one led)."""
    from tricklang.catalog import bundled_games

    text = bundled_games()["whist"].read_text(encoding="utf-8")
    return re.sub(r"^( *)must follow suit.*$", r"\g<0>\n\1must beat if able", text, count=1, flags=re.M)


PITCH_NOTE_RECORDED = """\
# - [AP3] Some play that the dealer may take the bid at the highest bid so far, and
#   some allow a bid of 1 or a "smudge" (4 with all six tricks, winning the game).
#   The auction construct always wants a higher bid, so the dealer's privilege is
#   not offered; the smudge is not encoded either. The lowest bid is an option.
"""


def pitch_as_recorded() -> str:
    """Auction Pitch as the old runtime played it, without the dealer's privilege (`dealer may hold`,
    which it could not play): the bundled text without the lines of ``dealer_privilege`` and with its
    note as it was (tests/runtime/test_auctions_runtime.py shows the bundled file with the option off
    playing these traces)."""
    from tricklang.catalog import bundled_games

    text = bundled_games()["auction-pitch"].read_text(encoding="utf-8")
    text = "".join(line for line in text.splitlines(keepends=True) if "dealer_privilege" not in line)
    start = text.index("# - [AP3] Some play")
    end = text.index("\n\n", start) + 1
    return text[:start] + PITCH_NOTE_RECORDED + text[end:]


@dataclass(frozen=True)
class Case:
    """A match to trace: a bundled game by name or a rule text, options, mode, seeds."""

    game: str = ""
    text: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    mode: str = "strict"
    seeds: tuple[int, ...] = (1,)
    max_actions: int = 250

    def rules(self) -> tricklang.Ruleset:
        if self.game:
            return tricklang.load(self.game, options=self.options or None)
        return tricklang.loads(self.text, path="case.trick", options=self.options or None)


BUNDLED = ("auction-pitch", "black-maria", "cinch", "cinch-cutthroat", "cinch-widow", "ecarte", "euchre", "hearts",
           "oh-hell", "oh-hell-3", "oh-hell-5", "oh-hell-6", "oh-hell-7", "omnibus-hearts", "spades", "whist")


def cases() -> dict[str, Case]:
    """Every traced case, by name."""
    out = {game: Case(game=game, seeds=(1, 2)) for game in BUNDLED}
    out["auction-pitch"] = Case(text=pitch_as_recorded(), seeds=(1, 2))
    out.update({
        "ecarte-table": Case(game="ecarte", mode="table", max_actions=200),
        "cinch-table": Case(game="cinch", mode="table", max_actions=200),
        "cinch-moves": Case(game="cinch", seeds=(3, 4), max_actions=300),
        "ecarte-no-trumping": Case(game="ecarte", options={"must_trump_when_void": False}, seeds=(1, 2, 3)),
        "looped": Case(text=LOOPED, seeds=(1, 2), max_actions=60),
        "draws": Case(text=DRAWS, seeds=tuple(range(6)), max_actions=200),
        "turned": Case(text=TURNED, seeds=(1, 2), max_actions=60),
        "counted": Case(text=COUNTED, seeds=(1, 2)),
        "guarded": Case(text=GUARDED, seeds=tuple(range(6))),
        "contract": Case(text=CONTRACT, seeds=(1, 2)),
        "chain": Case(text=many_tests(400), seeds=(5,), max_actions=100),
        "nested": Case(text=nested_tests(36), seeds=(1, 2), max_actions=100),
        "whist-beating": Case(text=whist_beating(), seeds=(1, 2, 3), max_actions=120),
    })
    return out


def trace(case: Case, seed: int) -> dict[str, Any]:
    """A random match of ``case`` from ``seed``: every step, then what it ends with."""
    state = interpreter.new_game(case.rules(), seed=seed, mode=case.mode)
    rng = random.Random(seed)
    steps: list[Any] = []
    error = None
    try:
        while not state.is_terminal() and len(steps) < case.max_actions:
            legal = state.legal_actions()
            steps.append([state.current_player, state.phase, legal.texts()[:200], len(legal)])
            state.apply(state.sample_action(rng))
    except (interpreter.RuleRuntimeError, interpreter.GameLimitError) as err:
        error = f"{type(err).__name__}: {err}"
    try:
        seen: Any = state.observation(None)
    except (interpreter.RuleRuntimeError, interpreter.GameLimitError) as err:  # listing the legal actions fails
        seen = f"{type(err).__name__}: {err}"
    return {"steps": steps, "error": error, "actions": list(state.actions), "events": state.events(),
            "observation": seen}


def digest(value: Any) -> str:
    """SHA-256 of a trace's canonical JSON."""
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()


def record(case: Case) -> dict[str, Any]:
    """What the fixture keeps of a case: the rule text's digest, and per seed the trace's
    digest with a few readable facts (how many actions, the error that stopped it)."""
    traces = {}
    for seed in case.seeds:
        t = trace(case, seed)
        traces[str(seed)] = {"digest": digest(t), "actions": len(t["actions"]), "error": t["error"]}
    return {"rules": case.rules().digest, "traces": traces}
