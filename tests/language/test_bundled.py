"""tricklang.bundled: the bundled games' stored facts are those loading them gives, and a
stale entry is never used."""

from __future__ import annotations

from typing import Any

import pytest

import tricklang
from tricklang import bundled, catalog
from tricklang.bundled import bundled_facts, facts_of

STORED: dict[str, Any] = bundled._stored()


def _loaded_facts() -> dict[str, bundled.GameFacts]:
    return {name: facts_of(tricklang.load(file), name) for name, file in catalog.bundled_games().items()}


def test_the_stored_facts_are_current() -> None:
    """After a change to a rule file of rules/ or examples/, run tests/make_bundled_facts.py
    (a stale entry is not wrong, only slower: that game is loaded on import)."""
    stale = sorted(name for name in catalog.bundled_games() if name not in STORED or not bundled._current(STORED[name]))
    assert not stale, f"run tests/make_bundled_facts.py: stale or missing {', '.join(stale)}"


def test_the_facts_are_those_of_loading_every_bundled_game() -> None:
    bundled_facts.cache_clear()
    assert bundled_facts() == _loaded_facts()


def test_a_stale_entry_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    changed = {name: dict(entry) for name, entry in STORED.items()}
    changed["ecarte"] = {**changed["ecarte"], "players": 7, "files": {"ecarte.trick": "0" * 64}}
    changed["oh-hell-3"] = {**changed["oh-hell-3"], "game": "Wrong",
                            "files": {**changed["oh-hell-3"]["files"], "oh-hell.trick": "0" * 64}}
    monkeypatch.setattr(bundled, "_stored", lambda: changed)
    bundled_facts.cache_clear()
    try:
        facts = bundled_facts()
        assert facts["ecarte"].players == 2 and facts["oh-hell-3"].game == "Oh Hell (3 players)"
        assert facts == _loaded_facts()
    finally:
        bundled_facts.cache_clear()
