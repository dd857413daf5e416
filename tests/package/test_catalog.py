"""Bundled games: every shipped rule file is installed as package data and found by name
(`tricklang.load("ecarte")`, `extends "euchre"`); a path always wins over a name."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import tricklang
from tricklang import catalog

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])


def test_every_shipped_rule_file_is_a_bundled_game() -> None:
    games = catalog.bundled_games()
    assert sorted(games) == sorted(p.stem for p in SHIPPED)
    for path in SHIPPED:
        assert games[path.stem].read_bytes() == path.read_bytes()
    laws = catalog.laws_file()
    assert laws is not None and laws.read_bytes() == (ROOT / "rules" / "laws.md").read_bytes()


def test_a_game_loads_by_name_as_from_its_file() -> None:
    by_name = tricklang.load("cinch")
    by_path = tricklang.load(ROOT / "rules" / "cinch.trick")
    assert by_name.digest == by_path.digest and by_name.rules == by_path.rules
    assert tricklang.load("oh-hell-5.trick").player_count == 5  # the file name works too


def test_a_path_wins_over_a_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "ecarte").write_text((ROOT / "examples" / "whist.trick").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert tricklang.load("ecarte").name == "Whist"
    assert tricklang.load("cinch").name.startswith("Cinch")


def test_an_unknown_name_is_a_missing_file() -> None:
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.load("no-such-game")
    assert err.value.codes == ["unreadable-file"]
    assert catalog.find_bundled("../rules/ecarte") is None


def test_a_variant_extends_a_bundled_game_by_name(tmp_path: Path) -> None:
    variant = tmp_path / "short-euchre.trick"
    variant.write_text('tricklang 1\nextends "euchre"\ngame "Short Euchre"\noption target: int = 5 in 1..20\n',
                       encoding="utf-8")
    rules = tricklang.load(variant)
    assert rules.name == "Short Euchre" and rules.options["target"] == 5
    assert rules.player_count == tricklang.load("euchre").player_count
    text_only = tricklang.loads('tricklang 1\nextends "hearts"\ngame "Hearts again"\n')
    assert text_only.rules.deck == tricklang.load("hearts").rules.deck


def test_an_unknown_base_name_is_reported() -> None:
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.loads('tricklang 1\nextends "no-such-game"\ngame "X"\n')
    assert err.value.codes == ["bad-extends"]
    assert "tricklang list" in str(err.value)


def test_pyproject_installs_every_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(ROOT).parts) for top in ("tricklang", "interpreter")
             for p in (ROOT / top).rglob("__init__.py")}
    mapped = config["package-dir"]
    assert found | set(mapped) == set(config["packages"])
    assert mapped == {"tricklang.rules": "rules", "tricklang.examples": "examples"}
