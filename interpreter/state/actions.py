"""Actions and their text notation.

An action is a verb and its arguments: ``propose``, ``accept``, ``discard 7H 8C``,
``bid 7``, ``pass``, ``name hearts``, ``rob AS 5S``, ``play KS``, ``declare king``.
``str(action)`` is the notation; :meth:`interpreter.State.apply` also takes the text.

>>> a = Action("discard", ("7H", "8C"))
>>> str(a), a.verb, a.args
('discard 7H 8C', 'discard', ('7H', '8C'))
>>> a == Action("discard", ("7H", "8C")), a == "discard 7H  8C", a == "discard 8C 7H"
(True, True, False)
"""

from __future__ import annotations


class Action:
    """One move: a verb and its arguments. Equal actions have equal text."""

    __slots__ = ("verb", "args", "_text", "card")

    def __init__(self, verb: str, args: tuple[str, ...] = (), card: int = -1) -> None:
        self.verb = verb
        self.args = args
        self.card = card  # the card's index, for the interpreter's play actions
        self._text: str | None = None  # built on first use: most listed actions are never printed

    @property
    def text(self) -> str:
        """The action's notation, as ``str(action)``."""
        text = self._text
        if text is None:
            text = self._text = " ".join((self.verb, *self.args)) if self.args else self.verb
        return text

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        """Equal to an action with the same verb and arguments, or to its exact text
        (spaces aside), as ``in`` on :class:`~interpreter.LegalActions` is."""
        if isinstance(other, Action):
            return self.verb == other.verb and self.args == other.args
        if isinstance(other, str):
            return self.text == " ".join(other.split())
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.text)
