"""Saved states and records from strangers: they carry or name rule files, so they are
untrusted rule files too.

A saved state carries its whole rule text (the texts it extends included) and its
SHA-256, which is checked before anything else: no file is ever read for it. A record
names a ``.trick`` file whose digest must match before anything of it is shown.
Each input runs in a sandboxed child (memory and CPU capped).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import expect_refused, run_sandboxed

import interpreter
import tricklang
from interpreter import RecordError, State
from interpreter.record import Record

ROOT = Path(__file__).resolve().parents[2]
ECARTE = tricklang.load(ROOT / "rules" / "ecarte.trick")
SECRET = "TRICKLANG_TEST_SECRET_7f3a"


def _state_data(ruleset: tricklang.Ruleset = ECARTE, steps: int = 3) -> dict[str, Any]:
    state = interpreter.new_game(ruleset, seed=3)
    for _ in range(steps):
        state.apply(state.legal_actions()[0])
    return dict(json.loads(state.to_json()))


def test_a_variant_state_carries_its_base_and_reloads_without_any_file(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    variant = tricklang.load(ROOT / "examples" / "black-maria.trick")
    data = _state_data(variant)
    assert data["rules"]["bases"] and "Hearts" in data["rules"]["bases"][0]
    assert "/" not in data["rules"]["path"]  # no server path in a saved state
    monkeypatch.chdir(tmp_path)  # no base file to be found here
    assert State.from_json(json.dumps(data)).to_dict() == data


@pytest.mark.parametrize("edit", ["source", "base", "sha256", "drop bases"])
def test_edited_rules_in_a_state_are_refused_by_their_digest(edit: str) -> None:
    data = _state_data(tricklang.load(ROOT / "examples" / "black-maria.trick"))
    rules = data["rules"]
    if edit == "source":
        rules["source"] = rules["source"].replace("game", "game ", 1)
    elif edit == "base":
        rules["bases"][0] = rules["bases"][0].replace("in 1..1000", "in 1..2000")
    elif edit == "sha256":
        rules["sha256"] = "0" * 64
    else:
        del rules["bases"]
    out = run_sandboxed(lambda: State.from_json(json.dumps(data)))
    assert "does not match its sha256" in expect_refused(out, "RecordError")


@pytest.mark.parametrize("source", ["/proc/self/environ", "/etc/passwd", "/dev/zero", "../../etc/passwd"])
def test_a_state_naming_a_file_instead_of_carrying_text_reads_nothing(source: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLANG_SECRET", SECRET)
    data = _state_data()
    data["rules"] = {"path": "/etc/x.trick", "source": source, "sha256": tricklang.ruleset.digest_of(source)}
    data["actions"] = []
    message = expect_refused(run_sandboxed(lambda: State.from_json(json.dumps(data))), "RecordError")
    assert SECRET not in message and "root:" not in message and "/etc" not in message


def test_a_state_whose_rules_extend_a_file_must_carry_it() -> None:
    text = 'tricklang 1\nextends "hearts.trick"\ngame "V"\n'
    data = _state_data()
    data["rules"] = {"path": "v.trick", "source": text, "sha256": tricklang.ruleset.digest_of(text)}
    message = expect_refused(run_sandboxed(lambda: State.from_json(json.dumps(data))), "RecordError")
    assert "not given" in message


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"format": "tricklang-state", "seed": ' + "9" * 5000 + "}",
                                  "x" * 100, ""])
def test_hostile_json_raises_record_error(text: str) -> None:
    for load in (State.from_json, Record.from_json):
        expect_refused(run_sandboxed(lambda f=load: f(text)), "RecordError")  # type: ignore[misc]


@pytest.mark.parametrize("value", [None, b"{}", 7])
def test_from_json_of_the_wrong_type_is_a_type_error(value: Any) -> None:
    with pytest.raises(TypeError):
        State.from_json(value)
    with pytest.raises(TypeError):
        Record.from_json(value)


# ------------------------------------------------------------------ records


def _record(tmp_path: Path) -> dict[str, Any]:
    rule_file = tmp_path / "ecarte.trick"
    # A copy of one's own (not the bundled game, which a record names instead of a path).
    rule_file.write_text((ROOT / "rules" / "ecarte.trick").read_text(encoding="utf-8") + "# mine\n", encoding="utf-8")
    state = interpreter.new_game(tricklang.load(rule_file, options={"target": 3}), seed=11)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    return dict(json.loads(Record.from_state(state).to_json(relative_to=tmp_path)))


@pytest.mark.parametrize("path", ["/proc/self/environ", "/etc/passwd", "../../../../etc/passwd", "/dev/zero",
                                  "../../../../../proc/self/environ"])
def test_a_record_naming_a_file_that_is_not_a_rule_file_shows_nothing_of_it(tmp_path: Path, path: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLANG_SECRET", SECRET)
    data = _record(tmp_path)
    data["rules"]["path"] = path
    message = expect_refused(run_sandboxed(lambda: Record.from_json(data, base_dir=tmp_path).replay()), "RecordError")
    assert SECRET not in message and "root:" not in message


def test_a_record_naming_another_rule_file_shows_nothing_of_it_before_the_digest(tmp_path: Path) -> None:
    data = _record(tmp_path)
    (tmp_path / "other.trick").write_text(f"tricklang 1\ngame {SECRET}\n", encoding="utf-8")
    data["rules"]["path"] = "other.trick"
    message = expect_refused(run_sandboxed(lambda: Record.from_json(data, base_dir=tmp_path).replay()), "RecordError")
    assert SECRET not in message and str(tmp_path) not in message


@pytest.mark.parametrize("field, value, words", [
    ("version", 99, "version 99"), ("version", -5, "version -5"), ("version", "1", 'version "1"'),
    ("language", "1", "rules.language"),
])
def test_bad_versions_are_refused(tmp_path: Path, field: str, value: Any, words: str) -> None:
    data = _record(tmp_path)
    if field == "language":
        data["rules"]["language"] = value
    else:
        data[field] = value
    with pytest.raises(RecordError, match=words):
        Record.from_json(data, base_dir=tmp_path)


def test_replay_honours_the_records_options_even_with_rules_given(tmp_path: Path) -> None:
    data = _record(tmp_path)
    record = Record.from_json(data, base_dir=tmp_path)
    assert record.replay(tricklang.load(ROOT / "rules" / "ecarte.trick")).scores == data["result"]["scores"]
    assert record.replay().ruleset.options["target"] == 3


@pytest.mark.parametrize("field, value", [("over", False), ("winners", [9]), ("deals", 77), ("scores", [0, 0])])
def test_replay_compares_the_whole_result(tmp_path: Path, field: str, value: Any) -> None:
    data = _record(tmp_path)
    data["result"][field] = value
    with pytest.raises(RecordError, match=f"ends with {field}"):
        Record.from_json(data, base_dir=tmp_path).replay()


# ------------------------------------------------------------------ option values the pack cannot serve

OPTION_DEAL = """tricklang 1
game "Option deal"
players 2
option n: int = 5 in 1..1000000000000 "cards each"
option turned: int = 1 in 0..1000 "cards turned up"
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7
zone hand: per player, owner
zone stock: shared, hidden, pack
zone up: shared, public
zone won: per player, public
deal
  deal n to each
  turn up turned to up
  tricks 5, left of dealer leads first
"""


@pytest.mark.parametrize(("options", "named"), [
    ({"n": 999_999_999_999}, "'n' = 999999999999"),
    ({"n": 17}, "'n' = 17"),
    ({"turned": 23}, "'turned' = 23"),
])
def test_a_saved_state_with_option_values_the_pack_cannot_serve_fails_fast(options: dict[str, int], named: str) -> None:
    """`deal n to each` with n up to 10**12 passes the checker (its default fits); a state
    saying n = 999999999999 used to die of MemoryError generating code for it."""
    data = _state_data(tricklang.loads(OPTION_DEAL, path="option-deal.trick"), steps=0)
    data["options"] = options
    text = json.dumps(data)
    assert len(text) < 2000
    message = expect_refused(run_sandboxed(lambda: State.from_json(text)), "RecordError", seconds=1.0)
    assert named in message and "not fit the rules" in message and "the deck has 32" in message


def test_option_values_the_pack_cannot_serve_are_refused_before_any_code_is_generated(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter.state import compiled

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("code generated")

    monkeypatch.setattr(compiled, "generate", refuse)
    rules = tricklang.loads(OPTION_DEAL, path="option-deal.trick")
    with pytest.raises(tricklang.OptionError, match=r"option 'n' = 40 does not fit the rules: dealing 40 cards"):
        rules.with_options({"n": 40})
    with pytest.raises(tricklang.OptionError, match=r"'n' = 40 does not fit"):
        tricklang.loads(OPTION_DEAL, path="option-deal.trick", options={"n": "40"})
    with pytest.raises(tricklang.OptionError, match=r"options 'n' = 16, 'turned' = 1 do not fit the rules: turning up"):
        rules.with_options({"n": 16})  # (32 cards dealt, and one more turned up)
    assert rules.with_options({"n": 15}).options == {"n": 15, "turned": 1}
    with pytest.raises(tricklang.OptionError, match="'n' = 40 does not fit"):
        interpreter.new_game(rules, seed=1, options={"n": 40})


# ------------------------------------------------------------------ what a record's messages say


def test_a_record_cannot_learn_whether_a_path_exists_or_loads(tmp_path: Path) -> None:
    """Missing, a directory, not loading, another rule file, the record's file changed:
    one message, so that a record from anyone probes nothing on this machine."""
    data = _record(tmp_path)
    (tmp_path / "broken.trick").write_text("tricklang 1\ngame \"Broken\"\n", encoding="utf-8")
    (tmp_path / "other.trick").write_text((ROOT / "examples" / "whist.trick").read_text(encoding="utf-8"),
                                          encoding="utf-8")
    (tmp_path / "folder.trick").mkdir()
    messages = set()
    for path in ("missing.trick", "folder.trick", "broken.trick", "other.trick", "/no/such/dir/x.trick"):
        data["rules"]["path"] = path
        message = expect_refused(run_sandboxed(lambda: Record.from_json(data, base_dir=tmp_path).replay()), "RecordError")
        messages.add(message.replace(repr(path), "PATH"))
    assert len(messages) == 1, messages
    assert "could not be used" in messages.pop()


@pytest.mark.parametrize(("field", "value", "shown"), [
    ("seed", list(range(4_000_000)), "a list of 4,000,000 items"),
    ("seed", "9" * 5_000_000, "5,000,000 characters"),
    ("first_dealer", {str(i): i for i in range(100_000)}, "an object of 100,000 fields"),
    ("actions", [["x" * 3_000_000]], "a list of 1 item"),
])
def test_a_bad_record_field_is_quoted_by_a_bounded_prefix_and_its_length(tmp_path: Path, field: str, value: Any,
                                                                        shown: str) -> None:
    """A 36 MB `seed` list gave a 36 MB error line."""
    data = _record(tmp_path)
    data[field] = value
    text = json.dumps(data)
    message = expect_refused(run_sandboxed(lambda: Record.from_json(text)), "RecordError", seconds=5.0)
    assert len(message) < 300 and shown in message, message[:300]
