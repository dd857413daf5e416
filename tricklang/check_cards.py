"""The checker's pass over cards: the deck and card patterns (see
:class:`tricklang.checker.Checker` for the codes; ``ambiguous-pattern-word`` is this
module's: a pattern word that is both a colour and a rank or a suit)."""

from __future__ import annotations

from collections import Counter

from . import model as m
from .budget import deck_limits
from .check_context import CheckerContext
from .check_statements import MAX_CARDS
from .deck import NO_TRUMP, CardModel, all_ranks, card_codes
from .melds import MAX_INSTANCES, Instance, instances
from .types import SUIT, Scope

MAX_SUITS = 26
COLOURS = ("red", "black", "blue", "green", "yellow", "white", "none", "special")
"""The colours of suits: ``none`` or ``special`` for a suit of no colour (French Tarot's atouts)."""
MAX_COPIES = 4
"""At most this many copies of each card (``copies N``)."""


def _good_code(code: str) -> bool:
    """A code given in the deck (a suit's, a rank's, an extra card's): 1 to 3 letters or digits."""
    return 1 <= len(code) <= 3 and code.isalnum()


class CardChecks:
    """Checks the deck and card patterns for a :class:`~tricklang.checker.Checker`, reporting through it."""

    def __init__(self, checker: CheckerContext, fixed: bool = False) -> None:
        self.c = checker
        self.fixed = fixed  # patterns compiled to fixed tables (trick-play rules, hooks, 'holder of'...)
        deck = checker.rules.deck
        self.ranks = set(all_ranks(deck)) if deck is not None else set()
        self.suits = {s.name for s in deck.suits} if deck is not None else set()
        self.extras = {x.name for x in deck.extra_cards} if deck is not None else set()
        self.colours = {s.colour for s in deck.suits} if deck is not None else set()

    # ------------------------------------------------------------ the deck
    def deck(self) -> None:
        d = self.c.rules.deck
        if d is None:
            return
        names: set[str] = set()
        letters: dict[str, str] = {}
        for s in d.suits:
            if s.name in names:
                self.c.error("duplicate-name", f"suit '{s.name}' is declared twice", s.span)
            names.add(s.name)
            if s.colour not in COLOURS:
                self.c.error("bad-colour", f"unknown colour '{s.colour}'", s.span, "colours are " + ", ".join(COLOURS))
            if s.code is not None and not _good_code(s.code):
                self.c.error("ambiguous-card-code", f"suit '{s.name}' has the code \"{s.code}\": a suit's code is 1 to 3 "
                             "letters or digits", s.span)
                continue
            letter = (s.code or s.name[0]).upper()
            if letter in letters:
                self.c.error("ambiguous-card-code", f"suits '{letters[letter]}' and '{s.name}' both have the code "
                             f"'{letter}', so card codes would be ambiguous", s.span,
                             f"give one a code of its own: {s.name} \"X\" {s.colour}")
            letters[letter] = s.name
        seen: set[str] = set()
        own = dict(d.rank_codes)
        rank_codes: dict[str, str] = {}
        for rank in d.ranks:
            if rank in seen:
                self.c.error("bad-rank", f"rank '{rank}' is listed twice", d.ranks_span)
            seen.add(rank)
            code = own.get(rank, rank)
            if rank in own and not _good_code(code):
                self.c.error("bad-rank", f"rank '{rank}' has the code \"{code}\": a rank's code is 1 to 3 letters or digits",
                             d.ranks_span)
            elif rank not in own and len(rank) > 3:
                self.c.error("bad-rank", f"rank '{rank}' is too long to be its own code: codes are 1 to 3 characters "
                             "(K, 10, 7)", d.ranks_span, f"give it a code: {rank} \"{rank[0].upper()}\"")
            elif code.upper() in rank_codes and rank_codes[code.upper()] != rank:
                self.c.error("ambiguous-card-code", f"ranks '{rank_codes[code.upper()]}' and '{rank}' both have the code "
                             f"'{code.upper()}', so card codes would be ambiguous", d.ranks_span)
            rank_codes.setdefault(code.upper(), rank)
        if not d.suits or not d.ranks:
            self.c.error("missing-section", "the deck needs 'suits' and 'ranks' lines", d.span)
        self._extra_cards(d, names | seen)
        for too_large in deck_limits(self.c.rules, MAX_SUITS, MAX_CARDS):
            self.c.error("limit-exceeded", too_large, d.span)
        if d.trump_ranks is not None:
            self._trump_ranks(d, seen)
        self._pack(d)

    def _extra_cards(self, d: m.Deck, taken: set[str]) -> None:
        """Extra cards: a name of their own, and a code no card of the suits has."""
        codes = {c.upper() for c in card_codes(d)}
        for x in d.extra_cards:
            if x.name in taken:
                self.c.error("duplicate-name", f"card '{x.name}' is named like a suit, a rank or another card", x.span)
            taken.add(x.name)
            if not _good_code(x.code):
                self.c.error("ambiguous-card-code", f"card '{x.name}' has the code \"{x.code}\": a card's code is 1 to 3 "
                             "letters or digits", x.span)
            elif x.code.upper() in codes:
                self.c.error("ambiguous-card-code", f"card '{x.name}' has the code '{x.code.upper()}', which another card "
                             "has", x.span)
            codes.add(x.code.upper())

    def _pack(self, d: m.Deck) -> None:
        """``remove`` and ``copies`` (``bad-deck``): the pack keeps a card, keeps every extra card, and
        holds 1 to :data:`MAX_COPIES` copies of each."""
        if d.copies is not None and not 1 <= d.copies <= MAX_COPIES:
            self.c.error("bad-deck", f"'copies {d.copies}': a pack holds 1 to {MAX_COPIES} copies of each card",
                         d.copies_span or d.span)
        if d.copies is not None and d.copies > 1:
            if d.copies > 2 and self.c.rules.melds:
                self.c.error("unsupported-construct", f"meld tables with {d.copies} copies of each card are part of "
                             "the language but this runtime counts melds in a pack of at most 2 copies",
                             d.copies_span or d.span, "see docs/language/melds.md")
        if not d.removed:
            return
        errors = len(self.c.diagnostics)
        for p in d.removed:
            self.pattern(p)
        if len(self.c.diagnostics) > errors or not d.suits or not d.ranks:
            return
        full = CardModel(d.model_copy(update={"removed": ()}))
        for p in d.removed:
            test = full.pattern(p)
            hit = [d.extra_cards[full.extra[c]].name for c in range(full.size) if full.extra[c] >= 0 and test(c, NO_TRUMP)]
            if hit:
                self.c.error("bad-deck", f"'remove' takes out the extra card '{hit[0]}': leave its 'card' line out "
                             "instead", p.span)
        if CardModel(d).size == len(d.extra_cards) * (d.copies or 1):
            self.c.error("bad-deck", "'remove' takes every card of the suits out of the pack", d.removed[-1].span)

    def _trump_ranks(self, d: m.Deck, ranks: set[str]) -> None:
        assert d.trump_ranks is not None
        errors = len(self.c.diagnostics)
        for item in d.trump_ranks:
            if isinstance(item, str):
                if item not in ranks and item not in self.extras:
                    self.c.error("bad-rank", f"trump rank '{item}' is not a rank of the deck", d.trump_span)
            else:
                self.pattern(item)
        listed = {i for i in d.trump_ranks if isinstance(i, str)}
        missing = [r for r in d.ranks if r not in listed]
        if missing and len(self.c.diagnostics) == errors and len(ranks) == len(d.ranks):
            missing = self._left_out_of_trumps(d, missing)
        if missing:
            self.c.error("bad-rank", "the trump order leaves out rank(s) " + " ".join(missing), d.trump_span,
                         "list every rank of the trump suit, high to low, as a rank or in a pattern "
                         "such as (J of trump)")

    @staticmethod
    def _left_out_of_trumps(d: m.Deck, missing: list[str]) -> list[str]:
        """Of the ranks ``missing`` from the trump order's list of ranks, those whose card of
        the trump suit no pattern of the order places either, under some trump suit."""
        try:
            cards = CardModel(d)
        except (ValueError, IndexError, TypeError):  # pragma: no cover - a deck the checks above refuse
            return missing
        return [r for r in missing if any(card is not None and cards.trump_strength[t][card] == 0
                                          for t in range(len(d.suits)) for card in [cards.card(t, d.ranks.index(r))])]

    # ------------------------------------------------------------ patterns
    def pattern(self, p: m.Pattern, scope: Scope | None = None) -> None:
        """Check a pattern: every word a rank, a suit, a colour of the deck's suits, ``trump``, ``any``,
        or (in a scope that has one) a name whose value is a suit."""
        if isinstance(p, m.PatWord):
            self._word(p, scope)
        elif isinstance(p, m.PatCard):
            if p.rank not in self.ranks:
                self.c.error("bad-rank", f"'{p.rank}' is not a rank of the deck", p.span, self._suggest(p.rank))
            self._suit_ref(p.suit, scope)
        elif isinstance(p, m.PatNot):
            self.pattern(p.operand, scope)
        elif isinstance(p, (m.PatOr, m.PatAnd)):
            for o in p.options:
                self.pattern(o, scope)
        else:
            raise TypeError(f"the checker does not handle the pattern {type(p).__name__}")

    def _word(self, p: m.PatWord, scope: Scope | None) -> None:
        w = p.word
        if w in self.ranks or w in self.suits or w in self.extras or w in ("trump", "any"):
            if w in self.colours:
                self._ambiguous(w, p.span)
        elif w in self.colours:
            self.c.construct("PatWord.colour", p.span)
        elif scope is not None and scope.names.get(w) == SUIT:
            self.c.used_names.add(w)
            self.c.construct("Pattern.suit_variable_in_rule" if self.fixed else "PatWord.suit_variable", p.span)
        else:
            self.c.error("bad-rank", f"'{w}' is not a rank, a suit, 'trump' or 'any'", p.span, self._suggest(w))

    def _suit_ref(self, ref: m.SuitRef, scope: Scope | None) -> None:
        name = ref.name
        if ref.same_colour or name == "trump" or name in self.suits:
            if name in self.colours and not ref.same_colour:
                self._ambiguous(name, ref.span)
        elif name in self.colours:
            self.c.construct("PatCard.colour", ref.span)
        elif scope is not None and scope.names.get(name) == SUIT:
            self.c.used_names.add(name)
            self.c.construct("Pattern.suit_variable_in_rule" if self.fixed else "PatCard.suit_variable", ref.span)
        else:
            self.c.error("bad-suit", f"'{name}' is not a suit of the deck", ref.span, self._suggest(name))

    # ------------------------------------------------------------ meld tables
    def melds(self) -> None:
        """Every meld table: names once each, lines that name cards of the deck (``bad-meld``), at most
        :data:`~tricklang.melds.MAX_INSTANCES` instances, and lines in an order that lets each count
        (``meld-order``, a warning)."""
        seen: set[str] = set()
        for table in self.c.rules.melds:
            if table.name in seen:
                self.c.error("duplicate-name", f"meld table '{table.name}' is declared twice", table.span)
            seen.add(table.name)
            if self.c.rules.deck is None:
                continue
            cards = CardModel(self.c.rules.deck)
            found = {id(line): self._meld_line(line, cards) for group in table.classes for line in group.lines}
            total = max((sum(len(found[id(line)][t]) for group in table.classes for line in group.lines
                             if found[id(line)]) for t in range(cards.nsuits + 1)), default=0)
            if total > MAX_INSTANCES:
                self.c.error("limit-exceeded", f"meld table '{table.name}' names {total} melds; at most "
                             f"{MAX_INSTANCES} are allowed", table.span)
            for group in table.classes:
                self._meld_order(group, found)

    def _meld_line(self, line: m.MeldLine, cards: CardModel) -> list[list[Instance]]:
        """The line's instances under each trump index, after reporting what is wrong with it."""
        for p in (*line.cards, *([line.rank_pattern] if line.rank_pattern is not None else [])):
            self.pattern(p)
        for ref in (line.suit, line.exclude):
            if ref is not None and not ref.same_colour and ref.name != "trump" and ref.name not in self.suits:
                self.c.error("bad-meld", f"'{ref.name}' is not a suit of the deck", ref.span)
                return []
        bad = [r for r in line.ranks if r not in self.ranks]
        if bad:
            self.c.error("bad-meld", f"'{bad[0]}' is not a rank of the deck", line.span)
            return []
        if line.kind == "run" and not 2 <= line.length <= len(line.ranks):
            self.c.error("bad-meld", f"a sequence of {line.length} in {len(line.ranks)} ranks: it must be 2 to "
                         f"{len(line.ranks)} long", line.span)
            return []
        try:
            found = [instances(line, cards, t if t < cards.nsuits else NO_TRUMP) for t in range(cards.nsuits + 1)]
        except ValueError as err:
            self.c.error("bad-meld", f"meld '{line.label}': {err}", line.span)
            return []
        copies = cards.copies
        if any(n > copies for per_trump in found for inst in per_trump for n in Counter(inst).values()):
            self.c.error("bad-meld", f"meld '{line.label}' needs a card more times than the pack has it",
                         line.span)
        return found

    def _meld_order(self, group: m.MeldClass, found: dict[int, list[list[Instance]]]) -> None:
        """A line none of whose cards a later line of its class lacks uses them first: the later one can
        never count in full."""
        for i, line in enumerate(group.lines):
            later = next((other for other in group.lines[i + 1:] if self._inside(found[id(line)], found[id(other)])),
                         None)
            if later is not None:
                self.c.warn("meld-order", f"'{line.label}' comes before '{later.label}', which holds all its cards: "
                            f"'{later.label}' can never count in full", line.span,
                            "write the larger meld first (lines are counted in the order written)")

    @staticmethod
    def _inside(small: list[list[Instance]], large: list[list[Instance]]) -> bool:
        for per_trump_small, per_trump_large in zip(small, large, strict=False):
            for a in per_trump_small:
                if any(Counter(a) <= Counter(b) for b in per_trump_large):
                    return True
        return False

    def _ambiguous(self, word: str, span: m.Span) -> None:
        self.c.error("ambiguous-pattern-word", f"'{word}' is both a colour of the deck's suits and a rank or a suit, "
                     "so this pattern could mean either", span, "rename the rank or the suit")

    def _suggest(self, word: str) -> str:
        return self.c._closest(word, (*self.ranks, *self.suits, *self.colours, "trump"))
