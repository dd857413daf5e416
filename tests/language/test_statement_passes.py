"""Every kind of statement goes through every pass, and a pass meets no kind it does not know.

The kinds are found by introspection (every subclass of ``Stmt``); each needs a snippet
below, so that adding a statement without a snippet fails here, and each snippet is
walked through the checker, the lints, the static bounds, the safety checks, the prose
of ``tricklang explain``, ``tricklang fmt`` and the language server's symbols and
hovers. A kind that no pass knows (made up below) makes each pass that needs to know it
raise ``TypeError`` naming it, rather than be passed over in silence.
"""

from __future__ import annotations

import textwrap
import typing
from collections.abc import Iterator
from typing import Any

import pytest

import tricklang
from tricklang import model as m
from tricklang.bounds import derive_bounds
from tricklang.checker import Checker
from tricklang.explain import explain, explain_statement
from tricklang.fmt import format_text, meaning
from tricklang.lints import lint
from tricklang.lsp import symbols
from tricklang.lsp.analysis import analyse
from tricklang.lsp.hover import hover
from tricklang.ruleset import Ruleset
from tricklang.safety import check_safety
from tricklang.support import constructs, language_constructs
from tricklang.walk import statements, statements_of

TEMPLATE = """tricklang 1
game "Kinds"
players 2
role elder = left of dealer
deck
  suits spades black, hearts red, diamonds red, clubs black
  ranks K Q J A 10 9 8 7
option bonus: int = 1 in 0..5
zone hand: per player, owner
zone stock: shared, hidden, pack
zone turnup: shared, public
zone discards: per player, public
zone won: per player, public
counter bags: per player
melds pinochle
  "marriage" K Q in any suit = 20
{top}deal
  deal 3 to each
{deal}
  tricks 3, elder leads first
    must follow suit
    declare king holding K of trump, before own first card:
      declarer scores bonus "king"
{hook}{irregularity}"""

SNIPPETS: dict[str, str] = {
    "DealCards": "deal 1 to each",
    "TurnUp": "turn up 1 to turnup",
    "SetTrump": "trump is spades",
    "NameTrump": "elder names trump",
    "Bid": "elder bids 0..3",
    "Add": "add 1 to bags of elder",
    "Phase": "phase scoring:\n  dealer scores 1",
    "Score": 'dealer scores 1 "one"',
    "Let": "let x = 1\nif x > 0:\n  pass",
    "StopLoop": "repeat at most 2 times:\n  stop",
    "Pass": "pass",
    "EndDeal": "if dealer == elder:\n  end the deal",
    "EndMatch": "end the match",
    "Discard": "elder discards 1 to discards",
    "Take": "elder takes 1 from stock",
    "Keep": "turn up 1 to turnup\ndealer takes all from turnup and keeps 3",
    "Cut": "cut stock",
    "Leads": "!offender leads",
    "ReplayTricks": "!replay the tricks",
    "BecomesDealer": "elder becomes dealer",
    "Draw": "elder draws 1 from stock",
    "Move": "move 1 from stock to turnup",
    "Redeal": "if count(stock) > 30:\n  redeal by same dealer",
    "Expose": "expose hand of elder",
    "Forbid": "forbid declare king for elder",
    "Cancel": 'cancel "king" for elder',
    "If": "if dealer == elder:\n  pass\nelif bonus > 2:\n  pass\nelse:\n  dealer scores 1",
    "Repeat": "repeat at most 2 times while count(stock) > 0:\n  elder draws 1 from stock",
    "ForEach": "for each player from elder:\n  player scores 1",
    "Choose": "elder chooses:\n  stay:\n    pass\n  go:\n    dealer scores 1",
    "Auction": "auction once around from elder, bids 1..3",
    "Tricks": "pass",
    "ForCard": "for each card in hand of elder matching trump:\n  if card == card:\n    stop",
    "NameLed": "@after leading K:\n  player names the suit led except hearts",
    "Shows": "@after playing Q:\n  player shows 1 matching A, else any",
    "EndPlay": "@after each trick:\n  if last_trick:\n    end the play",
    "Melds": "for each player:\n  player melds pinochle",
    "Joins": "%teams re, kontra\n%%\nfor each player:\n  if hand of player has K of clubs:\n    player joins re\n"
             "  else:\n    player joins kontra",
    "TableAuction": "%bids contracts\n  levels 1..2 in spades, hearts\n  misere\n%%\n"
                    "auction until 2 passes from elder, bids contracts\n  elder may hold\n  if all pass: no contract",
    "TableBid": "%bids contracts\n  numbers 18, 20, 22\n%%\nelder bids contracts above 18, or passes",
}
"""A rule-file snippet for each kind of statement (a deal's lines; with '!' an
irregularity's remedy, offered during play; with '@' a hook of trick play; with '%' top-level
sections, then '%%' and a deal's lines)."""


def _kinds() -> list[type[m.Stmt]]:
    def below(cls: type[m.Stmt]) -> Iterator[type[m.Stmt]]:
        for sub in cls.__subclasses__():
            if sub.__module__.startswith("tricklang.model"):
                yield sub
                yield from below(sub)

    return sorted(set(below(m.Stmt)), key=lambda c: c.__name__)


KINDS = [k.__name__ for k in _kinds()]


def text_for(kind: str) -> str:
    snippet = SNIPPETS[kind]
    if snippet.startswith("!"):
        body = textwrap.indent(snippet[1:], "  ")
        return TEMPLATE.format(top="", deal="  pass", hook="", irregularity=f"irregularity slip during play:\n{body}\n")
    if snippet.startswith("@"):
        return TEMPLATE.format(top="", deal="  pass", hook=textwrap.indent(snippet[1:], "    ") + "\n", irregularity="")
    if snippet.startswith("%"):
        top, deal = snippet[1:].split("\n%%\n")
        return TEMPLATE.format(top=top + "\n", deal=textwrap.indent(deal, "  "), hook="", irregularity="")
    return TEMPLATE.format(top="", deal=textwrap.indent(snippet, "  "), hook="", irregularity="")


def language_only(text: str) -> tuple[m.RuleFile, Ruleset, list[tricklang.Diagnostic]]:
    """The model, a ruleset and the checker's diagnostics, also for a construct the runtime
    cannot play yet (the loader refuses those)."""
    rules = tricklang.parse(text, "kinds.trick")
    checker = Checker(rules)
    found = checker.run()
    options = {o.name: o.default for o in rules.options}
    ruleset = Ruleset.model_construct(rules=rules, source=text, path="kinds.trick", options=options, warnings=(),
                                      bases=(), symbols=checker.symbols)
    return rules, ruleset, found


def test_every_kind_of_statement_has_a_snippet() -> None:
    assert sorted(SNIPPETS) == KINDS, "add a snippet for each new kind of statement"


@pytest.mark.parametrize("kind", KINDS)
def test_each_snippet_writes_its_kind(kind: str) -> None:
    rules = tricklang.parse(text_for(kind), "kinds.trick")
    assert kind in {type(st).__name__ for st in statements_of(rules)}


@pytest.mark.parametrize("kind", KINDS)
def test_every_pass_handles_every_kind(kind: str) -> None:
    text = text_for(kind)
    rules, ruleset, found = language_only(text)
    errors = [d for d in found if d.severity == "error"]
    assert {d.code for d in errors} <= {"unsupported-construct"}, [d.render() for d in errors]
    lint(rules)
    check_safety(rules)
    derive_bounds(ruleset)
    derive_bounds(ruleset, table=True)
    assert explain(ruleset)
    for st in statements_of(rules):
        assert explain_statement(ruleset, st)
    assert meaning(tricklang.parse(format_text(text), "kinds.trick")) == meaning(rules)
    assert {key for key, _ in constructs(rules)} <= language_constructs()
    analysis = analyse(text, "kinds.trick")
    assert [s.name for s in symbols.declarations(analysis.chain[0])]
    for line, row in enumerate(text.splitlines(), 1):
        hover(analysis, line, len(row) - len(row.lstrip()) + 1)
    if not errors:
        tricklang.loads(text, path="kinds.trick")


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_states_its_facts(kind: str) -> None:
    cls = getattr(m, kind)
    for fact in m.FACTS:
        assert fact in vars(cls), f"{kind} does not state '{fact}' itself"
    assert cls.decides == bool(cls.decision)
    holds_statements = [name for name, info in cls.model_fields.items() if _holds_statements(info.annotation)]
    assert sorted(holds_statements) == sorted(cls.bodies), "every field that holds statements is named in 'bodies'"


def _holds_statements(annotation: Any) -> bool:
    """Whether a field's type mentions statements (or nodes with a body of them), resolved or not."""
    if isinstance(annotation, (str, typing.ForwardRef)):
        return any(word in str(annotation) for word in ("Statement", "ChoiceOption", "Declaration", "Hook"))
    if isinstance(annotation, type) and (issubclass(annotation, m.Stmt) or (
            issubclass(annotation, m.Node) and "body" in annotation.model_fields)):
        return True
    return any(_holds_statements(arg) for arg in typing.get_args(annotation))


# ---------------------------------------------------------------- a kind no pass knows


class Mystery(m.Stmt, decision="mystery", moves_cards=True, scores=True, ends=None):
    """A statement no pass has been taught: it decides, moves cards and scores."""


class Quiet(m.Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """A statement that does nothing the facts would make a pass look at."""


def _with(kind: type[m.Stmt]) -> tuple[m.RuleFile, Ruleset]:
    rules, ruleset, _ = language_only(text_for("Pass"))
    odd = kind.model_construct(span=rules.deal[1].span)
    rules = rules.model_copy(update={"deal": (rules.deal[0], odd, *rules.deal[2:])})
    return rules, ruleset.model_copy(update={"rules": rules})


PASSES: dict[str, Any] = {
    "checker": lambda rules, ruleset: Checker(rules).run(),
    "lints": lambda rules, ruleset: lint(rules),
    "bounds (score, decisions, hand)": lambda rules, ruleset: derive_bounds(ruleset),
    "prose": lambda rules, ruleset: explain(ruleset),
}


@pytest.mark.parametrize("name", sorted(PASSES))
def test_a_pass_meeting_a_kind_it_does_not_handle_fails_loudly(name: str) -> None:
    rules, ruleset = _with(Mystery)
    with pytest.raises(TypeError, match="Mystery"):
        PASSES[name](rules, ruleset)


def test_the_facts_alone_carry_a_quiet_kind_through_lints_bounds_and_budget() -> None:
    rules, ruleset = _with(Quiet)
    lint(rules)
    check_safety(rules)
    assert derive_bounds(ruleset).actions_per_deal is not None
    assert Quiet in {type(st) for st in statements(rules.deal)}
    with pytest.raises(TypeError, match="Quiet"):
        explain(ruleset)  # every kind has its own reading
    assert "Quiet" not in language_constructs()  # a kind outside the model is no construct of the language


def test_a_kind_that_does_not_state_its_facts_is_refused_when_written() -> None:
    with pytest.raises(TypeError, match="scores"):
        class Forgetful(m.Stmt, decision="", moves_cards=False, ends=None):  # type: ignore[call-arg]
            pass
    with pytest.raises(TypeError, match="go together"):
        class Halfway(m.Stmt, decision="", moves_cards=False, scores=False, ends=None, bodies=("body",)):
            body: tuple[m.Statement, ...] = ()
