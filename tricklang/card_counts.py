"""Cards the deal needs, against the deck: what the checker checks with the options'
defaults (``deck-too-small``, ``bad-count``), and :meth:`tricklang.Ruleset.with_options`
with the values given, before any code is generated for them."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from . import model as m
from .deck import deck_size as full_deck_size
from .walk import Value, fold_int, statements
from .walk import nodes as walk_nodes
from .words import plural

Report = Callable[[str, str, "m.Span | None"], None]
"""Where a problem goes: ``error(code, message, span)``."""


def card_count_problems(rules: m.RuleFile, values: Mapping[str, Value], error: Report) -> None:
    """Report (``error(code, message, span)``) where the deal, with these option
    ``values``, deals or turns up more cards than the deck holds, or a negative packet,
    up to the first statement that runs out of cards. A count that depends on more than
    the options is not judged (the runtime stops it: ``RuleRuntimeError``)."""
    if rules.deck is None or rules.players is None:
        return
    deck_size = full_deck_size(rules.deck)
    dealt = 0
    for st in statements(rules.deal):
        if isinstance(st, m.DealCards):
            total = 0
            for p in st.packets:
                v = fold_int(p, values)
                if v is None:
                    return
                if v < 0:
                    error("bad-count", "a packet cannot hold a negative number of cards", p.span)
                total += v
            dealt += total * rules.players.count
            if dealt > deck_size:
                error("deck-too-small", f"dealing {total} cards to each of {rules.players.count} players needs "
                      f"{dealt} cards; the deck has {deck_size}", st.span)
                return
        elif isinstance(st, m.TurnUp):
            v = fold_int(st.count, values)
            if v is None:
                return
            dealt += v
            if dealt > deck_size:
                error("deck-too-small", f"turning up {plural(v, 'card')} here needs {dealt} cards; "
                      f"the deck has {deck_size}", st.span)
                return


def option_value_problems(rules: m.RuleFile, values: Mapping[str, Value]) -> list[str]:
    """What the rules cannot do with these option ``values`` (checked before any code is
    generated for them, as the checker checks the defaults): each problem names the
    options the counts up to it read, their values, and where it is. Empty when they fit."""
    found: list[tuple[str, m.Span | None]] = []
    card_count_problems(rules, values, lambda code, message, span: found.append((message, span)))
    options = {o.name for o in rules.options}
    out = []
    for message, span in found:
        read: set[str] = set()  # (the options of every count up to the one that runs out)
        for st in statements(rules.deal):
            if isinstance(st, (m.DealCards, m.TurnUp)):
                read |= {n.name for n in walk_nodes(st) if isinstance(n, m.Name) and n.name in options}
            if getattr(st, "span", None) == span:
                break
        named = ", ".join(f"'{name}' = {_shown(values.get(name))}" for name in sorted(read))
        where = f" (line {span.line})" if span is not None and span.line else ""
        verb = "does" if len(read) == 1 else "do"
        out.append(f"option{'s' if len(read) > 1 else ''} {named} {verb} not fit the rules: {message}{where}"
                   if named else f"the options do not fit the rules: {message}{where}")
    return out


def _shown(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)
