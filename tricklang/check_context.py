"""What the checker's passes need of the checker, as narrow protocols.

The checker (:class:`tricklang.checker.Checker`) runs its passes over statements
(:mod:`tricklang.check_statements`), trick play (:mod:`tricklang.check_play`), auctions and
bids (:mod:`tricklang.check_bids`) and cards (:mod:`tricklang.check_cards`). Each pass
reports through the checker and asks it the types of expressions; it names the checker
only through :class:`CheckerContext` (and a pass that checks the blocks inside a
statement, the statement pass, through :class:`StatementsContext`), so the passes import
nothing of the checker's and the imports go one way: ``checker`` imports the passes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Protocol

from . import model as m
from .diagnostics import Diagnostic
from .types import Scope, Type


class CheckerContext(Protocol):
    """The checker as its passes see it: the rule file, the names it declares, reporting and typing."""

    @property
    def rules(self) -> m.RuleFile:
        """The rule file being checked."""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What has been reported so far."""

    @property
    def used_names(self) -> set[str]:
        """Declared names met in use (for the unused-name lint): a pass adds those it meets."""

    @property
    def zones(self) -> Mapping[str, m.Zone]:
        """The zones the file declares, by name."""

    @property
    def suits(self) -> Mapping[str, m.SuitDecl]:
        """The deck's suits, by name."""

    @property
    def env(self) -> Mapping[str, Type]:
        """The names defined everywhere in the file (options, zones, roles, built-ins...) and their types."""

    @property
    def variables(self) -> Mapping[str, Type]:
        """The deal's variables (`let`) and their types."""

    @property
    def declared(self) -> frozenset[str]:
        """Every name the file declares (a built-in name of the same spelling gives way to it)."""

    @property
    def shadowing_reported(self) -> set[str]:
        """Variables already reported as shadowing a name (reported once each)."""

    def error(self, code: str, message: str, span: m.Span | None, hint: str = "") -> None:
        """Report an error."""

    def warn(self, code: str, message: str, span: m.Span | None, hint: str = "") -> None:
        """Report a warning."""

    def construct(self, key: str, span: m.Span | None) -> None:
        """Note a construct only a pass can name (see :mod:`tricklang.support`)."""

    def name_declared_as(self, name: str) -> str:
        """What an already declared name is, for messages ("the zone 'won'")."""

    def _type(self, e: m.Expr, scope: Scope, report: bool = True) -> Type:
        """The type of an expression, reporting what is wrong in it."""

    def _expect(self, e: m.Expr, wanted: Type, scope: Scope, report: bool = True) -> None:
        """Report an expression that is not of the type ``wanted``."""

    def _seat(self, e: m.Expr, scope: Scope) -> None:
        """Report an expression that is not a player who can act (not `nobody`)."""

    def _not_nobody(self, e: m.Expr, what: str) -> None:
        """Report ``e`` if it is `nobody`, which cannot be ``what``."""

    def _suggest(self, name: str, scope: Scope) -> str:
        """``did you mean 'X'?`` for an unknown name, from the names in ``scope``."""

    def _closest(self, word: str, candidates: tuple[str, ...]) -> str:
        """``did you mean 'X'?`` for the candidate closest to ``word``."""

    def _check_pattern(self, p: m.Pattern, report: bool = True, scope: Scope | None = None, fixed: bool = False) -> None:
        """Check a card pattern (``fixed``: one the runtime compiles to a fixed table)."""

    def _declaration_names(self) -> set[str]:
        """The names of the declarations of the file's trick play."""


class StatementsContext(Protocol):
    """The statement pass as the passes it delegates to (trick play, auctions) see it."""

    @property
    def c(self) -> CheckerContext:
        """The checker, for reporting and typing."""

    def block(self, stmts: Iterable[m.Statement], scope: Scope) -> None:
        """Check a block of statements in ``scope``."""

    def _step(self, step: m.Expr | None, scope: Scope) -> None:
        """Check an auction's bid step."""
