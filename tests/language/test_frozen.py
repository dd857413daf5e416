"""The syntax nodes and Ruleset as frozen records (tricklang.frozen): every tree the
loader builds has fields of the annotated types, and the records behave as the frozen
models they replace (equality, hashing, copies, pickling, refusals)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from lark import Token

import tricklang
from tricklang import RulesError
from tricklang import model as m
from tricklang.frozen import type_problems

ROOT = Path(__file__).resolve().parents[2]
SPAN = m.Span(line=1, column=2, end_line=1, end_column=5)


def _rule_files() -> list[Path]:
    return sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick"), *ROOT.glob("tests/**/*.trick")])


def test_every_tree_the_loader_builds_has_the_annotated_types() -> None:
    parsed = loaded = 0
    for path in _rule_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            rules = tricklang.parse(text, str(path))
        except RulesError:
            continue
        parsed += 1
        assert type_problems(rules) == [], path
        try:
            ruleset = tricklang.load(path)
        except RulesError:
            continue
        loaded += 1
        assert type_problems(ruleset) == [], path  # the variants' merged trees too
    assert parsed > 40 and loaded > 20


def test_type_problems_names_each_wrong_value() -> None:
    word = m.PatWord(word=Token("NAME", "K"), span=SPAN)
    found = type_problems(m.PatOr(options=[word, m.IntLit(value=True, span=SPAN)], span=SPAN))  # type: ignore[arg-type]
    assert found == ["PatOr.options: list instead of a tuple"]
    found = type_problems(m.PatOr(options=(word, m.PatNot(operand=m.IntLit(value=1, span=SPAN), span=SPAN)),  # type: ignore[arg-type]
                                  span=SPAN))
    assert len(found) == 2
    assert found[0].startswith("PatOr.options[1].operand: IntLit(value=1, ") and found[0].endswith(
        " is none of tricklang.model.PatWord | tricklang.model.PatCard | tricklang.model.PatNot | tricklang.model.PatOr")
    assert found[1] == "PatOr.options[0].word: Token Token('NAME', 'K') instead of str"
    assert type_problems(m.Option(name="x", type="float", default=1.5, span=SPAN)) == [  # type: ignore[arg-type]
        "Option.type: 'float' is not one of ('int', 'bool', 'choice')",
        "Option.default: 1.5 is none of int | bool | str",
    ]
    assert type_problems(m.IntLit(value=True, span=SPAN)) == ["IntLit.value: bool True instead of int"]


def test_nodes_are_frozen_and_refuse_unknown_or_missing_fields() -> None:
    name = m.Name(name="dealer", span=SPAN)
    with pytest.raises(TypeError, match="frozen"):
        name.name = "elder"  # type: ignore[misc]
    with pytest.raises(TypeError, match="frozen"):
        del name.span  # type: ignore[misc]
    with pytest.raises(TypeError, match="Name has no field colour"):
        m.Name(name="x", span=SPAN, colour="red")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="Name needs the field span"):
        m.Name(name="x")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="Name has no field colour"):
        name.model_copy(update={"colour": "red"})
    assert name == m.Name(name="dealer", span=SPAN)


def test_equality_hashing_copies_and_pickling() -> None:
    a = m.Name(name="dealer", span=SPAN)
    moved = SPAN.model_copy(update={"path": "base.trick"})
    assert moved == SPAN and hash(moved) == hash(SPAN)  # spans are equal by position
    assert a == m.Name(name="dealer", span=moved) and hash(a) == hash(m.Name(name="dealer", span=moved))
    assert a != m.Name(name="elder", span=SPAN)
    assert a != m.PatWord(word="dealer", span=SPAN)  # another class: never equal
    assert m.Stmt(span=SPAN) != m.Pass(span=SPAN)
    copy = a.model_copy(update={"name": "elder"})
    assert (copy.name, a.name, copy.span) == ("elder", "dealer", SPAN)
    assert repr(a) == "Name(name='dealer', span=Span(line=1, column=2, end_line=1, end_column=5, path=None))"
    assert a.model_dump() == {"name": "dealer", "span": {"line": 1, "column": 2, "end_line": 1, "end_column": 5,
                                                          "path": None}}
    assert list(m.DealCards.model_fields) == ["cite", "span", "packets", "first"]  # the base's fields first
    rules = tricklang.load(ROOT / "rules" / "ecarte.trick")
    again = pickle.loads(pickle.dumps(rules))
    assert again == rules and again.rules == rules.rules and again.symbols is not None


def test_a_ruleset_built_directly_gets_its_symbols_from_the_checker() -> None:
    loaded = tricklang.load(ROOT / "rules" / "ecarte.trick")
    built = tricklang.Ruleset(rules=loaded.rules, source=loaded.source, path=loaded.path, options=dict(loaded.options))
    assert built.symbols is not None and built.symbols.names == loaded.symbols.names
    assert built == loaded.model_copy(update={"warnings": ()})
