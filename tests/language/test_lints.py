"""Lints (tricklang/lints.py): warnings for rule files that load but are probably wrong."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import tricklang
from tricklang.lints import CODES, lint

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted({*ROOT.glob("rules/**/*.trick"), *ROOT.glob("examples/**/*.trick")})

HEAD = """
tricklang 1
game "Lint"
players 2
role elder = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks K Q J A 10 9 8 7
{options}
zone hand: per player, owner
zone stock: shared, hidden, pack
zone discards: per player, public
zone won: per player, public
deal
{deal}
"""


def rules_for(deal: str, options: str = "", head: str = HEAD) -> str:
    return head.format(options=textwrap.dedent(options).strip(), deal=textwrap.indent(textwrap.dedent(deal).strip(), "  ")).lstrip()


def lints(text: str) -> list[tuple[str, int]]:
    """(code, line) of each lint; the text must load (lints run on checked files)."""
    tricklang.loads(text)
    return [(d.code, d.line) for d in lint(tricklang.parse(text))]


def codes(text: str) -> list[str]:
    return [c for c, _ in lints(text)]


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


# ------------------------------------------------------------------ every rule file


@pytest.mark.parametrize("path", RULE_FILES, ids=[p.name for p in RULE_FILES])
def test_shipped_rule_files_have_no_lint(path: Path) -> None:
    rules = tricklang.parse(path.read_text(encoding="utf-8"), str(path))
    found = lint(rules)
    assert all(d.severity == "warning" and d.code in CODES for d in found)
    assert found == [], "\n".join(d.render() for d in found)


def test_diagnostics_are_warnings_with_positions() -> None:
    text = rules_for("""
        deal 5 to each
        if false:
          dealer scores 1
        tricks 5, elder leads first
    """)
    [found] = lint(tricklang.parse(text, "lint.trick"))
    assert found.severity == "warning" and found.path == "lint.trick"
    assert (found.code, found.line) == ("phase-unreachable", line_of(text, "if false"))
    assert found.column > 0
    assert "[phase-unreachable]" in found.render(text)


# ------------------------------------------------------------------ cards-exceed-deck


def test_draws_beyond_what_is_left_of_the_pack() -> None:
    text = rules_for("""
        deal 5 to each
        for each player:
          player draws to 20 from stock
        tricks 5, elder leads first
    """)
    assert lints(text) == [("cards-exceed-deck", line_of(text, "draws to 20"))]


def test_draws_that_fit_or_have_a_fallback_are_fine() -> None:
    assert codes(rules_for("""
        deal 5 to each
        for each player:
          player draws to 8 from stock
        tricks 8, elder leads first
    """)) == []
    assert codes(rules_for("""
        deal 5 to each
        for each player:
          player discards 2 to discards
        for each player:
          player draws to 20 from stock, then from discards
        tricks 5, elder leads first
    """)) == []


def test_a_hand_target_larger_than_the_deck() -> None:
    text = rules_for("""
        deal 5 to each
        dealer draws to 40 from stock
        tricks 5, elder leads first
    """)
    assert lints(text) == [("cards-exceed-deck", line_of(text, "draws to 40"))]


def test_cards_are_counted_with_the_options_defaults() -> None:
    deal = """
        deal 15 to each
        for each player:
          player draws extra from stock
        tricks 5, elder leads first
    """
    assert codes(rules_for(deal, 'option extra: int = 2 in 0..9 "cards drawn"')) == ["cards-exceed-deck"]
    assert codes(rules_for(deal, 'option extra: int = 1 in 0..9 "cards drawn"')) == []


def test_draws_in_a_conditional_block_are_not_certain() -> None:
    assert codes(rules_for("""
        deal 15 to each
        if count(stock) > 5:
          for each player:
            player draws 3 from stock
        tricks 5, elder leads first
    """)) == []


def test_takes_and_moves_count_too() -> None:
    text = rules_for("""
        deal 10 to each
        move 10 from stock to discards of dealer
        dealer takes 3 from stock
        tricks 10, elder leads first
    """)
    assert lints(text) == [("cards-exceed-deck", line_of(text, "takes 3"))]


# ------------------------------------------------------------------ no-legal-card


def test_more_tricks_than_cards_in_hand() -> None:
    text = rules_for("""
        deal 3 to each
        tricks 5, elder leads first
          must follow suit
    """)
    assert lints(text) == [("no-legal-card", line_of(text, "tricks 5"))]


def test_hand_size_follows_draws_and_discards() -> None:
    text = rules_for("""
        deal 6 to each
        for each player:
          player discards 2 to discards
        tricks 6, elder leads first
    """)
    assert lints(text) == [("no-legal-card", line_of(text, "tricks 6"))]
    assert codes(rules_for("""
        deal 6 to each
        for each player:
          player discards 2 to discards
        for each player:
          player draws to 6 from stock
        tricks 6, elder leads first
    """)) == []


def test_obligations_never_leave_a_player_without_a_legal_card() -> None:
    """Every obligation applies only if it leaves a card: no lint for any of them."""
    assert codes(rules_for("""
        deal 5 to each
        trump is hearts
        tricks 5, elder leads first
          may not lead hearts until broken
          must follow suit
          must trump if void
          must beat if able
    """)) == []


def test_unknown_hand_sizes_are_not_guessed() -> None:
    assert codes(rules_for("""
        deal 5 to each
        for each player:
          player discards 1..3 to discards
        tricks 5, elder leads first
    """)) == []


# ------------------------------------------------------------------ point-total-mismatch

POINTS = """
tricklang 1
game "Pedro"
players 4 in partnerships 0 2, 1 3
role eldest = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9 8 7 6 5 4 3 2
  trump ranks A K Q J 10 9 8 7 6 5 (5 of same colour as trump) 4 3 2
{options}
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per side, public
points
  "High" A of trump = 1
  "Low" 2 of trump = 1
  "Jack" J of trump = 1
  "Game" 10 of trump = 1
  "Right Pedro" 5 of trump = 5
  "Left Pedro" 5 of same colour as trump = 5
deal
{deal}
"""


def pedro(top: str, options: str = "") -> str:
    return rules_for(f"""
        deal 6 to each
        auction once around from eldest, bids 1..{top}
          if all pass: dealer makes at 0
        maker names trump
        tricks 6, maker leads first
        maker scores points(side of maker)
    """, options, POINTS)


def test_top_bid_equal_to_the_points_in_play() -> None:
    assert codes(pedro("14")) == []


def test_top_bid_other_than_the_points_in_play() -> None:
    text = pedro("13")
    assert lints(text) == [("point-total-mismatch", line_of(text, "auction"))]
    [found] = lint(tricklang.parse(text))
    assert "13" in found.message and "14" in found.message


def test_a_bid_that_counts_melds_is_no_mismatch() -> None:
    text = pedro("13").replace("deal\n", 'melds m\n  "marriage" K Q of trump = 20\ndeal\n', 1)
    assert "melds m" in text
    assert codes(text) == []


def test_top_bid_from_an_option_uses_its_default() -> None:
    assert codes(pedro("top", 'option top: int = 14 in 1..20 "top bid"')) == []
    assert codes(pedro("top", 'option top: int = 15 in 1..20 "top bid"')) == ["point-total-mismatch"]


def test_no_points_table_no_mismatch() -> None:
    assert codes(rules_for("""
        deal 5 to each
        auction once around from elder, bids 1..5
          if all pass: redeal
        maker names trump
        tricks 5, maker leads first
    """)) == []


# ------------------------------------------------------------------ phase-unreachable


def test_a_branch_false_whatever_the_options() -> None:
    options = 'option target: int = 5 in 1..99 "target"'
    text = rules_for("""
        deal 5 to each
        tricks 5, elder leads first
        if target > 1000:
          dealer scores 1
        if target > 50:
          dealer scores 2
        if 1 == 2 or false:
          dealer scores 3
    """, options + "\nmatch\n  game to target, after the deal")
    assert lints(text) == [("phase-unreachable", line_of(text, "target > 1000")),
                           ("phase-unreachable", line_of(text, "1 == 2"))]


def test_option_dependent_branches_are_reachable() -> None:
    assert codes(rules_for("""
        deal 5 to each
        tricks 5, elder leads first
        if scoring == setback and bonus:
          dealer scores 1
        elif scoring == difference:
          dealer scores 2
        else:
          dealer scores 3
    """, 'option scoring: choice(setback, difference) = setback "how"\noption bonus: bool = true "bonus"')) == []


def test_else_after_an_always_true_condition() -> None:
    text = rules_for("""
        deal 5 to each
        tricks 5, elder leads first
        if true:
          dealer scores 1
        elif tricks(dealer) > 2:
          dealer scores 2
        else:
          dealer scores 3
    """)
    assert lints(text) == [("phase-unreachable", line_of(text, "scores 2")),
                           ("phase-unreachable", line_of(text, "scores 3"))]


def test_statements_after_a_redeal_or_a_block_that_always_ends_the_deal() -> None:
    text = rules_for("""
        deal 5 to each
        if count(stock) > 20:
          redeal by same dealer
          dealer scores 1
        elder chooses:
          play:
            end the deal
          fold:
            redeal by next dealer
        tricks 5, elder leads first
    """)
    assert lints(text) == [("phase-unreachable", line_of(text, "dealer scores 1")),
                           ("phase-unreachable", line_of(text, "tricks 5"))]


def test_the_checker_reports_what_follows_end_the_deal_itself() -> None:
    text = rules_for("""
        deal 5 to each
        if count(stock) > 20:
          end the deal
          dealer scores 1
        tricks 5, elder leads first
    """)
    assert codes(text) == []
    assert "unreachable-code" in [w.code for w in tricklang.loads(text).warnings]


def test_loops_guards_and_irregularities_that_never_run() -> None:
    text = rules_for("""
        deal 5 to each
        repeat at most 3 times while 2 < 1:
          elder chooses:
            a:
              stop
            b:
              pass
        tricks 5, elder leads first
          must follow suit when false
          declare king holding K of trump, before own first card when 1 > 2:
            declarer scores 1
    """) + "irregularity never by dealer when 3 < 2:\n  redeal by same dealer\n"
    assert lints(text) == [("phase-unreachable", line_of(text, "while 2 < 1")),
                           ("phase-unreachable", line_of(text, "when false")),
                           ("phase-unreachable", line_of(text, "declare king")),
                           ("phase-unreachable", line_of(text, "irregularity never"))]


def test_a_loop_that_always_ends_the_deal_ends_it() -> None:
    text = rules_for("""
        deal 5 to each
        for each player:
          redeal by same dealer
        tricks 5, elder leads first
    """)
    assert lints(text) == [("phase-unreachable", line_of(text, "tricks 5"))]


# ------------------------------------------------------------------ the hook in the checker


def test_load_reports_lints_as_warnings() -> None:
    text = rules_for("""
        deal 3 to each
        tricks 5, elder leads first
    """)
    assert "no-legal-card" in [w.code for w in tricklang.loads(text).warnings]
