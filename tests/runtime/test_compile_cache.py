"""compile_ruleset's caches: one program per (rule text, options, codegen), and the ruleset
compiled last found again by identity."""

from __future__ import annotations

import pytest
from interpreter.compiler import compile_ruleset

import tricklang
from interpreter import codegen


def test_the_same_ruleset_gets_its_own_program_back_and_other_options_another() -> None:
    rules = tricklang.load("euchre")
    five = rules.with_options({"target": 5})
    prog = compile_ruleset(rules)
    assert compile_ruleset(rules) is prog
    other = compile_ruleset(five)
    assert other is not prog and other.options["target"] == 5 and prog.options["target"] == 10
    assert compile_ruleset(rules) is prog  # not the one compiled last
    assert compile_ruleset(tricklang.load("euchre")) is prog  # the same text and options: the cached program


def test_switching_generated_code_off_is_seen_by_the_last_ruleset(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load("euchre")
    generated = compile_ruleset(rules)
    monkeypatch.setattr(codegen, "ENABLED", False)
    generic = compile_ruleset(rules)
    assert generic is not generated
    assert not any("run" in vars(ins) for ins in generic.instructions)
