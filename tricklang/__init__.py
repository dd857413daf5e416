"""tricklang: a declarative rules language for trick-taking card games.

>>> import tricklang
>>> rules = tricklang.load("rules/ecarte.trick")
>>> rules.name
'Écarté'
>>> rules.options["target"]
5
"""

from .deck import card_codes
from .diagnostics import Diagnostic, OptionError, RulesError, TrickLangError
from .model import RuleFile
from .parser import parse
from .ruleset import Ruleset, load, loads

__all__ = [
    "Diagnostic",
    "OptionError",
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
