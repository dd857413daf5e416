"""``python -m benchmarks.split``: where a random match's time goes, by kind of step."""

from __future__ import annotations

import pytest

import tricklang
from benchmarks import split


def test_the_split_counts_every_step_of_the_timed_matches_by_phase() -> None:
    spent, calls = split.split(tricklang.load("ecarte"), 3, first_deal_only=False)
    assert calls["new_game"] == 3 and calls["play: draw"] == calls["play: apply"] > 3 * 5
    assert calls["play (deal change): apply"] >= 2  # the matches' deals but their last ones end on a card
    assert {"choice: draw", "discard: apply"} <= set(calls) and all(v > 0 for v in spent.values())
    _, first = split.split(tricklang.load("ecarte"), 3, first_deal_only=True)
    assert first["play: apply"] < calls["play: apply"]
    assert first["play (deal change): apply"] == 3  # each match's first deal ends on its last card (no match ends there)


def test_the_split_names_a_rule_file_it_cannot_read(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        split.main(["no-such-game", "-n", "1"])
    assert stop.value.code == 1 and "cannot read rule file" in capsys.readouterr().err
    assert split.main(["ecarte", "-n", "2", "--deals"]) == 0
    assert "| play: draw |" in capsys.readouterr().out
