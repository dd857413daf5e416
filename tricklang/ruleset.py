"""A checked rule file with its option values bound: what the interpreter runs."""

from __future__ import annotations

import hashlib
import os
import stat
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any, NoReturn, cast

from pydantic import BaseModel, ConfigDict, Field, SkipValidation, field_validator, model_validator

from . import catalog
from . import model as m
from .card_counts import option_value_problems
from .checker import Checker, check
from .deck import CardModel
from .diagnostics import Diagnostic, OptionError, RulesError, brief, printable
from .extend import MAX_EXTENDS_DEPTH, merge, stamp
from .lints import lint
from .parser import MAX_SOURCE_BYTES, parse
from .safety import check_safety
from .types import Symbols

OptionValue = int | bool | str


class OptionValues(dict[str, OptionValue]):
    """A ruleset's option values, by name: a dict that refuses changes, as the ruleset is
    frozen (:meth:`Ruleset.with_options` makes a ruleset with other values), so that the game
    made once for a ruleset (``interpreter.Game.of``) stays the game of its values.

    Raises:
        TypeError: on any change (``values[name] = v``, ``del``, ``update``, ``pop``...).
    """

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("a ruleset's option values cannot be changed: Ruleset.with_options makes a ruleset "
                        "with other values")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __reduce__(self) -> tuple[type[OptionValues], tuple[dict[str, OptionValue]]]:
        return (OptionValues, (dict(self),))


class Ruleset(BaseModel):
    """A parsed and checked rule file, with every option given a value.

    Build one with :func:`tricklang.load`; derive a variant with :meth:`with_options`.
    """

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

    rules: m.RuleFile
    source: str
    path: str
    options: dict[str, OptionValue]
    """Every option's value, by name (an :class:`OptionValues`: it cannot be changed)."""
    warnings: tuple[Diagnostic, ...] = ()
    bases: tuple[str, ...] = ()
    symbols: SkipValidation[Symbols] = Field(default=cast(Symbols, None), repr=False)
    """The checker's symbol table: the type of every name and variable (see :mod:`tricklang.types`)."""

    @model_validator(mode="before")
    @classmethod
    def _symbol_table(cls, data: Any) -> Any:
        """A Ruleset built without the loader gets its symbol table from the checker here."""
        if isinstance(data, dict) and data.get("symbols") is None and isinstance(data.get("rules"), m.RuleFile):
            checker = Checker(data["rules"])
            checker.run()
            data = {**data, "symbols": checker.symbols}
        return data

    @field_validator("options", mode="after")
    @classmethod
    def _frozen_options(cls, values: dict[str, OptionValue]) -> dict[str, OptionValue]:
        return OptionValues(values)

    @property
    def name(self) -> str:
        """The game's name, from the `game` line (control characters escaped)."""
        return printable(self.rules.game or "?")

    @cached_property
    def digest(self) -> str:
        """SHA-256 of the rule file's text, to tie records to the exact rules."""
        return digest_of(self.source, self.bases)

    @property
    def player_count(self) -> int:
        assert self.rules.players is not None
        return self.rules.players.count

    @property
    def cards(self) -> list[str]:
        """Every card code of the pack, suit by suit, ranks high to low, less the cards ``remove``d,
        then the extra cards (``card joker "JK"``); a face with copies once."""
        assert self.rules.deck is not None
        return CardModel(self.rules.deck).face_codes

    def option_specs(self) -> tuple[m.Option, ...]:
        """The declared options (name, type, default, range, doc, law)."""
        return self.rules.options

    def with_options(self, options: Mapping[str, Any] | None) -> Ruleset:
        """Return the same rules with some options changed.

        Raises:
            OptionError: an unknown option, or a value of the wrong type or range, or
                values the rules cannot play: dealing or turning up more cards than
                the deck holds (checked here, before any code is generated for them).
        """
        if not options:
            return self
        values = dict(self.options)
        values.update(bind_options(self.rules.options, options))
        rules = seated(self.rules, values)
        if values != self.options:
            problems = option_value_problems(rules, values)
            if problems:
                raise OptionError(printable(problems[0]))
        return self.model_copy(update={"options": OptionValues(values), "rules": rules})

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.options.items() if v != _defaults(self.rules)[k]}
        return f"<Ruleset {self.name!r} from {self.path!r}" + (f" options={changed}>" if changed else ">")


def digest_of(source: str, bases: Sequence[str] = ()) -> str:
    """SHA-256 of a rule text and the texts it extends (:attr:`Ruleset.digest`)."""
    digest = hashlib.sha256(source.encode("utf-8", "surrogatepass"))
    for base in bases:  # a variant is tied to the text of what it extends too
        digest.update(b"\0" + base.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def seated(rules: m.RuleFile, values: Mapping[str, OptionValue]) -> m.RuleFile:
    """The rules with as many players as the option ``players`` says, when the file declares a range
    (`players 3..7 = 4`, design 3.10): every value plays as a file that says `players N`."""
    p = rules.players
    if p is None or p.kind != "range" or values.get("players", p.count) == p.count:
        return rules
    count = values["players"]
    assert isinstance(count, int)
    return rules.model_copy(update={"players": p.model_copy(update={"count": count})})


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
        raise OptionError(f"option '{name}' is a bool (true or false), not {brief(value)}")
    if spec.type == "int":
        if isinstance(value, bool):
            raise OptionError(f"option '{name}' is a number, not {brief(value)}")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise OptionError(f"option '{name}' is a number, not {brief(value)}") from None
        if not isinstance(value, int):
            raise OptionError(f"option '{name}' is a number, not {brief(value)}")
        if spec.low is not None and spec.high is not None and not spec.low <= value <= spec.high:
            raise OptionError(f"option '{name}' must be in {spec.low}..{spec.high}, not {brief(value)}")
        return value
    if not isinstance(value, str) or value not in spec.choices:
        raise OptionError(f"option '{name}' must be one of {', '.join(spec.choices)}, not {brief(value)}")
    return value


def bind_options(specs: tuple[m.Option, ...], given: Mapping[str, Any]) -> dict[str, OptionValue]:
    """Validate a mapping of option values against the declared options.

    Raises:
        OptionError: for an unknown option name or a bad value.
    """
    if not isinstance(given, Mapping):
        raise OptionError(f"options must be a mapping of names to values, not {brief(given)}")
    by_name = {o.name: o for o in specs}
    out: dict[str, OptionValue] = {}
    for key, value in given.items():
        spec = by_name.get(key)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"unknown option {brief(key)} (this rule file's options: {known})")
        out[key] = parse_option_value(spec, value)
    return out


MAX_EXTENDS_NAME = 255
"""Longest `extends` target accepted, in characters."""


MAX_SHOWN_NAME = 200
"""Longest file name quoted whole in a message about reading it, in characters."""


def read_limited(file: Path, what: str = "rule file", limit: int = MAX_SOURCE_BYTES, shown: str | None = None) -> str:
    """Read a regular file of at most ``limit`` bytes (never more than ``limit`` + 1 are read).

    FIFOs, devices and directories are refused without blocking; a UTF-8
    byte-order mark is accepted. ``shown`` names the file in messages (default: as given).

    Raises:
        RulesError: ``unreadable-file`` (missing, not a regular file, not UTF-8) or
            ``too-large``.
    """
    name = str(file) if shown is None else shown
    if len(name) > MAX_SHOWN_NAME:  # a name too long to be a file's is not echoed whole
        name = name[: MAX_SHOWN_NAME // 2] + "…" + name[-MAX_SHOWN_NAME // 4:]
    raw = b""
    try:
        if not str(file) or "\0" in str(file):
            raise OSError(0, "not a file name" if not str(file) else "a file name with a NUL character")
        fd = os.open(file, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
                raise OSError(0, kind)
            if info.st_size <= limit:
                raw = os.read(fd, limit + 1)
            if info.st_size > limit or len(raw) > limit:
                raise RulesError([Diagnostic("too-large", f"{what} is larger than {limit} bytes", path=name)])
        finally:
            os.close(fd)
        return raw.decode("utf-8")
    except (OSError, ValueError) as err:  # ValueError: UnicodeDecodeError, a path too odd for the OS
        if isinstance(err, UnicodeDecodeError):
            reason = f"not UTF-8 text (byte {err.start})"
        elif isinstance(err, OSError):
            reason = err.strerror or type(err).__name__
        else:
            reason = "a file name the system does not accept"
        raise RulesError([Diagnostic("unreadable-file", f"cannot read {what}: {reason}", path=name)]) from None


def _read(file: Path) -> str:
    return read_limited(file)


def bundled_folders() -> tuple[Path, ...]:
    """Folders whose rule files any rule file may extend: the games shipped with tricklang
    (:func:`tricklang.catalog.folders`) and, when tricklang runs from a source checkout,
    that checkout's ``rules/`` and ``examples/``."""
    package = Path(__file__).resolve().parent
    found = list(catalog.folders())
    if (package.parent / "pyproject.toml").is_file():
        found += [package.parent / "rules", package.parent / "examples"]
    return tuple(dict.fromkeys(p.resolve() for p in found if p.is_dir()))


def _inside(file: Path, folder: Path) -> bool:
    try:
        file.relative_to(folder)
    except ValueError:
        return False
    return True


def _extends_target(rules: m.RuleFile, where: str, anchor: Path | None, text: str) -> tuple[Path, str]:
    """The base file an `extends` names, confined to the extending file's folder
    (``anchor``; None for text with no file) and the bundled games; and its name
    for messages (as written, relative to the extending file: never a resolved server path).

    Raises:
        RulesError: ``bad-extends``.
    """
    target = rules.extends or ""
    span = rules.extends_span
    line, col = (span.line, span.column) if span else (0, 0)

    def refuse(message: str, hint: str = "") -> RulesError:
        return RulesError([Diagnostic("bad-extends", message, line, col, hint=hint, path=where)], text)

    if len(target) > MAX_EXTENDS_NAME or any(ord(c) < 32 or ord(c) == 127 for c in target):
        raise refuse(f"the base rule file's name is longer than {MAX_EXTENDS_NAME} characters or holds control characters")
    if not target.endswith(".trick"):
        game = catalog.find_bundled(target)
        if game is None:
            raise refuse("a rule file may only extend a '.trick' file or a bundled game",
                          hint='e.g. extends "hearts.trick" or extends "hearts" (tricklang list shows the games)')
        return game, target
    shown = os.path.normpath(os.path.join(os.path.dirname(where), target)) if anchor is not None else target
    bundled = bundled_folders()
    roots = [anchor] if anchor is not None else [f for f in bundled if (f / target).is_file()][:1] or list(bundled[:1])
    try:
        base_file = ((roots[0] if roots else Path.cwd()) / target).resolve()
    except (OSError, ValueError, RuntimeError):
        raise refuse(f"cannot find the base rule file '{target}'") from None
    allowed = ([anchor] if anchor is not None else []) + list(bundled)
    if not any(_inside(base_file, f) for f in allowed):
        raise refuse(f"'{target}' is outside the folders a rule file may extend",
                     hint="extend a rule file in the same folder as this one (or below it), or a bundled game")
    if not base_file.is_file():
        raise refuse(f"cannot find the base rule file '{target}'")
    return base_file, shown


def extended_file(rules: m.RuleFile, path: str, text: str = "") -> Path:
    """The file the `extends` of ``rules`` names, found and confined exactly as loading
    finds it: in the folder of the rule file at ``path`` or below (``"<string>"`` or
    ``""``: text of no file, which may extend only bundled games), or a bundled game.
    For tools that follow a chain of variants without loading it (the language server).

    Raises:
        RulesError: ``bad-extends``: the name is too long or not a ``.trick`` file or
            bundled game, lies outside the folders allowed, or names no file (``text``,
            the extending file's, is what the message quotes).
    """
    return _extends_target(rules, path, _anchor(path), text)[0]


def _looks_like_rules(text: str) -> bool:
    """Whether a file's first line of substance is ``tricklang N`` (else it is never quoted)."""
    for line in text.split("\n"):
        stripped = line.strip().lstrip("\ufeff")
        if stripped and not stripped.startswith("#"):
            return stripped.startswith("tricklang")
    return False


def _with_source_lines(found: list[Diagnostic], sources: dict[str, str]) -> list[Diagnostic]:
    """Diagnostics about inherited code carry the text of their line in the base file."""
    out: list[Diagnostic] = []
    for d in found:
        lines = sources.get(d.path, "").split("\n") if d.note else []
        if not d.source_line and 0 < d.line <= len(lines):
            d = replace(d, source_line=lines[d.line - 1])
        out.append(d)
    return out


def _resolve(text: str, where: str, anchor: Path | None, chain: tuple[str, ...],
             given: tuple[str, ...] | None = None,
             sources: dict[str, str] | None = None,
             files: list[tuple[Path, Path]] | None = None) -> tuple[m.RuleFile, list[str], list[Diagnostic]]:
    """Parse a rule file and apply it over its base (if it `extends` one), recursively.

    ``where`` names the file in messages; ``anchor`` is its real folder (None: text
    with no file); ``given``: the texts of the bases in order (from a saved state),
    used instead of reading any file. Returns the merged rules, the texts of the
    bases, and the merge diagnostics. The base's nodes are marked as written in it (their
    spans name it), ``sources`` collects each base's text under that name, and ``files``
    each base file read, as (the path it was named by, the real path read).
    """
    try:
        rules = parse(text, where)
    except RulesError as err:
        if _looks_like_rules(text):
            raise
        # Not a rule file (a key file, /proc/self/environ...): never quote it.
        raise RulesError([Diagnostic(err.codes[0] if err.codes else "syntax-error",
                                     "not a tricklang rule file (its first line is not 'tricklang N')",
                                     1, 1, path=where)]) from None
    if rules.extends is None:
        return rules, [], []
    span = rules.extends_span
    line, col = (span.line, span.column) if span else (0, 0)

    def refuse(message: str) -> RulesError:
        return RulesError([Diagnostic("bad-extends", message, line, col, path=where)], text)

    if len(chain) > MAX_EXTENDS_DEPTH:
        raise refuse(f"this rule file extends more than {MAX_EXTENDS_DEPTH} levels deep")
    if given is not None:
        if not given:
            raise refuse(f"the text of the base rule file '{rules.extends}' is not given")
        base_text, key, shown, base_anchor, rest = given[0], f"<base {len(chain)}>", rules.extends or "", None, given[1:]
    else:
        base_file, shown = _extends_target(rules, where, anchor, text)
        key, base_anchor, rest = str(base_file), base_file.parent, None
        if key in chain:
            raise refuse("this rule file extends itself")
        base_text = read_limited(base_file, "base rule file", shown=shown)
        if files is not None:
            target = rules.extends or ""
            named = anchor / target if anchor is not None and target.endswith(".trick") else base_file
            files.append((named, base_file))
        if not _looks_like_rules(base_text):
            raise refuse(f"'{rules.extends}' is not a tricklang rule file (its first line is not 'tricklang N')")
    base_rules, texts, _ = _resolve(base_text, shown, base_anchor, chain + (key,), rest, sources, files)
    base_errors = [d for d in check(base_rules) if d.severity == "error"]
    if base_errors:
        raise RulesError(base_errors, base_text)
    if sources is not None:
        sources.setdefault(shown, base_text)
    merged, problems = merge(stamp(base_rules, shown), rules)
    return merged, [base_text, *texts], problems


def load(source: str | Path, *, options: Mapping[str, Any] | None = None, path: str | None = None) -> Ruleset:
    """Read a rule file from disk, or a bundled game by name (``load("ecarte")``), parse
    and check it. A path to an existing file always wins over a name.

    Only a regular file of at most :data:`~tricklang.parser.MAX_SOURCE_BYTES` bytes is
    read (and never more than one byte beyond). Passing rule-file text (a string
    containing a newline) still works for one more release but emits a
    :class:`DeprecationWarning`: use :func:`loads` for text. Safe to call from many
    threads at once.

    Raises:
        RulesError: the file cannot be read (``unreadable-file``), is too large
            (``too-large``), or has errors (all of them are listed).
        OptionError: an unknown option, or a value of the wrong type or range.
        TypeError: ``source`` is not a string or a path.
    """
    if not isinstance(source, (str, Path)):
        raise TypeError(f"load() takes a path or rule text, not {type(source).__name__}")
    if source == "":
        raise RulesError([Diagnostic("unreadable-file", "no rule file named (the path is empty)", path="''")])
    if isinstance(source, Path) or "\n" not in source:
        file = catalog.resolve(source)
        shown = path or str(file if file != Path(source) else source)
        text = read_limited(file, shown=shown or "''")
        return _load_text(text, shown, options, _anchor(str(file)), None)
    warnings.warn(
        "tricklang.load(text) is deprecated: use tricklang.loads(text) for rule text, load(path) for files",
        DeprecationWarning,
        stacklevel=2,
    )
    return loads(source, options=options, path=path)


def loads(text: str, *, options: Mapping[str, Any] | None = None, path: str | None = None,
          bases: Sequence[str] | None = None) -> Ruleset:
    """Parse and check rule-file text.

    ``path`` names it in messages and anchors a relative `extends` (which may only
    name a ``.trick`` file in that folder or below, or a bundled game; text with no
    path may extend only bundled games). ``bases``: the texts of the rule files it
    extends, in order (as :attr:`Ruleset.bases` holds them): then no file is read.

    Raises:
        RulesError: the text has errors (all of them are listed).
        OptionError: an unknown option, or a value of the wrong type or range.
        TypeError: ``text`` is not a string, or ``bases`` not a sequence of strings.
    """
    if not isinstance(text, str):
        raise TypeError(f"loads() takes rule text (a str), not {type(text).__name__}")
    given: tuple[str, ...] | None = None
    if bases is not None:
        if isinstance(bases, str) or not all(isinstance(b, str) for b in bases):
            raise TypeError("bases must be a sequence of rule texts")
        given = tuple(bases)
    where = path or "<string>"
    return _load_text(text, where, options, _anchor(path) if given is None else None, given)


def _anchor(path: str | None) -> Path | None:
    """The real folder a file's relative `extends` are confined to (None: no file)."""
    if not path or path == "<string>" or "\0" in path:
        return None
    try:
        return Path(path).parent.resolve()
    except (OSError, ValueError, RuntimeError):
        return None


def load_tracked(source: str | Path, *, options: Mapping[str, Any] | None = None
                 ) -> tuple[Ruleset, list[tuple[Path, Path]]]:
    """:func:`load` a rule file (a path or a bundled game's name), and say which base
    files it read: (the path each was named by, the real path read), in order.

    Raises:
        RulesError, OptionError, TypeError: as :func:`load`.
    """
    if not isinstance(source, (str, Path)):
        raise TypeError(f"load() takes a path, not {type(source).__name__}")
    if source == "":
        raise RulesError([Diagnostic("unreadable-file", "no rule file named (the path is empty)", path="''")])
    file = catalog.resolve(source)
    shown = str(file if file != Path(source) else source)
    text = read_limited(file, shown=shown or "''")
    files: list[tuple[Path, Path]] = []
    return _load_text(text, shown, options, _anchor(str(file)), None, files), files


def _load_text(text: str, where: str, options: Mapping[str, Any] | None, anchor: Path | None,
               given: tuple[str, ...] | None, files: list[tuple[Path, Path]] | None = None) -> Ruleset:
    if text.startswith("\ufeff"):  # a UTF-8 byte-order mark: accepted
        text = text[1:]
    own = str(anchor / Path(where).name) if anchor is not None else "<top>"
    # parse -> extend (with each base checked) -> check -> lint (and the limits of untrusted input)
    sources: dict[str, str] = {}
    rules, bases, problems = _resolve(text, where, anchor, (own,), given, sources, files)
    checker = Checker(rules)
    found = problems + checker.run()
    if not any(d.severity == "error" for d in found):
        found += lint(rules)  # the lints assume a checked rule file
        found += check_safety(rules)
    found = _with_source_lines(found, sources)
    errors = [d for d in found if d.severity == "error"]
    warnings = tuple(d for d in found if d.severity == "warning")
    if errors:
        raise RulesError(errors, text, list(warnings))
    values = _defaults(rules)
    ruleset = Ruleset.model_construct(rules=rules, source=text, path=where, options=OptionValues(values),
                                      warnings=warnings,
                                      bases=tuple(bases), symbols=checker.symbols)
    return ruleset.with_options(options)
