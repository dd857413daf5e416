"""Static safety checks for untrusted rule files, run on every load after the checker.

Each finds a file that would otherwise fail at run time or cost unbounded work:

* ``circular-role``: a role defined through itself (``role a = left of b``,
  ``role b = left of a``); ``limit-exceeded``: a chain of more than
  :data:`MAX_ROLE_CHAIN` roles, each defined through the next;
* ``division-by-zero``: ``%`` by a constant zero (a run-time zero is a
  ``RuleRuntimeError`` naming the line);
* ``ambiguous-card-code``: two cards whose codes differ only in case (``ranks A a``),
  and ``bad-suit``: a suit whose first letter has no one-letter capital (``ßuit``);
* ``limit-exceeded``: a file over the compile-time work budget: more than
  :data:`MAX_STATEMENTS` statements, more than :data:`MAX_PATTERN_WORK` pattern-table
  cells to build, or a static bound of more than :data:`MAX_STEPS_WITHOUT_DECISION`
  statements run between two decisions.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from . import model as m
from .deck import card_codes, deck_size, suit_rank_lists
from .diagnostics import Diagnostic
from .walk import blocks, every_node, nodes, statements_of

MAX_ROLE_CHAIN = 16
"""Roles defined through other roles, at most this many deep."""
MAX_STATEMENTS = 2_000
"""Statements in a rule file (its deal, declarations and irregularities)."""
MAX_PATTERN_WORK = 4_000_000
"""Cells of the card-pattern tables the compiler builds: for each pattern,
(alternatives + 1) x (suits + 1) x cards."""
MAX_STEPS_WITHOUT_DECISION = 100_000
"""Static bound on statements run between two decisions (the run-time budget,
:data:`interpreter.codegen.module.MAX_STEPS`, counts the same work)."""


def check_safety(rules: m.RuleFile) -> list[Diagnostic]:
    """Every problem of the kinds listed in the module docstring."""
    out = _roles(rules) + _card_codes(rules) + _division(rules)
    out += _work(rules)
    return out


def _error(rules: m.RuleFile, code: str, message: str, span: m.Span | None, hint: str = "") -> Diagnostic:
    line, col = (span.line, span.column) if span is not None else (0, 0)
    return Diagnostic(code, message, line, col, hint=hint, path=rules.path or "<string>")


def _nodes(root: Any) -> Iterator[Any]:
    return nodes(root)


# ------------------------------------------------------------------ roles


def _roles(rules: m.RuleFile) -> list[Diagnostic]:
    roles = {r.name: r for r in rules.roles}
    uses = {r.name: {n.name for n in _nodes(r.value) if isinstance(n, m.Name) and n.name in roles} for r in rules.roles}
    out: list[Diagnostic] = []
    depth: dict[str, int] = {}
    for start in roles:
        if start in depth:
            continue
        # Iterative depth-first search: grey names are on the current path.
        path: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(uses[start])))]
        grey = {start}
        while path:
            name, pending = path[-1]
            nxt = next(pending, None)
            if nxt is None:
                path.pop()
                grey.discard(name)
                depth[name] = 1 + max((depth.get(u, 0) for u in uses[name]), default=0)
                continue
            if nxt in grey:
                cycle = [p for p, _ in path][[p for p, _ in path].index(nxt):] + [nxt]
                out.append(_error(rules, "circular-role", "role '" + nxt + "' is defined through itself ("
                                  + " -> ".join(cycle) + ")", roles[nxt].span,
                                  "define a role from dealer, maker or another role that does not lead back to it"))
                return out
            if nxt not in depth:
                grey.add(nxt)
                path.append((nxt, iter(sorted(uses[nxt]))))
    deep = [n for n, d in depth.items() if d > MAX_ROLE_CHAIN]
    if deep:
        worst = max(deep, key=lambda n: depth[n])
        out.append(_error(rules, "limit-exceeded", f"role '{worst}' is defined through a chain of {depth[worst]} roles; "
                          f"at most {MAX_ROLE_CHAIN} are allowed", roles[worst].span))
    return out


# ------------------------------------------------------------------ card codes


def _card_codes(rules: m.RuleFile) -> list[Diagnostic]:
    deck = rules.deck
    if deck is None:
        return []
    out: list[Diagnostic] = []
    for suit in deck.suits:
        if not suit.name or len(suit.name[0].upper()) != 1:
            out.append(_error(rules, "bad-suit", f"suit '{suit.name}' starts with a letter whose capital is not one "
                              "letter, so its cards have no code", suit.span, "start the suit's name with another letter"))
    if out:
        return out
    seen: dict[str, str] = {}
    for code in card_codes(deck):
        key = code.upper()
        if key in seen and seen[key] != code:
            out.append(_error(rules, "ambiguous-card-code", f"cards {seen[key]} and {code} have codes that differ only "
                              "in case; a card is typed in any case", deck.ranks_span or deck.span,
                              "give ranks (and suits' first letters) that differ in more than case"))
            return out
        seen[key] = code
    return out


# ------------------------------------------------------------------ division


def _is_zero(e: Any) -> bool:
    if isinstance(e, m.IntLit):
        return e.value == 0
    if isinstance(e, m.Neg):
        return _is_zero(e.operand)
    return False


def _division(rules: m.RuleFile) -> list[Diagnostic]:
    out = []
    for node in every_node(rules):
        if isinstance(node, m.BinOp) and node.op in ("%", "/") and _is_zero(node.right):
            out.append(_error(rules, "division-by-zero", f"'{node.op}' by zero", node.span))
    return out


# ------------------------------------------------------------------ work budget


def _work(rules: m.RuleFile) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    statements = sum(1 for _ in statements_of(rules))
    if statements > MAX_STATEMENTS:
        out.append(_error(rules, "limit-exceeded", f"{statements} statements: a rule file may have at most "
                          f"{MAX_STATEMENTS}", rules.deal_span))
    deck = rules.deck
    if deck is not None:
        cells = (len(deck.suits) + 1) * sum(len(ranks) for ranks in suit_rank_lists(deck))
        work = 0
        for node in every_node(rules):
            if isinstance(node, (m.PatWord, m.PatCard, m.PatNot, m.PatOr, m.PatAnd)):
                work += cells * (1 + (len(node.options) if isinstance(node, (m.PatOr, m.PatAnd)) else 0))
        if work > MAX_PATTERN_WORK:
            out.append(_error(rules, "limit-exceeded", f"the card patterns of this file need {work} table cells; "
                              f"the budget is {MAX_PATTERN_WORK}", rules.deal_span, "use fewer or simpler patterns"))
    players = rules.players.count if rules.players is not None else 1
    cards = max(1, deck_size(deck)) if deck is not None else 1
    bound, _ = _block_steps(rules.deal, (players, cards))
    if bound > MAX_STEPS_WITHOUT_DECISION:
        out.append(_error(rules, "limit-exceeded", f"the deal may run about {bound} statements between two decisions; "
                          f"the budget is {MAX_STEPS_WITHOUT_DECISION}", rules.deal_span,
                          "lower the bounds of nested 'repeat' loops"))
    return out


def _block_steps(stmts: tuple[m.Statement, ...], players: tuple[int, int]) -> tuple[int, bool]:
    """A static bound on statements run in a block between two decisions, and
    whether the block may stop for a decision."""
    total, decides = 0, False
    for st in stmts:
        n, d = _steps(st, players)
        total = min(total + n, 10**12)
        decides = decides or d
    return total, decides


def _steps(st: m.Statement, players: tuple[int, int]) -> tuple[int, bool]:
    """From the statement's facts: its own step, and its bodies as they run (``players``: the
    players and the cards of the deck, what a loop over each may run through).

    Raises:
        TypeError: its bodies run in a way this bound does not know.
    """
    found = [_block_steps(body, players) for body in blocks(st)]
    decides = st.decides or any(d for _, d in found)
    if st.runs in ("", "play"):  # trick play's declarations run between the decisions of play
        return 1, decides
    if st.runs == "all":
        return sum(n for n, _ in found), decides
    if st.runs == "one":
        return 1 + max((n for n, _ in found), default=0), decides
    if st.runs == "loop":
        times = _loops(st, *players)
        body = sum(n for n, _ in found)
        # A loop that stops for a decision runs at most twice its body between two of them.
        return 1 + (2 * body if decides else times * (body + 1)), decides
    raise TypeError(f"the work budget does not know how the bodies of {type(st).__name__} run ({st.runs!r})")


def _loops(st: m.Statement, players: int, cards: int) -> int:
    """How many times a loop may run its body."""
    if isinstance(st, m.ForEach):
        return players
    if isinstance(st, m.ForCard):
        return cards
    if isinstance(st, m.Repeat):
        return st.bound.value if isinstance(st.bound, m.IntLit) else 1
    raise TypeError(f"the work budget does not know how often {type(st).__name__} loops")
