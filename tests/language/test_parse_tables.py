"""The parser's stored LALR tables (tricklang/parse_tables.py): current with the grammar,
and a parser rebuilt from them reads every rule file exactly as one analysed from the
grammar does; with tables made for another grammar or Lark version the grammar is used."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lark
import pytest
from lark import Lark

from tricklang import parse_tables, parser

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])
REGENERATE = ".venv/bin/python tests/make_parse_tables.py"


@pytest.fixture(scope="module")
def analysed() -> Lark:
    """A parser analysed from grammar.lark, as without stored tables."""
    return Lark(parser._grammar(), postlex=parser._TrickIndenter(), **parser._OPTIONS)


def test_stored_tables_are_current() -> None:
    """Made from this grammar by this Lark (Lark numbers its states and tokens in an order
    that varies from run to run, so the file itself cannot be compared with a new one)."""
    assert parse_tables.GRAMMAR_SHA256 == parser._sha256(parser._grammar()), f"grammar.lark changed: run {REGENERATE}"
    assert "postlex" not in parse_tables.DATA["options"]  # an object, given when loading
    if parse_tables.LARK_VERSION != lark.__version__:  # a new Lark release: correct, but analysed at every start
        pytest.skip(f"the tables are for Lark {parse_tables.LARK_VERSION}, {lark.__version__} is installed: "
                    f"they are not used until {REGENERATE} is run")
    fresh: dict[str, Any] = {}
    exec(compile(parser.tables_source(), "parse_tables.py", "exec"), fresh)
    assert (fresh["LARK_VERSION"], fresh["GRAMMAR_SHA256"]) == (parse_tables.LARK_VERSION, parse_tables.GRAMMAR_SHA256)
    assert _shape(fresh["DATA"]) == _shape(parse_tables.DATA)


def _shape(data: dict[str, Any]) -> tuple[int, list[str]]:
    """The number of parser states and the sorted token names of serialised tables."""
    table = data["parser"]["parser"]
    return len(table["states"]), sorted(table["tokens"].values())


def test_stored_tables_parse_every_rule_file_as_the_grammar_does(analysed: Lark) -> None:
    parser._lark.cache_clear()
    stored = parser._lark()
    if parser.stored_tables_match():
        assert stored.source_path == "<deserialized>"  # built from the tables, not analysed again
    assert len(RULE_FILES) > 10
    for path in RULE_FILES:
        text = path.read_text(encoding="utf-8")
        assert stored.parse(text) == analysed.parse(text), path


def test_tables_of_another_lark_version_are_not_used(monkeypatch: pytest.MonkeyPatch, analysed: Lark) -> None:
    monkeypatch.setattr(parse_tables, "LARK_VERSION", "0.0.0")
    parser._lark.cache_clear()
    try:
        fallback = parser._lark()
        assert fallback.source_path != "<deserialized>"
        text = (ROOT / "rules" / "ecarte.trick").read_text(encoding="utf-8")
        assert fallback.parse(text) == analysed.parse(text)
    finally:
        parser._lark.cache_clear()
