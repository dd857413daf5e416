"""`tricklang fmt`: the canonical layout keeps the meaning, every comment and citation,
and formatting twice changes nothing."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricklang
from tricklang.fmt import CITATION_COLUMN, MAX_WIDTH, format_text, meaning

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])
TEXTS = {path.name: path.read_text(encoding="utf-8") for path in SHIPPED}
COMMENT = re.compile(r'^(?:[^"#\n]|"[^"\n]*")*(#.*)$', re.MULTILINE)
CITATION = re.compile(r"\[[A-Z]+[0-9][^\]\n]*\]")
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def comments(text: str) -> list[str]:
    return [m.group(1).rstrip() for m in COMMENT.finditer(text)]


def citations(text: str) -> list[tuple[str, ...]]:
    return [tuple(law.strip() for law in c[1:-1].split(",")) for c in CITATION.findall(text)]


def same_meaning(a: str, b: str) -> bool:
    return bool(meaning(tricklang.parse(a, "x.trick")) == meaning(tricklang.parse(b, "x.trick")))


# ---------------------------------------------------------------- the shipped files


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_formatting_a_shipped_file_keeps_its_meaning_comments_and_citations(name: str) -> None:
    text = TEXTS[name]
    out = format_text(text, name)
    assert same_meaning(text, out)
    assert format_text(out, name) == out
    assert comments(out) == comments(text)
    assert citations(out) == citations(text)


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_shipped_file_is_formatted(name: str) -> None:
    assert format_text(TEXTS[name], name) == TEXTS[name], f"run: tricklang fmt {name}"


def test_citations_line_up_in_one_column() -> None:
    out = format_text(TEXTS["ecarte.trick"])
    starts = {line.index("[E") for line in out.splitlines()
              if "[E" in line and "#" not in line and len(line.split("[E")[0].rstrip()) <= CITATION_COLUMN - 2}
    assert starts == {CITATION_COLUMN}


# ---------------------------------------------------------------- what it normalises


MESSY = """\
tricklang 1
game "Mini"   # a name
players   2      [E1]
deck
    suits spades black,hearts red
    ranks A K Q
option n :int= 2 in 1 .. 3 "count"   [E5,E6]
zone hand : per player,owner
zone stock: shared, hidden, pack


deal
    deal n to each
    # about the loop
    repeat at most 2 times while count( stock )>0:
            let x = - ( n+1 ) * 2
            if x == -4 : dealer scores max( 1 , n )   [E7]
    # end of the loop
    tricks 2, left of dealer leads first
"""

TIDY = """\
tricklang 1
game "Mini"  # a name
players 2                                                          [E1]
deck
  suits spades black, hearts red
  ranks A K Q
option n: int = 2 in 1..3 "count"                                  [E5, E6]
zone hand: per player, owner
zone stock: shared, hidden, pack

deal
  deal n to each
  # about the loop
  repeat at most 2 times while count(stock) > 0:
    let x = -(n + 1) * 2
    if x == -4: dealer scores max(1, n)                            [E7]
  # end of the loop
  tricks 2, left of dealer leads first
"""


def test_spacing_indentation_blank_lines_and_citations_are_normalised() -> None:
    assert format_text(MESSY) == TIDY
    assert same_meaning(MESSY, TIDY)


def test_a_long_line_keeps_its_citation_two_spaces_after_it() -> None:
    line = "option " + "a" * 60 + ': bool = true "x" [E1]'
    out = format_text(TIDY.replace('option n: int = 2 in 1..3 "count"', line + "\noption n: int = 2 in 1..3"))
    assert line.replace(' "x" [E1]', ' "x"  [E1]') in out


def test_a_line_continued_in_parentheses_is_joined_unless_a_comment_is_inside() -> None:
    joined = TIDY.replace("    let x = -(n + 1) * 2", "    let x = -(n +\n        1) * 2")
    assert format_text(joined) == TIDY
    commented = MESSY.replace("            let x = - ( n+1 ) * 2", "            let x = - ( n+  # one more\n                1 ) * 2")
    out = format_text(commented)
    assert "\n    let x = - ( n+  # one more\n        1 ) * 2\n" in out
    assert same_meaning(out, TIDY) and format_text(out) == out


def test_a_long_line_is_wrapped_not_joined_into_one() -> None:
    """A `trump ranks` line of ~900 characters (written over many lines) comes out as
    lines of at most MAX_WIDTH, broken between words outside parentheses, the citation
    on the last; it means the same and formats to itself."""
    items = " ".join(["(5 of same colour as trump) A K"] * 28)
    ranks = items.split(" ")
    written = "  trump ranks " + " \\\n    ".join(" ".join(ranks[i:i + 9]) for i in range(0, len(ranks), 9)) + "  [E2]"
    text = TIDY.replace("  ranks A K Q\n", "  ranks A K Q\n" + written + "\n")
    out = format_text(text)
    assert same_meaning(text, out) and format_text(out) == out
    wrapped = out.split("  trump ranks ")[1].split("\noption")[0].splitlines()
    assert len(" ".join(wrapped)) > 900 and len(wrapped) >= 8
    assert all(len(line.split("  [E2]")[0]) <= MAX_WIDTH for line in wrapped)
    assert all(line.endswith(" \\") for line in wrapped[:-1]) and wrapped[-1].endswith("  [E2]")
    assert all(line.startswith("      ") for line in wrapped[1:])  # continued: two levels deeper
    assert all(line.count("(") == line.count(")") for line in wrapped)  # never inside a pattern's parentheses


def test_a_long_condition_breaks_before_a_clause_word() -> None:
    cond = " and ".join(f"count(hand of dealer) > {i}" for i in range(6))
    text = TIDY.replace("  tricks 2, left of dealer leads first", f"  if {cond}:\n    stop\n  tricks 2, left of dealer leads first")
    out = format_text(text)
    first, second = [line for line in out.splitlines() if "count(hand of dealer)" in line]
    assert first.endswith(" \\") and second.lstrip().startswith("and ") and len(first) <= MAX_WIDTH
    assert same_meaning(text, out) and format_text(out) == out


@pytest.mark.parametrize("bad", ["players 2\n  deck\n", 'game "open\n', "tricklang 1\ndeal\n  stop\n bad\n"])
def test_a_file_with_errors_is_reported_not_formatted(bad: str) -> None:
    with pytest.raises(tricklang.RulesError) as err:
        format_text(bad, "bad.trick")
    assert err.value.diagnostics[0].path == "bad.trick"


# ---------------------------------------------------------------- generated and mutated files


@st.composite
def respaced(draw: st.DrawFn) -> tuple[str, str]:
    """A shipped file with its layout scrambled: another indent unit, extra spaces, more blank lines."""
    name = draw(st.sampled_from(sorted(TEXTS)))
    unit = draw(st.integers(1, 6))
    out = []
    for line in TEXTS[name].splitlines():
        body = line.lstrip(" ")
        depth = (len(line) - len(body)) // 2
        cut = min([i for i in (body.find("#"), body.find("["), body.find('"')) if i >= 0], default=len(body))
        code, rest = body[:cut], body[cut:]
        if draw(st.booleans()):
            code = re.sub(r"(?<=[\w)]) (?=[\w(])", lambda _: " " * draw(st.integers(1, 3)), code)
            code = code.replace(", ", draw(st.sampled_from([",", ", ", " ,  "])))
        body = code + rest
        out.append(" " * (unit * depth) + body + " " * draw(st.integers(0, 2)))
        if not body:
            out.extend([""] * draw(st.integers(0, 2)))
    return name, "\n".join(out) + "\n"


@functools.cache
def formatted(name: str) -> str:
    return format_text(TEXTS[name], name)


@settings(SETTINGS, max_examples=12)
@given(case=respaced())
def test_any_layout_of_a_shipped_file_formats_to_the_same_text(case: tuple[str, str]) -> None:
    name, text = case
    out = format_text(text, name)
    assert out == formatted(name)
    assert same_meaning(text, out)


HEAD = 'tricklang 1\ngame "G"\nplayers 2\ndeck\n  suits s black, h red\n  ranks A K Q\noption n: int = 2 in 1..3\n'

atoms = st.sampled_from(["n", "1", "2", "dealer", "count(hand of dealer)", "min(n, 3)", "score(dealer)"])


def expressions() -> st.SearchStrategy[str]:
    return st.recursive(atoms, lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "%", "==", "<"]), inner).map(
            lambda t: f"{t[0]}{' ' * (len(t[2]) % 3)}{t[1]}{t[2]}"),
        inner.map(lambda e: f"-{e}"),
        inner.map(lambda e: f"( {e} )"),
        inner.map(lambda e: f"not {e}"),
    ), max_leaves=6)


@SETTINGS
@given(expr=expressions(), cite=st.sampled_from(["", "[E1]", "[E1,E2]", "[E1-E9, C3]"]))
def test_generated_expressions_keep_their_meaning(expr: str, cite: str) -> None:
    text = HEAD + f"deal\n   let x = {expr} {cite}\n   if {expr}:\n       stop\n"
    try:
        tricklang.parse(text)
    except tricklang.RulesError:
        return  # e.g. a comparison of comparisons: not a rule file
    out = format_text(text)
    assert same_meaning(text, out)
    assert format_text(out) == out


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A shipped file with lines deleted, duplicated or re-indented, and words swapped."""
    lines = TEXTS[draw(st.sampled_from(sorted(TEXTS)))].splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["delete", "duplicate", "indent", "dedent", "join"]))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "indent":
            lines[i] = "  " + lines[i]
        elif kind == "dedent":
            lines[i] = lines[i].removeprefix("  ")
        elif i + 1 < len(lines):
            lines[i : i + 2] = [lines[i] + " " + lines[i + 1].strip()]
    return "\n".join(lines) + "\n"


@SETTINGS
@given(text=mutated())
def test_a_mutated_file_is_formatted_with_its_meaning_or_refused(text: str) -> None:
    try:
        before = tricklang.parse(text, "m.trick")
    except tricklang.RulesError:
        with pytest.raises(tricklang.RulesError):
            format_text(text, "m.trick")
        return
    out = format_text(text, "m.trick")
    assert meaning(tricklang.parse(out, "m.trick")) == meaning(before)
    assert format_text(out, "m.trick") == out
    assert comments(out) == comments(text)


# ---------------------------------------------------------------- the formatter's own safety net


def test_a_layout_that_would_change_the_meaning_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the layout (here: a line lost) is caught by reading the result again."""
    import tricklang.fmt as fmt

    render = fmt._render
    monkeypatch.setattr(fmt, "_render", lambda lines, physical: render(lines[:-1], physical))
    with pytest.raises(tricklang.RulesError) as caught:
        format_text(TEXTS["ecarte.trick"], "ecarte.trick")
    assert [d.code for d in caught.value.diagnostics] == ["format-failed"]


def test_the_tokens_and_the_model_are_read_as_each_reader_alone_reads_them() -> None:
    from tricklang.parser import parse_with_tokens, source_tokens

    text = TEXTS["cinch.trick"]
    rules, tokens = parse_with_tokens(text, "cinch.trick")
    assert meaning(rules) == meaning(tricklang.parse(text, "cinch.trick"))
    assert rules == tricklang.parse(text, "cinch.trick")
    assert tokens == source_tokens(text, "cinch.trick")
    assert {t.kind for t in tokens} >= {"NAME", "CITE", "COLON"}
    with pytest.raises(tricklang.RulesError):
        parse_with_tokens(text + "deal (\n", "cinch.trick")
