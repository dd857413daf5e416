"""Any rule file as an OpenSpiel game (``pip install 'tricklang[openspiel]'``).

>>> import pyspiel
>>> from interpreter.embedding.openspiel import load_game
>>> game = load_game("rules/ecarte.trick", scope="deal")
>>> game.get_type().short_name, game.num_players(), game.num_distinct_actions()
('tricklang_ecarte', 2, 226)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()   # Écarté's first dealer is drawn
(True, [(0, 0.5), (1, 0.5)])
>>> pyspiel.load_game("tricklang_ecarte(scope=match,target=3)").max_utility()
1.0

:func:`register` adds a rule file to OpenSpiel's registry under ``tricklang_NAME``
(NAME from the file's name; a different text under a taken name gets the start of
its digest too), with the rule file's options and ``scope`` as game parameters;
:func:`load_game` registers it and loads it with parameters. Importing this module
registers every bundled game (from :mod:`tricklang.bundled`'s stored facts, each
loaded when its first game is made), so ``pyspiel.load_game("tricklang_ecarte")`` and
``pyspiel.deserialize_game_and_state`` work in any process that imports it.

* ``scope='deal'`` (default): the game ends when the first deal is over (or
  abandoned and redealt); each seat's return is its side's points in that deal
  (negated when the lowest score wins), between the bounds that
  :func:`tricklang.payoffs.derive_payoffs` derives from the rule file; the game is
  constant-sum (zero-sum at 0) when it derives a fixed total and the sides are of one
  size, general-sum otherwise.
* ``scope='match'``: the whole match; the winning side's seats get 1, the others
  ``-1/(sides - 1)`` (zero-sum when the sides are of one size); a draw gives 0.

The game is sequential, with explicit chance (every card dealt is a chance node,
see :mod:`interpreter.runtime.chance`) and imperfect information; actions are the rule
file's one-card action space (:mod:`interpreter.state.spaces`); observation and
information-state tensors are those of :mod:`interpreter.state.tensors`, and their strings
the JSON of :meth:`State.observation` (without, resp. with, the seat's event log), made
canonical by :mod:`interpreter.embedding.infostate`: card lists that are sets (a dealt
packet, a discard) in deck order, so that two states a seat cannot tell apart give
the same string whatever the order of the pack.
States clone, serialize and pickle through the tricklang state's JSON, which names
its rules by digest when they can be found again (a bundled game, or rules loaded in
the reading process: :mod:`interpreter.embedding.known_rules`) and carries their text
otherwise. Games pickle as their rules' reference and parameters, and a pickled state
with its game, so that a process that never loaded the rules unpickles them. (OpenSpiel
serializes a Python game's state as a pickle: deserialize only what you trust.)

``state.resample_from_infostate(player, sampler)`` (used by OpenSpiel's
information-set MCTS) draws a state the player cannot tell from this one: by
``State.resample`` on the same match in the default modes, taped back
(:func:`_resample_modal`), else (at a chance node, with picks pending) by dealing the
cards hidden from the player afresh among the places hidden from him (consistent with
what he sees now, though not necessarily with inferences from earlier play).

Errors follow OpenSpiel's conventions: a broken rule file, an unknown option, a bad
option value, an illegal action raise ``pyspiel.SpielError`` naming the value.
"""

from __future__ import annotations

import json
import random
import re
import unicodedata
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as err:  # pragma: no cover - depends on the environment
    raise ImportError("the OpenSpiel adapter needs the extra: pip install 'tricklang[openspiel]'") from err

import tricklang
from tricklang import Ruleset
from tricklang.bundled import GameFacts, bundled_facts
from tricklang.diagnostics import TrickLangError

from ..errors import RecordError
from ..state.deals import prearranged
from ..state.spaces import action_space
from ..state.state import ModalState, State, new_game
from ..state.tensors import tensor_layout
from . import as_ruleset
from .infostate import information_state_string, observation_string
from .known_rules import find_rules, remember, rules_ref

SCOPES = ("deal", "match")
_REGISTERED: dict[str, str] = {}  # short name -> the digest of its rules


def short_name_for(ruleset: Ruleset) -> str:
    """``tricklang_`` and the rule file's name (or the game's) in lower-case ASCII."""
    stem = Path(ruleset.path).stem if ruleset.path and not ruleset.path.startswith("<") else ruleset.name
    return _short_name(stem)


def _short_name(stem: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    return "tricklang_" + (re.sub(r"[^a-z0-9]+", "_", ascii_name.lower()).strip("_") or "game")


def register(rules: Ruleset | str | Path, *, short_name: str | None = None) -> str:
    """Register a rule file with OpenSpiel (once) and return its short name.

    Raises:
        pyspiel.SpielError: the rule file is broken, declares an option named
            ``scope``, or the short name is taken by another rule file.
    """
    try:
        ruleset = as_ruleset(rules)
    except (TrickLangError, OSError) as err:
        raise pyspiel.SpielError(f"cannot load rule file {rules!s}: {err}") from None
    name = short_name or short_name_for(ruleset)
    known = _REGISTERED.get(name)
    if known is not None and known != ruleset.digest and short_name is None:
        # Another text under a taken name (a variant of a bundled game named like it):
        # the name with the start of its digest.
        name = f"{name}_{ruleset.digest[:8]}"
        known = _REGISTERED.get(name)
    if known is not None:
        if known != ruleset.digest:
            raise pyspiel.SpielError(f"game name {name!r} is already registered for another rule file")
        remember(ruleset)
        return name
    if "scope" in ruleset.options:
        raise pyspiel.SpielError(f"{ruleset.path}: an option named 'scope' clashes with the adapter's parameter")
    assert ruleset.rules.players is not None
    _register_factory(name, ruleset.digest, ruleset.name, ruleset.rules.players.count, dict(ruleset.options),
                      {"RULESET": ruleset})
    remember(ruleset)
    return name


def _register_factory(name: str, digest: str, game: str, players: int, options: dict[str, Any],
                      attributes: dict[str, Any]) -> None:
    spec: dict[str, Any] = {"scope": "deal", **options}
    game_type = _game_type(name, game, players, spec, utility_sum=None)
    # OpenSpiel keeps the factory until the process ends. A class (as OpenSpiel's own
    # Python games register) rather than a closure: a closure freed after Python has
    # shut down crashes the process on exit.
    factory = type(f"TrickGame_{name}", (TrickGame,), {"GAME_TYPE": game_type, **attributes})
    pyspiel.register_game(game_type, factory)
    _REGISTERED[name] = digest


def _register_bundled() -> None:
    """Register every bundled game under its name (``tricklang_ecarte``...), as importing
    OpenSpiel's own Python games registers them: ``pyspiel.load_game`` and
    ``pyspiel.deserialize_game_and_state`` find them in any process that imports this
    module. A bundled file that does not load is left out (loading it names the error)."""
    for facts in bundled_facts().values():
        name = _short_name(facts.name)
        if name not in _REGISTERED and "scope" not in facts.options:
            _register_factory(name, facts.digest, facts.game, facts.players, facts.options, {"FACTS": facts})


def _restore_game(ref: dict[str, Any], name: str, params: dict[str, Any]) -> TrickGame:
    """A pickled game, loaded again (its rules registered under its name if need be)."""
    try:
        ruleset = find_rules(ref)
    except TrickLangError as err:
        raise pyspiel.SpielError(str(err)) from None
    known = _REGISTERED.get(name)
    if known != ruleset.digest:  # not registered here (under its name, if free; else under one of its own)
        name = register(ruleset, short_name=name if known is None else None)
    game: TrickGame = pyspiel.load_game(name, params)
    return game


def _restore_state(game: TrickGame, text: str) -> TrickState:
    """A pickled state: its game (pickled with it), then the state from its serialization."""
    state: TrickState = game.deserialize_state(text)
    return state


def load_game(rules: Ruleset | str | Path, *, scope: str = "deal", **options: Any) -> Any:
    """Register a rule file and load it with parameters (``scope`` and its options).

    Raises:
        pyspiel.SpielError: a broken rule file, an unknown option or a bad value.
    """
    name = register(rules)
    return pyspiel.load_game(name, {"scope": scope, **options})


def _game_type(name: str, game: str, players: int, spec: dict[str, Any], *, utility_sum: float | None) -> Any:
    """The game's type; ``utility_sum``: what the returns always add up to (zero-sum when
    0, constant-sum otherwise), None for general-sum."""
    gt = pyspiel.GameType
    utility = gt.Utility.GENERAL_SUM if utility_sum is None else (
        gt.Utility.ZERO_SUM if utility_sum == 0 else gt.Utility.CONSTANT_SUM)
    return gt(
        short_name=name,
        long_name=f"{game} (tricklang)",
        dynamics=gt.Dynamics.SEQUENTIAL,
        chance_mode=gt.ChanceMode.EXPLICIT_STOCHASTIC,
        information=gt.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=gt.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec,
    )


class TrickGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type information
    """A rule file with its parameters, as a ``pyspiel.Game``."""

    RULESET: Ruleset | None = None  # set on the subclass that register() makes for each rule file,
    FACTS: GameFacts | None = None  # or for a bundled game, loaded when the first game is made
    GAME_TYPE: Any

    @classmethod
    def rules(cls) -> Ruleset:
        """The rule file (a bundled game's is loaded the first time, and must still be the
        text it was registered for).

        Raises:
            pyspiel.SpielError: the bundled file no longer loads, or has changed.
        """
        if cls.RULESET is None:
            facts = cls.FACTS
            assert facts is not None
            try:
                ruleset = tricklang.load(facts.name)
            except TrickLangError as err:
                raise pyspiel.SpielError(f"{facts.file}: {err}") from None
            if ruleset.digest != facts.digest:
                raise pyspiel.SpielError(f"the bundled game {facts.file} has changed since it was registered")
            remember(ruleset)
            cls.RULESET = ruleset
        return cls.RULESET

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        ruleset, game_type = self.rules(), self.GAME_TYPE
        params = dict(params or {})
        scope = params.pop("scope", "deal")
        if scope not in SCOPES:
            raise pyspiel.SpielError(f"scope must be 'deal' or 'match', not {scope!r}")
        try:
            rules = ruleset.with_options(params)
            initial = new_game(rules, seed=0, selections="one_card", chance="explicit")
        except TrickLangError as err:
            raise pyspiel.SpielError(f"{ruleset.path}: {err}") from None
        self.scope = scope
        self.initial = initial
        n = initial.player_count
        self.lowest_wins = initial.game.lowest_wins
        game = initial.game
        deck = len(initial.cards)
        lo, hi, utility_sum = game.utilities(scope)
        game_type = _game_type(game_type.short_name, rules.name, n, dict(game_type.parameter_specification),
                               utility_sum=utility_sum)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_space(initial).size,
            max_chance_outcomes=max(deck, n),
            num_players=n,
            min_utility=lo,
            max_utility=hi,
            utility_sum=utility_sum,
            max_game_length=game.max_game_length(scope),
        )
        super().__init__(game_type, info, {"scope": scope, **params})

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its rules' reference (a digest for a bundled game, else the text too)
        and its parameters; unpickling registers the rules when the process lacks them."""
        return _restore_game, (rules_ref(self.rules()), self.GAME_TYPE.short_name, dict(self.get_parameters()))

    def new_initial_state(self, *args: Any) -> TrickState:
        if args:  # pyspiel.deserialize/new_initial_state(str): not a format this game reads
            raise pyspiel.SpielError("tricklang games start only from their initial state")
        return TrickState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise pyspiel.SpielError(f"observation parameters are not supported: {params}")
        recall = bool(iig_obs_type.perfect_recall) if iig_obs_type is not None else False
        if iig_obs_type is not None and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise pyspiel.SpielError("only a single player's observations are supported")
        return Observer(self.initial, recall)


class _Held:
    """The tricklang state inside a pyspiel state: deep-copied by cloning it, pickled as its JSON."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        return _Held(self.state.clone())

    def __getstate__(self) -> str:
        data = self.state.to_dict()
        data["rules"] = rules_ref(self.state.ruleset)  # a digest, unless the rules cannot be found by it
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def __setstate__(self, text: str) -> None:
        try:
            data = json.loads(text) if isinstance(text, str) else None
            if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
                raise RecordError("not a tricklang state of the OpenSpiel adapter")
            ruleset = find_rules(data["rules"])
            data["rules"] = {"path": Path(ruleset.path).name, "sha256": ruleset.digest, "source": ruleset.source,
                             "bases": list(ruleset.bases)}
            self.state = State.from_json(data)
        except (TrickLangError, ValueError, RecursionError) as err:
            raise pyspiel.SpielError(f"cannot read the serialized state: {err}") from None


class TrickState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type information
    """A tricklang game in progress as a ``pyspiel.State`` (see the module docstring)."""

    def __init__(self, game: TrickGame) -> None:
        super().__init__(game)
        self._held = _Held(game.initial.clone())
        self._scope = game.scope
        self._lowest = game.lowest_wins

    @property
    def tricklang(self) -> State:
        """The tricklang state (one-card selections, explicit chance)."""
        return self._held.state

    def current_player(self) -> int:
        t = self._held.state
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if t.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        player = t.current_player
        assert player is not None
        return player

    def is_terminal(self) -> bool:
        t = self._held.state
        return t.is_terminal() or (self._scope == "deal" and t.deal_number > 1)

    def _legal_actions(self, player: int) -> list[int]:
        return self._held.state.legal_action_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._held.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        t = self._held.state
        if self.is_terminal():
            raise pyspiel.SpielError(f"action {action} applied to a terminal state")
        try:
            if t.is_chance_node():
                t.apply_chance_outcome(int(action))
            else:
                t.apply_id(int(action))
        except TrickLangError as err:
            raise pyspiel.SpielError(str(err)) from None

    def _action_to_string(self, player: int, action: int) -> str:
        t = self._held.state
        if player == pyspiel.PlayerId.CHANCE:
            legal = t.legal_actions() if t.is_chance_node() else ()
            if legal and legal[0].args[0] == "seat":  # the first dealer is drawn
                return f"chance seat {action}"
            if not 0 <= action < len(t.cards):
                return f"chance {action}"
            code = t.cards[action]
            if t.cards.count(code) > 1:  # a pack with copies: the k-th card of the face
                return f"chance {code} ({t.cards[:action].count(code) + 1})"
            return f"chance {code}"
        try:
            return t.action_from_id(int(action)).text
        except TrickLangError as err:
            raise pyspiel.SpielError(str(err)) from None

    def returns(self) -> list[float]:
        t = self._held.state
        n = t.player_count
        if not self.is_terminal():
            return [0.0] * n
        side_of = {p: s for s, members in enumerate(t.sides) for p in members}
        if self._scope == "deal":
            sign = -1.0 if self._lowest else 1.0
            return [sign * t.scores[side_of[p]] for p in range(n)]
        outcome = t.outcome()
        if outcome is None or outcome.winner is None:
            return [0.0] * n
        lose = -1.0 / max(1, len(t.sides) - 1)
        return [1.0 if p in outcome.winners else lose for p in range(n)]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its game (see :meth:`TrickGame.__reduce__`) and its serialization."""
        return _restore_state, (self.get_game(), self.serialize())

    def resample_from_infostate(self, player: int, sampler: Any) -> TrickState:
        """A state ``player`` cannot tell from this one (see the module docstring)."""
        new = self.clone()
        seed = int(sampler.sample() * 2**31) if hasattr(sampler, "sample") else random.getrandbits(31)
        new._held = _Held(resample(self._held.state, player, random.Random(seed)))
        return new  # type: ignore[no-any-return]

    def __str__(self) -> str:
        obs = self._held.state.observation(None)
        del obs["events"]
        return json.dumps(obs, sort_keys=True, ensure_ascii=False)


def resample(state: State, player: int, rng: random.Random) -> State:
    """A copy of ``state`` with the cards hidden from ``player`` dealt afresh among their places.

    Uses ``state.resample(player, rng)`` when the runtime provides it.
    """
    native = getattr(state, "resample", None)
    if native is not None:
        try:
            sampled: State | None = _resample_modal(state, player, rng) if isinstance(state, ModalState) \
                else native(player, rng)
            if sampled is not None:
                return sampled
        except TrickLangError:
            pass  # e.g. no consistent deal within the sampler's bound: deal afresh below
    new = state.clone()
    hidden = new._hidden_zones(player)
    cards = [card for z in hidden for card in new.game.m["zone_cards"](new._c, z)]
    rng.shuffle(cards)
    new._deal_hidden(hidden, cards)
    if isinstance(new, ModalState):
        new._modal = None
    return new


def _resample_modal(state: ModalState, player: int, rng: random.Random) -> State | None:
    """``State.resample`` for a state in OpenSpiel's modes (one-card selections, explicit
    chance): the same match in the default modes (each deal's pack is its taped chance
    outcomes, the first dealer the first outcome when chance drew it) is resampled, and the
    sampled decks are taped back. None where that does not apply: at a chance node, with
    picks pending, with chance other than the packs and the first dealer, or when the
    result would not show ``player`` the same (the caller then deals afresh).

    Raises:
        TrickLangError: the sampler found no consistent deal (``ResampleError``).
    """
    if state.is_chance_node() or state.picks:
        return None
    data = state.to_dict()
    game = state.game
    size, deals = len(game.tables.codes), state.deal_number
    tape = list(data.get("outcomes") or [])
    lead = len(tape) - size * deals  # 1: the first dealer was drawn by chance
    if data.get("chance") != "explicit" or lead not in (0, 1):
        return None
    dealer = tape[0] if lead else data.get("dealer")
    codes = game.tables.codes
    decks = {n + 1: [codes[o] for o in tape[lead + n * size:lead + (n + 1) * size]] for n in range(deals)}
    plain = new_game(state.ruleset, seed=data["seed"], decks=decks, dealer=dealer, mode=data.get("mode", "strict"))
    for text in data["actions"]:
        plain.apply(text)
    world = plain.resample(player, rng)
    outcomes = tape[:lead] + [o for n in range(deals) for o in prearranged(game, world.deal_deck(n + 1))]
    sampled = State.from_json({**data, "outcomes": outcomes, "actions": world.actions})
    if sampled.observation(player) != state.observation(player):
        return None
    return sampled


class Observer:
    """OpenSpiel's Python observer interface over :mod:`interpreter.state.tensors`."""

    def __init__(self, initial: State, perfect_recall: bool) -> None:
        layout = tensor_layout(initial)
        self.perfect_recall = perfect_recall
        size = layout.size if perfect_recall else layout.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"info_state" if perfect_recall else "observation": self.tensor}

    def set_from(self, state: TrickState, player: int) -> None:
        t = state.tricklang
        values = t.information_state_tensor(player) if self.perfect_recall else t.observation_tensor(player)
        self.tensor[:] = values

    def string_from(self, state: TrickState, player: int) -> str:
        t = state.tricklang
        return information_state_string(t, player) if self.perfect_recall else observation_string(t, player)


_register_bundled()
