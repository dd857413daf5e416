"""The one exception a generated module raises for a rule that fails at run time.

A generated module never holds rule text, so it cannot word the failure itself: it
raises :class:`Fault` with the id of a message the code generator wrote down
(:attr:`interpreter.codegen.layout.Layout.faults`), and the state turns it into a
:class:`~interpreter.errors.RuleRuntimeError` with that message, after putting itself
back as it was before the action.
"""

from __future__ import annotations


class Fault(Exception):  # noqa: N818 - a signal to the state, never seen by users
    """A rule failed at run time; ``args[0]`` is the id of its message."""


class LimitFault(Fault):
    """A rule file ran over a limit of the runtime; the state raises
    :class:`~interpreter.errors.GameLimitError` with its message."""
