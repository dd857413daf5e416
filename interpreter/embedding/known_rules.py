"""Rule files named by their digest in what the adapters serialize, and found again.

A serialized or pickled game (or state) of a bundled game carries a *reference*: the
rule file's name and SHA-256 (``{"path": "ecarte.trick", "sha256": "..."}``), about a
hundred bytes where the rule text is tens of kilobytes. Any other rule file's
reference also carries its text (and the texts it extends), so that nothing becomes
unreadable in a process that never loaded it.

:func:`find_rules` finds a reference's rules again: in this process's registry of the
rule files the adapters have loaded (:func:`remember`), else among the bundled games
(the file of that name whose digest matches), else from the text it carries (checked
against its digest).

>>> import tricklang
>>> ref = rules_ref(tricklang.load("ecarte"))
>>> sorted(ref), ref["path"]
(['path', 'sha256'], 'ecarte.trick')
>>> find_rules(ref).digest == ref["sha256"]
True
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

import tricklang
from tricklang import Ruleset, catalog
from tricklang.bundled import bundled_facts
from tricklang.diagnostics import TrickLangError

from ..errors import RecordError

_KNOWN: dict[str, Ruleset] = {}  # digest -> the rules (at their default options)
_LOCK = threading.Lock()
MAX_KNOWN = 256
"""Rule files remembered at most (the oldest are forgotten first)."""


def remember(ruleset: Ruleset) -> None:
    """Add a rule file to this process's registry, so that a reference to it is found."""
    with _LOCK:
        _KNOWN.pop(ruleset.digest, None)
        _KNOWN[ruleset.digest] = ruleset
        while len(_KNOWN) > MAX_KNOWN:
            del _KNOWN[next(iter(_KNOWN))]


def _bundled_digest(name: object) -> str | None:
    """The digest of the bundled game of that file name (``ecarte.trick``), or None."""
    if not isinstance(name, str) or not name.endswith(catalog.SUFFIX):
        return None
    facts = bundled_facts().get(name[: -len(catalog.SUFFIX)])
    return facts.digest if facts is not None else None


def _bundled(name: object, digest: str) -> Ruleset | None:
    """The bundled game of that file name, loaded, if its digest is ``digest``."""
    if _bundled_digest(name) != digest:
        return None
    try:
        found = tricklang.load(str(name)[: -len(catalog.SUFFIX)])
    except TrickLangError:
        return None
    if found.digest != digest:
        return None
    remember(found)
    return found


def is_bundled(ruleset: Ruleset) -> bool:
    """Whether a rule file is a bundled game word for word (found again by name in any process)."""
    return _bundled_digest(PurePath(ruleset.path).name) == ruleset.digest


def rules_ref(ruleset: Ruleset) -> dict[str, Any]:
    """A reference to a rule file: its file name and digest, and its texts unless it is bundled."""
    ref: dict[str, Any] = {"path": PurePath(ruleset.path).name, "sha256": ruleset.digest}
    if not is_bundled(ruleset):
        ref["source"] = ruleset.source
        ref["bases"] = list(ruleset.bases)
    return ref


def find_rules(ref: Mapping[str, Any]) -> Ruleset:
    """The rules a reference names (see the module docstring), at their default options.

    Raises:
        RecordError: the reference is malformed, its text does not match its digest or
            does not load, or the rules are neither known here nor bundled nor carried.
    """
    if not isinstance(ref, Mapping) or not isinstance(ref.get("sha256"), str):
        raise RecordError("a rules reference needs its 'sha256'")
    digest, name = ref["sha256"], ref.get("path")
    with _LOCK:
        known = _KNOWN.get(digest)
    if known is not None:
        return known
    if "source" not in ref:
        found = _bundled(name, digest)
        if found is None:
            raise RecordError(f"rules {str(name)[:80]!r} (sha256 {digest[:12]}...) are neither a bundled game of this "
                              "tricklang nor loaded in this process: load them first (register() or load_game())")
        return found
    source, bases = ref.get("source"), ref.get("bases") or []
    if not isinstance(source, str) or not isinstance(bases, list) or not all(isinstance(b, str) for b in bases):
        raise RecordError("a rules reference's 'source' must be text and its 'bases' a list of texts")
    try:
        shown = PurePath(name).name if isinstance(name, str) and name else None
        ruleset = tricklang.loads(source, path=shown, bases=bases)
    except TrickLangError as err:
        raise RecordError(f"the rules of the reference do not load: {err}") from None
    if ruleset.digest != digest:
        raise RecordError("the rule text does not match its digest")
    remember(ruleset)
    return ruleset
