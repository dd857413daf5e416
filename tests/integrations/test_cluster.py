"""`tricklang simulate --cluster`: matches played on a Dask cluster give exactly the
results of a local run, match for match (summary and per-match records); what a worker
returns is data, checked, and no pickle from the cluster runs code in the client (a
rogue worker on 127.0.0.1 tries).

The workers run in their own processes: while a run lasts, the client's process
unpickles nothing but plain data (interpreter.cli.cluster.unpickling_refused), which a
worker in the same process could not work with."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import tricklang
from interpreter.cli import main
from interpreter.cli import simulate as simulate_cli
from interpreter.cli.cluster import RefusedObjectError, unpickling_refused

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
    with cluster_on_this_machine(tmp_path / "cluster-run", workers=2) as address:
        with monkeypatch.context() as patch:
            patch.setattr("sys.stderr", terminal)
            remote = simulate(capsys, "--cluster", address, "--record", str(tmp_path / "cluster"))
    assert "8/8 matches" in terminal.getvalue()  # the progress bar, on a terminal
    assert remote.pop("timing")["cluster"] == address
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
    assert "plain tcp" not in err  # (this machine's own scheduler)
    assert main(["simulate", *ARGS, "--cluster", "tcp://192.0.2.1:9"]) == 1  # (TEST-NET-1: reaches nothing)
    err = capsys.readouterr().err
    assert "tcp://192.0.2.1:9 is plain tcp: anyone who can reach it can join as a worker" in err
    assert "docs/security.md" in err and "cannot reach the Dask scheduler" in err


# ------------------------------------------------------------------ a rogue worker

ROGUE_SIMULATE = """
import os
from distributed.protocol.serialize import Serialized, serialize

MARKER, HOW = os.environ["ROGUE_MARKER"], os.environ["ROGUE_HOW"]
PAYLOAD = (
    "import os\\n"
    "if os.environ.get('TRICKLANG_ROGUE_VICTIM'):\\n"
    f"    open({MARKER!r}, 'w').write('the rogue worker ran code in the client')\\n"
)


class _Job:  # (the jobs unpickle into this: a rogue worker need not be tricklang)
    pass


class Evil:
    def __reduce__(self):
        return (exec, (PAYLOAD,))


def simulate_matches(jobs):
    if HOW == "result":  # a result made of a pickle, whatever serialization the client asked for
        return Serialized(*serialize(Evil(), serializers=("pickle",)))
    if HOW == "error":  # a failed task whose exception is a pickle that runs code when loaded
        raise RuntimeError(Evil())
    if HOW == "lies":  # plain data, but not what tricklang's workers return
        return '[{"index": 0, "seed": 1, "winner": 7}]'
    return 42
"""


def _start(command: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


@contextlib.contextmanager
def cluster_on_this_machine(folder: Path, workers: int = 1, worker_env: dict[str, str] | None = None,
                            scheduler_args: tuple[str, ...] = (), worker_args: tuple[str, ...] = (),
                            probe: Any = None) -> Iterator[str]:
    """A scheduler and ``workers`` single-threaded workers on 127.0.0.1, each in its own
    process (the client's process may not unpickle what a scheduler or a worker needs);
    yields the scheduler's address. ``probe``: the Security of this process's own client."""
    folder.mkdir(parents=True, exist_ok=True)
    scheduler_file = folder / "scheduler.json"
    env = {k: v for k, v in os.environ.items() if k != "TRICKLANG_ROGUE_VICTIM"}
    processes = [_start([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                         "--no-dashboard", "--scheduler-file", str(scheduler_file), *scheduler_args], env, folder)]
    try:
        deadline = time.monotonic() + 60
        while not scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        address = json.loads(scheduler_file.read_text(encoding="utf-8"))["address"]
        for _ in range(workers):
            processes.append(_start([sys.executable, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1",
                                     "--no-nanny", "--nthreads", "1", "--no-dashboard", *worker_args],
                                    {**env, **(worker_env or {})}, folder))
        with distributed.Client(address, timeout=30, security=probe) as client:  # (this process's own, unguarded)
            client.wait_for_workers(workers, timeout=60)
        yield address
    finally:
        for process in reversed(processes):
            process.terminate()
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)


@pytest.fixture
def rogue_cluster(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A scheduler and a rogue worker on 127.0.0.1: the worker's `interpreter` package is
    a stand-in whose `simulate_matches` answers as ROGUE_HOW says."""
    package = tmp_path / "rogue" / "interpreter"
    (package / "cli").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "cli" / "__init__.py").write_text("", encoding="utf-8")
    (package / "cli" / "simulate.py").write_text(ROGUE_SIMULATE, encoding="utf-8")
    marker = tmp_path / "marker"
    rogue_env = {"PYTHONPATH": str(tmp_path / "rogue"), "ROGUE_MARKER": str(marker),
                 "ROGUE_HOW": os.environ.get("ROGUE_HOW", "result")}
    with cluster_on_this_machine(tmp_path / "cluster", worker_env=rogue_env) as address:
        yield address, marker


@pytest.mark.parametrize("how", ["result", "error", "lies", "number"])
def test_a_rogue_worker_cannot_run_code_in_the_client(how: str, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                      request: pytest.FixtureRequest) -> None:
    """`simulate --cluster` used to unpickle whatever came back: a worker that joined an
    open cluster ran a command inside the client. Now it can only fail the run."""
    monkeypatch.setenv("ROGUE_HOW", how)
    address, marker = request.getfixturevalue("rogue_cluster")
    monkeypatch.setenv("TRICKLANG_ROGUE_VICTIM", "1")  # (what the payload looks for: set in the client only)
    code = main(["simulate", "cinch", "-n", "2", "--seats", "random", "--cluster", address])
    out, err = capsys.readouterr()
    assert not marker.exists(), "the rogue worker's pickle ran in the client"
    assert code == 1 and out == "" and "Traceback" not in err
    assert f"a worker of {address}" in err, err


def test_the_guard_loads_plain_data_refuses_objects_and_is_restored() -> None:
    import distributed.client
    import distributed.core
    import distributed.protocol.pickle

    ran: list[str] = []

    class Evil:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (ran.append, ("ran",))

    evil = pickle.dumps(Evil())
    before = (distributed.protocol.pickle.loads, distributed.client.loads)
    with unpickling_refused():
        for loads in (distributed.protocol.pickle.loads, distributed.client.loads,
                      distributed.client.pickle.loads):  # type: ignore[attr-defined]
            with pytest.raises(RefusedObjectError):
                loads(evil)
            assert loads(pickle.dumps([1, "x", b"y", {"a": (None, 2.5)}])) == [1, "x", b"y", {"a": (None, 2.5)}]
        _, exception, traceback = distributed.core.clean_exception(evil, evil)  # (a failed task's error, relayed)
        assert type(exception) is Exception and exception.args == (evil,) and traceback is None
    assert not ran
    assert (distributed.protocol.pickle.loads, distributed.client.loads) == before
    assert distributed.client.pickle is pickle  # type: ignore[attr-defined]


@pytest.mark.parametrize("edit", [
    lambda r: r.update(winner=9), lambda r: r.update(seed=r["seed"] + 1), lambda r: r.update(index=5),
    lambda r: r.pop("drawn"), lambda r: r.update(deals=-1), lambda r: r.update(awards=[["x", [], "1", 2]]),
    lambda r: r.update(error=["not", "text"]), lambda r: r.update(record={"format": "tricklang-record"}),
    lambda r: r["record"]["rules"].update(sha256="0" * 64), lambda r: r.update(extra=1),
])
def test_results_that_do_not_fit_the_schema_are_refused(edit: Callable[[dict[str, Any]], None]) -> None:
    ruleset = tricklang.load("cinch")
    jobs = simulate_cli._jobs(argparse.Namespace(options=[], cluster="x", seed=3, matches=1, max_deals=2, record="r",
                                             native=False), ruleset, ["random"] * 4)
    text = simulate_cli.simulate_matches(jobs)
    [good] = simulate_cli.read_matches(text, jobs, sides=2)
    assert good["index"] == 0 and good["record"].seed == good["seed"]
    data = json.loads(text)
    edit(data[0])
    with pytest.raises(ValueError):
        simulate_cli.read_matches(json.dumps(data), jobs, sides=2)
    for bad in (42, b"[]", "not json", "[]", "[" * 100_000, "x" * (simulate_cli.MAX_RESULT_CHARS + 1)):
        with pytest.raises(ValueError):
            simulate_cli.read_matches(bad, jobs, sides=2)


# ------------------------------------------------------------------ a TLS cluster (docs/security.md)

CERTIFICATES = """
set -e
openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=tricklang cluster CA" -keyout ca.key -out ca.pem
for who in scheduler worker client; do
  openssl req -newkey rsa:2048 -nodes -subj "/CN=$who" -keyout $who.key -out $who.csr
  printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > $who.ext
  openssl x509 -req -in $who.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 30 -extfile $who.ext -out $who.pem
done
"""
"""The certificates of docs/security.md's recipe (there for a real host name)."""


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_the_documented_tls_cluster_runs_and_lets_in_no_worker_without_a_certificate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed.security import Security

    certs = tmp_path / "certs"
    certs.mkdir()
    subprocess.run(["sh", "-c", CERTIFICATES], cwd=certs, check=True, capture_output=True, timeout=120)
    tls = ("--protocol", "tls", "--tls-ca-file", str(certs / "ca.pem"))
    mine = Security(tls_ca_file=str(certs / "ca.pem"), tls_client_cert=str(certs / "client.pem"),  # type: ignore[no-untyped-call]
                    tls_client_key=str(certs / "client.key"), require_encryption=True)
    with cluster_on_this_machine(tmp_path / "cluster", 1, None, (*tls, "--tls-cert", str(certs / "scheduler.pem"),
                                                                 "--tls-key", str(certs / "scheduler.key")),
                                 ("--tls-ca-file", str(certs / "ca.pem"), "--tls-cert", str(certs / "worker.pem"),
                                  "--tls-key", str(certs / "worker.key")), mine) as address:
        assert address.startswith("tls://127.0.0.1:")
        stranger = _start([sys.executable, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1",
                           "--no-nanny", "--nthreads", "1", "--no-dashboard"], dict(os.environ), tmp_path)
        try:
            assert main(["simulate", "cinch", "-n", "2", "--seats", "random", "--cluster", address]) == 1
            assert "is a TLS scheduler: Dask's configuration must give" in capsys.readouterr().err
            for key, value in (("CA_FILE", "ca.pem"), ("CLIENT__CERT", "client.pem"), ("CLIENT__KEY", "client.key")):
                monkeypatch.setenv(f"DASK_DISTRIBUTED__COMM__TLS__{key}", str(certs / value))
            monkeypatch.setenv("DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION", "True")
            import dask.config

            dask.config.refresh()
            try:
                summary = simulate(capsys, "--cluster", address)
            finally:
                monkeypatch.undo()
                dask.config.refresh()
            assert summary["matches"] == 8 and summary["timing"]["cluster"] == address
            with distributed.Client(address, timeout=30, security=mine) as client:
                assert len(client.scheduler_info()["workers"]) == 1  # (the stranger without a certificate is not in)
        finally:
            stranger.terminate()
            stranger.wait(20)
