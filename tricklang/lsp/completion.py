"""Completion: what may be written at the cursor, from the line so far and the enclosing section.

Names (zones, roles, options, phases, counters, suits, ranks, variables) come from the
latest version of the document that parsed, with its bases, so that completion still
works while the line being typed does not parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .. import model as m
from ..deck import all_ranks, card_codes, suit_rank_lists
from ..diagnostics import RulesError
from ..expected import Expected, expected_after
from ..parser import MAX_SOURCE_BYTES
from ..types import BUILTIN_PLAYERS, FUNCTIONS, OF_FORMS
from . import symbols
from .analysis import Analysis, deck_fits

SECTIONS = ("tricklang", "extends", "game", "source", "players", "play passes right", "role", "deck", "option",
            "zone", "counter", "points", "table", "teams", "melds", "bids", "order", "match", "deal", "irregularity")
DECK_LINES = ("suits", "ranks", "trump ranks", "ranks in")
MATCH_LINES = ("first dealer is random", "dealer passes left", "game to", "ties go to", "at most", "lowest score wins")
STATEMENTS = ("deal", "turn up", "trump is", "if", "elif", "else", "repeat at most", "for each player",
              "for each side", "for each card in", "phase", "let", "set", "stop", "pass", "end the deal", "end the match", "redeal by",
              "expose", "forbid", "cancel", "move", "add", "tricks", "end the play", "auction once around from",
              "auction until passes from", "replay the tricks", "replace")
VERBS = ("chooses:", "names trump", "bids", "discards", "takes", "draws", "scores", "loses", "leads", "becomes dealer",
         "names the suit led", "shows", "melds", "joins")
OBLIGATIONS = ("must follow suit", "may trump instead of following", "must trump if void", "must beat if able",
               "must lead", "may not play", "may not lead", "the first card led sets trump", "declare",
               "must overtrump if able", "may not undertrump", "may play", "a trick is never won by", "plays for",
               "the suit led is not set by", "of equal cards the", "after playing", "after leading",
               "after each trick:")
VALUES = ("true", "false", "bid", "trump", "deal_number", "total_bids", "leader", "played_to_trick", "no_suit",
          "no_card", "no_bid", "no_trump", "doubling", "caller", "high_bid", "high_bidder", "level of", "strain of",
          "worth of")
AUCTION_RULES = ("double and redouble", "may not pass", "may not bid", "first of the side to bid the strain declares",
                 "if all pass: redeal", "if all pass: no contract")
TRICK_VALUES = ("to_play", "led_suit", "led_card", "winner", "winning_card", "highest_trump", "trick", "trick_number",
                "last_trick", "the card played by", "who played")
"""The names and forms of the trick in progress (in trick play only)."""
CONTEXT_PLAYERS = ("player", "side", "declarer", "offender")
MAX_NAMED = 200
"""Suits, and ranks, offered at most (a deck the checker refuses may name thousands)."""


@dataclass(frozen=True)
class Item:
    """One completion: the text inserted, its kind (keyword, zone, option, ...) and a detail."""

    label: str
    kind: str
    detail: str = ""


LAYOUT = frozenset({"_NL", "_INDENT", "_DEDENT", "$END", "CITE", "COLON", "COMMA"})
"""What may follow a keyword phrase without the user choosing a name, a number or a card."""


def complete(text: str, line: int, column: int, known: Analysis | None) -> list[Item]:
    """The completions at a 1-based position of ``text``; ``known`` supplies the names.

    The keywords come from the grammar itself (:func:`tricklang.parser.expected_after`
    on the text before the cursor): where only keywords may follow (``must ``), they are
    the answer, as whole phrases (``follow suit``, ``trump if void``); the names come
    from the latest version of the document that parsed. When the text before the
    cursor does not parse, the lists below stand in for the grammar."""
    lines = text.splitlines()
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    prefix = current[: column - 1]
    prefix = prefix[: len(prefix) - len(re.search(r"[\w']*$", prefix).group())]  # type: ignore[union-attr]
    prefix = re.sub(r"#.*", "", prefix)
    names = _Names(known)
    if prefix.strip() or prefix[:1].isspace():  # (mid-line, or the start of an indented line)
        names.expected = _expected("\n".join([*lines[: max(0, line - 1)], prefix]))
        if names.expected is not None and names.expected.phrases and names.expected.others <= LAYOUT:
            return _keywords(list(names.expected.phrases))
    section, block = _context(lines, line, prefix)
    for context in _CONTEXTS:
        found = context(prefix, section, block, names)
        if found is not None:
            return found
    return names.expressions()


def _expected(before: str) -> Expected | None:
    """What the grammar accepts after ``before`` (None when it cannot say)."""
    if len(before) > MAX_SOURCE_BYTES:
        return None
    try:
        return expected_after(before)
    except (RecursionError, RulesError, ValueError):
        return None


class _Names:
    """The names a document (with its bases) declares, by kind; and what the grammar
    accepts at the cursor, when it can say."""

    expected: Expected | None = None

    def __init__(self, known: Analysis | None) -> None:
        rules = known.merged if known is not None and known.merged is not None else (
            known.own if known is not None else None)
        self.rules = rules
        self.symbols = symbols.all_symbols(known) if known is not None else []
        self.base_phases = list(dict.fromkeys(
            s.name for declared in (symbols.per_file(known)[1:] if known else []) for s in declared if s.kind == "phase"))

    def of(self, *kinds: str) -> list[str]:
        return list(dict.fromkeys(s.name for s in self.symbols if s.kind in kinds))

    def items(self, kind: str, detail: str = "") -> list[Item]:
        return [Item(s.name, kind, detail or s.detail) for s in self.symbols if s.kind == kind]

    def zones(self) -> list[Item]:
        return _unique(self.items("zone"))

    def players(self) -> list[Item]:
        return _unique(self.items("role") + [Item(n, "player", "built-in") for n in (*BUILTIN_PLAYERS, *CONTEXT_PLAYERS)]
                       + [Item(f"{n} of", "player", "a player or side") for n in OF_FORMS])

    def expressions(self) -> list[Item]:
        out = self.players() + _unique(self.items("option") + self.items("variable") + self.items("counter"))
        out += [Item(n, "value", "built-in") for n in VALUES]
        out += [Item(n, "value", "the trick in progress (in trick play)") for n in TRICK_VALUES]
        out += [Item(f"{n}(", "function", "function") for n in FUNCTIONS]
        out += [Item(f"{t}(", "table", "a lookup table: its entry at a position from 0") for t in self.of("table")]
        deck = self.rules.deck if self.rules is not None else None
        out += [Item(s.name, "suit", "a suit, as a value") for s in (deck.suits if deck is not None else ())]
        out += [Item("seat", "keyword", "a seat by number: seat 0")]
        for opt in self.rules.options if self.rules is not None else ():
            out += [Item(c, "choice", f"a value of option {opt.name}") for c in opt.choices]
        out += [Item(w, "keyword") for w in ("not", "and", "or", "holder of", "original holder of", "taker of",
                                             "suit of")]
        return _unique(out)

    def cards(self) -> list[Item]:
        """Card patterns: ranks, suits, `trump`, `any`, `not`, and every card as `RANK of SUIT`."""
        deck = self.rules.deck if self.rules is not None else None
        out = [Item("trump", "keyword", "any trump"), Item("any", "keyword", "any card"), Item("not", "keyword")]
        if deck is None:
            return out
        out += [Item(s.name, "suit", f"a card of {s.name} (effective suit)") for s in deck.suits[:MAX_NAMED]]
        out += [Item(c, "colour", f"a {c} card (effective suit)")
                for c in dict.fromkeys(s.colour for s in deck.suits[:MAX_NAMED])]
        out += [Item("and", "keyword", "cards matching both: 4 and black")]
        out += [Item(r, "rank", f"any {r}") for r in all_ranks(deck)[:MAX_NAMED]]
        out += [Item(x.name, "card", f"the card {x.code.upper()}, in no suit") for x in deck.extra_cards[:MAX_NAMED]]
        if not deck_fits(deck):  # (a deck the checker refuses: no card by card)
            return out
        codes = iter(card_codes(deck))
        out += [Item(f"{r} of {s.name}", "card", f"the card {next(codes)}")
                for s, ranks in zip(deck.suits, suit_rank_lists(deck), strict=True) for r in ranks]
        out += [Item(f"{r} of trump", "card", f"the {r} of the trump suit") for r in deck.ranks]
        return out

    def choices_of(self, option: str) -> list[Item] | None:
        for opt in self.rules.options if self.rules is not None else ():
            if opt.name == option and opt.type == "choice":
                return [Item(c, "choice", f"a value of option {opt.name}") for c in opt.choices]
        return None


def _unique(items: list[Item]) -> list[Item]:
    seen: set[str] = set()
    out = []
    for item in items:
        if item.label not in seen:
            seen.add(item.label)
            out.append(item)
    return out


def _keywords(words: tuple[str, ...] | list[str]) -> list[Item]:
    return [Item(w, "keyword") for w in words]


def _context(lines: list[str], line: int, prefix: str) -> tuple[str, str]:
    """The top-level section the line is in and the first word of its enclosing block's line."""
    indent = len(prefix) - len(prefix.lstrip())
    section, block = "", ""
    for n in range(line - 2, -1, -1):
        text = re.sub(r"#.*", "", lines[n]).rstrip()
        if not text.strip():
            continue
        depth = len(text) - len(text.lstrip())
        if depth < indent and not block:
            block = text.split()[0]
        if depth == 0:
            section = text.split()[0]
            break
    if not prefix.strip() and indent == 0:
        section = ""
    return section, block


PATTERN_AFTER = re.compile(r"\b(matching|has|holding|must\s+lead|may\s+not\s+play|may\s+not\s+lead|highest|lowest"
                           r"|holder\s+of|taker\s+of)\s+(not\s+)?\(?$")


def _patterns(prefix: str, section: str, block: str, names: _Names) -> list[Item] | None:
    deck = names.rules.deck if names.rules is not None else None
    rank_of = re.search(r"(?:^|[\s(])([\w']+)\s+of\s+$", prefix)
    if rank_of and deck is not None and rank_of.group(1) in deck.ranks:
        return [Item("trump", "keyword", "the trump suit"), Item("same colour as trump", "keyword")] + [
            Item(s.name, "suit") for s in deck.suits[:MAX_NAMED]]
    if (PATTERN_AFTER.search(prefix) or (section == "deck" and re.match(r"\s*trump\s+ranks\b", prefix))
            or (section == "points" and re.fullmatch(r'\s*"[^"]*"\s*(not\s+)?\(?', prefix))):
        return names.cards()
    return None


def _declarations(prefix: str, section: str, block: str, names: _Names) -> list[Item] | None:
    if section == "" and not prefix.strip():
        return _keywords(SECTIONS)
    if re.fullmatch(r"option\s+[\w']+\s*:\s*", prefix):
        return _keywords(["int", "bool", "choice("])
    if re.fullmatch(r"(zone|counter)\s+[\w']+\s*:\s*", prefix):
        return _keywords(["per player", "per side"] + (["shared"] if prefix.startswith("zone") else []))
    if re.fullmatch(r"zone\s+[\w']+\s*:.*,\s*", prefix):
        return _keywords(["public", "owner", "hidden", "pack", "bookkeeping"])
    if re.fullmatch(r"counter\s+[\w']+\s*:.*,\s*", prefix):
        return _keywords(["bookkeeping"])
    if re.fullmatch(r"option\s+[\w']+\s*:\s*choice\(([^)]*)\)\s*=\s*", prefix):
        choices = re.search(r"\(([^)]*)\)", prefix).group(1)  # type: ignore[union-attr]
        return [Item(c.strip(), "choice") for c in choices.split(",") if c.strip()]
    if re.fullmatch(r"option\s+[\w']+\s*:\s*bool\s*=\s*", prefix):
        return _keywords(["true", "false"])
    if section == "deck" and not prefix.strip():
        return _keywords(DECK_LINES)
    if section == "match" and not prefix.strip():
        return _keywords(MATCH_LINES)
    if re.search(r"\bduring\s+([\w']+\s*,\s*)*$", prefix):
        return _keywords(_decision_kinds(names))
    return None


def _decision_kinds(names: _Names) -> list[str]:
    from ..walk import statements

    kinds = ["any"]
    for st in statements(names.rules.deal if names.rules is not None else ()):
        found = list(st.decision_kinds()) + (["deal"] if isinstance(st, m.DealCards) else [])
        for k in found + (["end_of_play"] if "play" in found else []):  # the referee's pauses: deal, end_of_play
            if k not in kinds:
                kinds.append(k)
    return kinds


def _statements(prefix: str, section: str, block: str, names: _Names) -> list[Item] | None:
    if re.search(r"\bphase\s+$", prefix):
        return [Item(p, "phase", "a phase of the base to replace") for p in names.base_phases]
    if re.search(r"\bforbid\s+declare\s+$", prefix):
        return [Item(n, "declaration") for n in names.of("declaration")]
    if re.search(r"\bforbid\s+choice\s+$", prefix):
        return [Item(n, "choice") for n in names.of("choice")]
    if re.search(r"\bforbid\s+$", prefix):
        return _keywords(["declare", "choice", "bidding for"])
    if re.search(r"\bredeal\s+by\s+$", prefix):
        return _keywords(["same dealer", "next dealer"])
    if re.search(r"\btrump\s+is\s+$", prefix):
        suits = names.rules.deck.suits if names.rules is not None and names.rules.deck is not None else ()
        return _keywords(["suit of", "none"]) + [Item(s.name, "suit") for s in suits[:MAX_NAMED]]
    if re.search(r"^\s*add\b.*\bto\s+$", prefix):
        return names.items("counter")
    if re.search(r"\b(to|from|expose|suit\s+of|count\(|then\s+from)\s*$", prefix) and not re.search(
            r"^\s*(deal\b|game\s+to|ties\s+go\s+to)", prefix):
        return names.zones()
    if re.search(r"^\s*deal\b.*\bto\s+$", prefix):
        return _keywords(["each"])
    compared = re.search(r"([\w']+)\s*(==|!=)\s*$", prefix)
    if compared and (choices := names.choices_of(compared.group(1))) is not None:
        return choices
    if section in ("deal", "irregularity") and not prefix.strip():
        if block == "tricks" or block in ("must", "may", "declare", "the"):
            return _keywords(OBLIGATIONS)
        if block == "auction":
            return _keywords(AUCTION_RULES) + names.players()
        statements = list(names.expected.phrases) if names.expected is not None and names.expected.phrases else STATEMENTS
        return _keywords(statements) + names.players()
    subject = re.fullmatch(r"\s*([\w']+)(\s+of\s+[\w']+)?\s+", prefix)
    if subject and section in ("deal", "irregularity") and (
            subject.group(2) or subject.group(1) in {i.label for i in names.players()}):
        return _keywords(VERBS)
    return None


_CONTEXTS = (_declarations, _patterns, _statements)
