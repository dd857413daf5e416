"""The repository stands on its own: no file refers to a path outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A reference that leaves the repository: a parent-relative path to a sibling folder,
# the research folders beside the project, or an absolute path of a development machine.
OUTSIDE = re.compile(r"\breference §|\.\./shared|\bshared/(?:docs|seeds)\b|[\"']shared[\"']\s*/\s*[\"'](?:docs|seeds)"
                     r"|rules-reference\.md|/work/|/home/[a-z]|/Users/[A-Za-z]")


def tracked_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False)
    if listed.returncode == 0 and listed.stdout.strip():
        return [ROOT / name for name in listed.stdout.splitlines()]
    skip = {".git", ".venv", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".hypothesis"}
    return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def test_no_file_refers_to_a_path_outside_the_repository() -> None:
    offending: list[str] = []
    this = Path(__file__).resolve()
    for path in tracked_files():
        if path.resolve() == this or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offending.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not offending, "references outside the repository:\n" + "\n".join(offending)


def test_the_check_finds_such_a_reference() -> None:
    assert OUTSIDE.search("see " + "/".join(["..", "shared", "docs", "rules-reference.md"]) + " §2")
    assert OUTSIDE.search('REFERENCE = ROOT.parent / "shared" / "docs" / "x.md"')
    assert OUTSIDE.search("the greater award (reference §6, question 4)")
    assert not OUTSIDE.search("zone stock: shared, hidden, pack")
