"""The language server's analysis without the protocol: whatever the text and wherever the
cursor, diagnostics are those of `tricklang check` and no feature raises."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricklang
from tricklang.lsp import completion, hover, symbols
from tricklang.lsp.analysis import analyse

ROOT = Path(__file__).resolve().parents[2]
WHIST = ROOT / "examples" / "whist.trick"
TEXT = WHIST.read_text(encoding="utf-8")


@st.composite
def edited(draw: st.DrawFn) -> str:
    """The text as it may be mid-edit: a span cut out, and something typed in its place."""
    start = draw(st.integers(0, len(TEXT)))
    end = draw(st.integers(start, min(len(TEXT), start + 200)))
    typed = draw(st.text(alphabet=st.sampled_from(list("abz :()[],.=\"#\n  \t09-🂡")), max_size=12))
    return TEXT[:start] + typed + TEXT[end:]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited(), st.integers(1, 200), st.integers(1, 90))
def test_no_feature_raises_on_a_text_mid_edit(text: str, line: int, column: int) -> None:
    path = str(WHIST)
    result = analyse(text, path)
    try:
        ruleset = tricklang.loads(text, path=path)
        expected = list(ruleset.warnings)
    except tricklang.RulesError as err:
        expected = list(err.diagnostics) + list(err.warnings)
    assert result.diagnostics == expected
    line = min(line, max(1, len(text.splitlines())))
    hover.hover(result, line, column)
    completion.complete(text, line, column, result)
    symbols.definition(result, line, column)
    symbols.outline(result)


def test_every_position_of_a_rule_file_answers() -> None:
    result = analyse(TEXT, str(WHIST))
    assert result.diagnostics == [] and result.ruleset is not None
    answered = 0
    for n, line in enumerate(TEXT.splitlines(), 1):
        for column in range(1, len(line) + 2, 3):
            answered += hover.hover(result, n, column) is not None
            completion.complete(TEXT, n, column, result)
            symbols.definition(result, n, column)
    assert answered > 100


def test_during_completes_the_referees_pauses_of_a_game_that_deals_and_plays_tricks() -> None:
    ecarte = ROOT / "rules" / "ecarte.trick"
    text = ecarte.read_text(encoding="utf-8") + "\nirregularity late during play:\n  pass\n"
    result = analyse(text, str(ecarte))
    line = len(text.splitlines()) - 1
    labels = [item.label for item in completion.complete(text, line, len("irregularity late during ") + 1, result)]
    assert {"deal", "play", "end_of_play", "choice", "any"} <= set(labels)


def type_in(text: str, old: str, new: str) -> tuple[str, int, int]:
    """``text`` with ``old`` (on one line) typed as ``new``, and the 1-based position after it."""
    start = text.index(old)
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + len(new) + 1
    return text[:start] + new + text[start + len(old):], line, column


def labels_at(text: str, line: int, column: int) -> list[str]:
    return [i.label for i in completion.complete(text, line, column, analyse(TEXT, str(WHIST)))]


def test_after_must_completion_offers_the_obligations_the_grammar_allows() -> None:
    """It offered names (`elder`...) instead: completion follows the grammar's expected tokens."""
    text, line, column = type_in(TEXT, "    must follow suit", "    must ")
    assert labels_at(text, line, column) == ["beat if able", "follow suit", "lead", "overtrump if able", "trump if void"]
    text, line, column = type_in(TEXT, "    must follow suit", "    may ")
    assert labels_at(text, line, column) == ["not lead", "not play", "not undertrump", "play",
                                             "trump instead of following"]
    text, line, column = type_in(TEXT, "    must follow suit", "    must trump ")
    assert labels_at(text, line, column) == ["if void"]


def test_keyword_phrases_come_from_the_grammar_where_it_can_say() -> None:
    text, line, column = type_in(TEXT, "  dealer passes left", "  ")
    got = labels_at(text, line, column)
    assert {"dealer passes left", "dealer passes right", "game to", "at most", "ties go to"} <= set(got)
    text, line, column = type_in(TEXT, "    must follow suit", "    ")
    assert {"must follow suit", "may trump instead of following", "the first card led sets trump", "declare"} <= set(
        labels_at(text, line, column))
    broken = TEXT.replace("players 4", "players 4 4 4 (", 1)  # (before the cursor the text does not parse)
    assert broken != TEXT
    text, line, column = type_in(broken, "    must follow suit", "    ")
    assert "must follow suit" in labels_at(text, line, column)  # (the lists stand in for the grammar)


def test_the_bookkeeping_flag_is_completed_and_shown_in_hovers() -> None:
    cinch = ROOT / "rules" / "cinch.trick"
    text = cinch.read_text(encoding="utf-8")
    result = analyse(text, str(cinch))
    lines = text.splitlines()
    aside = next(n for n, line in enumerate(lines, 1) if line.startswith("zone aside"))
    shown = hover.hover(result, aside, len("zone a"))
    assert shown is not None and "bookkeeping (not in transcripts)" in shown.markdown
    for declared in ("zone scratch: shared, hidden, ", "counter tally: per player, "):
        typed = text + declared
        last = len(typed.splitlines())
        labels = [i.label for i in completion.complete(typed, last, len(declared) + 1, analyse(typed, str(cinch)))]
        assert "bookkeeping" in labels
