"""Saved states and records: a state as JSON and back (:class:`Saved`, mixed into
:class:`~interpreter.State`), JSON read within limits, and the rules a saved state carries
(checked against their SHA-256, parsed and checked once per text: a bounded cache)."""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tricklang import Ruleset, loads
from tricklang.diagnostics import TrickLangError
from tricklang.ruleset import digest_of

from ..errors import RecordError

if TYPE_CHECKING:
    from .actions import Action
    from .compiled import Compiled as Game
    from .protocol import StateLike as State

STATE_FORMAT = "tricklang-state"
STATE_VERSION = 1

MAX_JSON_CHARS = 50_000_000
"""Saved states and records longer than this are refused before parsing."""


def parse_json(text: str, what: str) -> Any:
    """JSON text of a state or record, refused with a :class:`RecordError` when it is
    malformed, too large (:data:`MAX_JSON_CHARS`) or nested too deeply."""
    if len(text) > MAX_JSON_CHARS:
        raise RecordError(f"{what} is larger than {MAX_JSON_CHARS} characters")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{what} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    except (RecursionError, ValueError) as err:  # nested too deeply; a number too long to convert
        raise RecordError(f"{what} JSON cannot be read: {type(err).__name__}: {str(err)[:100]}") from None


def state_rules(rules: Any, options: Any) -> Ruleset:
    """The rules a saved state carries, checked against their SHA-256 before anything else."""
    if not isinstance(rules, dict) or not isinstance(rules.get("source"), str) or not isinstance(rules.get("sha256"), str):
        raise RecordError("state 'rules' must hold the rule text ('source') and its 'sha256'")
    bases = rules.get("bases", [])
    if not isinstance(bases, list) or not all(isinstance(b, str) for b in bases):
        raise RecordError("state 'rules.bases' must be a list of rule texts")
    if digest_of(rules["source"], bases) != rules["sha256"]:
        raise RecordError("the state's rule text does not match its sha256 (edited, or not saved whole)")
    name = rules.get("path")
    shown = "<state>" if not isinstance(name, str) or not name else os.path.basename(name)[:255] or "<state>"
    key = (rules["source"], tuple(bases), shown)
    try:
        ruleset = _LOADED.get(key)
        if ruleset is None:
            ruleset = loads(rules["source"], path=shown, bases=bases)
            _LOADED[key] = ruleset
            if len(_LOADED) > _LOADED_MAX:
                _LOADED.popitem(last=False)
        else:
            _LOADED.move_to_end(key)
        return ruleset.with_options(options)
    except TrickLangError as err:
        raise RecordError(f"the state's rules do not load:\n{err}") from None


_LOADED: OrderedDict[tuple[str, tuple[str, ...], str], Ruleset] = OrderedDict()
_LOADED_MAX = 16
"""Rule texts read back by :meth:`State.from_json`, parsed and checked once each, most
recent last (a bounded cache: from_json of a loaded rule file costs no parsing)."""


class Saved:
    """A state as JSON: :meth:`to_json`, :meth:`to_dict` (mixed into :class:`~interpreter.State`)."""

    __slots__ = ()
    _g: Game
    _c: Any

    if TYPE_CHECKING:  # defined by State
        def apply(self, action: Action | str) -> None: ...
        @property
        def ruleset(self) -> Ruleset: ...
        @property
        def actions(self) -> list[str]: ...

    def to_json(self) -> str:
        """The state as JSON: the rule file's text, options, seed, deck, dealer and actions."""
        return json.dumps(self.to_dict(), ensure_ascii=False)

    def to_dict(self) -> dict[str, Any]:
        """What :meth:`to_json` writes, as a dictionary."""
        core = self._c
        codes = self._g.tables.codes
        data: dict[str, Any] = {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "rules": {"path": os.path.basename(self.ruleset.path), "sha256": self.ruleset.digest,
                      "source": self.ruleset.source, "bases": list(self.ruleset.bases)},
            "options": dict(self.ruleset.options),
            "seed": core.seed,
            "dealer": core.first_dealer,
            "actions": list(self.actions),
        }
        if core.table:
            data["mode"] = "table"
        if core.deck is not None:
            data["deck"] = [codes[c] for c in core.deck]
        if core.reseeds:
            data["reseeds"] = {str(n + 1): s for n, s in sorted(core.reseeds.items())}
        if core.decks:
            data["decks"] = {str(n + 1): [codes[c] for c in d] for n, d in sorted(core.decks.items())}
        return data

    def _restore(self, actions: Sequence[str], data: Mapping[str, Any]) -> None:
        """Replay the actions of a JSON state (the embedding modes also feed chance outcomes).

        Raises:
            RecordError: an action does not fit the rules.
        """
        for i, a in enumerate(actions):
            try:
                self.apply(a)
            except TrickLangError as err:
                raise RecordError(f"action {i + 1} ({a!r}) does not fit the rules: {err}") from None


def state_from_json(text: str | Mapping[str, Any], build: Callable[..., State]) -> State:
    """The state :meth:`State.from_json <interpreter.State.from_json>` rebuilds, with
    ``build`` (:func:`~interpreter.new_game`) making the game before its actions replay.

    Raises:
        RecordError: the JSON is corrupt or too deeply nested, the rule text does not
            match its digest or does not load, or an action no longer fits the rules.
        TypeError: ``text`` is neither a string nor a mapping.
    """
    if not isinstance(text, (str, Mapping)):
        raise TypeError(f"from_json() takes JSON text or a mapping, not {type(text).__name__}")
    data = parse_json(text, "state") if isinstance(text, str) else dict(text)
    if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
        raise RecordError(f"not a tricklang state (expected format '{STATE_FORMAT}')")
    if data.get("version") != STATE_VERSION:
        raise RecordError(f"state version {data.get('version')!r} is not supported (this tricklang reads version {STATE_VERSION})")
    try:
        ruleset = state_rules(data["rules"], data.get("options") or {})
        seed, dealer, actions = data["seed"], data["dealer"], data["actions"]
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("'actions' must be a list of action texts")
        deck = data.get("deck")
        if deck is not None and (not isinstance(deck, list) or not all(isinstance(c, str) for c in deck)):
            raise RecordError("'deck' must be a list of card codes")
        decks = data.get("decks")
        if decks is not None and not isinstance(decks, dict):
            raise RecordError("'decks' must map deal numbers to decks")
        reseeds = data.get("reseeds")
        if reseeds is not None and not isinstance(reseeds, dict):
            raise RecordError("'reseeds' must map deal numbers to seeds")
        state = build(ruleset, seed=seed, deck=deck, dealer=dealer, mode=data.get("mode", "strict"),
                      selections=data.get("selections", "all"), chance=data.get("chance", "automatic"),
                      decks={_deal_key(k): v for k, v in decks.items()} if decks else None,
                      reseeds={_deal_key(k): v for k, v in reseeds.items()} if reseeds else None)
    except (KeyError, TypeError) as err:
        raise RecordError(f"state is missing or has a bad field: {err}") from None
    except RecordError:
        raise
    except TrickLangError as err:
        raise RecordError(f"state cannot be rebuilt: {err}") from None
    state._restore(actions, data)
    return state


def _deal_key(key: object) -> int:
    try:
        return int(str(key))
    except ValueError:
        raise RecordError(f"'decks' keys are deal numbers, not {key!r}") from None
