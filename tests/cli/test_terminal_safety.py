"""What the command line prints from a rule file or a record reaches the terminal escaped:
no control or bidi character of a label, a doc string, a game name or a seat name
(a window-title change, a screen clear, text written right to left) is printed raw, as
`check` and `play` already did. JSON output escapes them as \\uXXXX."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.cli import main

ROOT = Path(__file__).resolve().parents[2]
ESCAPES = "\x1b]0;owned\x07\x1b[2J\u202e\x9b"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def evil(tmp_path: Path) -> Path:
    """Whist with escapes in its game name, an option's doc string and a score label."""
    text = (ROOT / "examples" / "whist.trick").read_text(encoding="utf-8")
    text = text.replace('"Points for game: 5 short whist', f'"Points{ESCAPES} for game: 5 short whist')
    text = text.replace('"odd tricks"', f'"odd{ESCAPES} tricks"').replace('game "Whist"', f'game "Whist{ESCAPES}"')
    path = tmp_path / "evil.trick"
    path.write_text(text, encoding="utf-8")
    return path


def strings(data: object) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in strings(v)]
    return []


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [
    ["options", "{evil}"],
    ["explain", "{evil}"],
    ["simulate", "{evil}", "-n", "3", "--max-deals", "2"],
])
def test_text_from_the_rule_file_is_escaped(capsys: pytest.CaptureFixture[str], evil: Path, argv: list[str]) -> None:
    code, out, err = run(capsys, *(a.replace("{evil}", str(evil)) for a in argv))
    assert code == 0, err
    assert not RAW.search(out + err), repr(RAW.search(out + err))
    assert "\\x1b]0;owned\\x07\\x1b[2J\\u202e\\x9b" in out  # (shown, escaped)


@pytest.mark.parametrize("argv", [
    ["options", "--json", "{evil}"],
    ["simulate", "--json", "{evil}", "-n", "3", "--max-deals", "2"],
    ["check", "--json", "{evil}"],
])
def test_json_output_escapes_them_and_reads_back_the_same(capsys: pytest.CaptureFixture[str], evil: Path,
                                                          argv: list[str]) -> None:
    code, out, err = run(capsys, *(a.replace("{evil}", str(evil)) for a in argv))
    assert code == 0, err
    assert not RAW.search(out), repr(RAW.search(out))
    if argv[0] != "check":  # (a doc string, a score label: the same text, once read)
        assert any(ESCAPES in text for text in strings(json.loads(out))), out


def test_seat_names_from_a_record_are_escaped_by_replay(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    code, _, err = run(capsys, "simulate", str(ROOT / "rules" / "ecarte.trick"), "-n", "1", "--seats", "random",
                       "--record", str(tmp_path / "records"))
    assert code == 0, err
    data = json.loads(next((tmp_path / "records").glob("*.json")).read_text(encoding="utf-8"))
    data["seats"] = [f"alice{ESCAPES}", "bob\u202e"]
    data["rules"]["path"] = str(ROOT / "rules" / "ecarte.trick")
    record.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(record))
    assert code == 0, err
    assert not RAW.search(out + err) and "seats: 0 = alice\\x1b]0;owned" in out


# ------------------------------------------------------------------ record files

def test_simulate_record_never_follows_a_planted_link_or_overwrites_a_file(capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Path) -> None:
    """`simulate --record DIR` followed a symbolic link planted in DIR and overwrote its
    target: each record file is now made new (O_CREAT | O_EXCL, no link followed)."""
    folder = tmp_path / "records"
    folder.mkdir()
    target = tmp_path / "precious.txt"
    target.write_text("keep me", encoding="utf-8")
    (folder / "match-00001.json").symlink_to(target)
    code, out, err = run(capsys, "simulate", str(ROOT / "rules" / "ecarte.trick"), "-n", "3", "--seats", "random",
                         "--record", str(folder))
    assert code == 2 and "match-00001.json is there already" in err
    assert target.read_text(encoding="utf-8") == "keep me" and sorted(p.name for p in folder.iterdir()) == [
        "match-00001.json"]
    (folder / "match-00001.json").unlink()
    assert run(capsys, "simulate", str(ROOT / "rules" / "ecarte.trick"), "-n", "3", "--seats", "random",
               "--record", str(folder))[0] == 0
    assert sorted(p.name for p in folder.iterdir()) == [f"match-0000{i}.json" for i in range(3)]


def test_an_exclusive_save_refuses_a_link_or_a_file_put_there_meanwhile(tmp_path: Path) -> None:
    import interpreter
    import tricklang
    from interpreter import RecordError
    from interpreter.record import Record

    state = interpreter.new_game(tricklang.load(ROOT / "rules" / "ecarte.trick"), seed=1)
    record = Record.from_state(state)
    target = tmp_path / "precious.txt"
    target.write_text("keep me", encoding="utf-8")
    (tmp_path / "link.json").symlink_to(target)
    (tmp_path / "file.json").write_text("mine", encoding="utf-8")
    for name in ("link.json", "file.json"):
        with pytest.raises(RecordError, match="something is there already"):
            record.save(tmp_path / name, exclusive=True)
    assert target.read_text(encoding="utf-8") == "keep me" and (tmp_path / "file.json").read_text() == "mine"
    assert json.loads(record.save(tmp_path / "new.json", exclusive=True).read_text(encoding="utf-8"))["seed"] == 1
