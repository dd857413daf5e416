"""``python -m benchmarks.bench``: the paired speed table, and ``--only`` to run some of it."""

from __future__ import annotations

import pytest

from benchmarks import bench
from interpreter import native


def test_only_selects_workloads_by_a_word_of_their_name_accents_and_case_aside() -> None:
    work = bench.pairs()
    names = [p.name for p in bench.selected(work, ["ECARTE", "hearts"])]
    native_lines = (["Écarté (native)", "Écarté (State.playout, native)", "Hearts (native)"]
                    if native.unavailable() is None else [])
    assert names == ["Écarté", "Hearts", "Écarté (State.playout)", "Hearts (State.playout)", *native_lines]
    assert [p.name for p in bench.selected(bench.pairs(native=False), ["ecarte"])] == ["Écarté", "Écarté (State.playout)"]
    assert [p.name for p in bench.selected(work, [])] == [p.name for p in work]
    with pytest.raises(ValueError, match="'whist' matches no workload; the workloads: Écarté, Cinch"):
        bench.selected(work, ["whist"])


def test_a_quick_run_of_one_game_prints_its_lines_and_an_unknown_word_is_a_usage_error(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--quick", "--only", "ecarte", "--skip-startup", "--no-native"]) == 0
    out = capsys.readouterr().out
    assert "| Écarté matches |" in out and "| Écarté (State.playout) matches |" in out
    assert "native) matches" not in out and "native lines (the generated modules compiled by Cython) are left out: --no-native" in out
    assert "Cinch" not in out and "decisions per match: tricklang" in out
    with pytest.raises(SystemExit) as stop:
        bench.main(["--only", "whist"])
    assert stop.value.code == 2 and "matches no workload" in capsys.readouterr().err
