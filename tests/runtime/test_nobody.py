"""One meaning for a player expression that is `nobody`: it is no seat.

Where the checker can see it (`tricks(nobody)`, `nobody chooses`), loading fails with
`nobody-is-no-seat`; where only the run can tell (`tricks(maker)` with no maker), the
step raises RuleRuntimeError naming the rule's line, and the state is left as it was.
"""

from __future__ import annotations

import pytest

import interpreter
import tricklang
from interpreter.errors import RuleRuntimeError

HEAD = """tricklang 1
game "No maker"
players 2
deck
  suits spades black, hearts red
  ranks A K Q
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
deal
  deal 3 to each
  tricks 3, left of dealer leads first
"""


@pytest.mark.parametrize("line", [
    "dealer scores tricks(nobody)",
    "dealer scores points(nobody)",
    "dealer scores score(nobody)",
    "nobody scores 1",
    "let x = left of nobody",
    "let x = partner of nobody",
    "let x = count(hand of nobody)",
    "nobody discards 1 to stock",
    "nobody takes 1 from stock",
    "nobody names trump",
])
def test_nobody_where_a_seat_is_needed_is_refused_by_the_checker(line: str) -> None:
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.loads(HEAD + "  " + line + "\n")
    assert "nobody-is-no-seat" in err.value.codes


def test_nobody_chooses_is_refused_by_the_checker() -> None:
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.loads(HEAD + "  nobody chooses:\n    a:\n      pass\n    b:\n      pass\n")
    assert err.value.codes == ["nobody-is-no-seat"]


def test_comparing_and_assigning_nobody_is_fine() -> None:
    tricklang.loads(HEAD + "  set maker = nobody\n  if maker == nobody:\n    dealer scores 1\n")


@pytest.mark.parametrize(("line", "said"), [
    ("dealer scores tricks(maker)", "'tricks()'"),
    ("dealer scores points(maker)", "'points()'"),
    ("let x = left of maker", "'left of'"),
    ("let x = partner of maker", "'partner of'"),
    ("maker scores 1", "scoring"),
    ("let x = count(hand of maker)", "'hand of'"),
])
def test_a_player_that_turns_out_to_be_nobody_raises_naming_the_line(line: str, said: str) -> None:
    text = HEAD + "  " + line + "\n"
    ruleset = tricklang.loads(text)
    state = interpreter.new_game(ruleset, seed=1)
    # Play the tricks; the last card runs the scoring line, which fails.
    while True:
        action = state.legal_actions()[0]
        before = state.to_json()
        try:
            state.apply(action)
        except RuleRuntimeError as err:
            assert f"line {text.count(chr(10))}:" in str(err) and said in str(err) and "maker is nobody" in str(err)
            assert state.to_json() == before  # the state is left as it was
            return
        assert not state.is_terminal()


def test_an_actor_that_is_nobody_raises_before_the_decision() -> None:
    text = HEAD.replace("  tricks 3, left of dealer leads first\n", "  maker discards 1 to stock\n  tricks 2, left of dealer leads first\n")
    with pytest.raises(RuleRuntimeError, match=r"line 12: .*maker is nobody"):
        interpreter.new_game(tricklang.loads(text), seed=1)
