"""``python -m benchmarks.bench``: issue 27's figures, paired and beside their targets.

The figures themselves are never asserted (speed is measured, not tested): these tests
check the output's shape, the arithmetic of paired ratios, and that the two sides of a
line play what they say they play."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import interpreter
import tricklang
from benchmarks import bench, workloads


@pytest.fixture(scope="module")
def python_lines() -> list[bench.Line]:
    return bench.lines(native=False)


def test_every_figure_of_issue_27_has_a_line_with_its_target(python_lines: list[bench.Line]) -> None:
    targets = {line.name: line.target_text() for line in python_lines}
    for game in ("Écarté", "Cinch"):
        assert (targets[f"{game} step"], targets[f"{game} legal loop"], targets[f"{game} playout"]) == \
            ("≥ 1", "≥ 0.7", "≥ 1.5")
    assert targets["Écarté native playout"] == targets["Écarté native batch"] == "≥ 10"
    for game in ("Euchre", "Hearts", "Spades", "Oh Hell"):
        assert (targets[f"{game} native batch"], targets[f"{game} native id step"]) == ("≥ 0.5", "≥ 2")
    assert targets["simulate vs bare loop"] == "≤ 1.2" and targets["search player native, greedy rollouts (the default) (Euchre)"] == "≥ 0.5"
    assert targets["native build (rules/ecarte.trick)"] == "≤ 20" and targets["cold check (rules/ecarte.trick)"] == "≤ 0.25"
    natives = [line for line in python_lines if "native" in line.name]
    assert natives and all(line.skipped == "--no-native" for line in natives)


def test_only_selects_lines_by_a_word_of_their_name_accents_and_case_aside(python_lines: list[bench.Line]) -> None:
    names = [line.name for line in bench.selected(python_lines, ["ECARTE PLAY", "simulate"])]
    assert names == ["Écarté playout", "simulate vs bare loop"]
    assert [x.name for x in bench.selected(python_lines, [])] == [x.name for x in python_lines]
    with pytest.raises(ValueError, match="'whist' matches no line; the lines: Écarté step, Écarté legal loop"):
        bench.selected(python_lines, ["whist"])


def test_the_figure_is_the_median_of_paired_ratios_and_the_spread_their_range() -> None:
    line = bench.Line("x", "pure Python", "matches", "ref", 1.0, ours=bench.Side(lambda n: 0),
                      theirs=bench.Side(lambda n: 0))
    assert line.ours is not None and line.theirs is not None
    line.ours.rates = [10.0, 30.0, 20.0, 40.0, 5.0]
    line.theirs.rates = [10.0, 10.0, 40.0, 10.0, 10.0]  # paired: 1, 3, 0.5, 4, 0.5
    assert line.figure() == 1.0 and line.spread() == (0.5, 4.0) and line.met() is True
    line.inverse, line.lower_is_better, line.target = True, True, 1.2  # a time ratio: theirs over ours
    assert line.figure() == 1.0 and line.spread() == (0.25, 2.0) and line.met() is True
    line.skipped = "absent"
    assert line.figure() is None and line.met() is None


def test_simulate_and_the_bare_loop_play_the_same_matches_with_the_same_players() -> None:
    rules = tricklang.load("rules/ecarte.trick")
    assert workloads.simulate_runs(rules)(4) == workloads.bare_loop_runs(rules)(4) > 4 * 20


def test_the_native_copy_is_another_game_so_the_python_lines_stay_python() -> None:
    copy = workloads.native_copy(workloads.ECARTE)
    rules = tricklang.load(workloads.ECARTE)
    assert copy.digest != rules.digest and copy.options == rules.options
    assert interpreter.Game.of(copy).generated.source == interpreter.Game.of(rules).generated.source
    assert interpreter.Game.of(copy).m is not interpreter.Game.of(rules).m


def test_a_quick_run_prints_the_date_the_machine_the_table_and_the_method(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    results = tmp_path / "RESULTS.md"
    assert bench.main(["--quick", "--only", "cinch step,simulate", "--skip-startup", "--no-native",
                       "--results", str(results)]) == 0
    out = capsys.readouterr().out
    assert out == results.read_text(encoding="utf-8")
    head, table = out.split("\n\n")[1:3]
    assert head.startswith("Measured 20") and " cores, " in head and "load average at the start" in head
    rows = table.splitlines()
    assert rows[0] == "| figure | tricklang | reference | median of 2 paired | spread | target | |"
    assert [row.split(" | ")[0] for row in rows[2:]] == ["| Cinch step", "| simulate vs bare loop"]
    assert all(row.endswith((" met |", " missed |")) for row in rows[2:])
    assert "- Cinch step: decisions per deal: tricklang " in out and "How it was measured" in out


def test_json_and_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick", "--json", "--only", "ecarte step,ecarte native batch", "--no-native"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["repetitions"] == 2 and {"cpu", "cores", "python", "load"} <= set(got["machine"])
    step, native = got["lines"]
    assert step["name"] == "Écarté step" and len(step["ratios"]) == 2 and step["met"] in (True, False)
    assert native["skipped"] == "--no-native" and native["figure"] is None
    with pytest.raises(SystemExit) as stop:
        bench.main(["--only", "whist"])
    assert stop.value.code == 2 and "matches no line" in capsys.readouterr().err
