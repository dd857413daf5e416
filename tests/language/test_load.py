"""`load(path)` reads a file, `loads(text)` parses text; text given to `load` is deprecated."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import tricklang

ECARTE = Path(__file__).resolve().parents[2] / "rules" / "ecarte.trick"


def test_load_reads_a_file_without_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rules = tricklang.load(ECARTE)
        same = tricklang.load(str(ECARTE))
    assert rules.name == same.name == "Écarté"
    assert rules.digest == same.digest


def test_loads_parses_text() -> None:
    text = ECARTE.read_text(encoding="utf-8")
    rules = tricklang.loads(text, path="mine.trick")
    assert rules.path == "mine.trick"
    assert rules.digest == tricklang.load(ECARTE).digest


def test_load_of_text_still_works_but_is_deprecated() -> None:
    text = ECARTE.read_text(encoding="utf-8")
    with pytest.deprecated_call(match=r"tricklang\.loads\(text\)"):
        rules = tricklang.load(text)
    assert rules.path == "<string>"
    assert rules.rules == tricklang.loads(text).rules
