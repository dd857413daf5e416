"""Generated trick play (interpreter/codegen.py): it behaves exactly as the generic
instructions do, and no text of an (untrusted) rule file reaches the generated source."""

from __future__ import annotations

import ast
import random
import re
import textwrap
from typing import Any

import pytest
from helpers import SHORT
from interpreter.compiler import compile_ruleset

import interpreter
import tricklang
from interpreter import codegen
from interpreter.cli import main
from tricklang.catalog import bundled_games

GAMES = sorted(bundled_games())


def _trace(rules: tricklang.Ruleset, seed: int, max_actions: int) -> list[Any]:
    """Legal actions, actions and events of a random match, step by step."""
    state = interpreter.new_game(rules, seed=seed)
    rng = random.Random(seed)
    out: list[Any] = []
    while not state.is_terminal() and len(out) < max_actions:
        legal = state.legal_actions()
        out.append((state.current_player, state.phase, legal.texts()[:200], len(legal)))
        state.apply(state.sample_action(rng))
    out.append(state.events())
    out.append(state.to_json())
    return out


@pytest.mark.parametrize("game", GAMES)
def test_generated_trick_play_behaves_as_the_generic_instructions(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load(bundled_games()[game])
    generated = [_trace(rules, seed, 250) for seed in (1, 2)]
    assert any(getattr(ins, "legal", None) is not type(ins).legal for ins in compile_ruleset(rules).instructions
               if "legal" in vars(ins)), "trick play runs as generated code"
    assert any(type(ins).__name__ in ("Jump", "JumpUnless", "SetVar", "ForNext", "Score") and "run" in vars(ins)
               for ins in compile_ruleset(rules).instructions), "the steps between decisions run as generated blocks"
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert not any("legal" in vars(ins) or "run" in vars(ins) for ins in compile_ruleset(rules).instructions)
    generic = [_trace(rules, seed, 250) for seed in (1, 2)]
    assert generated == generic



def _table_trace(rules: tricklang.Ruleset, seed: int, max_actions: int) -> list[Any]:
    """As _trace, in table mode: the random player also commits irregularities, whose
    remedies enter the program at their own blocks."""
    state = interpreter.new_game(rules, seed=seed, mode="table")
    rng = random.Random(seed)
    out: list[Any] = []
    while not state.is_terminal() and len(out) < max_actions:
        legal = state.legal_actions()
        out.append((state.current_player, state.phase, legal.texts()[:200], len(legal)))
        state.apply(state.sample_action(rng))
    assert sum(1 for a in state.actions if a.startswith("irregular ")) > 10
    out.append(state.events())
    out.append(state.to_json())
    return out


@pytest.mark.parametrize("game", ["ecarte", "cinch"])
def test_generated_code_behaves_as_the_generic_instructions_in_table_mode(game: str,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load(game)
    generated = _table_trace(rules, 1, 200)
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert _table_trace(rules, 1, 200) == generated

def test_options_switch_obligations_off_in_the_source() -> None:
    on = codegen.generate(compile_ruleset(tricklang.load("ecarte"))).source
    off = codegen.generate(compile_ruleset(tricklang.load("ecarte", options={"must_trump_when_void": False}))).source
    line = next(i for i, text in enumerate(tricklang.load("ecarte").source.splitlines(), 1)
                if text.strip().startswith("must trump if void"))
    assert f"# rule line {line}: must trump if void" in on
    assert "must trump if void" not in off


def test_tricklang_compile_prints_the_module_with_rule_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compile", "euchre", "-o", "target=5"]) == 0
    out = capsys.readouterr().out
    ast.parse(out)  # valid Python
    line = next(i for i, text in enumerate(tricklang.load("euchre").source.splitlines(), 1)
                if text.strip().startswith("tricks "))
    assert f"# rule line {line}: trick play" in out
    assert "closure compiler" in out and "generated below" in out
    assert "line 0" not in out  # the flow's own jumps have no rule line, and say so
    assert main(["compile", "euchre", "-o", "nonsense=1"]) == 2


# ------------------------------------------------------------------ hostile rule text

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


def test_hostile_names_and_strings_never_reach_the_generated_source_as_code() -> None:
    rules = tricklang.loads(HOSTILE, path="hostile.trick")
    program = compile_ruleset(rules)
    gen = codegen.generate(program)
    tree = ast.parse(gen.source)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    names |= {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    names |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    literals = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    # Every identifier is ASCII, made by the generator, never a dunder; every literal a number
    # or None (but the module's own docstring).
    for ident in names | attrs:
        assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", ident) and not ident.startswith("__"), ident
        assert ident not in _HOSTILE_WORDS
    assert all(v is None or isinstance(v, int) for v in literals[1:]), [v for v in literals[1:] if isinstance(v, str)]
    for word in _HOSTILE_WORDS:
        if len(word) > 2:  # not even in a comment ('os' is in 'closure')
            assert word not in gen.source, word
    # The module sees no builtins but its own few, and the game plays.
    assert set(gen.run()["__builtins__"]) == set(codegen.BUILTINS)
    move = next(i for i, text in enumerate(HOSTILE.splitlines(), 1) if text.strip().startswith("move all"))
    assert "run here round by round" in gen.source and f"# rule line {move}: move cards" in gen.source
    choice = next(i for i, text in enumerate(HOSTILE.splitlines(), 1) if text.strip() == "dealer chooses:")
    assert f"# rule line {choice}: a choice of 3 options" in gen.source  # the options' names stay objects
    state = interpreter.new_game(rules, seed=3)
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply(state.sample_action(rng))
    assert state.outcome() is not None
    assert any(e["type"] == "trick" for e in state.events())


def test_a_failing_generated_deal_names_its_rule_line_and_leaves_the_state_unchanged() -> None:
    rules = tricklang.loads(SHORT, path="short.trick")
    assert any("run" in vars(ins) for ins in compile_ruleset(rules).instructions)  # dealing is generated
    state = interpreter.new_game(rules, seed=1)
    rng = random.Random(1)
    with pytest.raises(interpreter.RuleRuntimeError, match=r"^line 15: the pack ran out while dealing"):
        while not state.is_terminal():
            action = state.sample_action(rng)
            before = state.to_json()
            state.apply(action)
    assert state.to_json() == before  # the second deal needs 8 cards of 6: refused as a whole
    assert state.deal_number == 1


def test_the_events_of_a_generated_deal_stop_at_the_event_limit_as_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    from interpreter import program as program_module
    from interpreter.state.events import DEALT

    state = interpreter.new_game(tricklang.load("hearts"), seed=1)
    prog, core = state.program, state.core.copy()
    logged = len(core.events) - core.deal_events
    entries = ((DEALT, 0, (1,)), (DEALT, 1, (2,)), (DEALT, 2, (3,)))
    monkeypatch.setattr(program_module, "MAX_EVENTS_PER_DEAL", logged + 2)
    prog.emit_all(core, entries[:2])  # just fits
    assert core.events[-2:] == list(entries[:2])
    core = state.core.copy()
    with pytest.raises(interpreter.GameLimitError, match=f"^the deal logged more than {logged + 2} events"):
        prog.emit_all(core, entries)  # the third is one too many: the two before it are logged, as by emit
    assert len(core.events) - core.deal_events == logged + 2 and core.events[-1] == entries[1]


def test_moving_all_cards_is_generated_and_moves_as_the_generic_instruction(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.load("cinch")  # `move all matching trump from stock to discards of dealer`
    program = compile_ruleset(rules)
    moves = [ins for ins in program.instructions if type(ins).__name__ == "Move" and ins.mode == "all"]
    assert moves and all("run" in vars(ins) for ins in moves)
    line = next(i for i, text in enumerate(rules.source.splitlines(), 1) if "move all matching trump from stock" in text)
    assert f"# rule line {line}: move cards" in codegen.generate(program).source
    generated = [_trace(rules, seed, 300) for seed in (3, 4)]
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert [_trace(rules, seed, 300) for seed in (3, 4)] == generated


LOOPED = SHORT.replace("  deal 2 to each\n  deal deal_number to each\n",
                       "  repeat at most 9 times while count(hand of dealer) < 4 - deal_number:\n    deal 1 to each\n")


def test_a_loop_of_one_deal_runs_round_by_round_in_its_block_as_the_generic_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.loads(LOOPED, path="looped.trick")
    source = codegen.generate(compile_ruleset(rules)).source
    assert "run here round by round" in source and "_round(core, out)" in source
    generated = [_trace(rules, seed, 60) for seed in (1, 2)]
    assert sum(1 for e in generated[0][-2] if e["type"] == "dealt") >= 9  # three deals of 3, 2 and 1 rounds
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert [_trace(rules, seed, 60) for seed in (1, 2)] == generated


def test_a_loop_of_one_deal_that_runs_out_of_cards_names_the_deal_line() -> None:
    text = LOOPED.replace("< 4 - deal_number", "< 9")  # 6 cards: the fourth round finds none
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "deal 1 to each" in t)
    with pytest.raises(interpreter.RuleRuntimeError, match=rf"^line {line}: the pack ran out while dealing"):
        interpreter.new_game(tricklang.loads(text, path="short-pack.trick"), seed=1)


# ------------------------------------------------------------------ the steps between decisions

def _many_tests(count: int) -> str:
    """A deal with ``count`` tests in a row between two decisions."""
    head = SHORT.replace('game "Short"', 'game "Chain"').split("  deal 2 to each\n")[0] + (
        "  deal 3 to each\n  let x = deal_number * 100\n  let y = 0\n")
    tests = "".join(f"  if x > {i}:\n    set y = y + {i}\n" for i in range(count))
    return head + tests + "  tricks 3, left of dealer leads first\n  dealer scores y \"sum\"\n"


def test_the_steps_between_decisions_run_as_generated_blocks() -> None:
    program = compile_ruleset(tricklang.load("cinch"))
    source = codegen.generate(program).source
    attached = [pc for pc, ins in enumerate(program.instructions) if not ins.decision and "run" in vars(ins)]
    assert len(attached) > 10, attached  # jumps, tests, variables, loops and scores: blocks of generated code
    scoring = next(i for i, text in enumerate(tricklang.load("cinch").source.splitlines(), 1)
                   if '"made the bid"' in text)
    assert f"# rule line {scoring}: score" in source
    assert "generated, written in block" in source and "generated, called in block" in source
    discard = next(i for i, text in enumerate(tricklang.load("cinch").source.splitlines(), 1)
                   if "discards at least 3" in text)
    assert f"# rule line {discard}: choose cards, at least N" in source  # selections are generated too
    assert any("legal" in vars(ins) for ins in program.instructions if type(ins).__name__ == "Select")


def test_a_generated_selection_refuses_what_the_generic_one_refuses() -> None:
    state = interpreter.new_game(tricklang.load("cinch"), seed=4)
    rng = random.Random(4)
    while state.phase != "discard":
        state.apply(state.sample_action(rng))
    hand = state.hand(state.current_player)
    before = state.to_json()
    for bad in ("discard " + " ".join(hand[:2]), "discard " + " ".join([hand[0]] * 3),
                "discard " + " ".join([c for c in state.cards if c not in hand][:3])):
        with pytest.raises(interpreter.IllegalActionError):
            state.apply(bad)
    assert state.to_json() == before
    state.apply("discard " + " ".join(hand[:3]))
    assert state.events()[-1]["type"] in ("select", "draw")


def test_a_long_chain_of_tests_never_nests_calls_deeply_and_plays_as_the_generic_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.loads(_many_tests(400), path="chain.trick")
    source = codegen.generate(compile_ruleset(rules)).source
    assert source.count("return b") > 100  # blocks call the blocks they jump to...
    assert source.count("core.pc = ") > 10  # ...and a deep chain returns to advance now and then
    generated = _trace(rules, 5, 100)
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert _trace(rules, 5, 100) == generated


def test_a_number_beyond_18_digits_in_a_generated_block_names_its_line_and_leaves_the_state_unchanged() -> None:
    text = SHORT.replace("deal deal_number to each", "let big = deal_number * 999999999999999999")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "let big" in t)
    rules = tricklang.loads(text, path="big.trick")
    source = codegen.generate(compile_ruleset(rules)).source
    assert f"# rule line {line}: set a variable" in source
    assert "(core.deal_no + 1)) * (999999999999999999)" in source  # the product written out, with its check
    state = interpreter.new_game(rules, seed=1)
    rng = random.Random(1)
    with pytest.raises(interpreter.RuleRuntimeError, match=rf"^line {line}: a number grew beyond 18 digits"):
        while not state.is_terminal():
            action = state.sample_action(rng)
            before = state.to_json()
            state.apply(action)
    assert state.to_json() == before  # the second deal's variable is too large: the last play is refused
    assert state.deal_number == 1



DRAWS = textwrap.dedent("""
    tricklang 1
    game "Draws"
    players 3
    deck
      suits spades black, hearts red
      ranks A K Q J 10 9
    zone hand: per player, owner
    zone stock: shared, hidden, pack
    zone discards: per player, public
    zone won: per player, public
    match
      at most 4 deals
    deal
      deal 3 to each
      for each player:
        player discards 1..3 to discards of player
        player draws to 4 from stock, then from discards of player matching hearts
      for each player:
        player draws 1 from stock, then from discards of player
      tricks 4, left of dealer leads first
    """)


def test_drawing_is_generated_and_draws_as_the_generic_instruction(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.loads(DRAWS, path="draws.trick")
    source = codegen.generate(compile_ruleset(rules)).source
    line = next(i for i, text in enumerate(DRAWS.splitlines(), 1) if "matching hearts" in text)
    assert f"# rule line {line}: draw cards, up to a count in the hand" in source
    generated = [_trace(rules, seed, 200) for seed in range(6)]
    draws = [e for trace in generated for e in trace[-2] if e["type"] == "draw"]
    assert any(e.get("taken_back") for e in draws) and any(not e.get("taken_back") for e in draws)  # both zones
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert [_trace(rules, seed, 200) for seed in range(6)] == generated


TURNED = SHORT.replace("  deal deal_number to each\n", "  turn up deal_number to turnup\n  trump is suit of turnup\n") \
    .replace("zone won:", "zone turnup: shared, public\nzone won:")


def test_a_generated_turn_up_names_its_line_when_the_pack_runs_out_and_sets_trump_as_the_generic_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.loads(TURNED, path="turned.trick")
    source = codegen.generate(compile_ruleset(rules)).source
    line = next(i for i, t in enumerate(TURNED.splitlines(), 1) if "turn up" in t)
    assert f"# rule line {line}: turn up cards" in source and f"# rule line {line + 1}: set the trump" in source
    generated = [_trace(rules, seed, 6) for seed in (1, 2)]  # two deals
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert [_trace(rules, seed, 6) for seed in (1, 2)] == generated
    monkeypatch.undo()
    state, rng = interpreter.new_game(rules, seed=1), random.Random(1)
    with pytest.raises(interpreter.RuleRuntimeError, match=rf"^line {line}: the pack ran out when turning up"):
        while not state.is_terminal():  # the third deal turns up 3 of the 2 cards left
            action = state.sample_action(rng)
            before = state.to_json()
            state.apply(action)
    assert state.to_json() == before and state.deal_number == 2


def test_a_block_passes_a_referees_pause_outside_table_mode_and_stops_there_in_table_mode() -> None:
    rules = tricklang.load("ecarte")
    source = codegen.generate(compile_ruleset(rules)).source
    assert "passed outside table mode" in source
    assert interpreter.new_game(rules, seed=3).phase != "deal"
    table = interpreter.new_game(rules, seed=3, mode="table")
    assert table.phase == "deal" and table.legal_actions().texts()[0] == "continue"



COUNTED = SHORT.replace("  deal deal_number to each\n", "").replace(
    "tricks 2, left of dealer leads first", "tricks 2 + 2 % (2 - deal_number), left of dealer leads first")


def _until_failure(rules: tricklang.Ruleset) -> tuple[str, int, str]:
    """Play seed 1 until a rule fails; the error, the actions taken and the state before."""
    state, rng = interpreter.new_game(rules, seed=1), random.Random(1)
    with pytest.raises(interpreter.RuleRuntimeError) as failure:
        while not state.is_terminal():
            action = state.sample_action(rng)
            before = state.to_json()
            state.apply(action)
    assert state.to_json() == before  # the failing action is refused as a whole
    return str(failure.value), len(state.actions), before


def test_generated_trick_play_sets_up_its_first_trick_as_the_generic_code_and_names_its_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.loads(COUNTED, path="counted.trick")
    source = codegen.generate(compile_ruleset(rules)).source
    line = next(i for i, t in enumerate(COUNTED.splitlines(), 1) if t.strip().startswith("tricks "))
    assert f"# rule line {line}: trick play begins" in source
    generated = _until_failure(rules)  # the second deal's count is 2 % 0
    assert generated[0] == f"line {line}: '%' by zero" and generated[1] == 3  # the 4th card ends deal 1
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert _until_failure(rules) == generated


def _nested_tests(depth: int) -> str:
    """A deal with ``depth`` tests nested in one another (each one loops over a zone)."""
    head = SHORT.replace('game "Short"', 'game "Nest"').split("  deal deal_number to each\n")[0] + "  let y = 0\n"
    tests = "".join("  " * (i + 1) + "if stock has A:\n" for i in range(depth))
    return head + tests + "  " * (depth + 1) + "set y = 1\n  tricks 2, left of dealer leads first\n  dealer scores y \"y\"\n"


def test_blocks_called_from_one_place_are_written_there_shallowly_and_play_as_the_generic_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    source = codegen.generate(compile_ruleset(tricklang.load("ecarte"))).source
    assert "written here (its only caller)" in source and "d0_run, written here" in source
    rules = tricklang.loads(_nested_tests(36), path="nest.trick")
    source = codegen.generate(compile_ruleset(rules)).source
    assert source.count("written here (its only caller)") > 20
    assert max(len(line) - len(line.lstrip()) for line in source.splitlines()) <= 40  # never 36 levels deep
    generated = [_trace(rules, seed, 100) for seed in (1, 2)]
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert [_trace(rules, seed, 100) for seed in (1, 2)] == generated


def test_beating_the_strongest_card_of_a_trick_of_four_plays_as_the_generic_code(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # With more than two seats the card to beat is the strongest on the table, found by a
    # per-(trump, suit led) getter handed to the module (no dunder attribute in the source);
    # with two seats it is the card led.
    text = re.sub(r"^( *)must follow suit.*$", r"\g<0>\n\1must beat if able",
                  bundled_games()["whist"].read_text(encoding="utf-8"), count=1, flags=re.M)
    assert "must beat if able" in text
    rules = tricklang.loads(text, path="whist-beat.trick")
    source = codegen.generate(compile_ruleset(rules)).source
    assert "POWERKEY" in source
    generated = [_trace(rules, seed, 120) for seed in (1, 2, 3)]
    for seed in (1, 2, 3):  # the playout run plays what the step plays
        a, b = interpreter.new_game(rules, seed=seed), interpreter.new_game(rules, seed=seed)
        ra, rb = random.Random(seed), random.Random(seed)
        a.playout(ra, deal=True)
        while b.deal_number == 1 and not b.is_terminal():
            b.apply(b.sample_action(rb))
        assert a.to_json() == b.to_json() and a.events(None) == b.events(None)
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert generated == [_trace(rules, seed, 120) for seed in (1, 2, 3)]
    assert ".__" not in source


CONTRACT = SHORT.replace("  deal 2 to each\n", "  set maker = dealer  [L1]\n  set bid = 3\n  deal 2 to each\n")


def test_setting_the_maker_and_the_bid_logs_the_same_events_generated_or_not(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = tricklang.loads(CONTRACT)
    state = interpreter.new_game(rules, seed=5)
    contract = [e for e in state.events() if e["type"] in ("maker", "contract_bid")]
    assert contract == [{"type": "maker", "maker": state.dealer, "laws": ["L1"]}, {"type": "contract_bid", "bid": 3}]
    generated = [_trace(rules, seed, 3) for seed in (1, 2)]  # the first deal (the second runs out of cards)
    monkeypatch.setattr(codegen, "ENABLED", False)
    assert [_trace(rules, seed, 3) for seed in (1, 2)] == generated
