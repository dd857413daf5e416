"""`tricklang simulate --cluster ADDRESS`: matches played by the workers of a Dask cluster.

The jobs carry the rule text (and the texts it extends), so a worker on another machine
needs tricklang installed but not the rule file. Each match is seeded exactly as in a
local run, so the results are the same, match for match. Needs the optional extra
``cluster`` (Dask's ``distributed``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from tricklang.diagnostics import TrickLangError

from .common import UsageError

CONNECT_TIMEOUT = 20
"""Seconds to wait for the scheduler."""

_J = TypeVar("_J")


class ClusterError(TrickLangError):
    """The scheduler cannot be reached, or a worker failed to run its matches."""


def workers_of(client: Any) -> int:
    """The number of worker threads the cluster has now (at least 1)."""
    info = client.scheduler_info()
    return max(1, sum(int(w.get("nthreads", 1)) for w in info.get("workers", {}).values()))


def chunked(jobs: Sequence[_J], threads: int) -> list[list[_J]]:
    """The jobs in chunks: about four per worker thread, at most 200 matches each.

    >>> [len(c) for c in chunked(list(range(42)), 2)]
    [5, 5, 5, 5, 5, 5, 5, 5, 2]
    """
    size = max(1, min(200, len(jobs) // (4 * threads)))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def run_on_cluster(address: str, play: Callable[[list[_J]], list[dict[str, Any]]],
                   jobs: Sequence[_J], progress: Callable[[int], None]) -> Iterator[dict[str, Any]]:
    """Run ``play`` over chunks of ``jobs`` on the cluster at ``address``; yields each
    match's result as its chunk completes (not in order), calling ``progress(done)``.

    Raises:
        UsageError: Dask's ``distributed`` is not installed.
        ClusterError: the scheduler cannot be reached, or a chunk failed on a worker.
    """
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UsageError("--cluster needs Dask: pip install 'tricklang[cluster]'") from None
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as err:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {err}") from None
    done = 0
    with client:
        futures = client.map(play, chunked(jobs, workers_of(client)), pure=False)
        for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
            try:
                results = future.result()
            except Exception as err:  # whatever the worker raised, reported as a cluster failure
                raise ClusterError(f"a worker of {address} failed: {type(err).__name__}: {err}") from None
            yield from results
            done += len(results)
            progress(done)
