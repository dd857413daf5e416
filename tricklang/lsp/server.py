"""The language server: pygls handlers that turn LSP requests into calls on an :class:`Analysis`.

Every handler is guarded: an exception while answering is logged to the client and
answered with nothing, so that no document, however malformed, stops the server.
"""

from __future__ import annotations

import asyncio
import difflib
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as t
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition, ServerTextRange

from .. import __version__
from ..diagnostics import Diagnostic, RulesError, printable
from ..fmt import format_text
from ..ruleset import read_limited
from . import completion, hover, symbols
from .analysis import NOT_A_FILE, Analysis, analyse, same_file

LOG = logging.getLogger("tricklang.lsp")

DEBOUNCE_SECONDS = 0.15
"""Diagnostics wait for this pause in typing (hover and the like always see the latest text)."""

SYMBOL_KINDS = {
    "phase": t.SymbolKind.Function,
    "option": t.SymbolKind.Property,
    "zone": t.SymbolKind.Array,
    "counter": t.SymbolKind.Number,
    "role": t.SymbolKind.Variable,
    "irregularity": t.SymbolKind.Event,
    "table": t.SymbolKind.Array,
    "melds": t.SymbolKind.Struct,
    "bids": t.SymbolKind.Enum,
    "order": t.SymbolKind.Enum,
}


@dataclass(frozen=True)
class _Unreadable:
    """A request whose parameters do not fit the protocol: it is answered with ``error``."""

    id: int | str
    error: t.ResponseError


def _fits(params: Any) -> bool:
    """What pygls's converter lets through (it makes text of any value) but no handler can
    use: a document URI that is not text, a position that is not two whole numbers from 0."""
    if not isinstance(params, dict):
        return True  # (the converter judges the rest)
    document = params.get("textDocument")
    if isinstance(document, dict) and "uri" in document and not isinstance(document["uri"], str):
        return False
    position = params.get("position")
    if position is not None:
        if not isinstance(position, dict):
            return False
        for part in (position.get("line"), position.get("character")):
            if type(part) is not int or not 0 <= part < 2**31:
                return False
    return True


class TrickProtocol(LanguageServerProtocol):
    """pygls's protocol, but a request whose parameters cannot be read (a missing position,
    a number where a URI belongs...) is answered with a JSON-RPC error (``-32602 Invalid
    params``) instead of only being logged, which left the client waiting for ever."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            if "method" in data and "jsonrpc" in data and not _fits(data.get("params")):
                raise JsonRpcInvalidParams()
            return super().structure_message(data)
        except JsonRpcException as err:
            msg_id = data.get("id")
            if "method" not in data or not isinstance(msg_id, (int, str)) or isinstance(msg_id, bool):
                raise  # (a notification, or no id to answer: logged, as pygls does)
            method = data["method"] if isinstance(data["method"], str) else "?"
            return _Unreadable(msg_id, t.ResponseError(
                code=err.code, message=f"{err.message}: the parameters of {printable(method[:80])} do not fit the protocol"))

    def handle_message(self, message: Any) -> None:
        if isinstance(message, _Unreadable):
            self._send_response(message.id, error=message.error)
            return
        super().handle_message(message)


class TrickServer(LanguageServer):
    """A pygls server that keeps the analysis of each open document's latest version."""

    def __init__(self) -> None:
        super().__init__("tricklang", __version__, text_document_sync_kind=t.TextDocumentSyncKind.Incremental,
                         protocol_cls=TrickProtocol)
        self.analyses: dict[str, tuple[int | None, Analysis]] = {}
        self.parsed: dict[str, Analysis] = {}  # the latest analysis of each document that parsed
        self.pending: dict[str, asyncio.TimerHandle] = {}  # diagnostics to publish once typing pauses

    def analysis(self, uri: str) -> Analysis:
        """The analysis of the document's current text (recomputed only when it changed)."""
        doc = self.workspace.get_text_document(uri)
        cached = self.analyses.get(uri)
        if cached is not None and cached[0] == doc.version and cached[1].text == doc.source:
            return cached[1]
        result = analyse(doc.source, _path_of(doc))
        self.analyses[uri] = (doc.version, result)
        if result.chain:
            self.parsed[uri] = result
        return result

    def publish_soon(self, uri: str) -> None:
        """Publish after a short pause in typing (each change restarts it): one check per burst of keys."""
        waiting = self.pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        self.pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, self._publish_later, uri)

    def _publish_later(self, uri: str) -> None:
        self.pending.pop(uri, None)
        if uri not in self.workspace.text_documents:
            return  # closed meanwhile
        try:
            self.publish(uri)
        except Exception:  # noqa: BLE001 - as in `guarded`: never let a document stop the server
            LOG.exception("tricklang lsp: publishing diagnostics failed")

    def publish(self, uri: str) -> None:
        """Send the document's diagnostics to the client."""
        doc = self.workspace.get_text_document(uri)
        result = self.analysis(uri)
        items = [self.diagnostic(doc, result, d) for d in result.diagnostics]
        self.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(uri=uri, version=doc.version, diagnostics=items))

    def line_edits(self, old: str, new: str) -> list[t.TextEdit]:
        """Edits turning ``old`` into ``new``, whole lines at a time (only the lines that differ)."""
        before, after = old.splitlines(keepends=True), new.splitlines(keepends=True)
        edits = []
        matcher = difflib.SequenceMatcher(a=before, b=after, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op != "equal":
                rng = ServerTextRange(self._line_start(before, i1), self._line_start(before, i2))
                edits.append(t.TextEdit(range=self.workspace.position_codec.range_to_client_units(before, rng),
                                        new_text="".join(after[j1:j2])))
        return edits

    @staticmethod
    def _line_start(lines: list[str], row: int) -> ServerTextPosition:
        """Where line ``row`` starts; past the last line, the end of the text."""
        if row < len(lines) or not lines or lines[-1].endswith(("\n", "\r")):
            return ServerTextPosition(row, 0)
        return ServerTextPosition(len(lines) - 1, len(lines[-1]))

    # ------------------------------------------------------------ positions
    def to_range(self, text: str, line: int, column: int, end_column: int, end_line: int = 0) -> t.Range:
        """A client range from 1-based line and columns of a text (0 for unknown: the first line)."""
        lines = text.splitlines(True) or [""]
        row = min(max(line, 1), len(lines)) - 1
        end_row = min(max(end_line or line, 1), len(lines)) - 1
        length = len(lines[row].rstrip("\r\n"))
        start = min(max(column, 1) - 1, length) if line else 0
        end_length = len(lines[end_row].rstrip("\r\n"))
        if end_column > 0 and (end_row > row or end_column - 1 > start):
            end = min(end_column - 1, end_length)
        else:  # no end known: to the end of the word, else of the line
            word = _word_length(lines[row][start:])
            end = start + word if word else length
            end_row = row
        server = ServerTextRange(ServerTextPosition(row, start), ServerTextPosition(end_row, max(end, start)))
        return self.workspace.position_codec.range_to_client_units(lines, server)

    def at_position(self, params: t.DefinitionParams | t.HoverParams | t.CompletionParams) -> tuple[Analysis, int, int]:
        """The analysis of the document a request names (refreshed), and the request's
        position in it as a 1-based line and column."""
        doc = self.workspace.get_text_document(params.text_document.uri)
        result = self.analysis(params.text_document.uri)
        line, column = self.from_position(doc, params.position)
        return result, line, column

    def from_position(self, doc: TextDocument, position: t.Position) -> tuple[int, int]:
        """A client position as a 1-based line and column of the document's text."""
        server = doc.position_from_client_units(position)
        return server.line + 1, server.character + 1

    def diagnostic(self, doc: TextDocument, result: Analysis, d: Diagnostic) -> t.Diagnostic:
        """An LSP diagnostic; one found in a base file is shown on the `extends` line and points there."""
        severity = t.DiagnosticSeverity.Error if d.severity == "error" else t.DiagnosticSeverity.Warning
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        own = result.own
        if same_file(d.path, result.path) or d.path == NOT_A_FILE:
            rng = self.to_range(doc.source, d.line, d.column, d.end_column)
            return t.Diagnostic(range=rng, message=message, severity=severity, code=d.code, source="tricklang")
        span = own.extends_span if own is not None else None
        rng = self.to_range(doc.source, span.line if span else 1, span.column if span else 1,
                            span.end_column if span else 0)
        where = f"{Path(d.path).name}:{d.line}:{d.column}" if d.line else Path(d.path).name
        related: list[t.DiagnosticRelatedInformation] = []
        base_text = _read(d.path)
        if base_text is not None:
            related.append(t.DiagnosticRelatedInformation(
                location=t.Location(uri=from_fs_path(d.path) or d.path,
                                    range=self.to_range(base_text, d.line, d.column, d.end_column)),
                message=d.message))
        return t.Diagnostic(range=rng, message=f"in the base file {where}: {message}", severity=severity,
                            code=d.code, source="tricklang", related_information=related or None)


def _word_length(text: str) -> int:
    n = 0
    while n < len(text) and (text[n].isalnum() or text[n] in "_'"):
        n += 1
    return n


def _read(path: str) -> str | None:
    """A base file's text to place a position in, read as rule files are (a regular file,
    at most the size limit; never blocks); None when it cannot be."""
    try:
        return read_limited(Path(path), "base rule file")
    except RulesError:
        return None


def _path_of(doc: TextDocument) -> str:
    path = to_fs_path(doc.uri)
    return path if path and doc.uri.startswith("file:") else NOT_A_FILE


F = TypeVar("F", bound=Callable[..., Any])


def guarded(handler: F) -> F:
    """Answer nothing (and log why) instead of letting an exception reach pygls."""

    @functools.wraps(handler)
    def wrapper(ls: TrickServer, params: Any) -> Any:
        try:
            return handler(ls, params)
        except Exception as err:  # noqa: BLE001 - a request must never take the server down
            LOG.exception("tricklang lsp: %s failed", handler.__name__)
            ls.window_log_message(t.LogMessageParams(
                type=t.MessageType.Error, message=f"tricklang: {handler.__name__} failed: {type(err).__name__}: {err}"))
            return None

    return wrapper  # type: ignore[return-value]


SERVER = TrickServer()


@SERVER.feature(t.TEXT_DOCUMENT_DID_OPEN)
@guarded
def did_open(ls: TrickServer, params: t.DidOpenTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


@SERVER.feature(t.TEXT_DOCUMENT_DID_CHANGE)
@guarded
def did_change(ls: TrickServer, params: t.DidChangeTextDocumentParams) -> None:
    ls.publish_soon(params.text_document.uri)


@SERVER.feature(t.TEXT_DOCUMENT_DID_SAVE)
@guarded
def did_save(ls: TrickServer, params: t.DidSaveTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)  # a base file read from disk may have changed


@SERVER.feature(t.TEXT_DOCUMENT_DID_CLOSE)
@guarded
def did_close(ls: TrickServer, params: t.DidCloseTextDocumentParams) -> None:
    ls.analyses.pop(params.text_document.uri, None)
    waiting = ls.pending.pop(params.text_document.uri, None)
    if waiting is not None:
        waiting.cancel()
    ls.parsed.pop(params.text_document.uri, None)
    ls.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


@SERVER.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded
def document_symbol(ls: TrickServer, params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
    result = ls.analysis(params.text_document.uri)
    out = []
    for s in symbols.outline(result):
        selection = ls.to_range(result.text, s.line, s.column, s.end_column)
        whole = ls.to_range(result.text, s.line, 1, 10**6, s.end_line or s.line)
        out.append(t.DocumentSymbol(name=s.name, kind=SYMBOL_KINDS[s.kind], range=whole,
                                    selection_range=selection, detail=s.detail))
    return out


@SERVER.feature(t.TEXT_DOCUMENT_DEFINITION)
@guarded
def definition(ls: TrickServer, params: t.DefinitionParams) -> t.Location | None:
    result, line, column = ls.at_position(params)
    target = symbols.definition(result, line, column)
    if target is None:
        return None
    if same_file(target.path, result.path):
        uri, text = params.text_document.uri, result.text
    else:
        uri, text = from_fs_path(target.path) or target.path, _read(target.path) or ""
    return t.Location(uri=uri, range=ls.to_range(text, target.line, target.column, target.end_column))


@SERVER.feature(t.TEXT_DOCUMENT_HOVER)
@guarded
def on_hover(ls: TrickServer, params: t.HoverParams) -> t.Hover | None:
    result, line, column = ls.at_position(params)
    found = hover.hover(result, line, column)
    if found is None:
        return None
    rng = ls.to_range(result.text, found.line, found.column, found.end_column, found.end_line)
    return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=found.markdown), range=rng)


COMPLETION_KINDS = {
    "keyword": t.CompletionItemKind.Keyword, "zone": t.CompletionItemKind.Field, "role": t.CompletionItemKind.Variable,
    "player": t.CompletionItemKind.Variable, "option": t.CompletionItemKind.Property,
    "variable": t.CompletionItemKind.Variable, "counter": t.CompletionItemKind.Field,
    "value": t.CompletionItemKind.Constant, "function": t.CompletionItemKind.Function,
    "choice": t.CompletionItemKind.EnumMember, "phase": t.CompletionItemKind.Function,
    "suit": t.CompletionItemKind.Enum, "rank": t.CompletionItemKind.Constant, "card": t.CompletionItemKind.Value,
    "declaration": t.CompletionItemKind.Event, "table": t.CompletionItemKind.Function,
    "colour": t.CompletionItemKind.Enum,
}


@SERVER.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=[" ", "("]))
@guarded
def on_completion(ls: TrickServer, params: t.CompletionParams) -> t.CompletionList:
    result, line, column = ls.at_position(params)  # also refreshes the latest parsed version
    items = completion.complete(result.text, line, column, ls.parsed.get(params.text_document.uri))
    return t.CompletionList(is_incomplete=False, items=[
        t.CompletionItem(label=i.label, kind=COMPLETION_KINDS.get(i.kind, t.CompletionItemKind.Text),
                         detail=i.detail or i.kind) for i in items])


@SERVER.feature(t.TEXT_DOCUMENT_FORMATTING)
@guarded
def on_formatting(ls: TrickServer, params: t.DocumentFormattingParams) -> list[t.TextEdit] | None:
    """The edits that give the document `tricklang fmt`'s layout (none when it has errors: its
    diagnostics say why, and a file that does not parse is never rewritten)."""
    doc = ls.workspace.get_text_document(params.text_document.uri)
    try:
        formatted = format_text(doc.source, _path_of(doc))
    except RulesError:
        return None
    return ls.line_edits(doc.source, formatted)
