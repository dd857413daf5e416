"""Fuzz-ish robustness: mutated versions of rules/ecarte.trick either load or raise
:class:`tricklang.RulesError` with positioned diagnostics, never anything else."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricklang
from tricklang import diagnostics

ECARTE = (Path(__file__).resolve().parents[2] / "rules" / "ecarte.trick").read_text(encoding="utf-8")
TOKEN = re.compile(r'"[^"\n]*"|\[[^\]\n]*\]|[\w\']+|\.\.|[^\w\s]')
NUMBER = re.compile(r"\d+")

# Every code the parser and the checker may report: the documented codes, but never a bug's.
CODES = set(diagnostics.CODES) - {"internal-error", "format-failed"}


@st.composite
def mutation(draw: st.DrawFn, text: str) -> str:
    """One random edit of the kind a careless author makes."""
    lines = text.splitlines(keepends=True)
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "number", "truncate"]))
    if kind in ("delete", "duplicate") and lines:
        i = draw(st.integers(0, len(lines) - 1))
        lines[i : i + 1] = [] if kind == "delete" else [lines[i], lines[i]]
        return "".join(lines)
    if kind == "swap":
        tokens = list(TOKEN.finditer(text))
        if len(tokens) < 2:
            return text
        a, b = sorted(draw(st.lists(st.integers(0, len(tokens) - 1), min_size=2, max_size=2, unique=True)))
        ta, tb = tokens[a], tokens[b]
        return text[: ta.start()] + tb.group() + text[ta.end() : tb.start()] + ta.group() + text[tb.end() :]
    if kind == "number":
        numbers = list(NUMBER.finditer(text))
        if not numbers:
            return text
        n = numbers[draw(st.integers(0, len(numbers) - 1))]
        new = draw(st.sampled_from(["0", "1", "2", "3", "9", "33", "100", "100000", "-1", str(10**30)]))
        return text[: n.start()] + new + text[n.end() :]
    return text[: draw(st.integers(0, len(text)))]


@st.composite
def mutated_ecarte(draw: st.DrawFn) -> str:
    text = ECARTE
    for _ in range(draw(st.integers(1, 3))):
        text = draw(mutation(text))
    return text if "\n" in text else text + "\n"  # text, never a file name


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated_ecarte())
def test_mutated_rules_load_or_raise_rules_error(text: str) -> None:
    try:
        rules = tricklang.loads(text, path="mutant.trick")
    except tricklang.RulesError as error:
        assert error.diagnostics
        line_count = len(text.splitlines())
        for d in error.diagnostics:
            assert d.code in CODES, d
            assert d.severity == "error"
            assert 0 < d.line <= max(1, line_count), d
            assert d.column > 0, d
        rendered = str(error)
        assert "Traceback" not in rendered
        assert all(f"mutant.trick:{d.line}:{d.column}: error: " in rendered for d in error.diagnostics)
    else:
        assert rules.rules.deal
        assert all(w.severity == "warning" and w.line > 0 for w in rules.warnings)


def test_unmutated_ecarte_loads() -> None:
    assert tricklang.loads(ECARTE, path="ecarte.trick").name == "Écarté"
