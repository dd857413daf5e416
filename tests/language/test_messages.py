"""Clearer messages for strange text: lines are counted one way (only a newline ends a
line, as the parser counts them), a byte-order mark is accepted, tabs count for the
nesting limit as the indenter counts them, and control characters from a file are
printed escaped."""

from __future__ import annotations

from pathlib import Path

import pytest

import tricklang
from tricklang.parser import MAX_NESTING

ROOT = Path(__file__).resolve().parents[2]
GOOD = (ROOT / "rules" / "ecarte.trick").read_text(encoding="utf-8")
HEAD = """tricklang 1
game "Messages"
players 2
deck
  suits spades black, hearts red
  ranks A K Q
zone hand: per player, owner
zone stock: shared, hidden, pack
deal
  deal 3 to each
"""


@pytest.mark.parametrize("odd", ["\u2028", "\u2029", "\x0c", "\x1c", "\x85", "\x0b"])
def test_the_caret_line_is_the_line_the_parser_means(odd: str) -> None:
    text = HEAD.replace('game "Messages"', f'game "Messages"  # a comment with {odd} inside') + "  eldr scores 1\n"
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.loads(text)
    rendered = str(info.value)
    diag = info.value.diagnostics[0]
    assert diag.line == 11, rendered
    assert "   11 |   eldr scores 1" in rendered


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    assert tricklang.loads("\ufeff" + GOOD).name == "Écarté"
    path = tmp_path / "bom.trick"
    path.write_bytes(b"\xef\xbb\xbf" + GOOD.encode("utf-8"))
    assert tricklang.load(path).name == "Écarté"


def _nested(widths: list[str]) -> str:
    lines = [f"{w}if count(stock) >= 0:\n" for w in widths]
    return HEAD + "".join(lines) + widths[-1] + "  dealer scores 1\n"


def test_tabs_count_for_the_nesting_limit_as_the_indenter_counts_them() -> None:
    # Widths 2, 3, ... columns, written with a tab for each eight: the indenter sees one
    # level more each line; counting a tab as one column used to see fewer.
    widths = ["\t" * (w // 8) + " " * (w % 8) for w in range(2, MAX_NESTING + 4)]
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.loads(_nested(widths))
    assert info.value.codes == ["too-deep"]


def test_load_of_an_empty_path_says_so() -> None:
    with pytest.raises(tricklang.RulesError, match="the path is empty"):
        tricklang.load("")


def test_control_characters_from_a_file_are_printed_escaped() -> None:
    text = HEAD.replace('game "Messages"', 'game "Mess\x1b[2Jages"') + "  eldr\x1b[31m scores 1\n"
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.loads(text)
    assert "\x1b" not in str(info.value) and "\\x1b" in str(info.value)
    rules = tricklang.loads(HEAD.replace('game "Messages"', 'game "Mess\x1b[2Jages\u202e"'))
    assert rules.name == "Mess\\x1b[2Jages\\u202e"
