"""One checked run: plays a match of any rule file and checks, at every step, the
invariants listed in :mod:`interpreter.harness` (the run-time checks)."""

from __future__ import annotations

import json
import random
import time
import traceback
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any, Protocol, cast

from tricklang import Ruleset
from tricklang.bounds import derive_bounds

from ..codegen.module import EVERY_EVENT
from ..errors import IllegalActionError, InvalidActionError
from ..state.actions import Action
from ..state.events import render
from ..state.replay import Recorder
from ..state.state import Game, State, new_game
from .chance import resolve_chance
from .hidden import check_hidden_choice
from .report import Report, StopRunError, Violation

Core = Any  # a generated module's core (read through the module's accessors)

PROBES = ("nonsense-verb", "empty", "unknown-card", "foreign-card", "bare-verb", "none-arg", "wrong-verb-args",
          "stale", "irregular-strict", "huge-bid")
"""The kinds of illegal action the harness tries (see ``skip_probes``)."""

_TEXT_KEYS = frozenset({"label", "reason", "laws", "type", "bid"})
"""Fields that name no card: free text, and a bid (Bridge's `2C` is a bid, not the two of clubs)."""


class DataLike(Protocol):
    """A hypothesis ``st.data()`` object (anything with a compatible ``draw``)."""

    def draw(self, strategy: Any, label: Any = None) -> Any: ...


Chooser = Callable[[State], "Action | str | int"]
"""Picks the next action: an :class:`Action`, its text, or an index into the legal actions."""

Choices = Chooser | DataLike | Sequence[int] | Sequence[str] | None


class _EventHook(list[Any]):
    """The event log of the state's recorder, checking every event as it is logged (see
    ``event-leak``): the recorder replays the match, so the core it holds is the game at
    the moment each event is emitted."""

    def __init__(self, run: Run, core: Core) -> None:
        super().__init__()
        self.run = run
        self.core = core

    def append(self, entry: Any) -> None:
        super().append(entry)
        if self.run.deep:
            self.run.on_event(self.core, entry, len(self) - 1)


class Run:
    """One checked match (built by :func:`~interpreter.harness.check_invariants`)."""

    def __init__(self, ruleset: Ruleset, *, seed: int, options: Mapping[str, Any] | None, mode: str,
                 dealer: int | None, deck: Sequence[str] | None, choices: Choices, max_actions: int,
                 finish: bool, finish_limit: int, json_every: int, apply_limit: int, stop_on_first: bool,
                 skip: Collection[str], skip_probes: Collection[str], selections: str = "all",
                 chance: str = "automatic") -> None:
        self.ruleset = ruleset.with_options(options)
        self.options = dict(options or {})
        self.seed = seed
        self.mode = mode
        self.selections = selections
        self.chance = chance
        self.dealer = dealer
        self.deck = deck
        self.choices = choices
        self.max_actions = max_actions
        self.finish = finish
        self.finish_limit = finish_limit
        self.json_every = max(1, json_every)
        self.apply_limit = apply_limit
        self.stop_on_first = stop_on_first
        self.skip = set(skip)
        self.skip_probes = set(skip_probes)
        self.game: Game = Game.of(self.ruleset)
        self.table = mode == "table"
        self.bounds = derive_bounds(self.ruleset, table=self.table)
        self.rng = random.Random(f"harness/{seed}")
        rules = self.ruleset.rules
        assert rules.players is not None
        self.n = rules.players.count
        self.sides = [list(t) for t in rules.players.teams] if rules.players.teams else [[p] for p in range(self.n)]
        self.all_mask = (1 << self.n) - 1
        self.codes = self.game.tables.codes
        self.code_set = frozenset(self.codes)
        self.report = Report(path=self.ruleset.path, seed=seed, options=self.options, mode=mode, dealer=dealer,
                             bounds=self.bounds, source=self.ruleset.source, selections=selections,
                             chance=chance)
        self.deep = True
        self.state: State | None = None
        self.knowledge: list[set[int]] = [set() for _ in range(self.n)]
        self.oracle = self._layout()
        self.actions_in_deal = 0
        self.irregular_actions = 0
        self.events_seen = 0
        self.previous_legal: list[str] = []
        self.chosen_clone: State | None = None
        self.in_flight: tuple[int, str] | None = None  # (actions before it, text) of the action being applied

    # -------------------------------------------------------- reporting
    def fail(self, code: str, message: str) -> None:
        if code in self.skip:
            return
        actions = list(self.state.actions) if self.state is not None else []
        if self.in_flight is not None and len(actions) == self.in_flight[0]:
            actions.append(self.in_flight[1])  # found while this action was being carried out
        self.report.violations.append(Violation(code, message, len(actions), tuple(actions)))
        if self.stop_on_first or len(self.report.violations) >= 50:
            raise StopRunError

    def guarded(self, what: str, fn: Callable[[], object]) -> None:
        try:
            fn()
        except StopRunError:
            raise
        except Exception as err:  # noqa: BLE001 - any crash in a check is itself a finding
            self.fail("exception", f"{what} raised {type(err).__name__}: {err}\n{_short_tb(err)}")

    # -------------------------------------------------------- visibility oracle
    def _layout(self) -> list[tuple[str, str, int, str]]:
        """Zone instances (name, kind, owner, visibility) as the rule file declares them."""
        out: list[tuple[str, str, int, str]] = []
        for z in self.ruleset.rules.zones:
            owners = range(self.n) if z.owner == "player" else range(len(self.sides)) if z.owner == "side" else [-1]
            out.extend((z.name, z.owner, o, z.visibility) for o in owners)
        return out

    def oracle_mask(self, core: Core, z: int) -> int:
        if self.game.m["exposed"](core, z):
            return self.all_mask
        _, kind, owner, vis = self.oracle[z]
        if vis == "public":
            return self.all_mask
        shown = self.game.m.get("shown_to")  # the seats 'expose ... to' showed it to (a module that has it)
        also: int = shown(core, z) if shown is not None else 0
        if vis == "owner" and kind == "player":
            return 1 << owner | also
        if vis == "owner" and kind == "side":
            return sum(1 << p for p in self.sides[owner]) | also
        return also

    def zones(self, core: Core) -> list[list[int]]:
        """The cards of every zone instance of a core."""
        cards = self.game.m["zone_cards"]
        return [cards(core, z) for z in range(len(self.oracle))]

    def trick_cards(self, core: Core) -> list[int]:
        return [card for _, card in self.game.m["trick"](core)]

    def select_source(self, state: State) -> tuple[int, int] | None:
        """(actor, zone) when the actor is choosing cards from a zone: the actor sees it."""
        core = state._c
        if core.terminal or self.game.dps[core.dp].kind != "select":
            return None
        return core.actor, core.sel_src

    def visible(self, core: Core, p: int, source: tuple[int, int] | None = None) -> set[int]:
        seen: set[int] = set(self.trick_cards(core))
        for z, cards in enumerate(self.zones(core)):
            if self.oracle_mask(core, z) >> p & 1 or (source is not None and source == (p, z)):
                seen.update(cards)
        return seen

    # -------------------------------------------------------- events (checked as emitted)
    def on_event(self, core: Core, entry: Any, i: int) -> None:
        full, public, mask = render(self.game, entry)
        index = self.game.tables.index
        cp = self.game.tables.copies
        if full.get("type") == "deal":
            self.knowledge = [set() for _ in range(self.n)]
        if full.get("type") in ("meld", "shown"):  # melded and shown cards are shown to every seat
            for known in self.knowledge:
                known |= {index[c] for c in full["cards"]}
        if full.get("type") == "irregularity" and full.get("args"):
            # The referee names an irregularity's card argument aloud: every seat knows it.
            for known in self.knowledge:
                known |= {index[c] for c in _card_strings(full["args"], self.code_set)}
        for p in range(self.n):
            self.knowledge[p] |= self.visible(core, p)
            view = full if public is None or mask >> p & 1 else public
            if full.get("type") == "exposed" and view is full:  # a rule shows these cards to this seat ('expose')
                self.knowledge[p] |= {index[c] for c in full["cards"]}
            named = {index[c] for c in _card_strings(view, self.code_set)}
            leaked = named - self.knowledge[p]
            if leaked and cp > 1:  # equal cards are named by face: a face seen is a face known
                faces = {k // cp for k in self.knowledge[p]}
                leaked = {c for c in leaked if c // cp not in faces}
            if leaked:
                self.fail("event-leak", f"event #{i} {_short(view)} shows seat {p} "
                          f"{' '.join(sorted(self.codes[c] for c in leaked))}, which it has never seen this deal")

    # -------------------------------------------------------- the run
    def run(self) -> Report:
        started = time.perf_counter()
        try:
            self._run()
        except StopRunError:
            pass
        finally:
            self.report.seconds = time.perf_counter() - started
            if self.state is not None:
                self.report.actions = self.state.actions
        return self.report

    def _run(self) -> None:
        instances = self.game.layout.instances
        if len(instances) != len(self.oracle) or any(
                (zi.zone.name, zi.zone.kind, zi.owner) != o[:3] for zi, o in zip(instances, self.oracle, strict=False)):
            self.fail("layout", "the interpreter's zone instances differ from the rule file's zone declarations")
        try:
            state = new_game(self.ruleset, seed=self.seed, deck=self.deck, dealer=self.dealer, mode=self.mode,
                             selections=self.selections, chance=self.chance)
        except StopRunError:
            raise
        except Exception as err:  # noqa: BLE001
            self.fail("exception", f"new_game raised {type(err).__name__}: {err}")
            return
        self.state = self.report.state = state
        state._rec = Recorder(state._fresh(rec=EVERY_EVENT, log=partial(_EventHook, self)))  # events checked as logged
        self.report.actions = state.actions
        step = 0
        chance_rng = random.Random(f"harness/{self.seed}/chance")
        while True:
            self.deep = step < self.max_actions
            if self.chance != "automatic":
                self.guarded("the chance checks", partial(resolve_chance, self, state, chance_rng))
            self.check_state(state, step)
            self.report.steps = step + 1
            if self.deep:
                self.report.deep_steps = step + 1
            if state.is_terminal():
                self.report.terminal = True
                return
            if step >= self.max_actions and (not self.finish or step >= self.finish_limit):
                return
            action = self.choose(state, step)
            if action is None:
                return
            if self.deep:
                self.guarded("the illegal-action probes", lambda: self.probe_illegal(state))
                self.guarded("applying legal actions on clones", partial(self.apply_on_clones, state, action))
            self.previous_legal = state.legal_actions().texts() if self.deep else []
            self.apply(state, action)
            if self.deep:
                self.guarded("the determinism check", lambda: self.after_apply(state))
            step += 1

    def choose(self, state: State, step: int) -> Action | None:
        legal = state.legal_actions()
        if not legal:
            return None  # reported by the terminal check
        choices = self.choices
        pick: Action | str | int
        if choices is None:
            pick = self.rng.randrange(len(legal))
        elif hasattr(choices, "draw"):
            from hypothesis import strategies as st

            data = cast(DataLike, choices)
            pick = data.draw(st.integers(0, len(legal) - 1), label=f"action {step + 1}")
        elif callable(choices):
            pick = choices(state)
        else:
            seq = cast(Sequence[int | str], choices)
            if step >= len(seq):
                return None
            pick = seq[step]
        if isinstance(pick, Action):
            return pick
        if isinstance(pick, int):
            return legal[pick % len(legal)]
        try:
            text = state._canonical(pick)
        except InvalidActionError as err:
            self.fail("replay", f"the chosen action {pick!r} cannot be read: {err}")
            return None
        for a in legal:
            if a.text == text:
                return a
        self.fail("replay", f"the chosen action {pick!r} is not legal here ({state.why_illegal(pick)})")
        return None

    def apply(self, state: State, action: Action) -> None:
        before_deal, before_actions = state.deal_number, len(state.actions)
        self.in_flight = (len(state.actions), action.text)
        try:
            state.apply(action)
        except StopRunError:  # an event leaked while the action was carried out
            raise
        except Exception as err:  # noqa: BLE001
            self.fail("legal-apply", f"applying the legal action {action.text!r} raised {type(err).__name__}: {err}")
            return
        finally:
            self.in_flight = None
        if action.verb == "irregular":
            self.irregular_actions += 1
        if len(state.actions) == before_actions:
            return  # one card of a selection (one-card mode): not yet a decision of the game
        self.actions_in_deal += 1
        per_deal = self.bounds.actions_per_deal
        if per_deal is not None and self.actions_in_deal > per_deal and not self.table:
            self.fail("match-length", f"{self.actions_in_deal} decisions in deal {before_deal}; "
                      f"the rule file allows at most {per_deal}")
        if state.deal_number != before_deal:
            self.actions_in_deal = 0

    # -------------------------------------------------------- per-state checks
    def check_state(self, state: State, step: int) -> None:
        self.guarded("the basic checks", lambda: self.check_basic(state))
        if self.deep:
            self.guarded("the legal-action checks", lambda: self.check_legal(state))
            self.guarded("the visibility checks", lambda: self.check_visibility(state))
            self.guarded("the observation checks", lambda: self.check_observations(state))
            if (step + 1) % self.json_every == 0 or step + 1 >= self.max_actions or state.is_terminal():
                self.guarded("the JSON check", lambda: self.check_json(state))

    def check_basic(self, state: State) -> None:
        core, b = state._c, self.bounds
        legal = state.legal_actions()
        terminal = state.is_terminal()
        if terminal != (len(legal) == 0):
            self.fail("terminal", f"is_terminal() is {terminal} but there are {len(legal)} legal action(s)")
        player = state.current_player
        if terminal != (player is None):
            self.fail("terminal", f"is_terminal() is {terminal} but current_player is {player!r}")
        if player is not None and not (isinstance(player, int) and 0 <= player < self.n):
            self.fail("terminal", f"current_player {player!r} is not a seat")
        # every card in exactly one place
        zones, trick = self.zones(core), self.trick_cards(core)
        everything = [c for z in zones for c in z] + trick
        if sorted(everything) != list(range(b.deck_size)):
            dup = sorted(c for c, k in Counter(everything).items() if k > 1)
            missing = sorted(set(range(b.deck_size)) - set(everything))
            where = {self.codes[c]: [self.game.zone_label(z) for z, zc in enumerate(zones) if c in zc]
                     + (["the trick"] if c in trick else []) for c in dup}
            self.fail("cards", f"the deck is not in one piece: duplicated {where or 'none'}, "
                      f"missing {' '.join(self.codes[c] for c in missing) or 'none'}")
        for p in range(self.n):
            size = len(state.hand(p))
            if size > b.hand:
                self.fail("hand-size", f"seat {p} holds {size} cards; the rule file allows at most {b.hand} ({b.hand_why})")
        deals = state.deal_number
        limit = deals * b.score_per_deal + self.irregular_actions * b.irregularity_score
        for side, score in enumerate(state.scores):
            if not isinstance(score, int) or isinstance(score, bool):
                self.fail("score", f"side {side}'s score {score!r} is not an integer")
            elif abs(score) > limit:
                self.fail("score", f"side {side} has {score} after {deals} deal(s); at most {b.score_per_deal} "
                          f"per deal{'' if b.score_derived else ' (generous)'} is possible")
        if deals > b.deal_limit + 1 or (not terminal and deals > b.deal_limit):
            self.fail("match-length", f"deal {deals} started; the match allows {b.deal_limit} deals")
        total = b.actions_per_match
        if total is not None and not self.table and len(state.actions) > total:
            self.fail("match-length", f"{len(state.actions)} actions; the match should end within {total}")
        logged = state.event_count
        if logged < self.events_seen:
            self.fail("events-log", f"the event log shrank from {self.events_seen} to {logged} events")
        self.events_seen = logged

    def check_pause(self, state: State, texts: list[str]) -> None:
        decision = state.decision
        if decision is None or decision.kind != "pause":
            return
        regular = [t for t in texts if not t.startswith("irregular ")]
        if state.mode != "table" or decision.seat != state.dealer or regular != ["continue"] or len(texts) < 2:
            self.fail("pause", f"a referee's pause in {state.mode} mode, seat {decision.seat} to act "
                      f"(dealer {state.dealer}), offering {texts[:4]}")

    def check_legal(self, state: State) -> None:
        legal = state.legal_actions()
        texts = legal.texts()
        if len(set(texts)) != len(texts):
            dups = sorted({t for t in texts if texts.count(t) > 1})
            self.fail("legal-duplicate", f"legal actions listed twice: {dups}")
        again = state.clone()
        again._legal = None  # recompute instead of sharing the cache
        if hasattr(again, "_modal"):
            again._modal = None
        if again.legal_actions().texts() != texts:
            self.fail("legal-unstable", "the legal actions differ (or are in another order) when recomputed on a clone")
        if state.legal_actions().texts() != texts:
            self.fail("legal-unstable", "the legal actions changed when asked twice")
        self.check_pause(state, texts)
        for a in legal:
            if not state.is_legal(a.text):
                self.fail("legal-notation", f"is_legal({a.text!r}) is False for a listed action")
            if not state.is_legal(a.text.lower()):
                self.fail("legal-notation", f"is_legal({a.text.lower()!r}) is False; case should not matter")
            if state.why_illegal(a.text):
                self.fail("legal-notation", f"why_illegal({a.text!r}) explains why a legal action is illegal")

    def apply_on_clones(self, state: State, chosen: Action) -> None:
        legal = list(state.legal_actions())
        if len(legal) > self.apply_limit > 0:
            k = self.apply_limit
            picked = sorted({round(i * (len(legal) - 1) / (k - 1)) for i in range(k)}) if k > 1 else [0]
            sample = [legal[i] for i in picked]
        else:
            sample = legal
        if chosen not in sample:
            sample.append(chosen)
        self.chosen_clone = None
        outcomes: list[tuple[str, State]] = []
        for a in sample:
            c = state.clone()
            try:
                c.apply(a.text)
            except Exception as err:  # noqa: BLE001
                self.fail("legal-apply", f"the legal action {a.text!r} raised {type(err).__name__} on a clone: {err}")
                continue
            outcomes.append((a.text, c))
            if a.text == chosen.text:
                self.chosen_clone = c
        self.guarded("the hidden-choice check", lambda: check_hidden_choice(self, state, outcomes))

    def check_json(self, state: State) -> None:
        try:
            other = State.from_json(state.to_json())
        except Exception as err:  # noqa: BLE001
            self.fail("json", f"State.from_json(state.to_json()) raised {type(err).__name__}: {err}")
            return
        if other != state:
            self.fail("json", "State.from_json(state.to_json()) != state")
        if other.legal_actions().texts() != state.legal_actions().texts():
            self.fail("json", "the legal actions differ (or are in another order) after a JSON round trip")
        if other.current_player != state.current_player:
            self.fail("json", "current_player differs after a JSON round trip")

    def check_visibility(self, state: State) -> None:
        core = state._c
        for z in range(len(self.oracle)):
            mask = self.game.m["zmask"](core, z) & self.all_mask
            want = self.oracle_mask(core, z)
            if mask != want:
                self.fail("visibility", f"{self.game.zone_label(z)} is seen by seats {_seats(mask)} "
                          f"but the rule file says {_seats(want)}")

    def check_observations(self, state: State) -> None:
        core = state._c
        zones = self.zones(core)
        source = self.select_source(state)
        for p in range(self.n):
            self.knowledge[p] |= self.visible(core, p, source)
        omniscient = state.observation(None)
        try:
            json.dumps(omniscient)
        except (TypeError, ValueError) as err:
            self.fail("observation-json", f"observation(None) is not JSON-able: {err}")
        for p in range(self.n):
            obs = state.observation(p)
            try:
                json.dumps(obs)
            except (TypeError, ValueError) as err:
                self.fail("observation-json", f"observation({p}) is not JSON-able: {err}")
            hidden = [z for z in range(len(zones))
                      if not self.oracle_mask(core, z) >> p & 1 and source != (p, z) and zones[z]]
            cards = [c for z in hidden for c in zones[z]]
            if len(cards) < 2:
                continue
            swapped = state.clone()
            swapped._rec = state._rec  # the same events: only the cards now hidden trade places
            swapped._deal_hidden(hidden, cards[1:] + cards[:1])  # every card changes place
            if hasattr(swapped, "_modal"):
                swapped._modal = None
            after = swapped.observation(p)
            if after != obs:
                diff = sorted(k for k in set(obs) | set(after) if obs.get(k) != after.get(k))
                self.fail("observation-leak", f"observation({p}) changes ({', '.join(diff)}) when the cards hidden "
                          f"from seat {p} ({', '.join(sorted({self.game.zone_label(z) for z in hidden}))}) "
                          "trade places")
            # The information-state tensor begins with the observation tensor.
            if state.information_state_tensor(p) != swapped.information_state_tensor(p):
                self.fail("observation-leak", f"observation_tensor({p}) or information_state_tensor({p}) changes "
                          f"when the cards hidden from seat {p} trade places")

    # -------------------------------------------------------- illegal actions
    def probes(self, state: State) -> list[tuple[str, str]]:
        legal = state.legal_actions()
        texts = set(legal.texts())
        verbs = sorted({a.verb for a in legal})
        actor = state.current_player
        out: list[tuple[str, str]] = [("nonsense-verb", "frobnicate"), ("empty", ""), ("unknown-card", "play ZZ")]
        cp = self.game.tables.copies  # (copies: a card of a face held is not foreign)
        held = {self.game.tables.index[c] // cp for c in state.hand(actor)} if actor is not None else set()
        foreign = [c for c in range(len(self.codes)) if c // cp not in held]
        if foreign:
            card = self.codes[foreign[self.rng.randrange(len(foreign))]]
            out.append(("foreign-card", f"play {card}"))
            for v in verbs:
                if v not in ("play", "bid", "name", "declare", "irregular", "pass") and any(a.args for a in legal if a.verb == v):
                    out.append(("wrong-verb-args", f"{v} {card}"))
        for v in verbs:
            if v not in texts:  # a verb that needs arguments, given none
                out.append(("bare-verb", v))
            if f"{v} none" not in texts and any(a.args and a.args[0] in self.code_set for a in legal if a.verb == v):
                out.append(("none-arg", f"{v} none"))
        if "play" not in verbs:
            out.append(("bare-verb", "play"))
        stale = [t for t in self.previous_legal if t not in texts]
        if stale:
            out.append(("stale", stale[self.rng.randrange(len(stale))]))
        irregularities = self.ruleset.rules.irregularities
        if state.mode != "table" and irregularities:
            irr = irregularities[self.rng.randrange(len(irregularities))]
            out.append(("irregular-strict", f"irregular {irr.name} {actor if actor is not None else 0}"))
        if "bid" in verbs:
            out.append(("huge-bid", "bid 1000000000000"))
        return [(k, t) for k, t in out if k not in self.skip_probes and t not in texts]

    def probe_illegal(self, state: State) -> None:
        for kind, text in self.probes(state):
            before = state.to_dict()
            before_obs = state.observation(None)
            before_legal = state.legal_actions().texts()
            try:
                state.apply(text)
            except (IllegalActionError, InvalidActionError):
                pass
            except Exception as err:  # noqa: BLE001
                self.fail("illegal-error", f"apply({text!r}) [{kind}] raised {type(err).__name__} "
                          f"instead of IllegalActionError or InvalidActionError: {err}")
                continue
            else:
                self.fail("illegal-accepted", f"apply({text!r}) [{kind}] was accepted but is not a legal action")
                return
            if (state.to_dict() != before or state.observation(None) != before_obs
                    or state.legal_actions().texts() != before_legal):
                self.fail("illegal-mutated", f"the refused action {text!r} [{kind}] changed the state")
                return
            if state.is_legal(text):
                self.fail("illegal-accepted", f"is_legal({text!r}) [{kind}] is True for a refused action")
            try:
                why = state.why_illegal(text)
            except Exception as err:  # noqa: BLE001
                self.fail("why-illegal", f"why_illegal({text!r}) [{kind}] raised {type(err).__name__}: {err}")
                continue
            if not why:
                self.fail("why-illegal", f"why_illegal({text!r}) [{kind}] gives no reason for a refused action")

    def after_apply(self, state: State) -> None:
        clone = self.chosen_clone
        if clone is not None and clone != state:
            self.fail("nondeterministic", "the same action gave a different state on a clone")
        self.chosen_clone = None


def _seats(mask: int) -> str:
    seats = [str(p) for p in range(mask.bit_length()) if mask >> p & 1]
    return "{" + ", ".join(seats) + "}"


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "..."


def _short_tb(err: BaseException) -> str:
    frames = traceback.extract_tb(err.__traceback__)[-3:]
    return "".join(f"  at {Path(f.filename).name}:{f.lineno} in {f.name}\n" for f in frames).rstrip()


def _card_strings(value: Any, codes: frozenset[str]) -> Iterator[str]:
    """Card codes named anywhere in an event (free-text fields excepted)."""
    if isinstance(value, str):
        if value in codes:
            yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            if k not in _TEXT_KEYS:
                yield from _card_strings(v, codes)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _card_strings(v, codes)
