"""Rule files from strangers: `extends` is confined and nothing outside a rule file is
ever read whole or quoted.

`extends` may name only a ``.trick`` file in the extending file's folder (or below it)
or a bundled game; files are read only when regular, and never more than the size limit
plus one byte. Each hostile input runs in a sandboxed child (memory and CPU capped) and
must be refused with its diagnostic code in well under a second, revealing nothing:
not the file's text, not the process environment, not a resolved server path.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import expect_refused, run_sandboxed

import tricklang
from tricklang.parser import MAX_SOURCE_BYTES

ROOT = Path(__file__).resolve().parents[2]
HEARTS = ROOT / "examples" / "hearts.trick"
SECRET = "TRICKLANG_TEST_SECRET_7f3a"


def _variant(target: str) -> str:
    return f'tricklang 1\nextends "{target}"\ngame "Variant"\n'


def _loads_in(folder: Path, text: str) -> Callable[[], Any]:
    return lambda: tricklang.loads(text, path=str(folder / "variant.trick"))


@pytest.fixture(autouse=True)
def _secret_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRICKLANG_SECRET", SECRET)


def _reveals_nothing(message: str, *private: str) -> None:
    """No secret, no password line, no private path (the caller's own file name aside)."""
    message = message.replace("variant.trick", "")
    for text in private:
        message = message.replace(text + "/inner/:", ":").replace(text + "/:", ":")
    assert SECRET not in message
    assert "root:" not in message  # /etc/passwd's first line
    for text in private:
        assert text not in message, f"{text!r} revealed in {message!r}"


@pytest.mark.parametrize("target", [
    "/proc/self/environ", "/etc/passwd", "../../../../../../etc/passwd", "/etc/passwd.trick",
    "../../../../../../../proc/self/environ", "../outside.trick", "/dev/zero",
    "a\0b.trick", "x" * 300 + ".trick", "not-a-bundled-game", "\u202e.trick",
])
def test_extends_outside_its_folder_or_not_a_rule_file_is_refused(tmp_path: Path, target: str) -> None:
    (tmp_path / "outside.trick").write_text(f"tricklang 1\n# {SECRET}\n", encoding="utf-8")
    inner = tmp_path / "inner"
    inner.mkdir()
    message = expect_refused(run_sandboxed(_loads_in(inner, _variant(target))), "RulesError", "bad-extends")
    _reveals_nothing(message, str(tmp_path))


def test_a_symlink_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "secret.trick").write_text(f"tricklang 1\n{SECRET}\n", encoding="utf-8")
    inner = tmp_path / "inner"
    inner.mkdir()
    (inner / "base.trick").symlink_to(tmp_path / "secret.trick")
    (inner / "env.trick").symlink_to("/proc/self/environ")
    for name in ("base.trick", "env.trick"):
        message = expect_refused(run_sandboxed(_loads_in(inner, _variant(name))), "RulesError", "bad-extends")
        _reveals_nothing(message, str(tmp_path))


def test_a_base_in_the_folder_that_is_not_a_rule_file_is_not_quoted(tmp_path: Path) -> None:
    (tmp_path / "keys.trick").write_text(f"{SECRET}=1\n", encoding="utf-8")
    message = expect_refused(run_sandboxed(_loads_in(tmp_path, _variant("keys.trick"))), "RulesError", "bad-extends")
    _reveals_nothing(message, str(tmp_path))


def test_a_file_that_is_not_a_rule_file_is_never_quoted(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text(f"{SECRET}=1\nmore\n", encoding="utf-8")
    for source in (secret, Path("/proc/self/environ")):
        message = expect_refused(run_sandboxed(lambda s=source: tricklang.load(s)), "RulesError", "syntax-error")
        _reveals_nothing(message)


def test_messages_name_the_base_as_written_not_as_resolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "base.trick").write_text("tricklang 1\ngame \"Base\"\nplayers 99\n", encoding="utf-8")
    _write(tmp_path / "variant.trick", _variant("sub/base.trick"))
    out = run_sandboxed(lambda: tricklang.load("variant.trick"))
    message = expect_refused(out, "RulesError")
    assert "sub/base.trick" in message
    _reveals_nothing(message, str(tmp_path))


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_bases_below_the_folder_and_bundled_games_still_load(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "hearts.trick").write_text(HEARTS.read_text(encoding="utf-8"), encoding="utf-8")
    assert tricklang.loads(_variant("sub/hearts.trick"), path=str(tmp_path / "v.trick")).name == "Variant"
    assert tricklang.loads(_variant("hearts.trick")).name == "Variant"  # no file: bundled games only
    assert tricklang.load(ROOT / "examples" / "cinch-cutthroat.trick").name == "Cut-throat Cinch"


# ------------------------------------------------------------------ special and huge files


def _special_files(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo.trick"
    os.mkfifo(fifo)
    huge = tmp_path / "huge.trick"
    with huge.open("wb") as f:  # a sparse 400 MB file
        f.truncate(400_000_000)
    just_over = tmp_path / "over.trick"
    just_over.write_bytes(b"tricklang 1\n" + b"#" * (MAX_SOURCE_BYTES - 11))
    return {"fifo": fifo, "huge": huge, "one byte over": just_over, "/dev/zero": Path("/dev/zero"),
            "a directory": tmp_path, "empty path": Path("")}


@pytest.mark.parametrize("kind", ["fifo", "huge", "one byte over", "/dev/zero", "a directory", "empty path"])
def test_special_and_huge_files_are_refused_without_reading_them_whole(tmp_path: Path, kind: str) -> None:
    path = _special_files(tmp_path)[kind]
    code = "too-large" if kind in ("huge", "one byte over") else "unreadable-file"
    message = expect_refused(run_sandboxed(lambda: tricklang.load(path)), "RulesError", code)
    assert "Is a directory" not in message or kind == "a directory"


@pytest.mark.parametrize("kind", ["fifo", "huge", "/dev/zero"])
def test_special_and_huge_files_are_refused_as_a_base(tmp_path: Path, kind: str) -> None:
    special = _special_files(tmp_path)
    if kind == "/dev/zero":
        (tmp_path / "zero.trick").symlink_to("/dev/zero")
        target = "zero.trick"
    else:
        target = special[kind].name
    out = run_sandboxed(_loads_in(tmp_path, _variant(target)))
    expect_refused(out, "RulesError")
    assert set(out["codes"]) & {"bad-extends", "too-large", "unreadable-file"}, out


def test_the_last_allowed_byte_is_read() -> None:
    text = "tricklang 1\n#" + "x" * (MAX_SOURCE_BYTES - 14) + "\n"
    assert len(text.encode()) == MAX_SOURCE_BYTES
    out = run_sandboxed(lambda: tricklang.loads(text))
    assert out["outcome"] == "raised" and "too-large" not in out["codes"], out


# ------------------------------------------------------------------ names the system refuses


@pytest.mark.parametrize("name", ["x" * 5000, "x" * 5000 + ".trick", f"rules/{'y' * 300}.trick", "a\0b.trick",
                                  Path("x" * 5000)], ids=["long name", "long .trick", "long part", "NUL", "long Path"])
def test_every_failure_to_read_a_path_is_unreadable_file(name: str | Path, capsys: pytest.CaptureFixture[str]) -> None:
    from interpreter.cli import main
    from tricklang.ruleset import load_tracked

    for read in (tricklang.load, load_tracked):
        with pytest.raises(tricklang.RulesError) as caught:
            read(name)
        assert [d.code for d in caught.value.diagnostics] == ["unreadable-file"]
        assert len(str(caught.value)) < 400  # the name is shortened, not echoed whole
    if "\0" not in str(name):  # argv cannot hold a NUL
        assert main(["check", str(name)]) == 1
        err = capsys.readouterr().err
        assert "unreadable-file" in err and "Traceback" not in err
