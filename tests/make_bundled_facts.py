"""Regenerate tricklang/bundled_facts.py, the facts of the bundled games that the game-AI
adapters register on import without parsing them (see tricklang/bundled.py), after a
change to a rule file of rules/ or examples/ (tests/language/test_bundled.py says when
it is due).

Usage (from the repository root)::

    .venv/bin/python tests/make_bundled_facts.py
"""

from __future__ import annotations

from pathlib import Path

from tricklang.bundled import stored_facts_source

TARGET = Path(__file__).resolve().parent.parent / "tricklang" / "bundled_facts.py"

if __name__ == "__main__":
    TARGET.write_text(stored_facts_source(), encoding="utf-8")
    print(f"wrote {TARGET.name}")
