"""A rule file compiled with its option values, and the static facts of it: the base of
:class:`~interpreter.state.state.Game` (OpenSpiel's ``Game`` beside its ``State``).

A :class:`Compiled` holds what never changes while a match is played: the seats and
sides, the cards, the decision points with their actions, the words of the rule file
that the generated module speaks of by id (labels, laws, names), and the module itself
(compiled once per rule text and option values, :mod:`interpreter.codegen`). States
share it.

>>> import tricklang
>>> game = Compiled.of(tricklang.load("ecarte"))
>>> game.player_count, len(game.cards), game.cards[:3]
(2, 32, ['KS', 'QS', 'JS'])
"""

from __future__ import annotations

import builtins
from collections import OrderedDict
from functools import cached_property
from typing import Any, Self

from tricklang import OptionValues, Ruleset

from ..codegen import Generated, generate
from ..codegen.flavour import cpython_flavour
from ..codegen.layout import DecisionPoint, Layout
from ..codegen.module import GENERATED_BUILTINS
from ..runtime.cython_shim import cython as _cython_shim
from ..runtime.speedups import speed_up
from .actions import Action
from .cards import CardTables

PASS = Action("pass")
CALLS = {-2: Action("double"), -3: Action("redouble"), -4: Action("hold")}
"""An auction's word calls by local code (pass is -1; see interpreter.codegen.auctions)."""
CALL_CODES = {a.verb: code for code, a in CALLS.items()}
CONTINUE = Action("continue")

_MODULES: OrderedDict[tuple[str, tuple[tuple[str, Any], ...]], tuple[Generated, dict[str, Any]]] = OrderedDict()
_MODULES_MAX = 64
"""Generated modules by rule text and option values, the most recently used last."""

_GAMES: OrderedDict[tuple[type, str, str, tuple[tuple[str, Any], ...]], Any] = OrderedDict()
_GAMES_MAX = 64
_LAST: list[Any] = [None, None, None, None, None]
"""The game :meth:`Compiled.of` gave last: its cache (``_GAMES``), class, ruleset object, a copy
of the options and the game; the same ruleset object again is answered without building and
sorting its key (a ruleset is immutable; its options are compared all the same)."""

_NATIVE: dict[tuple[str, tuple[tuple[str, Any], ...]], Any] = {}
"""Native builds given by :func:`use_module` (interpreter.native): rule text and options -> module."""


def _import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
    """``__import__`` for a generated module run in CPython: ``import cython`` gets the shim."""
    if name == "cython":
        return _cython_shim
    return builtins.__import__(name, globals, locals, fromlist, level)


_BUILTINS = {**{name: getattr(builtins, name) for name in GENERATED_BUILTINS}, "__import__": _import,
             "__build_class__": builtins.__build_class__}
"""What a generated module sees as builtins: :data:`~interpreter.codegen.module.GENERATED_BUILTINS`,
the import hook (``cython``, the runtime library) and what ``class`` needs."""


FLAVOUR = False
"""Whether generated modules run in CPython take their CPython flavour
(:mod:`interpreter.codegen.flavour`: the same module with its small helpers inlined and
its constants written out); :func:`flavour` switches it. Off by default: the flavour
costs a few times the module's generation (about half a second of CPU for Écarté) for a
step about a tenth faster, which pays only in a long run (simulations, training)."""


def flavour(on: bool) -> bool:
    """Run the generated modules made from now on in CPython flavoured (``on``) or as
    written (as a native build compiles them: what a test that replaces a module's function
    needs); the modules made before are forgotten. Returns the setting it replaced."""
    global FLAVOUR
    before, FLAVOUR = FLAVOUR, on
    _MODULES.clear()
    _GAMES.clear()
    _LAST[:] = [None] * 5
    return before


def run_source(source: str, name: str, flavoured: bool | None = None) -> dict[str, Any]:
    """Execute a generated module's source (ours: it holds no rule text) in a fresh namespace,
    in its CPython flavour unless ``flavoured`` is False (None: :data:`FLAVOUR`), its
    hottest helpers rebound to what they wrap (:mod:`interpreter.runtime.speedups`)."""
    namespace: dict[str, Any] = {"__name__": name, "__builtins__": _BUILTINS}
    filename = f"<{name}>"
    flavour = FLAVOUR if flavoured is None else flavoured
    code = cpython_flavour(source, filename) if flavour else compile(source, filename, "exec")
    exec(code, namespace)  # noqa: S102 - source written by interpreter.codegen
    speed_up(namespace)
    return namespace


def _key(ruleset: Ruleset) -> tuple[str, tuple[tuple[str, Any], ...]]:
    return ruleset.digest, tuple(sorted(ruleset.options.items()))


def module_of(ruleset: Ruleset) -> tuple[Generated, dict[str, Any]]:
    """The generated module of a ruleset and its options (cached), and its namespace.

    Raises:
        GameLimitError: the rule file's tables would be too large.
    """
    key = _key(ruleset)
    got = _MODULES.get(key)
    if got is not None:
        _MODULES.move_to_end(key)
        return got
    gen = generate(ruleset)
    native = _NATIVE.get(key)
    namespace = native if native is not None else run_source(gen.source, "tricklang_game")
    _MODULES[key] = got = (gen, namespace)
    if len(_MODULES) > _MODULES_MAX:
        _MODULES.popitem(last=False)
    return got


def use_module(ruleset: Ruleset, namespace: dict[str, Any]) -> None:
    """Play this ruleset and its options with the module of ``namespace`` (a native build
    of its source, :mod:`interpreter.native`) from now on in this process."""
    key = _key(ruleset)
    _NATIVE[key] = namespace
    _MODULES.pop(key, None)
    _LAST[:] = [None] * 5
    for k in [k for k in _GAMES if (k[1], k[3]) == key]:
        del _GAMES[k]


class ByCode(dict[int, Action]):
    """The actions of a decision point whose codes are many (bids), by local code, each made
    on first use (``acts[code]``, as a tuple of the few fixed ones is read); ``ids``: each
    action's code by its object's ``id`` (the objects are kept here, so their ids stand)."""

    __slots__ = ("game", "dp", "ids")
    MOST = 50_000
    """Actions kept, at most (beyond, both maps start again: a bid range may be large)."""

    def __init__(self, game: Compiled, dp: int) -> None:
        super().__init__()
        self.game = game
        self.dp = dp
        self.ids: dict[int, int] = {}

    def __missing__(self, code: int) -> Action:
        if len(self) >= self.MOST:
            self.clear()
            self.ids.clear()
        action = self[code] = self.game.action(self.dp, code)
        self.ids[id(action)] = code
        return action


class Compiled:
    """See the module docstring. Get one with :meth:`of` (cached per ruleset)."""

    def __init__(self, ruleset: Ruleset) -> None:
        gen, namespace = module_of(ruleset)
        self.ruleset = ruleset
        self.generated = gen
        self.m = namespace
        self.layout: Layout = gen.layout
        lay = self.layout
        self.tables = CardTables(ruleset.rules.deck, ruleset.rules.points, ruleset.rules.orders)  # type: ignore[arg-type]
        self.n = lay.n
        self.dps: list[DecisionPoint] = lay.dps
        self.play_actions = tuple(Action("play", (code,), i) for i, code in enumerate(self.tables.codes))
        self.declare_actions = tuple(Action("declare", (name,)) for name in lay.declaration_names)
        self.word_actions = tuple(Action(word) for word in lay.choice_words)
        self.name_actions = tuple(Action("name", (s,)) for s in self.tables.suit_names)
        self._bids: dict[int, Action] = {}
        self.table_bid_actions = tuple(Action("bid", (b.code,)) for b in lay.bid_table)
        """The bids of the file's bid table, by table index (a table bid's local code)."""
        self.table_bid_codes = {b.code.upper(): k for k, b in enumerate(lay.bid_table)}
        self.n_cards = len(self.tables.codes)
        self.copies = self.tables.copies
        """Cards of each face (``copies N``); above 1 the actions name faces (``_one_per_face``)."""
        if self.copies > 1:  # one legal card of each face, the lowest held (design 3.4)
            self.m = {**namespace, "LEGAL": tuple(self._one_per_face(dp, fn) for dp, fn in zip(
                self.dps, namespace["LEGAL"], strict=True))}
        self.legal_fns: tuple[Any, ...] = self.m["LEGAL"]
        self.apply_fns: tuple[Any, ...] = namespace["APPLY"]
        self.code_ids: Any = None  # the ids of codes (interpreter.state.spaces.CodeIds), made when first asked
        self.dp_actions: list[tuple[Action, ...] | None] = [self._actions_of(dp) for dp in self.dps]
        self.dp_codes: list[dict[str, int] | None] = [
            {a.text: code for code, a in enumerate(acts)} if acts is not None else None for acts in self.dp_actions]
        # The step's shortcuts: each decision point's sampler, its apply unless it takes a card
        # selection, and whether the actions listed by code give back their code (so that a
        # listed action's log key is its code's, with no lookup: State.apply).
        self.sample_fns: tuple[Any, ...] = namespace["SAMPLE"]
        self.plain_apply: dict[int, Any] = {
            i: fn for i, (dp, fn) in enumerate(zip(self.dps, self.apply_fns, strict=True)) if dp.kind != "select"}
        self.listed_acts: list[tuple[Action, ...] | ByCode | None] = [
            acts if acts is not None else ByCode(self, i) if dp.kind in ("auction", "bid") else None
            for i, (dp, acts) in enumerate(zip(self.dps, self.dp_actions, strict=True))]
        """Per decision point, its actions by local code: ``dp_actions``' tuple, or for bids
        (whose codes give back their code by construction) a :class:`ByCode`; None for a
        selection's."""
        self.keyed: tuple[bool, ...] = tuple(
            isinstance(acts, ByCode) or acts is not None and all(self.code(i, a) == k for k, a in enumerate(acts))
            for i, acts in enumerate(self.listed_acts))
        self.listed_codes: tuple[dict[int, int], ...] = tuple(
            acts.ids if isinstance(acts, ByCode) else {id(a): k for k, a in enumerate(acts)}
            if keyed and acts is not None else {} for keyed, acts in zip(self.keyed, self.listed_acts, strict=True))
        """Per decision point listed by code (``keyed``), the code of each of its action
        objects by the object's ``id`` (they live as long as this game, or as its
        :class:`ByCode` keeps them): ``State.apply`` finds an action as listed without
        reading its text; empty elsewhere."""

    @classmethod
    def of(cls, ruleset: Ruleset) -> Self:
        """The game of a ruleset with its option values (made once, then shared).

        Raises:
            TypeError: ``ruleset`` is not a Ruleset.
            GameLimitError: the rule file's tables would be too large.
        """
        last = _LAST
        if last[2] is ruleset and last[1] is cls and last[0] is _GAMES:
            values = ruleset.options  # (a ruleset's OptionValues cannot change: the same object, the same values)
            if values is last[3] if type(values) is OptionValues else values == last[3]:
                got: Self = last[4]
                return got
        if not isinstance(ruleset, Ruleset):
            raise TypeError(f"a Game is made from a Ruleset (tricklang.load), not {type(ruleset).__name__}")
        key = (cls, ruleset.digest, ruleset.path, tuple(sorted(ruleset.options.items())))
        game: Self | None = _GAMES.get(key)
        if game is None:
            game = cls(ruleset)
            _GAMES[key] = game
            if len(_GAMES) > _GAMES_MAX:
                _GAMES.popitem(last=False)
        values = ruleset.options
        last[:] = [_GAMES, cls, ruleset, values if type(values) is OptionValues else dict(values), game]
        return game

    def _actions_of(self, dp: DecisionPoint) -> tuple[Action, ...] | None:
        """The actions of a decision point by local code, where the codes are few and fixed."""
        if dp.kind == "play":
            return (*self.play_actions, *self.declare_actions, CONTINUE)
        if dp.kind == "choice":
            return tuple(self.word_actions[w] for w in dp.extra["words"])
        if dp.kind == "name_trump":
            return self.name_actions
        if dp.kind == "pause":
            return (CONTINUE,)
        return None

    def _one_per_face(self, dp: DecisionPoint, legal: Any) -> Any:
        """A decision point's legal codes with one card of each face, the lowest held (copies
        are equal cards, so which one is played is not a decision: design 3.4)."""
        if dp.kind != "play" or legal is None:
            return legal
        n, size = self.copies, len(self.tables.codes)

        def one_per_face(c: Any) -> list[int]:
            codes = legal(c)
            lowest: dict[int, int] = {}
            for k in codes:
                if 0 <= k < size and lowest.get(k // n, size) > k:
                    lowest[k // n] = k
            return [k for k in codes if not 0 <= k < size or lowest[k // n] == k]
        return one_per_face

    # ------------------------------------------------------------ actions by code
    def action(self, dp: int, code: int) -> Action:
        """The action a decision point's code stands for (not a card selection's)."""
        acts = self.dp_actions[dp]
        if acts is not None:
            return acts[code]
        if code < 0:
            return PASS if code == -1 else CALLS[code]
        if self.dps[dp].extra.get("table"):
            return self.table_bid_actions[code]
        return self.bid_action(code)

    def bid_action(self, b: int) -> Action:
        action = self._bids.get(b)
        if action is None:
            if len(self._bids) > 50_000:
                self._bids.clear()
            action = self._bids[b] = Action("bid", (str(b),))
        return action

    def code(self, dp: int, action: Action) -> int | None:
        """The local code of an action at a decision point (None: it has none there)."""
        if action.card >= 0 and self.dps[dp].kind == "play":
            return action.card
        codes = self.dp_codes[dp]
        if codes is not None:
            return codes.get(action.text)
        if action.verb == "pass" and not action.args:
            return -1
        if action.verb in CALL_CODES and not action.args:
            return CALL_CODES[action.verb]
        if action.verb == "bid" and len(action.args) == 1 and self.dps[dp].extra.get("table"):
            return self.table_bid_codes.get(action.args[0].upper())  # `bid 3nt` is `bid 3NT`
        if action.verb == "bid" and len(action.args) == 1:
            try:
                return int(action.args[0])
            except ValueError:
                return None
        return None

    # ------------------------------------------------------------ static facts
    @property
    def player_count(self) -> int:
        return self.n

    @cached_property
    def sides(self) -> list[list[int]]:
        """The seats of each side (each seat its own side without partnerships)."""
        return [list(s) for s in self.layout.sides]

    @property
    def cards(self) -> list[str]:
        """Every card of the deck, in deck order (suit by suit, ranks high to low)."""
        return list(self.tables.codes)

    @property
    def suits(self) -> list[str]:
        return list(self.tables.suit_names)

    @property
    def name(self) -> str:
        return self.ruleset.name

    @property
    def lowest_wins(self) -> bool:
        """Whether the lowest score wins the match (penalty points)."""
        mt = self.ruleset.rules.match
        return mt is not None and mt.lowest_wins

    @cached_property
    def zones(self) -> list[tuple[str, int | None]]:
        """Every zone instance as ``(name, owner)``: the owner is a seat or a side for a
        zone declared per player or per side, None for a shared zone (``State.zone`` reads them)."""
        return [(inst.zone.name, None if inst.zone.kind == "shared" else inst.owner) for inst in self.layout.instances]

    def zone_label(self, z: int) -> str:
        return self.layout.instances[z].label

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.ruleset.name!r} options={dict(sorted(self.ruleset.options.items()))}>"
