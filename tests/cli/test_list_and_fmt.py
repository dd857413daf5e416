"""`tricklang list` (the bundled games) and `tricklang fmt` (rewrite, --check, --diff)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tricklang
from interpreter.cli import main
from tricklang import catalog

ROOT = Path(__file__).resolve().parents[2]
UNTIDY = 'tricklang 1\ngame   "Tiny"  # name\nplayers 2 [E1]\ndeck\n    suits s black,h red\n    ranks A K Q\n'
TIDY = ('tricklang 1\ngame "Tiny"  # name\nplayers 2' + " " * 58 + "[E1]\ndeck\n  suits s black, h red\n"
        "  ranks A K Q\n")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_every_bundled_game_with_its_options_and_description(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0
    lines = {line.split()[0]: line for line in out.splitlines()}
    assert set(lines) == set(catalog.bundled_games())
    ecarte = tricklang.load("ecarte")
    assert f"{len(ecarte.options)} options" in lines["ecarte"]
    assert "Écarté, the two-handed French game of the 19th-century clubs, as a whole match." in lines["ecarte"]
    code, out, _ = run(capsys, "list", "--json")
    games = {g["name"]: g for g in json.loads(out)}
    assert games["cinch"]["game"] == tricklang.load("cinch").name
    assert games["euchre"]["options"] == len(tricklang.load("euchre").options)


def test_commands_take_a_bundled_game_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "whist")
    assert code == 0 and out == "whist: ok\n"
    code, out, _ = run(capsys, "simulate", "ecarte", "-n", "2", "--json")
    assert code == 0 and json.loads(out)["game"] == "Écarté"


def test_fmt_rewrites_a_file_in_place(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "tiny.trick"
    path.write_text(UNTIDY, encoding="utf-8")
    code, out, err = run(capsys, "fmt", str(path))
    assert code == 0 and out == ""
    assert path.read_text(encoding="utf-8") == TIDY
    assert "reformatted 1 file" in err
    code, _, err = run(capsys, "fmt", "--check", str(path))
    assert code == 0 and "would reformat 0 files, 1 file unchanged" in err


def test_fmt_check_and_diff_change_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "tiny.trick"
    path.write_text(UNTIDY, encoding="utf-8")
    code, out, err = run(capsys, "fmt", "--check", str(path))
    assert code == 1 and out == "" and f"{path}: would be reformatted" in err
    code, out, _ = run(capsys, "fmt", "--diff", str(path))
    assert code == 0
    assert "-    suits s black,h red\n-    ranks A K Q\n+  suits s black, h red\n+  ranks A K Q\n" in out
    assert path.read_text(encoding="utf-8") == UNTIDY


def test_fmt_reports_a_file_with_errors_and_leaves_it(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.trick"
    bad.write_text(UNTIDY + "deal\n  deal 3 to\n", encoding="utf-8")
    good = tmp_path / "good.trick"
    good.write_text(UNTIDY, encoding="utf-8")
    code, _, err = run(capsys, "fmt", str(bad), str(good))
    assert code == 1
    assert f"{bad}:8:" in err and "syntax-error" in err
    assert bad.read_text(encoding="utf-8") == UNTIDY + "deal\n  deal 3 to\n"
    assert good.read_text(encoding="utf-8") == TIDY  # the other files are still formatted
    code, _, err = run(capsys, "fmt", str(tmp_path / "missing.trick"))
    assert code == 1 and "cannot read rule file" in err and "Traceback" not in err


def test_the_shipped_rule_files_pass_fmt_check(capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in [*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])
    code, _, err = run(capsys, "fmt", "--check", *files)
    assert code == 0, err


def test_fmt_explain_options_and_list_start_without_the_runtime_or_grammar_analysis() -> None:
    """Each builds only its own command's parser (the other command modules import the
    runtime) and `fmt` rebuilds both Lark parsers from their stored tables."""
    import subprocess
    import sys

    code = ("import contextlib, io, sys\nfrom interpreter.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
            "    codes = [main(['fmt', '--check', 'rules/ecarte.trick']), main(['explain', 'rules/ecarte.trick']),\n"
            "             main(['options', 'cinch']), main(['list'])]\n"
            "print(codes)\n"
            "from tricklang.parser import TABLES, _lark, _lark_all_tokens, stored_tables_match\n"
            "print(all(not stored_tables_match(name=n) or p().source_path == '<deserialized>'\n"
            "          for n, p in zip(sorted(TABLES), (_lark_all_tokens, _lark))))\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'interpreter'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == [
        "[0, 0, 0, 0]", "True",
        "['interpreter', 'interpreter.cli', 'interpreter.cli.check', 'interpreter.cli.common', 'interpreter.cli.fmt', "
        "'interpreter.cli.games', 'interpreter.errors']"]
