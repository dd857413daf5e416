"""Golden playthroughs: every rule file in rules/ and examples/ plays the same match
as when its golden transcript (tests/golden/<stem>.txt) was made.

A rule file without a golden file fails: run `.venv/bin/python tests/make_golden.py`
(see tests/make_golden.py for how the matches are played).
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from make_golden import GOLDEN_DIR, REGENERATE, ROOT, duplicate_stems, golden_path, rule_files, transcript

MAX_DIFF_LINES = 400


@pytest.mark.parametrize("rule_file", rule_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_playthrough_matches_its_golden_transcript(rule_file: Path) -> None:
    rel = rule_file.relative_to(ROOT).as_posix()
    golden = golden_path(rule_file)
    if not golden.exists():
        pytest.fail(f"{rel} has no golden playthrough ({golden.relative_to(ROOT)}): run {REGENERATE}", pytrace=False)
    expected = golden.read_text(encoding="utf-8")
    actual = transcript(rule_file)
    if actual != expected:
        diff = list(difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True),
            fromfile=f"{golden.relative_to(ROOT)} (golden)", tofile=f"{rel} (now)",
        ))
        shown = "".join(diff[:MAX_DIFF_LINES])
        if len(diff) > MAX_DIFF_LINES:
            shown += f"... ({len(diff) - MAX_DIFF_LINES} more diff lines)\n"
        pytest.fail(
            f"the playthrough of {rel} differs from its golden transcript; if the change is intended, "
            f"run {REGENERATE} {rel}\n\n{shown}",
            pytrace=False,
        )


def test_every_golden_file_has_a_rule_file() -> None:
    wanted = {golden_path(f) for f in rule_files()}
    stale = sorted(p.name for p in GOLDEN_DIR.glob("*.txt") if p not in wanted)
    assert not stale, f"golden files without a rule file: {', '.join(stale)}; run {REGENERATE}"


def test_rule_file_names_are_unique_across_rules_and_examples() -> None:
    assert duplicate_stems(rule_files()) == []
