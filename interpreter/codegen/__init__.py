"""The one backend: a rule file compiled to a Python module that plays it.

:func:`generate` gives the module's source (and the Cython declarations of its core);
:mod:`interpreter.state` runs it (a :class:`~interpreter.state.Game` per ruleset and
option values), :mod:`interpreter.native` compiles it to C. See
:mod:`interpreter.codegen.generator` for how a rule file becomes a module.
"""

from .generator import generate
from .module import Generated

__all__ = ["Generated", "generate"]
