"""Reading saved states and records: JSON within limits, and the rules they carry
(checked against their SHA-256, parsed and checked once per text: a bounded cache)."""

from __future__ import annotations

import json
import os
from collections import OrderedDict
from typing import Any

from tricklang import Ruleset, loads
from tricklang.diagnostics import TrickLangError
from tricklang.ruleset import digest_of

from .errors import RecordError

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
