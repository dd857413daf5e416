"""The language server end to end: the real server over stdio, driven by pygls's client.

One server process serves the whole module (starting one costs about two seconds).
Documents are opened under tmp paths or from the repository; each test opens its own.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsp_client import Client  # noqa: E402
from lsprotocol import types as t  # noqa: E402 - after the importorskip
from pygls.uris import to_fs_path  # noqa: E402

import tricklang  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ECARTE = ROOT / "rules" / "ecarte.trick"
CUTTHROAT = ROOT / "examples" / "cinch-cutthroat.trick"


@pytest.fixture(scope="module")
def lsp() -> Iterator[Client]:
    client = Client()
    yield client
    assert client.close() == 0
    assert not client.logs, client.logs  # no handler failed


def check_json(path: Path) -> list[dict[str, object]]:
    """What `tricklang check` reports for a file, as the CLI's JSON does."""
    try:
        found = list(tricklang.load(path).warnings)
    except tricklang.RulesError as err:
        found = list(err.diagnostics) + list(err.warnings)
    return [d.to_dict() for d in found]


def line_of(text: str, needle: str) -> int:
    """The 0-based line of the first line containing ``needle``."""
    return next(i for i, line in enumerate(text.splitlines()) if needle in line)


# ---------------------------------------------------------------- diagnostics


def test_a_shipped_rule_file_has_no_diagnostics(lsp: Client) -> None:
    uri = lsp.open(ECARTE)
    assert lsp.wait_diagnostics(uri) == []


@pytest.mark.parametrize("name", ["undefined-name-role-typo", "syntax-missing-colon", "bad-indent-tab",
                                  "duplicate-name-zone", "deck-too-small"])
def test_diagnostics_are_those_of_check(lsp: Client, name: str) -> None:
    path = ROOT / "tests" / "invalid" / f"{name}.trick"
    uri = lsp.open(path)
    got = lsp.wait_diagnostics(uri)
    expected = check_json(path)
    assert expected
    assert [d.code for d in got] == [e["code"] for e in expected]
    for d, e in zip(got, expected, strict=True):
        assert d.source == "tricklang"
        assert d.severity == (t.DiagnosticSeverity.Error if e["severity"] == "error" else t.DiagnosticSeverity.Warning)
        assert str(e["message"]) in d.message
        if e["hint"]:
            assert f"hint: {e['hint']}" in d.message
        if e["line"]:
            assert d.range.start.line == int(str(e["line"])) - 1
            assert d.range.start.character == int(str(e["column"])) - 1


def test_diagnostics_follow_each_change(lsp: Client, tmp_path: Path) -> None:
    text = ECARTE.read_text(encoding="utf-8")
    path = tmp_path / "ecarte.trick"
    uri = lsp.open(path, text)
    assert lsp.wait_diagnostics(uri) == []
    row = line_of(text, "elder chooses:")
    col = text.splitlines()[row].index("elder")
    lsp.edit(uri, row, col, col + len("elder"), "eldr")  # a typo, typed incrementally
    got = lsp.wait_diagnostics(uri)
    assert [d.code for d in got] == ["undefined-name"]
    assert (got[0].range.start.line, got[0].range.start.character) == (row, col)
    assert (got[0].range.end.line, got[0].range.end.character) == (row, col + 4)
    assert "did you mean 'elder'?" in got[0].message
    lsp.edit(uri, row, col, col + 4, "elder")
    assert lsp.wait_diagnostics(uri) == []


def test_a_burst_of_keys_is_checked_once_it_pauses(lsp: Client, tmp_path: Path) -> None:
    text = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open(tmp_path / "burst.trick", text)
    lsp.wait_diagnostics(uri)
    row = line_of(text, "turn up 1 to turnup")
    start = text.splitlines()[row].index("turnup")
    typed = "turnup_zone_of_the_dealer"
    for i in range(1, len(typed) + 1):  # typing a name one key at a time
        lsp.edit(uri, row, start, start + (i - 1 if i > 1 else len("turnup")), typed[:i])
    got = lsp.wait_diagnostics(uri)
    assert [d.code for d in got] == ["undefined-name"] and typed in got[0].message
    published = [p.version for p in lsp.diagnostics[uri]]
    assert len(published) <= 1 + len(typed) // 2, published  # most keystrokes were never checked


@pytest.mark.parametrize("text", [
    "",
    "tricklang 1\ndeal\n  if\n",
    "\x00\x01 garbage ((( [[[ \"\n\t\t  \n",
    "tricklang 1\n" + "deal\n" + "".join("  " * i + "if x:\n" for i in range(1, 60)),
    "tricklang 1\nextends \"nowhere/at/all.trick\"\n",
    "(" * 5000,
    "tricklang 1\n" + "# padding\n" * 30_000,
])
def test_a_malformed_document_gives_diagnostics_not_a_crash(lsp: Client, tmp_path: Path, text: str) -> None:
    uri = lsp.open(tmp_path / "broken.trick", text)
    got = lsp.wait_diagnostics(uri)
    assert got and all(d.severity == t.DiagnosticSeverity.Error for d in got)
    # and the server still answers every kind of request on it
    assert lsp.symbols(uri) == []
    lsp.hover(uri, 0, 0)
    lsp.definition(uri, 0, 1)
    lsp.completion(uri, 0, 0)


def test_an_unsaved_buffer_is_checked_too(lsp: Client) -> None:
    text = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open("untitled:Untitled-1", text.replace("elder chooses:", "eldr chooses:", 1))
    assert [d.code for d in lsp.wait_diagnostics(uri)] == ["undefined-name"]
    row = line_of(text, "option target:")
    found = lsp.hover(uri, row, len("option t"))
    assert found is not None and "Points that win the game" in str(found.contents)


def test_an_unreadable_base_file_is_a_diagnostic_on_the_extends_line(lsp: Client, tmp_path: Path) -> None:
    base = tmp_path / "base.trick"
    base.write_bytes(b"tricklang 1\n\xff\xfe not utf-8\n")
    text = 'tricklang 1\nextends "base.trick"\ngame "v"\n'
    uri = lsp.open(tmp_path / "variant.trick", text)
    got = lsp.wait_diagnostics(uri)
    assert [d.code for d in got] == ["unreadable-file"]
    assert got[0].range.start.line == 1
    assert "base.trick" in got[0].message


def test_errors_of_a_base_file_are_shown_on_the_extends_line_and_point_there(lsp: Client, tmp_path: Path) -> None:
    base_text = ECARTE.read_text(encoding="utf-8").replace("elder chooses:", "eldr chooses:", 1)
    base = tmp_path / "base.trick"
    base.write_text(base_text, encoding="utf-8")
    text = 'tricklang 1\nextends "base.trick"\ngame "Variant"\n'
    (tmp_path / "variant.trick").write_text(text, encoding="utf-8")
    uri = lsp.open(tmp_path / "variant.trick")
    got = lsp.wait_diagnostics(uri)
    expected = check_json(tmp_path / "variant.trick")
    assert [d.code for d in got] == [e["code"] for e in expected] == ["undefined-name"]
    assert got[0].range.start.line == 1  # the extends line
    assert got[0].related_information
    where = got[0].related_information[0].location
    assert to_fs_path(where.uri) == str(base)
    assert where.range.start.line == line_of(base_text, "eldr chooses:")


def test_warnings_are_warnings(lsp: Client, tmp_path: Path) -> None:
    text = ECARTE.read_text(encoding="utf-8").replace(
        "option target:", 'option spare: int = 1 in 0..9 "never read"\noption target:', 1)
    uri = lsp.open(tmp_path / "warn.trick", text)
    got = lsp.wait_diagnostics(uri)
    assert [(d.code, d.severity) for d in got] == [("unused-option", t.DiagnosticSeverity.Warning)]
    assert got[0].range.start.line == line_of(text, "option spare")


# ---------------------------------------------------------------- symbols and definitions


def test_document_symbols_list_phases_options_zones_and_irregularities(lsp: Client) -> None:
    uri = lsp.open(CUTTHROAT)
    found = {(s.name, s.kind) for s in lsp.symbols(uri)}
    rules = tricklang.parse(CUTTHROAT.read_text(encoding="utf-8"), str(CUTTHROAT))
    assert {(o.name, t.SymbolKind.Property) for o in rules.options} <= found
    assert {(i.name, t.SymbolKind.Event) for i in rules.irregularities} <= found
    assert ("drawing", t.SymbolKind.Function) in found
    uri = lsp.open(ECARTE)
    names = [s.name for s in lsp.symbols(uri)]
    assert {"hand", "stock", "turnup", "target", "elder", "wrong_count_before_turnup"} <= set(names)


def test_definition_of_a_name_is_its_declaration(lsp: Client) -> None:
    text = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open(ECARTE)
    row = line_of(text, "elder chooses:")
    col = text.splitlines()[row].index("elder") + 2
    loc = lsp.definition(uri, row, col)
    assert loc.uri == uri
    assert loc.range.start.line == line_of(text, "role elder")
    assert text.splitlines()[loc.range.start.line][loc.range.start.character:loc.range.end.character] == "elder"
    row = line_of(text, "count(stock) > 0:")
    col = text.splitlines()[row].index("stock")
    loc = lsp.definition(uri, row, col)
    assert loc.range.start.line == line_of(text, "zone stock:")


def test_definition_of_extends_and_of_a_replaced_phase_is_in_the_base(lsp: Client) -> None:
    text = CUTTHROAT.read_text(encoding="utf-8")
    base = ROOT / "rules" / "cinch.trick"
    base_text = base.read_text(encoding="utf-8")
    uri = lsp.open(CUTTHROAT)
    loc = lsp.definition(uri, line_of(text, "extends"), 3)
    assert to_fs_path(loc.uri) == str(base)
    row = line_of(text, "phase drawing:")
    loc = lsp.definition(uri, row, text.splitlines()[row].index("drawing") + 1)
    assert to_fs_path(loc.uri) == str(base)
    assert loc.range.start.line == line_of(base_text, "phase drawing:")



# ---------------------------------------------------------------- hover


def hover_at(lsp: Client, uri: str, text: str, needle: str, offset: int = 0) -> str:
    row = line_of(text, needle)
    found = lsp.hover(uri, row, text.splitlines()[row].index(needle) + offset)
    assert found is not None, needle
    assert isinstance(found.contents, t.MarkupContent)
    return found.contents.value


def test_hover_on_an_option_gives_its_type_default_and_doc(lsp: Client) -> None:
    text = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open(ECARTE)
    rules = tricklang.load(ECARTE).rules
    for option in rules.options:
        shown = hover_at(lsp, uri, text, f"option {option.name}:", len("option ") + 1)
        default = str(option.default).lower() if isinstance(option.default, bool) else str(option.default)
        assert f"`{option.name}`" in shown and f"= `{default}`" in shown and option.doc in shown
        assert (option.type in shown) or "choice(" in shown
    used = hover_at(lsp, uri, text, "when must_trump_when_void", len("when ") + 2)
    assert "bool" in used and "A follower void in the suit led must trump" in used


def test_hover_on_a_card_pattern_lists_its_cards_under_each_trump(lsp: Client) -> None:
    cinch = ROOT / "rules" / "cinch.trick"
    text = cinch.read_text(encoding="utf-8")
    uri = lsp.open(cinch)
    shown = hover_at(lsp, uri, text, "5 of same colour as trump)", 1)
    assert "- hearts trumps: 5D" in shown and "- clubs trumps: 5S" in shown and "- no trump: none" in shown
    ecarte_text = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open(ECARTE)
    shown = hover_at(lsp, uri, ecarte_text, "K of trump,", 0)
    assert "- spades trumps: KS" in shown and "- diamonds trumps: KD" in shown


@pytest.mark.parametrize("needle", ["must follow suit", "turn up 1 to turnup", "if turnup has K", "elder discards 1..5",
                                    "declare king holding", "irregularity wrong_count_before_turnup", "tricks 5, elder"])
def test_hover_on_a_statement_reads_it_as_explain_does_with_its_laws(lsp: Client, needle: str) -> None:
    from tricklang.explain import explain

    text = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open(ECARTE)
    shown = hover_at(lsp, uri, text, needle, 1)
    reading, _, laws = shown.partition("\n\nLaws: ")
    prose = explain(tricklang.load(ECARTE))
    assert reading.startswith("- ")
    for line in reading.splitlines()[:40]:
        sentence = line.strip()[2:]
        if sentence != "…":  # as in explain, where a one-line branch reads "Otherwise, the elder ..."
            assert sentence in prose or sentence[:1].lower() + sentence[1:] in prose, line
    cited = re.search(r"\[([^\]]*)\]", text.splitlines()[line_of(text, needle)].split("#")[0])
    assert cited is not None
    assert laws.startswith(f"[{cited.group(1)}]")
    first = cited.group(1).split(",")[0].split("-")[0].strip()
    assert f"- **{first}**: " in laws  # its summary, from rules/laws.md


# ---------------------------------------------------------------- completion


def labels(lsp: Client, uri: str, line: int, character: int) -> list[str]:
    return [item.label for item in lsp.completion(uri, line, character)]


def test_completion_offers_what_is_valid_where_the_cursor_is(lsp: Client, tmp_path: Path) -> None:
    text = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open(tmp_path / "ecarte.trick", text)
    rules = tricklang.load(ECARTE).rules
    zones = {z.name for z in rules.zones}
    row = line_of(text, "turn up 1 to turnup")
    assert set(labels(lsp, uri, row, text.splitlines()[row].index("turnup"))) == zones
    row = line_of(text, "if turnup has K")
    got = labels(lsp, uri, row, text.splitlines()[row].index("K:"))
    assert {"K", "trump", "any", "hearts", "K of spades", "7 of clubs"} <= set(got) and not zones & set(got)
    assert {"tricklang", "deck", "option", "zone", "irregularity"} <= set(labels(lsp, uri, 0, 0))
    row = line_of(text, "must follow suit")
    assert "must beat if able" in labels(lsp, uri, row, 4)
    row = line_of(text, "if stock_shortfall == no_overask")
    assert labels(lsp, uri, row, text.splitlines()[row].index("no_overask")) == ["own_discard", "no_overask"]


def test_completion_works_while_the_line_does_not_parse(lsp: Client, tmp_path: Path) -> None:
    text = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open(tmp_path / "typing.trick", text)
    lsp.wait_diagnostics(uri)
    row = line_of(text, "turn up 1 to turnup")
    lsp.change(uri, text.replace("turn up 1 to turnup", "turn up 1 to ", 1))
    assert [d.code for d in lsp.wait_diagnostics(uri)] == ["syntax-error"]
    got = labels(lsp, uri, row, len(text.splitlines()[row].split("turnup")[0]))
    assert set(got) == {z.name for z in tricklang.load(ECARTE).rules.zones}


def test_a_variant_is_offered_its_base_phases(lsp: Client) -> None:
    text = CUTTHROAT.read_text(encoding="utf-8")
    uri = lsp.open(CUTTHROAT)
    row = line_of(text, "phase drawing:")
    got = labels(lsp, uri, row, text.splitlines()[row].index("drawing"))
    base = (ROOT / "rules" / "cinch.trick").read_text(encoding="utf-8")
    assert "drawing" in got and "robbing" in got
    assert all(f"phase {name}:" in base for name in got)


# ---------------------------------------------------------------- positions and the command


def test_positions_are_counted_in_utf16_units(lsp: Client, tmp_path: Path) -> None:
    text = ECARTE.read_text(encoding="utf-8").replace('cancel "king turned up" for dealer', 'cancel "🂡🂡" for dealr', 1)
    uri = lsp.open(tmp_path / "cards.trick", text)
    got = lsp.wait_diagnostics(uri)
    assert [d.code for d in got] == ["undefined-name"]
    row = line_of(text, "for dealr")
    column = text.splitlines()[row].index("dealr")  # in code points; each card is two UTF-16 units
    assert (got[0].range.start.line, got[0].range.start.character) == (row, column + 2)
    assert got[0].range.end.character == column + 2 + len("dealr")
    for_column = text.splitlines()[row].index("for")
    hovered = lsp.hover(uri, row, for_column + 2 + 1)  # just after the cards, on 'for': inside the cancel statement
    assert hovered is not None and isinstance(hovered.contents, t.MarkupContent)
    assert "scored this deal as “🂡🂡” are cancelled" in hovered.contents.value
    assert hovered.range is not None and hovered.range.start.character == text.splitlines()[row].index("cancel")


def raw_message(payload: dict[str, object]) -> bytes:
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_the_tricklang_command_serves_lsp_on_stdio() -> None:
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                        "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "lsp"], input=b"".join(map(raw_message, messages)),
                          capture_output=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    bodies = [json.loads(part) for part in re.split(rb"Content-Length: \d+\r\n(?:[^\r\n]+\r\n)*\r\n", done.stdout) if part]
    init = next(b for b in bodies if b.get("id") == 1)["result"]
    assert init["serverInfo"]["name"] == "tricklang"
    caps = init["capabilities"]
    for feature in ("hoverProvider", "completionProvider", "definitionProvider", "documentSymbolProvider"):
        assert caps.get(feature), feature


def test_without_pygls_the_command_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from tricklang.lsp import main

    monkeypatch.setitem(sys.modules, "tricklang.lsp.server", None)  # as if pygls were missing
    assert main() == 2
    assert "pip install 'tricklang[lsp]'" in capsys.readouterr().err


def test_expressions_are_offered_options_roles_counters_and_functions(lsp: Client, tmp_path: Path) -> None:
    spades = ROOT / "examples" / "spades.trick"
    text = spades.read_text(encoding="utf-8")
    uri = lsp.open(spades)
    rules = tricklang.load(spades).rules
    row = line_of(text, "if blind_nil:")
    got = set(labels(lsp, uri, row, text.splitlines()[row].index("blind_nil")))
    assert {o.name for o in rules.options} <= got
    assert {r.name for r in rules.roles} | {c.name for c in rules.counters} <= got
    assert {"dealer", "count(", "tricks(", "left of", "true"} <= got
    assert "hand" not in got  # a zone is no value
    row = line_of(text, "add 1 to blind of player")
    got = set(labels(lsp, uri, row, text.splitlines()[row].index("blind of")))
    assert got == {c.name for c in rules.counters}


def test_definition_of_an_inherited_name_is_in_the_base(lsp: Client) -> None:
    text = CUTTHROAT.read_text(encoding="utf-8")
    base_text = (ROOT / "rules" / "cinch.trick").read_text(encoding="utf-8")
    uri = lsp.open(CUTTHROAT)
    row = line_of(text, "player draws to 6 from stock")
    loc = lsp.definition(uri, row, text.splitlines()[row].index("stock") + 1)
    assert to_fs_path(loc.uri) == str(ROOT / "rules" / "cinch.trick")
    assert loc.range.start.line == line_of(base_text, "zone stock:")


def test_hover_on_a_declared_name_shows_its_declaration(lsp: Client) -> None:
    text = CUTTHROAT.read_text(encoding="utf-8")
    uri = lsp.open(CUTTHROAT)
    shown = hover_at(lsp, uri, text, "irregularity asked_for_too_many(extra: count 1..3) during play", len("irregularity ") + 1)
    assert shown.startswith("- **asked_for_too_many**, naming *extra*, a count from 1 to 3")  # as explain reads it
    ecarte = ECARTE.read_text(encoding="utf-8")
    uri = lsp.open(ECARTE)
    shown = hover_at(lsp, uri, ecarte, "zone stock:", len("zone ") + 1)
    assert shown.startswith("**zone** `stock`: zone, shared, hidden, pack")
    assert "zone stock: shared, hidden, pack" in shown and "Laws: [E6]" in shown


# ---------------------------------------------------------------- formatting


def apply_edits(text: str, edits: list[t.TextEdit]) -> str:
    """The text after the edits (positions in UTF-16 units; the test texts are ASCII)."""
    lines = text.splitlines(keepends=True)

    def offset(p: t.Position) -> int:
        return sum(len(line) for line in lines[: p.line]) + p.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end):]
    return text


def test_formatting_gives_the_layout_of_tricklang_fmt(lsp: Client, tmp_path: Path) -> None:
    from tricklang.fmt import format_text

    whist = (ROOT / "examples" / "whist.trick").read_text(encoding="utf-8")
    messy = re.sub(r"(?m)^( +)", r"\1\1", whist)  # blocks indented twice as deep
    messy = re.sub(r" {2,}\[", " [", messy)  # citations not aligned
    messy = messy.replace("\n", "   \n").rstrip()  # trailing spaces, no final newline
    uri = lsp.open(tmp_path / "messy.trick", messy)
    edits = lsp.formatting(uri)
    assert edits
    assert apply_edits(messy, edits) == format_text(messy) != messy
    lsp.change(uri, format_text(messy))
    assert not lsp.formatting(uri) and lsp.formatting(uri) is not None  # already formatted: no edit


def test_a_document_that_does_not_parse_is_not_formatted(lsp: Client, tmp_path: Path) -> None:
    uri = lsp.open(tmp_path / "broken.trick", "tricklang 1\ndeal\n  if x\n")
    assert lsp.formatting(uri) is None
