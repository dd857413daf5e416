"""How problems are reported: whole rendered messages, every problem at once,
warnings that do not stop loading, option errors and unreadable files."""

from __future__ import annotations

import ast
import json
import pickle
import re
from pathlib import Path
from typing import Any

import pytest

import tricklang
from tricklang import model as m
from tricklang.diagnostics import MAX_SHOWN
from tricklang.walk import statements as walk_statements

# A cut-down Écarté that loads cleanly, with no warnings. Tests edit one line or more.
MINI = """\
# A cut-down Écarté.
tricklang 1
game "Mini Écarté"
players 2                                  [E1]
role elder = left of dealer                [E1]

deck                                       [E2]
  suits spades black, hearts red, diamonds red, clubs black
  ranks K Q J A 10 9 8 7

option target: int = 5 in 1..99 "Points that win the game"   [E52]
option first_packet: int = 3 in 2..3 "First packet"          [E5]

zone hand: per player, owner
zone stock: shared, hidden, pack
zone turnup: shared, public
zone discards: per player, hidden
zone won: per side, public

match
  first dealer is random
  dealer passes left
  game to target, at once

deal
  deal first_packet then 5 - first_packet to each from elder   [E5]
  turn up 1 to turnup
  trump is suit of turnup
  if turnup has K: dealer scores 1 "king turned up"
  repeat at most 5 times while count(stock) > 0:
    elder chooses:
      stand:
        stop
      propose:
        elder discards 1..5 to discards
        elder draws to 5 from stock
  tricks 5, elder leads first
    must follow suit
    must beat if able
  if tricks(elder) >= 3:
    elder scores 1 "point"
  else:
    dealer scores 1 "point"
"""


def edit(*changes: tuple[str, str]) -> str:
    text = MINI
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def rejected(text: str) -> tricklang.RulesError:
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.loads(text, path="rules/mini.trick")
    return info.value


def test_the_base_file_loads_without_warnings() -> None:
    rules = tricklang.loads(MINI, path="rules/mini.trick")
    assert rules.name == "Mini Écarté"
    assert rules.options == {"target": 5, "first_packet": 3}
    assert rules.warnings == ()


# ---------------------------------------------------------------- whole messages


def test_rendered_undefined_name_with_a_suggestion() -> None:
    error = rejected(edit(("elder discards", "eldr discards")))
    assert str(error) == (
        "rules/mini.trick:35:9: error: undefined name 'eldr' [undefined-name]\n"
        "   35 |         eldr discards 1..5 to discards\n"
        "      |         ^^^^\n"
        "  hint: did you mean 'elder'?"
    )


def test_rendered_missing_colon() -> None:
    error = rejected(edit(("while count(stock) > 0:", "while count(stock) > 0")))
    assert str(error) == (
        "rules/mini.trick:30:48: error: unexpected end of line; expected ':' [syntax-error]\n"
        "   30 |   repeat at most 5 times while count(stock) > 0\n"
        "      |                                                ^"
    )


def test_rendered_unterminated_string() -> None:
    error = rejected(edit(('"king turned up"', '"king turned up')))
    assert str(error) == (
        "rules/mini.trick:29:36: error: unterminated string [syntax-error]\n"
        '   29 |   if turnup has K: dealer scores 1 "king turned up\n'
        "      |                                    ^^^^^^^^^^^^^^^\n"
        "  hint: close the string with a '\"' on the same line"
    )


def test_rendered_bad_dedent_points_at_the_indentation() -> None:
    error = rejected(edit(("        elder draws", "       elder draws")))
    assert str(error) == (
        "rules/mini.trick:36:1: error: this line's indentation does not match any enclosing block [bad-indent]\n"
        "   36 |        elder draws to 5 from stock\n"
        "      | ^^^^^^^\n"
        "  hint: indent it by 6 or 8 spaces, to line up with a line above it"
    )


def test_every_problem_is_reported_at_once() -> None:
    error = rejected(
        edit(
            ("clubs black", "clubs purple"),
            ("turnup has K", "turnup has Z"),
            ("elder discards", "eldr discards"),
        )
    )
    assert [(d.code, d.line, d.column) for d in error.diagnostics] == [
        ("bad-colour", 8, 49),
        ("bad-rank", 29, 17),
        ("undefined-name", 35, 9),
    ]
    assert error.codes == ["bad-colour", "bad-rank", "undefined-name"]
    assert str(error) == (
        "rules/mini.trick:8:49: error: unknown colour 'purple' [bad-colour]\n"
        "    8 |   suits spades black, hearts red, diamonds red, clubs purple\n"
        "      |                                                 ^^^^^^^^^^^^\n"
        "  hint: colours are red, black, blue, green, yellow, white, none, special\n"
        "rules/mini.trick:29:17: error: 'Z' is not a rank, a suit, 'trump' or 'any' [bad-rank]\n"
        '   29 |   if turnup has Z: dealer scores 1 "king turned up"\n'
        "      |                 ^\n"
        "rules/mini.trick:35:9: error: undefined name 'eldr' [undefined-name]\n"
        "   35 |         eldr discards 1..5 to discards\n"
        "      |         ^^^^\n"
        "  hint: did you mean 'elder'?"
    )


def test_missing_sections_are_reported_together_and_positioned() -> None:
    error = rejected("tricklang 1\n")
    assert error.codes == ["missing-section"] * 5
    assert all((d.line, d.column) == (1, 1) for d in error.diagnostics)
    assert "rules/mini.trick:1:1: error: the rule file has no 'deck' section [missing-section]" in str(error)


def test_a_missing_deck_does_not_also_flag_every_card() -> None:
    deckless = edit(("deck                                       [E2]\n", ""))
    deckless = deckless.replace("  suits spades black, hearts red, diamonds red, clubs black\n  ranks K Q J A 10 9 8 7\n", "")
    assert rejected(deckless).codes == ["missing-section"]


def test_a_diagnostic_without_a_position_renders_on_one_line() -> None:
    diag = tricklang.Diagnostic("unreadable-file", "cannot read rule file: gone", path="x.trick")
    assert diag.render("tricklang 1\n") == "x.trick: error: cannot read rule file: gone [unreadable-file]"
    assert diag.to_dict() == {
        "path": "x.trick",
        "line": 0,
        "column": 0,
        "end_column": 0,
        "severity": "error",
        "code": "unreadable-file",
        "message": "cannot read rule file: gone",
        "hint": "",
    }


# ---------------------------------------------------------------- warnings


def test_warnings_do_not_stop_loading() -> None:
    text = edit(
        ('option first_packet', 'option spare: bool = true "Never read"\noption first_packet'),
        ("        stop\n", "        stop\n        pass\n"),
        ("  tricks 5", "  let unused_thing = 3\n  tricks 5"),
    )
    rules = tricklang.loads(text, path="rules/mini.trick")
    assert [(w.code, w.line, w.severity) for w in rules.warnings] == [
        ("unreachable-code", 35, "warning"),
        ("unused-option", 12, "warning"),
        ("unused-variable", 39, "warning"),
    ]
    assert rules.warnings[1].render(text) == (
        "rules/mini.trick:12:1: warning: option 'spare' is never used [unused-option]\n"
        '   12 | option spare: bool = true "Never read"\n'
        "      | ^"
    )


def test_warnings_travel_with_errors() -> None:
    error = rejected(
        edit(
            ('option first_packet', 'option spare: bool = true\noption first_packet'),
            ("elder discards", "eldr discards"),
        )
    )
    assert error.codes == ["undefined-name"]
    assert [w.code for w in error.warnings] == ["unused-option"]


# ---------------------------------------------------------------- options


@pytest.fixture(scope="module")
def mini() -> tricklang.Ruleset:
    return tricklang.loads(MINI, path="rules/mini.trick")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"targett": 3}, "unknown option 'targett' (this rule file's options: first_packet, target)"),
        ({"target": "many"}, "option 'target' is a number, not 'many'"),
        ({"target": True}, "option 'target' is a number, not True"),
        ({"target": 100}, "option 'target' must be in 1..99, not 100"),
        ({"first_packet": 1}, "option 'first_packet' must be in 2..3, not 1"),
    ],
)
def test_bad_options_raise_option_error_naming_the_option(options: dict[str, object], message: str) -> None:
    with pytest.raises(tricklang.OptionError) as info:
        tricklang.loads(MINI, path="rules/mini.trick", options=options)
    assert str(info.value) == message
    assert isinstance(info.value, ValueError) and isinstance(info.value, tricklang.TrickLangError)


def test_option_values_of_every_type(mini: tricklang.Ruleset) -> None:
    ecarte = tricklang.load(Path(__file__).resolve().parents[2] / "rules" / "ecarte.trick")
    assert mini.with_options({"target": "7"}).options["target"] == 7
    assert ecarte.with_options({"must_trump_when_void": "off"}).options["must_trump_when_void"] is False
    with pytest.raises(tricklang.OptionError, match="option 'must_trump_when_void' is a bool"):
        ecarte.with_options({"must_trump_when_void": "maybe"})
    with pytest.raises(tricklang.OptionError, match="option 'stock_shortfall' must be one of own_discard, no_overask"):
        ecarte.with_options({"stock_shortfall": "sometimes"})


def test_with_options_leaves_the_original_unchanged(mini: tricklang.Ruleset) -> None:
    changed = mini.with_options({"target": 9})
    assert (mini.options["target"], changed.options["target"]) == (5, 9)
    assert "options={'target': 9}" in repr(changed)


# ---------------------------------------------------------------- files


def test_a_missing_file_is_an_unreadable_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.trick"
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.load(missing)
    assert info.value.codes == ["unreadable-file"]
    assert str(info.value) == f"{missing}: error: cannot read rule file: No such file or directory [unreadable-file]"
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_a_file_that_is_not_utf8_is_an_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.trick"
    bad.write_bytes('game "Écarté"\n'.encode("latin-1"))
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.load(bad)
    assert info.value.codes == ["unreadable-file"]


def test_errors_name_the_file_they_were_loaded_from(tmp_path: Path) -> None:
    path = tmp_path / "typo.trick"
    path.write_text(edit(("elder discards", "eldr discards")), encoding="utf-8")
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.load(path)
    assert str(info.value).startswith(f"{path}:35:9: error: undefined name 'eldr' [undefined-name]\n")


@pytest.mark.parametrize("word", ["continue", "done"])
def test_a_choice_named_with_a_reserved_word_says_the_word_is_reserved(word: str) -> None:
    err = rejected(edit(("      stand:\n        stop", f"      {word}:\n        stop")))
    diag = next(d for d in err.diagnostics if d.code == "reserved-name")
    assert f"'{word}' is reserved" in diag.message
    assert (diag.line, diag.column) == (32, 7)


def test_a_choice_option_named_pass_is_no_reserved_word() -> None:
    # Issue 28 (design 3.11): `pass` is a choice option whose action is the word `pass`, as in an
    # auction (the runtime plays it: tests/runtime/test_cards_as_values_runtime.py).
    rules = tricklang.loads(edit(("      stand:\n        stop", "      pass:\n        stop")), path="rules/mini.trick")
    assert any(o.name == "pass" for st in walk_statements(rules.rules.deal) if isinstance(st, m.Choose) for o in st.options)


def test_an_option_value_named_pass_says_pass_is_reserved() -> None:
    err = rejected(edit(('option first_packet: int = 3 in 2..3 "First packet"',
                         'option first_packet: int = 3 in 2..3 "First packet"\noption style: choice(pass, keep) = keep "x"'),
                        ("    elder chooses:", "    if style == keep: dealer scores 1\n    elder chooses:")))
    assert err.codes == ["reserved-name"]
    assert "value named 'pass': 'pass' is reserved" in str(err)


# ------------------------------------------------------------------ thousands of problems

def _many_problems(size: int, name: str = "z") -> str:
    """A rule file of about ``size`` bytes with an undefined ``name`` again and again."""
    head = (
        "tricklang 1\ngame \"Many\"\nplayers 2\ndeck\n  suits spades black, hearts red\n  ranks A K Q\n"
        "zone hand: per player, owner\nzone stock: shared, hidden, pack\nzone won: per player, public\n"
        "deal\n  deal 3 to each\n")
    line = "  if " + " or ".join([name] * min(140, 3_900 // (len(name) + 4))) + ":\n    pass\n"
    return head + line * ((size - len(head)) // len(line)) + "  tricks 3, dealer leads first\n"


def test_thousands_of_diagnostics_are_counted_not_all_rendered(sandbox: Any) -> None:
    """A 98 KB file with some 19,000 undefined names: every diagnostic used to be rendered
    (its whole line split out of the text each time) inside tricklang.load."""
    text = _many_problems(98_000)

    def load_and_render() -> tuple[int, int, str]:
        try:
            tricklang.loads(text)
        except tricklang.RulesError as err:
            message = str(err)
            return len(err.diagnostics), message.count("[undefined-name]"), message[-100:]
        raise AssertionError("loaded")

    out = sandbox(load_and_render)  # (within the sandbox's CPU cap: it took 11 s of CPU)
    assert out["outcome"] == "returned", out
    found, rendered, last = ast.literal_eval(out["value"])
    assert found > 18_000 and rendered == MAX_SHOWN
    assert last.endswith(f"... and {found - MAX_SHOWN:,} more errors not shown ({found:,} in all)")


def test_a_hostile_247_kb_file_loads_within_the_memory_cap(sandbox: Any) -> None:
    text = _many_problems(247_000, "z" * 20)
    assert len(text.encode()) < 256_000

    def load_and_render() -> tuple[int, int]:
        try:
            tricklang.loads(text)
        except tricklang.RulesError as err:
            return len(err.diagnostics), len(str(err))
        raise AssertionError("loaded")

    out = sandbox(load_and_render)
    assert out["outcome"] == "returned", out
    found, rendered = ast.literal_eval(out["value"])
    assert found > 9_000 and rendered < 1_000_000


def test_check_prints_the_first_diagnostics_and_counts_the_rest(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main

    file = tmp_path / "many.trick"
    file.write_text(_many_problems(20_000), encoding="utf-8")
    assert main(["check", str(file)]) == 1
    out, err = capsys.readouterr()
    assert err.count("[undefined-name]") == MAX_SHOWN and len(err) < 200_000
    total = int(re.search(r"([\d,]+) errors$", err.strip()).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert f"... and {total - MAX_SHOWN:,} more errors not shown ({total:,} in all)" in err
    assert main(["check", "--json", str(file)]) == 1
    data = json.loads(capsys.readouterr().out)["files"][0]
    assert data["errors"] == total and len(data["diagnostics"]) == MAX_SHOWN and data["not_shown"] == total - MAX_SHOWN


def test_a_rules_error_renders_only_when_asked_and_survives_pickling() -> None:
    with pytest.raises(tricklang.RulesError) as caught:
        tricklang.loads(_many_problems(3_000))
    err = caught.value
    assert err.args[0] == "<string>: undefined-name"  # (nothing rendered up front)
    again = pickle.loads(pickle.dumps(err))
    assert again.codes == err.codes and str(again) == str(err)
    assert err.render(limit=2).count("[undefined-name]") == 2
