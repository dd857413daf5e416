"""The quick-start classes of tricklang/stored_parser.py read text exactly as Lark's own do:
the same tokens (type, text, place) and the same error, for every set of terminals a parser
state accepts, on the repository's rule files and on mangled text. (Whole parses, tree
for tree and error for error, are compared in test_parse_tables.py.)"""

from __future__ import annotations

import re
from copy import copy
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedCharacters
from lark.lexer import BasicLexer, LexerState, Scanner
from lark.utils import TextSlice

from tricklang import parser, stored_parser
from tricklang.stored_parser import LazyContextualLexer, OrderedLexer, OrderedScanner

ROOT = Path(__file__).resolve().parents[2]
TEXTS = [p.read_text(encoding="utf-8") for p in sorted(ROOT.glob("**/*.trick"))]
STORED = parser._lark()
CONF = STORED.lexer_conf
ACCEPTS = sorted({frozenset(row) for row in STORED.parser.parser.parser.parse_table.states.values()}, key=sorted)
"""Every set of terminals a state of the checker's parser accepts."""

MANGLE = ['"', "[", "]", "\\", "\\\n", "#", "\t", "\n", " ", "-", "--", "..", "'", "é", "deal", "E1",
          "[E1]", "of", "bottom of", "==", "<", "*", "%", "0", "-1", "x", ":", "(", ")", ",", "\x0c"]
"""Pieces inserted into rule text to reach the lexer's less travelled paths."""


def _lexer_conf(names: frozenset[str]) -> Any:
    conf = copy(CONF)
    extra = set(conf.ignore) | {"_NL"}
    conf.terminals = [conf.terminals_by_name[n] for n in names | extra if n in conf.terminals_by_name]
    return conf


def _tokens(lexer: BasicLexer, text: str, start: int) -> list[tuple[Any, ...]]:
    """What a lexer reads from ``start`` on: each token, then how it stopped."""
    state = LexerState(TextSlice(text, 0, len(text)))
    state.line_ctr.feed(text[:start])
    out: list[tuple[Any, ...]] = []
    try:
        for tok in lexer.lex(state, None):
            out.append((tok.type, str(tok), tok.start_pos, tok.line, tok.column, tok.end_line, tok.end_column))
            if len(out) > 40:
                break
    except UnexpectedCharacters as err:
        out.append(("error", err.pos_in_stream, err.line, err.column, sorted(err.allowed or ())))
    return out


def test_the_plugins_are_used_and_usable() -> None:
    assert stored_parser.usable(CONF)
    if parser.stored_tables_match():
        assert isinstance(STORED.parser.lexer.lexer, LazyContextualLexer)
        assert isinstance(STORED.parser.lexer.lexer.root_lexer, OrderedLexer)
    assert len(ACCEPTS) > 100


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(accepts=st.sampled_from(ACCEPTS), text=st.sampled_from(TEXTS), at=st.floats(0, 1),
       inserted=st.lists(st.sampled_from(MANGLE), max_size=3))
def test_each_states_lexer_reads_as_larks(accepts: frozenset[str], text: str, at: float,
                                         inserted: list[str]) -> None:
    start = int(at * (len(text) - 1))
    text = text[:start] + "".join(inserted) + text[start:]
    conf = _lexer_conf(accepts)
    assert _tokens(OrderedLexer(conf), text, start) == _tokens(BasicLexer(conf), text, start)


@pytest.mark.parametrize("accepts", ACCEPTS[::7])
def test_a_scanner_matches_what_larks_alternation_matches(accepts: frozenset[str]) -> None:
    """Every position of a rule file, and ``fullmatch`` of every terminal's literal."""
    terminals = sorted(_lexer_conf(accepts).terminals, key=lambda t: (-t.priority, -t.pattern.max_width,
                                                                      -len(t.pattern.value), t.name))
    ours, larks = OrderedScanner(terminals), Scanner(terminals, 0, re, False)
    text = TextSlice(TEXTS[0], 0, len(TEXTS[0]))
    assert [ours.match(text, i) for i in range(len(TEXTS[0]))] == [larks.match(text, i) for i in range(len(TEXTS[0]))]
    words = [t.pattern.value for t in CONF.terminals] + ["deals", "x", ""]
    assert [ours.fullmatch(w) for w in words] == [larks.fullmatch(w) for w in words]
    assert ours.allowed_types == larks.allowed_types


def test_flags_or_back_references_leave_the_scan_to_lark() -> None:
    """The terminal-by-terminal scan stands for Lark's only where it provably reads the same."""
    for option in ({"g_regex_flags": re.IGNORECASE}, {"use_bytes": True}):
        assert not stored_parser.usable(Lark('start: "a"', parser="lalr", **option).lexer_conf)
    assert not stored_parser.usable(Lark('start: A\nA: /(a)\\1/', parser="lalr").lexer_conf)
    assert not stored_parser.usable(Lark('start: A\nA: "a"i', parser="lalr").lexer_conf)
    assert stored_parser.usable(Lark('start: A\nA: /a+/', parser="lalr").lexer_conf)
    plain = Lark('start: A\nA: "a"i', parser="lalr", _plugins=stored_parser.PLUGINS)
    lexer = plain.parser.lexer
    assert isinstance(lexer, LazyContextualLexer)
    assert type(lexer.lexers[0]) is BasicLexer
    assert plain.parse("A").children == ["A"]



def _fields(obj: Any) -> Any:
    """An object of a parser's memo as its class and the value of every serialised field."""
    if isinstance(obj, list):
        return [_fields(x) for x in obj]
    names = getattr(type(obj), "__serialize_fields__", None)
    if names is None:
        return obj
    return type(obj).__name__, {n: _fields(getattr(obj, n)) for n in names}, getattr(obj, "_hash", None)


@pytest.fixture(scope="module", params=sorted(parser.TABLES))
def serialised(request: pytest.FixtureRequest) -> tuple[dict[str, Any], dict[int, Any]]:
    """Lark's own serialisation (data, memo) of a parser analysed from the grammar."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    analysed = Lark(parser._grammar(), postlex=parser._TrickIndenter(), **parser.TABLES[request.param])
    data, memo = analysed.memo_serialize([TerminalDef, Rule])
    return data, memo


def test_the_compact_memo_is_decoded_as_lark_decodes_its_own(serialised: tuple[dict[str, Any], dict[int, Any]]) -> None:
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    from lark.utils import SerializeMemoizer

    data, memo = serialised
    theirs = SerializeMemoizer.deserialize(memo, {"Rule": Rule, "TerminalDef": TerminalDef}, {})
    ours = stored_parser.decode_memo(stored_parser.compact(data, memo)[1])
    assert sorted(ours) == sorted(theirs)
    assert [_fields(ours[k]) for k in sorted(theirs)] == [_fields(theirs[k]) for k in sorted(theirs)]


def test_the_compact_states_are_lark_s_states(serialised: tuple[dict[str, Any], dict[int, Any]]) -> None:
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    from lark.parsers.lalr_analysis import IntParseTable
    from lark.utils import SerializeMemoizer

    data, memo = serialised
    objects = SerializeMemoizer.deserialize(memo, {"Rule": Rule, "TerminalDef": TerminalDef}, {})
    theirs = IntParseTable.deserialize(data["parser"]["parser"], objects)
    small, stored = stored_parser.compact(data, memo)
    ours = stored_parser.StoredLALRParser.deserialize(small["parser"]["parser"], stored_parser.decode_memo(stored), {})
    table = ours.parser.parse_table
    assert (table.start_states, table.end_states) == (theirs.start_states, theirs.end_states)
    assert table.states == theirs.states  # (the same actions: Shift and Reduce by equal rules)
    assert all(type(a) is type(b) for state, row in theirs.states.items()
               for (a, _), (b, _) in zip(row.values(), table.states[state].values(), strict=True))


@pytest.mark.parametrize("memo", [(("X", 1),), (("T", "A", "glob", "a", (), None, None, 0),)])
def test_a_memo_with_anything_else_is_refused(memo: tuple[Any, ...]) -> None:
    with pytest.raises(ValueError):
        stored_parser.decode_memo(memo)


def test_a_compact_table_reduces_only_by_rules(serialised: tuple[dict[str, Any], dict[int, Any]]) -> None:
    data, memo = serialised
    small, stored = stored_parser.compact(data, memo)
    names, codes = small["parser"]["parser"]["states"][0]
    terminal = next(k for k, entry in enumerate(stored) if entry[0] == "T")
    states = (names, (2 * terminal + 1, *codes[1:])), *small["parser"]["parser"]["states"][1:]
    with pytest.raises(ValueError):
        stored_parser.StoredLALRParser.deserialize({**small["parser"]["parser"], "states": states},
                                                   stored_parser.decode_memo(stored), {})


def test_the_rules_callbacks_are_made_when_first_used() -> None:
    if not parser.stored_tables_match():
        pytest.skip("the stored tables are not used with this grammar or Lark version")
    fresh = parser._stored_or_analysed("parse_tables")
    callbacks = fresh.parser.parser.parser.callbacks
    assert isinstance(fresh, stored_parser.StoredLark) and callbacks and len(callbacks) == 0
    fresh.parse(TEXTS[0])
    assert 0 < len(callbacks) < len(fresh.rules)


def test_callbacks_made_from_many_threads_at_once_are_each_their_rule_s() -> None:
    """A parse may run outside the parser's lock (the interactive parser's accepts() does):
    threads asking for callbacks at once each get the one of the rule they asked for."""
    import random
    import sys
    import threading

    if not parser.stored_tables_match():
        pytest.skip("the stored tables are not used with this grammar or Lark version")
    fresh = parser._stored_or_analysed("parse_tables")
    callbacks = fresh.parser.parser.parser.callbacks
    rules = list(fresh.rules)
    seen: list[dict[Any, Any]] = [{} for _ in range(8)]
    failures: list[BaseException] = []
    start = threading.Barrier(len(seen))

    def ask(n: int) -> None:
        order = rules[:]
        random.Random(n).shuffle(order)
        start.wait()
        try:
            for rule in order:
                seen[n][rule] = callbacks[rule]
        except BaseException as err:  # noqa: BLE001 - reported below
            failures.append(err)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=ask, args=(n,)) for n in range(len(seen))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert len(callbacks) == len(set(rules))
    assert all(got[rule] is callbacks[rule] for got in seen for rule in rules)
