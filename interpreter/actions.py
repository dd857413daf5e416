"""Actions and their text notation.

An action is a verb and its arguments: ``propose``, ``accept``, ``discard 7H 8C``,
``bid 7``, ``pass``, ``name hearts``, ``rob AS 5S``, ``play KS``, ``declare king``.
``str(action)`` is the notation; :func:`parse_action` reads it back.
"""

from __future__ import annotations


class Action:
    """One move: a verb and its arguments. Equal actions have equal text."""

    __slots__ = ("verb", "args", "_text", "card")

    def __init__(self, verb: str, args: tuple[str, ...] = (), card: int = -1) -> None:
        self.verb = verb
        self.args = args
        self.card = card  # the card's index, for the interpreter's play actions
        self._text = verb + "".join(" " + a for a in args) if args else verb

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Action({self._text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self._text == other._text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._text)

    @property
    def text(self) -> str:
        """The action's notation, as ``str(action)``."""
        return self._text
