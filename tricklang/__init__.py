"""tricklang: a declarative rules language for trick-taking card games.

>>> import tricklang
>>> rules = tricklang.load("rules/ecarte.trick")
>>> rules.name
'Écarté'
>>> rules.options["target"]
5

Importing the package is cheap: the parser, the syntax model and the checker
(Lark and pydantic) are imported on first use of a name that needs them.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostic, OptionError, RulesError, TrickLangError

if TYPE_CHECKING:
    from .deck import card_codes
    from .model import RuleFile
    from .parser import parse
    from .ruleset import OptionValues, Ruleset, load, loads

_LAZY = {
    "card_codes": "deck",
    "RuleFile": "model",
    "parse": "parser",
    "OptionValues": "ruleset",
    "Ruleset": "ruleset",
    "load": "ruleset",
    "loads": "ruleset",
}

__all__ = [
    "Diagnostic",
    "OptionError",
    "OptionValues",
    "RuleFile",
    "RulesError",
    "Ruleset",
    "TrickLangError",
    "card_codes",
    "load",
    "loads",
    "parse",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tricklang' has no attribute {name!r}")
    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value
