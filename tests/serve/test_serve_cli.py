"""`tricklang serve` on the command line (the server itself is not started: run_server is
replaced by one that keeps the application)."""

from __future__ import annotations

import re
import socket
from pathlib import Path
from typing import Any

import pytest
from pages import Page, serving

from interpreter.cli import main
from interpreter.cli import serve as serve_cli


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, socket.socket]]:
    runs: list[tuple[Any, socket.socket]] = []

    def run(app: Any, sock: socket.socket) -> int:
        runs.append((app, sock))
        sock.close()
        return 0

    monkeypatch.setattr(serve_cli, "run_server", run)
    return runs


def test_serve_prints_a_link_per_human_seat_and_one_for_spectators(
        tmp_path: Path, started: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "ecarte", "--data", str(tmp_path), "--port", "0", "--seats", "human,human",
                 "-o", "target=3"]) == 0
    out = capsys.readouterr().out
    links = re.findall(r"^  (seat \d|spectator)\s+(http://127\.0\.0\.1:\d+/t/[\w-]{32})$", out, re.M)
    assert [who for who, _ in links] == ["seat 0", "seat 1", "spectator"]
    assert str(tmp_path) in out
    app, sock = started[0]
    assert sock.family == socket.AF_INET
    with serving(app) as client:
        page = Page(client, links[0][1].rsplit("/", 1)[1])
        assert page.view["table"]["options"]["target"] == 3


def test_the_same_command_after_a_restart_takes_up_the_same_table(
        tmp_path: Path, started: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["serve", "cinch", "--data", str(tmp_path), "--port", "0", "--table"]
    assert main(argv) == 0
    first = capsys.readouterr().out
    assert "referee" in first and first.count("/t/") == 3  # seat 0 (the human), referee, spectators
    assert main(argv) == 0
    second = capsys.readouterr().out
    assert re.findall(r"/t/[\w-]+", first) == re.findall(r"/t/[\w-]+", second)
    assert main([*argv[:-1], "--seats", "human,random,human,random"]) == 0  # other seats: a new table
    assert "1 other table" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "message"), [
    (["--seats", "human,wizard"], "unknown player"),
    (["--seats", "human,search:4:smart"], "rollout policy (greedy, heuristic, random"),
    (["--seats", "human,human,human"], "2 seats"),
    (["--pace", "-1"], "--pace"),
    (["--host", "256.1.2.3.4"], "--host"),
])
def test_bad_command_lines_exit_2(tmp_path: Path, started: list[Any], capsys: pytest.CaptureFixture[str],
                                  argv: list[str], message: str) -> None:
    assert main(["serve", "ecarte", "--data", str(tmp_path), "--port", "0", *argv]) == 2
    assert message in capsys.readouterr().err
    assert started == []


def test_table_mode_needs_irregularities(tmp_path: Path, started: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "whist", "--data", str(tmp_path), "--port", "0", "--table"]) == 2
    assert "irregularities" in capsys.readouterr().err


def test_a_port_in_use_is_a_one_line_error(tmp_path: Path, started: list[Any], capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        assert main(["serve", "--data", str(tmp_path), "--port", str(port)]) == 2
    assert "cannot listen" in capsys.readouterr().err


def test_serve_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    assert "--allow-upload" in capsys.readouterr().out
