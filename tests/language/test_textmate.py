"""The TextMate grammar shipped for editors (tricklang/syntax/tricklang.tmLanguage.json)."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])


def grammar() -> dict[str, Any]:
    text = resources.files("tricklang").joinpath("syntax/tricklang.tmLanguage.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def keywords() -> list[str]:
    """Every keyword of the language: the word literals of grammar.lark (comments left out)."""
    text = resources.files("tricklang").joinpath("grammar.lark").read_text(encoding="utf-8")
    text = re.sub(r"//[^\n]*", "", text)
    return sorted(set(re.findall(r'"([A-Za-z_]+)"', text)))


def rules(node: dict[str, Any], repository: dict[str, Any]) -> list[tuple[re.Pattern[str], dict[str, Any]]]:
    """The grammar's match rules in the order a TextMate engine tries them (includes resolved)."""
    out: list[tuple[re.Pattern[str], dict[str, Any]]] = []
    for pattern in node.get("patterns", []):
        if "include" in pattern:
            out += rules({"patterns": [repository[pattern["include"].lstrip("#")]]}, repository)
        elif "patterns" in pattern:
            out += rules(pattern, repository)
        else:
            out.append((re.compile(pattern["match"]), pattern))
    return out


def scopes(line: str, compiled: list[tuple[re.Pattern[str], dict[str, Any]]]) -> list[tuple[int, int, str]]:
    """Tokenise one line as TextMate does: at each point the earliest match wins, the first rule on a tie."""
    out: list[tuple[int, int, str]] = []
    pos = 0
    while pos < len(line):
        best: tuple[int, int, re.Match[str], dict[str, Any]] | None = None
        for order, (regex, rule) in enumerate(compiled):
            found = regex.search(line, pos)
            if found and found.end() > found.start() and (best is None or found.start() < best[0]):
                best = (found.start(), order, found, rule)
        if best is None:
            break
        _, _, found, rule = best
        if "name" in rule:
            out.append((found.start(), found.end(), rule["name"]))
        for group, capture in rule.get("captures", {}).items():
            if found.group(int(group)) is not None:
                out.append((found.start(int(group)), found.end(int(group)), capture["name"]))
        pos = found.end()
    return out


def test_the_grammar_is_package_data_for_trick_files() -> None:
    g = grammar()
    assert g["scopeName"] == "source.tricklang"
    assert "trick" in g["fileTypes"]


@pytest.mark.parametrize("word", keywords())
def test_every_keyword_of_the_grammar_has_a_scope(word: str) -> None:
    compiled = rules(grammar(), grammar()["repository"])
    found = [name for start, end, name in scopes(f"  {word} ", compiled) if (start, end) == (2, 2 + len(word))]
    assert found, f"keyword {word!r} of grammar.lark has no scope in the TextMate grammar"
    assert not any(name.startswith(("comment", "string")) for name in found)


def test_the_keyword_list_is_the_grammars() -> None:
    words = keywords()
    assert {"tricklang", "extends", "deal", "irregularity", "matching", "holder", "lowest"} <= set(words)
    assert len(words) > 100


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_shipped_rule_files_highlight_comments_strings_citations_and_every_keyword(path: Path) -> None:
    compiled = rules(grammar(), grammar()["repository"])
    words = set(keywords())
    for line in path.read_text(encoding="utf-8").splitlines():
        tokens = scopes(line, compiled)
        covered = [False] * len(line)
        for start, end, _ in tokens:
            covered[start:end] = [True] * (end - start)
        if "#" in line and '"' not in line:
            assert any(name.startswith("comment") and start == line.index("#") for start, _, name in tokens), line
        for cite in re.finditer(r"\[[A-Z]+\d+[^\]]*\]", line.split("#")[0]):
            assert any(name.startswith("constant.other.citation") and start == cite.start() for start, _, name in tokens), line
        for word in re.finditer(r"[^\W\d][\w']*", line):
            if word.group() in words:
                assert all(covered[word.start():word.end()]), f"{word.group()!r} unscoped in: {line}"
