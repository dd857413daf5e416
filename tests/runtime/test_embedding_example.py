"""The embedding example runs, and its data set never shows a seat another seat's cards."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _example() -> object:
    spec = importlib.util.spec_from_file_location("embedding_example", ROOT / "examples" / "embedding.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_self_play_data_set_is_written_and_leaks_no_hidden_hand(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = _example()
    out = tmp_path / "games.jsonl"
    assert module.main(["--games", "2", "--out", str(out)]) == 0  # type: ignore[attr-defined]
    printed = capsys.readouterr().out
    assert printed.startswith("Écarté: 2 games;")
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    decisions = int(printed.split("; ")[-1].split()[0])
    assert len(rows) == decisions > 0
    for row in rows:
        assert row["action"] in row["legal"]
        hands = row["observation"]["zones"]["hand"]
        for seat, hand in hands.items():
            assert ("cards" in hand) == (int(seat) == row["seat"]), row
