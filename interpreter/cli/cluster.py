"""`tricklang simulate --cluster ADDRESS`: matches played by the workers of a Dask cluster.

The jobs carry the rule text (and the texts it extends), so a worker on another machine
needs tricklang installed but not the rule file. Each match is seeded exactly as in a
local run, so the results are the same, match for match. Needs the optional extra
``cluster`` (Dask's ``distributed``).

What the machine that runs ``tricklang`` trusts of the cluster (see docs/security.md):

* a worker returns **text**: each chunk of matches comes back as one JSON string, read
  with Dask's ``msgpack`` serialization only (never ``pickle``) and checked field by
  field against the summary's schema by the caller before it is used (a record is read as any
  untrusted record is); a worker can make up results, it cannot make this process run
  anything;
* Dask's client also unpickles what the scheduler relays to it (a failed task's
  exception, event payloads, result types). While a run lasts, those paths go through a
  restricted unpickler (:func:`plain_loads`) that builds plain data only (numbers,
  text, bytes, lists, tuples, dicts, sets) and turns anything that names a Python
  class or function into a :class:`RefusedObjectError` error, so no pickle from the cluster
  runs code here either;
* everything else Dask sends is msgpack data.

The tasks themselves are shipped to the workers by Dask (pickled, as every Dask task is):
a worker runs tricklang's own functions on the jobs it is given; it is trusted with the
rule text, the seeds and its own CPU, nothing of this machine.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import io
import logging
import pickle
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from tricklang.diagnostics import TrickLangError, brief, printable

from .common import UsageError

CONNECT_TIMEOUT = 20
"""Seconds to wait for the scheduler."""

DESERIALIZERS = ["msgpack"]
"""The only serialization Dask may use for what a worker returns to this process."""

_J = TypeVar("_J")


class ClusterError(TrickLangError):
    """The scheduler cannot be reached, a worker failed to run its matches, or what a
    worker returned is not what a worker of this tricklang returns."""


class RefusedObjectError(TypeError):
    """A pickle from the cluster that names a Python class or function (raised by
    :func:`plain_loads` instead of loading it; a ``TypeError``, as Dask's client expects
    of a value it cannot load)."""


PLAIN_TYPES = frozenset({"bytes", "bytearray", "memoryview", "str", "int", "float", "complex", "bool", "tuple",
                         "list", "dict", "set", "frozenset", "slice", "range"})
"""The classes a pickle from the cluster may name (besides the built-in exceptions): Dask
names them for what it sends as bytes, and calling them builds only data."""


class _PlainUnpickler(pickle.Unpickler):
    """Builds plain data only: no class or function may be named but the built-in data
    types and exceptions, and no persistent id."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins":
            found = getattr(builtins, name, None) if isinstance(name, str) else None
            if name in PLAIN_TYPES or (isinstance(found, type) and issubclass(found, BaseException)):
                return found
        raise pickle.UnpicklingError(f"{printable(str(module)[:60])}.{printable(str(name)[:60])}")

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("a persistent id")


def plain_loads(data: bytes | bytearray | memoryview, *, buffers: Any = ()) -> Any:
    """A pickle's value if it is plain data (numbers, text, bytes, lists, tuples, dicts,
    sets, None, the built-in data types, built-in exceptions of plain data): nothing
    else a pickle names is imported or called.

    >>> plain_loads(pickle.dumps({"n": [1, 2.5, "x", b"y", None], "t": bytes}))
    {'n': [1, 2.5, 'x', b'y', None], 't': <class 'bytes'>}
    >>> plain_loads(pickle.dumps([ClusterError]))
    Traceback (most recent call last):
    ...
    interpreter.cli.cluster.RefusedObjectError: the cluster sent a Python object (interpreter.cli.cluster.ClusterError); tricklang loads none from a cluster

    Raises:
        RefusedObjectError: anything else (whatever the bytes).
    """
    try:
        return _PlainUnpickler(io.BytesIO(bytes(data)), buffers=buffers or None).load()
    except Exception as err:  # noqa: BLE001 - whatever the bytes, one error
        raise RefusedObjectError(f"the cluster sent a Python object ({err}); tricklang loads none from a cluster") from None


@contextlib.contextmanager
def unpickling_refused() -> Iterator[None]:
    """While it lasts, every place where Dask's client unpickles what it receives goes
    through :func:`plain_loads` (see the module docstring); restored after.

    Raises:
        ClusterError: this version of ``distributed`` unpickles where this function does
            not know (its names moved): refused rather than run unguarded.
    """
    client_module: Any = importlib.import_module("distributed.client")
    dask_pickle: Any = importlib.import_module("distributed.protocol.pickle")
    if not (callable(getattr(dask_pickle, "loads", None)) and callable(getattr(client_module, "loads", None))
            and getattr(client_module, "pickle", None) is pickle):
        raise ClusterError("this version of Dask's distributed cannot be used safely by tricklang "
                           "(its unpickling functions are not where tricklang guards them)")
    shim = types.SimpleNamespace(**{**vars(pickle), "loads": plain_loads, "load": None, "Unpickler": None})
    saved = (dask_pickle.loads, client_module.loads, client_module.pickle)
    dask_pickle.loads = client_module.loads = plain_loads
    client_module.pickle = shim
    try:
        yield
    finally:
        dask_pickle.loads, client_module.loads, client_module.pickle = saved


@contextlib.contextmanager
def _quiet(name: str) -> Iterator[None]:
    """Dask's own log (tracebacks of what it could not read) is kept off the terminal while
    a run lasts: its failures reach the user as one :class:`ClusterError` line."""
    log = logging.getLogger(name)
    level = log.level
    log.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        log.setLevel(level)


def open_to_anyone(address: str) -> bool:
    """Whether a scheduler address is plain tcp on another machine than this one.

    >>> open_to_anyone("tcp://scheduler:8786"), open_to_anyone("tls://scheduler:8786"), open_to_anyone("tcp://127.0.0.1:8786")
    (True, False, False)
    """
    scheme, sep, rest = address.partition("://")
    if sep and scheme != "tcp":
        return False
    host = (rest if sep else address).rsplit(":", 1)[0].strip("[]")
    return host not in ("127.0.0.1", "localhost", "::1")


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


def run_on_cluster(address: str, play: Callable[[list[_J]], str], jobs: Sequence[_J],
                   read: Callable[[object, list[_J]], list[dict[str, Any]]],
                   progress: Callable[[int], None]) -> Iterator[dict[str, Any]]:
    """Run ``play`` over chunks of ``jobs`` on the cluster at ``address``: each returns its
    matches as JSON text, which ``read(text, chunk)`` checks and turns into results
    (raising ``ValueError`` when it is not what ``play`` returns); yields each match's
    result as its chunk completes (not in order), calling ``progress(done)``.

    Raises:
        UsageError: Dask's ``distributed`` is not installed.
        ClusterError: the scheduler cannot be reached, a chunk failed on a worker, or a
            worker returned something else than ``play``'s text.
    """
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UsageError("--cluster needs Dask: pip install 'tricklang[cluster]'") from None
    if open_to_anyone(address):
        print(f"tricklang simulate: note: {printable(address)} is plain tcp: anyone who can reach it can join as a "
              "worker and make up results (not run code here); see docs/security.md for a TLS cluster", file=sys.stderr)
    if address.startswith("tls://"):
        from distributed.security import Security

        security: Any = Security()  # type: ignore[no-untyped-call]  # (from Dask's configuration)
        if not (security.tls_ca_file and security.tls_client_cert):
            raise ClusterError(f"{printable(address)} is a TLS scheduler: Dask's configuration must give the cluster's "
                               "CA and this client's certificate and key (distributed.comm.tls.ca-file, "
                               ".client.cert, .client.key; see docs/security.md)")
    with unpickling_refused(), _quiet("distributed"):
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False,  # type: ignore[no-untyped-call]
                            deserializers=DESERIALIZERS, direct_to_workers=False)
        except (OSError, TimeoutError, ValueError, TypeError) as err:  # (TypeError: TLS misconfigured)
            raise ClusterError(f"cannot reach the Dask scheduler at {printable(address)}: "
                               f"{printable(str(err)[:300])}") from None
        done = 0
        with client:
            chunks = chunked(jobs, workers_of(client))
            futures = client.map(play, chunks, pure=False)
            which = {future.key: chunk for future, chunk in zip(futures, chunks, strict=True)}
            for future in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
                try:
                    text = future.result()
                except Exception as raised:  # whatever the worker raised (as plain_loads read it): a cluster failure
                    cause = future.exception()  # (not raised: its traceback may be refused too)
                    shown = cause if isinstance(cause, BaseException) else raised
                    if shown.args and isinstance(shown.args[0], (bytes, bytearray)):  # (an error plain_loads refused)
                        why = "its error is a Python object, which tricklang does not load from a cluster"
                    else:
                        why = f"{type(shown).__name__}: {printable(str(shown)[:300])}"
                    raise ClusterError(f"a worker of {address} failed: {why}") from None
                try:
                    results = read(text, which[future.key])
                except ValueError as err:
                    raise ClusterError(f"a worker of {address} returned what tricklang's workers do not: "
                                       f"{printable(str(err)[:300])} (got {brief(text)})") from None
                yield from results
                done += len(results)
                progress(done)
