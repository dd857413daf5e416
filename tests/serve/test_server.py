"""The web server through Starlette's TestClient (no browser): whole matches over the
websockets, refusals, bounds, restarts, the record, new tables from the front page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pages import Page, play_until, serving
from serve_helpers import make_table, tokens
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import tricklang
from interpreter.record import Record
from interpreter.serve.app import MAX_MESSAGE_BYTES, create_app
from interpreter.serve.games import GameCatalog
from interpreter.serve.storage import Storage
from interpreter.serve.tables import TableManager


def test_two_seats_play_a_whole_ecarte_match_and_download_its_record(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"], seed=11)
    keys = tokens(table)
    with serving(create_app(manager, pace=0, rate=1000, burst=1000)) as client:
        assert client.get(f"/record/{keys['spectator']}").status_code == 409  # not before the end
        seats = {0: Page(client, str(keys[0])), 1: Page(client, str(keys[1]))}
        watcher = Page(client, str(keys["spectator"]))
        assert seats[0].view["hand"] == table.state.hand(0) and watcher.view["hand"] == []
        taken = play_until(table, seats, [watcher], lambda t: t.over)
        assert taken == len(table.state.actions) > 20
        for page in (*seats.values(), watcher):
            assert page.view["table"]["over"] and page.view["decision"] is None
            assert len(page.log) == page.view["event_count"] == table.state.event_count
        reply = client.get(f"/record/{keys[0]}")
        assert reply.status_code == 200 and "attachment" in reply.headers["content-disposition"]
    replayed = Record.from_json(reply.text).replay()
    assert replayed.actions == table.state.actions and replayed.is_terminal()
    assert replayed.scores == table.state.scores


def test_forged_replayed_and_illegal_actions_are_refused_with_the_reason(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"], seed=42)
    keys = tokens(table)
    with serving(create_app(manager, pace=0)) as client:
        seat = table.state.current_player
        assert seat is not None
        mine, theirs = Page(client, str(keys[seat])), Page(client, str(keys[1 - seat]))
        watcher = Page(client, str(keys["spectator"]))
        before = table.state.to_json()
        assert "seat" in theirs.act("stand")["reason"]  # not its turn
        assert "watch" in watcher.act("stand")["reason"]
        assert "referee" in mine.act("irregular false_king 0")["reason"]
        assert "turn" in mine.act("stand", turn=5)["reason"]  # chosen at another moment
        assert mine.act("play KS")["reason"]  # not legal now
        for bad in ({"type": "act", "action": "x" * 500, "turn": 0}, {"type": "act", "action": 3, "turn": 0},
                    {"type": "act", "action": "stand"}, {"type": "dance"}, [1, 2]):
            mine.socket.send_json(bad)
            assert mine.next()["type"] == "refused"
        mine.socket.send_text("{not json")
        assert mine.next()["type"] == "refused"
        assert table.state.to_json() == before
        assert mine.act("propose")["type"] == "view"
        theirs.next()
        watcher.next()
        stale = {"type": "act", "action": "propose", "turn": 0}  # the same message again
        mine.socket.send_json(stale)
        assert "not taken again" in mine.next()["reason"]
        assert len(table.state.actions) == 1


def test_a_card_that_may_not_be_played_is_refused_with_the_laws_reason(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"], seed=42)
    keys = tokens(table)
    state = table.state
    for text in ("propose", "accept", "discard 10c 8D"):
        state.apply(text)
    while state.decision is not None and state.decision.kind != "play":
        state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    seat = state.current_player
    assert seat is not None
    with serving(create_app(manager, pace=0)) as client:
        page = Page(client, str(keys[seat]))
        refused = page.view["decision"]["refused"]
        assert refused
        card, reason = next(iter(refused.items()))
        assert page.act(f"play {card}")["reason"] == reason == state.why_illegal(f"play {card}")


def test_bounds_on_message_size_and_rate(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"])
    keys = tokens(table)
    with serving(create_app(manager, pace=0, rate=0.5, burst=3)) as client:
        page = Page(client, str(keys[0]))
        replies = []
        for _ in range(6):
            page.socket.send_json({"type": "refresh"})
            replies.append(page.next())
        assert [r["type"] for r in replies][:3] == ["view"] * 3
        assert any(r.get("reason", "").startswith("too many messages") for r in replies[3:])
        other = Page(client, str(keys[1]))
        other.socket.send_text("x" * (MAX_MESSAGE_BYTES + 1))
        with pytest.raises(WebSocketDisconnect) as closed:
            other.next()
        assert closed.value.code == 1009


def test_unknown_links_find_nothing(tmp_path: Path) -> None:
    manager, _ = make_table(tmp_path, "ecarte", ["human", "human"])
    with serving(create_app(manager, pace=0)) as client:
        fake = "A" * 32
        assert client.get(f"/t/{fake}").status_code == 404
        assert client.get(f"/record/{fake}").status_code == 404
        with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect(f"/ws/{fake}") as socket:
            socket.receive_json()
        assert closed.value.code == 4404


def test_pages_are_sent_with_a_strict_policy_and_no_referrer(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"])
    with serving(create_app(manager, pace=0)) as client:
        for path in ("/", f"/t/{tokens(table)[0]}", "/api/tables"):
            reply = client.get(path)
            assert reply.status_code == 200
            assert reply.headers["referrer-policy"] == "no-referrer"
            assert "default-src 'self'" in reply.headers["content-security-policy"]
        for asset in ("table.js", "cards.js", "index.js", "style.css"):
            text = client.get(f"/static/{asset}").text
            assert "http://" not in text and "https://" not in text  # nothing from elsewhere
        listed = client.get("/api/tables").json()["tables"]
        assert [t["id"] for t in listed] == [table.id]
        assert all(tokens(table)[s] not in json.dumps(listed) for s in (0, 1))  # seat keys are not listed


def test_a_reload_and_a_restart_return_every_seat_to_the_same_position(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "cinch", ["human", "heuristic", "human", "heuristic"], seed=3)
    keys = tokens(table)
    with serving(create_app(manager, pace=0, rate=1000, burst=1000)) as client:
        seats = {0: Page(client, str(keys[0])), 2: Page(client, str(keys[2]))}
        play_until(table, seats, [], lambda t: len(t.state.actions) >= 12)
        before = {s: p.view for s, p in seats.items()}
        seats[0].close()  # a reload: the page opens its socket again
        again = Page(client, str(keys[0]))
        assert again.view == {**before[0], "events": again.view["events"]}
        assert [e["n"] for e in again.view["events"]] == list(range(before[0]["event_count"]))
    # A new server on the same folder: the same links, the same positions.
    restarted = TableManager(Storage(tmp_path))
    tables, problems = restarted.storage.load_all() if restarted.storage else ([], [])
    assert problems == []
    for t in tables:
        restarted.add(t)
    assert restarted.find(str(keys[2])) is not None
    with serving(create_app(restarted, pace=0)) as client:
        for seat in (0, 2):
            page = Page(client, str(keys[seat]))
            assert {k: v for k, v in page.view.items() if k != "events"} == \
                   {k: v for k, v in before[seat].items() if k != "events"}


def test_built_in_players_fill_the_other_seats(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "heuristic"], seed=5)
    keys = tokens(table)
    with serving(create_app(manager, pace=0, rate=1000, burst=1000)) as client:
        page = Page(client, str(keys[0]))
        play_until(table, {0: page}, [], lambda t: t.over)
        assert table.state.is_terminal()
        assert {seat for seat, _ in table.state.history} == {0, 1}


def test_table_mode_the_referee_continues_and_records_irregularities(tmp_path: Path) -> None:
    manager, table = make_table(tmp_path, "ecarte", ["human", "human"], seed=42, mode="table")
    keys = tokens(table)
    with serving(create_app(manager, pace=0, rate=1000, burst=1000)) as client:
        seats = {0: Page(client, str(keys[0])), 1: Page(client, str(keys[1]))}
        referee = Page(client, str(keys["referee"]))
        assert referee.view["forms"] and referee.view["hand"] == []
        play_until(table, seats, [], lambda t: t.state.decision is not None and t.state.decision.kind == "pause",
                   referee=referee)
        dealer = table.state.current_player
        assert dealer is not None
        assert "referee" in seats[dealer].act("continue")["reason"]
        assert "not on offer" in referee.act("irregular dealer_exposed_elders_card 0 AS")["reason"]
        offered = referee.view["decision"]["irregularities"]
        assert "irregular faced_card_in_pack " + str(dealer) in offered
        assert referee.act("irregular faced_card_in_pack " + str(dealer))["type"] == "view"
        assert table.state.history[-1][1].startswith("irregular faced_card_in_pack")
        assert any(e["event"]["type"] == "irregularity" for e in referee.view["events"])


def _post(client: TestClient, body: object, **headers: str) -> tuple[int, dict[str, object]]:
    reply = client.post("/api/tables", content=json.dumps(body),
                        headers={"content-type": "application/json", **headers})
    return reply.status_code, reply.json()


def test_new_tables_from_the_front_page(tmp_path: Path) -> None:
    storage = Storage(tmp_path)
    manager = TableManager(storage, max_tables=2)
    with serving(create_app(manager, pace=0, catalog=GameCatalog(storage))) as client:
        games = client.get("/api/games").json()
        cinch = next(g for g in games["games"] if g["name"] == "cinch")
        assert cinch["players"] == 4 and any(o["name"] == "target" for o in cinch["options"])
        status, made = _post(client, {"game": "cinch", "options": {"target": 21},
                                      "seats": ["human", "heuristic", "human", "random"], "mode": "table"})
        assert status == 200, made
        roles = [(link["role"], link["seat"]) for link in made["links"]]  # type: ignore[union-attr]
        assert roles == [("seat", 0), ("seat", 2), ("referee", None), ("spectator", None)]
        table = manager.tables[str(made["id"])]
        assert table.ruleset.options["target"] == 21 and table.state.mode == "table"
        assert _post(client, {"game": "nonesuch"})[0] == 400
        assert "target" in str(_post(client, {"game": "cinch", "options": {"target": "many"}})[1]["error"])
        assert _post(client, {"game": "cinch", "seats": ["human", "wizard"]})[0] == 400
        assert _post(client, {"game": "ecarte"}, origin="http://elsewhere.example")[0] == 403
        assert client.post("/api/tables", content="{}", headers={"content-type": "text/plain"}).status_code == 415
        assert "rule files" in str(_post(client, {"rules": "tricklang 1\n"})[1]["error"])
        assert client.post("/api/tables", content=b"{" + b" " * 400_000 + b"}",
                           headers={"content-type": "application/json"}).status_code == 413
        assert _post(client, {"game": "ecarte"})[0] == 200
        assert "at most 2" in str(_post(client, {"game": "ecarte"})[1]["error"])


def test_an_uploaded_rule_file_is_read_as_untrusted_text(tmp_path: Path) -> None:
    storage = Storage(tmp_path)
    manager = TableManager(storage)
    text = (Path(tricklang.load("ecarte").path)).read_text(encoding="utf-8")
    with serving(create_app(manager, pace=0, catalog=GameCatalog(storage, allow_upload=True))) as client:
        status, made = _post(client, {"rules": text, "seats": ["human", "heuristic"]})
        assert status == 200, made
        table = manager.tables[str(made["id"])]
        assert Path(table.rules_path).read_text(encoding="utf-8") == text
        status, error = _post(client, {"rules": "tricklang 1\ngame \"x\"\nplayers 2\nbogus\n"})
        assert status == 400 and ":4:1: error" in str(error["error"]) and "^" in str(error["error"])
        status, error = _post(client, {"rules": 'tricklang 1\nextends "/etc/passwd"\n'})
        assert status == 400 and "root:" not in str(error["error"])
