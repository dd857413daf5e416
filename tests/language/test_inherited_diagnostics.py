"""Diagnostics about code a variant inherits are reported in the base file, with a note."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import tricklang

BASE = """tricklang 1
game "Base"
players 2
deck
  suits spades black, hearts red
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
deal
  deal 2 to each
  let never_read = 1
  tricks 2, left of dealer leads first
"""


def test_a_warning_in_inherited_code_names_the_base_file_its_line_and_the_variant(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "base.trick").write_text(BASE, encoding="utf-8")
    (tmp_path / "variant.trick").write_text('tricklang 1\nextends "rules/base.trick"\ngame "Variant"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    ruleset = tricklang.load("variant.trick")
    [warning] = [d for d in ruleset.warnings if d.code == "unused-variable"]
    assert warning.path == os.path.join("rules", "base.trick") and warning.line == 12
    assert warning.note == "in rules/base.trick, inherited by variant.trick"
    text = warning.render(ruleset.source)
    assert "rules/base.trick:12:3: warning" in text and "let never_read = 1" in text
    assert "note: in rules/base.trick, inherited by variant.trick" in text
    assert warning.to_dict()["note"] == warning.note


def test_the_variants_own_diagnostics_keep_its_path_and_no_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "base.trick").write_text(BASE.replace("  let never_read = 1\n", ""), encoding="utf-8")
    (tmp_path / "v.trick").write_text('tricklang 1\nextends "base.trick"\noption spare: int = 1 in 1..2 "x"\n',
                                      encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    [warning] = tricklang.load("v.trick").warnings
    assert (warning.code, warning.path, warning.line, warning.note) == ("unused-option", "v.trick", 3, "")


def test_an_option_a_variant_inherits_but_no_longer_uses_is_not_its_fault() -> None:
    root = Path(__file__).resolve().parents[2]
    assert tricklang.load(root / "examples" / "cinch-cutthroat.trick").warnings == ()
