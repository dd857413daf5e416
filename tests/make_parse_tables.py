"""Regenerate tricklang/parse_tables.py, the parser's LALR tables, after a change to
tricklang/grammar.lark or to the Lark version (tests/language/test_parse_tables.py
says when it is due).

Usage (from the repository root)::

    .venv/bin/python tests/make_parse_tables.py
"""

from __future__ import annotations

from pathlib import Path

from tricklang.parser import tables_source

TARGET = Path(__file__).resolve().parent.parent / "tricklang" / "parse_tables.py"

if __name__ == "__main__":
    TARGET.write_text(tables_source(), encoding="utf-8")
    print(f"wrote {TARGET.name}")
