"""Every shipped rule file is what it was: the language grows without changing any file
that does not use a new construct (issue 28, design section 5.2).

For each file of rules/ and examples/, the stored snapshot (tests/compat/snapshot.json,
written by tests/make_compat_snapshot.py before the language grew) holds the digest of
its parsed model, the checker's and the lints' warnings, the digest of its explanation,
of its card tables, the number of action ids and the text of each (both selection
modes) and the tensor layout. This test recomputes them all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from make_compat_snapshot import SNAPSHOT, language_facts, runtime_facts, shipped

STORED: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))


def test_the_snapshot_covers_every_shipped_file() -> None:
    assert sorted(STORED) == sorted(p.name for p in shipped())


@pytest.mark.parametrize("path", shipped(), ids=[p.stem for p in shipped()])
def test_the_language_reads_a_shipped_file_as_before(path: Path) -> None:
    now = language_facts(path)
    then = {key: STORED[path.name][key] for key in now}
    assert now == then


@pytest.mark.parametrize("path", shipped(), ids=[p.stem for p in shipped()])
def test_the_runtime_sees_the_same_actions_and_tensors(path: Path) -> None:
    now = runtime_facts(path)
    then = {key: STORED[path.name][key] for key in now}
    assert now == then
