"""The `tricklang` command, driven in-process through `main([...])`, and once through a real terminal."""

from __future__ import annotations

import gc
import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from interpreter.cli import main, match_seed, wilson
from interpreter.record import Record

ROOT = Path(__file__).resolve().parents[2]
ECARTE = str(ROOT / "rules" / "ecarte.trick")
CINCH = str(ROOT / "rules" / "cinch.trick")
RECORDS = Path(__file__).resolve().parents[1] / "records"

# The grammar's CITE terminal, written out again so that the check does not trust the code it checks.
CITATION = re.compile(r"\[([A-Z]+[0-9]+[a-z]?(?:-[A-Z]*[0-9]+[a-z]?)?(?:, *[A-Z]+[0-9]+[a-z]?(?:-[A-Z]*[0-9]+[a-z]?)?)*)\]")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


BROKEN = """tricklang 1
game "Broken"
players 2
deck
  suits spades black, hearts red
  ranks A K Q
deal
  deal 3 to each
  tricks 3, eldr leads first
"""


# ---------------------------------------------------------------- help and usage


@pytest.mark.parametrize("command", ["check", "options", "play", "simulate", "test", "explain", "replay"])
def test_every_command_has_help(capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert out.startswith(f"usage: tricklang {command}")


def test_no_command_and_unknown_command_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2 and "choose a command" in err
    code, _, err = run(capsys, "dance")
    assert code == 2 and "invalid choice" in err
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "simulate" in out


# ---------------------------------------------------------------- check


def test_test_command_passes_a_sound_rule_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "test", str(ECARTE), "--examples", "3", "--steps", "30")
    assert code == 0
    assert out.startswith(f"{ECARTE}: ok (3 matches, ")


def test_test_command_prints_the_shortest_failing_sequence(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter import State

    original = State.observation

    def leaky(self: State, player: int | None) -> dict[str, Any]:  # shows the next seat's hand
        obs = original(self, player)
        if player is not None:
            obs["peek"] = self.hand((player + 1) % self.player_count)
        return obs

    monkeypatch.setattr(State, "observation", leaky)
    code, _, err = run(capsys, "test", str(ECARTE), "--examples", "2", "--steps", "10")
    assert code == 1
    assert "2 of 2 matches broke an invariant" in err and "observation-leak" in err
    assert "after 0 actions" in err and "replay it with:" in err


def test_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", ECARTE, CINCH)
    assert code == 0
    assert out.splitlines() == [f"{ECARTE}: ok", f"{CINCH}: ok"]
    assert "Traceback" not in err


def test_a_short_command_runs_with_the_collector_paused_and_restores_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import interpreter.cli.check as check_command

    seen: list[bool] = []
    real = check_command._check

    def spy(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args)

    monkeypatch.setattr(check_command, "_check", spy)
    frozen = gc.get_freeze_count()
    assert run(capsys, "check", "--no-cache", ECARTE)[0] == 0
    assert seen == [False]
    assert gc.isenabled() and gc.get_freeze_count() == frozen  # called with argv: nothing frozen
    gc.disable()
    try:
        assert run(capsys, "check", "--no-cache", ECARTE)[0] == 0
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_the_program_freezes_what_a_short_command_made_before_it_exits() -> None:
    code = "import gc, sys; from interpreter.cli import main; s = main(); print(gc.get_freeze_count() > 1000, gc.isenabled())"
    for argv, frozen in ((["check", "--no-cache", ECARTE], "True"), (["--version"], "False")):
        out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=True).stdout
        assert out.splitlines()[-1] == f"{frozen} True", out


def test_check_reports_every_diagnostic_with_the_source_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.trick"
    broken.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, "check", ECARTE, str(broken))
    assert code == 1
    assert out.strip() == f"{ECARTE}: ok"
    assert f"{broken}:9:" in err and "undefined-name" in err and "eldr" in err
    assert "^" in err  # the caret under the source line


def test_check_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.trick"
    broken.write_text(BROKEN, encoding="utf-8")
    code, out, err = run(capsys, "check", "--json", ECARTE, str(broken))
    assert code == 1 and err == ""
    data = json.loads(out)
    assert data["ok"] is False
    first, second = data["files"]
    assert first["ok"] is True and first["game"] == "Écarté"
    assert second["ok"] is False and second["errors"] >= 1
    assert any(d["code"] == "undefined-name" and d["line"] == 9 for d in second["diagnostics"])


def test_check_a_missing_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "check", str(tmp_path / "nope.trick"))
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "cannot read rule file" in err


def test_check_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "check", ECARTE, "-o", "target=7")[0] == 0
    code, _, err = run(capsys, "check", ECARTE, "-o", "target=700")
    assert code == 2 and "must be in 1..99" in err  # a bad -o is a usage error everywhere


# ---------------------------------------------------------------- options


def test_options_lists_type_default_range_doc_and_laws(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "options", ECARTE)
    assert code == 0
    assert "target = 5  [E52]" in out
    assert "int: a number 1..99; default 5" in out
    assert "Points that win the game" in out
    assert "choice: own_discard or no_overask; default own_discard" in out
    assert "bool: true or false; default true" in out


def test_options_shows_values_set_with_o(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "options", CINCH, "-o", "scoring=difference", "--option", "target=42")
    assert code == 0
    assert "scoring = difference (default setback)" in out and "target = 42 (default 51)" in out


def test_options_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "options", "--json", ECARTE, "-o", "must_trump_when_void=false")
    assert code == 0
    rows = {o["name"]: o for o in json.loads(out)["options"]}
    assert rows["target"] == {"name": "target", "type": "int", "default": 5, "value": 5, "low": 1, "high": 99,
                              "choices": [], "doc": "Points that win the game", "laws": ["E52"]}
    assert rows["must_trump_when_void"]["value"] is False


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-o", "targt=7"], "unknown option 'targt'"),
        (["-o", "target=seven"], "option 'target' is a number"),
        (["-o", "must_trump_when_void=maybe"], "is a bool"),
        (["-o", "stock_shortfall=never"], "must be one of own_discard, no_overask"),
        (["-o", "target"], "expected NAME=VALUE"),
    ],
)
def test_bad_options_are_one_clear_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "options", ECARTE, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("tricklang options: error:")


def test_a_broken_rule_file_is_exit_1_everywhere(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    broken = tmp_path / "broken.trick"
    broken.write_text(BROKEN, encoding="utf-8")
    for command in (["options"], ["explain"], ["play"], ["simulate", "-n", "1"]):
        code, _, err = run(capsys, *command, str(broken))
        assert code == 1 and "undefined-name" in err, command


# ---------------------------------------------------------------- explain


def _cited(text: str) -> set[str]:
    """Every law cited in a rule file's text, comments left out."""
    laws: set[str] = set()
    for line in text.splitlines():
        hashes = [i for i, ch in enumerate(line) if ch == "#" and line[:i].count('"') % 2 == 0]
        code = line[: hashes[0]] if hashes else line
        for group in CITATION.findall(code):
            laws.update(law.strip() for law in group.split(","))
    return laws


@pytest.mark.parametrize("rule_file", [ECARTE, CINCH])
def test_explain_cites_every_law_of_the_rule_file(capsys: pytest.CaptureFixture[str], rule_file: str) -> None:
    code, out, _ = run(capsys, "explain", rule_file)
    assert code == 0
    source_laws = _cited(Path(rule_file).read_text(encoding="utf-8"))
    assert source_laws, "the rule file cites no laws?"
    prose_laws: set[str] = set()
    for group in CITATION.findall(out):
        prose_laws.update(law.strip() for law in group.split(","))
    missing = sorted(source_laws - prose_laws)
    assert not missing, f"laws cited in {rule_file} but missing from the prose: {missing}"
    # ... and each is attached to a rule, not only listed in the catch-all section at the end.
    assert "## Other citations" not in out


def test_explain_is_prose_with_every_section(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", ECARTE)
    assert code == 0
    assert out.startswith("# Écarté\n")
    for heading in ("## Players", "## The deck", "## Options", "## Zones", "## The match", "## Each deal"):
        assert heading in out
    assert "The **elder** is the player to the left of the dealer [E1]." in out
    assert "- **stock** (shared), face down: nobody sees it" in out
    assert "Each player must follow suit if able [E42]." in out
    assert "Play 5 tricks: the elder leads to the first" in out
    assert "| `target` | `5` | `5` | a number 1..99 | Points that win the game | [E52] |" in out


def test_explain_shows_option_values_and_which_branches_apply(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", CINCH, "-o", "scoring=difference")
    assert code == 0
    assert "| `scoring` | `difference` | `setback` |" in out
    assert "If `scoring` is `setback` (which is not so with these options)" in out
    assert "Left Pedro**: the 5 of the other suit of the trump colour, 5 points" in out


# ---------------------------------------------------------------- replay


def test_replay_prints_the_transcript(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(RECORDS / "ecarte-heuristic-vs-random.json")
    code, out, err = run(capsys, "replay", path)
    assert code == 0, err
    assert out.startswith("Écarté: seed 11")
    assert "trick 1:" in out and "seats: 0 = heuristic, 1 = random" in out
    record = Record.load(path)
    assert record.result is not None
    winner = record.result["winners"][0]
    score = "-".join(map(str, record.result["scores"]))
    assert out.strip().splitlines()[-1] == (f"{path}: {len(record.moves)} actions replayed and checked; "
                                            f"seat {winner} wins {score}")


def test_replay_as_one_seat_hides_the_others_cards(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(RECORDS / "ecarte-heuristic-vs-random.json")
    code, out, _ = run(capsys, "replay", path, "--seat", "1")
    assert code == 0
    assert "seat 0 is dealt 5 cards" in out
    assert run(capsys, "replay", path, "--seat", "5")[0] == 2
    code, out, _ = run(capsys, "replay", "-q", path)
    assert code == 0 and len(out.splitlines()) == 1


def _copy_record(tmp_path: Path, change: Any) -> Path:
    data = json.loads((RECORDS / "ecarte-heuristic-vs-random.json").read_text(encoding="utf-8"))
    change(data)  # the record names the bundled game: it replays from any folder
    out = tmp_path / "game.json"
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


def test_replay_rejects_an_action_that_does_not_fit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    def cheat(data: dict[str, Any]) -> None:
        step = next(i for i, (_, a) in enumerate(data["actions"]) if a.startswith("play"))
        seat = data["actions"][step][0]
        data["actions"][step] = [seat, "play 7Z"]

    path = _copy_record(tmp_path, cheat)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 1 and out == ""
    assert re.search(r"error: .*game\.json: step \d+ \('play 7Z', seat \d\): unknown card code", err)
    assert len(err.strip().splitlines()) == 1


def test_replay_rejects_a_record_for_a_changed_rule_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    def other_digest(data: dict[str, Any]) -> None:
        data["rules"]["sha256"] = "0" * 64

    code, _, err = run(capsys, "replay", str(_copy_record(tmp_path, other_digest)))
    assert code == 1 and "has changed since the record was made" in err  # (a bundled game: named, not a path)


def test_replay_with_rules_given_replays_against_that_file_if_its_digest_matches(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = RECORDS / "ecarte-heuristic-vs-random.json"
    copy = tmp_path / "ecarte-as-sent.trick"
    copy.write_text(Path(ECARTE).read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run(capsys, "replay", "-q", "--rules", str(copy), str(record))
    assert code == 0 and "actions replayed and checked" in out
    copy.write_text(copy.read_text(encoding="utf-8").replace("in 1..99", "in 1..98"), encoding="utf-8")
    code, out, err = run(capsys, "replay", "-q", "--rules", str(copy), str(record))
    assert code == 1 and out == "" and "is not the one the record was made with" in err and "Traceback" not in err
    code, _, err = run(capsys, "replay", "--rules", str(tmp_path / "missing.trick"), str(record))
    assert code == 1 and "rule file" in err and "Traceback" not in err
    assert "--rules FILE" in run(capsys, "replay", "--help")[1]


def test_replay_an_unreadable_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.json"))
    assert code == 1 and "cannot read record" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    code, _, err = run(capsys, "replay", str(bad))
    assert code == 1 and "not valid JSON" in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- simulate


def _summary(capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    code, out, err = run(capsys, "simulate", ECARTE, "-n", "40", "--seed", "9", "--seats", "random,heuristic",
                         "--json", *extra)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_simulate_jobs_2_gives_the_same_summary_as_jobs_1(capsys: pytest.CaptureFixture[str]) -> None:
    one = _summary(capsys, "--jobs", "1")
    two = _summary(capsys, "--jobs", "2")
    assert one.pop("timing")["jobs"] == 1 and two.pop("timing")["jobs"] == 2
    assert one == two


def test_simulate_summary_data(capsys: pytest.CaptureFixture[str]) -> None:
    data = _summary(capsys)
    assert data["matches"] == 40 and data["seats"] == ["random", "heuristic"]
    sides = data["sides"]
    assert sum(s["wins"] for s in sides) + data["abandoned"] == 40
    for s in sides:
        lo, hi = s["ci95"]
        assert lo <= s["rate"] <= hi
    fd = data["first_dealer"]
    assert fd["decided"] == 40 - data["abandoned"] and fd["no_advantage"] == 0.5
    assert data["deals"]["per_match"] > 1 and data["actions"]["per_deal"] > 1
    labels = {p["label"]: p for p in data["points"]}
    assert labels["point"]["laws"] == ["E49"] and labels["point"]["times"] > 0
    assert set(data["timing"]) == {"seconds", "jobs", "matches_per_second", "actions_per_second"}
    # The same seed gives the same matches; another seed gives others.
    again = _summary(capsys)
    assert {**again, "timing": None} == {**data, "timing": None}
    other = _summary(capsys, "--seed", "10")
    assert other["deals"] != data["deals"] or other["sides"] != data["sides"]


def test_simulate_text_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", ECARTE, "-n", "20", "--seats", "heuristic", "-o", "target=3")
    assert code == 0
    assert err == ""  # no progress bar when stderr is not a terminal
    assert "20 matches, seed 0, seats: 0 heuristic, 1 heuristic" in out
    assert "target=3" in out
    assert re.search(r"seat 0 \(heuristic\)\s+\d+\s+[\d.]+%\s+\[[\d.]+%, [\d.]+%\]", out)
    assert "first dealer's side won" in out and "(no advantage: 50.0%)" in out
    assert "deals per match:" in out and "actions per deal:" in out
    assert re.search(r"point \[E49\]\s+\d+", out)
    assert re.search(r"throughput: 20 matches in [\d.]+ s with 1 job: [\d,.]+ matches/s, [\d,]+ actions/s", out)


def test_simulate_abandons_long_matches_and_records_them(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_dir = tmp_path / "records"
    code, out, _ = run(capsys, "simulate", CINCH, "-n", "2", "--seats", "random", "--max-deals", "1", "--json",
                       "--record", str(out_dir))
    assert code == 0
    data = json.loads(out)
    assert data["abandoned"] == 2 and data["deals"]["total"] == 2
    records = sorted(out_dir.glob("*.json"))
    assert [p.name for p in records] == ["match-00000.json", "match-00001.json"]
    record = Record.load(records[1])
    assert record.seed == match_seed(0, 1)
    assert record.replay().actions == record.actions
    code, out, _ = run(capsys, "replay", "-q", str(records[0]))
    assert code == 0 and "unfinished" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-n", "0"], "must be at least 1"),
        (["-n", "x"], "expected a whole number"),
        (["--seats", "random,random,random"], "has 2 seats, 3 players given"),
        (["--seats", "human,random"], "unknown player 'human'"),
        (["--jobs", "-1"], "must be at least 0"),
        (["-o", "nope=1"], "unknown option 'nope'"),
    ],
)
def test_simulate_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "simulate", ECARTE, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_wilson_interval() -> None:
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    lo, hi = wilson(30, 100)
    assert 0.21 < lo < 0.22 and 0.39 < hi < 0.40


# ---------------------------------------------------------------- play, in-process


def _play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    return run(capsys, "play", *argv)


def test_play_a_whole_match_typing_1(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    out_file = tmp_path / "game.json"
    code, out, err = _play(capsys, monkeypatch, "1\n" * 400, ECARTE, "--seed", "3", "--seat", "0=human",
                           "--seat", "1=heuristic", "--record", str(out_file))
    assert code == 0, err
    assert "Écarté" in out and "; seat 0: you, seat 1: heuristic" in out
    assert "Seed 3 (to play this match again: --seed 3)." in out.split("Match over")[1]  # only at the end
    assert "your hand:" in out and "Your turn (" in out and "  1  " in out
    assert re.search(r"Match over: seat \d wins \d+-\d+ \(you (win|lose)\)\.", out)
    record = Record.load(out_file)
    assert record.seats == ["human", "heuristic"] and record.seed == 3
    state = record.replay()
    assert state.is_terminal()


def test_play_shows_only_what_the_human_may_see(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _play(capsys, monkeypatch, "1\n" * 12, ECARTE, "--seed", "3", "--dealer", "1")
    assert code == 0
    assert "seat 1 is dealt 5 cards" in out and re.search(r"seat 0 is dealt( [0-9AKQJ]+[SHDC]){5}", out)
    assert "turned up:" in out and "turnup: " in out and "stock: " in out
    assert "(* trump)" in out or "trumps" in out
    assert "You left the game after" in out  # the input ran out: a clean exit


def test_play_explains_illegal_moves_and_asks_again(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat 0 is elder (seat 1 deals): it stands, then leads; '?' and '? CARD' explain, nonsense is asked again.
    # Seed 25 deals seat 0 the king of trumps, so it may also declare: words that are no card are not read as a play.
    typed = "1\n?\n? ZZ\n99\nfrobnicate now\nplay 7X\nhelp\nshow\nlog\nquit\n"
    code, out, err = _play(capsys, monkeypatch, typed, ECARTE, "--seed", "25", "--dealer", "1")
    assert code == 0, err
    assert "You may play any card in your hand." in out  # the leader is free
    assert "play ZZ: unknown card code 'ZZ'" in out
    assert "There is no choice 99" in out
    assert "Not understood: 'frobnicate now'" in out
    assert "play 7X: unknown card code '7X'" in out
    assert "undo              take back your last action" in out
    assert out.count("Your turn (play):") >= 2  # 'show' shows the table again
    assert "You left the game after 1 action." in out


def test_play_why_names_the_obligation(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Find a position where the human follows and some card is refused, by playing '1' until then.
    for seed in range(1, 30):
        typed = "1\n" * 3 + "?\nquit\n"
        code, out, _ = _play(capsys, monkeypatch, typed, ECARTE, "--seed", str(seed), "--dealer", "0")
        assert code == 0
        if "must follow suit" in out or "must trump" in out or "must beat" in out:
            assert re.search(r"  [0-9AKQJ]+[SHDC]: the player must", out)
            return
    pytest.fail("no seed gave a refused card")


def test_undo_takes_back_a_move_before_any_card_is_seen(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat 0 is elder: it proposes; whatever the dealer answers, no hidden card is seen before seat 0 acts again.
    code, out, _ = _play(capsys, monkeypatch, "2\nundo\n1\nquit\n", ECARTE, "--seed", "5", "--dealer", "1")
    assert code == 0
    assert "Undone: propose" in out
    assert "seat 0: stand" in out  # and then it stood instead


def test_undo_is_refused_once_a_card_was_seen(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat 0 stands and leads; the dealer's reply shows a card: no undo.
    # (not his first card KC, the king of trumps: leading it would open the window to mark it, E18)
    code, out, _ = _play(capsys, monkeypatch, "1\n2\nundo\nquit\n", ECARTE, "--seed", "3", "--dealer", "1")
    assert code == 0
    assert re.search(r"Cannot undo 'play \w+': (another player has played a card|a trick has been completed) since", out)
    code, out, _ = _play(capsys, monkeypatch, "undo\nquit\n", ECARTE, "--seed", "3", "--dealer", "1")
    assert "There is nothing of yours to undo." in out


def test_play_cinch_card_choices_are_typed(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Seed 24: seat 0 comes to discard (its first action a bid or pass) and does not hold KS.
    code, out, _ = _play(capsys, monkeypatch, "1\n?\nKS\n5C QH\nquit\n", CINCH, "--seed", "24")
    assert code == 0
    assert "possible actions, e.g. discard" in out
    assert "You may discard 3 to 9 cards" in out
    assert "discard KS: you do not hold KS" in out
    assert "discard 5C QH: you must discard 3 to 9 cards" in out


def test_play_with_no_human_is_a_transcript(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _play(capsys, monkeypatch, "", ECARTE, "--seed", "2", "--seat", "0=random", "--seat", "1=heuristic")
    assert code == 0 and "Match over:" in out and "Your turn" not in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seat", "2=human"], "this game has 2 seats, numbered 0..1"),
        (["--seat", "0=human", "--seat", "1=human"], "only one seat can be human"),
        (["--seat", "0=human", "--seat", "0=random"], "--seat 0 is given twice"),
        (["--seat", "0=wizard"], "the player must be one of human, random, heuristic"),
        (["--seat", "x=human"], "expected N=PLAYER"),
        (["--dealer", "7"], "this game has seats 0..1"),
        (["-o", "target=0"], "must be in 1..99"),
        (["--seed", "abc"], "expected a whole number"),
    ],
)
def test_play_usage_errors(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: list[str], message: str) -> None:
    code, out, err = _play(capsys, monkeypatch, "", ECARTE, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_play_an_unknown_rule_file(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, _, err = _play(capsys, monkeypatch, "", str(tmp_path / "nope.trick"))
    assert code == 1 and "cannot read rule file" in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- play, through a real terminal


def test_play_a_whole_deal_through_a_pseudo_terminal(tmp_path: Path) -> None:
    """The human always types 1, through a pty; after the first deal it leaves with Ctrl-D."""
    record = tmp_path / "pty-game.json"
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "interpreter.cli", "play", ECARTE, "--seed", "7", "--seat", "0=human",
         "--seat", "1=heuristic", "--record", str(record)],
        stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, close_fds=True,
    )
    os.close(slave)
    output = b""
    typed = 0
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                try:
                    chunk = os.read(master, 4096)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                output += chunk
            text = output.decode("utf-8", "replace")
            if text.endswith("> "):
                if "score after deal 1" in text:
                    os.write(master, b"\x04")  # Ctrl-D: end of input
                    output += b"<EOF>"
                else:
                    os.write(master, b"1\n")
                    typed += 1
                    output += b"<typed>"
            if proc.poll() is not None and not ready:
                break
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    text = output.decode("utf-8", "replace")
    assert proc.returncode == 0, text
    assert "score after deal 1" in text, text
    assert "Traceback" not in text
    assert typed >= 2 and "your hand:" in text
    assert "You left the game after" in text and "Record saved to" in text
    saved = Record.load(record)
    assert saved.seats == ["human", "heuristic"]
    assert sum(1 for seat, _ in saved.moves if seat == 0) == typed
    assert saved.replay().deal_number >= 2


# ---------------------------------------------------------------- rule files that warn or fail at run time

WARNED = """tricklang 1
game "Warned"
players 2
deck
  suits spades black, hearts red
  ranks A K Q
option spare: int = 1 in 1..2 "never used"
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
match
  game to 3, after the deal
deal
  deal 3 to each
  tricks 3, dealer leads first
  if tricks(dealer) >= 2:
    dealer scores 1 "most tricks"
"""

# Choosing `greedy` turns up more cards than the pack holds: a run-time error after a decision.
RUNS_OUT = """tricklang 1
game "Runs out"
players 2
deck
  suits spades black, hearts red
  ranks A K Q
zone hand: per player, owner
zone stock: shared, hidden, pack
zone turnup: shared, public
zone won: per side, public
match
  game to 3, after the deal
deal
  deal 2 to each
  dealer chooses:
    safe:
      pass
    greedy:
      repeat at most 5 times:
        turn up 1 to turnup
  tricks 2, dealer leads first
  dealer scores 1
"""


def test_check_prints_warnings_on_stderr_and_succeeds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rule_file = tmp_path / "warned.trick"
    rule_file.write_text(WARNED, encoding="utf-8")
    code, out, err = run(capsys, "check", str(rule_file))
    assert code == 0
    assert out == f"{rule_file}: ok (1 warning)\n"
    assert "warning: option 'spare' is never used [unused-option]" in err
    code, out, _ = run(capsys, "check", "--json", str(rule_file))
    assert code == 0 and json.loads(out)["files"][0]["diagnostics"][0]["severity"] == "warning"


def test_explain_a_small_file_without_options_or_citations(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rule_file = tmp_path / "warned.trick"
    rule_file.write_text(WARNED.replace('option spare: int = 1 in 1..2 "never used"\n', ""), encoding="utf-8")
    code, out, _ = run(capsys, "explain", str(rule_file))
    assert code == 0
    assert "This game has no options." in out
    assert "Any card may be played to any trick." in out
    assert "If the number of tricks won by the dealer is at least 2, the dealer scores 1 point (“most tricks”)." in out
    code, out, _ = run(capsys, "options", str(rule_file))
    assert code == 0 and "has no options" in out


def test_a_run_time_error_in_play_is_exit_1_and_the_record_reproduces_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rule_file = tmp_path / "runs-out.trick"
    rule_file.write_text(RUNS_OUT, encoding="utf-8")
    saved = tmp_path / "crash.json"
    code, out, err = _play(capsys, monkeypatch, "2\n", str(rule_file), "--seed", "1", "--dealer", "0",
                           "--record", str(saved))
    assert code == 1
    assert "tricklang play: error: line 20: the pack ran out when turning up" in err and "Traceback" not in err
    assert "Record saved" in out
    assert Record.load(saved).actions == ["greedy"]
    code, _, err = run(capsys, "replay", str(saved))
    assert code == 1 and "step 1 ('greedy', seat 0): line 20: the pack ran out" in err


def test_simulate_reports_run_time_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rule_file = tmp_path / "runs-out.trick"
    rule_file.write_text(RUNS_OUT, encoding="utf-8")
    code, out, err = run(capsys, "simulate", str(rule_file), "-n", "6", "--seats", "random", "--json",
                         "--record", str(tmp_path / "games"))
    assert code == 1
    data = json.loads(out)
    assert data["errors"] and all("the pack ran out" in e["error"] for e in data["errors"])
    assert "the pack ran out when turning up" in err
    failed = data["errors"][0]["match"]
    code, _, err = run(capsys, "replay", str(tmp_path / "games" / f"match-{failed:05d}.json"))
    assert code == 1 and "the pack ran out" in err


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_leaving_offers_to_save_a_record_at_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    saved = tmp_path / "offered.json"
    monkeypatch.setattr("sys.stdin", _Terminal(f"1\nquit\n{saved}\n"))
    code, out, _ = run(capsys, "play", ECARTE, "--seed", "3", "--dealer", "1")
    assert code == 0
    assert "Save a record of this game?" in out and f"Record saved to {saved}" in out
    assert Record.load(saved).actions[0] == "stand"
    monkeypatch.setattr("sys.stdin", _Terminal("1\nquit\n\n"))
    code, out, _ = run(capsys, "play", ECARTE, "--seed", "3", "--dealer", "1")
    assert code == 0 and "Record saved" not in out


def test_simulate_shows_a_progress_bar_only_on_a_terminal(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    code = main(["simulate", ECARTE, "-n", "3", "--json"])
    assert code == 0
    assert "3/3 matches" in terminal.getvalue() and "[" in terminal.getvalue()
    json.loads(capsys.readouterr().out)  # stdout holds only the JSON
