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


def scope_of(line: str, word: str, nth: int = 0) -> list[str]:
    """The scopes given to the ``nth`` occurrence of ``word`` (as a whole word) in a line."""
    compiled = rules(grammar(), grammar()["repository"])
    found = list(re.finditer(rf"(?<![\w']){re.escape(word)}(?![\w'])", line))[nth]
    return [name for start, end, name in scopes(line, compiled) if start <= found.start() and found.end() <= end]


@pytest.mark.parametrize(("line", "word", "scope"), [
    ("  suits spades black, hearts red, diamonds red, clubs black        [C2]", "spades", "constant.other.suit"),
    ("  suits spades black, hearts red, diamonds red, clubs black        [C2]", "clubs", "constant.other.suit"),
    ("  suits coins yellow, cups red", "coins", "constant.other.suit"),
    ("  suits spades black, hearts red", "black", "support.constant.colour"),
    ("  ranks A K Q J 10 9 8 7 6 5 4 3 2                                 [C2]", "K", "constant.other.rank"),
    ("  ranks A K Q J 10 9 8 7 6 5 4 3 2                                 [C2]", "10", "constant.other.rank"),
    ("  trump ranks A K Q J 10 9 8 7 6 5 (5 of same colour as trump) 4 3 2  [C2, C22]", "J", "constant.other.rank"),
    ('  "High" A of trump = 1                                            [C25]', "A", "constant.other.rank"),
    ("    may not play Q of spades on the first trick", "Q", "constant.other.rank"),
    ("    may not play Q of spades on the first trick", "spades", "constant.other.suit"),
    ("    may not lead hearts until broken", "hearts", "constant.other.suit"),
    ("  trump is diamonds", "diamonds", "constant.other.suit"),
    ("role eldest = left of dealer                                       [C5, C12]", "eldest", "entity.name.function"),
    ("  eldest chooses:", "eldest", "variable.other"),
    ("  deal first_packet then 5 - first_packet to each from elder", "first_packet", "variable.other"),
    ("  move 1 from stock to kitty", "kitty", "variable.other"),
    ("  if bid >= target:", "target", "variable.other"),
])
def test_suits_ranks_colours_and_names_have_a_colour(line: str, word: str, scope: str) -> None:
    """Names, suits and ranks got no scope (no colour in an editor)."""
    assert any(name.startswith(scope) for name in scope_of(line, word)), (word, scope_of(line, word))


@pytest.mark.parametrize(("line", "word"), [
    ("  trump is none", "is"), ("  deal 3 then 2 to each", "each"), ("  tricks 2, left of dealer leads first", "left"),
    ("  5 of same colour as trump", "same"),
])
def test_keywords_near_them_stay_keywords(line: str, word: str) -> None:
    assert any(name.startswith(("keyword", "constant.language", "storage")) for name in scope_of(line, word)), \
        (word, scope_of(line, word))


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.name)
def test_every_word_of_a_shipped_rule_file_has_a_scope(path: Path) -> None:
    compiled = rules(grammar(), grammar()["repository"])
    for line in path.read_text(encoding="utf-8").splitlines():
        code = re.sub(r'#.*|"[^"]*"', lambda m: " " * len(m.group()), line)
        covered = [False] * len(line)
        for start, end, _ in scopes(line, compiled):
            covered[start:end] = [True] * (end - start)
        for word in re.finditer(r"[^\W\d][\w']*|\d+", code):
            assert all(covered[word.start():word.end()]), f"{word.group()!r} has no scope in: {line}"
