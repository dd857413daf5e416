"""A bid table, read: its bids in rank order, each with its code, level, strain and worth.

``levels LO..HI in S1, S2...`` gives one bid per level and strain, level first, then strain in
the order written (code: the level then the strain's code: its own string, else a suit's
letter: ``3NT``, ``4S``); a named bid is its name (or its code); ``numbers`` are bids that
are numbers. A bid's *worth* is its ``worth`` expression folded with ``level`` and ``base``
bound (a number is its own worth); the bids are ranked by worth when every bid has one,
else in the order written, and ``above "X"`` / ``below "X"`` place a named bid next to X.
Two bids of equal worth have equal rank: neither outbids the other. The checker reports
what :func:`expand` finds wrong (``bad-bids``); the runtime reads the same list.

>>> import tricklang
>>> rules = tricklang.parse('''tricklang 1
... game "B"
... players 4 in partnerships 0 2, 1 3
... deck
...   suits spades black, hearts red, diamonds red, clubs black
...   ranks A K Q J 10 9 8 7 6 5 4 3 2
... bids calls
...   levels 1..2 in clubs, no_trump "NT"
... deal
...   deal 13 to each
... ''')
>>> [(b.code, b.rank) for b in expand(rules.bids[0], rules).bids]
[('1C', 0), ('1NT', 1), ('2C', 2), ('2NT', 3)]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import model as m
from .walk import fold

MAX_BIDS = 20_000
"""The most bids a table may hold."""


@dataclass(frozen=True)
class BidEntry:
    """One bid of a table."""

    code: str
    level: int
    strain: str
    worth: int | None
    rank: int
    name: str = ""
    """A named bid's name (a constant of type bid); '' for the others."""


@dataclass
class Expanded:
    """The bids of a table in rank order, and what is wrong with it (message, span)."""

    bids: list[BidEntry] = field(default_factory=list)
    problems: list[tuple[str, m.Span]] = field(default_factory=list)

    @property
    def numbers_only(self) -> bool:
        """Bids that are numbers only: the bid type is then a number, as in a number range."""
        return all(not b.name and not b.strain and b.level == 0 for b in self.bids)

    @property
    def has_strains(self) -> bool:
        return any(b.strain for b in self.bids)


def expand(table: m.BidTable, rules: m.RuleFile, options: dict[str, int | bool | str] | None = None) -> Expanded:
    """The bids of a table, ranked (see the module docstring); never raises."""
    out = Expanded()
    env: dict[str, int | bool | str] = {o.name: o.default for o in rules.options}
    env.update(options or {})
    letters = {s.name: s.name[0].upper() for s in rules.deck.suits} if rules.deck is not None else {}
    entries: list[tuple[BidEntry, m.Node]] = []
    for line in table.lines:
        if isinstance(line, m.BidGrid):
            entries += _grid(line, letters, env, out)
        elif isinstance(line, m.NamedBid):
            worth = _worth(line.worth, env, {}, out, line.span)
            entries.append((BidEntry(line.code or line.name, 0, line.plays or "", worth, 0, line.name), line))
        else:
            for low, high, step in line.items:
                if step < 1 or high < low:
                    out.problems.append((f"the numbers {low}..{high} by {step} are not a range, low to high", line.span))
                    continue
                entries += [(BidEntry(str(n), 0, "", n, 0), line) for n in range(low, high + 1, step)]
            if len(entries) > MAX_BIDS:
                break
    if not entries:
        out.problems.append(("a bid table needs at least one bid", table.span))
    if len(entries) > MAX_BIDS:
        out.problems.append((f"the table has more than {MAX_BIDS} bids", table.span))
        return out
    seen: dict[str, str] = {}
    for entry, node in entries:
        key = entry.code.upper()
        if key in seen:
            out.problems.append((f"two bids have the code '{entry.code}' (codes are typed in any case)",
                                 getattr(node, "span", table.span)))
        seen[key] = entry.code
    out.bids = _ranked(entries, out, table)
    return out


def _grid(line: m.BidGrid, letters: dict[str, str], env: dict[str, int | bool | str],
          out: Expanded) -> list[tuple[BidEntry, m.Node]]:
    found: list[tuple[BidEntry, m.Node]] = []
    if line.high < line.low:
        out.problems.append((f"levels {line.low}..{line.high} run low to high", line.span))
    for level in range(line.low, line.high + 1):
        for strain in line.strains:
            code = strain.code or letters.get(strain.name, strain.name[:1].upper())
            worth = _worth(line.worth, env, {"level": level, "base": strain.base or 0}, out, line.span) \
                if line.worth is not None else None
            found.append((BidEntry(f"{level}{code}", level, strain.name, worth, 0), strain))
            if len(found) > MAX_BIDS:
                return found
    return found


def _worth(e: m.Expr | None, env: dict[str, int | bool | str], bound: dict[str, int], out: Expanded,
           span: m.Span) -> int | None:
    if e is None:
        return None
    value = fold(e, {**env, **bound})
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    out.problems.append(("a bid's worth must be a constant number (of 'level' and 'base')", e.span or span))
    return None


def _ranked(entries: list[tuple[BidEntry, m.Node]], out: Expanded, table: m.BidTable) -> list[BidEntry]:
    """Rank by worth when every bid has one (equal worths, equal ranks), else in the order written,
    a named bid `above`/`below` another placed next to it."""
    bids = [e for e, _ in entries]
    if all(b.worth is not None for b in bids):
        order = sorted(range(len(bids)), key=lambda i: (bids[i].worth, _placement(entries, i, bids, out)))
        ranked: list[BidEntry] = []
        rank = -1
        previous: tuple[int | None, float] | None = None
        for i in order:
            key = (bids[i].worth, _placement(entries, i, bids, None))
            if key != previous:
                rank += 1
                previous = key
            ranked.append(_with_rank(bids[i], rank))
        return ranked
    return [_with_rank(b, i) for i, b in enumerate(bids)]


def _placement(entries: list[tuple[BidEntry, m.Node]], i: int, bids: list[BidEntry], out: Expanded | None) -> float:
    """A tie-break among bids of equal worth: 0, or just above or below the bid a named bid names."""
    node = entries[i][1]
    if not isinstance(node, m.NamedBid) or node.place is None or node.anchor is None:
        return 0.0
    anchor = next((b for b in bids if b.code.upper() == node.anchor.upper()), None)
    if anchor is None or anchor.worth != bids[i].worth:
        if out is not None:
            what = "no bid" if anchor is None else "a bid of another worth"
            out.problems.append((f"'{node.place} \"{node.anchor}\"' names {what}", node.span))
        return 0.0
    return 0.5 if node.place == "above" else -0.5


def _with_rank(b: BidEntry, rank: int) -> BidEntry:
    return BidEntry(b.code, b.level, b.strain, b.worth, rank, b.name)
