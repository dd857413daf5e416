"""Regenerate the golden playthroughs: tests/golden/<stem>.txt for every rule file
(*.trick) in rules/ and examples/.

Each golden file is the transcript (interpreter.transcript.render) of one whole
match: seed 1, HeuristicAgent at the even seats and RandomAgent at the odd ones
(each agent seeded with its seat number), under the rule file's default options.
tests/runtime/test_golden.py replays every match and compares.

Usage (from the repository root)::

    .venv/bin/python tests/make_golden.py            # every rule file
    .venv/bin/python tests/make_golden.py rules/ecarte.trick examples/whist.trick
"""

from __future__ import annotations

import sys
from pathlib import Path

import interpreter
import tricklang
from interpreter.players import Agent, HeuristicAgent, RandomAgent, play_match
from interpreter.transcript import render

ROOT = Path(__file__).resolve().parent.parent
GOLDEN_DIR = ROOT / "tests" / "golden"
RULE_DIRS = (ROOT / "rules", ROOT / "examples")
SEED = 1
REGENERATE = ".venv/bin/python tests/make_golden.py"


def rule_files() -> list[Path]:
    """Every rule file that has (or should have) a golden playthrough, in a fixed order."""
    return [p for d in RULE_DIRS for p in sorted(d.glob("*.trick"))]


def golden_path(rule_file: Path) -> Path:
    return GOLDEN_DIR / f"{rule_file.stem}.txt"


def duplicate_stems(files: list[Path]) -> list[str]:
    """Stems shared by two rule files (their goldens would overwrite each other)."""
    seen: dict[str, Path] = {}
    out = []
    for f in files:
        if f.stem in seen:
            out.append(f"{seen[f.stem].relative_to(ROOT)} and {f.relative_to(ROOT)}")
        seen.setdefault(f.stem, f)
    return out


def agents(players: int) -> list[Agent]:
    return [HeuristicAgent(seat) if seat % 2 == 0 else RandomAgent(seat) for seat in range(players)]


def header(rule_file: Path) -> str:
    rel = rule_file.relative_to(ROOT).as_posix()
    return (
        f"# Golden playthrough of {rel}: seed {SEED}, HeuristicAgent(seat) at even seats, "
        "RandomAgent(seat) at odd seats, default options.\n"
        f"# Regenerate with: {REGENERATE}\n"
    )


def transcript(rule_file: Path) -> str:
    """The golden text for a rule file: the header, then the whole match."""
    rules = tricklang.load(rule_file)
    state = interpreter.new_game(rules, seed=SEED)
    play_match(state, agents(rules.player_count))
    return header(rule_file) + render(state) + "\n"


def main(argv: list[str]) -> int:
    files = [Path(a).resolve() for a in argv] if argv else rule_files()
    clashes = duplicate_stems(rule_files())
    if clashes:
        print("error: rule files with the same name would share a golden file: " + "; ".join(clashes), file=sys.stderr)
        return 1
    GOLDEN_DIR.mkdir(exist_ok=True)
    for f in files:
        out = golden_path(f)
        out.write_text(transcript(f), encoding="utf-8")
        print(f"wrote {out.relative_to(ROOT)} ({out.stat().st_size} bytes)")
    if not argv:
        wanted = {golden_path(f) for f in files}
        for stale in sorted(GOLDEN_DIR.glob("*.txt")):
            if stale not in wanted:
                stale.unlink()
                print(f"removed {stale.relative_to(ROOT)} (no rule file)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
