"""The language server cannot be stalled: a `laws.md` that is a FIFO, a link to /dev/zero
or a regular expression's worst case, a deck the checker refuses, a base file of a
gigabyte and a half, requests whose parameters do not fit the protocol.

The real server runs in a process capped in memory and CPU (lsp_client.CAPPED_SERVER);
every answer must come within a few seconds. One server per test: a stalled one is lost.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pygls")

from lsp_client import Client  # noqa: E402
from lsprotocol import types as t  # noqa: E402 - after the importorskip
from pygls.exceptions import JsonRpcException  # noqa: E402

from tricklang.lsp.hover import parse_laws  # noqa: E402

ANSWER_SECONDS = 15.0
"""Each answer, at most (a stalled server gets no more)."""
MEMORY = 1_500_000_000

RULES = """tricklang 1
game "Hostile neighbours"
players 2
deck
  suits spades black, hearts red
  ranks A K Q
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
deal
  deal 3 to each                                  [E1]
  tricks 3, dealer leads first                    [E2]
"""
DEAL_LINE = 10  # (0-based: `deal 3 to each`)


@pytest.fixture
def capped() -> Iterator[Client]:
    client = Client(timeout=ANSWER_SECONDS, memory=MEMORY, cpu=60)
    try:
        yield client
    finally:
        try:
            client.close()
        except Exception:  # noqa: BLE001 - a stalled server is the failure the test reports
            pass


def document(folder: Path, text: str = RULES, name: str = "game.trick") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def hover_text(lsp: Client, uri: str, line: int, character: int) -> str:
    found = lsp.hover(uri, line, character)
    assert found is not None
    assert isinstance(found.contents, t.MarkupContent)
    return found.contents.value


# ---------------------------------------------------------------- laws.md


def test_a_fifo_named_laws_md_does_not_block_hover(capped: Client, tmp_path: Path) -> None:
    path = document(tmp_path)
    os.mkfifo(tmp_path / "laws.md")
    uri = capped.open(path)
    assert "Laws: [E1]" in hover_text(capped, uri, DEAL_LINE, 4)


def test_a_laws_md_that_is_a_link_to_dev_zero_is_not_read(capped: Client, tmp_path: Path) -> None:
    path = document(tmp_path)
    (tmp_path / "laws.md").symlink_to("/dev/zero")
    uri = capped.open(path)
    text = hover_text(capped, uri, DEAL_LINE, 4)
    assert "Laws: [E1]" in text
    assert not capped.logs, capped.logs  # (no handler failed)


def test_a_laws_md_over_the_size_limit_is_not_read(capped: Client, tmp_path: Path) -> None:
    path = document(tmp_path)
    (tmp_path / "laws.md").write_text("| E1 | Deal three each. |\n" + "x" * 300_000 + "\n", encoding="utf-8")
    uri = capped.open(path)
    assert "Deal three each" not in hover_text(capped, uri, DEAL_LINE, 4)


def test_a_laws_md_made_for_a_quadratic_regular_expression_reads_in_linear_time(capped: Client, tmp_path: Path) -> None:
    """A row whose cell is 64,000 blanks and never closes: the old pattern tried every
    split of them (minutes for 64 KB)."""
    path = document(tmp_path)
    (tmp_path / "laws.md").write_text("| E1 | Deal three each. |\n| E2 |" + " " * 64_000 + "\n", encoding="utf-8")
    uri = capped.open(path)
    text = hover_text(capped, uri, DEAL_LINE, 4)
    assert "**E1**: Deal three each." in text


def test_law_rows_are_read_a_line_at_a_time() -> None:
    table = "| Law | Summary |\n|---|---|\n| E1 | One. | x |\n| E2 |\n| two |\n|E3a|Three.|\n| not a law | x |\n| E4 | |\n"
    assert parse_laws(table) == {"E1": "One.", "E3a": "Three."}


# ---------------------------------------------------------------- models the checker refuses


def huge_deck() -> str:
    suits = ", ".join(f"s{i} red" for i in range(390))
    ranks = " ".join(f"r{i}" for i in range(800))
    return RULES.replace("  suits spades black, hearts red\n  ranks A K Q\n",
                         f"  suits {suits}\n  ranks {ranks}\n").replace(
        "  tricks 3, dealer leads first                    [E2]\n",
        "  tricks 3, dealer leads first                    [E2]\n    may not lead r1 until broken\n")


def test_a_deck_the_checker_refuses_builds_no_card_by_card_model(capped: Client, tmp_path: Path) -> None:
    """312,000 cards: the checker refuses the deck; hover on a card pattern used to work
    out its cards under each of 390 trumps, and completion listed every card."""
    text = huge_deck()
    uri = capped.open(document(tmp_path, text))
    assert any(d.code == "limit-exceeded" for d in capped.wait_diagnostics(uri))
    line = next(i for i, row in enumerate(text.splitlines()) if "may not lead r1" in row)
    capped.hover(uri, line, len("    may not lead r"))  # answers (whatever it says)
    items = capped.completion(uri, line, len("    may not lead "))
    assert 0 < len(items) <= 500
    assert not any(i.label.endswith(" of s0") for i in items)


# ---------------------------------------------------------------- base files


def test_a_base_file_of_a_gigabyte_and_a_half_is_not_read(capped: Client, tmp_path: Path) -> None:
    """Its diagnostics are published (too large), and nothing reads it whole to place them."""
    base = tmp_path / "base.trick"
    with open(base, "wb") as out:
        out.truncate(1_500_000_000)  # (sparse: no disk is used)
    variant = document(tmp_path, 'tricklang 1\nextends "base.trick"\ngame "Variant"\n', "variant.trick")
    uri = capped.open(variant)
    found = capped.wait_diagnostics(uri)
    assert found and any(d.code == "too-large" for d in found)


# ---------------------------------------------------------------- the protocol


BAD_PARAMS = [
    {"textDocument": {}},
    {"textDocument": {"uri": 5}, "position": {"line": "x"}},
    None,
    [1, 2],
    {"textDocument": {"uri": None}, "position": {"line": 0, "character": 0}},
    "text",
]


def test_a_request_with_parameters_that_do_not_fit_gets_an_error_answer() -> None:
    """pygls logged such a request and never answered it: the client waited for ever."""
    lsp = Client(timeout=ANSWER_SECONDS)
    try:
        for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition",
                       "textDocument/documentSymbol", "textDocument/formatting"):
            for params in BAD_PARAMS:
                with pytest.raises(JsonRpcException) as caught:
                    lsp.request(method, params)
                assert caught.value.code == -32602 and method in caught.value.message, (method, params)
        lsp.notify("textDocument/didOpen", {"textDocument": {"uri": 7}})  # (a notification: nothing to answer)
        uri = lsp.open("untitled:fine.trick", RULES)
        assert lsp.wait_diagnostics(uri) == []  # the server carries on
    finally:
        assert lsp.close() == 0
