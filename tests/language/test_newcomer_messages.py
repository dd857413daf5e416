"""Messages a newcomer met (issue 29): a reserved word used as a name says it is reserved
and names the statement it starts; messages speak the language's words, never the model's
class names; a variable that shadows a zone says so, once; and a trump order whose
patterns place a rank needs no bare rank for it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tricklang
from tricklang import model

ROOT = Path(__file__).resolve().parents[2]
HEAD = """tricklang 1
game "Messages"
players 2
role elder = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks A K Q J 10 9
zone hand: per player, owner
zone stock: shared, hidden, pack
zone turnup: shared, public
zone won: per player, public
deal
  deal 3 to each
"""
TRICKS = "  tricks 3, elder leads first\n"
# The model's class names of more than one word (SetTrump, TurnUp...), as an error used to quote them: 'settrump'.
MODEL_NAMES = {name.lower() for name in dir(model)
               if isinstance(getattr(model, name), type) and len(re.findall("[A-Z]", name)) > 1}


def refused(text: str) -> tricklang.RulesError:
    with pytest.raises(tricklang.RulesError) as caught:
        tricklang.loads(text, path="m.trick")
    return caught.value


@pytest.mark.parametrize("text, line, column", [
    (HEAD + "  turn chooses:\n    a:\n      pass\n    b:\n      pass\n" + TRICKS, 14, 3),
    (HEAD.replace("role elder = left of dealer", "role elder = left of dealer\nrole turn = dealer")
     + "  turn scores 1\n" + TRICKS, 15, 3),
])
def test_a_reserved_word_where_a_name_goes_says_so_and_names_its_statement(text: str, line: int, column: int) -> None:
    [diag] = refused(text).diagnostics
    assert diag.code == "syntax-error" and (diag.line, diag.column) == (line, column)
    assert diag.message == ("'turn' is a reserved word: it starts the statement 'turn up N to ZONE', "
                            "so it cannot be used as a name here")
    assert "turn" in diag.hint and "expected 'up'" not in diag.message


def test_other_syntax_errors_after_a_reserved_word_keep_their_message() -> None:
    [diag] = refused(HEAD + "  turn up to turnup\n" + TRICKS).diagnostics
    assert diag.message.startswith("unexpected 'turnup'; expected")  # 'to' was read as the number's place


@pytest.mark.parametrize("body, words", [
    ("turn up 1 to turnup", "'turn up'"),
    ("elder takes 1 from stock", "'takes'"),
    ("elder names trump", "'names trump'"),
    ("elder draws to 5 from stock", "'draws'"),
    ("if true:\n  elder discards 1 to stock", "'discards'"),
    ("redeal by same dealer", "'redeal'"),
    ("end the deal", "'end the deal'"),
    ("cut stock", "'cut'"),
])
def test_messages_quote_the_languages_words_not_the_models_names(body: str, words: str) -> None:
    lines = "".join(f"      {line}\n" for line in body.splitlines())
    text = HEAD + TRICKS + "    declare king holding K of spades, before own first card:\n" + lines
    # A declaration's effect runs as a hook's (issue 28): these are refused as statements that cannot run in
    # the middle of trick play, or that this runtime cannot run there yet, in the language's words either way.
    codes = ("bad-declaration-body", "bad-hook-statement", "unsupported-construct")
    messages = [d.message for d in refused(text).diagnostics if d.code in codes]
    assert messages and all(words in m for m in messages), messages
    for message in messages:
        quoted = set(re.findall(r"'([^']+)'", message))
        assert not {w.lower() for w in quoted} & MODEL_NAMES


def test_a_variable_named_like_a_zone_names_the_zone_once() -> None:
    text = HEAD + "  let won = 0\n  set won = 1\n  set won = 2\n" + TRICKS
    found = [d for d in refused(text).diagnostics if d.code == "duplicate-name"]
    assert [(d.line, d.message) for d in found] == [(14, "variable 'won' shadows the zone 'won'")]
    assert "another name" in found[0].hint


@pytest.mark.parametrize("name, what", [("elder", "the role 'elder'"), ("dealer", "the built-in player 'dealer'"),
                                        ("stock", "the zone 'stock'")])
def test_the_shadowed_name_says_what_it_is(name: str, what: str) -> None:
    found = [d for d in refused(HEAD + f"  let {name} = 0\n" + TRICKS).diagnostics if d.code == "duplicate-name"]
    assert [d.message for d in found] == [f"variable '{name}' shadows {what}"]


EUCHRE = (ROOT / "examples" / "euchre.trick").read_text(encoding="utf-8")
ORDER = "trump ranks J (J of same colour as trump) A K Q 10 9"


@pytest.mark.parametrize("order", ["trump ranks (J of trump) (J of same colour as trump) A K Q 10 9",
                                   "trump ranks (J of trump or J of same colour as trump) A K Q 10 9"])
def test_a_rank_placed_by_a_pattern_of_the_trump_order_is_not_left_out(order: str) -> None:
    assert ORDER in EUCHRE
    ruleset = tricklang.loads(EUCHRE.replace(ORDER, order), path=str(ROOT / "examples" / "variant.trick"))
    assert ruleset.name == "Euchre"


@pytest.mark.parametrize("order", ["trump ranks (J of same colour as trump) A K Q 10 9",
                                   "trump ranks (J of spades) (J of same colour as trump) A K Q 10 9"])
def test_a_rank_no_item_places_under_every_trump_is_still_left_out(order: str) -> None:
    error = refused(EUCHRE.replace(ORDER, order))
    assert [d.message for d in error.diagnostics if d.code == "bad-rank"] == ["the trump order leaves out rank(s) J"]
