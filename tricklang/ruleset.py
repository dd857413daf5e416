"""A checked rule file with its option values bound: what the interpreter runs."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from . import model as m
from .checker import check
from .deck import card_codes
from .diagnostics import Diagnostic, OptionError, RulesError
from .extend import MAX_EXTENDS_DEPTH, merge
from .parser import parse

OptionValue = int | bool | str


class Ruleset(BaseModel):
    """A parsed and checked rule file, with every option given a value.

    Build one with :func:`tricklang.load`; derive a variant with :meth:`with_options`.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    rules: m.RuleFile
    source: str
    path: str
    options: dict[str, OptionValue]
    warnings: tuple[Diagnostic, ...] = ()
    bases: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """The game's name, from the `game` line."""
        return self.rules.game or "?"

    @property
    def digest(self) -> str:
        """SHA-256 of the rule file's text, to tie records to the exact rules."""
        digest = hashlib.sha256(self.source.encode("utf-8"))
        for base in self.bases:  # a variant is tied to the text of what it extends too
            digest.update(b"\0" + base.encode("utf-8"))
        return digest.hexdigest()

    @property
    def player_count(self) -> int:
        assert self.rules.players is not None
        return self.rules.players.count

    @property
    def cards(self) -> list[str]:
        """Every card code of the deck, suit by suit, ranks high to low."""
        assert self.rules.deck is not None
        return card_codes(self.rules.deck)

    def option_specs(self) -> tuple[m.Option, ...]:
        """The declared options (name, type, default, range, doc, law)."""
        return self.rules.options

    def with_options(self, options: Mapping[str, Any] | None) -> Ruleset:
        """Return the same rules with some options changed.

        Raises:
            OptionError: an unknown option, or a value of the wrong type or range.
        """
        if not options:
            return self
        values = dict(self.options)
        values.update(bind_options(self.rules.options, options))
        return self.model_copy(update={"options": values})

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != _defaults(self.rules)[k]}
        return f"<Ruleset {self.name!r} from {self.path!r}" + (f" options={changed}>" if changed else ">")


def _defaults(rules: m.RuleFile) -> dict[str, OptionValue]:
    return {o.name: o.default for o in rules.options}


def parse_option_value(spec: m.Option, value: Any) -> OptionValue:
    """Convert and validate one option value (a Python value or CLI text).

    Raises:
        OptionError: naming the option, the value and what was expected.
    """
    name = spec.name
    if spec.type == "bool":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no", "1", "0", "on", "off"):
            return value.lower() in ("true", "yes", "1", "on")
        raise OptionError(f"option '{name}' is a bool (true or false), not {value!r}")
    if spec.type == "int":
        if isinstance(value, bool):
            raise OptionError(f"option '{name}' is a number, not {value!r}")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise OptionError(f"option '{name}' is a number, not {value!r}") from None
        if not isinstance(value, int):
            raise OptionError(f"option '{name}' is a number, not {value!r}")
        if spec.low is not None and spec.high is not None and not spec.low <= value <= spec.high:
            raise OptionError(f"option '{name}' must be in {spec.low}..{spec.high}, not {value}")
        return value
    if not isinstance(value, str) or value not in spec.choices:
        raise OptionError(f"option '{name}' must be one of {', '.join(spec.choices)}, not {value!r}")
    return value


def bind_options(specs: tuple[m.Option, ...], given: Mapping[str, Any]) -> dict[str, OptionValue]:
    """Validate a mapping of option values against the declared options.

    Raises:
        OptionError: for an unknown option name or a bad value.
    """
    if not isinstance(given, Mapping):
        raise OptionError(f"options must be a mapping of names to values, not {given!r}")
    by_name = {o.name: o for o in specs}
    out: dict[str, OptionValue] = {}
    for key, value in given.items():
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown option '{key}' (this rule file's options: {known})")
        out[key] = parse_option_value(spec, value)
    return out


def _read(file: Path) -> str:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise RulesError([Diagnostic("unreadable-file", f"cannot read rule file: {reason}", path=str(file))]) from None


def _resolve(text: str, where: str, depth: int, chain: tuple[str, ...]) -> tuple[m.RuleFile, list[str], list[Diagnostic]]:
    """Parse a rule file and apply it over its base (if it `extends` one), recursively.

    Returns the merged rules, the texts of the bases, and the merge diagnostics.
    """
    rules = parse(text, where)
    if rules.extends is None:
        return rules, [], []
    span = rules.extends_span
    line, col = (span.line, span.column) if span else (0, 0)
    base_dir = Path(where).parent if where not in ("<string>", "") else Path(".")
    base_file = (base_dir / rules.extends).resolve()
    if depth >= MAX_EXTENDS_DEPTH or str(base_file) in chain:
        reason = "extends itself" if str(base_file) in chain else f"extends more than {MAX_EXTENDS_DEPTH} levels deep"
        raise RulesError([Diagnostic("bad-extends", f"this rule file {reason}", line, col, path=where)], text)
    if not base_file.is_file():
        raise RulesError([Diagnostic("bad-extends", f"cannot find the base rule file '{rules.extends}'", line, col,
                                     hint=f"looked for {base_file}", path=where)], text)
    base_text = _read(base_file)
    base_rules, texts, _ = _resolve(base_text, str(base_file), depth + 1, chain + (str(base_file),))
    base_errors = [d for d in check(base_rules) if d.severity == "error"]
    if base_errors:
        raise RulesError(base_errors, base_text)
    merged, problems = merge(base_rules, rules)
    return merged, [base_text, *texts], problems


def load(source: str | Path, *, options: Mapping[str, Any] | None = None, path: str | None = None) -> Ruleset:
    """Read a rule file from disk, parse and check it.

    A string containing a newline is still taken as rule-file text, as in earlier
    releases; prefer :func:`loads` for text.

    Raises:
        RulesError: the file cannot be read, or has errors (all of them are listed).
        OptionError: an unknown option, or a value of the wrong type or range.
    """
    if isinstance(source, Path) or "\n" not in source:
        text = _read(Path(source))
        return _load_text(text, path or str(source), options)
    return _load_text(source, path or "<string>", options)


def loads(text: str, *, options: Mapping[str, Any] | None = None, path: str | None = None) -> Ruleset:
    """Parse and check rule-file text (``path`` names it in messages and anchors a relative `extends`).

    Raises:
        RulesError: the text has errors (all of them are listed).
        OptionError: an unknown option, or a value of the wrong type or range.
    """
    return _load_text(text, path or "<string>", options)


def _load_text(text: str, where: str, options: Mapping[str, Any] | None) -> Ruleset:
    rules, bases, problems = _resolve(text, where, 0, (str(Path(where).resolve()),))
    found = problems + check(rules)
    errors = [d for d in found if d.severity == "error"]
    warnings = tuple(d for d in found if d.severity == "warning")
    if errors:
        raise RulesError(errors, text, list(warnings))
    values = _defaults(rules)
    ruleset = Ruleset(rules=rules, source=text, path=where, options=values, warnings=warnings, bases=tuple(bases))
    return ruleset.with_options(options)
