"""Pinned parse results: small snippets through :func:`tricklang.parse` (no checking).

Expressions and patterns are compared in a compact prefix form (see ``show``) so
that each test states the whole shape, not just a field or two.
"""

from __future__ import annotations

import textwrap

import pytest

import tricklang
from tricklang import model as m


def parse_file(text: str) -> m.RuleFile:
    return tricklang.parse(textwrap.dedent(text).lstrip("\n"))


def parse_deal(body: str) -> tuple[m.Statement, ...]:
    """The statements of a deal section whose body is ``body`` (dedented)."""
    lines = textwrap.dedent(body).strip("\n").splitlines()
    return tricklang.parse("tricklang 1\ndeal\n" + "".join(f"  {line}\n" for line in lines)).deal


def one(body: str) -> m.Statement:
    stmts = parse_deal(body)
    assert len(stmts) == 1, stmts
    return stmts[0]


def show(node: object) -> str:
    """A compact, exact rendering of an expression or a pattern."""
    if isinstance(node, m.IntLit):
        return str(node.value)
    if isinstance(node, m.Name):
        return node.name
    if isinstance(node, m.Of):
        return f"({node.name} of {show(node.arg)})"
    if isinstance(node, m.Call):
        return f"{node.name}({', '.join(show(a) for a in node.args)})"
    if isinstance(node, m.Arg):
        return show(node.value) + (f" matching {show(node.matching)}" if node.matching else "")
    if isinstance(node, m.BinOp):
        return f"({node.op} {show(node.left)} {show(node.right)})"
    if isinstance(node, m.Not):
        return f"(not {show(node.operand)})"
    if isinstance(node, m.Neg):
        return f"(neg {show(node.operand)})"
    if isinstance(node, m.Has):
        return f"(has {show(node.zone)} {show(node.pattern)})"
    if isinstance(node, m.PatWord):
        return node.word
    if isinstance(node, m.PatCard):
        suit = f"same colour as {node.suit.name}" if node.suit.same_colour else node.suit.name
        return f"[{node.rank} of {suit}]"
    if isinstance(node, m.PatNot):
        return f"(not {show(node.operand)})"
    if isinstance(node, m.PatOr):
        return "(or " + " ".join(show(o) for o in node.options) + ")"
    if isinstance(node, m.ZoneRef):
        return node.name + (f" of {show(node.owner)}" if node.owner is not None else "")
    raise AssertionError(f"cannot show {node!r}")


def laws(node: m.Stmt | m.Node) -> tuple[str, ...] | None:
    cite = getattr(node, "cite", None)
    return cite.laws if cite is not None else None


# ---------------------------------------------------------------- dealing and moving cards


def test_deal_in_packets_from_a_player() -> None:
    st = one("deal 3 then 2 to each from elder")
    assert isinstance(st, m.DealCards)
    assert [show(p) for p in st.packets] == ["3", "2"]
    assert st.first is not None and show(st.first) == "elder"
    assert st.span == m.Span(line=3, column=3, end_line=3, end_column=35)


def test_deal_packets_may_be_expressions_and_the_start_is_optional() -> None:
    st = one("deal first_packet then 5 - first_packet then 1 to each")
    assert isinstance(st, m.DealCards)
    assert [show(p) for p in st.packets] == ["first_packet", "(- 5 first_packet)", "1"]
    assert st.first is None


def test_turn_up_and_the_three_ways_to_set_trump() -> None:
    turn, of_zone, fixed, none = parse_deal(
        """
        turn up 1 to turnup
        trump is suit of turnup
        trump is hearts
        trump is none
        """
    )
    assert isinstance(turn, m.TurnUp) and show(turn.count) == "1" and show(turn.to) == "turnup"
    assert isinstance(of_zone, m.SetTrump) and of_zone.source == "zone"
    assert of_zone.zone is not None and show(of_zone.zone) == "turnup"
    assert isinstance(fixed, m.SetTrump) and (fixed.source, fixed.suit) == ("fixed", "hearts")
    assert isinstance(none, m.SetTrump) and (none.source, none.zone, none.suit) == ("none", None, None)


@pytest.mark.parametrize(
    ("text", "kind", "low", "high"),
    [
        ("elder discards 2 to discards", "exact", "2", None),
        ("elder discards 1..min(5, count(stock)) to discards", "range", "1", "min(5, count(stock))"),
        ("elder discards at least 3 to discards", "at_least", "3", None),
        ("elder discards to 5 to discards", "to", "5", None),
    ],
)
def test_the_four_kinds_of_count(text: str, kind: str, low: str, high: str | None) -> None:
    st = one(text)
    assert isinstance(st, m.Discard)
    assert (st.count.kind, show(st.count.low)) == (kind, low)
    assert (show(st.count.high) if st.count.high is not None else None) == high
    assert show(st.player) == "elder" and show(st.to) == "discards" and st.matching is None


def test_draw_with_a_fallback_zone_and_pattern() -> None:
    st = one("player draws to 6 from stock, then from discards matching not trump")
    assert isinstance(st, m.Draw)
    assert (st.count.kind, show(st.count.low)) == ("to", "6")
    assert show(st.source) == "stock"
    assert st.fallback is not None and show(st.fallback) == "discards"
    assert st.fallback_matching is not None and show(st.fallback_matching) == "(not trump)"


def test_take_names_its_action_with_as() -> None:
    rob, take = parse_deal(
        """
        dealer takes to 6 from stock as rob
        elder takes 1 matching hearts from turnup
        """
    )
    assert isinstance(rob, m.Take) and rob.verb == "rob" and show(rob.source) == "stock"
    assert isinstance(take, m.Take) and take.verb == "take"
    assert take.matching is not None and show(take.matching) == "hearts"


def test_takes_all_or_any_and_keeps() -> None:
    """`takes all`: the whole zone into the hand, then a discard to N; `takes any`: the
    player chooses which cards of the zone he takes (Cinch's robbing, C16)."""
    whole, chosen = parse_deal(
        """
        dealer takes all from upcard and keeps 5, the rest to kitty
        dealer takes any from stock and keeps 6 as rob
        """
    )
    assert isinstance(whole, m.Keep) and not whole.choose and whole.verb == "take"
    assert show(whole.source) == "upcard" and show(whole.count) == "5" and whole.rest is not None
    assert show(whole.rest) == "kitty"
    assert isinstance(chosen, m.Keep) and chosen.choose and chosen.verb == "rob"
    assert show(chosen.source) == "stock" and show(chosen.count) == "6" and chosen.rest is None


def test_move_all_top_and_random() -> None:
    every, top, chance = parse_deal(
        """
        move all matching trump from stock to discards of dealer
        move 2 from stock to turnup
        move 1 at random from hand of elder to stock
        """
    )
    assert isinstance(every, m.Move) and (every.mode, every.amount) == ("all", None)
    assert every.matching is not None and show(every.matching) == "trump"
    assert (show(every.source), show(every.to)) == ("stock", "discards of dealer")
    assert isinstance(top, m.Move) and top.mode == "top" and top.amount is not None and show(top.amount) == "2"
    assert isinstance(chance, m.Move) and chance.mode == "random" and show(chance.source) == "hand of elder"


def test_score_lose_let_set_and_the_simple_statements() -> None:
    score, lose, let, set_, stop, pass_, end = parse_deal(
        """
        winner scores 2 "vole"
        makers loses bid
        let exchanges = 0
        set exchanges = exchanges + 1
        stop
        pass
        end the deal
        """
    )
    assert isinstance(score, m.Score) and (show(score.who), show(score.amount), score.label, score.negative) == (
        "winner",
        "2",
        "vole",
        False,
    )
    assert isinstance(lose, m.Score) and (show(lose.amount), lose.label, lose.negative) == ("bid", "", True)
    assert isinstance(let, m.Let) and (let.name, show(let.value), let.rebind) == ("exchanges", "0", False)
    assert isinstance(set_, m.Let) and (set_.name, show(set_.value), set_.rebind) == (
        "exchanges",
        "(+ exchanges 1)",
        True,
    )
    assert [type(s) for s in (stop, pass_, end)] == [m.StopLoop, m.Pass, m.EndDeal]


# ---------------------------------------------------------------- expressions and patterns


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2 * 3", "(+ 1 (* 2 3))"),
        ("5 - 2 - 1", "(- (- 5 2) 1)"),
        ("(5 - 2) * -x", "(* (- 5 2) (neg x))"),
        ("not a == b and c or d", "(or (and (not (== a b)) c) d)"),
        ("count(stock) > 0 and tricks(elder) >= 3", "(and (> count(stock) 0) (>= tricks(elder) 3))"),
        ("count(stock matching K of trump)", "count(stock matching [K of trump])"),
        ("left of left of dealer", "(left of (left of dealer))"),
        ("turnup has K", "(has turnup K)"),
        ("hand of elder has (hearts or K of spades)", "(has (hand of elder) (or hearts [K of spades]))"),
        ("min(5, count(stock), bid)", "min(5, count(stock), bid)"),
    ],
)
def test_expression_precedence_and_shape(text: str, expected: str) -> None:
    st = one(f"let x = {text}")
    assert isinstance(st, m.Let)
    assert show(st.value) == expected


def test_each_link_of_an_operator_chain_spans_its_own_operands() -> None:
    st = one("let y = 5 - 2 - 1")
    assert isinstance(st, m.Let) and isinstance(st.value, m.BinOp)
    assert (st.value.span.column, st.value.span.end_column) == (11, 20)
    assert (st.value.left.span.column, st.value.left.span.end_column) == (11, 16)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("K", "K"),
        ("10", "10"),
        ("hearts", "hearts"),
        ("trump", "trump"),
        ("any", "any"),
        ("not trump", "(not trump)"),
        ("not not K", "(not (not K))"),
        ("K of trump", "[K of trump]"),
        ("5 of same colour as trump", "[5 of same colour as trump]"),
        ("hearts or K of spades", "(or hearts [K of spades])"),
        ("not hearts or K", "(or (not hearts) K)"),
        ("not (hearts or K)", "(not (or hearts K))"),
    ],
)
def test_card_patterns(pattern: str, expected: str) -> None:
    st = one(f"move all matching {pattern} from stock to turnup")
    assert isinstance(st, m.Move) and st.matching is not None
    assert show(st.matching) == expected


def test_a_pattern_word_records_where_it_is() -> None:
    st = one("if turnup has K: pass")
    assert isinstance(st, m.If)
    cond = st.branches[0][0]
    assert isinstance(cond, m.Has) and isinstance(cond.pattern, m.PatWord)
    assert cond.pattern.span == m.Span(line=3, column=17, end_line=3, end_column=18)


# ---------------------------------------------------------------- blocks


def test_if_elif_else_with_inline_and_block_suites() -> None:
    st = one(
        """
        if winner == penalty_to: winner scores 2 "penalty"
        elif tricks(winner) == 5:
          winner scores 2 "vole"
        else:
          winner scores 1 "point"
          pass
        """
    )
    assert isinstance(st, m.If)
    assert [show(cond) for cond, _ in st.branches] == ["(== winner penalty_to)", "(== tricks(winner) 5)"]
    assert [[type(s).__name__ for s in body] for _, body in st.branches] == [["Score"], ["Score"]]
    assert [type(s).__name__ for s in st.orelse] == ["Score", "Pass"]


def test_repeat_is_bounded_with_an_optional_condition() -> None:
    bounded, plain = parse_deal(
        """
        repeat at most 21 times while count(stock) > 0:
          stop
        repeat at most 3 times: pass
        """
    )
    assert isinstance(bounded, m.Repeat)
    assert show(bounded.bound) == "21"
    assert bounded.condition is not None and show(bounded.condition) == "(> count(stock) 0)"
    assert [type(s) for s in bounded.body] == [m.StopLoop]
    assert isinstance(plain, m.Repeat) and plain.condition is None and [type(s) for s in plain.body] == [m.Pass]


def test_choose_offers_named_options_in_order() -> None:
    st = one(
        """
        elder chooses:
          stand:
            stop
          propose:
            dealer chooses:
              refuse: stop
              accept: pass
            elder discards 1..5 to discards
        """
    )
    assert isinstance(st, m.Choose) and show(st.player) == "elder"
    assert [o.name for o in st.options] == ["stand", "propose"]
    inner, discard = st.options[1].body
    assert isinstance(inner, m.Choose) and show(inner.player) == "dealer"
    assert [(o.name, [type(s) for s in o.body]) for o in inner.options] == [
        ("refuse", [m.StopLoop]),
        ("accept", [m.Pass]),
    ]
    assert isinstance(discard, m.Discard)


def test_for_each_with_start_and_exception() -> None:
    players, sides = parse_deal(
        """
        for each player from left of dealer except dealer:
          player discards at least 3 to discards
        for each side except makers: pass
        """
    )
    assert isinstance(players, m.ForEach) and players.kind == "player"
    assert players.start is not None and show(players.start) == "(left of dealer)"
    assert players.exclude is not None and show(players.exclude) == "dealer"
    assert isinstance(sides, m.ForEach) and sides.kind == "side" and sides.start is None
    assert sides.exclude is not None and show(sides.exclude) == "makers"


def test_auction_with_and_without_an_all_pass_rule() -> None:
    maker, redeal = parse_deal(
        """
        auction once around from left of dealer, bids 1..14   [C6]
          if all pass: dealer makes at 0   [C8]
        auction until passes from elder, bids 2..4
        """
    )
    assert isinstance(maker, m.Auction)
    assert (maker.kind, show(maker.start), show(maker.low), show(maker.high)) == ("once_around", "(left of dealer)", "1", "14")
    assert maker.all_pass == "maker" and maker.all_pass_maker is not None and show(maker.all_pass_maker) == "dealer"
    assert maker.all_pass_bid is not None and show(maker.all_pass_bid) == "0"
    assert laws(maker) == ("C6",) and maker.all_pass_cite is not None and maker.all_pass_cite.laws == ("C8",)
    assert isinstance(redeal, m.Auction) and (redeal.kind, redeal.all_pass, redeal.all_pass_maker) == (
        "until_passes",
        "redeal",
        None,
    )


def test_tricks_with_obligations_and_declarations() -> None:
    st = one(
        """
        tricks 5, elder leads first   [E41]
          must follow suit   [E42]
          may trump instead of following
          must trump if void when must_trump_when_void
          must beat if able
          may not lead hearts until broken
          declare king holding K of trump, before own first card when deadline == early:  [E17, E18]
            declarer scores 1 "king"
          declare king holding K of trump, before playing it:
            declarer scores 1 "king"
        """
    )
    assert isinstance(st, m.Tricks)
    assert (show(st.count), show(st.leader), laws(st)) == ("5", "elder", ("E41",))
    assert [o.kind for o in st.obligations] == [
        "follow_suit",
        "may_trump",
        "trump_if_void",
        "beat_if_able",
        "lead_until_broken",
    ]
    assert laws(st.obligations[0]) == ("E42",)
    guard = st.obligations[2].guard
    assert guard is not None and show(guard) == "must_trump_when_void"
    assert st.obligations[4].pattern is not None and show(st.obligations[4].pattern) == "hearts"
    early, late = st.declarations
    assert (early.name, show(early.holding), early.deadline) == ("king", "[K of trump]", "before_first_card")
    assert early.guard is not None and show(early.guard) == "(== deadline early)"
    assert laws(early) == ("E17", "E18")
    assert (late.deadline, late.guard, late.cite) == ("before_playing_it", None, None)


# ---------------------------------------------------------------- citations


def test_citations_attach_to_their_statements() -> None:
    deal, if_inline, if_block = parse_deal(
        """
        deal 3 then 2 to each from elder      [E5]
        if turnup has K: dealer scores 1      [E16, E50]
        if count(stock) > 0:                  [E31]
          dealer draws to 5 from stock        [E25]
          pass
        """
    )
    assert laws(deal) == ("E5",)
    assert isinstance(if_inline, m.If) and laws(if_inline) is None
    assert laws(if_inline.branches[0][1][0]) == ("E16", "E50")
    # A block's citation covers its statements that cite nothing themselves.
    assert isinstance(if_block, m.If) and laws(if_block) == ("E31",)
    assert [laws(s) for s in if_block.branches[0][1]] == [("E25",), ("E31",)]


def test_citation_forms_ranges_lists_and_letters() -> None:
    stmts = parse_deal(
        """
        pass   [E22-E31]
        pass   [C2, C25]
        pass   [E17a]
        pass   [E3-4]
        """
    )
    assert [laws(s) for s in stmts] == [("E22-E31",), ("C2", "C25"), ("E17a",), ("E3-4",)]
    assert stmts[0].cite is not None and stmts[0].cite.span == m.Span(line=3, column=10, end_line=3, end_column=19)
    assert str(stmts[1].cite) == "[C2, C25]"


# ---------------------------------------------------------------- sections


HEADER = """
    tricklang 1
    game "Cinch"
    source "Foster (1897)"
    players 4 in partnerships 0 2, 1 3      [C1]
    role eldest = left of dealer            [C5]
    deck                                    [C2]
      suits spades black, hearts red
      ranks A K Q 5 2
      trump ranks A K (5 of same colour as trump) Q 5 2
    """


def test_header_players_roles_and_deck() -> None:
    rules = parse_file(HEADER)
    assert (rules.version, rules.game, rules.source) == (1, "Cinch", "Foster (1897)")
    assert rules.players is not None
    assert (rules.players.count, rules.players.teams, laws(rules.players)) == (4, ((0, 2), (1, 3)), ("C1",))
    (role,) = rules.roles
    assert (role.name, show(role.value), laws(role)) == ("eldest", "(left of dealer)", ("C5",))
    assert rules.deck is not None
    assert [(s.name, s.colour) for s in rules.deck.suits] == [("spades", "black"), ("hearts", "red")]
    assert rules.deck.ranks == ("A", "K", "Q", "5", "2")
    assert rules.deck.trump_ranks is not None
    assert [r if isinstance(r, str) else show(r) for r in rules.deck.trump_ranks] == [
        "A",
        "K",
        "[5 of same colour as trump]",
        "Q",
        "5",
        "2",
    ]
    assert laws(rules.deck) == ("C2",)
    assert [name for name, _ in rules.sections] == ["version", "game", "source", "players", "deck"]


def test_option_types_defaults_ranges_and_docs() -> None:
    rules = parse_file(
        """
        option target: int = 51 in 1..999 "Points that win"   [C33]
        option offset: int = -3 in -5..5
        option loud: bool = false "Announce"
        option strict: bool = true
        option scoring: choice(setback, difference) = difference "How to score"   [C31, C32]
        option bare: int = 7
        """
    )
    got = [(o.name, o.type, o.default, o.choices, o.low, o.high, o.doc, laws(o)) for o in rules.options]
    assert got == [
        ("target", "int", 51, (), 1, 999, "Points that win", ("C33",)),
        ("offset", "int", -3, (), -5, 5, "", None),
        ("loud", "bool", False, (), None, None, "Announce", None),
        ("strict", "bool", True, (), None, None, "", None),
        ("scoring", "choice", "difference", ("setback", "difference"), None, None, "How to score", ("C31", "C32")),
        ("bare", "int", 7, (), None, None, "", None),
    ]
    assert rules.options[0].span.line == 1 and rules.options[5].span.line == 6


def test_zones_owner_visibility_and_pack() -> None:
    rules = parse_file(
        """
        zone hand: per player, owner
        zone stock: shared, hidden, pack   [E6]
        zone won: per side, public
        """
    )
    got = [(z.name, z.owner, z.visibility, z.pack, laws(z)) for z in rules.zones]
    assert got == [
        ("hand", "player", "owner", False, None),
        ("stock", "shared", "hidden", True, ("E6",)),
        ("won", "side", "public", False, None),
    ]


def test_point_cards_inherit_the_section_citation() -> None:
    rules = parse_file(
        """
        points                                   [C25]
          "High" A of trump = 1
          "Left Pedro" 5 of same colour as trump = 5   [C26]
        """
    )
    got = [(p.label, show(p.pattern), p.value, laws(p)) for p in rules.points]
    assert got == [("High", "[A of trump]", 1, ("C25",)), ("Left Pedro", "[5 of same colour as trump]", 5, ("C26",))]


def test_match_section() -> None:
    rules = parse_file(
        """
        match                                [C3]
          first dealer is 2
          dealer passes right                [C5]
          game to target + 1, after the deal
          ties go to side of maker
          at most 50 deals
        """
    )
    mt = rules.match
    assert mt is not None
    assert (mt.first_dealer, mt.rotation, mt.target_when, mt.deal_limit) == (2, "right", "after_deal", 50)
    assert mt.target is not None and show(mt.target) == "(+ target 1)"
    assert mt.ties is not None and show(mt.ties) == "(side of maker)"
    assert laws(mt) == ("C3",) and [c.laws for c in mt.cites] == [("C5",)]


def test_match_defaults() -> None:
    rules = parse_file(
        """
        match
          first dealer is random
          game to 5, at once
        """
    )
    mt = rules.match
    assert mt is not None
    assert (mt.first_dealer, mt.rotation, mt.target_when, mt.ties, mt.deal_limit) == (
        "random",
        "left",
        "at_once",
        None,
        None,
    )


def test_comments_blank_lines_and_line_continuations_are_ignored() -> None:
    stmts = parse_deal(
        """
        # a comment line

        deal 3 \\
          then 2 to each   # a trailing comment
        pass
        """
    )
    assert [type(s) for s in stmts] == [m.DealCards, m.Pass]
    assert stmts[1].span.line == 7


def test_the_shipped_rule_files_parse() -> None:
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "rules"
    for path in sorted(root.glob("*.trick")):
        rules = tricklang.parse(path.read_text(encoding="utf-8"), str(path))
        assert rules.version == 1 and rules.deal, path


def test_a_syntax_error_raises_rules_error() -> None:
    with pytest.raises(tricklang.RulesError) as info:
        tricklang.parse("tricklang 1\ndeal\n  deal 3 to\n", "x.trick")
    assert info.value.codes == ["syntax-error"]
    assert info.value.diagnostics[0].line == 3
