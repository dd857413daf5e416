"""The negative corpus: every file in tests/invalid/ has exactly one fault.

Each file starts with ``# expect: CODE LINE``; loading it must raise
:class:`tricklang.RulesError` with a diagnostic of that code at that line, rendered
compiler-style (``path:line:col: error: ... [code]``, the source line, a caret),
and never with a Python traceback attached.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tricklang

INVALID = Path(__file__).resolve().parents[1] / "invalid"
CORPUS = sorted(INVALID.glob("*.trick"))
EXPECT = re.compile(r"# expect: ([a-z-]+) ([0-9]+)$")


def _expectation(path: Path) -> tuple[str, int]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    found = EXPECT.match(first)
    assert found, f"{path.name}: the first line must be '# expect: CODE LINE', not {first!r}"
    return found.group(1), int(found.group(2))


def test_the_corpus_covers_every_error_code() -> None:
    codes = {_expectation(p)[0] for p in CORPUS}
    assert len(CORPUS) >= 24
    assert codes >= {
        "syntax-error", "bad-indent", "missing-version", "unsupported-version", "missing-section",
        "duplicate-section", "duplicate-name", "undefined-name", "type-error", "bad-rank", "bad-suit",
        "bad-colour", "ambiguous-card-code", "bad-option-default", "bad-partnerships", "missing-pack",
        "bad-zone", "deck-too-small", "stop-outside-loop", "duplicate-choice", "bad-count", "bad-bound",
        "limit-exceeded", "bad-call",
    }  # fmt: skip


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_invalid_file_is_rejected_with_a_positioned_diagnostic(path: Path) -> None:
    code, line = _expectation(path)
    source_lines = path.read_text(encoding="utf-8").splitlines()

    with pytest.raises(tricklang.RulesError) as info:
        tricklang.load(path)
    error = info.value

    matching = [d for d in error.diagnostics if d.code == code and d.line == line]
    assert matching, f"expected {code} at line {line}, got {[(d.code, d.line) for d in error.diagnostics]}"
    assert all(d.line > 0 and d.column > 0 for d in error.diagnostics), "every diagnostic has a position"
    assert all(d.severity == "error" for d in error.diagnostics)

    diag = matching[0]
    rendered = str(error).splitlines()
    head = f"{path}:{diag.line}:{diag.column}: error: "
    at = next(i for i, text in enumerate(rendered) if text.startswith(head))
    assert rendered[at].endswith(f"[{code}]")
    assert rendered[at + 1] == f"{line:>5} | {source_lines[line - 1].rstrip()}"
    assert re.fullmatch(r" {6}\| *\^+", rendered[at + 2]), rendered[at + 2]
    assert rendered[at + 2].index("^") == len("      | ") + diag.column - 1

    assert "Traceback" not in str(error)
    assert error.__cause__ is None
    assert error.__context__ is None or error.__suppress_context__
