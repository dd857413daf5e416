"""The parsers' stored LALR tables (tricklang/parse_tables.py for the checker's parser,
tricklang/fmt_parse_tables.py for the formatter's, which keeps every token): current
with the grammar, and a parser rebuilt from them reads every rule file of the repository
exactly as one analysed from the grammar does (the same tree, the same tokens at the same
places, the same syntax error); with tables made for another grammar or Lark version the
grammar is used."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from lark.indenter import DedentError

from tricklang import parser

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted(ROOT.glob("**/*.trick"))
REGENERATE = ".venv/bin/python tests/make_parse_tables.py"
BUILT = {"parse_tables": parser._lark, "fmt_parse_tables": parser._lark_all_tokens}
"""Each stored tables module and the cached function that builds its parser."""


@pytest.fixture(scope="module", params=sorted(parser.TABLES))
def name(request: pytest.FixtureRequest) -> str:
    assert set(BUILT) == set(parser.TABLES)
    return str(request.param)


@pytest.fixture(scope="module")
def analysed(name: str) -> Lark:
    """A parser analysed from grammar.lark, as without stored tables."""
    return Lark(parser._grammar(), postlex=parser._TrickIndenter(), **parser.TABLES[name])


def test_the_stored_tables_are_current(name: str) -> None:
    """Made from this grammar by this Lark (Lark numbers its states and tokens in an order
    that varies from run to run, so the file itself cannot be compared with a new one)."""
    tables = import_module(f"tricklang.{name}")
    assert tables.GRAMMAR_SHA256 == parser._sha256(parser._grammar()), f"grammar.lark changed: run {REGENERATE}"
    assert "postlex" not in tables.DATA["options"]  # an object, given when loading
    if tables.LARK_VERSION != lark.__version__:  # a new Lark release: correct, but analysed at every start
        pytest.skip(f"the tables are for Lark {tables.LARK_VERSION}, {lark.__version__} is installed: "
                    f"they are not used until {REGENERATE} is run")
    fresh: dict[str, Any] = {}
    exec(compile(parser.tables_source(name), f"{name}.py", "exec"), fresh)
    assert (fresh["LARK_VERSION"], fresh["GRAMMAR_SHA256"]) == (tables.LARK_VERSION, tables.GRAMMAR_SHA256)
    assert _shape(fresh["DATA"]) == _shape(tables.DATA)
    assert fresh["DATA"]["options"] == tables.DATA["options"]


def _shape(data: dict[str, Any]) -> tuple[int, list[str], int]:
    """The number of parser states, the sorted token names and the number of rules of serialised tables."""
    table = data["parser"]["parser"]
    return len(table["states"]), sorted(table["tokens"].values()), len(data["rules"])


def _reading(lark_parser: Lark, text: str) -> tuple[Any, ...]:
    """What a parser makes of a text: its tree with every token, its rule and its place; or its error."""
    try:
        tree = lark_parser.parse(text if text.endswith("\n") else text + "\n")
    except UnexpectedInput as err:
        expected = sorted(getattr(err, "accepts", None) or getattr(err, "expected", None) or ())
        allowed = sorted(getattr(err, "allowed", None) or ())  # the characters' error: what the state lexes
        token = getattr(err, "token", None)
        found = (token.type, str(token), token.line, token.column) if token is not None else None
        return type(err).__name__, err.line, err.column, expected, allowed, found
    except DedentError as err:
        return type(err).__name__, str(err)
    tokens = [(str(node.data), tok.type, str(tok), tok.line, tok.column, tok.end_line, tok.end_column)
              for node in tree.iter_subtrees_topdown() for tok in node.children if isinstance(tok, Token)]
    return tree, tokens, _places(tree)


def _places(tree: Tree[Token]) -> list[tuple[int | None, ...]]:
    """Where each subtree starts and ends, as far as the parser records it."""
    return [(getattr(t.meta, "line", None), getattr(t.meta, "column", None), getattr(t.meta, "end_line", None),
             getattr(t.meta, "end_column", None)) for t in tree.iter_subtrees_topdown()]


def test_the_stored_tables_read_every_rule_file_as_the_grammar_does(name: str, analysed: Lark) -> None:
    BUILT[name].cache_clear()
    stored = BUILT[name]()
    if parser.stored_tables_match(name=name):
        assert stored.source_path == "<deserialized>"  # built from the tables, not analysed again
    assert len(RULE_FILES) > 80
    errors = 0
    for path in RULE_FILES:
        text = path.read_text(encoding="utf-8")
        reading = _reading(stored, text)
        assert reading == _reading(analysed, text), path
        errors += isinstance(reading[0], str)
    assert 0 < errors < len(RULE_FILES)  # both sides of the comparison were exercised


ODD = ['"', "[", "[E1", "\\", "\\\n", "#", "\t", "\n", "\n  ", "\n\t", " ", "'", "é", "E1", "x", "0", "-1", "\x0c"]
"""Besides the grammar's own words and signs, pieces that take the lexer off its usual paths."""


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_stored_tables_read_mangled_text_as_the_grammar_does(name: str, analysed: Lark,
                                                                 data: st.DataObject) -> None:
    """Random words, signs and odd characters inserted into a rule file: the same tree or error."""
    stored = BUILT[name]()
    words = sorted({str(t.pattern.value) for t in analysed.terminals if t.pattern.type == "str"})
    text = RULE_FILES[data.draw(st.integers(0, len(RULE_FILES) - 1))].read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        piece = data.draw(st.sampled_from(words + ODD))
        text = text[:at] + piece + (" " if data.draw(st.booleans()) else "") + text[at:]
    assert _reading(stored, text) == _reading(analysed, text)


def test_tables_of_another_lark_version_are_not_used(name: str, analysed: Lark,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(import_module(f"tricklang.{name}"), "LARK_VERSION", "0.0.0")
    assert not parser.stored_tables_match(name=name)
    BUILT[name].cache_clear()
    try:
        fallback = BUILT[name]()
        assert fallback.source_path != "<deserialized>"
        text = (ROOT / "rules" / "ecarte.trick").read_text(encoding="utf-8")
        assert _reading(fallback, text) == _reading(analysed, text)
    finally:
        BUILT[name].cache_clear()


def test_tables_of_another_grammar_are_not_used(name: str) -> None:
    assert parser.stored_tables_match(parser._grammar(), name) == (
        import_module(f"tricklang.{name}").LARK_VERSION == lark.__version__)
    assert not parser.stored_tables_match(parser._grammar() + "\n// changed\n", name)


def test_an_unknown_tables_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no stored parse tables named 'pickle'"):
        parser.stored_tables_match(name="pickle")
    with pytest.raises(ValueError, match="no stored parse tables named"):
        parser.tables_source("../parse_tables")
