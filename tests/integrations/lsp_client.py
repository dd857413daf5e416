"""A blocking test client for the language server: the real server, started as
``python -m tricklang.lsp``, driven over stdio by pygls's LanguageClient on an
event loop in a background thread."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import sys
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as t
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

T = TypeVar("T")
TIMEOUT = 60.0


CAPPED_SERVER = """
import resource, runpy, sys
memory, seconds = int(sys.argv[1]), int(sys.argv[2])
resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))
sys.argv = ["tricklang.lsp"]
runpy.run_module("tricklang.lsp", run_name="__main__")
"""
"""The server started in a process capped in memory (address space) and CPU seconds."""


class Client:
    """One server process for many requests; every method blocks until the answer (at
    most ``timeout`` seconds). With ``memory``, the server's process is capped: that many
    bytes of address space and ``cpu`` seconds."""

    def __init__(self, *, timeout: float = TIMEOUT, memory: int | None = None, cpu: int = 120) -> None:
        self.timeout = timeout
        self.command = [sys.executable, "-m", "tricklang.lsp"] if memory is None else [
            sys.executable, "-c", CAPPED_SERVER, str(memory), str(cpu)]
        self._ids = itertools.count()
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="lsp-client", daemon=True)
        self.thread.start()
        self.diagnostics: dict[str, list[t.PublishDiagnosticsParams]] = {}
        self.logs: list[str] = []
        self.changed = threading.Condition()
        self.versions: dict[str, int] = {}
        self.client = self.run(self._start())

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(self.timeout)

    async def _start(self) -> LanguageClient:
        client = LanguageClient("tricklang-tests", "1")

        @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diagnostics(params: t.PublishDiagnosticsParams) -> None:
            with self.changed:
                self.diagnostics.setdefault(params.uri, []).append(params)
                self.changed.notify_all()

        @client.feature(t.WINDOW_LOG_MESSAGE)
        def _log(params: t.LogMessageParams) -> None:
            self.logs.append(params.message)

        await client.start_io(*self.command)
        await client.initialize_async(t.InitializeParams(
            capabilities=t.ClientCapabilities(text_document=t.TextDocumentClientCapabilities(
                hover=t.HoverClientCapabilities(content_format=[t.MarkupKind.Markdown]),
                document_symbol=t.DocumentSymbolClientCapabilities(hierarchical_document_symbol_support=True),
            )),
            process_id=None, root_uri=None))
        client.initialized(t.InitializedParams())
        return client

    def close(self) -> int | None:
        """Shut the server down as a client should; returns its exit status."""
        async def stop() -> int | None:
            await self.client.shutdown_async(None)
            self.client.exit(None)
            await self.client.stop()
            server = self.client._server
            return server.returncode if server is not None else None

        try:
            return self.run(stop())
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(self.timeout)
            self.loop.close()

    # ------------------------------------------------------------ documents
    def open(self, path: Path | str, text: str | None = None) -> str:
        """Open a document: a file (its text from disk unless given) or a URI given as a string."""
        if isinstance(path, str):
            uri, content = path, text or ""
        else:
            uri = from_fs_path(str(path)) or str(path)
            content = path.read_text(encoding="utf-8") if text is None else text
        self.versions[uri] = 1
        self.client.text_document_did_open(t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(uri=uri, language_id="tricklang", version=1, text=content)))
        return uri

    def change(self, uri: str, text: str) -> None:
        """Replace the whole text of a document (a new version)."""
        self.versions[uri] += 1
        self.client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)]))

    def edit(self, uri: str, line: int, character: int, end_character: int, text: str) -> None:
        """Replace a range of one line (0-based, as the protocol counts) incrementally."""
        self.versions[uri] += 1
        rng = t.Range(start=t.Position(line=line, character=character), end=t.Position(line=line, character=end_character))
        self.client.text_document_did_change(t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            content_changes=[t.TextDocumentContentChangePartial(range=rng, text=text)]))

    def wait_diagnostics(self, uri: str) -> list[t.Diagnostic]:
        """The diagnostics published for the document's latest version."""
        version = self.versions[uri]

        def ready() -> bool:
            return any(p.version == version for p in self.diagnostics.get(uri, []))

        with self.changed:
            if not self.changed.wait_for(ready, self.timeout):
                raise TimeoutError(f"no diagnostics for version {version} of {uri}")
            return list([p for p in self.diagnostics[uri] if p.version == version][-1].diagnostics)

    # ------------------------------------------------------------ requests
    def hover(self, uri: str, line: int, character: int) -> t.Hover | None:
        return self.run(self.client.text_document_hover_async(t.HoverParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=character))))

    def definition(self, uri: str, line: int, character: int) -> Any:
        return self.run(self.client.text_document_definition_async(t.DefinitionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=character))))

    def completion(self, uri: str, line: int, character: int) -> list[t.CompletionItem]:
        result = self.run(self.client.text_document_completion_async(t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=line, character=character))))
        if result is None:
            return []
        return list(result.items if isinstance(result, t.CompletionList) else result)

    def request(self, method: str, params: Any) -> Any:
        """Send any request, with raw (JSON-able) parameters; returns the result, or
        raises the JSON-RPC error the server answered (pygls's ``JsonRpcException``)."""
        async def send() -> Any:
            protocol = self.client.protocol
            msg_id = f"raw-{next(self._ids)}"
            future: concurrent.futures.Future[Any] = concurrent.futures.Future()
            protocol._request_futures[msg_id] = future
            protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
            return await asyncio.wrap_future(future)

        return self.run(send())

    def notify(self, method: str, params: Any) -> None:
        """Send any notification, with raw (JSON-able) parameters."""
        async def send() -> None:
            self.client.protocol._send_data({"jsonrpc": "2.0", "method": method, "params": params})

        self.run(send())

    def symbols(self, uri: str) -> list[Any]:
        result = self.run(self.client.text_document_document_symbol_async(t.DocumentSymbolParams(
            text_document=t.TextDocumentIdentifier(uri=uri))))
        return list(result or [])

    def formatting(self, uri: str) -> list[t.TextEdit] | None:
        return self.run(self.client.text_document_formatting_async(t.DocumentFormattingParams(
            text_document=t.TextDocumentIdentifier(uri=uri), options=t.FormattingOptions(tab_size=2, insert_spaces=True))))
