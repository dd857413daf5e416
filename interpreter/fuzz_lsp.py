"""The language server's fuzzer (run by :mod:`interpreter.fuzz`): the real server
(``python -m tricklang.lsp``, capped in memory) driven over stdio with random documents
and random messages.

Documents are the grammar fuzzer's rule files and shipped rule files cut and typed into
at random; messages open, change (whole or by a range, in range or not) and close
them, and ask for hovers, completions, definitions, symbols and formatting at any
position, with now and then parameters that do not fit the protocol, unknown methods
and stray notifications. A finding is a request not answered within
:data:`interpreter.fuzz.PER_INPUT_SECONDS` (the server is then started again), a server
that exits, an answer that is an internal error, or a feature that failed (the server
logs it as an error).

This module talks JSON-RPC itself (no client library); the server needs the ``lsp``
extra (pygls): without it the fuzzer runs nothing and says so.
"""

from __future__ import annotations

import importlib.util
import json
import os
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from tricklang.catalog import find_bundled

SERVER = """
import resource, runpy, sys
memory = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
sys.argv = ["tricklang.lsp"]
runpy.run_module("tricklang.lsp", run_name="__main__")
"""

MEMORY = 1_500_000_000
"""Address space the server may use, in bytes."""

REQUESTS = ("textDocument/hover", "textDocument/completion", "textDocument/definition",
            "textDocument/documentSymbol", "textDocument/formatting")
EXPECTED_ERRORS = (-32602, -32601)
"""Answers that are not findings: invalid parameters, unknown method."""


def available() -> str | None:
    """Why the language server cannot be fuzzed here (None when it can)."""
    return None if importlib.util.find_spec("pygls") is not None else "pygls not installed (pip install 'tricklang[lsp]')"


class Server:
    """The server in a child process, with a thread reading what it writes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(MEMORY)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, cwd=folder)
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin: IO[bytes] = self.process.stdin
        self.answers: queue.Queue[dict[str, Any]] = queue.Queue()
        self.logged: list[str] = []
        self.reader = threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True)
        self.reader.start()
        self.ids = 0

    def _read(self, out: IO[bytes]) -> None:
        while True:
            length = 0
            while True:
                header = out.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii", "replace").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            body = out.read(length)
            try:
                message = json.loads(body)
            except ValueError:
                continue
            if message.get("method") == "window/logMessage" and message.get("params", {}).get("type") == 1:
                self.logged.append(str(message["params"].get("message", ""))[:300])
            if "id" in message and "method" not in message:
                self.answers.put(message)

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.stdin.flush()

    def request(self, method: str, params: Any, seconds: float) -> dict[str, Any] | None:
        """Send a request and wait for its answer (None when none came in time)."""
        self.ids += 1
        msg_id = self.ids
        self.send({"id": msg_id, "method": method, "params": params})
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                answer = self.answers.get(timeout=left)
            except queue.Empty:
                return None
            if answer.get("id") == msg_id:
                return answer

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        try:
            if self.alive():
                self.request("shutdown", None, 5.0)
                self.send({"method": "exit"})
                self.process.wait(5)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
        if self.alive():
            self.process.kill()
            self.process.wait(5)
        self.reader.join(5)  # (it ends at the end of the server's output)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                try:
                    pipe.close()
                except OSError:
                    pass


def start(folder: Path) -> Server:
    server = Server(folder)
    server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, 60.0)
    server.send({"method": "initialized", "params": {}})
    return server


def _shipped_texts() -> list[str]:
    out = []
    for name in ("ecarte", "cinch", "whist", "euchre", "black-maria"):
        found = find_bundled(name)
        if found is not None:
            out.append(found.read_text(encoding="utf-8"))
    return out


def _edited(rng: random.Random, text: str) -> str:
    """The text as it may be mid-edit: a span cut out, and something typed in its place."""
    start = rng.randrange(len(text) + 1)
    end = min(len(text), start + rng.randrange(200))
    typed = "".join(rng.choice(list("abz :()[],.=\"#\n  \t09-🂡\u202e\x1b")) for _ in range(rng.randrange(12)))
    return text[:start] + typed + text[end:]


class Session:
    """One fuzzing session: the server, its open documents, and what it found."""

    def __init__(self, rng: random.Random, folder: Path, documents: Callable[[], str],
                 record: Callable[[str, str], None], reached: Callable[[str], None], seconds: float) -> None:
        self.rng, self.folder, self.documents = rng, folder, documents
        self.record, self.reached, self.seconds = record, reached, seconds
        self.server = start(folder)
        self.open: dict[str, str] = {}
        self.versions: dict[str, int] = {}

    def close(self) -> None:
        self.server.close()

    def restart(self) -> None:
        self.server.close()
        self.server = start(self.folder)
        self.open.clear()

    # ------------------------------------------------------------ messages

    def step(self) -> str:
        """Send one random message; returns what it was (for a finding's record)."""
        rng = self.rng
        if not self.open or rng.random() < 0.15:
            return self._open()
        uri = rng.choice(sorted(self.open))
        roll = rng.random()
        if roll < 0.2:
            return self._change(uri)
        if roll < 0.25:
            self.server.send({"method": "textDocument/didClose", "params": {"textDocument": {"uri": uri}}})
            del self.open[uri]
            return f"close {uri}"
        if roll < 0.35:
            return self._junk(uri)
        return self._ask(uri, rng.choice(REQUESTS))

    def _open(self) -> str:
        rng = self.rng
        n = len(self.versions)
        uri = (Path(self.folder, f"doc{n}.trick").as_uri() if rng.random() < 0.8 else f"untitled:doc{n}.trick")
        text = self.documents()
        self.open[uri] = text
        self.versions[uri] = 1
        self.server.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "tricklang", "version": 1, "text": text}}})
        return f"open {uri}: {text!r}"

    def _change(self, uri: str) -> str:
        rng = self.rng
        self.versions[uri] += 1
        text = self.open[uri]
        lines = text.split("\n")
        if rng.random() < 0.4:
            new = _edited(rng, text)
            change: dict[str, Any] = {"text": new}
        else:
            line = rng.randrange(len(lines) + 2)
            start = rng.randrange(120)
            typed = rng.choice(["", "x", " must ", "\n", "deal 3 to each\n  ", "(", "🂡", "A of spades"])
            change = {"range": {"start": {"line": line, "character": start},
                                "end": {"line": line, "character": start + rng.randrange(5)}}, "text": typed}
            new = text  # (the server's idea of it is what counts; it is asked about, not compared)
        self.open[uri] = new
        self.server.send({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": self.versions[uri]}, "contentChanges": [change]}})
        return f"change {uri}: {change!r}"

    def _position(self, uri: str) -> dict[str, int]:
        rng = self.rng
        lines = self.open[uri].split("\n")
        line = rng.randrange(len(lines) + 3)
        width = len(lines[line]) if line < len(lines) else 0
        return {"line": line, "character": rng.randrange(width + 3)}

    def _ask(self, uri: str, method: str) -> str:
        params: dict[str, Any] = {"textDocument": {"uri": uri}}
        if method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
            params["position"] = self._position(uri)
        if method == "textDocument/formatting":
            params["options"] = {"tabSize": 2, "insertSpaces": True}
        self._expect_answer(method, params)
        return f"{method} {json.dumps(params)}"

    def _junk(self, uri: str) -> str:
        rng = self.rng
        method = rng.choice([*REQUESTS, "textDocument/rename", "tricklang/nothing"])
        params: Any = rng.choice([None, [], {}, "x", {"textDocument": {}}, {"textDocument": {"uri": 5}},
                             {"textDocument": {"uri": uri}, "position": {"line": -1, "character": "a"}},
                             {"textDocument": {"uri": uri}, "position": {"line": 2**40, "character": 0}}])
        if rng.random() < 0.3:  # a notification: nothing to answer, and the server carries on
            self.server.send({"method": rng.choice(["textDocument/didOpen", "textDocument/didChange", "$/x"]),
                              "params": params})
            return f"notification {params!r}"
        self._expect_answer(method, params)
        return f"{method} {params!r}"

    def _expect_answer(self, method: str, params: Any) -> None:
        answer = self.server.request(method, params, self.seconds)
        what = f"{method} {json.dumps(params)[:2000]}"
        if answer is None:
            alive = self.server.alive()
            self.record("no answer in time" if alive else "the server exited", what)
            self.restart()
            return
        error = answer.get("error")
        if error is not None and error.get("code") not in EXPECTED_ERRORS:
            self.record(f"error answer {error.get('code')}: {str(error.get('message'))[:200]}", what)
        elif error is None:
            self.reached("answered")
            if answer.get("result"):
                self.reached(f"{method.split('/')[-1]} with a result")
        else:
            self.reached("refused as expected")
        if self.server.logged:
            self.record(f"a feature failed: {self.server.logged[0]}", what)
            self.server.logged.clear()


def run(seed: int, seconds: float, limit: int | None, documents: Callable[[random.Random], str],
        record: Callable[[str, str], None], reached: Callable[[str], None], count: Callable[[], None],
        answer_seconds: float) -> None:
    """Drive a server with random messages until ``seconds`` pass or ``limit`` messages
    were sent; ``count()`` is called for each message, ``record(kind, input)`` for each finding."""
    rng = random.Random(seed)
    texts = _shipped_texts()

    def document() -> str:
        roll = rng.random()
        if roll < 0.1:  # a variant of a base that would block or flood a reader, or of none
            base = rng.choice(["fifo.trick", "laws.md", "missing.trick", "../" * 30 + "etc/passwd.trick"])
            return f'tricklang 1\nextends "{base}"\ngame "Variant"\n'
        if texts and roll < 0.55:
            text = rng.choice(texts)
            for _ in range(rng.randint(0, 3)):
                text = _edited(rng, text)
            return text
        return documents(rng)

    deadline = time.monotonic() + seconds
    with tempfile.TemporaryDirectory(prefix="tricklang-fuzz-lsp-") as folder:
        Path(folder, "laws.md").write_text("| E1 | A law. |\n| E2 |" + " " * 2000 + "\n", encoding="utf-8")
        if hasattr(os, "mkfifo") and rng.random() < 0.5:
            os.mkfifo(Path(folder, "fifo.trick"))  # (a base that would block a reader)
        session = Session(rng, Path(folder), document, record, reached, answer_seconds)
        n = 0
        try:
            while time.monotonic() < deadline and (limit is None or n < limit):
                n += 1
                count()
                try:
                    session.step()
                except (OSError, ValueError) as err:  # the server's pipe broke: it died
                    record(f"the server's pipe broke: {err}", "")
                    session.restart()
        finally:
            session.close()
