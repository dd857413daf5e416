"""The harness's entry points: one checked match (:func:`check_invariants`), a fixed
action list re-checked (:func:`replay`), and the hypothesis driver
(:func:`invariant_test`) that draws the seed, the options, the mode and every choice,
so that a failure shrinks to a short action sequence."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tricklang
from tricklang import Ruleset

from .report import Report
from .run import Choices, Run

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy


def _as_ruleset(rules: Ruleset | str | Path) -> Ruleset:
    """A Ruleset as given, rule text (a string with a newline) parsed, or a file loaded."""
    if isinstance(rules, Ruleset):
        return rules
    if isinstance(rules, str) and "\n" in rules:
        return tricklang.loads(rules)
    return tricklang.load(rules)


def check_invariants(
    ruleset: Ruleset | str | Path,
    *,
    seed: int = 0,
    choices: Choices = None,
    max_actions: int = 200,
    options: Mapping[str, Any] | None = None,
    mode: str = "strict",
    dealer: int | None = None,
    deck: Sequence[str] | None = None,
    finish: bool = False,
    finish_limit: int = 2_000_000,
    json_every: int = 50,
    apply_limit: int = 48,
    stop_on_first: bool = True,
    skip: Collection[str] = (),
    skip_probes: Collection[str] = (),
    selections: str = "all",
    chance: str = "automatic",
) -> Report:
    """Play one match of any rule file and check the invariants at every step.

    Args:
        ruleset: a loaded :class:`~tricklang.Ruleset`, or a path to load.
        seed: the game's seed (shuffles, first dealer) and the harness's own probes.
        choices: who decides: None (seeded random), a callable ``state -> Action | str |
            int`` (an int indexes the legal actions), a hypothesis ``st.data()`` object
            (each step draws an index, so that failures shrink), or a list of action
            texts or indices (the run stops when it is used up).
        max_actions: steps checked in full. With ``finish`` the match then goes on to
            its end with the cheap checks only (cards, hands, scores, terminal, deal and
            action bounds), so that "every match ends within the derived bound" is checked.
        json_every: how often (in steps) the JSON round trip is checked (it parses the rule
            file again and replays the whole match, ~0.1 s); the last fully checked step
            (or the end of the match, if sooner) is always checked.
        apply_limit: how many legal actions (evenly spread, the chosen one included) are
            applied on clones at each step.
        stop_on_first: stop at the first violation (the report then holds the shortest
            failing prefix of this run).
        skip: violation codes to ignore (for known, separately tracked bugs).
        skip_probes: kinds of illegal action not to try (see :data:`PROBES`).
        selections: 'all' or 'one_card' (each card of a selection a step, irregularities
            offered between them in table mode; see :mod:`interpreter.state.modes`).
        chance: 'automatic' (seeded shuffles) or 'explicit': every chance node's outcomes
            are checked, an impossible outcome and an action id must be refused there with
            the state unchanged, and one outcome is drawn from a generator of ``seed`` of
            its own (so that :func:`replay` of the same actions meets the same outcomes).
    """
    rules = _as_ruleset(ruleset)
    run = Run(rules, seed=seed, options=options, mode=mode, dealer=dealer, deck=deck, choices=choices,
               max_actions=max_actions, finish=finish, finish_limit=finish_limit, json_every=json_every,
               apply_limit=apply_limit, stop_on_first=stop_on_first, skip=skip, skip_probes=skip_probes,
               selections=selections, chance=chance)
    return run.run()


def replay(
    ruleset: Ruleset | str | Path,
    actions: Sequence[str],
    *,
    seed: int,
    options: Mapping[str, Any] | None = None,
    mode: str = "strict",
    dealer: int | None = None,
    deck: Sequence[str] | None = None,
    **kwargs: Any,
) -> Report:
    """Re-check a fixed action list deterministically (e.g. from a failure report)."""
    kwargs.setdefault("max_actions", len(actions) + 1)
    return check_invariants(ruleset, seed=seed, choices=list(actions), options=options, mode=mode,
                            dealer=dealer, deck=deck, **kwargs)


# ---------------------------------------------------------------- hypothesis


def options_strategy(ruleset: Ruleset) -> SearchStrategy[dict[str, Any]]:
    """Option values drawn from their declared domains (shrinking towards the defaults)."""
    from hypothesis import strategies as st

    parts: dict[str, SearchStrategy[Any]] = {}
    for o in ruleset.option_specs():
        if o.type == "bool":
            parts[o.name] = st.sampled_from([o.default, not o.default])
        elif o.type == "choice":
            parts[o.name] = st.sampled_from([o.default] + [c for c in o.choices if c != o.default])
        else:
            assert isinstance(o.default, int)
            lo = o.low if o.low is not None else o.default - 10
            hi = o.high if o.high is not None else o.default + 10
            parts[o.name] = st.one_of(st.just(o.default), st.integers(lo, hi))
    return st.fixed_dictionaries(parts)


def invariant_test(
    ruleset: Ruleset | str | Path,
    *,
    max_actions: int = 60,
    vary_options: bool = True,
    modes: Sequence[str] = ("strict", "table"),
    **kwargs: Any,
) -> Callable[[], None]:
    """A hypothesis test (call it, or wrap it in ``settings(...)``) checking a rule file.

    Seed, options, mode and every choice come from ``st.data()``, so a violation is
    shrunk by hypothesis to a short action sequence; the failure message holds the
    actions and Python code to replay them.
    """
    from hypothesis import given
    from hypothesis import strategies as st

    rules = _as_ruleset(ruleset)
    has_table = bool(rules.rules.irregularities)
    mode_choices = [md for md in modes if md == "strict" or has_table] or ["strict"]

    @given(data=st.data())
    def check(data: Any) -> None:
        seed = data.draw(st.integers(0, 2**31 - 1), label="seed")
        opts = data.draw(options_strategy(rules), label="options") if vary_options else {}
        opts = {k: v for k, v in opts.items() if v != rules.options.get(k)}
        mode = data.draw(st.sampled_from(mode_choices), label="mode")
        report = check_invariants(rules, seed=seed, choices=data, options=opts, mode=mode,
                                  max_actions=max_actions, **kwargs)
        report.raise_if_failed()

    check.__name__ = f"invariants_of_{Path(rules.path).stem}"
    return check
