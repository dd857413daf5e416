"""Every rule the compiler enforces is also a checker diagnostic with a code.

The test reads the code generator (interpreter/codegen/*.py), finds every `raise` and
`assert` that runs while compiling (what runs during a game is generated source, text to
the generator), and requires each to be either marked as already checked (`pragma: no
cover - checked`, a TypeError for a node kind that cannot occur) or listed below with a
rule file that the checker refuses with that code, so that `load` reports it and
`new_game` never meets it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import tricklang

ROOT = Path(__file__).resolve().parents[2]
FLAVOUR = {"flavour.py", "folding.py", "inline.py"}
"""The CPython flavour's pass: it reads the generated module, never a rule file, and a function its
asserts stop is left as written (tests/runtime/test_flavour.py), so they refuse no rule file."""
CODEGEN = sorted(p for p in (ROOT / "interpreter" / "codegen").glob("*.py") if p.name not in FLAVOUR)

HEAD = """tricklang 1
game "Refusals"
players 2
role elder = left of dealer
deck
  suits spades black, hearts red
  ranks K Q J A
zone hand: per player, owner
zone stock: shared, hidden, pack
zone turnup: shared, public
zone won: per player, public
deal
  deal 3 to each
"""
TRICKS = "  tricks 3, elder leads first\n"


def declaring(body: str) -> str:
    lines = "".join(f"      {line}\n" for line in body.splitlines())
    return HEAD + TRICKS + "    declare king holding K of spades, before own first card:\n" + lines


# The compiler's refusals (a phrase of the message, or of the asserted condition) and,
# for each, rule files the checker refuses with the given code.
REFUSALS: dict[str, tuple[str, list[str]]] = {
    "a declaration may only score": ("bad-declaration-body", [
        declaring("set maker = declarer"),
    ]),
    # Issue 28 (hooks, design 3.6): a declaration's effect runs as a hook's, so these are the language;
    # this runtime runs some statements there (scoring, setting, testing, moving, choosing...) and refuses
    # the rest as such.
    "a declaration may only": ("unsupported-construct", [
        declaring("turn up 1 to turnup"),
        declaring("elder takes 1 from stock"),
        declaring("elder names trump"),
        declaring("if true:\n  elder discards 1 to stock"),
        declaring("end the deal"),
    ]),
    "declaration may only score": ("bad-hook-statement", [  # never in the middle of trick play
        declaring("redeal by same dealer"),
    ]),
    "isinstance(st.bound, m.IntLit)": ("bad-bound", [
        HEAD + "  let n = 2\n  repeat at most n times:\n    stop\n" + TRICKS,
    ]),
    "ob.pattern is not None": ("syntax-error", []),  # the grammar gives these obligations a pattern
    "rules.deck is not None and rules.players is not None": ("missing-section", [
        HEAD.replace("deck\n  suits spades black, hearts red\n  ranks K Q J A\n", "") + TRICKS,
    ]),
}


def compile_time_checks() -> list[tuple[str, int, str]]:
    """(file, line, text) of every raise/assert of the code generator outside nested closures."""
    found: list[tuple[str, int, str]] = []
    for path in CODEGEN:
        found.extend((path.name, line, text) for line, text in _checks_in(path.read_text(encoding="utf-8")))
    return found


def _checks_in(source: str) -> list[tuple[int, str]]:
    lines = source.splitlines()
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, depth: int) -> None:
        for child in ast.iter_child_nodes(node):
            d = depth + 1 if isinstance(child, (ast.FunctionDef, ast.Lambda, ast.AsyncFunctionDef)) else depth
            if isinstance(child, (ast.Raise, ast.Assert)) and depth <= 1:  # in a method, not in a closure
                text = ast.get_source_segment(source, child) or ""
                line = lines[child.lineno - 1]
                previous = lines[child.lineno - 2] if child.lineno > 1 else ""
                if "pragma: no cover" not in line + previous:
                    found.append((child.lineno, text))
            visit(child, d)

    visit(tree, 0)
    return found


def test_every_compile_time_refusal_is_listed_with_its_checker_code() -> None:
    sites = compile_time_checks()
    assert sites, "the walk found no refusal at all: it is broken"
    unlisted = [(path, line, text) for path, line, text in sites if not any(phrase in text for phrase in REFUSALS)]
    assert not unlisted, f"compiler refusals with no checker diagnostic listed here: {unlisted}"


@pytest.mark.parametrize(("code", "text"), [(code, text) for code, texts in REFUSALS.values() for text in texts])
def test_the_checker_refuses_what_the_compiler_would(code: str, text: str) -> None:
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.loads(text)
    assert code in err.value.codes


def test_a_declaration_that_only_scores_sets_and_tests_is_accepted() -> None:
    tricklang.loads(HEAD + "  let marked = false\n" + TRICKS
                    + "    declare king holding K of spades, before own first card:\n"
                    + "      declarer scores 1 \"king\"\n      set marked = true\n      if marked:\n        pass\n")


def test_a_reversed_range_of_own_bids_is_refused_by_the_checker() -> None:
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.loads(HEAD + "  dealer bids 5..1\n" + TRICKS)
    assert "bad-count" in err.value.codes


def test_a_single_bid_auction_is_no_point_total_mismatch() -> None:
    text = HEAD.replace("deal\n", 'points\n  "Ace" A of trump = 1\n  "King" K of trump = 1\ndeal\n', 1)
    ruleset = tricklang.loads(text + "  auction once around from elder, bids 1..1\n    if all pass: dealer makes at 0\n"
                              + "  maker names trump\n" + TRICKS)
    assert "point-total-mismatch" not in [d.code for d in ruleset.warnings]
    ruleset = tricklang.loads(text + "  auction once around from elder, bids 1..3\n    if all pass: dealer makes at 0\n"
                              + "  maker names trump\n" + TRICKS)
    assert "point-total-mismatch" in [d.code for d in ruleset.warnings]
