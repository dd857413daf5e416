"""The rules of a rule file as readable Markdown prose, generated from its parsed model.

Every sentence ends with the laws its rule cites, so that the prose can be read
against the rule book. Citations the model does not attach to a rule (e.g. on a
section heading or an ``else:`` line) are taken from that source line; anything
still left over is listed at the end, so that no cited law is ever lost.

>>> import tricklang
>>> text = explain(tricklang.load("rules/ecarte.trick"))
>>> text.splitlines()[0]
'# Écarté'
>>> "[E42]" in text
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from . import model as m
from .ruleset import Ruleset
from .walk import Unknown, Value, fold

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


def explain(ruleset: Ruleset) -> str:
    """The rules as Markdown: header, players, deck, options, zones, card points,
    the match, each deal statement and trick obligation, irregularities."""
    return _Explainer(ruleset).run()


def explain_statement(ruleset: Ruleset, node: m.Node) -> str:
    """One statement's reading, worded as :func:`explain` words it, as a Markdown list with
    its laws: a deal statement (with its body), a trick obligation or declaration, or an
    irregularity. Empty for any other node. Raises nothing for a node of ``ruleset``.

    >>> import tricklang
    >>> rules = tricklang.load("rules/ecarte.trick")
    >>> explain_statement(rules, rules.rules.deal[1])
    '- The top card of the pack is turned up to the turnup [E6].'
    """
    ex = _Explainer(ruleset)
    if isinstance(node, m.Obligation):
        items = [ex.obligation(node)]
    elif isinstance(node, m.Declaration):
        items = ex.declaration(node)
    elif isinstance(node, m.Irregularity):
        items = [ex.irregularity(node)]
    elif isinstance(node, m.Stmt):
        items = ex.stmt(node)
    else:
        return ""
    return "\n".join(_markdown(ex, items, numbered=False))


Item = tuple[str, list[str], list[Any]]
"""A list item: its sentence (without the final stop), its laws, and its sub-items."""


def _words(n: int) -> str:
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def _a(word: str) -> str:
    return ("an " if word[:1].upper() in "AEIO8" or word in ("11", "18") else "a ") + word


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _low(text: str) -> str:
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _join(items: Sequence[str], word: str = "and") -> str:
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

_PRECEDENCE = {"or": 1, "and": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "+": 4, "-": 4,
               "*": 5, "%": 5}


class _Explainer:
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
        return _cap(text) + self.cite(*cites, lines=lines) + "."

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
            return f"the {which} of {_join(args)}"
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
            return _a(w)
        if isinstance(p, m.PatCard):
            if p.suit.same_colour:
                return f"the {p.rank} of the other suit of the trump colour"
            if p.suit.name == "trump":
                return f"the {p.rank} of trumps"
            return f"the {p.rank} of {p.suit.name}"
        if isinstance(p, m.PatNot):
            return f"not {self.pattern(p.operand)}"
        if isinstance(p, m.PatOr):
            return _join([self.pattern(o) for o in p.options], "or")
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
            return [(f"{lead}, {_low(text)}", list(dict.fromkeys(laws + inner)), [])]
        return [(lead, laws, items)]

    def stmt(self, st: Any) -> list[Item]:
        c = st.cite
        lines = [st.span.line]

        def say(text: str) -> list[Item]:
            return [self.item(_cap(text), c, lines=lines)]

        kind = type(st).__name__
        if isinstance(st, m.DealCards):
            packets = [self.expr(p) for p in st.packets]
            how = _join(packets, "then") if len(packets) > 1 else packets[0]
            first = self.expr(st.first) if st.first is not None else "the player to the dealer's left"
            return say(f"deal {how} cards to each player, starting with {first}")
        if isinstance(st, m.TurnUp):
            n = self.expr(st.count)
            what = "the top card of the pack is" if n == "1" else f"the top {n} cards of the pack are"
            return say(f"{what} turned up to {self.zone(st.to)}")
        if isinstance(st, m.SetTrump):
            if st.source == "zone" and st.zone is not None:
                return say(f"the suit of the card turned up to {self.zone(st.zone)} is trumps")
            if st.source == "fixed":
                return say(f"{st.suit} are trumps")
            return say("there are no trumps")
        if isinstance(st, m.NameTrump):
            return say(f"{self.expr(st.player)} names the trump suit")
        if isinstance(st, m.Score):
            amount = self.expr(st.amount)
            if isinstance(st.amount, m.IntLit):
                amount = f"{st.amount.value} point{'s' if st.amount.value != 1 else ''}"
            label = f" (“{st.label}”)" if st.label else ""
            return say(f"{self.expr(st.who)} {'loses' if st.negative else 'scores'} {amount}{label}")
        if isinstance(st, m.Let):
            if st.rebind:
                return say(f"set `{st.name}` to {self.expr(st.value)}")
            return say(f"let `{st.name}` be {self.expr(st.value)}")
        if isinstance(st, m.StopLoop):
            return say("stop repeating")
        if isinstance(st, m.Pass):
            return say("nothing more happens")
        if isinstance(st, m.EndDeal):
            return say("the deal ends here")
        if isinstance(st, m.Discard):
            match = f" (only cards that are {self.pattern(st.matching)})" if st.matching is not None else ""
            return say(f"{self.expr(st.player)} discards {self.count(st.count, 'discard')}{match} to {self.zone(st.to)}")
        if isinstance(st, m.Take):
            match = f" (only cards that are {self.pattern(st.matching)})" if st.matching is not None else ""
            called = f"; this move is called “{st.verb}”" if st.verb != "take" else ""
            if st.count.kind == "to":
                text = f"{self.expr(st.player)} picks cards{match} from {self.zone(st.source)} until holding {self.expr(st.count.low)}"
            else:
                text = f"{self.expr(st.player)} picks {self.count(st.count, 'take')}{match} from {self.zone(st.source)}"
            return say(text + called)
        if isinstance(st, m.Draw):
            src = self.zone(st.source)
            if st.count.kind == "to":
                text = f"{self.expr(st.player)} draws from the top of {src} until holding {self.expr(st.count.low)} cards"
            else:
                text = f"{self.expr(st.player)} draws {self.count(st.count, 'draw')} from the top of {src}"
            if st.fallback is not None:
                only = f", taking only cards that are {self.pattern(st.fallback_matching)}" if st.fallback_matching is not None else ""
                text += f"; when it runs out, from {self.zone(st.fallback)}{only}"
            return say(text)
        if isinstance(st, m.Move):
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
            return say(f"{what} moved to {'the bottom of ' if st.bottom else ''}{self.zone(st.to)}")
        if isinstance(st, m.Keep):
            called = f"; taking is called “{st.verb}”" if st.verb != "take" else ""
            rest = self.zone(st.rest) if st.rest is not None else "it"
            return say(f"{self.expr(st.player)} looks through {self.zone(st.source)} and keeps {self.expr(st.count)} cards of "
                       f"his hand and {self.zone(st.source)} together, as he chooses (all of them when there are no more); "
                       f"the others go to {rest}, unseen by the other players unless {rest} is public{called}")
        if isinstance(st, m.Cut):
            return say(f"{self.zone(st.zone)} is cut: a random number of cards from its top go under the rest")
        if kind == "Redeal":
            who = "the same dealer" if getattr(st, "same_dealer", False) else "the next dealer"
            return say(f"the deal is cancelled and {who} deals again")
        if kind == "Expose":
            return say(f"{self.zone(st.zone)} is exposed: everybody sees it for the rest of the deal")
        if kind == "Forbid":
            if getattr(st, "kind", "declare") == "choice":
                return say(f"{self.expr(st.who)} may not choose **{st.declaration}** the next time that choice comes")
            return say(f"{self.expr(st.who)} may no longer declare **{st.declaration}**")
        if kind == "Cancel":
            return say(f"the points that {self.expr(st.who)} scored this deal as “{st.label}” are cancelled")
        if isinstance(st, m.If):
            return self.if_stmt(st)
        if isinstance(st, m.Phase):
            return self.inline(f"Phase **{st.name}**", st.body, c, lines=lines)
        if isinstance(st, m.Bid):
            but = f", but not {self.expr(st.forbidden)}" if st.forbidden is not None else ""
            return say(f"{self.expr(st.player)} bids a number from {self.expr(st.low)} to {self.expr(st.high)}{but}")
        if isinstance(st, m.Add):
            return say(f"{self.expr(st.amount)} is added to the {st.counter} of {self.expr(st.owner)}")
        if isinstance(st, m.Repeat):
            cond = f", while {self.condition(st.condition)}" if st.condition is not None else ""
            return [self.item(f"Repeat at most {self.expr(st.bound)} times{cond}", c, lines=lines, subs=self.block(st.body))]
        if isinstance(st, m.ForEach):
            lead = "For each side" if st.kind == "side" else "For each player in turn"
            if st.start is not None:
                lead += f", starting with {self.expr(st.start)}"
            if st.exclude is not None:
                lead += f", except {self.expr(st.exclude)}"
            return self.inline(lead, st.body, c, lines=lines)
        if isinstance(st, m.Choose):
            options: list[Item] = []
            for opt in st.options:
                options.extend(self.inline(f"**{opt.name}**", opt.body, lines=[opt.span.line]))
            return [self.item(f"{_cap(self.expr(st.player))} chooses one of", c, lines=lines, subs=options)]
        if isinstance(st, m.Auction):
            return self.auction(st)
        if isinstance(st, m.Tricks):
            return self.tricks(st)
        text = self.source_line(st.span.line) or kind
        return [self.item(f"`{CITE_RE.sub('', text).strip()}`", c, lines=lines)]

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
        return self.item(_cap(rule), ob.cite, lines=[ob.span.line])

    def declaration(self, d: m.Declaration) -> list[Item]:
        deadline = ("before playing their own first card" if d.deadline == "before_first_card"
                    else "at the latest as they play that card")
        lead = f"A player holding {self.pattern(d.holding)} may declare **{d.name}** {deadline}"
        if d.guard is not None:
            lead += f", but only when {self.condition(d.guard)}"
        return self.inline(lead + "; then", d.body, d.cite, lines=[d.span.line])

    # ------------------------------------------------------------ sections
    def run(self) -> str:
        rules, rs = self.rules, self.rs
        out: list[str] = [f"# {rs.name}", ""]
        if rules.source:
            out += [f"*After {rules.source}.*", ""]
        out += [
            f"Generated by `tricklang explain` from `{rs.path}` (tricklang {rules.version}, "
            f"sha256 `{rs.digest[:12]}`). The bracketed numbers cite the laws each rule implements.",
            "",
        ]
        out += self.players() + self.deck() + self.options_table() + self.zone_list() + self.points()
        out += self.match() + self.deal() + self.irregularities()
        out += self.leftovers()
        return "\n".join(out).rstrip() + "\n"

    def header_lines(self, tag: str) -> list[int]:
        return [span.line for name, span in self.rules.sections if name == tag]

    def players(self) -> list[str]:
        p = self.rules.players
        if p is None:
            return []
        out = ["## Players", ""]
        text = f"there are {_words(p.count)} players, seated 0 to {p.count - 1} clockwise"
        if p.teams:
            teams = [_join([str(s) for s in t]) for t in p.teams]
            text += ", in partnerships: " + " against ".join(f"seats {t}" for t in teams)
        else:
            text += "; each plays for themselves"
        out.append(self.sentence(text, p.cite, lines=[p.span.line]))
        for role in self.rules.roles:
            out += ["", self.sentence(f"the **{role.name}** is {self.expr(role.value)}", role.cite, lines=[role.span.line])]
        return out + [""]

    def deck(self) -> list[str]:
        d = self.rules.deck
        if d is None:
            return []
        suits = [f"{s.name} ({s.colour})" for s in d.suits]
        out = ["## The deck" + self.cite(d.cite, lines=self.header_lines("deck")), ""]
        suit_lines = sorted({s.span.line for s in d.suits})
        out.append(self.sentence(f"the deck has {len(d.suits) * len(d.ranks)} cards in {_words(len(d.suits))} suits: "
                                 f"{_join(suits)}", lines=suit_lines))
        rank_line = [d.ranks_span.line]
        out += ["", self.sentence(f"the ranks, from high to low: {' '.join(d.ranks)}", lines=rank_line)]
        if d.trump_ranks is None:
            out += ["", "The trump suit ranks in the same order."]
        else:
            items = [t if isinstance(t, str) else self.pattern(t) for t in d.trump_ranks]
            extra = [t for t in d.trump_ranks if not isinstance(t, str)]
            text = f"in the trump suit the order is: {', '.join(items)}"
            if extra:
                text += f"; {_join([self.pattern(t) for t in extra])} belong{'s' if len(extra) == 1 else ''} to the trump suit"
            trump_line = [d.trump_span.line] if d.trump_span is not None else []
            out += ["", self.sentence(text, lines=trump_line)]
        out.append("")
        out.append("Cards are written as rank then suit letter: " + ", ".join(
            f"`{d.ranks[0]}{s.name[0].upper()}` ({d.ranks[0]} of {s.name})" for s in d.suits[:2]) + ".")
        return out + [""]

    def options_table(self) -> list[str]:
        opts = self.rules.options
        if not opts:
            return ["## Options", "", "This game has no options.", ""]
        out = ["## Options", "", "Set with `-o name=value`.", "",
               "| Option | Value | Default | Allowed | Meaning | Laws |", "|---|---|---|---|---|---|"]
        for o in opts:
            value = self.rs.options.get(o.name, o.default)
            out.append(f"| `{o.name}` | `{_show(value)}` | `{_show(o.default)}` | {allowed(o)} | "
                       f"{o.doc.replace('|', '/') or '-'} |{self.cite(o.cite, lines=[o.span.line]) or ' -'} |")
        return out + [""]

    def zone_list(self) -> list[str]:
        if not self.rules.zones:
            return []
        out = ["## Zones", ""]
        for z in self.rules.zones:
            whose = {"player": "one per player", "side": "one per side", "shared": "shared"}[z.owner]
            owner = {"player": "its owner", "side": "the players of its side", "shared": "nobody"}[z.owner]
            seen = {"public": "face up: everybody sees it", "owner": f"seen only by {owner}",
                    "hidden": "face down: nobody sees it"}[z.visibility]
            notes = []
            if z.pack:
                notes.append("the pack: the cards are shuffled here and dealt from it")
            if z.name == "hand":
                notes.append("the cards each player holds")
            if z.name == "won":
                notes.append("tricks won are put here")
            note = "; " + "; ".join(notes) if notes else ""
            out.append(f"- **{z.name}** ({whose}), {seen}{note}{self.cite(z.cite, lines=[z.span.line])}.")
        return out + [""]

    def points(self) -> list[str]:
        if not self.rules.points:
            return []
        head = self.cite(lines=self.header_lines("points"))
        out = [f"## Card points{head}", "", "Cards won in tricks are worth points to the side that wins them:", ""]
        for p in self.rules.points:
            n = p.value
            out.append(f"- **{p.label}**: {self.pattern(p.pattern)}, {n} point{'s' if n != 1 else ''}"
                       f"{self.cite(p.cite, lines=[p.span.line])}.")
        return out + [""]

    def match(self) -> list[str]:
        mt = self.rules.match
        if mt is None:
            return []
        by_kind: dict[str, list[m.Citation]] = {}
        keys = {"first dealer": "first", "dealer passes": "rotation", "game to": "target", "ties go": "ties",
                "at most": "limit"}
        for c in mt.cites:
            text = self.source_line(c.span.line)
            kind = next((k for prefix, k in keys.items() if text.startswith(prefix)), "other")
            by_kind.setdefault(kind, []).append(c)
        out = ["## The match" + self.cite(mt.cite, lines=self.header_lines("match")), ""]

        def line(text: str, kind: str) -> None:
            out.append("- " + self.sentence(text, *by_kind.pop(kind, [])))

        if mt.first_dealer == "random":
            line("the first dealer is chosen at random", "first")
        else:
            line(f"seat {mt.first_dealer} deals first", "first")
        line({"left": "the deal passes to the left after each deal", "right": "the deal passes to the right after each deal",
              "never": "the same player deals every time"}[mt.rotation], "rotation")
        if mt.target is not None:
            when = ("the moment it gets there, even in the middle of a deal" if mt.target_when == "at_once"
                    else "counted at the end of a deal")
            line(f"the first side to reach {self.expr(mt.target)} points wins the match, {when}", "target")
        else:
            line("the match has no target score", "target")
        if mt.ties is not None:
            line(f"when more than one side reaches the target in the same deal, {self.expr(mt.ties)} wins", "ties")
        if mt.deal_limit is not None:
            line(f"the match is abandoned without a winner after {mt.deal_limit} deals", "limit")
        for rest in by_kind.values():
            for c in rest:
                out.append(f"- `{CITE_RE.sub('', self.source_line(c.span.line)).strip()}`{self.cite(c)}.")
        return out + [""]

    def deal(self) -> list[str]:
        if not self.rules.deal:
            return []
        out = ["## Each deal" + self.cite(lines=self.header_lines("deal")), ""]
        out += _markdown(self, self.block(self.rules.deal), numbered=True)
        return out + [""]

    def irregularities(self) -> list[str]:
        irregular = getattr(self.rules, "irregularities", ())
        if not irregular:
            return []
        out = ["## Irregularities", ""]
        items: list[Item] = []
        for irr in irregular:
            items.append(self.irregularity(irr))
        return out + _markdown(self, items, numbered=False) + [""]

    def irregularity(self, irr: m.Irregularity) -> Item:
        lead = f"**{irr.name}**"
        if getattr(irr, "by", None) is not None:
            lead += f", by {self.expr(irr.by)}"
        phases = getattr(irr, "phases", ())
        if phases:
            lead += f", during {_join(list(phases), 'or')}"
        if getattr(irr, "guard", None) is not None:
            lead += f", when {self.condition(irr.guard)}"
        return self.item(lead, irr.cite, lines=[irr.span.line], subs=self.block(irr.body))

    def leftovers(self) -> list[str]:
        rows = []
        for n, laws in sorted(self.line_laws.items()):
            missing = [law for law in laws if law not in self.emitted]
            if missing:
                rows.append(f"- line {n}: `{CITE_RE.sub('', self.source_line(n)).strip()}` [{', '.join(missing)}]")
                self.emitted.update(missing)
        if not rows:
            return []
        return ["## Other citations", "", "These lines cite laws that are not attached to a rule above:", "", *rows, ""]


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def allowed(o: m.Option) -> str:
    """The values an option accepts, in words."""
    if o.type == "bool":
        return "true or false"
    if o.type == "choice":
        return " or ".join(f"`{c}`" for c in o.choices)
    if o.low is not None and o.high is not None:
        return f"a number {o.low}..{o.high}"
    return "a number"


def _markdown(explainer: _Explainer, items: Sequence[Item], numbered: bool, depth: int = 0) -> list[str]:
    out: list[str] = []
    pad = "    " * depth
    for i, (text, laws, subs) in enumerate(items, 1):
        mark = f"{i}." if numbered else "-"
        out.append(f"{pad}{mark} {text}{explainer.show(laws)}{':' if subs else '.'}")
        out.extend(_markdown(explainer, subs, numbered=False, depth=depth + 1))
    return out
