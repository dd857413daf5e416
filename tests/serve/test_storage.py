"""Tables on disk: written after every action, owner-only, read back as untrusted input."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

import pytest
from serve_helpers import make_table, tokens

from interpreter.serve.storage import Storage
from interpreter.serve.tables import ActionRefusedError, Role, TableManager


def _file(folder: Path, table_id: str) -> Path:
    return folder / "tables" / f"{table_id}.json"


def test_every_action_is_on_disk_at_once_and_comes_back(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "heuristic"], seed=8)
    saved = _file(tmp_path, table.id)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "tables").stat().st_mode) == 0o700
    for _ in range(6):
        seat = table.state.current_player
        if table.bot_seat() is not None:
            table.bot_act()
        else:
            table.act(Role("seat", seat), table.state.legal_actions()[0].text, len(table.state.actions))
        manager.save(table)
        data = json.loads(saved.read_text(encoding="utf-8"))
        assert data["state"]["actions"] == list(table.state.actions)
    tables, problems = Storage(tmp_path).load_all()
    assert problems == [] and len(tables) == 1
    again = tables[0]
    assert again.state == table.state and again.kinds == table.kinds and again.tokens == table.tokens
    assert not list((tmp_path / "tables").glob("*.tmp"))


def _damaged(data: dict[str, Any], how: str) -> dict[str, Any]:
    if how == "illegal action":
        data["state"]["actions"][-1] = "play AS"
    elif how == "shared token":
        data["tokens"]["spectator"] = data["tokens"]["seats"][0]
    elif how == "short token":
        data["tokens"]["seats"][0] = "abc"
    elif how == "no token for a human":
        data["tokens"]["seats"][0] = None
    elif how == "bad player":
        data["kinds"] = ["human", "wizard"]
    elif how == "referee in strict mode":
        data["tokens"]["referee"] = "R" * 32
    elif how == "another version":
        data["version"] = 99
    elif how == "state not an object":
        data["state"] = "rm -rf /"
    return data


@pytest.mark.parametrize("how", ["illegal action", "shared token", "short token", "no token for a human",
                                 "bad player", "referee in strict mode", "another version", "state not an object"])
def test_a_damaged_table_file_is_left_aside_and_the_others_load(tmp_path: Path, how: str) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"], seed=8)
    good = manager.create(table.ruleset, ["human", "heuristic"], rules_path=table.rules_path, seed=9)
    table.act(Role("seat", table.state.current_player), "propose", 0)
    manager.save(table)
    file = _file(tmp_path, table.id)
    file.write_text(json.dumps(_damaged(json.loads(file.read_text(encoding="utf-8")), how)), encoding="utf-8")
    tables, problems = Storage(tmp_path).load_all()
    assert [t.id for t in tables] == [good.id]
    assert len(problems) == 1 and problems[0].startswith(f"{table.id}.json: ")


def test_files_that_are_not_tables_are_left_aside(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / "0123456789ab.json").write_text("{not json", encoding="utf-8")
    (folder / "renamed.json").write_text("[]", encoding="utf-8")
    tables, problems = Storage(tmp_path).load_all()
    assert tables == [] and len(problems) == 2


def test_a_file_renamed_to_another_table_is_refused(tmp_path: Path) -> None:
    _, table = make_table(tmp_path, "ecarte", ["human", "human"])
    _file(tmp_path, table.id).rename(_file(tmp_path, "0" * 12))
    tables, problems = Storage(tmp_path).load_all()
    assert tables == [] and "id" in problems[0]


def test_the_record_is_offered_only_when_the_match_is_over(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["heuristic", "heuristic"], seed=2)
    with pytest.raises(ActionRefusedError, match="over"):
        manager.record_text(table)
    while table.bot_seat() is not None:
        table.bot_act()
    assert table.state.is_terminal()
    record = json.loads(manager.record_text(table))
    assert record["format"] == "tricklang-record" and record["seats"] == ["heuristic", "heuristic"]


def test_tokens_are_long_random_and_distinct(tmp_path: Path) -> None:
    manager = TableManager()
    seen: set[str] = set()
    _, table = make_table(tmp_path, "cinch", ["human"] * 4, mode="table")
    for _ in range(20):
        made = manager.create(table.ruleset, ["human"] * 4, rules_path=table.rules_path, mode="table")
        keys = list(tokens(made).values())
        assert len(keys) == 6 and all(len(k) >= 32 for k in keys)
        seen.update(keys)
    assert len(seen) == 120


def test_a_built_in_player_that_fails_stops_its_table_not_the_server(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["heuristic", "heuristic"], seed=2)

    def broken(state: object) -> object:
        raise ZeroDivisionError("boom")

    table.agents[table.state.current_player] = broken  # type: ignore[assignment]
    before = table.state.to_json()
    table.bot_act()
    assert table.error is not None and "ZeroDivisionError" in table.error and table.over
    assert table.bot_seat() is None and table.state.to_json() == before
    with pytest.raises(ActionRefusedError, match="stopped"):
        table.act(Role("seat", 0), "stand", 0)
