"""`tricklang simulate --cluster`: matches played on a Dask cluster give exactly the
results of a local run, match for match (summary and per-match records)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from interpreter.cli import main

distributed = pytest.importorskip("distributed")

ARGS = ["cinch", "-n", "8", "--seed", "5", "--seats", "random,heuristic,random,heuristic", "--max-deals", "3", "--json"]


def simulate(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    code = main(["simulate", *ARGS, *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def records(folder: Path) -> dict[str, Any]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.json"))}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_cluster_run_equals_a_local_run_match_for_match(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    local = simulate(capsys, "--jobs", "1", "--record", str(tmp_path / "local"))
    terminal = Terminal()
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, protocol="tcp",
                                  dashboard_address=":0") as cluster:
        assert len(cluster.workers) == 2
        with monkeypatch.context() as patch:
            patch.setattr("sys.stderr", terminal)
            remote = simulate(capsys, "--cluster", cluster.scheduler_address, "--record", str(tmp_path / "cluster"))
    assert "8/8 matches" in terminal.getvalue()  # the progress bar, on a terminal
    assert remote.pop("timing")["cluster"] == cluster.scheduler_address
    assert local.pop("timing")["jobs"] == 1
    assert remote == local
    assert remote["matches"] == 8 and sum(s["wins"] for s in remote["sides"]) + remote["abandoned"] == 8
    mine, theirs = records(tmp_path / "local"), records(tmp_path / "cluster")
    assert list(mine) == [f"match-{i:05d}.json" for i in range(8)]
    assert theirs == mine


def test_an_unreachable_scheduler_is_an_error_not_a_traceback(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("interpreter.cli.cluster.CONNECT_TIMEOUT", 1)
    code = main(["simulate", *ARGS, "--cluster", "tcp://127.0.0.1:9"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err and "Traceback" not in err
