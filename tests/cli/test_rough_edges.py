"""Rough edges of the command line and the transcripts found by a new user (issue 10, part 5)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import interpreter
import tricklang
from interpreter.cli import main
from interpreter.transcript import render
from tricklang.catalog import bundled_games

ROOT = Path(__file__).resolve().parents[2]
CINCH = str(ROOT / "rules" / "cinch.trick")

# Two players, one card each, nobody ever scores: every match is a tie, ended by `end the match`.
TIED = """tricklang 1
game "Always tied"
players 2
deck
  suits spades black, hearts red
  ranks A K
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
match
  first dealer is 0
  dealer passes left
  game to 10, after the deal
deal
  deal 1 to each
  set maker = nobody
  tricks 1, left of dealer leads first
  end the match
"""


def test_simulate_counts_a_tied_match_as_a_draw_not_abandoned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tied.trick"
    path.write_text(TIED, encoding="utf-8")
    assert main(["simulate", str(path), "-n", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["draws"] == 3 and data["abandoned"] == 0
    assert main(["simulate", str(path), "-n", "2"]) == 0
    out = capsys.readouterr().out
    assert "drawn" in out and "abandoned" not in out


def test_a_transcript_says_nobody_is_the_maker_never_seat_minus_one() -> None:
    state = interpreter.new_game(tricklang.loads(TIED), seed=1)
    text = render(state)
    assert "nobody is the maker" in text and "seat -1" not in text


def test_simulate_help_shows_a_plain_percent(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--help"]) == 0
    out = capsys.readouterr().out
    assert "95%" in out and "%%" not in out


@pytest.mark.parametrize("command", ["check", "options", "explain"])
def test_a_bad_option_is_a_usage_error_everywhere(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, CINCH, "-o", "no_such_option=1"]) == 2
    assert "no_such_option" in capsys.readouterr().err


def test_counts_of_one_card_are_singular() -> None:
    from tricklang.words import plural

    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards" and plural(3, "match") == "3 matches"
    ruleset = tricklang.loads(TIED.replace("  deal 1 to each\n", "  deal 1 to each\n  turn up 1 to stock\n"))
    text = render(interpreter.new_game(ruleset, seed=1), player=0)
    assert "card(s)" not in text and " 1 cards" not in text


# ------------------------------------------------------------------ seats that fit the game (issue 29)


@pytest.mark.parametrize("game", sorted(bundled_games()))
def test_demo_of_any_bundled_game_plays_with_defaults_that_fit_it(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", game, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    players = tricklang.load(game).player_count
    kinds = ", ".join(f"{seat} = {'heuristic' if seat % 2 == 0 else 'random'}" for seat in range(players))
    assert out.rstrip().endswith(f"seats: {kinds}")
    assert "win" in out or "drawn" in out


@pytest.mark.parametrize("command", [["demo", "euchre"], ["play", "euchre"], ["simulate", "euchre", "-n", "2"]])
def test_one_seat_kind_fills_every_seat_in_every_command(command: list[str], capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # play with no human seat reads nothing
    assert main([*command, "--seats", "heuristic", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    if command[0] == "demo":
        assert out.rstrip().endswith("seats: 0 = heuristic, 1 = heuristic, 2 = heuristic, 3 = heuristic")
    assert main([*command, "--seats", "heuristic,random", "--seed", "4"]) == 2
    assert "Euchre has 4 seats, 2 players given" in capsys.readouterr().err
