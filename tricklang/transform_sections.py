"""The transformer's rules for the header and the sections before the deal: tokens,
players, roles, the deck, options, zones, counters, points and the match."""

from __future__ import annotations

from typing import Any, Literal

from lark import Token, Transformer, v_args

from . import model as m
from .tree import (
    MAX_DIGITS,
    NumberTooLargeError,
    Tagged,
    cite_of,
    one_of,
    span_of,
    tok_span,
)


def _tagged(children: list[Any], tag: str) -> bool:
    """Whether a keyword alternative (``, pack``, ``, bookkeeping``) is among the children."""
    return any(isinstance(c, Tagged) and c.tag == tag for c in children)


_LISTED: dict[type, str] = {
    m.Role: "roles", m.Option: "options", m.Zone: "zones", m.Irregularity: "irregularities", m.Counter: "counters",
    m.Table: "tables", m.Teams: "teams", m.MeldTable: "melds", m.BidTable: "bids", m.Order: "orders",
}
"""The sections a file may hold several of: the model class of each, and the RuleFile field it fills."""


@v_args(meta=True)
class SectionRules(Transformer[Token, m.RuleFile]):
    """Rules of the parser's transformer for everything but the deal."""

    path: str

    # ------------------------------------------------------------ tokens
    def INT(self, tok: Token) -> Token:  # noqa: N802 - Lark naming
        if len(tok.lstrip("-")) > MAX_DIGITS:
            raise NumberTooLargeError(tok)
        return tok

    def SIGNED_INT(self, tok: Token) -> Token:  # noqa: N802 - Lark naming
        return self.INT(tok)

    def CITE(self, tok: Token) -> m.Citation:  # noqa: N802 - Lark naming
        body = str(tok)[1:-1]
        laws = tuple(part.strip() for part in body.split(",") if part.strip())
        return m.Citation.model_construct(laws=laws, span=tok_span(tok))

    def cite(self, meta: Any, children: list[Any]) -> m.Citation:
        c: m.Citation = children[0]
        return c

    # ------------------------------------------------------------ header
    def start(self, meta: Any, children: list[Any]) -> m.RuleFile:
        fields: dict[str, Any] = {"path": self.path}
        listed: dict[str, list[Any]] = {name: [] for name in (*_LISTED.values(), "points")}
        sections: list[tuple[str, m.Span]] = []
        for child in children:
            if isinstance(child, Tagged):
                tag, (value, span) = child.tag, child.value
                sections.append((tag, span))
                if tag == "version":
                    fields["version"], fields["version_span"] = value, span
                elif tag == "deal":
                    fields["deal"], fields["deal_span"] = value, span
                elif tag == "points":
                    listed["points"].extend(value)
                elif tag == "extends":
                    fields["extends"], fields["extends_span"] = value, span
                elif tag in fields:
                    continue  # a duplicate section: the checker reports it from `sections`
                else:
                    fields[tag] = value
            elif type(child) in _LISTED:
                listed[_LISTED[type(child)]].append(child)
        listed["options"][:0] = _seating_option(fields.get("players"))
        fields.update({k: tuple(v) for k, v in listed.items()})
        return m.RuleFile.model_construct(**fields, sections=tuple(sections))

    def extends(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("extends", (str(children[0])[1:-1], span_of(meta)))

    def counter(self, meta: Any, children: list[Any]) -> m.Counter:
        per_deal = any(isinstance(c, Tagged) and c.tag == "per_deal" for c in children)
        return m.Counter.model_construct(name=str(children[0]), owner=children[1].tag, per_deal=per_deal,
                                         bookkeeping=_tagged(children, "bookkeeping"),
                                         cite=cite_of(children), span=span_of(meta))

    def per_deal(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("per_deal")

    def table(self, meta: Any, children: list[Any]) -> m.Table:
        values = tuple(int(c) for c in children if isinstance(c, Token) and c.type == "SIGNED_INT")
        return m.Table.model_construct(name=str(children[0]), values=values, cite=cite_of(children), span=span_of(meta))

    def teams(self, meta: Any, children: list[Any]) -> m.Teams:
        names = tuple(str(c) for c in children if isinstance(c, Token) and c.type == "NAME")
        return m.Teams.model_construct(names=names, cite=cite_of(children), span=span_of(meta))

    def version(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("version", (int(children[0]), span_of(meta)))

    def game(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("game", (str(children[0])[1:-1], span_of(meta)))

    def source(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("source", (str(children[0])[1:-1], span_of(meta)))

    def players(self, meta: Any, children: list[Any]) -> Tagged:
        teams = one_of(children, tuple) or ()
        count: Tagged = children[0]
        low, high, default = count.value
        kind: Literal["fixed", "range"] = "range" if count.tag == "range" else "fixed"
        node = m.Players.model_construct(count=default, kind=kind, low=low, high=high, teams=teams,
                                         cite=cite_of(children), span=span_of(meta))
        return Tagged("players", (node, span_of(meta)))

    def fixed_players(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("fixed", (None, None, int(children[0])))

    def player_range(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("range", (int(children[0]), int(children[1]), int(children[2])))

    def play_direction(self, meta: Any, children: list[Any]) -> Tagged:
        node = m.PlayDirection.model_construct(direction=children[0].tag, cite=cite_of(children), span=span_of(meta))
        return Tagged("direction", (node, span_of(meta)))

    def play_left(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("left")

    def play_right(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("right")

    def partnerships(self, meta: Any, children: list[Any]) -> tuple[tuple[int, ...], ...]:
        return tuple(children)

    def team(self, meta: Any, children: list[Any]) -> tuple[int, ...]:
        return tuple(int(c) for c in children)

    def role(self, meta: Any, children: list[Any]) -> m.Role:
        return m.Role.model_construct(name=str(children[0]), value=children[1], cite=cite_of(children), span=span_of(meta))

    # ------------------------------------------------------------ deck
    def deck(self, meta: Any, children: list[Any]) -> Tagged:
        suits: tuple[m.SuitDecl, ...] = ()
        ranks: tuple[str, ...] = ()
        rank_codes: tuple[tuple[str, str], ...] = ()
        ranks_span = span_of(meta)
        trump: tuple[Any, ...] | None = None
        trump_span = None
        removed: list[m.Pattern] = []
        extra: list[m.ExtraCard] = []
        copies: int | None = None
        copies_span = None
        suit_ranks = tuple(c for c in children if isinstance(c, m.SuitRanks))
        for child in children:
            if isinstance(child, m.ExtraCard):
                extra.append(child)
            elif isinstance(child, Tagged):
                if child.tag == "suits":
                    suits = child.value
                elif child.tag == "ranks":
                    words, ranks_span = child.value
                    ranks = tuple(rank for rank, _ in words)
                    rank_codes = tuple((rank, code) for rank, code in words if code is not None)
                elif child.tag == "trump_ranks":
                    trump, trump_span = child.value
                elif child.tag == "remove":
                    removed.append(child.value)
                elif child.tag == "copies":
                    copies, copies_span = child.value
        node = m.Deck.model_construct(
            suits=suits,
            ranks=ranks,
            trump_ranks=trump,
            rank_codes=rank_codes,
            removed=tuple(removed),
            extra_cards=tuple(extra),
            copies=copies,
            copies_span=copies_span,
            cite=cite_of(children),
            span=span_of(meta),
            ranks_span=ranks_span,
            trump_span=trump_span,
            suit_ranks=suit_ranks,
        )
        return Tagged("deck", (node, span_of(meta)))

    def suit_ranks(self, meta: Any, children: list[Any]) -> m.SuitRanks:
        words = [str(c) for c in children if isinstance(c, Token)]
        return m.SuitRanks.model_construct(scope=words[0], ranks=tuple(words[1:]), span=span_of(meta))

    # ------------------------------------------------------------ card orders
    def order(self, meta: Any, children: list[Any]) -> m.Order:
        code = next((str(c)[1:-1] for c in children if isinstance(c, Token) and c.type == "STRING"), None)
        fields: dict[str, Any] = {"ranks": tuple(c for c in children if isinstance(c, m.SuitRanks))}
        for c in children:
            if isinstance(c, Tagged) and c.tag == "trumps":
                fields["trumps"], fields["trumps_span"] = c.value
            elif isinstance(c, Tagged) and c.tag == "no_trumps":
                fields["no_trumps"] = True
        return m.Order.model_construct(name=str(children[0]), code=code, cite=cite_of(children), span=span_of(meta),
                                       **fields)

    def order_trumps(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("trumps", (self.trump_ranks(meta, children).value[0], span_of(meta)))

    def order_no_trumps(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("no_trumps")

    def order_ranks(self, meta: Any, children: list[Any]) -> m.SuitRanks:
        words = [str(c) for c in children if isinstance(c, Token)]
        scope = next((c.value for c in children if isinstance(c, Tagged) and c.tag == "scope"), "")
        return m.SuitRanks.model_construct(scope=scope, ranks=tuple(words), span=span_of(meta))

    def order_scope(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("scope", str(children[0]))

    def suits(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("suits", tuple(c for c in children if isinstance(c, m.SuitDecl)))

    def suit_decl(self, meta: Any, children: list[Any]) -> m.SuitDecl:
        if len(children) == 3:
            return m.SuitDecl.model_construct(name=str(children[0]), code=str(children[1])[1:-1],
                                              colour=str(children[2]), span=span_of(meta))
        return m.SuitDecl.model_construct(name=str(children[0]), colour=str(children[1]), span=span_of(meta))

    def ranks(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("ranks", (tuple(c for c in children if isinstance(c, tuple)), span_of(meta)))

    def rank_word(self, meta: Any, children: list[Any]) -> tuple[str, str | None]:
        return str(children[0]), str(children[1])[1:-1] if len(children) > 1 else None

    def remove(self, meta: Any, children: list[Any]) -> Tagged:
        pattern = children[0]
        if isinstance(pattern, m.PatOr) and len(pattern.options) == 1:
            pattern = pattern.options[0]
        return Tagged("remove", pattern)

    def extra_card(self, meta: Any, children: list[Any]) -> m.ExtraCard:
        return m.ExtraCard.model_construct(name=str(children[0]), code=str(children[1])[1:-1], cite=cite_of(children),
                                           span=span_of(meta))

    def copies(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("copies", (int(children[0]), span_of(meta)))

    def trump_ranks(self, meta: Any, children: list[Any]) -> Tagged:
        items: list[Any] = []
        for c in children:
            if isinstance(c, Token):
                items.append(str(c))
            elif isinstance(c, m.PatOr) and len(c.options) == 1:
                items.append(c.options[0])
            elif not isinstance(c, m.Citation):
                items.append(c)
        return Tagged("trump_ranks", (tuple(items), span_of(meta)))

    # ------------------------------------------------------------ options and zones
    def option(self, meta: Any, children: list[Any]) -> m.Option:
        name = str(children[0])
        kind, choices = children[1].value
        default_tok: Token = children[2]
        domain = one_of(children, tuple)
        doc = next((str(c)[1:-1] for c in children[3:] if isinstance(c, Token) and c.type == "STRING"), "")
        default: int | bool | str
        text = str(default_tok)
        if default_tok.type == "SIGNED_INT":
            default = int(text)
        elif text in ("true", "false"):
            default = text == "true"
        else:
            default = text
        return m.Option.model_construct(
            name=name,
            type=kind,
            default=default,
            choices=choices,
            low=domain[0] if domain else None,
            high=domain[1] if domain else None,
            doc=doc,
            cite=cite_of(children),
            span=span_of(meta),
        )

    def int_type(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("type", ("int", ()))

    def bool_type(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("type", ("bool", ()))

    def choice_type(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("type", ("choice", tuple(str(c) for c in children)))

    def opt_value(self, meta: Any, children: list[Any]) -> Token:
        tok: Token = children[0]
        return tok

    def domain(self, meta: Any, children: list[Any]) -> tuple[int, int]:
        return (int(children[0]), int(children[1]))

    def zone(self, meta: Any, children: list[Any]) -> m.Zone:
        return m.Zone.model_construct(
            name=str(children[0]),
            owner=children[1].tag,
            visibility=children[2].tag,
            pack=_tagged(children, "pack"),
            bookkeeping=_tagged(children, "bookkeeping"),
            cite=cite_of(children),
            span=span_of(meta),
        )

    def zone_pack(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("pack")

    def bookkeeping(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("bookkeeping")

    def per_player(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("player")

    def per_side(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("side")

    def shared(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("shared")

    def public(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("public")

    def owner(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("owner")

    def hidden(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("hidden")

    def points(self, meta: Any, children: list[Any]) -> Tagged:
        cite = cite_of(children)
        table = next((str(c) for c in children if isinstance(c, Token) and c.type == "NAME"), "")
        lines = []
        for c in children:
            if isinstance(c, m.PointCard):
                update: dict[str, Any] = {"table": table}
                if c.cite is None and cite is not None:
                    update["cite"] = cite
                lines.append(c.model_copy(update=update))
        return Tagged("points", (tuple(lines), span_of(meta)))

    def point_line(self, meta: Any, children: list[Any]) -> m.PointCard:
        return m.PointCard.model_construct(
            label=str(children[0])[1:-1],
            pattern=children[1],
            value=int(children[2]),
            cite=cite_of(children),
            span=span_of(meta),
        )

    # ------------------------------------------------------------ melds
    def melds_section(self, meta: Any, children: list[Any]) -> m.MeldTable:
        loose = tuple(c for c in children if isinstance(c, m.MeldLine))
        classes = [c for c in children if isinstance(c, m.MeldClass)]
        if loose:  # lines outside a class form one class, first
            classes.insert(0, m.MeldClass.model_construct(name="", lines=loose, span=loose[0].span))
        return m.MeldTable.model_construct(name=str(children[0]), classes=tuple(classes), cite=cite_of(children),
                                           span=span_of(meta))

    def meld_class(self, meta: Any, children: list[Any]) -> m.MeldClass:
        lines = tuple(c for c in children if isinstance(c, m.MeldLine))
        cite = cite_of(children)
        if cite is not None:
            lines = tuple(x if x.cite is not None else x.model_copy(update={"cite": cite}) for x in lines)
        return m.MeldClass.model_construct(name=str(children[0]), lines=lines, span=span_of(meta))

    def meld_line(self, meta: Any, children: list[Any]) -> m.MeldLine:
        shape: Tagged = children[1]
        numbers = [int(c) for c in children[2:] if isinstance(c, Token) and c.type == "INT"]
        return m.MeldLine.model_construct(label=str(children[0])[1:-1], kind=shape.tag, **shape.value,  # type: ignore[arg-type]
                                          value=numbers[0], double=numbers[1] if len(numbers) > 1 else None,
                                          cite=cite_of(children), span=span_of(meta))

    def meld_ranks(self, meta: Any, children: list[Any]) -> Tagged:
        if len(children) == 1 and not isinstance(children[0], Token):
            return Tagged("pattern", children[0])
        return Tagged("ranks", tuple(str(c) for c in children))

    @staticmethod
    def _ranks(tagged: Tagged) -> dict[str, Any]:
        return {"rank_pattern": tagged.value} if tagged.tag == "pattern" else {"ranks": tagged.value}

    def meld_cards(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("cards", {**self._ranks(children[0]), "suit": children[1]})

    def meld_listed(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("listed", {"cards": tuple(children)})

    def meld_suits(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("suits", {**self._ranks(children[0]), "scope": children[1].tag,
                                "exclude": children[2] if len(children) > 2 else None})

    def meld_run(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("run", {"length": int(children[0]), "ranks": tuple(str(c) for c in children[1:])})

    def any_suit(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("any")

    def every_suit(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("every")

    # ------------------------------------------------------------ match
    def match(self, meta: Any, children: list[Any]) -> Tagged:
        fields: dict[str, Any] = {}
        cites: list[m.Citation] = []
        for c in children:
            if isinstance(c, Tagged):
                value, cite = c.value
                if c.tag == "target":
                    fields["target"], fields["target_when"] = value
                else:
                    fields[c.tag] = value
                if cite is not None:
                    cites.append(cite)
        node = m.Match.model_construct(**fields, cite=cite_of(children), cites=tuple(cites), span=span_of(meta))
        return Tagged("match", (node, span_of(meta)))

    def first_dealer(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("first_dealer", (children[0].value, cite_of(children)))

    def fd_random(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("fd", "random")

    def fd_seat(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("fd", int(children[0]))

    def rotation(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("rotation", (children[0].value, cite_of(children)))

    def rot_left(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("rot", "left")

    def rot_right(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("rot", "right")

    def rot_never(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("rot", "never")

    def target(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("target", ((children[0], children[1].tag), cite_of(children)))

    def at_once(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("at_once")

    def after_deal(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("after_deal")

    def ties(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("ties", (children[0], cite_of(children)))

    def deal_limit(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("deal_limit", (int(children[0]), cite_of(children)))

    def lowest_wins(self, meta: Any, children: list[Any]) -> Tagged:
        return Tagged("lowest_wins", (True, cite_of(children)))


def _seating_option(players: object) -> list[m.Option]:
    """`players LO..HI = D` declares an option `players` of its own (design 3.10)."""
    if not isinstance(players, m.Players) or players.kind != "range":
        return []
    return [m.Option.model_construct(name="players", type="int", default=players.count, low=players.low,
                                     high=players.high, doc="The number of players", cite=players.cite,
                                     span=players.span)]
