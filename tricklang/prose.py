"""Pieces of a rule file in English, for :mod:`tricklang.explain`: citations, expressions,
card patterns, zones, card counts, and each statement (one ``visit_<Statement>`` method
per kind of statement)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from . import model as m
from .ruleset import Ruleset
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
}
"""The reading of each trick obligation that has no pattern."""

_PRECEDENCE: dict[m.BinaryOp, int] = {"or": 1, "and": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "+": 4, "-": 4,
               "*": 5, "%": 5}


class Prose(Visitor[list[Item]]):
    """Reads a ruleset's pieces as English; :class:`tricklang.explain` assembles a document."""

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
            if e.name in self.zones:
                return f"the {e.name} of {arg}"
            return f"the {e.name} of {arg}"
        if isinstance(e, m.Call):
            return self.call(e)
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
        return "`?`"

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
        if e.name == "points" and args:
            return f"the card points won by {args[0]}"
        if e.name == "score" and args:
            return f"the score of {args[0]}"
        if e.name in ("min", "max") and args:
            if len(args) == 1:
                return args[0]
            which = ("smaller" if e.name == "min" else "larger") if len(args) == 2 else ("smallest" if e.name == "min" else "largest")
            return f"the {which} of {joined(args)}"
        return f"{e.name}({', '.join(args)})"

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
            return with_article(w)
        if isinstance(p, m.PatCard):
            if p.suit.same_colour:
                return f"the {p.rank} of the other suit of the trump colour"
            if p.suit.name == "trump":
                return f"the {p.rank} of trumps"
            return f"the {p.rank} of {p.suit.name}"
        if isinstance(p, m.PatNot):
            return f"not {self.pattern(p.operand)}"
        if isinstance(p, m.PatOr):
            return joined([self.pattern(o) for o in p.options], "or")
        return "`?`"

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

    # ------------------------------------------------------------ statements
    def block(self, stmts: Sequence[Any]) -> list[Item]:
        out: list[Item] = []
        for st in stmts:
            out.extend(self.stmt(st))
        return out

    def inline(self, lead: str, body: Sequence[Any], *cites: m.Citation | None, lines: Iterable[int] = ()) -> list[Item]:
        """``lead, body`` as one sentence when the body is one simple statement, else ``lead:`` and a list."""
        items = self.block(body)
        laws = self.laws(*cites, lines=lines)
        if len(items) == 1 and not items[0][2]:
            text, inner, _ = items[0]
            return [(f"{lead}, {lowered(text)}", list(dict.fromkeys(laws + inner)), [])]
        return [(lead, laws, items)]

    # ------------------------------------------------------------ statements, one method each
    def stmt(self, st: Any) -> list[Item]:
        """The reading of one statement, as list items."""
        return self.visit(st)

    def say(self, st: m.Stmt, text: str) -> list[Item]:
        """One sentence for a statement, with its laws."""
        return [self.item(capitalised(text), st.cite, lines=[st.span.line])]

    def generic_visit(self, node: m.Node, *args: Any) -> list[Item]:
        """A statement with no reading of its own: its source line, as code."""
        st: Any = node
        text = self.source_line(st.span.line) or type(st).__name__
        return [self.item(f"`{CITE_RE.sub('', text).strip()}`", st.cite, lines=[st.span.line])]

    def visit_DealCards(self, st: m.DealCards) -> list[Item]:  # noqa: N802 - visitor naming
        packets = [self.expr(p) for p in st.packets]
        how = joined(packets, "then") if len(packets) > 1 else packets[0]
        first = self.expr(st.first) if st.first is not None else "the player to the dealer's left"
        return self.say(st, f"deal {how} cards to each player, starting with {first}")

    def visit_TurnUp(self, st: m.TurnUp) -> list[Item]:  # noqa: N802 - visitor naming
        n = self.expr(st.count)
        what = "the top card of the pack is" if n == "1" else f"the top {n} cards of the pack are"
        return self.say(st, f"{what} turned up to {self.zone(st.to)}")

    def visit_SetTrump(self, st: m.SetTrump) -> list[Item]:  # noqa: N802 - visitor naming
        if st.source == "zone" and st.zone is not None:
            return self.say(st, f"the suit of the card turned up to {self.zone(st.zone)} is trumps")
        if st.source == "fixed":
            return self.say(st, f"{st.suit} are trumps")
        return self.say(st, "there are no trumps")

    def visit_NameTrump(self, st: m.NameTrump) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.expr(st.player)} names the trump suit")

    def visit_Score(self, st: m.Score) -> list[Item]:  # noqa: N802 - visitor naming
        amount = self.expr(st.amount)
        if isinstance(st.amount, m.IntLit):
            amount = f"{st.amount.value} point{'s' if st.amount.value != 1 else ''}"
        label = f" (“{st.label}”)" if st.label else ""
        return self.say(st, f"{self.expr(st.who)} {'loses' if st.negative else 'scores'} {amount}{label}")

    def visit_Let(self, st: m.Let) -> list[Item]:  # noqa: N802 - visitor naming
        if st.rebind:
            return self.say(st, f"set `{st.name}` to {self.expr(st.value)}")
        return self.say(st, f"let `{st.name}` be {self.expr(st.value)}")

    def visit_StopLoop(self, st: m.StopLoop) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "stop repeating")

    def visit_Pass(self, st: m.Pass) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "nothing more happens")

    def visit_EndDeal(self, st: m.EndDeal) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "the deal ends here")

    def visit_Discard(self, st: m.Discard) -> list[Item]:  # noqa: N802 - visitor naming
        match = f" (only cards that are {self.pattern(st.matching)})" if st.matching is not None else ""
        return self.say(st, f"{self.expr(st.player)} discards {self.count(st.count, 'discard')}{match} to {self.zone(st.to)}")

    def visit_Take(self, st: m.Take) -> list[Item]:  # noqa: N802 - visitor naming
        match = f" (only cards that are {self.pattern(st.matching)})" if st.matching is not None else ""
        called = f"; this move is called “{st.verb}”" if st.verb != "take" else ""
        if st.count.kind == "to":
            text = f"{self.expr(st.player)} picks cards{match} from {self.zone(st.source)} until holding {self.expr(st.count.low)}"
        else:
            text = f"{self.expr(st.player)} picks {self.count(st.count, 'take')}{match} from {self.zone(st.source)}"
        return self.say(st, text + called)

    def visit_Draw(self, st: m.Draw) -> list[Item]:  # noqa: N802 - visitor naming
        src = self.zone(st.source)
        if st.count.kind == "to":
            text = f"{self.expr(st.player)} draws from the top of {src} until holding {self.expr(st.count.low)} cards"
        else:
            text = f"{self.expr(st.player)} draws {self.count(st.count, 'draw')} from the top of {src}"
        if st.fallback is not None:
            only = f", taking only cards that are {self.pattern(st.fallback_matching)}" if st.fallback_matching is not None else ""
            text += f"; when it runs out, from {self.zone(st.fallback)}{only}"
        return self.say(st, text)

    def visit_Move(self, st: m.Move) -> list[Item]:  # noqa: N802 - visitor naming
        mode = getattr(st, "mode", "all")
        moved: Any = getattr(st, "amount", None)
        match = f" that are {self.pattern(st.matching)}" if st.matching is not None else ""
        n = self.expr(moved) if moved is not None else ""
        src = self.zone(st.source)
        if mode == "top" and moved is not None:
            what = f"the top card{match} of {src} is" if n == "1" else f"the top {n} cards{match} of {src} are"
        elif mode == "random" and moved is not None:
            what = f"{n} card{'s' if n != '1' else ''}{match} chosen at random from {src} {'are' if n != '1' else 'is'}"
        else:
            what = f"all cards of {src}{match} are"
        return self.say(st, f"{what} moved to {'the bottom of ' if st.bottom else ''}{self.zone(st.to)}")

    def visit_Keep(self, st: m.Keep) -> list[Item]:  # noqa: N802 - visitor naming
        called = f"; taking is called “{st.verb}”" if st.verb != "take" else ""
        rest = self.zone(st.rest) if st.rest is not None else "it"
        src = self.zone(st.source)
        if not st.choose:
            return self.say(st, f"{self.expr(st.player)} takes every card of {src} into his hand and discards "
                                f"down to {self.expr(st.count)} cards, to {rest}, unseen by the other players "
                                f"unless {rest} is public")
        return self.say(st, f"{self.expr(st.player)} looks through {src} and keeps {self.expr(st.count)} cards of "
                            f"his hand and {src} together, as he chooses (all of them when there are no more); "
                            f"the others go to {rest}, unseen by the other players unless {rest} is public{called}")

    def visit_Cut(self, st: m.Cut) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.zone(st.zone)} is cut: a random number of cards from its top go under the rest")

    def visit_Leads(self, st: m.Leads) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"the cards played to the trick in progress, if any, go back to the hands of those who "
                            f"played them, and {self.expr(st.player)} leads it")

    def visit_ReplayTricks(self, st: m.ReplayTricks) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "the tricks are played again from the first: every card played this deal goes back "
                            "to the hand of the player who played it, and the first trick is led as before")

    def visit_BecomesDealer(self, st: m.BecomesDealer) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.expr(st.player)} becomes the dealer: the roles follow him for the rest of "
                            f"the deal, and the next deal passes on from him")

    def visit_Redeal(self, st: m.Redeal) -> list[Item]:  # noqa: N802 - visitor naming
        who = "the same dealer" if getattr(st, "same_dealer", False) else "the next dealer"
        return self.say(st, f"the deal is cancelled and {who} deals again")

    def visit_Expose(self, st: m.Expose) -> list[Item]:  # noqa: N802 - visitor naming
        if st.zone.owner is None and st.zone.name in self.card_parameters:
            return self.say(st, f"the card named *{st.zone.name}* is shown to everybody")
        return self.say(st, f"{self.zone(st.zone)} is exposed: everybody sees it for the rest of the deal")

    def visit_Forbid(self, st: m.Forbid) -> list[Item]:  # noqa: N802 - visitor naming
        if getattr(st, "kind", "declare") == "choice":
            return self.say(st, f"{self.expr(st.who)} may not choose **{st.declaration}** the next time that choice comes")
        return self.say(st, f"{self.expr(st.who)} may no longer declare **{st.declaration}**")

    def visit_Cancel(self, st: m.Cancel) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"the points that {self.expr(st.who)} scored this deal as “{st.label}” are cancelled")

    def visit_If(self, st: m.If) -> list[Item]:  # noqa: N802 - visitor naming
        return self.if_stmt(st)

    def visit_Phase(self, st: m.Phase) -> list[Item]:  # noqa: N802 - visitor naming
        return self.inline(f"Phase **{st.name}**", st.body, st.cite, lines=[st.span.line])

    def visit_Bid(self, st: m.Bid) -> list[Item]:  # noqa: N802 - visitor naming
        but = f", but not {self.expr(st.forbidden)}" if st.forbidden is not None else ""
        return self.say(st, f"{self.expr(st.player)} bids a number from {self.expr(st.low)} to {self.expr(st.high)}{but}")

    def visit_Add(self, st: m.Add) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.expr(st.amount)} is added to the {st.counter} of {self.expr(st.owner)}")

    def visit_Repeat(self, st: m.Repeat) -> list[Item]:  # noqa: N802 - visitor naming
        cond = f", while {self.condition(st.condition)}" if st.condition is not None else ""
        return [self.item(f"Repeat at most {self.expr(st.bound)} times{cond}", st.cite, lines=[st.span.line], subs=self.block(st.body))]

    def visit_ForEach(self, st: m.ForEach) -> list[Item]:  # noqa: N802 - visitor naming
        lead = "For each side" if st.kind == "side" else "For each player in turn"
        if st.start is not None:
            lead += f", starting with {self.expr(st.start)}"
        if st.exclude is not None:
            lead += f", except {self.expr(st.exclude)}"
        return self.inline(lead, st.body, st.cite, lines=[st.span.line])

    def visit_Choose(self, st: m.Choose) -> list[Item]:  # noqa: N802 - visitor naming
        options: list[Item] = []
        for opt in st.options:
            options.extend(self.inline(f"**{opt.name}**", opt.body, lines=[opt.span.line]))
        return [self.item(f"{capitalised(self.expr(st.player))} chooses one of", st.cite, lines=[st.span.line], subs=options)]

    def visit_Auction(self, st: m.Auction) -> list[Item]:  # noqa: N802 - visitor naming
        return self.auction(st)

    def visit_Tricks(self, st: m.Tricks) -> list[Item]:  # noqa: N802 - visitor naming
        return self.tricks(st)

    def if_stmt(self, st: m.If) -> list[Item]:
        out: list[Item] = []
        for i, (cond, body) in enumerate(st.branches):
            lead = ("If " if i == 0 else "Otherwise, if ") + self.condition(cond)
            out.extend(self.inline(lead, body, st.cite if i == 0 else None, lines=[cond.span.line]))
        if st.orelse:
            out.extend(self.inline("Otherwise", st.orelse, lines=self.else_lines(st)))
        return out

    def else_lines(self, st: m.If) -> list[int]:
        """The line of an ``else:`` (found above the first statement of its block)."""
        first = st.orelse[0].span.line
        last_branch = st.branches[-1][0].span.line
        for n in range(first, last_branch, -1):
            if re.match(r"\s*else\s*:", self.source_line(n)):
                return [n]
        return []

    def auction(self, st: m.Auction) -> list[Item]:
        bids = f"bids run from {self.expr(st.low)} to {self.expr(st.high)}"
        if st.kind == "once_around":
            text = (f"An auction, once around the table starting with {self.expr(st.start)}: each player passes "
                    f"or bids more than the highest bid so far; {bids}; the highest bidder becomes the maker")
        else:
            text = (f"An auction starting with {self.expr(st.start)}, going round until all but one have passed: "
                    f"{bids}; the highest bidder becomes the maker")
        pass_line = [st.all_pass_cite.span.line] if st.all_pass_cite is not None else []
        if st.all_pass == "maker" and st.all_pass_maker is not None and st.all_pass_bid is not None:
            sub = (f"If all pass, {self.expr(st.all_pass_maker)} becomes the maker at {self.expr(st.all_pass_bid)}")
        else:
            sub = "If all pass, the cards are thrown in and dealt again"
        return [self.item(text, st.cite, lines=[st.span.line], subs=[self.item(sub, st.all_pass_cite, lines=pass_line)])]

    def tricks(self, st: m.Tricks) -> list[Item]:
        text = (f"Play {self.expr(st.count)} tricks: {self.expr(st.leader)} leads to the first, and the winner "
                f"of each trick leads to the next")
        subs: list[Item] = []
        if not st.obligations:
            subs.append(("Any card may be played to any trick", [], []))
        for ob in st.obligations:
            subs.append(self.obligation(ob))
        for d in st.declarations:
            subs.extend(self.declaration(d))
        return [self.item(text, st.cite, lines=[st.span.line], subs=subs)]

    def obligation(self, ob: m.Obligation) -> Item:
        if ob.kind == "lead_until_broken" and ob.pattern is not None:
            rule = f"nobody may lead {self.pattern(ob.pattern)} until such a card has been played to a trick"
        elif ob.kind == "lead_first" and ob.pattern is not None:
            rule = f"the first trick must be led with {self.pattern(ob.pattern)} if the leader holds it"
        elif ob.kind == "not_first_trick" and ob.pattern is not None:
            rule = f"nobody may play {self.pattern(ob.pattern)} to the first trick unless he has nothing else he may play"
        else:
            rule = _OBLIGATIONS.get(ob.kind, ob.kind.replace("_", " "))
        if ob.guard is not None:
            rule += f", but only when {self.condition(ob.guard)}"
        return self.item(capitalised(rule), ob.cite, lines=[ob.span.line])

    def declaration(self, d: m.Declaration) -> list[Item]:
        deadline = ("before playing their own first card" if d.deadline == "before_first_card"
                    else "at the latest as they play that card")
        lead = f"A player holding {self.pattern(d.holding)} may declare **{d.name}** {deadline}"
        if d.guard is not None:
            lead += f", but only when {self.condition(d.guard)}"
        return self.inline(lead + "; then", d.body, d.cite, lines=[d.span.line])

    # ------------------------------------------------------------ sections
