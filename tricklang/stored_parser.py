"""Lark plugins that make a parser rebuilt from stored tables quick to start.

Lark's contextual lexer compiles, on first use of each parser state's set of acceptable
terminals, one regular expression alternating all of them (107 large compilations to
read ``rules/ecarte.trick``, about a tenth of a cold ``check``), and rebuilds
the LALR table from its serialisation one memo reference at a time. These replacements,
given to Lark through its ``_plugins`` option (the hook Lark has for drop-in classes),
do neither and read every text exactly as Lark's own classes do:

* :class:`OrderedScanner` stands for ``lark.lexer.Scanner``: instead of compiling the
  alternation ``(?P<A>a)|(?P<B>b)|...`` it tries the terminals one by one in the same
  order, each a literal or its own (small, shared) compiled pattern, and returns the
  first that matches: what the alternation matches, since Python tries a top-level
  alternation's branches left to right. Only the terminals whose first character can be
  the text's are tried (a literal's first character is known; a pattern is always tried).
* :class:`LazyContextualLexer` makes each set's lexer on first use, not 222 at start.
* :class:`StoredLALRParser` rebuilds the table from its compact stored form
  (:func:`compact`): each state's row by one ``dict(zip(...))``, each action made once.

And :func:`load` rebuilds the parser itself: the terminals and rules of the stored memo
made by :func:`decode_memo` (the objects Lark's own deserialisation makes, without its
generic walk of every field), and a rule's tree-building callback made when the rule is
first reduced (:class:`StoredLark`), not all 689 at start.

They are used only with the tables' own Lark version and form (see
:func:`tricklang.parser.stored_tables_match`). ``tests/language/test_stored_parser.py``
compares each state's lexer with Lark's, and the decoded memo and table with Lark's own
deserialisation of the same parser; ``tests/language/test_parse_tables.py`` whole parses
of every rule file of the repository and of mangled ones (trees, tokens and their places,
errors).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Collection
from copy import copy
from typing import Any

from lark import Lark, Tree
from lark.common import LexerConf
from lark.grammar import NonTerminal, Rule, RuleOptions, Terminal
from lark.lexer import (
    AbstractBasicLexer,
    BasicLexer,
    CallChain,
    ContextualLexer,
    PatternRE,
    PatternStr,
    TerminalDef,
    UnlessCallback,
)
from lark.parse_tree_builder import ParseTreeBuilder
from lark.parser_frontends import _get_lexer_callbacks
from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
from lark.parsers.lalr_parser import LALR_Parser, _Parser
from lark.utils import TextSlice

_Step = tuple[str, str, "re.Pattern[str] | None"]
"""A terminal as :class:`OrderedScanner` tries it: its name, its literal text (``""`` for a
pattern) and its compiled pattern (``None`` for a literal)."""

_COMPILED: dict[str, re.Pattern[str]] = {}
"""Each terminal pattern compiled once for every scanner of the process."""

_EMBEDS: dict[tuple[str, str], bool] = {}
"""Whether a pattern (first) matches the whole of a literal (second), as Lark asks it."""


def _compiled(regexp: str) -> re.Pattern[str]:
    found = _COMPILED.get(regexp)
    if found is None:
        found = _COMPILED[regexp] = re.compile(regexp)
    return found


class OrderedScanner:
    """``lark.lexer.Scanner`` without the alternation: the same matches, terminal by terminal."""

    def __init__(self, terminals: list[TerminalDef]) -> None:
        self.terminals = terminals
        self.allowed_types = {t.name for t in terminals}
        self._steps: list[_Step] = [
            (t.name, "", _compiled(t.pattern.to_regexp())) if isinstance(t.pattern, PatternRE)
            else (t.name, t.pattern.value, None)
            for t in terminals
        ]
        self._by_char: dict[str, list[_Step]] = {}

    def _steps_for(self, char: str) -> list[_Step]:
        steps = [s for s in self._steps if s[2] is not None or s[1][0] == char]
        self._by_char[char] = steps
        return steps

    def match(self, text: TextSlice[str], pos: int) -> tuple[str, str] | None:
        """The first terminal (in order) matching at ``pos``: its text and its name."""
        source, end = text.text, text.end
        steps = self._by_char.get(source[pos]) or self._steps_for(source[pos])
        for name, literal, pattern in steps:
            if pattern is None:
                if source.startswith(literal, pos, end):
                    return literal, name
            else:
                found = pattern.match(source, pos, end)
                if found:
                    return found.group(0), name
        return None

    def fullmatch(self, text: str) -> str | None:
        """The name of the first terminal (in order) matching the whole of ``text``."""
        for name, literal, pattern in self._steps:
            if (text == literal) if pattern is None else pattern.fullmatch(text):
                return name
        return None


def _create_unless(terminals: list[TerminalDef]) -> tuple[list[TerminalDef], dict[str, Any]]:
    """``lark.lexer._create_unless`` with :class:`OrderedScanner`: the literals a pattern of
    the same priority matches in full (keywords, for ``NAME``) are left out of the scan and
    become that pattern's callback, which retypes a token equal to one of them."""
    patterns = [t for t in terminals if isinstance(t.pattern, PatternRE)]
    literals = [t for t in terminals if not isinstance(t.pattern, PatternRE)]
    embedded: set[TerminalDef] = set()
    callback: dict[str, Any] = {}
    for retok in patterns:
        regexp = retok.pattern.to_regexp()
        unless = []
        for strtok in literals:
            if strtok.priority != retok.priority:
                continue
            key = (regexp, strtok.pattern.value)
            if key not in _EMBEDS:
                found = _compiled(regexp).match(strtok.pattern.value)
                _EMBEDS[key] = found is not None and found.group(0) == strtok.pattern.value
            if _EMBEDS[key]:
                unless.append(strtok)
                if set(strtok.pattern.flags) <= set(retok.pattern.flags):
                    embedded.add(strtok)
        if unless:
            callback[retok.name] = UnlessCallback(OrderedScanner(unless))  # type: ignore[arg-type]
    return [t for t in terminals if t not in embedded], callback


class OrderedLexer(BasicLexer):
    """Lark's basic lexer, scanning with :class:`OrderedScanner`."""

    def _build_scanner(self) -> Any:
        terminals, self.callback = _create_unless(list(self.terminals))
        for type_, f in self.user_callbacks.items():  # none in tricklang; as Lark chains them
            if type_ in self.callback:
                self.callback[type_] = CallChain(  # type: ignore[no-untyped-call]
                    self.callback[type_], f, lambda t, k=type_: t.type == k)
            else:
                self.callback[type_] = f
        return OrderedScanner(terminals)


def usable(conf: LexerConf) -> bool:
    """Whether :class:`OrderedScanner` reads as Lark does with this configuration: plain
    ``re`` on text, no global or per-terminal flags, no numbered back-references."""
    return (conf.re_module is re and not conf.use_bytes and not conf.g_regex_flags
            and not any(t.pattern.flags or re.search(r"\\[1-9]|\(\?P=", t.pattern.value) for t in conf.terminals))


class _LexersByState(dict[int, AbstractBasicLexer]):
    """Each parser state's lexer, made when the state is first met."""

    def __init__(self, owner: LazyContextualLexer) -> None:
        super().__init__()
        self.owner = owner

    def __missing__(self, state: int) -> AbstractBasicLexer:
        lexer = self[state] = self.owner.lexer_for(state)
        return lexer


class LazyContextualLexer(ContextualLexer):
    """Lark's contextual lexer, each state's lexer (an :class:`OrderedLexer`) made on first use."""

    BasicLexer = OrderedLexer

    def __init__(self, conf: LexerConf, states: dict[int, Collection[str]],
                 always_accept: Collection[str] = ()) -> None:
        self._conf = copy(conf)
        self._conf.terminals = list(conf.terminals)
        self._states = states
        self._extra = set(conf.ignore) | set(always_accept)
        self._by_accepts: dict[frozenset[str], AbstractBasicLexer] = {}
        self._lexer_class = OrderedLexer if usable(conf) else BasicLexer
        self.lexers = _LexersByState(self)
        self.root_lexer = self._lexer_class(self._conf)  # all terminals: for error messages, as Lark has it

    def lexer_for(self, state: int) -> AbstractBasicLexer:
        """The lexer of the terminals ``state`` accepts (shared by states accepting the same)."""
        key = frozenset(self._states[state])
        lexer = self._by_accepts.get(key)
        if lexer is None:
            conf = copy(self._conf)
            by_name = conf.terminals_by_name
            conf.terminals = [by_name[n] for n in key | self._extra if n in by_name]
            lexer = self._by_accepts[key] = self._lexer_class(conf)
        return lexer


class StoredLALRParser(LALR_Parser):
    """Lark's LALR parser, its table rebuilt from the stored (:func:`compact`) one: each
    state's row made by ``dict(zip(...))`` from its token names and action codes, the
    actions (one a target state, one a rule) made once each."""

    @classmethod
    def deserialize(  # type: ignore[override]  # as LALR_Parser.deserialize
        cls, data: Any, memo: Any, callbacks: Any, debug: bool = False
    ) -> StoredLALRParser:
        rows = data["states"]
        actions: list[tuple[Any, Any] | None] = [None] * (2 * max(len(rows), len(memo)))
        actions[0::2] = [(Shift, state) for state in range(len(actions) // 2)]
        for key, value in memo.items():
            if isinstance(value, Rule):
                actions[2 * key + 1] = (Reduce, value)
        states = {state: dict(zip(names, map(actions.__getitem__, codes), strict=True))
                  for state, (names, codes) in enumerate(rows)}
        if any(None in row.values() for row in states.values()):
            raise ValueError("stored parse tables reduce by something that is not a rule")
        inst = cls.__new__(cls)
        inst._parse_table = IntParseTable(  # type: ignore[no-untyped-call, assignment]
            states, data["start_states"], data["end_states"])
        inst.parser = _Parser(inst._parse_table, callbacks, debug)
        return inst


PLUGINS = {"ContextualLexer": LazyContextualLexer, "LALR_Parser": StoredLALRParser}
"""The ``_plugins`` option of a parser loaded from stored tables."""


# ---------------------------------------------------------------- the parser from stored tables
TABLES_FORMAT = 2
"""The form of stored tables :func:`load` reads (a tables module's ``FORMAT``): Lark's
serialisation made compact by :func:`compact`."""


def compact(data: dict[str, Any], memo: dict[int, Any]) -> tuple[dict[str, Any], tuple[Any, ...]]:
    """Lark's serialisation of an LALR parser (``Lark.memo_serialize``: its data and its memo)
    in the form stored in a tables module, plain literals that load quickly:

    * the parser's states, a tuple in state order of ``(token names, action codes)``, the
      code of a shift to state ``s`` being ``2 * s``, of a reduction by the rule at ``memo[r]``
      ``2 * r + 1`` (Lark's: a dictionary per state, by token number, of ``(0, s)`` or
      ``(1, {"@": r})``);
    * the memo, a tuple in memo order: a terminal as ``("T", name, "str" or "re", value,
      flags, raw, width, priority)``, a rule as ``("R", origin, expansion, order, alias,
      options)``, each symbol of the expansion a name (a rule's) or ``(name, filter_out)`` (a
      terminal's), the options ``(keep_all_tokens, expand1, priority, template_source,
      empty_indices)``.

    The rest of ``data`` is Lark's. :func:`decode_memo` and :class:`StoredLALRParser` read it back.

    Raises:
        ValueError: the memo holds something else than terminals and rules, or is not
            numbered from 0.
    """
    table = data["parser"]["parser"]
    tokens = table["tokens"]
    states = []
    for state in range(len(table["states"])):
        row = table["states"][state]
        names = tuple(tokens[token] for token in row)
        codes = tuple(2 * arg if action == 0 else 2 * arg["@"] + 1 for action, arg in row.values())
        states.append((names, codes))
    out = {**data, "parser": {**data["parser"], "parser": {**table, "states": tuple(states)}}}
    if sorted(memo) != list(range(len(memo))):
        raise ValueError("the memo is not numbered from 0")
    return out, tuple(_compact_entry(memo[key]) for key in range(len(memo)))


def _compact_entry(entry: dict[str, Any]) -> tuple[Any, ...]:
    kind = entry["__type__"]
    if kind == "TerminalDef":
        pattern = entry["pattern"]
        form = {"PatternStr": "str", "PatternRE": "re"}[pattern["__type__"]]
        width = tuple(pattern["_width"]) if form == "re" else None
        return ("T", entry["name"], form, pattern["value"], tuple(pattern["flags"]), pattern["raw"], width,
                entry["priority"])
    if kind == "Rule":
        def symbol(s: dict[str, Any]) -> str | tuple[str, bool]:
            return (s["name"], s["filter_out"]) if s["__type__"] == "Terminal" else s["name"]

        o = entry["options"]
        if entry["origin"]["__type__"] != "NonTerminal" or o["__type__"] != "RuleOptions":
            raise ValueError(f"not a rule of an LALR parser: {entry!r}")
        options = (o["keep_all_tokens"], o["expand1"], o["priority"], o["template_source"], tuple(o["empty_indices"]))
        return ("R", entry["origin"]["name"], tuple(symbol(s) for s in entry["expansion"]), entry["order"],
                entry["alias"], options)
    raise ValueError(f"not a terminal or a rule: {kind!r}")


def _made(cls: type[Any], **fields: Any) -> Any:
    """An object made as ``Serialize.deserialize`` makes it: no ``__init__``, the fields set."""
    inst = object.__new__(cls)
    for name, value in fields.items():
        setattr(inst, name, value)
    return inst


def decode_memo(memo: tuple[Any, ...]) -> dict[int, Any]:
    """The objects of a stored memo (:func:`compact`'s second half: terminal definitions and
    rules), each made as ``Lark._load`` makes it from Lark's own memo (the same classes, the
    same fields: lists where Lark has lists), by memo number. A grammar symbol is made once
    and shared by the rules that name it (symbols are values: Lark compares them by name).

    Raises:
        ValueError: an entry is neither a terminal nor a rule.
    """
    out: dict[int, Any] = {}
    symbols: dict[Any, Any] = {}
    for key, entry in enumerate(memo):
        if entry[0] == "R":
            _, origin, expansion, order, alias, options = entry
            made = []
            for s in expansion:
                symbol = symbols.get(s)
                if symbol is None:
                    symbol = symbols[s] = (_made(NonTerminal, name=s) if isinstance(s, str)
                                           else _made(Terminal, name=s[0], filter_out=s[1]))
                made.append(symbol)
            head = symbols.get(origin)
            if head is None:
                head = symbols[origin] = _made(NonTerminal, name=origin)
            rule = object.__new__(Rule)
            rule.origin, rule.expansion, rule.order, rule.alias = head, made, order, alias
            rule.options = option = object.__new__(RuleOptions)
            (option.keep_all_tokens, option.expand1, option.priority, option.template_source,
             option.empty_indices) = options
            rule._deserialize()  # type: ignore[no-untyped-call]  # (its hash, as Lark sets it)
            out[key] = rule
        elif entry[0] == "T":
            _, name, form, value, flags, raw, width, priority = entry
            if form == "re":
                pattern = _made(PatternRE, value=value, flags=list(flags), raw=raw, _width=list(width))
            elif form == "str":
                pattern = _made(PatternStr, value=value, flags=list(flags), raw=raw)
            else:
                raise ValueError(f"not a kind of terminal pattern: {form!r}")
            out[key] = _made(TerminalDef, name=name, pattern=pattern, priority=priority)
        else:
            raise ValueError(f"not a terminal or a rule: {entry[0]!r}")
    return out


class _LazyCallbacks(dict[Any, Any]):
    """Each rule's tree-building callback (``ParseTreeBuilder.create_callback``'s, for that
    rule alone), made when the parser first reduces it."""

    def __init__(self, builder: ParseTreeBuilder, transformer: Any) -> None:
        super().__init__()
        self.builder = builder
        self.transformer = transformer
        self.lock = threading.Lock()
        """Held while the builder makes one rule's callback: it is told the rule by setting its
        ``rule_builders``, and a parse may run outside the parser's lock (the interactive
        parser's ``accepts()`` does)."""

    def __missing__(self, rule: Rule) -> Any:
        if not isinstance(rule, Rule):
            raise KeyError(rule)
        with self.lock:
            made = self.get(rule)
            if made is None:
                builder = self.builder
                builder.rule_builders = list(builder._init_builders([rule]))  # type: ignore[no-untyped-call]
                made = self[rule] = builder.create_callback(self.transformer)[rule]  # type: ignore[no-untyped-call]
        return made

    def __bool__(self) -> bool:  # (the parser calls the callbacks only when there are any)
        return True


class StoredLark(Lark):
    """A Lark parser loaded from stored tables whose rules' callbacks are made on first use."""

    def _prepare_callbacks(self) -> None:
        options = self.options
        if options.ambiguity == "forest" or options.parser != "lalr" or options.transformer is not None:
            super()._prepare_callbacks()
            return
        self._parse_tree_builder = ParseTreeBuilder(  # type: ignore[no-untyped-call]
            [], options.tree_class or Tree, options.propagate_positions, False, options.maybe_placeholders)
        self._callbacks = _LazyCallbacks(self._parse_tree_builder, options.transformer)
        self._callbacks.update(_get_lexer_callbacks(  # type: ignore[no-untyped-call]  # (none: as Lark does)
            options.transformer, self.terminals))


def load(data: dict[str, Any], memo: tuple[Any, ...], **options: Any) -> Lark:
    """The parser of stored tables (``DATA`` and ``MEMO`` of a tables module: Lark's
    serialisation made :func:`compact`), as ``Lark._load_from_dict`` rebuilds it from Lark's
    own, with :data:`PLUGINS`: the memo decoded by :func:`decode_memo`, the states by
    :class:`StoredLALRParser`, the callbacks made on first use (:class:`StoredLark`).
    ``options``: Lark's options allowed when loading (``postlex``...).

    Raises:
        ValueError: the tables hold something else than terminals and rules, or reduce by
            something that is not a rule.
    """
    loaded: Lark = StoredLark._load_from_dict(  # type: ignore[no-untyped-call]
        data, decode_memo(memo), _plugins=PLUGINS, **options)
    return loaded
