"""Pieces of a rule file in English, for :mod:`tricklang.explain`: citations, expressions,
card patterns, zones, card counts, and each statement (one ``visit_<Statement>`` method
per kind of statement)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from . import model as m
from .deck import all_ranks
from .ruleset import Ruleset
from .types import declared_names
from .walk import Unknown, Value, Visitor, fold

CITE_RE = re.compile(r"\[[A-Z]+[0-9]+[a-z]?(?:-[A-Z]*[0-9]+[a-z]?)?(?:, *[A-Z]+[0-9]+[a-z]?(?:-[A-Z]*[0-9]+[a-z]?)?)*\]")
"""A law citation, as the grammar's ``CITE`` terminal."""

NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]


def strip_comment(line: str) -> str:
    """A source line without its ``#`` comment (a ``#`` inside a string is kept)."""
    in_string = False
    for i, ch in enumerate(line):
        if ch == '"':
            in_string = not in_string
        elif ch == "#" and not in_string:
            return line[:i]
    return line


def cited_laws(source: str) -> dict[int, list[str]]:
    """The laws cited on each line of a rule file's text (comments ignored)."""
    out: dict[int, list[str]] = {}
    for n, line in enumerate(source.splitlines(), 1):
        laws = [law.strip() for c in CITE_RE.findall(strip_comment(line)) for law in c[1:-1].split(",") if law.strip()]
        if laws:
            out[n] = laws
    return out


Item = tuple[str, list[str], list[Any]]
"""A list item: its sentence (without the final stop), its laws, and its sub-items."""


def in_words(n: int) -> str:
    """``three`` for 3 (up to twelve), else the digits."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def with_article(word: str) -> str:
    """``a king``, ``an ace``, ``an 8``."""
    return ("an " if word[:1].upper() in "AEIO8" or word in ("11", "18") else "a ") + word


def capitalised(text: str) -> str:
    """The text with its first letter in capitals."""
    return text[:1].upper() + text[1:]


def lowered(text: str) -> str:
    """The text with its first letter in lower case (unless it starts an acronym)."""
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def joined(items: Sequence[str], word: str = "and") -> str:
    """``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


_OBLIGATIONS = {
    "follow_suit": "each player must follow suit if able",
    "may_trump": "a player may trump instead of following suit",
    "trump_if_void": "a player who cannot follow suit must trump if able",
    "beat_if_able": "a player who follows suit (or must trump) must beat the best card played so far if able",
    "first_lead_trump": "the suit of the first card led becomes trumps",
    "overtrump_if_able": "a player who can beat the highest trump of the trick must do so (with a trump)",
    "no_undertrump": "a player may not play a trump that does not beat the highest trump of the trick, unless he "
                     "holds nothing else he may play",
}
"""The reading of each trick obligation that has no pattern."""

_TRICK_WORDS = {
    "to_play": "the player to play", "led_suit": "the suit led", "led_card": "the card led",
    "winner": "the player winning the trick so far", "winning_card": "the card winning the trick so far",
    "highest_trump": "the highest trump of the trick", "trick": "the cards of the trick",
    "trick_number": "the number of the trick (1 for the first)", "last_trick": "this is the last trick",
    "no_suit": "no suit", "no_card": "no card", "card": "the card",
    "no_bid": "no bid", "no_trump": "no trump", "doubling": "the doubling (0, 1 doubled, 2 redoubled)",
    "caller": "the player to call", "high_bid": "the highest bid so far", "high_bidder": "the highest bidder",
}
"""The built-in names of the trick in progress (and the no-value literals), in words."""
_CARD_NAMES = frozenset({"led_card", "winning_card", "highest_trump", "no_card"})

_PRECEDENCE: dict[m.BinaryOp, int] = {"or": 1, "and": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "+": 4, "-": 4,
               "*": 5, "/": 5, "%": 5}


class Words(Visitor[list[Item]]):
    """Reads a ruleset's pieces as English: citations, expressions, patterns, zones and counts
    (the statements are :class:`tricklang.prose_statements.Prose`'s)."""

    card_parameters: frozenset[str] = frozenset()
    suit_parameters: frozenset[str] = frozenset()
    """The card parameters of the irregularity being worded (``expose shown`` shows that card)."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.rs = ruleset
        self.rules = ruleset.rules
        # A variant's statements may come from its base file, whose line numbers do
        # not match this file's text: then only the model's own citations are used.
        self.inherits = bool(getattr(ruleset, "bases", ()))
        self.src = [] if self.inherits else ruleset.source.splitlines()
        self.line_laws = {} if self.inherits else cited_laws(ruleset.source)
        self.emitted: set[str] = set()
        self.options = {o.name: o for o in self.rules.options}
        self.roles = {r.name for r in self.rules.roles}
        self.zones = {z.name: z for z in self.rules.zones}
        self.suits = {s.name for s in self.rules.deck.suits} if self.rules.deck else set()
        self.colours = {s.colour for s in self.rules.deck.suits} if self.rules.deck else set()
        self.ranks = set(all_ranks(self.rules.deck)) if self.rules.deck else set()
        self.extra_cards = {x.name for x in self.rules.deck.extra_cards} if self.rules.deck else set()
        self.tables = {t.name for t in self.rules.tables}
        self.team_names = {name for line in self.rules.teams for name in line.names}
        self.declared = declared_names(self.rules)
        self.constants: dict[str, Value] = {c: c for o in self.rules.options if o.type == "choice" for c in o.choices}
        self.constants.update({name: ruleset.options.get(name, o.default) for name, o in self.options.items()})

    # ------------------------------------------------------------ citations
    def laws(self, *cites: m.Citation | None, lines: Iterable[int] = ()) -> list[str]:
        """The laws of the given citations and of the citations on these source lines."""
        laws: list[str] = []
        for c in cites:
            if c is not None:
                laws.extend(c.laws)
        for n in lines:
            laws.extend(self.line_laws.get(n, ()))
        return list(dict.fromkeys(laws))

    def cite(self, *cites: m.Citation | None, lines: Iterable[int] = ()) -> str:
        """`` [E1, E2]`` for the given citations and the citations on these source lines."""
        return self.show(self.laws(*cites, lines=lines))

    def show(self, laws: Sequence[str]) -> str:
        self.emitted.update(laws)
        return f" [{', '.join(laws)}]" if laws else ""

    def item(self, text: str, *cites: m.Citation | None, lines: Iterable[int] = (),
             subs: list[Item] | None = None) -> Item:
        return (text, self.laws(*cites, lines=lines), subs or [])

    def sentence(self, text: str, *cites: m.Citation | None, lines: Iterable[int] = ()) -> str:
        return capitalised(text) + self.cite(*cites, lines=lines) + "."

    def source_line(self, n: int) -> str:
        return strip_comment(self.src[n - 1]).strip() if 0 < n <= len(self.src) else ""

    # ------------------------------------------------------------ expressions
    def expr(self, e: Any) -> str:
        if isinstance(e, m.IntLit):
            return str(e.value)
        if isinstance(e, m.Name):
            return self.name(e.name)
        if isinstance(e, m.Of):
            arg = self.expr(e.arg)
            if e.name in ("left", "right"):
                return f"the player to the {e.name} of {arg}"
            if e.name in self.zones and isinstance(e.arg, m.Name) and e.arg.name in self.team_names:
                return f"the {e.name} of every member of {arg}"  # a team's zone (design 3.9)
            if e.name in self.zones:
                return f"the {e.name} of {arg}"
            return f"the {e.name} of {arg}"
        if isinstance(e, m.Call):
            return self.call(e)
        if isinstance(e, m.BinOp) and e.op in ("==", "!=") and isinstance(e.right, m.Name) \
                and e.right.name in ("no_card", "no_suit") and e.right.name not in self.declared:
            noun = self.expr(e.left).removeprefix("the ")
            return f"there is {'no' if e.op == '==' else 'a'} {noun}"
        if isinstance(e, m.BinOp):
            left, right = self.expr(e.left), self.expr(e.right)
            # Keep the grouping: a weaker operator inside a stronger one is bracketed.
            if isinstance(e.left, m.BinOp) and _PRECEDENCE[e.left.op] < _PRECEDENCE[e.op]:
                left = f"({left})"
            if isinstance(e.right, m.BinOp) and _PRECEDENCE[e.right.op] <= _PRECEDENCE[e.op] and e.right.op != e.op:
                right = f"({right})"
            elif isinstance(e.right, m.BinOp) and _PRECEDENCE[e.right.op] < _PRECEDENCE[e.op]:
                right = f"({right})"
            words = {"==": "is", "!=": "is not", ">=": "is at least", ">": "is more than", "<=": "is at most",
                     "<": "is less than", "and": "and", "or": "or", "+": "+", "-": "-", "*": "×"}
            if e.op == "/":
                return f"{left} divided by {right} (rounded down)"
            return f"{left} {words.get(e.op, e.op)} {right}"
        if isinstance(e, m.Not):
            return f"not ({self.expr(e.operand)})"
        if isinstance(e, m.Neg):
            return f"-{self.expr(e.operand)}"
        if isinstance(e, m.Has):
            if isinstance(e.pattern, m.PatWord) and e.pattern.word in self.suit_parameters:
                return f"{self.expr(e.zone)} holds a card of the suit *{e.pattern.word}*"
            return f"{self.expr(e.zone)} holds {self.pattern(e.pattern)}"
        if isinstance(e, m.CardHolder):
            card = self.pattern(e.card.pattern)
            if e.card.ranking is not None:
                card = f"the {e.card.ranking} {card} dealt"
            who = {"holder": "the player holding", "original": "the player who was dealt",
                   "taker": "the player who took the trick with"}[e.kind]
            return f"{who} {card}"
        if isinstance(e, m.SeatLit):
            return f"seat {e.value}"
        if isinstance(e, m.CardIs):
            return f"{self.expr(e.card)} is {self.pattern(e.pattern)}"
        if isinstance(e, m.CardBeats):
            return f"{self.expr(e.card)} beats {self.expr(e.other)}"
        if isinstance(e, m.CardPlayedBy):
            return f"the card played by {self.expr(e.player)} to the trick"
        if isinstance(e, m.WhoPlayed):
            return f"the player who played {self.card_named(e.card)} to the trick"
        raise TypeError(f"the prose does not word the expression {type(e).__name__}")

    def name(self, name: str) -> str:
        if name in self.options:
            opt = self.options[name]
            return f"`{name}` ({self.rs.options.get(name, opt.default)})" if opt.type == "int" else f"`{name}`"
        if name == "nobody":
            return "nobody"
        if name == "bid":
            return "the bid"
        if name == "leader":
            return "the leader of the trick in progress"
        if name == "played_to_trick":
            return "the number of cards played to the trick in progress"
        if name in _TRICK_WORDS and name not in self.declared:
            return _TRICK_WORDS[name]
        if name in self.roles or name in ("dealer", "maker", "player", "side", "declarer", "offender"):
            return f"the {name}"
        if name in self.zones:
            return f"the {name}"
        if name in self.suits:
            return name
        return f"`{name}`"

    def call(self, e: m.Call) -> str:
        args = [self.expr(a.value) for a in e.args]
        if e.name == "count" and args:
            match = e.args[0].matching
            return f"the number of cards in {args[0]}" + (f" that are {self.pattern(match)}" if match else "")
        if e.name == "tricks" and args:
            return f"the number of tricks won by {args[0]}"
        if e.name == "points" and args and self.is_cards(e.args[0].value):
            return f"the card points of {args[0]}"
        if e.name == "points" and args:
            return f"the card points won by {args[0]}"
        if e.name == "melds" and len(args) == 2:
            return f"what the melds of the table **{e.args[1].value.name if isinstance(e.args[1].value, m.Name) else ''}**" \
                   f" in {args[0]} are worth"
        if e.name == "melded" and args:
            table = f" with the table {args[1]}" if len(args) > 1 else ""
            return f"what {args[0]} has melded this deal{table}"
        if e.name == "abs" and args:
            return f"the absolute value of {args[0]}"
        if e.name == "deal_score" and args:
            return f"what {args[0]} has scored this deal"
        if e.name in self.tables and args:
            return f"entry {args[0]} of the table `{e.name}`"
        if e.name == "score" and args:
            return f"the score of {args[0]}"
        if e.name in ("min", "max") and args:
            if len(args) == 1:
                return args[0]
            which = ("smaller" if e.name == "min" else "larger") if len(args) == 2 else ("smallest" if e.name == "min" else "largest")
            return f"the {which} of {joined(args)}"
        return f"{e.name}({', '.join(args)})"

    def card_named(self, choice: m.CardChoice) -> str:
        """A card choice: a card value (``winning_card``) or a pattern, highest or lowest."""
        p = choice.pattern
        if choice.ranking is None and isinstance(p, m.PatWord) and (p.word in _CARD_NAMES or p.word == "card"):
            return self.name(p.word)
        card = self.pattern(p)
        return f"the {choice.ranking} {card}" if choice.ranking is not None else card

    def is_cards(self, e: Any) -> bool:
        """Whether an expression is a zone or a card (``points(hand of maker)``, ``points(card)``)."""
        if isinstance(e, m.Of):
            return e.name in self.zones
        return isinstance(e, m.Name) and (e.name in self.zones or e.name == "card")

    def static(self, e: Any) -> Any:
        """The value of an expression made only of literals and options, else None."""
        value = fold(e, self.constants)
        return None if isinstance(value, Unknown) else value

    def condition(self, e: Any) -> str:
        """A condition, noting whether it holds with the current options when that is fixed."""
        if isinstance(e, m.Name) and e.name in self.options and self.options[e.name].type == "bool":
            text = f"the option `{e.name}` is on"
        elif isinstance(e, m.Not) and isinstance(e.operand, m.Name) and e.operand.name in self.options:
            text = f"the option `{e.operand.name}` is off"
        else:
            text = self.expr(e)
        value = self.static(e)
        if isinstance(value, bool):
            text += " (so it applies with these options)" if value else " (which is not so with these options)"
        return text

    # ------------------------------------------------------------ patterns and zones
    def pattern(self, p: Any) -> str:
        if isinstance(p, m.PatWord):
            w = p.word
            if w == "any":
                return "any card"
            if w == "trump":
                return "a trump"
            if w in self.suits:
                return f"a card of {w}"
            if w in self.ranks or w.isdigit():
                return with_article(w)
            if w in self.colours:
                return f"a {w} card"
            if w in self.extra_cards:
                return f"the {w}"  # a card in no suit (`card excuse "EX"`)
            return f"a card of the suit *{w}*"
        if isinstance(p, m.PatCard):
            if p.suit.same_colour:
                return f"the {p.rank} of the other suit of the trump colour"
            if p.suit.name == "trump":
                return f"the {p.rank} of trumps"
            if p.suit.name in self.suits:
                return f"the {p.rank} of {p.suit.name}"
            if p.suit.name in self.colours:
                return f"{with_article(p.rank)} of a {p.suit.name} suit"
            return f"the {p.rank} of the suit *{p.suit.name}*"
        if isinstance(p, m.PatNot):
            return f"not {self.pattern(p.operand)}"
        if isinstance(p, m.PatOr):
            return joined([self.pattern(o) for o in p.options], "or")
        if isinstance(p, m.PatAnd):
            return "a card that is " + joined([self.pattern(o) for o in p.options], "and")
        raise TypeError(f"the prose does not word the pattern {type(p).__name__}")

    def zone(self, ref: m.ZoneRef) -> str:
        z = self.zones.get(ref.name)
        if ref.owner is not None:
            return f"the {ref.name} of {self.expr(ref.owner)}"
        if z is not None and z.owner != "shared":
            return f"their own {ref.name}"
        return f"the {ref.name}"

    def count(self, c: m.Count, verb: str) -> str:
        def cards(e: Any) -> str:
            return "1 card" if isinstance(e, m.IntLit) and e.value == 1 else f"{self.expr(e)} cards"

        if c.kind == "exact":
            return cards(c.low)
        if c.kind == "range" and c.high is not None:
            if isinstance(c.low, m.IntLit) and isinstance(c.high, m.IntLit):
                return f"{c.low.value} to {c.high.value} cards"
            return f"at least {cards(c.low)} and at most {self.expr(c.high)}"
        if c.kind == "at_least":
            return f"at least {cards(c.low)}"
        return f"cards until holding {self.expr(c.low)}" if verb != "discard" else f"down to {cards(c.low)}"

    # ------------------------------------------------------------ blocks
    def block(self, stmts: Sequence[Any]) -> list[Item]:
        out: list[Item] = []
        for st in stmts:
            out.extend(self.visit(st))
        return out

    def inline(self, lead: str, body: Sequence[Any], *cites: m.Citation | None, lines: Iterable[int] = ()) -> list[Item]:
        """``lead, body`` as one sentence when the body is one simple statement, else ``lead:`` and a list."""
        items = self.block(body)
        laws = self.laws(*cites, lines=lines)
        if len(items) == 1 and not items[0][2]:
            text, inner, _ = items[0]
            return [(f"{lead}, {lowered(text)}", list(dict.fromkeys(laws + inner)), [])]
        return [(lead, laws, items)]
