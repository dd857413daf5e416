"""The plain library that generated game modules call (as Jinja2's ``runtime``).

A rule file compiles to one Python module (:mod:`interpreter.codegen`) that owns the
flat core of a match and calls only what is here: the seeded shuffles and chance draws
(:mod:`.seeding`, :mod:`.chance`), the typed errors, and :mod:`.cython_shim`, which
stands for Cython's pure-Python names when the module runs in CPython. Nothing here
knows any particular game.
"""
