"""What one checked run found: its violations, the actions that led there, and
Python code to replay them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tricklang.bounds import Bounds

from ..state.state import State


@dataclass(frozen=True)
class Violation:
    """One broken invariant: its code, what happened, and the actions that led there."""

    code: str
    message: str
    step: int
    actions: tuple[str, ...]

    def __str__(self) -> str:
        return f"[{self.code}] after {self.step} action(s): {self.message}"


class InvariantViolationError(AssertionError):
    """Raised by :meth:`Report.raise_if_failed`; the message holds the action list and a replay."""

    def __init__(self, report: Report) -> None:
        super().__init__(report.summary())
        self.report = report


@dataclass
class Report:
    """The outcome of one checked run."""

    path: str
    seed: int
    options: dict[str, Any]
    mode: str
    dealer: int | None
    bounds: Bounds | None
    actions: Sequence[str] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    terminal: bool = False
    deep_steps: int = 0
    steps: int = 0
    seconds: float = 0.0
    state: State | None = field(default=None, repr=False, compare=False)
    source: str = field(default="", repr=False, compare=False)
    selections: str = "all"
    chance: str = "automatic"

    @property
    def ok(self) -> bool:
        return not self.violations

    @property
    def first(self) -> Violation | None:
        return self.violations[0] if self.violations else None

    @property
    def codes(self) -> list[str]:
        return [v.code for v in self.violations]

    def replay_code(self) -> str:
        """Python that re-runs the failing sequence (the actions up to the first violation)."""
        actions = list(self.first.actions) if self.first else self.actions
        opts = f", options={self.options!r}" if self.options else ""
        dealer = f", dealer={self.dealer!r}" if self.dealer is not None else ""
        dealer += f", selections={self.selections!r}" if self.selections != "all" else ""
        dealer += f", chance={self.chance!r}" if self.chance != "automatic" else ""
        loader = "load" if Path(self.path).is_file() or not self.source else "loads"
        where = self.path if loader == "load" else self.source
        return (
            "import tricklang\n"
            "from interpreter.harness import replay\n"
            f"rules = tricklang.{loader}({where!r})\n"
            f"report = replay(rules, {actions!r}, seed={self.seed!r}{opts}, mode={self.mode!r}{dealer})\n"
            "print(report.summary())\n"
        )

    def summary(self) -> str:
        head = (f"{self.path}: seed {self.seed}, mode {self.mode}, options {self.options or 'default'}: "
                f"{self.steps} step(s), {len(self.actions)} action(s)")
        if self.ok:
            return head + ": all invariants hold" + (" (match over)" if self.terminal else "")
        lines = [head + f": {len(self.violations)} violation(s)"]
        lines += ["  " + str(v) for v in self.violations[:10]]
        first = self.first
        assert first is not None
        lines.append(f"shortest failing sequence here ({len(first.actions)} action(s)): {list(first.actions)!r}")
        lines.append("replay with:\n" + self.replay_code())
        return "\n".join(lines)

    def raise_if_failed(self) -> None:
        if not self.ok:
            raise InvariantViolationError(self)


class StopRunError(Exception):
    """Internal: the first violation was found and the run stops there."""
