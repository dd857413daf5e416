"""The tables of a server: who sits where, who may do what, and the game itself.

A :class:`Table` holds one match (a :class:`~interpreter.State`), the kind of player of
each seat (``human`` or a built-in player's name), and the unguessable tokens of its
links: one per human seat, one for spectators, and in table mode one for the referee.
Every action goes through :meth:`Table.act`, which refuses (with :class:`ActionRefusedError` and its
reason, the state unchanged) what the reader of that link may not do now: another
seat's turn, an action meant for an earlier moment (each action names the turn it was
chosen at, so a replayed or delayed message is refused), an illegal action, a spectator
acting. :class:`TableManager` holds the tables, finds a table by token and keeps every
table on disk through :class:`~interpreter.serve.storage.Storage` after every action.

This module is synchronous and has no web code: :mod:`interpreter.serve.app` drives it.
"""

from __future__ import annotations

import hmac
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..errors import GameError, IllegalActionError, InvalidActionError
from ..players import MAX_ACTIONS_PER_MATCH, Agent, agent_name_problem, is_agent_name, make_agent
from ..record import Record
from ..state import State, new_game
from . import views

if TYPE_CHECKING:
    from tricklang import Ruleset


class Saver(Protocol):
    """Where a manager keeps its tables (:class:`~interpreter.serve.storage.Storage`)."""

    def save(self, table: Table) -> None: ...


HUMAN = "human"
MAX_ACTION_CHARS = 400
"""The longest action text a page may send (Cinch's largest selection is far shorter)."""
TOKEN_BYTES = 24
"""Random bytes in a link's token (32 URL-safe characters)."""

RoleKind = Literal["seat", "spectator", "referee"]


class ActionRefusedError(Exception):
    """An action a page sent was not taken; ``reason`` says why (the state is unchanged)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class TableError(Exception):
    """A table cannot be made or loaded (bad seats, too many tables, a damaged file)."""


@dataclass(frozen=True)
class Role:
    """Who holds a link: a seat (with its number), a spectator or the referee."""

    kind: RoleKind
    seat: int | None = None


def new_token() -> str:
    """An unguessable token for a link (``secrets``, 192 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


@dataclass
class Table:
    """One match at the server; see the module docstring."""

    id: str
    state: State
    kinds: list[str]
    tokens: dict[str, Role]
    rules_path: str
    created: float = field(default_factory=time.time)
    failed: tuple[int, str] | None = None
    error: str | None = None
    agents: dict[int, Agent] = field(default_factory=dict)

    def __post_init__(self) -> None:
        seed = self.state.seed
        self.agents = {seat: make_agent(kind, seed + seat) for seat, kind in enumerate(self.kinds) if kind != HUMAN}
        self._rng = random.Random(f"{seed}/{self.id}/table")

    # ------------------------------------------------------------ who is who
    @property
    def ruleset(self) -> Ruleset:
        return self.state.ruleset

    def role_of(self, token: str) -> Role | None:
        """The role a token gives at this table (compared in constant time), or None."""
        found = None
        for known, role in self.tokens.items():
            if hmac.compare_digest(known.encode(), token.encode()):
                found = role
        return found

    def links(self) -> list[tuple[Role, str]]:
        """Every role with its token: the seats in order, then the spectators and the referee."""
        order = {"seat": 0, "referee": 1, "spectator": 2}
        return sorted(((role, token) for token, role in self.tokens.items()),
                      key=lambda rt: (order[rt[0].kind], rt[0].seat or 0))

    @property
    def over(self) -> bool:
        return self.state.is_terminal() or self.error is not None

    # ------------------------------------------------------------ views
    def view(self, role: Role, since: int = 0) -> dict[str, Any]:
        """What the page of ``role`` receives now (events from number ``since`` on)."""
        if role.kind == "seat":
            assert role.seat is not None
            out = views.seat_view(self.state, role.seat, since)
        elif role.kind == "referee":
            out = views.referee_view(self.state, since)
            out["forms"] = views.irregularity_forms(self.state)
        else:
            out = views.public_view(self.state, since)
        out["type"] = "view"
        out["table"] = self.summary()
        out["error"] = self.error
        return out

    def summary(self) -> dict[str, Any]:
        """What anyone may know of the table: its game, seats and whether it is over."""
        outcome = self.state.outcome()
        return {
            "id": self.id,
            "game": self.ruleset.name,
            "options": dict(self.ruleset.options),
            "mode": self.state.mode,
            "seats": list(self.kinds),
            "sides": self.state.sides,
            "over": self.over,
            "result": outcome.result() if outcome is not None else None,
            "deals": self.state.deal_number,
        }

    # ------------------------------------------------------------ acting
    def act(self, role: Role, text: object, turn: object) -> None:
        """Take ``text`` for ``role``, chosen at ``turn`` (the number of actions taken
        when the page showed the decision).

        Raises:
            ActionRefusedError: with the reason; the state is unchanged.
        """
        if not isinstance(text, str) or not text.strip() or len(text) > MAX_ACTION_CHARS:
            raise ActionRefusedError(f"an action is a text of 1 to {MAX_ACTION_CHARS} characters")
        if isinstance(turn, bool) or not isinstance(turn, int):
            raise ActionRefusedError("an action must name the turn it was chosen at")
        if self.error is not None:
            raise ActionRefusedError("the match was stopped by an error in the rules")
        state = self.state
        decision = state.decision
        if decision is None:
            raise ActionRefusedError("the match is over")
        if turn != len(state.actions):
            raise ActionRefusedError(f"that action was chosen at turn {turn}, and the game is at turn {len(state.actions)} "
                          "now: it is not taken again")
        text = " ".join(text.split())
        if role.kind == "spectator":
            raise ActionRefusedError("spectators watch; they do not act")
        if role.kind == "referee":
            self._referee_act(text, decision.kind)
            return
        if decision.kind == "pause":
            raise ActionRefusedError("the referee is to act now")
        if decision.seat != role.seat:
            raise ActionRefusedError(f"it is seat {decision.seat}'s turn, not yours")
        if text.split()[0].lower() == "irregular":
            raise ActionRefusedError("irregularities are recorded by the referee")
        self._apply(text)

    def _referee_act(self, text: str, kind: str) -> None:
        if self.state.mode != "table":
            raise ActionRefusedError("this table has no referee")
        verb = text.split()[0].lower()
        if verb == "continue" and kind == "pause":
            self._apply(text)
            return
        if verb != "irregular":
            raise ActionRefusedError("the referee records irregularities, and continues at a referee's pause")
        # Whether a claim fits the cards is told, and nothing more: why_illegal could name
        # where a hidden card lies.
        try:
            fits = self.state.is_legal(text)
        except GameError:
            fits = False
        if not fits:
            raise ActionRefusedError(f"{text!r} is not on offer now (not at this moment, not for that seat, "
                          "or the cards named are not where it needs them)")
        self._apply(text)

    def _apply(self, text: str) -> None:
        state = self.state
        seat = state.current_player
        assert seat is not None
        try:
            state.apply(text)
        except IllegalActionError as err:
            raise ActionRefusedError(err.reason) from None
        except InvalidActionError as err:
            raise ActionRefusedError(str(err)) from None
        except GameError as err:
            # A rule that fails: the state is as before it; the table stops and its record
            # ends with the failing action, so that replaying the record shows the error.
            self.failed = (seat, text)
            self.error = _as_seen(err)
            return
        if len(state.actions) > MAX_ACTIONS_PER_MATCH:
            self.error = f"the match took more than {MAX_ACTIONS_PER_MATCH} actions"

    # ------------------------------------------------------------ built-in players
    def bot_seat(self) -> int | None:
        """The seat of the built-in player to act now, if it is one's turn."""
        if self.over:
            return None
        decision = self.state.decision
        if decision is None or decision.kind == "pause" or decision.seat not in self.agents:
            return None
        return decision.seat

    def bot_act(self) -> None:
        """Let the built-in player whose turn it is act (a regular action in table mode)."""
        seat = self.bot_seat()
        if seat is None:
            return
        try:
            action = self.agents[seat](self.state)
        except Exception as err:  # noqa: BLE001 - a failing player stops its table, not the server
            self.error = f"seat {seat}'s built-in player failed ({type(err).__name__})"
            return
        if action.verb == "irregular":  # built-in players never record an irregularity
            regular = [a for a in self.state.legal_actions() if a.verb != "irregular"]
            action = regular[self._rng.randrange(len(regular))]
        try:
            self._apply(action.text)
        except ActionRefusedError as err:  # a built-in player's action is legal; should one not be, stop
            self.error = f"seat {seat}'s built-in player chose an action that is not legal: {err.reason}"

    # ------------------------------------------------------------ the record
    def record(self) -> Record:
        """The match's record (the format ``tricklang replay`` checks).

        Raises:
            RecordError: the record cannot be made (the rule file is gone).
        """
        return Record.from_state(self.state, seats=self.kinds, failed=self.failed, rules_path=self.rules_path)


def _as_seen(err: GameError) -> str:
    """An error in the rules as every seat may see it: its kind and the rule's line only
    (its message may name a card)."""
    text = str(err)
    line = text.split(":", 1)[0] if text.startswith("line ") else ""
    return f"{type(err).__name__}" + (f" at {line} of the rules" if line else "")


def parse_kinds(spec: str | Sequence[str] | None, players: int) -> list[str]:
    """Seat kinds from ``human,heuristic`` (one name fills every seat; default: seat 0
    human, the others heuristic).

    Raises:
        TableError: a kind that is no player, or the wrong number of them.
    """
    if spec is None or spec == "" or spec == []:
        return [HUMAN] + ["heuristic"] * (players - 1)
    names = [s.strip().lower() for s in (spec.split(",") if isinstance(spec, str) else spec)]
    if len(names) == 1:
        names *= players
    if len(names) != players:
        raise TableError(f"this game has {players} seats, {len(names)} players given")
    for name in names:
        if isinstance(name, str) and name.startswith("search:") and (problem := agent_name_problem(name)):
            raise TableError(problem)
        if not isinstance(name, str) or (name != HUMAN and not is_agent_name(name)):
            raise TableError(f"unknown player {str(name)[:40]!r}: a seat is {HUMAN}, random, heuristic or search:N")
    return names


class TableManager:
    """Every table of a server, by id and by token; each kept on disk by ``storage``."""

    def __init__(self, storage: Saver | None = None, *, max_tables: int = 100) -> None:
        self.storage = storage
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}

    def create(self, ruleset: Ruleset, kinds: Sequence[str], *, rules_path: str, mode: str = "strict",
               seed: int | None = None) -> Table:
        """A new table (saved at once).

        Raises:
            TableError: too many tables, table mode for rules without irregularities, or
                the game cannot start.
        """
        if len(self.tables) >= self.max_tables:
            raise TableError(f"this server holds at most {self.max_tables} tables")
        if mode == "table" and not ruleset.rules.irregularities:
            raise TableError(f"{ruleset.name} declares no irregularities: table mode has nothing to record")
        kinds = parse_kinds(list(kinds), ruleset.player_count)
        try:
            state = new_game(ruleset, seed=secrets.randbelow(2**31) if seed is None else seed, mode=mode)
        except GameError as err:
            raise TableError(f"the game cannot start: {err}") from None
        tokens = {new_token(): Role("seat", seat) for seat, kind in enumerate(kinds) if kind == HUMAN}
        tokens[new_token()] = Role("spectator")
        if mode == "table":
            tokens[new_token()] = Role("referee")
        table_id = secrets.token_hex(6)
        while table_id in self.tables:
            table_id = secrets.token_hex(6)
        table = Table(table_id, state, kinds, tokens, rules_path)
        self.tables[table.id] = table
        self.save(table)
        return table

    def add(self, table: Table) -> None:
        """Hold a table loaded from disk."""
        self.tables[table.id] = table

    def find(self, token: str) -> tuple[Table, Role] | None:
        """The table and role of a link's token, or None."""
        if not 20 <= len(token) <= 64:
            return None
        for table in self.tables.values():
            role = table.role_of(token)
            if role is not None:
                return table, role
        return None

    def save(self, table: Table) -> None:
        """Write the table to disk (after every action).

        Raises:
            OSError: the file cannot be written.
        """
        if self.storage is not None:
            self.storage.save(table)

    def record_text(self, table: Table) -> str:
        """The finished match's record as JSON text.

        Raises:
            ActionRefusedError: the match is not over (a record names the seed, which tells every hidden card).
            RecordError: the rule file cannot be found.
        """
        if not table.over:
            raise ActionRefusedError("the record is offered when the match is over (it names the seed, which fixes every card)")
        return table.record().to_json()
