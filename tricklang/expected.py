"""What the grammar accepts at a point of a rule file (the language server's completion):
Lark's interactive parser fed the text up to a cursor, then asked which tokens may come
next, and the keyword phrases they start."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput
from lark.indenter import DedentError

from .parser import _PARSER_LOCK, _lark


class Expected(NamedTuple):
    """What the grammar accepts right after a text (see :func:`expected_after`)."""

    phrases: tuple[str, ...]
    """Keyword phrases: each run of keywords the grammar allows from here, as far as it goes
    while nothing but keywords may follow (``follow suit``, ``trump if void``)."""
    others: frozenset[str]
    """The other terminals it accepts here (``NAME``, ``INT``, ``STRING``, ``_NL``, ``COLON``...)."""


MAX_PHRASE_WORDS = 8
MAX_PHRASES = 80
_WORD = re.compile(r"[A-Za-z_]+")


@lru_cache(maxsize=1)
def _keyword_terminals() -> dict[str, str]:
    """The grammar's keywords: terminal name to word (``MUST`` to ``must``)."""
    return {t.name: str(t.pattern.value) for t in _lark().terminals
            if t.pattern.type == "str" and _WORD.fullmatch(str(t.pattern.value))}


def expected_after(source: str) -> Expected | None:
    """What the grammar accepts right after ``source``, the text of a rule file up to a
    point (a cursor: its last line need not end), from Lark's interactive parser; None
    when the text does not parse as far as it goes (an error before that point).

    >>> expected_after("tricklang 1\\ndeal\\n  tricks 3, dealer leads first\\n    must ").phrases
    ('beat if able', 'follow suit', 'lead', 'overtrump if able', 'trump if void')
    """
    keywords = _keyword_terminals()
    if "\0" in source:
        return None
    with _PARSER_LOCK:  # the parser's indenter keeps state while it runs
        # A NUL no terminal accepts ends the text where it is: the lexer stops there, before
        # the indenter would close the open blocks at the end of the text (the cursor is in them).
        interactive = _lark().parse_interactive(source + "\0")
        try:
            for _ in interactive.iter_parse():
                pass
        except UnexpectedCharacters as err:
            if err.pos_in_stream != len(source):
                return None
        except (UnexpectedInput, DedentError):
            return None
        else:
            return None  # (not reached: the NUL is never a token)
    accepted: set[str] = interactive.accepts()  # type: ignore[no-untyped-call]
    phrases: list[str] = []

    def extend(state: object, words: list[str], terminals: set[str]) -> None:
        if len(phrases) >= MAX_PHRASES:
            return
        others = {t for t in terminals if t not in keywords}
        if words and (others or not terminals or len(words) >= MAX_PHRASE_WORDS):
            phrases.append(" ".join(words))
            return
        for name in sorted(t for t in terminals if t in keywords):
            branch = state.copy()  # type: ignore[attr-defined]
            branch.feed_token(Token(name, keywords[name]))
            extend(branch, [*words, keywords[name]], branch.accepts())

    extend(interactive, [], accepted)
    return Expected(tuple(sorted(set(phrases))), frozenset(t for t in accepted if t not in keywords))
