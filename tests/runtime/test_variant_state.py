"""A saved state of a variant loaded by a relative path replays from any directory."""

from __future__ import annotations

from pathlib import Path

import pytest

import interpreter
import tricklang

ROOT = Path(__file__).resolve().parents[2]


def test_a_variant_state_loaded_by_relative_path_replays_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    rules = tricklang.load("examples/black-maria.trick")  # extends hearts.trick, by a relative path
    state = interpreter.new_game(rules, seed=3)
    state.apply(state.legal_actions()[0])
    saved = state.to_json()
    monkeypatch.chdir(tmp_path)
    assert interpreter.State.from_json(saved) == state
