"""The code generator (interpreter/codegen/): the module it writes plays every rule file as
the old runtime did (recorded traces, tests/reference_traces.py), plays by the rules as
worked out here by hand (the legal plays of a trick from its obligations, scripted
counts), names the rule line of what fails, and holds no text of an (untrusted) rule file."""

from __future__ import annotations

import ast
import json
import random
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from reference_traces import CONTRACT, COUNTED, DRAWS, LOOPED, SHORT, TURNED, cases, many_tests, nested_tests, record

import interpreter
import tricklang
from interpreter.cli import main
from interpreter.codegen import generate
from tricklang import model as m
from tricklang.walk import fold, statements

REFERENCE = Path(__file__).resolve().parent / "reference_traces.json"
RECORDED: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
CASES = cases()


def _core(state: interpreter.State) -> dict[str, Any]:
    """Every field of a state's core (the generated module's flat data)."""
    c = state._c
    return {name: (list(v) if isinstance(v := getattr(c, name), list) else v) for name in type(c).__slots__}


def _play(state: interpreter.State, rng: random.Random, limit: int = 10_000) -> interpreter.State:
    while not state.is_terminal() and state.action_count < limit:
        state.apply(state.sample_action(rng))
    return state


# ------------------------------------------------------------------ the old runtime's recorded traces


def test_every_case_was_recorded() -> None:
    assert sorted(RECORDED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_match_plays_as_the_old_runtime_played_it(name: str) -> None:
    """Legal actions at every step, the actions drawn, the events and the omniscient view
    of random matches (table mode too: irregularities and their remedies) are those the
    old runtime gave (tests/make_reference_traces.py recorded them with it)."""
    case, recorded = CASES[name], RECORDED[name]
    assert case.rules().digest == recorded["rules"], (
        f"the rule text of case {name!r} changed since it was recorded: record it again with the old runtime "
        "(tests/make_reference_traces.py says how)")
    assert record(case)["traces"] == recorded["traces"]


# ------------------------------------------------------------------ legal plays worked out by hand


def _pattern(p: m.Pattern, card: str) -> bool:
    """Whether a card (a code such as '10H') matches a pattern of plain suits and cards."""
    suits = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
    if isinstance(p, m.PatWord):
        assert p.word in suits, p.word
        return card[-1] == suits[p.word]
    if isinstance(p, m.PatCard):
        assert p.suit.name in suits and not p.suit.same_colour, p
        return card == p.rank + suits[p.suit.name]
    if isinstance(p, m.PatOr):
        return any(_pattern(o, card) for o in p.options)
    raise AssertionError(f"not a pattern this oracle reads: {p}")


def _obligations(state: interpreter.State) -> list[m.Obligation]:
    """The obligations of the trick play in progress whose guards hold (constant guards only)."""
    rules = state.ruleset
    line = state.game.dps[state._c.dp].line
    tricks = next(st for st in statements(rules.rules.deal) if isinstance(st, m.Tricks) and st.span.line == line)
    out = []
    for ob in tricks.obligations:
        holds = True if ob.guard is None else fold(ob.guard, rules.options)
        assert holds in (True, False), f"line {ob.span.line}: this oracle reads constant guards only"
        if holds:
            out.append(ob)
    return out


def _broken(state: interpreter.State, pattern: m.Pattern) -> bool:
    """Whether a trick taken this deal held a card of the pattern."""
    events = state.events(None)
    start = max(i for i, e in enumerate(events) if e["type"] == "deal")
    return any(e["type"] == "trick" and any(_pattern(pattern, c) for c in e["cards"]) for e in events[start:])


def legal_plays(state: interpreter.State) -> list[str]:
    """The cards the seat to play may play, from its hand and the obligations of the rule
    file, each applied in order and only if able (README, "trick play")."""
    seat = state.current_player
    assert seat is not None
    hand = state.hand(seat)
    trick = [card for _, card in state.current_trick]
    obligations = _obligations(state)
    allowed = list(hand)

    def narrow(to: list[str]) -> bool:
        nonlocal allowed
        if to and len(to) < len(allowed):
            allowed = to
            return True
        return False

    trump = state.trump
    if not trick:
        for ob in obligations:
            if ob.kind == "lead_until_broken" and ob.pattern is not None and not _broken(state, ob.pattern):
                narrow([c for c in allowed if not _pattern(ob.pattern, c)])
        if state.trick_number == 1:
            for ob in obligations:
                if ob.kind == "lead_first" and ob.pattern is not None:
                    narrow([c for c in allowed if _pattern(ob.pattern, c)])
                elif ob.kind == "not_first_trick" and ob.pattern is not None:
                    narrow([c for c in allowed if not _pattern(ob.pattern, c)])
        return allowed
    led = state.effective_suit(trick[0])
    follow = [c for c in hand if state.effective_suit(c) == led]
    may_trump = any(ob.kind == "may_trump" for ob in obligations) and trump is not None and led != trump
    trumped = False
    for ob in obligations:
        if ob.kind == "follow_suit" and follow:
            narrow([c for c in allowed if state.effective_suit(c) == led or may_trump and state.effective_suit(c) == trump])
        elif ob.kind == "trump_if_void" and not follow and trump is not None:
            trumped = narrow([c for c in allowed if state.effective_suit(c) == trump])
        elif ob.kind == "not_first_trick" and state.trick_number == 1 and ob.pattern is not None:
            narrow([c for c in allowed if not _pattern(ob.pattern, c)])
        elif ob.kind == "beat_if_able" and (follow or trumped):
            best = max(state.trick_power(c) for c in trick)
            narrow([c for c in allowed if state.trick_power(c) > best])
    return allowed


ORACLE_GAMES = [("ecarte", None), ("ecarte", {"must_trump_when_void": False}), ("euchre", None), ("whist", None),
                ("oh-hell", None), ("cinch", None), ("auction-pitch", None), ("spades", None),
                ("spades", {"first_lead": "two_of_clubs"}), ("whist-beating", None)]


@pytest.mark.parametrize(("game", "options"), ORACLE_GAMES, ids=[f"{g}-{o}" if o else g for g, o in ORACLE_GAMES])
def test_the_legal_plays_are_those_the_obligations_allow(game: str, options: dict[str, Any] | None) -> None:
    """At every card to play in random matches, the plays listed (and drawn) are the cards
    the obligations allow, worked out by hand from the hand, the trick and the rule file."""
    rules = CASES[game].rules() if game in CASES and CASES[game].text else tricklang.load(game, options=options)
    checked = narrowed = 0
    for seed in range(4):
        state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
        while not state.is_terminal() and state.action_count < 400:
            if state.phase == "play":
                expected = legal_plays(state)
                listed = [a.args[0] for a in state.legal_actions() if a.verb == "play"]
                assert listed == expected, (seed, state.action_count, state.hand(state.current_player or 0))
                checked += 1
                narrowed += len(expected) < len(state.hand(state.current_player or 0))
            state.apply(state.sample_action(rng))
    assert checked > 100 and narrowed > 10  # the obligations were put to work


@pytest.mark.parametrize("obligation", ["must follow suit", "must trump if void", "must beat if able",
                                        "may not play hearts on the first trick"])
def test_an_obligations_guard_is_tested_for_every_card_that_follows(obligation: str) -> None:
    """A guard decides whether its obligation holds at all: it is worked out for every card
    that follows to a trick, whether or not the obligation could narrow the cards. Here it
    fails (1 % 0) once a trick has been taken: at the first card that follows to the
    second trick, in every deal. (The old runtime did so; the code generator first tested
    the guard only for a player able to follow, to trump, or on the first trick.)"""
    text = SHORT.replace("  deal 2 to each\n  deal deal_number to each\n", "  deal 3 to each\n  trump is hearts\n").replace(
        "tricks 2, left of dealer leads first",
        f"tricks 3, left of dealer leads first\n    {obligation} when 1 % (tricks(dealer) + tricks(left of dealer) - 1) == 0")
    rules = tricklang.loads(text, path="guard.trick")
    line = text.splitlines().index(f"    {obligation} when 1 % (tricks(dealer) + tricks(left of dealer) - 1) == 0") + 1
    for seed in range(8):
        state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
        while not (state.trick_number == 2 and state.current_trick):
            state.apply(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
        before = _core(state)
        with pytest.raises(interpreter.RuleRuntimeError, match=rf"^line {line}: '%' by zero"):
            state.legal_actions()
        with pytest.raises(interpreter.RuleRuntimeError, match=rf"^line {line}: '%' by zero"):
            state.sample_action(rng)
        assert _core(state) == before and state.action_count == 3
        played, rng2 = interpreter.new_game(rules, seed=seed), random.Random(seed)
        with pytest.raises(interpreter.RuleRuntimeError, match=rf"^line {line}: '%' by zero"):
            played.playout(rng2)
        assert played.action_count == 3 and played.trick_number == 2 and played.current_trick


def test_options_that_switch_obligations_off_leave_them_out_of_the_source() -> None:
    on = generate(tricklang.load("ecarte")).source
    off = generate(tricklang.load("ecarte", options={"must_trump_when_void": False})).source
    line = next(i for i, text in enumerate(tricklang.load("ecarte").source.splitlines(), 1)
                if text.strip().startswith("must trump if void"))
    assert line > 0
    trump_if_void = "m = allowed & TRUMPS[ti]"  # the narrowing to trumps of a player who cannot follow
    assert trump_if_void in on and trump_if_void not in off
    assert "if not follow and c.trump >= 0:" in on and "if not follow and c.trump >= 0" not in off
    assert "why |= 2" in on and "why |= 2" not in off  # (the reason told: 'must trump if void')
    state = interpreter.new_game(tricklang.load("ecarte", options={"must_trump_when_void": False}), seed=1)
    assert "must_trump_when_void" not in state.game.generated.source


# ------------------------------------------------------------------ tricklang compile: no rule text


def test_tricklang_compile_prints_the_module_with_rule_lines_and_no_rule_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "euchre", "-o", "target=5"]) == 0
    out = capsys.readouterr().out
    ast.parse(out)  # valid Python
    source = tricklang.load("euchre").source
    lines = source.splitlines()
    line = next(i for i, text in enumerate(lines, 1) if text.strip().startswith("tricks "))
    assert f"# rule line {line}: trick play" in out
    named = [int(n) for n in re.findall(r"# (?:rule )?line (\d+)", out)]
    assert len(named) > 20 and all(1 <= n <= len(lines) and lines[n - 1].strip() for n in named)
    assert "line 0" not in out  # the flow's own blocks have no rule line, and say so
    assert main(["compile", "euchre", "-o", "nonsense=1"]) == 2
    assert "nonsense" in capsys.readouterr().err


def test_the_generated_source_does_not_depend_on_the_rule_files_words() -> None:
    """The game's name, its source, option names and docs, score labels and laws changed:
    the same module, word for word (the Game holds the words, the module their ids)."""
    source = tricklang.load("euchre").source
    strings = iter(range(10**6))
    other = re.sub(r'"[^"\n]*"', lambda _: f'"s{next(strings)}"', source)
    other = re.sub(r"\bU(\d+)\b", r"Q\1", other)
    for k, option in enumerate(tricklang.load("euchre").options):
        other = re.sub(rf"\b{option}\b", f"opt{k}", other)
    assert tricklang.loads(other, path="euchre.trick").name != "Euchre"
    assert generate(tricklang.loads(other, path="euchre.trick")).source == generate(tricklang.load("euchre")).source


LONG = "x" * 63 + "ǅ"
HOSTILE = textwrap.dedent(f"""
    tricklang 1
    game "'); __import__('os').system('echo pwned'); ('"
    players 2
    deck
      suits __import__ black, ｅｘｅｃ red
      ranks A K Q
    option __builtins__: int = 2 in 1..9 "\\\\'; import os #"
    option __class__: choice(__import__, ｅｖａｌ, os) = ｅｖａｌ "') or exec('1"
    option {LONG}: bool = true "x"
    zone hand: per player, owner
    zone __globals__: shared, hidden, pack
    zone won: per player, public
    zone ｓｙｓ: shared, public
    match
      game to __builtins__, after the deal
      at most 20 deals
    deal
      phase __subclasses__:
        repeat at most 9 times while count(hand of dealer) < __builtins__:
          deal 1 to each
        trump is ｅｘｅｃ
        dealer chooses:
          __import__:
            pass
          ｅｘｅｃ:
            pass
          __class__:
            pass
        tricks 2, left of dealer leads first
          must follow suit when __class__ == ｅｖａｌ
          must trump if void when {LONG}
          may not lead __import__ until broken when __class__ != os
          declare __import__ holding K of trump, before own first card when {LONG}:
            declarer scores 1 "'''); import os; #\\"
        move all matching __import__ from won of dealer to ｓｙｓ
        for each player:
          player scores tricks(player) "exec(compile('import os','','exec'))"
        let __dict__ = 0
        if __dict__ == 0 and count(__globals__) >= 0 and not __class__ == os:
          set __dict__ = tricks(left of dealer)
          dealer scores __dict__ "__dict__"
    """)

_HOSTILE_WORDS = ("__import__", "ｅｘｅｃ", "exec", "__builtins__", "__class__", "ｅｖａｌ", "eval", "__globals__", "__dict__",
                  "ｓｙｓ", "__subclasses__", "os", "pwned", LONG)


def _strings(source: str) -> set[str]:
    """The string literals of a module (its docstring too)."""
    return {n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def test_hostile_names_and_strings_never_reach_the_generated_source() -> None:
    rules = tricklang.loads(HOSTILE, path="hostile.trick")
    source = generate(rules).source
    tree = ast.parse(source)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    names |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    # Every identifier is ASCII and made by the generator: its dunders are those of any module.
    plain_tree = ast.parse(generate(tricklang.loads(SHORT, path="short.trick")).source)
    plain_dunders = {n.attr for n in ast.walk(plain_tree) if isinstance(n, ast.Attribute)} | {
        n.id for n in ast.walk(plain_tree) if isinstance(n, ast.Name)} | {
        n.name for n in ast.walk(plain_tree) if isinstance(n, ast.FunctionDef)}
    for ident in names | attrs:
        assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", ident), ident
        assert ident not in _HOSTILE_WORDS and (not ident.startswith("__") or ident in plain_dunders), ident
    # Every string literal is one the generator writes for any rule file (its docstrings,
    # messages of its own), none from this one.
    plain = _strings(generate(tricklang.loads(SHORT, path="short.trick")).source)
    assert _strings(source) <= plain, _strings(source) - plain
    for word in _HOSTILE_WORDS:
        if len(word) > 2:  # not even in a comment ('os' is in many words)
            assert word not in source, word
    move = next(i for i, text in enumerate(HOSTILE.splitlines(), 1) if text.strip().startswith("move all"))
    choice = next(i for i, text in enumerate(HOSTILE.splitlines(), 1) if text.strip() == "dealer chooses:")
    assert f"# line {move}" in source and f"# rule line {choice}: a choice" in source
    state = interpreter.new_game(rules, seed=3)
    _play(state, random.Random(3))
    assert state.outcome() is not None
    assert any(e["type"] == "trick" for e in state.events())
    assert {e["choice"] for e in state.events() if e["type"] == "choice"} <= {"__import__", "ｅｘｅｃ", "__class__"}


# ------------------------------------------------------------------ failures name their rule line


def _until_failure(rules: tricklang.Ruleset, seed: int = 1) -> tuple[str, interpreter.State]:
    """Play until a rule fails: the error, and the state (checked to be as before the failing action)."""
    state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
    with pytest.raises((interpreter.RuleRuntimeError, interpreter.GameLimitError)) as failure:
        while not state.is_terminal():
            action = state.sample_action(rng)
            before, core = state.to_json(), _core(state)
            state.apply(action)
    assert state.to_json() == before and _core(state) == core  # the failing action is refused as a whole
    return str(failure.value), state


def test_a_failing_deal_names_its_rule_line_and_leaves_the_state_unchanged() -> None:
    message, state = _until_failure(tricklang.loads(SHORT, path="short.trick"))
    assert message == "line 15: the pack ran out while dealing"  # the second deal needs 8 cards of 6
    assert state.deal_number == 1 and state.action_count == 3


def test_a_number_beyond_18_digits_names_its_line_and_leaves_the_state_unchanged() -> None:
    text = SHORT.replace("deal deal_number to each", "let big = deal_number * 999999999999999999")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "let big" in t)
    rules = tricklang.loads(text, path="big.trick")
    assert f"# line {line}" in generate(rules).source
    message, state = _until_failure(rules)
    assert message == f"line {line}: a number grew beyond 18 digits"
    assert state.deal_number == 1  # the second deal's variable is too large: the last play is refused


def test_percent_by_zero_in_a_trick_count_names_its_line() -> None:
    rules = tricklang.loads(COUNTED, path="counted.trick")
    line = next(i for i, t in enumerate(COUNTED.splitlines(), 1) if t.strip().startswith("tricks "))
    assert f"# rule line {line}: trick play" in generate(rules).source
    message, state = _until_failure(rules)  # the second deal's count is 2 % 0
    assert message == f"line {line}: '%' by zero"
    assert state.action_count == 3 and state.deal_number == 1  # the 4th card ends deal 1, and is refused


def test_a_loop_of_one_deal_that_runs_out_of_cards_names_the_deal_line() -> None:
    text = LOOPED.replace("< 4 - deal_number", "< 9")  # 6 cards: the fourth round finds none
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "deal 1 to each" in t)
    with pytest.raises(interpreter.RuleRuntimeError, match=rf"^line {line}: the pack ran out while dealing"):
        interpreter.new_game(tricklang.loads(text, path="short-pack.trick"), seed=1)


def test_turning_up_names_its_line_when_the_pack_runs_out_and_takes_the_trump_from_the_top_card() -> None:
    rules = tricklang.loads(TURNED, path="turned.trick")
    line = next(i for i, t in enumerate(TURNED.splitlines(), 1) if "turn up" in t)
    source = generate(rules).source
    assert f"# line {line}" in source and f"# line {line + 1}" in source
    for seed in (1, 2):
        state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
        for deal in (1, 2):
            turned = state.zone("turnup")
            assert len(turned) == deal and state.trump == {"S": "spades", "H": "hearts"}[turned[-1][-1]]
            events = [e for e in state.events() if e["type"] == "turn_up"]
            assert events[-1]["cards"] == turned
            while state.deal_number == deal:
                before, core = state.to_json(), _core(state)
                try:
                    state.apply(state.sample_action(rng))
                except interpreter.RuleRuntimeError as err:  # the third deal turns up 3 of the 2 cards left
                    assert deal == 2 and str(err) == f"line {line}: the pack ran out when turning up"
                    assert state.to_json() == before and _core(state) == core
                    break
        assert state.deal_number == 2


# ------------------------------------------------------------------ statements worked out by hand


def test_a_loop_of_one_deal_deals_round_by_round() -> None:
    """`repeat ... while count(hand of dealer) < 4 - deal_number: deal 1 to each`: three
    rounds in the first deal, two in the second, one in the third."""
    rules = tricklang.loads(LOOPED, path="looped.trick")
    for seed in (1, 2):
        state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
        for deal, rounds in ((1, 3), (2, 2), (3, 1)):
            assert state.deal_number == deal and [len(state.hand(p)) for p in (0, 1)] == [rounds, rounds]
            events = state.events()
            start = max(i for i, e in enumerate(events) if e["type"] == "deal")
            dealt = [e for e in events[start:] if e["type"] == "dealt"]
            assert [len(e["cards"]) for e in dealt] == [1] * 2 * rounds
            first = (state.dealer + 1) % 2
            assert [e["player"] for e in dealt] == [first, 1 - first] * rounds
            while not state.is_terminal() and state.deal_number == deal:
                state.apply(state.sample_action(rng))
        assert state.is_terminal()


def test_moving_all_matching_cards_moves_exactly_those() -> None:
    """Cinch's `move all matching trump from stock to discards of dealer` (every time, with
    `show_left_trumps`), after the dealer's rob: the trumps the stock holds go to the
    dealer's discards, and only they; none stay."""
    rules = tricklang.load("cinch", options={"show_left_trumps": True})
    moved = 0
    for seed in range(4):
        state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
        while not state.is_terminal() and state.action_count < 300:
            n = state.event_count
            stock, discards = set(state.zone("stock")), set(state.zone("discards", state.dealer))
            state.apply(state.sample_action(rng))
            events = state.events(None, start=n)
            for e in events:
                if e["type"] == "move" and e["from"] == "stock":
                    returned = {c for s in events if s["type"] == "select" for c in s["cards"]}
                    assert all(state.is_trump(c) for c in e["cards"]) and set(e["cards"]) <= stock | returned
                    assert not any(state.is_trump(c) for c in state.zone("stock"))
                    assert set(state.zone("discards", state.dealer)) == discards | set(e["cards"])
                    moved += 1
    assert moved >= 4


def _draw(stock: list[str], discards: list[str], need: int, hearts: bool) -> tuple[list[str], int, set[str]]:
    """A draw worked out by hand: the cards off the top of the stock (top last), then how
    many from the top of one's discards (those that may be taken back)."""
    drawn = []
    while need > 0 and stock:
        drawn.append(stock.pop())
        need -= 1
    candidates = {c for c in discards if c.endswith("H") or not hearts}
    return drawn, min(need, len(candidates)), candidates


def test_drawing_to_a_count_then_from_ones_own_discards() -> None:
    """Each player discards, then `draws to 4 from stock, then from discards of player
    matching hearts`; after the last discard, each `draws 1 from stock, then from discards
    of player`: the draws logged are those worked out by hand from the stock's order."""
    rules = tricklang.loads(DRAWS, path="draws.trick")
    taken_back = 0
    for seed in range(6):
        state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
        while not state.is_terminal() and state.action_count < 200:
            n, dealer = state.event_count, state.dealer
            stock = state.zone("stock")
            discards = {p: state.zone("discards", p) for p in range(3)}
            hands = {p: len(state.hand(p)) for p in range(3)}
            state.apply(state.sample_action(rng))
            events = state.events(None, start=n)
            select = [e for e in events if e["type"] == "select"]
            if not select:
                assert not any(e["type"] == "draw" for e in events)
                continue
            p = select[0]["player"]
            discards[p] += select[0]["cards"]
            hands[p] -= len(select[0]["cards"])
            plan = [(p, 4 - hands[p], True)]
            if p == dealer:  # the last to discard: then each draws one, from the dealer's left
                plan += [((dealer + k) % 3, 1, False) for k in (1, 2, 3)]
            draws = [e for e in events if e["type"] == "draw"]
            for who, need, hearts in plan:
                drawn, back, candidates = _draw(stock, discards[who], need, hearts)
                if not drawn and not back:
                    continue  # nothing to draw: nothing logged
                e = draws.pop(0)
                assert (e["player"], e["cards"], len(e.get("taken_back", []))) == (who, drawn, back)
                assert set(e.get("taken_back", [])) <= candidates
                for card in e.get("taken_back", []):
                    discards[who].remove(card)
                taken_back += back
            assert not draws
    assert taken_back > 5  # the fallback was used


def test_a_long_chain_of_tests_plays() -> None:
    rules = tricklang.loads(many_tests(400), path="chain.trick")
    state = _play(interpreter.new_game(rules, seed=5), random.Random(5))
    sums = [e["points"] for e in state.events() if e["type"] == "score" and e["label"] == "sum"]
    assert sums == [sum(range(100)), sum(range(200)), sum(range(300))]  # y: the i < 400 below 100 * deal_number


def test_tests_nested_deeply_play() -> None:
    """36 tests nested (`if stock has A:`, then `set y = 1`), then `dealer scores y`: the
    dealer scores 1 in each deal that leaves an ace in the stock."""
    rules = tricklang.loads(nested_tests(36), path="nest.trick")
    aces = 0
    for seed in range(4):
        state, rng = interpreter.new_game(rules, seed=seed), random.Random(seed)
        while not state.is_terminal():
            deal, dealer, n = state.deal_number, state.dealer, state.event_count
            ace = any(c.startswith("A") for c in state.zone("stock"))
            while state.deal_number == deal and not state.is_terminal():
                state.apply(state.sample_action(rng))
            scored = [(e["side"], e["points"]) for e in state.events(None, start=n)
                      if e["type"] == "score" and e["label"] == "y"]
            assert scored == ([(dealer, 1)] if ace else [])
            aces += ace
    assert 0 < aces < 12


LOOP_NESTS = {
    "repeat": ("repeat at most 1 times:",),
    "repeat-while": ("repeat at most 1 times while y < 1:",),
    "mixed": ("if deal_number > 0:", "repeat at most 1 times:", "if stock has A or not stock has A:"),
}


@pytest.mark.parametrize("nest", sorted(LOOP_NESTS))
@pytest.mark.parametrize("depth", [7, 8, 9, 21, 39])
def test_loops_nested_as_deeply_as_the_language_allows_compile_and_play(nest: str, depth: int) -> None:
    """CPython compiles at most 20 loops nested in one function: the module writes deeper
    nests of loops as blocks (21 nested `repeat` were a SyntaxError from new_game). The
    innermost statement runs once a deal: the dealer scores 1."""
    heads = LOOP_NESTS[nest]
    text = SHORT.split("  deal deal_number to each\n")[0] + "  let y = 0\n" + "".join(
        "  " * (k + 1) + heads[k % len(heads)] + "\n" for k in range(depth)) + "  " * (depth + 1) + (
        "set y = y + 1\n  tricks 2, left of dealer leads first\n  dealer scores y \"y\"\n")
    rules = tricklang.loads(text, path="nested.trick")
    compile(generate(rules).source, "<nested>", "exec")
    state = _play(interpreter.new_game(rules, seed=1), random.Random(1))
    scored = [(e["side"], e["points"]) for e in state.events() if e["type"] == "score"]
    dealers = [e["dealer"] for e in state.events() if e["type"] == "deal"]
    assert scored == [(dealer, 1) for dealer in dealers] and len(dealers) == 3


def test_a_selection_refuses_what_the_rules_refuse() -> None:
    state = interpreter.new_game(tricklang.load("cinch"), seed=4)
    rng = random.Random(4)
    while state.phase != "discard":
        state.apply(state.sample_action(rng))
    hand = state.hand(state.current_player or 0)
    before, core = state.to_json(), _core(state)
    for bad in ("discard " + " ".join(hand[:2]), "discard " + " ".join([hand[0]] * 3),
                "discard " + " ".join([c for c in state.cards if c not in hand][:3])):
        with pytest.raises(interpreter.IllegalActionError):
            state.apply(bad)
    assert state.to_json() == before and _core(state) == core
    state.apply("discard " + " ".join(hand[:3]))
    assert state.events()[-1]["type"] in ("select", "draw")


def test_a_block_passes_a_referees_pause_outside_table_mode_and_stops_there_in_table_mode() -> None:
    rules = tricklang.load("ecarte")
    assert interpreter.new_game(rules, seed=3).phase != "deal"
    table = interpreter.new_game(rules, seed=3, mode="table")
    assert table.phase == "deal" and table.legal_actions().texts()[0] == "continue"


def test_setting_the_maker_and_the_bid_logs_their_events() -> None:
    rules = tricklang.loads(CONTRACT)
    state = interpreter.new_game(rules, seed=5)
    contract = [e for e in state.events() if e["type"] in ("maker", "contract_bid")]
    assert contract == [{"type": "maker", "maker": state.dealer, "laws": ["L1"]}, {"type": "contract_bid", "bid": 3}]
    assert state.maker == state.dealer and state.bid == 3


def test_the_steps_between_decisions_are_blocks_named_by_their_rule_lines() -> None:
    rules = tricklang.load("cinch")
    source = generate(rules).source
    lines = rules.source.splitlines()
    scoring = next(i for i, text in enumerate(lines, 1) if '"made the bid"' in text)
    discard = next(i for i, text in enumerate(lines, 1) if "discards at least 3" in text)
    assert f"# line {scoring}" in source
    assert f"# rule line {discard}: choosing cards (discard)" in source
    assert len(re.findall(r"^def b\d+\(c: Core\)", source, flags=re.M)) > 20


def test_beating_the_strongest_card_of_a_trick_of_four_plays_out_as_the_step_does() -> None:
    rules = CASES["whist-beating"].rules()
    for seed in (1, 2, 3):  # the playout plays what the step plays
        a, b = interpreter.new_game(rules, seed=seed), interpreter.new_game(rules, seed=seed)
        ra, rb = random.Random(seed), random.Random(seed)
        a.playout(ra, deal=True)
        while b.deal_number == 1 and not b.is_terminal():
            b.apply(b.sample_action(rb))
        assert a.to_json() == b.to_json() and a.events(None) == b.events(None) and _core(a) == _core(b)


def test_natively_every_function_the_runtime_reads_by_name_stays_a_python_function() -> None:
    """A native build makes only the functions of ``PUBLIC`` Python functions (the others
    are C functions, or reached through the module's tables): every name of a module
    function quoted outside the generator (the state, the players, the embeddings, the
    benchmarks) must be one of them, and each function gets the decorator it should."""
    from interpreter.codegen.module import PUBLIC

    root = Path(__file__).resolve().parents[2]
    functions: dict[str, set[str]] = {}
    for path in sorted((root / "rules").glob("*.trick")) + sorted((root / "examples").glob("*.trick")):
        for node in ast.parse(generate(tricklang.load(str(path))).source).body:
            if isinstance(node, ast.FunctionDef):
                functions.setdefault(node.name, set()).update(ast.unparse(d) for d in node.decorator_list)
    quoted: set[str] = set()
    for folder in ("interpreter", "benchmarks"):
        for path in (root / folder).rglob("*.py"):
            if "codegen" not in path.parts:
                quoted |= {n.value for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                           if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in functions}
    speedups = {"_bits", "_pc", "_randbelow"}  # (CPython's stand-ins: interpreter.runtime.speedups)
    assert quoted - speedups <= PUBLIC, sorted(quoted - speedups - PUBLIC)
    assert {"advance", "playout", "random_matches", "zone_masks"} <= quoted
    assert all(functions[name] == {"cython.ccall"} for name in PUBLIC if name in functions)
    assert functions["b0"] == {"cython.cfunc"} and functions["apply_0"] == {"cython.cfunc"}
