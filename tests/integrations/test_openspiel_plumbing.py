"""OpenSpiel plumbing: games pickle, a new process deserializes after importing the
adapter, and a serialized state names its rules by digest where they can be found
again (extra 'openspiel')."""

from __future__ import annotations

import base64
import json
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import tricklang  # noqa: E402
from interpreter.embedding.known_rules import find_rules, rules_ref  # noqa: E402
from interpreter.embedding.openspiel import load_game, register  # noqa: E402
from interpreter.errors import RecordError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TINY = Path(__file__).resolve().parent / "games" / "tiny-trick.trick"


def _played(game: Any, steps: int) -> Any:
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[-1])
    return state


def _state_dict(serialized: str) -> str:
    """The tricklang part of a serialized state (OpenSpiel pickles the state's attributes)."""
    line = next(x for x in serialized.splitlines() if x.startswith("__dict__="))
    return base64.b64decode(line[len("__dict__="):]).decode("utf-8", "replace")


def _run(code: str) -> str:
    """Run Python in a new process (the repository's interpreter, nothing registered)."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.parametrize("rules", ["ecarte", TINY], ids=["bundled", "a file of one's own"])
def test_a_loaded_game_pickles(rules: str | Path) -> None:
    game = load_game(rules, scope="match", **({"target": 3} if rules == "ecarte" else {}))
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game) and again.get_parameters() == game.get_parameters()
    state = _played(again, 20)
    assert pickle.loads(pickle.dumps(state)).history() == state.history()


def test_a_bundled_games_state_carries_the_digest_of_its_rules_not_their_text() -> None:
    game = load_game("ecarte")
    ruleset = tricklang.load("ecarte")
    serialized = pyspiel.serialize_game_and_state(game, _played(game, 40))
    inner = _state_dict(serialized)
    assert ruleset.digest in inner and "tricklang 1" not in inner
    assert len(serialized) < 4000  # the whole rule text made it 40,750 bytes
    again = pyspiel.deserialize_game_and_state(serialized)[1]
    assert again.history() == _played(game, 40).history()


def test_a_file_of_ones_own_carries_its_text_so_that_nothing_becomes_unreadable() -> None:
    game = load_game(TINY)
    inner = _state_dict(pyspiel.serialize_game_and_state(game, _played(game, 9)))
    assert "Tiny Trick" in inner and tricklang.load(TINY).digest in inner


def test_a_new_process_deserializes_after_merely_importing_the_adapter() -> None:
    game = load_game("ecarte", scope="match", target=3)
    serialized = pyspiel.serialize_game_and_state(game, _played(game, 50))
    out = _run("import pyspiel\nimport interpreter.embedding.openspiel\n"
               f"game, state = pyspiel.deserialize_game_and_state({serialized!r})\n"
               "print(game.get_parameters()['target'], state.history()[-3:])")
    assert out.split()[0] == "3" and out.strip().endswith(str(_played(game, 50).history()[-3:]))


def test_a_new_process_unpickles_a_state_of_a_file_it_never_loaded() -> None:
    state = _played(load_game(TINY), 9)
    data = pickle.dumps(state)
    out = _run(f"import pickle\nstate = pickle.loads({data!r})\nprint(state.history(), state.get_game())")
    assert str(state.history()) in out and "tricklang_tiny_trick" in out


def test_a_variant_named_like_a_bundled_game_gets_a_name_of_its_own(tmp_path: Path) -> None:
    text = (ROOT / "rules" / "ecarte.trick").read_text(encoding="utf-8").replace('game "', 'game "My ', 1)
    variant = tmp_path / "ecarte.trick"
    variant.write_text(text, encoding="utf-8")
    name = register(variant)
    assert name.startswith("tricklang_ecarte_") and register("ecarte") == "tricklang_ecarte"
    with pytest.raises(pyspiel.SpielError, match="already registered"):
        register(variant, short_name="tricklang_ecarte")


def test_a_rules_reference_is_checked() -> None:
    ref = rules_ref(tricklang.load(TINY))
    assert find_rules(ref).digest == ref["sha256"]
    with pytest.raises(RecordError, match="does not match its digest"):
        find_rules({**ref, "sha256": "0" * 64})
    with pytest.raises(RecordError, match="neither a bundled game"):
        find_rules({"path": "ecarte.trick", "sha256": "1" * 64})
    with pytest.raises(RecordError, match="sha256"):
        find_rules({"path": "ecarte.trick"})
    with pytest.raises(RecordError, match="do not load"):
        find_rules({**ref, "sha256": "2" * 64, "source": "tricklang 1\nnonsense\n"})


def test_a_corrupt_state_raises_a_spiel_error() -> None:
    game = load_game("ecarte")
    state = _played(game, 5)
    held = state._held
    for bad in ["{", json.dumps({"rules": {"path": "ecarte.trick", "sha256": "3" * 64}}), json.dumps([1])]:
        with pytest.raises(pyspiel.SpielError, match="cannot read the serialized state"):
            held.__setstate__(bad)
