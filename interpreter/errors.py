"""The runtime's errors. All derive from :class:`tricklang.TrickLangError`."""

from __future__ import annotations

from tricklang.diagnostics import TrickLangError


class GameError(TrickLangError):
    """Base class of the errors raised while running a game."""


class InvalidActionError(GameError, ValueError):
    """An action's text cannot be read (unknown verb or card code)."""


class IllegalActionError(GameError, ValueError):
    """A well-formed action that is not legal in this state.

    The message names the action and the reason; the state is unchanged.
    """

    def __init__(self, action: str, reason: str) -> None:
        super().__init__(f"illegal action '{action}': {reason}")
        self.action = action
        self.reason = reason


class GameLimitError(GameError):
    """A game exceeded a runtime limit (steps, deals), e.g. a rule file that loops."""


class RuleRuntimeError(GameError):
    """A rule did something impossible at run time (e.g. dealing from an empty pack)."""


class ArgumentError(GameError, ValueError):
    """An argument of the right type but out of range: a seat that does not exist,
    an unknown zone."""


class RecordError(GameError, ValueError):
    """A state or game record is corrupt, or does not fit its rule file."""


class ResampleError(ArgumentError):
    """Information-set sampling cannot be done with these arguments: a seat that does
    not exist, a state not in the default modes, or no deal consistent with the seat's
    observations found within the attempt bound (the state is unchanged)."""


class NativeBuildError(GameError):
    """A native build cannot be made or loaded: Cython, setuptools or the C compiler is
    missing, the build failed, took too long or needed too much memory, the generated
    source failed its check, or the extension cannot be loaded (:mod:`interpreter.native`)."""
