"""Game records: one human-readable JSON file that replays a whole game.

A record names the rule file (its path and the SHA-256 of its text), the
language version, the option values, the seed, the prearranged deck if any, the
first dealer, who sat where, and every action in order with the seat that took
it. :meth:`Record.replay` re-reads the rule file, refuses it if its text has
changed, and re-checks every action::

    {
      "format": "tricklang-record",
      "version": 1,
      "game": "Écarté",
      "rules": {"path": "../rules/ecarte.trick", "sha256": "…", "language": 1},
      "options": {"target": 5, …},
      "seed": 7,
      "deck": null,
      "first_dealer": 1,
      "seats": ["human", "heuristic"],
      "actions": [
        [0, "propose"],
        [1, "accept"],
        …
      ],
      "result": {"scores": [5, 3], "winners": [0], "deals": 6, "over": true}
    }

A relative rule path is resolved against the record's directory first, then the
current directory. A game bundled with tricklang (``tricklang list``) is named by its name
instead of a path, so that the record replays on any machine and from any folder (version 2)::

      "rules": {"bundled": "ecarte", "sha256": "…", "language": 1},

Replay then loads that bundled game and checks its SHA-256; ``replay(rules_file=...)``
(``tricklang replay --rules FILE``) replays against another copy of the rule file, when its
SHA-256 is the record's. A version 1 record whose rule path is not found replays against
the bundled game of the same file name when its SHA-256 is the record's. ``result`` is informational: replay checks that it ends the
same way. A game that prearranged later deals (``new_game(decks=...)``,
:meth:`State.prearrange`) or gave them seeds of their own (``reseeds``,
:meth:`State.reseed`) is recorded with ``"decks"`` (deal number to the deck in dealing
order) and ``"reseeds"`` (deal number to seed), written only when used; a record
without them (every one written before they were kept) replays as before.

>>> import tricklang, interpreter
>>> from interpreter.players import RandomAgent
>>> state = interpreter.new_game(tricklang.load("rules/ecarte.trick"), seed=5)
>>> for _ in range(4):
...     state.apply(RandomAgent(1)(state))
>>> record = Record.from_state(state, seats=["random", "random"])
>>> Record.from_json(record.to_json()).replay().actions == state.actions
True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import tricklang
from tricklang import Ruleset, catalog
from tricklang.diagnostics import TrickLangError, printable, quoted
from tricklang.ruleset import read_limited

from .errors import IllegalActionError, RecordError
from .state.saved import MAX_JSON_CHARS, parse_json
from .state.state import State, new_game

RECORD_FORMAT = "tricklang-record"
RECORD_VERSION = 2
"""The newest version read and written: 2 names a bundled game (``rules.bundled``); a record
that names its rule file by path is still written as version 1, which every release reads."""

Move = tuple[int, str]
"""One recorded action: the seat that took it and the action's text."""


@dataclass
class Record:
    """Everything needed to replay a game exactly; see the module docstring."""

    rules_path: str
    rules_sha256: str
    options: dict[str, int | bool | str]
    seed: int
    first_dealer: int
    moves: list[Move]
    seats: list[str] = field(default_factory=list)
    deck: list[str] | None = None
    language: int | None = None
    game: str = ""
    result: dict[str, Any] | None = None
    base_dir: Path | None = None
    """Where a relative ``rules_path`` is looked up first (the record's directory)."""
    mode: str = "strict"
    """'strict', or 'table' for a game with irregularities recorded (``"mode": "table"`` in the
    JSON; a record without it, as every record before table mode was stored, is strict)."""
    decks: dict[int, list[str]] | None = None
    """Prearranged decks of later deals, by deal number (1 for the first), if any."""
    reseeds: dict[int, int] | None = None
    """Seeds of later deals (that deal and the following ones), by deal number, if any."""
    bundled: str | None = None
    """The bundled game the rules are (``ecarte``), named instead of ``rules_path``, if any."""

    # ------------------------------------------------------------ building
    @classmethod
    def from_state(
        cls,
        state: State,
        seats: Sequence[str] | None = None,
        *,
        actors: Sequence[int] | None = None,
        failed: tuple[int, str] | None = None,
        rules_path: str | Path | None = None,
    ) -> Record:
        """The record of a game so far.

        Args:
            state: a game whose rules were loaded from a file.
            seats: a name per seat (``human``, ``heuristic``, ...), optional.
            actors: the seat that took each action; the state's own record of them if None.
            failed: (seat, action) of an action that raised an error inside the rules
                (the state is left as before it); it is recorded last, so that replaying
                the record reproduces the error.
            rules_path: the rule file to name in the record, when the game was played
                from its text elsewhere (a worker of a cluster); by default the rules' own path.

        Raises:
            RecordError: the rules were not loaded from a file, or ``seats``/``actors``
                do not fit the game.
        """
        ruleset = state.ruleset
        path = Path(ruleset.path if rules_path is None else rules_path)
        if rules_path is None and not path.is_file():
            raise RecordError(f"the rules of this game were not loaded from a file ({ruleset.path!r})")
        data = state.to_dict()
        if actors is None:
            actors = list(state.actors)
        if len(actors) != len(state.actions):
            raise RecordError(f"{len(actors)} actors given for {len(state.actions)} actions")
        names = list(seats) if seats is not None else []
        if names and len(names) != ruleset.player_count:
            raise RecordError(f"{len(names)} seat names given for {ruleset.player_count} players")
        result = _result_of(state)
        bundled = bundled_game_of(path, ruleset.digest)
        return cls(
            rules_path="" if bundled else str(path.resolve()) if rules_path is None else str(path),
            bundled=bundled,
            rules_sha256=ruleset.digest,
            options=dict(ruleset.options),
            seed=int(data["seed"]),
            first_dealer=int(data["dealer"]),
            moves=list(zip(actors, state.actions, strict=True)) + ([failed] if failed is not None else []),
            seats=names,
            deck=list(data["deck"]) if data.get("deck") is not None else None,
            language=ruleset.rules.version,
            game=ruleset.name,
            result=result,
            mode=state.mode,
            decks={int(k): list(v) for k, v in data["decks"].items()} if data.get("decks") else None,
            reseeds={int(k): int(v) for k, v in data["reseeds"].items()} if data.get("reseeds") else None,
        )

    @property
    def actions(self) -> list[str]:
        """The action texts, in order."""
        return [a for _, a in self.moves]

    # ------------------------------------------------------------ JSON
    def to_dict(self, relative_to: str | Path | None = None) -> dict[str, Any]:
        """The record as a JSON-able dict; the rule path is made relative to
        ``relative_to`` (a directory) when given."""
        path = self.rules_path
        if relative_to is not None and Path(path).is_absolute():
            try:
                path = Path(os.path.relpath(path, Path(relative_to).resolve())).as_posix()
            except ValueError:  # another drive (Windows)
                pass
        rules: dict[str, Any] = {"bundled": self.bundled} if self.bundled else {"path": path}
        data: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION if self.bundled else 1,
            "game": self.game,
            "rules": {**rules, "sha256": self.rules_sha256, "language": self.language},
            "options": dict(self.options),
            "seed": self.seed,
            "deck": self.deck,
            "first_dealer": self.first_dealer,
            "seats": list(self.seats),
        }
        if self.mode != "strict":
            data["mode"] = self.mode
        if self.decks:
            data["decks"] = {str(n): list(d) for n, d in sorted(self.decks.items())}
        if self.reseeds:
            data["reseeds"] = {str(n): s for n, s in sorted(self.reseeds.items())}
        data["actions"] = [[seat, text] for seat, text in self.moves]
        data["result"] = self.result
        return data

    def to_json(self, relative_to: str | Path | None = None) -> str:
        """Pretty JSON, one action per line."""
        data = self.to_dict(relative_to)
        parts = []
        for key, value in data.items():
            if key == "actions":
                rows = ",\n".join("    " + json.dumps(m, ensure_ascii=False) for m in value)
                text = "[\n" + rows + "\n  ]" if rows else "[]"
            else:
                text = json.dumps(value, ensure_ascii=False)
            parts.append(f"  {json.dumps(key)}: {text}")
        return "{\n" + ",\n".join(parts) + "\n}\n"

    def save(self, path: str | Path, *, exclusive: bool = False) -> Path:
        """Write the record to ``path`` (the rule path is stored relative to it). With
        ``exclusive``, the file is made new (``O_CREAT | O_EXCL``, and a symbolic link
        in its place is not followed): nothing that is there already is overwritten.

        Raises:
            RecordError: the file cannot be written, or (``exclusive``) something is
                there already.
        """
        out = Path(path)
        text = self.to_json(relative_to=out.parent).encode("utf-8")
        try:
            if not exclusive:
                out.write_bytes(text)
                return out
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
            fd = os.open(out, flags, 0o644)
            with os.fdopen(fd, "wb") as file:
                file.write(text)
        except FileExistsError:
            raise RecordError(f"cannot write record {printable(str(out))!r}: something is there already "
                              "(a record is never written over a file or a link)") from None
        except OSError as err:
            raise RecordError(f"cannot write record {printable(str(out))!r}: {err.strerror or err}") from None
        return out

    @classmethod
    def from_json(cls, text: str | Mapping[str, Any], base_dir: str | Path | None = None) -> Record:
        """Read a record from its JSON (text or parsed).

        Raises:
            RecordError: not JSON (or too large, or nested too deeply), not a record, or a
                field is missing or has the wrong type or an unsupported version.
            TypeError: ``text`` is neither a string nor a mapping.
        """
        if not isinstance(text, (str, Mapping)):
            raise TypeError(f"from_json() takes JSON text or a mapping, not {type(text).__name__}")
        data: Any = parse_json(text, "the record") if isinstance(text, str) else dict(text)
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a tricklang game record (no \"format\": \"{RECORD_FORMAT}\")")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or not 1 <= version <= RECORD_VERSION:
            raise RecordError(f"record version {quoted(version, 20)} is not supported (this tricklang reads version {RECORD_VERSION})")
        rules = _field(data, "rules", dict)
        moves_raw = _field(data, "actions", list)
        moves: list[Move] = []
        for i, m in enumerate(moves_raw, 1):
            if (not isinstance(m, list) or len(m) != 2 or not _is_int(m[0]) or not isinstance(m[1], str)):
                raise RecordError(f"step {i}: an action must be [seat, \"text\"], not {quoted(m)}")
            moves.append((m[0], m[1]))
        deck = data.get("deck")
        if deck is not None and (not isinstance(deck, list) or not all(isinstance(c, str) for c in deck)):
            raise RecordError("'deck' must be null or a list of card codes")
        seats = data.get("seats") or []
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError("'seats' must be a list of names")
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise RecordError("'options' must be an object")
        language = rules.get("language")
        if language is not None and not _is_int(language):
            raise RecordError(f"'rules.language' must be a number, not {quoted(language, 40)}")
        result = data.get("result")
        mode = data.get("mode", "strict")
        if mode not in ("strict", "table"):
            raise RecordError(f"'mode' must be \"strict\" or \"table\", not {quoted(mode, 40)}")
        decks, reseeds = _later_deals(data)
        bundled = _bundled_field(rules)
        return cls(
            rules_path=_field(rules, "path", str, "rules.path") if bundled is None else "",
            bundled=bundled,
            rules_sha256=_field(rules, "sha256", str, "rules.sha256"),
            options=options,
            seed=_field(data, "seed", int),
            first_dealer=_field(data, "first_dealer", int),
            moves=moves,
            seats=list(seats),
            deck=deck,
            language=language if _is_int(language) else None,
            game=str(data.get("game") or ""),
            result=result if isinstance(result, dict) else None,
            base_dir=Path(base_dir) if base_dir is not None else None,
            mode=mode,
            decks=decks,
            reseeds=reseeds,
        )

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """Read a record file.

        Raises:
            RecordError: the file cannot be read or is not a valid record.
        """
        file = Path(path)
        try:
            text = read_limited(file, "record", MAX_JSON_CHARS)
        except TrickLangError as err:
            raise RecordError(str(err)) from None
        try:
            return cls.from_json(text, base_dir=file.parent)
        except RecordError as err:
            raise RecordError(f"{file}: {err}") from None

    # ------------------------------------------------------------ replay
    def rules_file(self) -> Path:
        """The rule file this record names: the bundled game of its name, or its path looked
        up relative to the record's directory, then the current directory (then, for a path
        that is not found, the bundled game of the same file name, if any: whether it is the
        record's is for its SHA-256 to say).

        Raises:
            RecordError: no bundled game of that name in this tricklang, or no such file
                (in :meth:`rules_unusable`'s words).
        """
        if self.bundled:
            found = catalog.find_bundled(self.bundled)
            if found is None:
                raise RecordError(f"the record is of the bundled game {self.bundled!r}, which this tricklang does not "
                                  "have: give its rule file (tricklang replay --rules FILE)")
            return found
        path = Path(self.rules_path)
        if not self.rules_path.endswith(".trick") or "\0" in self.rules_path or len(self.rules_path) > 4096:
            raise RecordError(f"the record's rule file must be a '.trick' file, not {printable(self.rules_path[:80])!r}")
        candidates = [path] if path.is_absolute() else [
            *([self.base_dir / path] if self.base_dir is not None else []),
            path,
        ]
        for c in candidates:
            try:
                if c.is_file():
                    return Path(os.path.normpath(c))
            except (OSError, ValueError):
                break
        same_name = catalog.find_bundled(path.name)
        if same_name is not None and _bundled_digest(same_name.stem) == self.rules_sha256:
            return same_name  # a record of a bundled game made where it lay at another path
        raise self.rules_unusable()

    def rules_unusable(self) -> RecordError:
        """The one error for the rule file a record names that cannot be used, whether it
        is missing, unreadable, does not load or is not the text the record was made with:
        a record (from anyone) must not learn whether a path on this machine exists or
        loads."""
        return RecordError(
            f"the record's rules ({printable(self.rules_path[:200])!r}) could not be used: no rule file with the "
            f"text the record was made with (sha256 {printable(self.rules_sha256[:12])}…) is there; replay it "
            "with --rules FILE, the rule file it was made with")

    def load_rules(self, rules_file: str | Path | None = None) -> Ruleset:
        """Load the rule file with the record's options, checking its SHA-256.

        Args:
            rules_file: the rule file to use instead of the one the record names (a copy
                elsewhere, or the bundled game as it was): it must have the record's SHA-256.

        Raises:
            RecordError: the file the record names is missing, unreadable, does not load
                or has another text than the record's (one message for all:
                :meth:`rules_unusable`); ``rules_file`` does not load or is not the
                record's; the bundled game has changed; or the options no longer fit.
        """
        if rules_file is not None:
            file, shown = Path(rules_file), printable(str(rules_file))
        else:
            file = self.rules_file()
            shown = printable(self.rules_path or f"bundled game {self.bundled}")
        named = rules_file is None and not self.bundled  # (a path the record names: it learns nothing of it)
        try:
            ruleset = tricklang.load(file, path=self.rules_path if named else None)
        except TrickLangError:
            # Nothing of a file that may not be the record's is shown before its digest matches.
            if named:
                raise self.rules_unusable() from None
            raise RecordError(f"the rule file {shown!r} does not load, so it cannot be the rule file the record "
                              "was made with (check it with 'tricklang check')") from None
        if ruleset.digest != self.rules_sha256:
            if named:
                raise self.rules_unusable()
            what = (f"the rule file {shown!r} is not the one the record was made with" if rules_file is not None
                    else f"the bundled game {self.bundled!r} has changed since the record was made")
            hint = "" if rules_file is not None else ": replay it with --rules FILE, the rule file it was made with"
            raise RecordError(
                f"{what} (its sha256 is {ruleset.digest[:12]}…, the record's is {printable(self.rules_sha256[:12])}…)"
                + hint)
        if self.language is not None and ruleset.rules.version != self.language:
            raise RecordError(f"the record is for tricklang {self.language}, the rule file is tricklang {ruleset.rules.version}")
        try:
            return ruleset.with_options(self.options)
        except TrickLangError as err:
            raise RecordError(f"the record's options do not fit the rule file: {err}") from None

    def replay(self, ruleset: Ruleset | None = None, *, check_result: bool = True,
               rules_file: str | Path | None = None) -> State:
        """Rebuild the game, re-checking every action; returns the final state.

        Args:
            ruleset: rules to use instead of re-loading the rule file (no digest check);
                the record's options are applied to them.
            check_result: also check that the game ends as ``result`` says (scores,
                winners, deals, over).
            rules_file: a rule file to replay against instead of the one the record
                names; its SHA-256 must be the record's (:meth:`load_rules`).

        Raises:
            RecordError: naming the step and the reason when an action does not fit, or
                how the replay's result differs from the record's; or as :meth:`load_rules`.
        """
        if ruleset is None:
            ruleset = self.load_rules(rules_file)
        else:
            try:
                ruleset = ruleset.with_options(self.options)
            except TrickLangError as err:
                raise RecordError(f"the record's options do not fit the rules: {err}") from None
        if self.seats and len(self.seats) != ruleset.player_count:
            raise RecordError(f"the record names {len(self.seats)} seats, the game has {ruleset.player_count}")
        state = rebuild(ruleset, self.seed, self.deck, self.first_dealer, self.moves, mode=self.mode,
                        decks=self.decks, reseeds=self.reseeds)
        if check_result and self.result is not None:
            _check_result(self.result, state)
        return state


_BUNDLED_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
"""What a bundled game's name may look like in a record (a file name without ``.trick``)."""


@lru_cache(maxsize=64)
def _bundled_digest(name: str) -> str | None:
    """The SHA-256 of the bundled game ``name`` as this tricklang ships it (None: no such game
    or it does not load). Bundled files do not change while a process runs."""
    file = catalog.find_bundled(name)
    if file is None:
        return None
    try:
        return tricklang.load(file).digest
    except TrickLangError:
        return None


def bundled_game_of(path: str | Path, digest: str) -> str | None:
    """The name of the bundled game whose file name ``path`` has and whose rules have this
    SHA-256 (the rules are that game, wherever they were read from), or None."""
    name = Path(path).name
    stem = name[: -len(".trick")] if name.endswith(".trick") else name
    if not _BUNDLED_NAME.fullmatch(stem) or catalog.find_bundled(stem) is None:
        return None
    return stem if _bundled_digest(stem) == digest else None


def rebuild(
    ruleset: Ruleset,
    seed: int,
    deck: Sequence[str] | None,
    first_dealer: int,
    moves: Sequence[Move] | Sequence[str],
    mode: str = "strict",
    decks: Mapping[int, Sequence[str]] | None = None,
    reseeds: Mapping[int, int] | None = None,
) -> State:
    """A new game with these parameters after the given actions (seat, text) or texts,
    in ``mode`` ('strict', or 'table' where irregularities may be among the actions),
    with the later deals' prearranged ``decks`` and ``reseeds`` (by deal number).

    Raises:
        RecordError: naming the step (1-based), the action and why it does not fit.
    """
    try:
        state = new_game(ruleset, seed=seed, deck=deck, dealer=first_dealer, mode=mode, decks=decks, reseeds=reseeds)
    except TrickLangError as err:
        raise RecordError(f"the game cannot be started: {err}") from None
    for step, move in enumerate(moves, 1):
        seat, text = move if isinstance(move, tuple) else (None, move)
        if state.is_terminal():
            raise RecordError(f"step {step} ({text!r}): the match was already over")
        actor = state.current_player
        if seat is not None and seat != actor:
            raise RecordError(f"step {step} ({text!r}): recorded for seat {seat}, but seat {actor} is to act")
        try:
            state.apply(text)
        except IllegalActionError as err:
            raise RecordError(f"step {step} ({text!r}, seat {actor}): not legal: {err.reason}") from None
        except TrickLangError as err:
            raise RecordError(f"step {step} ({text!r}, seat {actor}): {err}") from None
    return state


def _check_result(want: Mapping[str, Any], state: State) -> None:
    """Raise a RecordError naming the first field of ``result`` the replay does not reproduce."""
    for key, value in _result_of(state).items():
        if key in want and want[key] != value:
            raise RecordError(f"the replay ends with {key} {quoted(value, 80)}, the record says {quoted(want[key], 80)}")


def _result_of(state: State) -> dict[str, Any]:
    """How a game stands: its ``result`` in a record (scores, winners, deals, over)."""
    outcome = state.outcome()
    return {
        "scores": state.scores,
        "winners": list(outcome.winners) if outcome is not None and outcome.winner is not None else None,
        "deals": state.deal_number if outcome is None else outcome.deals,
        "over": state.is_terminal(),
    }


def _bundled_field(rules: Mapping[str, Any]) -> str | None:
    """A record's ``rules.bundled``: None when absent.

    Raises:
        RecordError: it is not what a bundled game's name looks like.
    """
    bundled = rules.get("bundled")
    if bundled is not None and (not isinstance(bundled, str) or not _BUNDLED_NAME.fullmatch(bundled)):
        raise RecordError(f"'rules.bundled' must be the name of a bundled game, not {quoted(bundled, 40)}")
    return bundled


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _field(data: Mapping[str, Any], key: str, kind: type, label: str | None = None) -> Any:
    if key not in data:
        raise RecordError(f"the record has no '{label or key}'")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"'{label or key}' must be {'a number' if kind is int else 'text' if kind is str else f'a {kind.__name__}'}, not {quoted(value)}")
    return value


def _later_deals(data: Mapping[str, Any]) -> tuple[dict[int, list[str]] | None, dict[int, int] | None]:
    """A record's ``decks`` and ``reseeds``, keyed by deal number (None when absent).

    Raises:
        RecordError: one is not an object from deal numbers to a list of card codes (decks)
            or to an integer (reseeds).
    """
    decks, reseeds = data.get("decks"), data.get("reseeds")
    if decks is not None and (not isinstance(decks, dict) or not all(
            _is_deal_number(k) and isinstance(v, list) and all(isinstance(c, str) for c in v) for k, v in decks.items())):
        raise RecordError("'decks' must map deal numbers (\"2\") to lists of card codes")
    if reseeds is not None and (not isinstance(reseeds, dict) or not all(
            _is_deal_number(k) and _is_int(v) for k, v in reseeds.items())):
        raise RecordError("'reseeds' must map deal numbers (\"2\") to seeds")
    return ({int(k): list(v) for k, v in decks.items()} if decks else None,
            {int(k): int(v) for k, v in reseeds.items()} if reseeds else None)


def _is_deal_number(key: object) -> bool:
    return isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 9
