"""A generic invariant harness: plays any rule file and checks, at every step,
what must hold whatever the game.

Nothing here knows a particular game. Bounds (the most cards a hand may hold, the
most points one deal may bring, the most decisions one deal may need) are derived
from the rule file itself; see :func:`tricklang.bounds.derive_bounds`.

>>> import tricklang
>>> from interpreter.harness import check_invariants
>>> from tricklang.bounds import derive_bounds
>>> rules = tricklang.load("rules/ecarte.trick")
>>> derive_bounds(rules).hand
5
>>> report = check_invariants(rules, seed=1, max_actions=8)
>>> report.ok, len(report.actions)
(True, 8)

Invariants (each a violation ``code``):

``terminal``
    the state is terminal exactly when there is no legal action (and then, and only
    then, ``current_player`` is None; otherwise it is a seat).
``legal-duplicate``, ``legal-unstable``, ``legal-notation``
    legal actions are unique, in the same order when recomputed on a clone and after
    a JSON round trip, and ``is_legal`` accepts each of them (also in lower case).
``pause``
    a referee's pause (decision kind ``pause``) comes only in table mode, is the
    dealer's, and offers ``continue`` and at least one irregularity, nothing else.
``legal-apply``, ``nondeterministic``
    every legal action (at most ``apply_limit`` of them, evenly spread) applies on a
    clone without raising; the clone that took the chosen action equals the state.
``illegal-accepted``, ``illegal-error``, ``illegal-mutated``, ``why-illegal``
    probes (a nonsense verb, an empty action, a card the actor does not hold, an
    unknown card code, a stale action, a bare verb...) raise ``IllegalActionError``
    or ``InvalidActionError`` and change nothing (``to_json``, ``observation(None)``
    and the legal actions are the same before and after); ``why_illegal`` explains.
``cards``
    every card is in exactly one zone instance or in the current trick.
``hand-size``
    no hand holds more than :attr:`Bounds.hand`.
``score``
    scores are ints with ``abs(score) <= (deals so far) * Bounds.score_per_deal``
    (in table mode, plus a share for each irregularity recorded).
``json``
    ``State.from_json(s.to_json()) == s`` with the same legal actions (every
    ``json_every`` steps, and at the last step).
``match-length``
    no more than ``Bounds.actions_per_deal`` decisions in one deal, no more than
    ``Bounds.deal_limit`` deals (strict mode).
``layout``, ``visibility``
    the interpreter's zone instances and ``program.zone_mask`` agree with the rule
    file's zone declarations (the harness's own oracle, so that a wrong mask is caught).
``observation-leak``
    ``observation(p)`` does not change when the cards hidden from ``p`` are moved
    around among the places ``p`` cannot see (sizes kept).
``hidden-choice``
    a card selection whose cards another seat cannot see (a discard face down) does not
    show that seat which cards they were: its observation, information-state string and
    tensor are the same after every legal selection that leaves it seeing the same cards
    (see :mod:`.hidden`).
``event-leak``
    no event shown to ``p`` names a card that ``p`` never saw: checked as each event is
    emitted, against what ``p`` has seen so far in the deal (the zones the rule file
    lets ``p`` see, the trick, and the zone ``p`` is choosing cards from).
``events-log``, ``observation-json``
    the event log only grows; observations are JSON-able.
``exception``
    anything else raised where nothing should be.
``replay``
    an action given in ``choices`` (as text) is not legal where it is to be played.

A hypothesis driver (:func:`invariant_test`) draws the seed, the options, the mode and
every choice from ``st.data()``, so that a failure shrinks to a short action sequence;
:func:`replay` re-checks a fixed action list deterministically.

The package: :mod:`.report` (what a run found), :mod:`.run` (one checked run: the
run-time invariant checks) and :mod:`.driver` (the entry points and the hypothesis
driver); the static bounds are the language's (:mod:`tricklang.bounds`).
"""

from tricklang.bounds import Bounds

from .driver import check_invariants, invariant_test, options_strategy, replay
from .report import InvariantViolationError, Report, Violation
from .run import PROBES, Chooser, DataLike

__all__ = [
    "Bounds",
    "Chooser",
    "DataLike",
    "InvariantViolationError",
    "PROBES",
    "Report",
    "Violation",
    "check_invariants",
    "invariant_test",
    "options_strategy",
    "replay",
]
