"""The examples of the language reference (docs/language/*.md) are rule text that checks.

A fenced block whose info string is ``trick`` is a whole rule file; ``trick deal`` lines of a
deal, ``trick tricks`` lines of a ``tricks`` block and ``trick top`` top-level sections, each
placed in tests/language/reference_game.trick (a ``trick top`` block also stays declared for
the blocks after it on the same page, as a doctest session would). Each must parse and draw
no diagnostic from the checker but ``unsupported-construct`` (a construct whose runtime half
is pending) and warnings; ``trick expect CODE`` marks an example of an error, which must be
reported with that code.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

import tricklang
from tricklang.checker import Checker
from tricklang.support import WORDS, constructs

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs" / "language").glob("*.md"))
GAME = (Path(__file__).parent / "reference_game.trick").read_text(encoding="utf-8")
BLOCK = re.compile(r"^```trick([^\n]*)\n(.*?)^```", re.S | re.M)
PENDING = {"unsupported-construct"}


def place(kind: str, body: str, top: str) -> str:
    """The rule text of an example: the block in the reference game."""
    if kind == "":
        return body
    deal_at = GAME.index("\ndeal\n") + 1
    head, deal = GAME[:deal_at] + top, GAME[deal_at:]
    if kind == "top":
        return head + body + "\n" + deal
    if kind == "deal":
        cut = deal.index("  tricks 12")
        return head + deal[:cut] + textwrap.indent(body, "  ") + deal[cut:]
    if kind == "tricks":
        cut = deal.index("  for each side:")
        return head + deal[:cut] + textwrap.indent(body, "    ") + deal[cut:]
    raise ValueError(f"unknown kind of example {kind!r}")


def examples() -> list[tuple[str, str, str, str]]:
    """(id, kind, expected code, rule text) of every example."""
    found = []
    for page in PAGES:
        top = ""
        for n, match in enumerate(BLOCK.finditer(page.read_text(encoding="utf-8")), 1):
            words = match.group(1).split()
            kind = words[0] if words and words[0] != "expect" else ""
            expect = words[words.index("expect") + 1] if "expect" in words else ""
            body = match.group(2)
            found.append((f"{page.stem}-{n}", kind, expect, place(kind, body, top)))
            if kind == "top" and not expect:
                top += body + "\n"
    return found


EXAMPLES = examples()


def test_every_construct_of_the_language_has_an_example() -> None:
    shown: set[str] = set()
    for _, _, _, text in EXAMPLES:
        rules = tricklang.parse(text, "x.trick")
        checker = Checker(rules)
        checker.run()
        shown |= {key for key, _ in constructs(rules)} | {key for key, _ in checker.typed_constructs}
    assert sorted(set(WORDS) - shown) == [], "document these in docs/language/ with an example"


@pytest.mark.parametrize(("name", "kind", "expect", "text"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_an_example_of_the_reference_checks(name: str, kind: str, expect: str, text: str) -> None:
    rules = tricklang.parse(text, f"{name}.trick")
    errors = {d.code for d in Checker(rules).run() if d.severity == "error"}
    if expect:
        assert expect in errors, text
    else:
        assert errors <= PENDING, text
