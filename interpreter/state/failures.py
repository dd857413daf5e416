"""How a failure raised while the rules run reaches users: a fault of the generated
module (its id words it), a limit, or a Python exception of the rules' arithmetic."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import GameError, GameLimitError, RuleRuntimeError
from ..runtime.faults import Fault, LimitFault

if TYPE_CHECKING:
    from .compiled import Compiled

RULE_FAILURES = (ArithmeticError, LookupError, RecursionError, TypeError, ValueError, AttributeError, AssertionError)
"""Exceptions that, raised while rules run, are reported as :class:`~interpreter.RuleRuntimeError`."""


def worded(game: Compiled, err: BaseException) -> BaseException:
    """A failure raised while the rules of ``game`` ran, as the error users see."""
    if isinstance(err, LimitFault):
        return GameLimitError(game.layout.faults[err.args[0]])
    if isinstance(err, Fault):
        return RuleRuntimeError(game.layout.faults[err.args[0]])
    if isinstance(err, GameError) or not isinstance(err, RULE_FAILURES):
        return err
    return RuleRuntimeError(f"the rules failed at run time ({type(err).__name__}: {str(err)[:200]})")
