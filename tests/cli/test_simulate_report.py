"""`tricklang simulate --report`, `--compare`, `--per-match` and the progress line: the
report's figures agree with the summary `simulate --json` prints for the same seed."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from interpreter.cli import main, match_seed
from interpreter.cli.progress import Progress

pytest.importorskip("matplotlib")

ECARTE = ["ecarte", "-n", "30", "--seed", "4", "--seats", "random,heuristic"]
CINCH = ["cinch", "-n", "8", "--seed", "3", "-o", "target=21", "--max-deals", "8", "--seats", "heuristic"]


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["simulate", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def _without_timing(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in ("timing", "variant")}


def _report(path: Path) -> tuple[str, list[dict[str, Any]]]:
    text = path.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="tricklang-report">(.*?)</script>', text, re.S)
    assert found is not None
    return text, json.loads(found.group(1))["variants"]


def _bar(text: str, gid: str, horizontal: bool = False) -> float:
    """A bar's length in the SVG (height, or width for a horizontal bar)."""
    found = re.search(rf'<g id="{re.escape(gid)}">\s*<path d="M ([\d.]+) ([\d.]+)\s+L ([\d.]+) ([\d.]+)\s+'
                      r'L ([\d.]+) ([\d.]+)', text)
    assert found is not None, f"no bar {gid}"
    x0, y0, x1, _, _, y2 = (float(v) for v in found.groups())
    return abs(x1 - x0) if horizontal else abs(y2 - y0)


def _proportional(lengths: list[float], values: list[float]) -> None:
    """Bars drawn to one scale: length / value the same for every non-zero value."""
    ratios = [length / value for length, value in zip(lengths, values, strict=True) if value]
    assert ratios and max(ratios) == pytest.approx(min(ratios), rel=1e-3)
    assert all(length < 0.01 for length, value in zip(lengths, values, strict=True) if not value)


@pytest.mark.parametrize("argv", [ECARTE, CINCH])
def test_the_reports_figures_agree_with_simulate_json(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      argv: list[str]) -> None:
    summary = _json(capsys, *argv)
    report = tmp_path / "report.html"
    assert main(["simulate", *argv, "--report", str(report)]) == 0
    capsys.readouterr()
    text, variants = _report(report)
    assert [_without_timing(v) for v in variants] == [_without_timing(summary)]
    # the bars: win rates, the first dealer, deals, final scores, points and choices
    sides = summary["sides"]
    _proportional([_bar(text, f"wins-0-{s}") for s in range(len(sides))], [side["rate"] for side in sides])
    deals = summary["deal_counts"]
    _proportional([_bar(text, f"deals-0-{k}") for k in deals], list(deals.values()))
    assert sum(deals.values()) == summary["matches"]
    assert sum(int(k) * n for k, n in deals.items()) == summary["deals"]["total"]
    scores = [(f"scores-0-{s}-{k}", n) for s, counts in enumerate(summary["final_scores"]) for k, n in counts.items()]
    _proportional([_bar(text, gid) for gid, _ in scores], [n for _, n in scores])
    points = summary["points"]
    _proportional([_bar(text, f"points-0-{i}", horizontal=True) for i in range(len(points))],
                  [p["per_match"] for p in points])
    choices = sorted(summary["choices"].items(), key=lambda kv: -kv[1])
    assert choices, "the players made choices"
    _proportional([_bar(text, f"choices-0-{i}", horizontal=True) for i in range(len(choices))],
                  [n for _, n in choices])
    lengths = [_bar(text, "first-0")]
    assert lengths[0] > 0 or not summary["first_dealer"]["rate"]
    for side in sides:  # the tables under the figures
        assert f"<td>{side['wins']}</td>" in text
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', text)  # nothing fetched to view it


def test_compare_runs_each_value_with_the_same_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["ecarte", "-n", "12", "--seed", "6"]
    alone = [_json(capsys, *base, "-o", f"target={t}") for t in (3, 5)]
    compared = _json(capsys, *base, "--compare", "-o", "target=3", "-o", "target=5")["compare"]
    assert [c["variant"] for c in compared] == ["target=3", "target=5"]
    assert [_without_timing(c) for c in compared] == [_without_timing(a) for a in alone]
    report = tmp_path / "compare.html"
    rows = tmp_path / "rows.jsonl"
    assert main(["simulate", *base, "--compare", "-o", "target=3", "-o", "target=5", "--seats", "random",
                 "--seats", "heuristic", "--report", str(report), "--per-match", str(rows)]) == 0
    capsys.readouterr()
    text, variants = _report(report)
    labels = [v["variant"] for v in variants]
    assert labels == ["target=3, seats random", "target=3, seats heuristic", "target=5, seats random",
                      "target=5, seats heuristic"]
    _proportional([_bar(text, f"wins-{v}-0") for v in range(4)], [v["sides"][0]["rate"] for v in variants])
    lines = [json.loads(line) for line in rows.read_text(encoding="utf-8").splitlines()]
    assert [line["variant"] for line in lines] == [label for label in labels for _ in range(12)]


def test_per_match_lines_add_up_to_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary = _json(capsys, *ECARTE)
    rows = tmp_path / "matches.jsonl"
    assert main(["simulate", *ECARTE, "--per-match", str(rows)]) == 0
    lines = [json.loads(line) for line in rows.read_text(encoding="utf-8").splitlines()]
    assert [line["match"] for line in lines] == list(range(30))
    assert [line["seed"] for line in lines] == [match_seed(4, i) for i in range(30)]
    for s, side in enumerate(summary["sides"]):
        assert sum(line["winner"] == s for line in lines) == side["wins"]
    assert sum(line["deals"] for line in lines) == summary["deals"]["total"]
    assert sum(line["actions"] for line in lines) == summary["actions"]["total"]
    for line in lines:
        assert line["winner"] is None or line["scores"][line["winner"]] == max(line["scores"])
    assert sum(line["choices"].get("propose", 0) for line in lines) == summary["choices"]["propose"]


@pytest.mark.parametrize(("argv", "message"), [
    (["-o", "target=5", "-o", "target=7"], "add --compare"),
    (["--seats", "random", "--seats", "heuristic"], "add --compare"),
    (["--compare"], "needs something to compare"),
    (["--compare", "-o", "target=5", "-o", "target=7", "--record", "x"], "--record"),
    (["--report", "/nonexistent-folder/r.html"], "no such directory"),
    (["--compare", "-o", "target=5", "-o", "target=bad"], "target"),
])
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(["simulate", "ecarte", "-n", "2", *argv]) == 2
    assert message in capsys.readouterr().err


def test_progress_shows_rate_and_time_left() -> None:
    times = iter([0.0, 5.0, 5.0, 6.0, 25.0, 25.0, 50.0, 50.0])  # (a plain line every 5 s at most)
    out = io.StringIO()
    bar = Progress(100, "plain", stream=out, clock=times.__next__)
    bar.update(10)
    bar.update(12)  # a second later: not drawn
    bar.update(50)
    bar.update(100)
    lines = out.getvalue().splitlines()
    assert lines == ["  10/100 matches (10%), 2.0 matches/s, 45 s left",
                     "  50/100 matches (50%), 2.0 matches/s, 25 s left",
                     "  100/100 matches (100%), 2.0 matches/s"]


def test_progress_bar_redraws_in_place_and_clears_itself() -> None:
    out = io.StringIO()
    bar = Progress(4, "bar", stream=out, clock=iter([0.0, 1.0, 1.0, 2.0, 2.0]).__next__)
    bar.update(2)
    bar.update(4)
    bar.close()
    text = out.getvalue()
    assert text.startswith("\r  [###############...............] 2/4 matches (50%), 2.0 matches/s, 1 s left")
    assert text.endswith("\r") and "\n" not in text


def test_progress_on_a_pipe_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "ecarte", "-n", "3", "--seats", "random"]) == 0
    assert capsys.readouterr().err == ""  # not a terminal: nothing by default
    assert main(["simulate", "ecarte", "-n", "3", "--seats", "random", "--progress"]) == 0
    assert re.search(r"3/3 matches \(100%\), [\d,.]+ matches/s", capsys.readouterr().err)
    assert main(["simulate", "ecarte", "-n", "3", "--seats", "random", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""
    assert Progress(3, "auto", stream=io.StringIO()).mode == "off"
    assert Progress(3, "on", stream=io.StringIO()).mode == "plain"
