"""`tricklang play --table`: the human is also the referee; he is asked at the referee's
pauses whoever deals, lists the irregularities on offer, records one, and the record
is a table-mode record that replays. The built-in players record none."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import interpreter
import tricklang
from interpreter.cli import main
from interpreter.players import HeuristicAgent
from interpreter.record import Record

ROOT = Path(__file__).resolve().parents[2]
ECARTE = str(ROOT / "rules" / "ecarte.trick")


def play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_referee_is_asked_at_the_pause_lists_and_records_an_irregularity(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    out_file = tmp_path / "game.json"
    typed = "irregularities\nirregular wrong_count_before_turnup 1\ncorrect\n" + "1\n" * 400
    # Seat 1, a built-in player, deals: the human is still asked at the pause after the deal.
    code, out, err = play(capsys, monkeypatch, typed, ECARTE, "--table", "--seed", "7", "--dealer", "1",
                          "--record", str(out_file))
    assert code == 0, err
    first = out.split("> ")[0]
    assert "The referee's pause (after the cards are dealt): 'continue', or record an irregularity:" in first
    assert "  1  continue\n" in first and "irregularities to record ('irregularities' lists them)" in first
    listing = out.split("> ")[1]
    assert "  irregular wrong_count_before_turnup [E8]: 1\n" in listing
    assert "irregularity: wrong_count_before_turnup by seat 1" in out and "Match over" in out
    record = Record.load(out_file)
    assert record.mode == "table"
    assert record.moves[:3] == [(1, "irregular wrong_count_before_turnup 1"), (0, "correct"), (1, "continue")]
    assert record.replay().is_terminal()
    irregular = [text for _, text in record.moves if text.startswith("irregular")]
    assert irregular == ["irregular wrong_count_before_turnup 1"]  # none by the built-in player


def test_table_mode_needs_irregularities_and_a_human_referee(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = play(capsys, monkeypatch, "", ECARTE, "--table", "--seats", "random,heuristic")
    assert code == 2 and "the referee is the human seat" in err
    code, out, _ = play(capsys, monkeypatch, "irregularities\nquit\n", ECARTE, "--seed", "2")
    assert code == 0 and "Irregularities are recorded in table mode only (tricklang play --table)." in out
    assert "continue" not in out.split("> ")[0]  # strict play has no pause


@pytest.mark.parametrize("game", ["cinch", "euchre", "auction-pitch", "spades", "ecarte"])
def test_the_heuristic_player_weighs_only_regular_actions_in_table_mode(game: str) -> None:
    """Naming trumps, it used to score every legal action as a suit, irregularities
    included: `printf 'pass\\n' | tricklang play cinch --seed 327587 --table` ended in a
    ValueError (in Cinch, at every seed)."""
    rules = tricklang.load(game)
    for seed in range(12):
        state = interpreter.new_game(rules, seed=seed, mode="table")
        agents = [HeuristicAgent(seed + seat) for seat in range(rules.player_count)]
        for _ in range(400):
            if state.is_terminal():
                break
            assert state.current_player is not None
            action = agents[state.current_player](state)
            assert action.verb != "irregular" and action in state.legal_actions()
            state.apply(action)


def test_the_reported_table_session_plays_on(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("pass\n"))
    assert main(["play", "cinch", "--seed", "327587", "--table"]) == 0
    out, err = capsys.readouterr()
    assert "You left the game" in out and "Traceback" not in err
