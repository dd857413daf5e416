"""The parser builds syntax nodes without validating them (``model_construct``: its
output is trusted, and a cold check must not build 70 validators). These tests hold it
to that trust: every node of every tree the loader builds passes pydantic's strict
validation of its own class, and the check fails on a node built wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pydantic
import pytest

import tricklang
from tricklang import RulesError
from tricklang import model as m

ROOT = Path(__file__).resolve().parents[2]
SPAN = m.Span(line=1, column=2, end_line=1, end_column=5)


def _rule_files() -> list[Path]:
    return sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick"), *ROOT.glob("tests/**/*.trick")])


def _validate_all(value: Any) -> int:
    """Validate ``value`` and every node under it strictly; return how many nodes."""
    if isinstance(value, tuple):
        return sum(_validate_all(item) for item in value)
    if not isinstance(value, m.Node):
        return 0
    fields = {name: getattr(value, name) for name in type(value).model_fields}
    type(value).model_validate(fields, strict=True)  # nested nodes are checked as instances here...
    return 1 + sum(_validate_all(v) for v in fields.values())  # ...and in full below


def test_every_tree_the_loader_builds_passes_strict_validation() -> None:
    parsed = loaded = nodes = 0
    for path in _rule_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            rules = tricklang.parse(text, str(path))
        except RulesError:
            continue
        parsed += 1
        nodes += _validate_all(rules)
        try:
            ruleset = tricklang.load(path)
        except RulesError:
            continue
        loaded += 1
        nodes += _validate_all(ruleset.rules)  # the variants' merged trees too
    assert parsed > 40 and loaded > 20 and nodes > 10_000


@pytest.mark.parametrize("bad", [
    m.PatOr.model_construct(options=[m.PatWord(word="K", span=SPAN)], span=SPAN),  # type: ignore[arg-type]
    m.IntLit.model_construct(value=True, span=SPAN),
    m.Option.model_construct(name="x", type="float", default=1.5, span=SPAN),  # type: ignore[arg-type]
    m.PatOr.model_construct(options=(m.IntLit(value=1, span=SPAN),), span=SPAN),  # type: ignore[arg-type]
])
def test_a_node_built_wrong_fails_the_check(bad: m.Node) -> None:
    with pytest.raises(pydantic.ValidationError):
        _validate_all(bad)


def test_nodes_built_by_hand_are_validated_and_frozen() -> None:
    with pytest.raises(pydantic.ValidationError):
        m.IntLit(value="one", span=SPAN)  # type: ignore[arg-type]
    lit = m.IntLit(value=1, span=SPAN)
    with pytest.raises(pydantic.ValidationError):
        lit.value = 2  # type: ignore[misc]
    assert lit == m.IntLit.model_construct(value=1, span=SPAN) and hash(lit) == hash(m.IntLit(value=1, span=SPAN))
