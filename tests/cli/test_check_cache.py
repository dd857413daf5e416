"""The cache of `tricklang check` (tricklang.checkcache): the same output as a full check,
used only while the file and its bases are unchanged, and never trusted."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tricklang.ruleset
from interpreter.cli import main
from tricklang import checkcache

ROOT = Path(__file__).resolve().parents[2]

BASE = (ROOT / "examples" / "whist.trick").read_text(encoding="utf-8")
VARIANT = 'tricklang 1\nextends "base.trick"\ngame "Warned variant"\noption spare: int = 1 in 1..2 "never used"\n'


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def variant(tmp_path: Path) -> Path:
    """A rule file with one warning that extends a base in its folder."""
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "base.trick").write_text(BASE, encoding="utf-8")
    (rules / "variant.trick").write_text(VARIANT, encoding="utf-8")
    return rules / "variant.trick"


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def no_full_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make a full check fail loudly: what passes after this came from the cache."""
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("checked in full")

    monkeypatch.setattr(tricklang.ruleset, "load_tracked", refuse)


def test_a_cached_check_prints_what_the_full_check_printed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cache: Path, variant: Path) -> None:
    full = check(capsys, str(variant))
    full_json = check(capsys, "--json", str(variant))
    assert full[0] == 0 and "(1 warning)" in full[1] and "[unused-option]" in full[2]
    assert len(list(cache.glob("check-*.json"))) == 1
    no_full_check(monkeypatch)
    assert check(capsys, str(variant)) == full
    assert check(capsys, "--json", str(variant)) == full_json
    assert json.loads(full_json[1])["files"][0]["game"] == "Warned variant"


def test_options_and_the_path_as_given_are_part_of_the_key(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cache: Path, variant: Path) -> None:
    check(capsys, str(variant))
    check(capsys, "-o", "spare=2", str(variant))
    monkeypatch.chdir(variant.parent)
    check(capsys, "variant.trick")
    assert len(list(cache.glob("check-*.json"))) == 3


@pytest.mark.parametrize("edit", ["file", "base", "base-link"])
def test_a_changed_file_or_base_is_checked_again(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cache: Path, variant: Path,
        edit: str) -> None:
    assert check(capsys, str(variant))[0] == 0
    base = variant.parent / "base.trick"
    if edit == "file":
        variant.write_text(VARIANT + "option spare2: int = 1 in 1..2 \"also unused\"\n", encoding="utf-8")
    elif edit == "base":
        base.write_text(BASE.replace("game ", "game-broken "), encoding="utf-8")
    else:  # the base named in the file becomes a link to another file
        other = variant.parent / "other.trick"
        other.write_text(BASE.replace("game ", "game-broken "), encoding="utf-8")
        base.unlink()
        base.symlink_to(other)
    code, out, err = check(capsys, str(variant))
    if edit == "file":
        assert code == 0 and "(2 warnings)" in out
    else:
        assert code == 1 and "syntax" in err


def test_a_failing_check_is_not_cached(capsys: pytest.CaptureFixture[str], cache: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.trick"
    broken.write_text("tricklang 1\ngame \"Broken\"\n", encoding="utf-8")
    assert check(capsys, str(broken))[0] == 1
    assert check(capsys, str(broken))[0] == 1
    assert not list(cache.glob("check-*.json"))


@pytest.mark.parametrize("damage", [
    b"", b"not json", b"[]", b"{}", b'{"format": 1}', b"\xff\xfe", b"[" * 100_000,
    "key", "game", "warnings", "base-digest", "base-outside", "extra-field", "huge",
])
def test_a_damaged_or_forged_entry_is_ignored(
        capsys: pytest.CaptureFixture[str], cache: Path, variant: Path, damage: bytes | str) -> None:
    expected = check(capsys, str(variant))
    (entry,) = cache.glob("check-*.json")
    data = json.loads(entry.read_text(encoding="utf-8"))
    if isinstance(damage, bytes):
        entry.write_bytes(damage)
    else:
        if damage == "key":
            data["key"] = "0" * 64
        elif damage == "game":
            data["game"] = ["not", "a", "name"]
        elif damage == "warnings":
            data["warnings"] = [["forged", "not a dict"]]
        elif damage == "base-digest":
            data["bases"][0][2] = "0" * 64
        elif damage == "base-outside":
            data["bases"][0][0] = data["bases"][0][1] = os.devnull
        elif damage == "extra-field":
            data["extra"] = 1
        else:
            data["warnings"] = [["x" * 2_000_000, {}]]
        entry.write_text(json.dumps(data), encoding="utf-8")
    assert check(capsys, str(variant)) == expected
    # the full check stored a good entry again
    assert checkcache.lookup(checkcache.key_of(str(variant), {})) is not None  # type: ignore[arg-type]


def test_the_cache_can_be_turned_off_and_bypassed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cache: Path, variant: Path) -> None:
    check(capsys, "--no-cache", str(variant))
    assert not cache.exists()
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", "off")
    check(capsys, str(variant))
    assert not cache.exists()


def test_the_cache_keeps_a_bounded_number_of_entries(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cache: Path, variant: Path) -> None:
    monkeypatch.setattr(checkcache, "MAX_ENTRIES", 3)
    for spare in range(1, 3):
        for name in ("a", "b", "c"):
            copy = variant.parent / f"{name}.trick"
            copy.write_text(VARIANT, encoding="utf-8")
            check(capsys, "-o", f"spare={spare}", str(copy))
    assert len(list(cache.glob("check-*.json"))) == 3


def test_a_cached_check_does_not_import_the_parser_or_the_runtime(cache: Path) -> None:
    code = ("import sys\nfrom interpreter.cli import main\nassert main(['check', 'rules/ecarte.trick']) == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'pydantic', 'interpreter')"
            " and not m.startswith('interpreter.cli')))")
    env = {**os.environ, "TRICKLANG_CACHE_DIR": str(cache)}
    first = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    again = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    assert "lark" in first.stdout
    assert again.stdout.splitlines() == ["rules/ecarte.trick: ok", "['interpreter', 'interpreter.errors']"]


def _full_check_then(code: str) -> list[str]:
    """The lines a new process prints that runs ``tricklang check --no-cache`` on Écarté,
    without the cache, then ``code`` (with ``sys``, ``_lark`` and ``stored_tables_match``)."""
    head = ("import sys\nfrom interpreter.cli import main\n"
            "assert main(['check', '--no-cache', 'rules/ecarte.trick']) == 0\n"
            "from tricklang.parser import _lark, stored_tables_match\n")
    env = {**os.environ, "TRICKLANG_CACHE_DIR": "off"}
    out = subprocess.run([sys.executable, "-c", head + code], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True)
    return out.stdout.splitlines()


def test_a_full_check_loads_the_stored_parser_builds_no_validator_and_imports_no_runtime() -> None:
    code = ("print(not stored_tables_match() or _lark().source_path == '<deserialized>')\n"
            "import pydantic, tricklang.model as m, tricklang.ruleset as r\n"
            "print(sorted(n for n, c in [*vars(m).items(), ('Ruleset', r.Ruleset)]"
            " if isinstance(c, type) and issubclass(c, pydantic.BaseModel) and c.__pydantic_complete__))\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'interpreter'"
            " and not m.startswith('interpreter.cli')))")
    assert _full_check_then(code) == ["rules/ecarte.trick: ok", "True", "[]", "['interpreter', 'interpreter.errors']"]


NOT_FOR_CHECKING = ("interpreter.codegen", "interpreter.state", "interpreter.runtime", "interpreter.players",
                    "interpreter.native", "interpreter.harness", "interpreter.serve", "interpreter.embedding",
                    "tricklang.checkcache", "tricklang.fmt", "tricklang.fmt_parse_tables", "tricklang.explain",
                    "tricklang.prose", "tricklang.lsp", "tricklang.expected", "tricklang.syntax")
"""Modules a full check of a file (``--no-cache``) has no use for: the runtime and the code
generator, the cache it is told not to use, and the other commands' modules (each a prefix)."""


def test_a_full_check_imports_nothing_the_check_does_not_use_and_makes_callbacks_on_use() -> None:
    code = ("made = _lark()._callbacks\n"
            "print(not stored_tables_match() or 0 < len(made) < len(_lark().rules))\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('tricklang', 'interpreter'))))")
    ok, lazy, imported = _full_check_then(code)
    assert ok == "rules/ecarte.trick: ok" and lazy == "True"
    assert "tricklang.checker" in imported.split()  # (the list is the check's)
    assert [m for m in imported.split() if m.startswith(NOT_FOR_CHECKING)] == []


# ------------------------------------------------------------------ entries no one else wrote

BROKEN = "tricklang 1\ngame \"Broken\"\n"
ESCAPE = "\x1b]0;owned\x07\x1b[2J"


def forge_ok(key: checkcache.Key, game: str = "Broken") -> None:
    """Store an 'ok' verdict for ``key`` (a broken file), with a warning that carries raw
    terminal escapes, as the cache itself would write it where it points now."""
    from tricklang.diagnostics import Diagnostic

    warning = Diagnostic("unused-option", f"forged {ESCAPE}", 1, 1, severity="warning", path="x.trick")
    checkcache.store(key, key.text, [], [], checkcache.CheckResult(game, (warning,)))


def test_an_entry_brought_by_a_checkout_or_a_copy_is_not_believed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A repository can ship `.cache/tricklang/check-<key>.json` (the key is a digest of
    public data) and a user's CI points XDG_CACHE_HOME there: its verdict is not believed."""
    broken = tmp_path / "broken.trick"
    broken.write_text(BROKEN, encoding="utf-8")
    made = tmp_path / "made-elsewhere"
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(made))
    key = checkcache.key_of(str(broken), {})
    assert key is not None
    forge_ok(key)
    assert checkcache.lookup(key) is not None  # (where it was written, it would be believed)
    shipped = tmp_path / "checkout-cache"
    shutil.copytree(made, shipped)
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(shipped))
    code, out, err = check(capsys, str(broken))
    assert code == 1 and "ok" not in out and "\x1b" not in out + err and "forged" not in err


def test_a_cache_folder_others_may_write_is_not_used(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, variant: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # (no sticky bit: anyone may rename or replace what is in it)
    monkeypatch.setenv("TRICKLANG_CACHE_DIR", str(shared / "cache"))
    assert check(capsys, str(variant))[0] == 0
    assert not (shared / "cache").exists() or not list((shared / "cache").glob("check-*.json"))  # nothing stored
    broken = tmp_path / "broken.trick"
    broken.write_text(BROKEN, encoding="utf-8")
    key = checkcache.key_of(str(broken), {})
    assert key is not None
    shared.chmod(0o755)
    forge_ok(key)  # (an entry written while the folder was private...)
    assert checkcache.lookup(key) is not None
    for mode, folder in ((0o777, shared), (0o775, shared), (0o770, shared / "cache"), (0o707, shared / "cache")):
        folder.chmod(mode)  # (...is not believed once others could have replaced it)
        assert checkcache.lookup(key) is None, oct(mode)
        assert check(capsys, str(broken))[0] == 1
        folder.chmod(0o755 if folder == shared else 0o700)
    assert checkcache.lookup(key) is not None


def test_warnings_from_the_cache_are_rendered_again_escaped(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cache: Path, tmp_path: Path) -> None:
    """An entry holds the warnings' fields, not their printed text: even one written with
    this folder's own secret is printed escaped, as a full check prints."""
    broken = tmp_path / "broken.trick"
    broken.write_text(BROKEN, encoding="utf-8")
    key = checkcache.key_of(str(broken), {})
    assert key is not None
    forge_ok(key)
    (entry,) = cache.glob("check-*.json")
    assert ESCAPE not in entry.read_text(encoding="utf-8") and "\\u001b" in entry.read_text(encoding="utf-8")
    code, out, err = check(capsys, str(broken))
    assert code == 0  # (the folder's own secret vouches for it: only this user could have written it)
    assert "\x1b" not in out + err and "\x07" not in err and "forged \\x1b]0;owned\\x07\\x1b[2J" in err


def test_a_checker_changed_in_place_does_not_answer_from_the_old_ones_verdicts(tmp_path: Path) -> None:
    """The key holds the digest of tricklang's own source: an edited checker (same version)
    gets other keys, so a cached verdict of the old checker is never read back."""
    source = tmp_path / "tricklang"
    (source / "model").mkdir(parents=True)
    (source / "checker.py").write_text("RULE = 1\n", encoding="utf-8")
    (source / "model" / "base.py").write_text("X = 1\n", encoding="utf-8")
    (source / "grammar.lark").write_text("start: NAME\n", encoding="utf-8")
    before = checkcache.source_digest(source)
    assert checkcache.source_digest(source) == before
    (source / "model" / "base.py").write_text("X = 2\n", encoding="utf-8")
    checkcache.source_digest.cache_clear()
    changed = checkcache.source_digest(source)
    (source / "grammar.lark").write_text("start: INT\n", encoding="utf-8")
    checkcache.source_digest.cache_clear()
    assert len({before, changed, checkcache.source_digest(source)}) == 3
    checkcache.source_digest.cache_clear()
    assert checkcache.source_digest() == checkcache.source_digest(checkcache.SOURCE_ROOT)


def test_the_key_of_a_check_changes_with_the_checkers_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tmp_path / "game.trick"
    rules.write_text((Path(__file__).parents[2] / "rules" / "ecarte.trick").read_text(encoding="utf-8"), encoding="utf-8")
    first = checkcache.key_of(str(rules), {})
    monkeypatch.setattr(checkcache, "source_digest", lambda root=None: "another checker")
    second = checkcache.key_of(str(rules), {})
    assert first is not None and second is not None and first.digest != second.digest
