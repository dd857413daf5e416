"""The harness's leak check, applied to what `tricklang play` prints: every card code
the table shows the human seat (events, the log, hints, undo messages, errors) is one
that seat's observation has shown it at some point of the session; and the seed, which
fixes every hidden card, is printed only when the match is over."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import tricklang
from interpreter import State
from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
FACE_DOWN = """tricklang 1
game "Face down"
players 3
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9
zone hand: per player, owner
zone stock: shared, hidden, pack
zone buried: per player, hidden
zone won: per player, public
deal
  deal 4 to each
  for each player from left of dealer:
    player discards 1 to buried
  tricks 3, left of dealer leads first
    must follow suit
  for each player:
    player scores tricks(player)
match
  first dealer is random
  dealer passes left
  game to 5, after the deal
"""
CODE = re.compile(r"(?<![\w])(10|[AKQJ9])[SHDC](?![\w])")


def _session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], rules: Path, typed: str,
             *argv: str) -> tuple[str, set[str]]:
    """Play in-process; return the output and every card code seat 0 was ever shown."""
    seen: set[str] = set()
    original = State.apply

    def watched(self: State, action: object) -> None:
        seen.update(m.group(0) for m in CODE.finditer(json.dumps(self.observation(0))))
        original(self, action)  # type: ignore[arg-type]
        seen.update(m.group(0) for m in CODE.finditer(json.dumps(self.observation(0))))

    monkeypatch.setattr(State, "apply", watched)
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    code = main(["play", str(rules), "--seat", "0=human", *argv])
    out = capsys.readouterr().out
    assert code == 0
    for example in ("'play KS'", "'? KS'", "'KS'"):  # the help's examples name no card of the game
        out = out.replace(example, "")
    return out, seen


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_after_face_down_discards_names_only_the_humans_action(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], seed: int) -> None:
    rules = tmp_path / "face-down.trick"
    rules.write_text(FACE_DOWN, encoding="utf-8")
    tricklang.load(rules)
    out, seen = _session(monkeypatch, capsys, rules, "1\nundo\nlog\n?\n1\n1\nlog\nquit\n", "--seed", str(seed),
                         "--dealer", "2")
    assert "Undone: discard" in out and "of the other seats since" in out
    leaked = {m.group(0) for m in CODE.finditer(out)} - seen
    assert not leaked, f"the table showed seat 0 {sorted(leaked)}, which it never saw:\n{out}"


@pytest.mark.parametrize("game", ["rules/ecarte.trick", "rules/cinch.trick", "examples/hearts.trick"])
def test_a_whole_session_shows_only_what_the_seat_saw(monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str], game: str) -> None:
    typed = "1\n?\nundo\n1\nlog\n" + "1\nundo\n1\n" * 40 + "log\nquit\n"
    out, seen = _session(monkeypatch, capsys, ROOT / game, typed, "--seed", "4")
    leaked = {m.group(0) for m in CODE.finditer(out)} - seen
    assert not leaked, f"the table showed seat 0 {sorted(leaked)}, which it never saw"


def test_the_seed_is_printed_when_the_match_ends_not_before(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = _session(monkeypatch, capsys, ROOT / "rules" / "ecarte.trick", "1\nquit\n", "--seed", "77")
    first_turn = out.index("Your turn")
    assert "77" not in out[:first_turn]
    assert "Seed 77 (to play this match again: --seed 77)." in out[first_turn:]
