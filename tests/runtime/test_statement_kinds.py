"""Every statement kind of the language is compiled by the code generator.

The kinds are found by introspection (every subclass of ``tricklang.model.Stmt``), so a
new statement fails :func:`test_every_statement_kind_has_a_case` until it is given a rule
file here; each rule file then compiles (its statement's line is named in the generated
module) and plays, and the statement is seen to have run (the event it logs, the score
it gives, the choice it withholds). A kind the code generator has no branch for raises
TypeError when a rule file holding it is compiled (:func:`test_an_unknown_statement_kind_is_refused_by_the_code_generator`).
"""

from __future__ import annotations

import random
import re
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import interpreter
import tricklang
from interpreter.codegen import generate
from tricklang import model as m
from tricklang.support import RUNTIME
from tricklang.walk import statements

BASE = """\
tricklang 1
game "Kinds"
players 2
deck
  suits spades black, hearts red
  ranks A K Q
zone hand: per player, owner
zone stock: shared, hidden, pack
zone shown: shared, public
zone won: per player, public
counter marks: per player
match
  at most 2 deals
deal
  deal 2 to each
{before}
  tricks 2, left of dealer leads first
{after}
{extra}
"""


def _events(state: interpreter.State, kind: str) -> list[dict[str, Any]]:
    return [e for e in state.events() if e["type"] == kind]


def _scored(state: interpreter.State, label: str) -> list[int]:
    return [e["points"] for e in _events(state, "score") if e["label"] == label]


@dataclass(frozen=True)
class Case:
    """A rule file using a statement kind: the statements before and after trick play
    (indented as the deal's body), extra sections, and what shows the statement ran."""

    before: str = ""
    after: str = ""
    extra: str = ""
    ran: Callable[[interpreter.State], bool] = lambda state: True
    mode: str = "strict"
    irregular: str | None = None  # an irregularity committed once a card is on the table

    def text(self) -> str:
        def body(s: str) -> str:
            return textwrap.indent(textwrap.dedent(s).strip("\n"), "  ") if s else ""

        return BASE.format(before=body(self.before), after=body(self.after), extra=textwrap.dedent(self.extra))


CASES: dict[type[m.Stmt], Case] = {
    m.DealCards: Case(ran=lambda s: len(_events(s, "dealt")) >= 2),
    m.Tricks: Case(ran=lambda s: len(_events(s, "trick")) >= 2),
    m.TurnUp: Case(before="turn up 1 to shown", ran=lambda s: bool(_events(s, "turn_up"))),
    m.SetTrump: Case(before="trump is hearts", ran=lambda s: any(e["suit"] == "hearts" for e in _events(s, "trump"))),
    m.NameTrump: Case(before="dealer names trump",
                      ran=lambda s: any(e.get("player") is not None for e in _events(s, "trump"))),
    m.Bid: Case(before="dealer bids 0..3", ran=lambda s: bool(_events(s, "bid"))),
    m.Auction: Case(before="auction once around from dealer, bids 1..3",
                    ran=lambda s: bool(_events(s, "bid") or _events(s, "pass"))),
    m.TableAuction: Case(before="auction until 2 passes from dealer, bids calls\n  if all pass: no contract",
                         extra='bids calls\n  levels 1..2 in spades, no_trump "NT"\n',
                         ran=lambda s: bool(_events(s, "contract"))),
    m.TableBid: Case(before="dealer bids calls, or passes", extra="bids calls\n  low\n  high\n",
                     ran=lambda s: bool(_events(s, "bid") or _events(s, "pass"))),
    m.Add: Case(after="add 2 to marks of dealer", ran=lambda s: sum(s.counter("marks")) >= 2),
    m.Phase: Case(after='phase tally:\n  dealer scores 3 "tally"', ran=lambda s: _scored(s, "tally") == [3, 3]),
    m.Score: Case(after='dealer scores 1 "one"\ndealer loses 2 "two"',
                  ran=lambda s: _scored(s, "one") == [1, 1] and _scored(s, "two") == [-2, -2]),
    m.Let: Case(after='let x = 2\nset x = x * 3\ndealer scores x "x"', ran=lambda s: _scored(s, "x") == [6, 6]),
    m.StopLoop: Case(after='repeat at most 5 times:\n  dealer scores 1 "once"\n  stop',
                     ran=lambda s: _scored(s, "once") == [1, 1]),
    m.Repeat: Case(after='repeat at most 3 times while count(won of dealer) < 9:\n  dealer scores 1 "thrice"',
                   ran=lambda s: _scored(s, "thrice") == [1] * 6),
    m.ForEach: Case(after='for each player:\n  player scores 1 "each"',
                    ran=lambda s: sorted(e["side"] for e in _events(s, "score") if e["label"] == "each") == [0, 0, 1, 1]),
    m.ForCard: Case(before='for each card in hand of dealer:\n  dealer scores 1 "each card"',
                    ran=lambda s: len(_scored(s, "each card")) >= 2),
    m.If: Case(after='if deal_number == 1:\n  dealer scores 1 "first"\nelif deal_number == 2:\n  dealer scores 2 "first"\n'
                     'else:\n  pass',
               ran=lambda s: _scored(s, "first") == [1, 2]),
    m.Pass: Case(before="pass", ran=lambda s: s.is_terminal()),
    m.EndDeal: Case(before="end the deal", ran=lambda s: not _events(s, "trick") and len(_events(s, "deal_end")) == 2),
    m.EndMatch: Case(after="end the match", ran=lambda s: s.is_terminal() and len(_events(s, "deal_end")) == 1),
    m.Discard: Case(before="dealer discards 1 to shown",
                    ran=lambda s: any(e["verb"] == "discard" for e in _events(s, "select"))),
    m.Take: Case(before="dealer takes 1 from stock",
                 ran=lambda s: any(e["verb"] == "take" for e in _events(s, "select"))),
    m.Keep: Case(before="dealer takes all from stock and keeps 2",  # the whole stock, then the discard to 2
                 ran=lambda s: any(e["to"].startswith("hand of") for e in _events(s, "move"))
                 and [e["verb"] for e in _events(s, "select")][:1] == ["discard"]),
    m.Draw: Case(before="dealer draws 1 from stock", ran=lambda s: bool(_events(s, "draw"))),
    m.Move: Case(before="move 1 from stock to shown", ran=lambda s: bool(_events(s, "move"))),
    m.Cut: Case(before="cut stock", ran=lambda s: bool(_events(s, "cut"))),
    m.BecomesDealer: Case(before="left of dealer becomes dealer", ran=lambda s: bool(_events(s, "dealer"))),
    m.Expose: Case(before="expose hand of dealer", ran=lambda s: bool(_events(s, "exposed"))),
    m.Cancel: Case(after='dealer scores 2 "kept"\ncancel "kept" for dealer',
                   ran=lambda s: _scored(s, "kept") == [2, 2] and s.scores == [0, 0]),
    m.Choose: Case(before="dealer chooses:\n  left:\n    pass\n  right:\n    pass",
                   ran=lambda s: bool(_events(s, "choice"))),
    m.Forbid: Case(before="forbid choice right for dealer\ndealer chooses:\n  left:\n    pass\n  right:\n    pass",
                   ran=lambda s: bool(_events(s, "forbid")) and {e["choice"] for e in _events(s, "choice")} == {"left"}),
    m.Redeal: Case(before="if deal_number == 1:\n  redeal by next dealer",
                   ran=lambda s: len(_events(s, "redeal")) == 1 and len(_events(s, "deal")) == 2),
    m.Joins: Case(before="for each player:\n  if player == dealer:\n    player joins dealers\n  else:\n    player joins others",
                  after='dealers scores 1 "team"\nothers loses 2 "team"', extra="teams dealers, others\n",
                  ran=lambda s: _scored(s, "team") == [1, -2, 1, -2]),
    m.Melds: Case(before="dealer melds pairs", extra='melds pairs\n  "pair" A K in any suit = 5\n',
                  ran=lambda s: bool(_events(s, "meld"))),
    # (a hook is indented inside the tricks block: the comment keeps the lines from being dedented)
    m.EndPlay: Case(after="# the hook\n  after each trick:\n    end the play",
                    ran=lambda s: len(_events(s, "trick")) == 2 and len(_events(s, "deal_end")) == 2),
    m.NameLed: Case(after="# the hook\n  after leading any:\n    player names the suit led",
                    ran=lambda s: bool(_events(s, "suit_led"))),
    m.Shows: Case(before="dealer shows 1", ran=lambda s: bool(_events(s, "shown"))),
    m.Leads: Case(extra="irregularity lead_again during play:\n  offender leads\n", mode="table",
                  irregular="lead_again", ran=lambda s: bool(_events(s, "leads"))),
    m.ReplayTricks: Case(extra="irregularity replayed during play:\n  replay the tricks\n", mode="table",
                         irregular="replayed", ran=lambda s: bool(_events(s, "replay"))),
}


def _kinds() -> set[type[m.Stmt]]:
    found: set[type[m.Stmt]] = set()
    todo = list(m.Stmt.__subclasses__())
    while todo:
        kind = todo.pop()
        if kind not in found and kind.__module__.startswith(m.__name__):  # (not this file's Unknown)
            found.add(kind)
            todo.extend(kind.__subclasses__())
    return found


def _played(kind: type[m.Stmt]) -> bool:
    """Whether the runtime plays the kind, in some form (the support table names it): a kind the
    language knows and the runtime does not yet is refused by the checker (``unsupported-construct``)
    and never reaches the code generator."""
    return kind.__name__ in RUNTIME or any(key.startswith(kind.__name__ + ".") for key in RUNTIME)


def test_every_statement_kind_has_a_case() -> None:
    kinds = {k for k in _kinds() if _played(k)}
    assert len(kinds) >= 30  # the introspection found the language's statements
    missing = sorted(k.__name__ for k in kinds - set(CASES))
    assert not missing, f"statement kinds without a rule file in CASES: {missing}"


def _play(rules: tricklang.Ruleset, case: Case, seed: int) -> interpreter.State:
    state = interpreter.new_game(rules, seed=seed, mode=case.mode)
    rng = random.Random(seed)
    committed = False
    for _ in range(300):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        if case.irregular and not committed and state.current_trick:
            wanted = [a for a in legal if a.text.startswith(f"irregular {case.irregular} ")]
            if wanted:
                state.apply(wanted[0])
                committed = True
                continue
        regular = [a for a in legal if a.verb != "irregular"]  # the random player commits none itself
        state.apply(regular[rng.randrange(len(regular))])
    return state


@pytest.mark.parametrize("kind", sorted(CASES, key=lambda k: k.__name__), ids=lambda k: k.__name__)
def test_a_statement_kind_compiles_and_runs(kind: type[m.Stmt]) -> None:
    case = CASES[kind]
    text = case.text()
    rules = tricklang.loads(text, path=f"{kind.__name__}.trick")
    stmts = [st for st in statements(rules.rules.deal) if isinstance(st, kind)]
    for irr in rules.rules.irregularities:
        stmts += [st for st in statements(irr.body) if isinstance(st, kind)]
    assert stmts, f"the rule file holds no {kind.__name__}"
    source = generate(rules).source
    for st in stmts:  # the code generator wrote it, under its rule line
        assert re.search(rf"# (rule )?line {st.span.line}\b", source), (kind.__name__, st.span.line)
    ran = [_play(rules, case, seed) for seed in range(3)]
    assert all(s.is_terminal() for s in ran), kind.__name__
    assert any(case.ran(s) for s in ran), f"{kind.__name__}: the statement did not show it ran"
    if kind not in (m.DealCards, m.Tricks, m.Pass):  # (the statements of every case's base)
        base = tricklang.loads(Case().text(), path="base.trick")
        assert not any(case.ran(_play(base, case, seed)) for seed in range(3)), "the evidence is the statement's own"


class Unknown(m.Stmt, decision="", moves_cards=False, scores=False, ends=None):
    """A statement kind no pass knows (what a new statement is before its code generator branch)."""


@pytest.mark.parametrize("where", ["deal", "if", "remedy"])
def test_an_unknown_statement_kind_is_refused_by_the_code_generator(where: str) -> None:
    case = Case(before="if deal_number == 1:\n  pass", extra="irregularity again during play:\n  offender leads\n")
    rules = tricklang.loads(case.text(), path="unknown.trick")
    deal = rules.rules.deal
    fake = Unknown(span=deal[0].span)
    if where == "deal":
        changed = rules.rules.model_copy(update={"deal": (*deal, fake)})
    elif where == "if":
        test = next(st for st in deal if isinstance(st, m.If))
        nested = test.model_copy(update={"branches": ((test.branches[0][0], (fake,)),)})
        changed = rules.rules.model_copy(update={"deal": tuple(nested if st is test else st for st in deal)})
    else:
        irr = rules.rules.irregularities[0]
        changed = rules.rules.model_copy(update={"irregularities": (irr.model_copy(update={"body": (fake,)}),)})
    generate(rules)  # the rule file as written compiles
    with pytest.raises(TypeError, match="cannot compile Unknown"):
        generate(rules.model_copy(update={"rules": changed}))
