"""The base of every syntax node: :class:`Node`, the source :class:`Span` and law :class:`Citation`."""

from typing import ClassVar

from pydantic import BaseModel, ConfigDict


class Node(BaseModel):
    """Base class of every syntax node: immutable, with a source span."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    form: ClassVar[str] = ""
    """The field whose value says which form of the construct a node is (``op`` of a
    binary operation, ``kind`` of an obligation...), or '' when the class is one form:
    :mod:`tricklang.support` names constructs by class and form."""
    parts: ClassVar[tuple[str, ...]] = ()
    """Optional fields that are constructs of their own when given (``to`` of ``expose Z to
    P``, ``guard`` of a choice option): ``Expose.to``, ``ChoiceOption.guard``."""


class Span(Node):
    """A region of a rule file (1-based lines and columns)."""

    line: int
    column: int
    end_line: int
    end_column: int
    path: str | None = None  # set on what a variant inherits: the base file it was written in

    def __eq__(self, other: object) -> bool:
        """Spans are equal by position: where inherited code was written (``path``) is
        provenance for messages, not part of the rules (a variant's inherited deck
        equals its base's)."""
        if not isinstance(other, Span):
            return NotImplemented
        return (self.line, self.column, self.end_line, self.end_column) == (
            other.line, other.column, other.end_line, other.end_column)

    def __hash__(self) -> int:
        return hash((self.line, self.column, self.end_line, self.end_column))


NO_SPAN = Span.model_construct(line=0, column=0, end_line=0, end_column=0)


class Citation(Node):
    """The laws a rule implements, e.g. ``[E22-E31]`` gives ``("E22-E31",)``."""

    laws: tuple[str, ...]
    span: Span

    def __str__(self) -> str:
        return "[" + ", ".join(self.laws) + "]"
