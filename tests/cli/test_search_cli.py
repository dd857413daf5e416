"""`--seats search`, `search:BUDGET` and `search:BUDGET:ROLLOUT` in `tricklang play` and `tricklang simulate`."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from interpreter.cli import main

ECARTE = str(Path(__file__).resolve().parents[2] / "rules" / "ecarte.trick")


def test_simulate_with_a_search_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", ECARTE, "-n", "2", "--seats", "search:4,heuristic", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "search:4" in out and "2 matches" in out


def test_play_with_search_players_at_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", ECARTE, "--seats", "heuristic,search:3", "--seed", "4"]) == 0
    assert "Match over" in capsys.readouterr().out


def test_simulate_with_a_search_player_and_its_rollouts(capsys: pytest.CaptureFixture[str]) -> None:
    """``search:BUDGET:ROLLOUT`` picks the rollout policy (greedy by default; heuristic, the
    default before, stays available)."""
    assert main(["simulate", ECARTE, "-n", "2", "--seats", "search:4:heuristic,search:random", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "search:4:heuristic" in out and "search:random" in out and "2 matches" in out


def test_play_seats_and_a_human(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", ECARTE, "--seat", "1=search", "--seed", "4"]) == 0


@pytest.mark.parametrize("argv", [
    ["simulate", ECARTE, "--seats", "search:0,heuristic"],
    ["simulate", ECARTE, "--seats", "search:x"],
    ["play", ECARTE, "--seats", "human,search:none"],
    ["play", ECARTE, "--seats", "human,search:4:smart"],
    ["simulate", ECARTE, "--seats", "search:4:4,heuristic"],
    ["play", ECARTE, "--seats", "human"],
    ["play", ECARTE, "--seats", "human,search", "--seat", "0=human"],
])
def test_bad_search_players_are_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "reason"), [
    (["simulate", ECARTE, "--seats", "search:4:smart,heuristic"], "rollout policy (greedy, heuristic, random"),
    (["play", ECARTE, "--seats", "human,search:smart"], "rollout policy (greedy, heuristic, random"),
    (["demo", "--seats", "search:3:smart"], "rollout policy (greedy, heuristic, random"),
    (["simulate", ECARTE, "--seats", "search:4:4"], "a budget is given twice"),
    (["play", ECARTE, "--seat", "1=search:greedy:random"], "a rollout policy is given twice"),
])
def test_a_bad_search_player_says_what_is_wrong(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                 reason: str) -> None:
    """The error names the part that is wrong and the rollout policies on offer, whatever
    the command (not only 'unknown player')."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert reason in err and "Traceback" not in err
