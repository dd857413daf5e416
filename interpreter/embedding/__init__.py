"""Embedding the runtime in game-AI tools: a fixed action space of integer ids
(:mod:`interpreter.state.spaces`), observation tensors (:mod:`interpreter.state.tensors`),
the one-card selection and explicit chance modes (:mod:`interpreter.state.modes`), the
information-state strings (:mod:`.infostate`), and adapters installed as optional extras:

* :mod:`interpreter.embedding.openspiel` (``pip install 'tricklang[openspiel]'``): any
  rule file as a registered ``pyspiel`` game;
* :mod:`interpreter.embedding.pettingzoo` (``pip install 'tricklang[pettingzoo]'``): any
  rule file as a PettingZoo AEC environment.

Both play in one-card selection mode (a small action space) and, for OpenSpiel,
explicit chance.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tricklang import Ruleset, load


def as_ruleset(rules: Ruleset | str | Path) -> Ruleset:
    """A ruleset from a :class:`Ruleset`, a path, or a bundled rule file's path.

    Raises:
        RulesError: the rule file is broken (every diagnostic is named).
        OSError: the file cannot be read.
    """
    if isinstance(rules, Ruleset):
        return rules
    return load(rules)


def option_defaults(ruleset: Ruleset) -> dict[str, Any]:
    """The rule file's options at their current values (int, bool or choice text)."""
    return dict(ruleset.options)
