"""A short fixed-seed slice of the fuzzers of :mod:`interpreter.fuzz` (``make fuzz`` runs
them for as long as asked): every generated rule file and every mutated state or record
is answered with a documented error or plays normally."""

from __future__ import annotations

from interpreter.fuzz import fuzz_grammar, fuzz_saves


def test_generated_rule_files_raise_only_documented_errors() -> None:
    tally = fuzz_grammar(seed=1, seconds=120, limit=60)
    assert tally.inputs == 60
    assert not tally.findings, tally.findings[:3]
    assert tally.stages.get("parsed", 0) >= 50  # the generator follows the grammar
    assert tally.stages.get("played", 0) >= 5  # and reaches the run time


def test_mutated_states_and_records_raise_only_documented_errors() -> None:
    tally = fuzz_saves(seed=1, seconds=120, limit=150)
    assert tally.inputs == 150
    assert not tally.findings, tally.findings[:3]
