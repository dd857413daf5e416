"""Game records: the stored records replay to their recorded scores; bad records are refused clearly.

The records in tests/records/ pin the SHA-256 of the rule files they were played
with. When a rule file changes on purpose, regenerate them with::

    TRICKLANG_REGEN_RECORDS=1 .venv/bin/python -m pytest tests/runtime/test_record.py -k regenerate
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter.errors import RecordError
from interpreter.players import make_agent, play_match
from interpreter.record import RECORD_FORMAT, Record, rebuild

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
RECORDS = Path(__file__).resolve().parents[1] / "records"

# name, rule file, options, seed, players
STORED: list[tuple[str, str, dict[str, Any], int, list[str]]] = [
    ("ecarte-heuristic-vs-random.json", "ecarte.trick", {}, 11, ["heuristic", "random"]),
    ("ecarte-variant-no-overask.json", "ecarte.trick",
     {"target": 3, "stock_shortfall": "no_overask", "king_deadline": "before_king_played"}, 29, ["random", "heuristic"]),
    ("cinch-heuristic.json", "cinch.trick", {}, 3, ["heuristic", "heuristic", "heuristic", "heuristic"]),
]


def _played(rule_file: Path, options: dict[str, Any], seed: int, players: list[str]) -> interpreter.State:
    rules = tricklang.load(rule_file, options=options)
    agents = [make_agent(p, seed + i) for i, p in enumerate(players)]
    return play_match(interpreter.new_game(rules, seed=seed), agents)


@pytest.mark.skipif(not os.environ.get("TRICKLANG_REGEN_RECORDS"), reason="set TRICKLANG_REGEN_RECORDS=1 to rewrite")
def test_regenerate_records() -> None:
    RECORDS.mkdir(exist_ok=True)
    for name, rule_file, options, seed, players in STORED:
        state = _played(RULES / rule_file, options, seed, players)
        Record.from_state(state, seats=players).save(RECORDS / name)


@pytest.mark.parametrize("name", [s[0] for s in STORED])
def test_stored_record_replays_to_its_recorded_final_scores(name: str) -> None:
    path = RECORDS / name
    record = Record.load(path)
    try:
        state = record.replay()
    except RecordError as err:  # pragma: no cover - shown when a rule file changed
        pytest.fail(f"{err}\n(if the rules changed on purpose, regenerate: see this module's docstring)")
    assert record.result is not None
    assert state.is_terminal() and record.result["over"] is True
    assert state.scores == record.result["scores"]
    outcome = state.outcome()
    assert outcome is not None and list(outcome.winners) == record.result["winners"]
    assert state.actions == record.actions
    raw = json.loads(path.read_text(encoding="utf-8"))
    # A bundled game is named, not given by a path: the record replays from any folder.
    assert raw["format"] == RECORD_FORMAT and raw["version"] == 2
    assert raw["rules"]["bundled"] == name.split("-")[0] and "path" not in raw["rules"]
    assert raw["rules"]["sha256"] == tricklang.load(record.rules_file()).digest


def test_stored_records_cover_both_games_and_an_option_variant() -> None:
    games = {Record.load(RECORDS / s[0]).game for s in STORED}
    assert games == {"Écarté", "Cinch"}
    variant = Record.load(RECORDS / "ecarte-variant-no-overask.json")
    assert variant.options["stock_shortfall"] == "no_overask" and variant.options["target"] == 3


def test_record_round_trip_keeps_everything(tmp_path: Path) -> None:
    state = _played(RULES / "ecarte.trick", {"target": 2}, 5, ["random", "heuristic"])
    record = Record.from_state(state, seats=["random", "heuristic"])
    out = record.save(tmp_path / "game.json")
    again = Record.load(out)
    assert again.seed == 5 and again.options["target"] == 2 and again.seats == ["random", "heuristic"]
    assert again.first_dealer == record.first_dealer and again.moves == record.moves
    replayed = again.replay()
    assert replayed.actions == state.actions and replayed.scores == state.scores
    assert replayed.to_dict() == state.to_dict()


def test_actors_are_recomputed_when_not_given() -> None:
    state = _played(RULES / "ecarte.trick", {}, 8, ["heuristic", "heuristic"])
    moves = Record.from_state(state).moves
    replay = interpreter.new_game(state.ruleset, seed=8)
    for seat, text in moves:
        assert replay.current_player == seat
        replay.apply(text)


def test_prearranged_deck_is_recorded_and_replayed(tmp_path: Path) -> None:
    rules = tricklang.load(RULES / "ecarte.trick")
    deck = list(reversed(rules.cards))
    state = interpreter.new_game(rules, seed=1, deck=deck, dealer=0)
    state.apply(state.legal_actions()[0])
    record = Record.from_state(state, seats=["human", "random"])
    assert record.deck == deck and record.first_dealer == 0
    again = Record.load(record.save(tmp_path / "deck.json")).replay()
    assert again.hand(0) == state.hand(0) and again.hand(1) == state.hand(1)


def _own_copy(target: Path) -> Path:
    """A rule file of one's own: Écarté with a comment added (so not the bundled game)."""
    target.write_text((RULES / "ecarte.trick").read_text(encoding="utf-8") + "# my copy\n", encoding="utf-8")
    return target


def test_relative_rule_path_is_found_from_another_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    games = tmp_path / "games"
    games.mkdir()
    _own_copy(tmp_path / "ecarte.trick")
    state = _played(tmp_path / "ecarte.trick", {}, 2, ["random", "random"])
    Record.from_state(state).save(games / "g.json")
    assert json.loads((games / "g.json").read_text(encoding="utf-8"))["rules"]["path"] == "../ecarte.trick"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert Record.load(games / "g.json").replay().scores == state.scores


def _saved(tmp_path: Path, rule_text: str | None = None) -> tuple[Path, Path]:
    rule_file = tmp_path / "ecarte.trick"
    if rule_text is None:
        _own_copy(rule_file)
    else:
        rule_file.write_text(rule_text, encoding="utf-8")
    state = _played(rule_file, {}, 4, ["heuristic", "random"])
    return Record.from_state(state).save(tmp_path / "game.json"), rule_file


def test_a_changed_rule_file_is_refused(tmp_path: Path) -> None:
    record, rule_file = _saved(tmp_path)
    rule_file.write_text(rule_file.read_text(encoding="utf-8").replace("in 1..99", "in 1..98"), encoding="utf-8")
    with pytest.raises(RecordError, match="could not be used: no rule file with the text the record was made with"):
        Record.load(record).replay()


def test_a_missing_rule_file_is_named(tmp_path: Path) -> None:
    record, rule_file = _saved(tmp_path)
    rule_file.unlink()
    with pytest.raises(RecordError, match=r"the record's rules \('ecarte.trick'\) could not be used"):
        Record.load(record).replay()


def _edit(path: Path, change: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def test_an_action_that_does_not_fit_names_the_step_and_reason(tmp_path: Path) -> None:
    record, _ = _saved(tmp_path)
    data = json.loads(record.read_text(encoding="utf-8"))
    step = next(i for i, (_, a) in enumerate(data["actions"]) if a.startswith("play"))
    seat = data["actions"][step][0]

    def bad_card(d: dict[str, Any]) -> None:
        d["actions"][step] = [seat, "play QZ"]

    _edit(record, bad_card)
    with pytest.raises(RecordError, match=rf"step {step + 1} \('play QZ', seat {seat}\): .*unknown card code"):
        Record.load(record).replay()


def test_an_illegal_action_is_rejected_with_the_rules_reason(tmp_path: Path) -> None:
    record, _ = _saved(tmp_path)

    def stand_twice(d: dict[str, Any]) -> None:
        d["actions"].insert(1, list(d["actions"][0]))

    data = json.loads(record.read_text(encoding="utf-8"))
    _edit(record, stand_twice)
    with pytest.raises(RecordError, match=r"step 2 .*(not legal|recorded for seat)"):
        Record.load(record).replay(check_result=False)
    assert data  # the original was fine


def test_a_move_by_the_wrong_seat_is_rejected(tmp_path: Path) -> None:
    record, _ = _saved(tmp_path)

    def wrong_seat(d: dict[str, Any]) -> None:
        d["actions"][0][0] = 1 - d["actions"][0][0]

    _edit(record, wrong_seat)
    with pytest.raises(RecordError, match=r"step 1 .*recorded for seat \d, but seat \d is to act"):
        Record.load(record).replay()


def test_a_different_result_is_reported(tmp_path: Path) -> None:
    record, _ = _saved(tmp_path)

    def lie(d: dict[str, Any]) -> None:
        d["result"]["scores"] = [99, 99]

    _edit(record, lie)
    with pytest.raises(RecordError, match=r"the record says \[99, 99\]"):
        Record.load(record).replay()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "not a tricklang game record"),
        ('{"format": "tricklang-record", "version": 99}', "version 99 is not supported"),
        ('{"format": "tricklang-record", "version": 1, "actions": []}', "has no 'rules'"),
        ('{"format": "tricklang-record", "version": 1, "rules": {"path": "x", "sha256": "y"}, "actions": [["a", 1]]}',
         r"step 1: an action must be \[seat, \"text\"\]"),
        ('{"format": "tricklang-record", "version": 1, "rules": {"path": "x", "sha256": "y"}, "actions": [],'
         ' "seed": "7", "first_dealer": 0}', "'seed' must be a number"),
    ],
)
def test_corrupt_records_are_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RecordError, match=message):
        Record.load(path)


def test_an_unreadable_record_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read record"):
        Record.load(tmp_path / "nope.json")


def test_rules_given_as_text_cannot_be_recorded() -> None:
    text = (RULES / "ecarte.trick").read_text(encoding="utf-8")
    state = interpreter.new_game(tricklang.loads(text), seed=1)
    with pytest.raises(RecordError, match="not loaded from a file"):
        Record.from_state(state)


def test_rebuild_stops_at_the_first_bad_step() -> None:
    rules = tricklang.load(RULES / "ecarte.trick")
    with pytest.raises(RecordError, match=r"step 1 \('dance'"):
        rebuild(rules, 1, None, 0, ["dance"])


def test_a_record_keeps_the_later_decks_and_reseeds_of_a_table_game(tmp_path: Path) -> None:
    rules = tricklang.load(RULES / "ecarte.trick")
    deal2 = list(reversed(rules.cards))  # a deck no seeded shuffle would give
    state = interpreter.new_game(rules, seed=11, mode="table", dealer=0, decks={2: deal2})
    state.reseed(99, 3)
    rng = random.Random(5)
    while state.deal_number < 4 and not state.is_terminal():
        regular = [a for a in state.legal_actions() if a.verb != "irregular"]
        state.apply(regular[rng.randrange(len(regular))])
    dealt = [e for e in state.events(None) if e["type"] == "dealt"]
    path = Record.from_state(state).save(tmp_path / "game.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["mode"] == "table" and data["decks"] == {"2": deal2} and data["reseeds"] == {"3": 99}
    again = Record.load(path).replay()
    assert again == state and [e for e in again.events(None) if e["type"] == "dealt"] == dealt
    # Without them the later deals would be other shuffles: the record would not replay.
    del data["decks"], data["reseeds"]
    with pytest.raises(RecordError):
        Record.from_json(data, base_dir=tmp_path).replay()


@pytest.mark.parametrize(("field", "value"), [
    ("decks", {"two": ["KS"]}), ("decks", {"2": "KS QS"}), ("decks", ["KS"]), ("reseeds", {"2": "seed"}),
])
def test_bad_later_decks_or_reseeds_in_a_record_are_refused(field: str, value: Any, tmp_path: Path) -> None:
    data = json.loads((RECORDS / "ecarte-heuristic-vs-random.json").read_text(encoding="utf-8"))
    assert "decks" not in data and "reseeds" not in data  # an old record: still loads and replays (above)
    data[field] = value
    with pytest.raises(RecordError, match=f"'{field}' must map deal numbers"):
        Record.from_json(data)


# ------------------------------------------------------------------ records that move between machines


def test_a_record_of_a_bundled_game_names_it_and_replays_from_anywhere(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    for n, source in enumerate(["ecarte", str(RULES / "ecarte.trick")]):  # by name, or the bundled file's path
        rules = tricklang.load(source, options={"target": 2})
        state = play_match(interpreter.new_game(rules, seed=6), [make_agent("random", 6), make_agent("random", 7)])
        saved = Record.from_state(state).save(tmp_path / f"game-{n}.json")
        text = saved.read_text(encoding="utf-8")
        raw = json.loads(text)
        assert raw["version"] == 2 and raw["rules"]["bundled"] == "ecarte" and "path" not in raw["rules"]
        assert str(tmp_path) not in text and str(ROOT) not in text and "site-packages" not in text
        moved = tmp_path / "elsewhere" / "moved.json"
        moved.parent.mkdir(exist_ok=True)
        saved.rename(moved)
        monkeypatch.chdir(moved.parent)
        assert Record.load(moved).replay().scores == state.scores


def test_an_old_record_whose_path_is_gone_replays_against_the_bundled_game_of_that_name(tmp_path: Path) -> None:
    """A version 1 record made from an installed tricklang names the rule file by a path
    relative to the record (into site-packages): moved, it still replays."""
    data = json.loads((RECORDS / "ecarte-heuristic-vs-random.json").read_text(encoding="utf-8"))
    data["version"] = 1
    data["rules"] = {"path": "../../.venv/lib/python3.11/site-packages/tricklang/rules/ecarte.trick",
                     "sha256": data["rules"]["sha256"], "language": 1}
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    assert Record.load(old).replay().actions == Record.load(RECORDS / "ecarte-heuristic-vs-random.json").actions
    data["rules"]["sha256"] = "0" * 64  # another ecarte.trick: not found, and not silently the bundled one
    old.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match="could not be used: .*--rules FILE"):
        Record.load(old).replay()


def test_replay_against_a_given_rule_file_when_its_digest_matches(tmp_path: Path) -> None:
    record, rule_file = _saved(tmp_path)
    moved = tmp_path / "moved"
    moved.mkdir()
    copy = moved / "the-rules.trick"
    copy.write_text(rule_file.read_text(encoding="utf-8"), encoding="utf-8")
    rule_file.unlink()
    with pytest.raises(RecordError, match="could not be used"):
        Record.load(record).replay()
    assert Record.load(record).replay(rules_file=copy).is_terminal()
    copy.write_text(copy.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"'.*the-rules.trick' is not the one the record was made with \(its sha256"):
        Record.load(record).replay(rules_file=copy)
    # A bundled game's record, against a copy of the bundled file.
    bundled = RECORDS / "cinch-heuristic.json"
    same = tmp_path / "cinch-copy.trick"
    same.write_text((RULES / "cinch.trick").read_text(encoding="utf-8"), encoding="utf-8")
    assert Record.load(bundled).replay(rules_file=same).scores == Record.load(bundled).replay().scores


def test_a_record_of_a_bundled_game_that_changed_says_how_to_replay_it(tmp_path: Path) -> None:
    data = json.loads((RECORDS / "ecarte-heuristic-vs-random.json").read_text(encoding="utf-8"))
    data["rules"]["sha256"] = "0" * 64
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match="bundled game 'ecarte' has changed since the record was made .*--rules FILE"):
        Record.load(path).replay()
    data["rules"]["bundled"] = "no-such-game"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RecordError, match="'no-such-game', which this tricklang does not have"):
        Record.load(path).replay()
    for bad in ("../etc/passwd", "", 7, "a" * 300):
        data["rules"]["bundled"] = bad
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(RecordError, match="'rules.bundled' must be the name of a bundled game"):
            Record.load(path)
