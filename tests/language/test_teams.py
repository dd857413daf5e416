"""Issue 28, the language half of per-deal teams (design 3.9): ``teams A, B``, ``P joins T``,
``team of P``, ``no_team``, a team wherever a side is read or scores, a team's zone (read only).

Each diagnostic the construct brings is reported at its ``file:line:col``: ``type-error``
(``player joins 3``, ``tricks(re) + re``, ``score(re)``), ``duplicate-name`` (a team named like a
zone, twice, or like a built-in name), ``nobody-is-no-seat`` (``nobody joins re``),
``not-a-zone-instance`` (a team's zone moved from or to, exposed, or read by ``suit of``) and
``undefined-name`` (``team of`` in a file without teams). The prose of ``tricklang explain`` and
the canonical layout of ``tricklang fmt`` know the new forms. (The runtime plays them:
tests/runtime/test_teams_runtime.py.)
"""

from __future__ import annotations

import pytest

import tricklang
from tricklang.explain import explain
from tricklang.fmt import format_text, meaning

GAME = """tricklang 1
game "Teams"
players 4
role eldest = left of dealer
teams re, kontra
deck
  suits clubs black, spades black, hearts red, diamonds red
  ranks A K Q J
zone hand: per player, owner
zone stock: shared, hidden, pack
zone won: per player, public
deal
  deal 4 to each
  for each player:
    if hand of player has Q of clubs:
      player joins re
    else:
      player joins kontra
  tricks 4, eldest leads first
    must follow suit
    must beat if able when team of winner != team of to_play
  let side_of_petit = no_team
  if count(won of re matching A) == 4 and tricks(re) > 2 and points(kontra) >= 0:
    set side_of_petit = re
  for each card in won of kontra matching K:
    pass
  if side_of_petit == re and team of eldest == re:
    re scores 2 "game"
    kontra loses 2 "game"
"""


def diagnostics(text: str) -> list[tuple[str, int, int]]:
    """The errors of a rule file: (code, line, column)."""
    try:
        tricklang.loads(text, path="teams.trick")
    except tricklang.RulesError as err:
        return [(d.code, d.line, d.column) for d in err.diagnostics if d.severity == "error"]
    return []


def where(text: str, line_text: str, word: str) -> tuple[int, int]:
    """The 1-based line and column of ``word`` in the line of ``text`` that is ``line_text``."""
    lines = text.splitlines()
    k = lines.index(line_text)
    return k + 1, lines[k].index(word) + 1


def with_line(line: str, text: str = GAME) -> str:
    """The game with a statement added at the end of its deal."""
    return text + "  " + line + "\n"


def test_the_teams_game_loads_and_types_its_forms() -> None:
    rules = tricklang.loads(GAME, path="teams.trick")
    assert [t.names for t in rules.rules.teams] == [("re", "kontra")]
    symbols = rules.symbols
    assert symbols.names["re"] == symbols.names["no_team"] == tricklang.types.TEAM
    assert symbols.variables["side_of_petit"] == tricklang.types.TEAM


@pytest.mark.parametrize(("line", "word"), [
    ("eldest joins 3", "3"),  # a number is no team
    ("re joins kontra", "re"),  # a team is no player
    ("let x = tricks(re) + re", "re\n"),  # a team is no number (the second operand)
    ("let x = score(re)", "re)"),  # scores are kept by side, not team
    ("if team of eldest == 1:\n    pass", "team of eldest == 1"),
])
def test_a_team_where_another_type_is_needed_is_a_type_error_at_its_place(line: str, word: str) -> None:
    text = with_line(line)
    first = line.split("\n")[0]
    lnum, col = where(text, "  " + first, word.strip())
    if word.endswith("\n"):  # the last occurrence
        col = text.splitlines()[lnum - 1].rindex(word.strip()) + 1
    assert ("type-error", lnum, col) in diagnostics(text)


@pytest.mark.parametrize("teams", ["teams re, won", "teams re, re", "teams re, dealer", "teams re, no_team",
                                   "teams re, clubs"])
def test_a_team_named_like_another_name_is_a_duplicate_name(teams: str) -> None:
    text = GAME.replace("teams re, kontra", teams + ", kontra")
    lnum, col = where(text, teams + ", kontra", "teams")
    assert ("duplicate-name", lnum, col) in diagnostics(text)


def test_nobody_joining_a_team_is_nobody_is_no_seat() -> None:
    text = with_line("nobody joins re")
    assert ("nobody-is-no-seat", *where(text, "  nobody joins re", "nobody")) in diagnostics(text)


@pytest.mark.parametrize(("line", "word"), [
    ("move all from won of re to stock", "won of re"),
    ("move all from stock to won of kontra", "won of kontra"),
    ("expose won of re", "won of re"),
    ("eldest discards 1 to won of re", "won of re"),
    ("trump is suit of won of re", "won of re"),
    ("let s = suit of won of re", "won of re"),
])
def test_a_teams_zone_where_one_zone_is_needed_is_not_a_zone_instance(line: str, word: str) -> None:
    text = with_line(line)
    assert ("not-a-zone-instance", *where(text, "  " + line, word)) in diagnostics(text)


def test_a_teams_zone_read_is_accepted() -> None:
    for line in ("let n = count(won of re)", "if won of kontra has A:\n    pass", "let p = points(won of re)"):
        assert diagnostics(with_line(line)) == []


def test_team_of_without_teams_is_an_undefined_name() -> None:
    text = GAME.replace("teams re, kontra\n", "").replace("      player joins re\n", "      pass\n")
    text = text.replace("    else:\n      player joins kontra\n", "")
    text = text.split("  let side_of_petit")[0] + "  if team of eldest == no_team:\n    pass\n"
    assert ("undefined-name", *where(text, "  if team of eldest == no_team:", "team of")) in diagnostics(text)


def test_the_error_text_names_the_file_line_and_column_with_a_caret() -> None:
    with pytest.raises(tricklang.RulesError) as err:
        tricklang.loads(with_line("move all from won of re to stock"), path="teams.trick")
    text = str(err.value)
    lnum, col = where(with_line("move all from won of re to stock"), "  move all from won of re to stock", "won of re")
    assert f"teams.trick:{lnum}:{col}: error:" in text and "[not-a-zone-instance]" in text
    assert "union of the zones of the team's members" in text and "^" in text


def test_explain_words_teams_joins_and_a_teams_zone() -> None:
    text = explain(tricklang.loads(GAME, path="teams.trick"))
    assert "## Teams" in text and "**re**, **kontra**" in text
    assert "the player joins `re` for the rest of the deal (nobody is told)" in text
    assert "the won of every member of `re`" in text
    assert "the team of the player winning the trick so far is not the team of the player to play" in text


def test_fmt_lays_the_new_forms_out_and_keeps_their_meaning() -> None:
    messy = GAME.replace("teams re, kontra", "teams   re ,kontra").replace("player joins re", "player   joins  re")
    laid = format_text(messy)
    assert laid == GAME
    assert meaning(tricklang.parse(laid, "a.trick")) == meaning(tricklang.parse(messy, "a.trick"))
    assert format_text(laid) == laid


def test_a_per_side_zone_of_a_team_is_a_type_error() -> None:
    text = GAME.replace("zone won: per player, public", "zone won: per player, public\nzone pile: per side, public")
    for line in ("let n = count(pile of re)", "move all from stock to pile of re"):
        added = with_line(line, text)
        lnum, _ = where(added, "  " + line, "re")
        assert ("type-error", lnum, ("  " + line).rindex("re") + 1) in diagnostics(added)  # the team, named last


def test_taker_is_free_as_a_team_name_beside_taker_of() -> None:
    text = GAME.replace("teams re, kontra", "teams taker, kontra").replace("joins re", "joins taker")
    text = text.split("  let side_of_petit")[0] + (
        "  let t = taker of K of clubs\n"
        "  if team of t == taker and points(won of taker) > 0:\n"
        "    taker scores 1 \"taker\"\n")
    rules = tricklang.loads(text, path="taker.trick")
    lets = [st for st in tricklang.walk.statements_of(rules.rules) if isinstance(st, tricklang.model.Let)]
    assert isinstance(lets[0].value, tricklang.model.CardHolder) and lets[0].value.kind == "taker"
    assert rules.symbols.names["taker"] == tricklang.types.TEAM
    assert format_text(text.replace("taker of K", "taker   of K")) == text
