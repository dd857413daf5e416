"""Regenerate the parsers' stored LALR tables, tricklang/parse_tables.py (the checker's
parser) and tricklang/fmt_parse_tables.py (the formatter's, which keeps every token),
after a change to tricklang/grammar.lark or to the Lark version
(tests/language/test_parse_tables.py says when it is due).

Usage (from the repository root)::

    .venv/bin/python tests/make_parse_tables.py
"""

from __future__ import annotations

from pathlib import Path

from tricklang.parser import TABLES, tables_source

PACKAGE = Path(__file__).resolve().parent.parent / "tricklang"

if __name__ == "__main__":
    for name in TABLES:
        target = PACKAGE / f"{name}.py"
        target.write_text(tables_source(name), encoding="utf-8")
        print(f"wrote {target.name}")
