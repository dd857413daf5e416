"""The CPython flavour of a generated module: the same module, rewritten for the interpreter.

A generated module (:mod:`interpreter.codegen`) is written once, typed for Cython's
pure-Python mode: natively its many small helpers compile to C and inline, its
``cython.compiled`` branches pick the C intrinsics, its constants are C constants. In
CPython the same source pays a Python call for every helper, a global lookup for every
constant, and a test of ``cython.compiled`` each time. :func:`flavoured` is a pass over the
module's syntax tree, made for CPython only (``interpreter.state.compiled.run_source``):

- ``cython.compiled`` is False (a top-level ``if not cython.compiled:`` is its body) and
  ``cython.cast(T, x)`` is ``x``; the module's integer constants (``N =
  cython.declare(cython.longlong, 2)``, ``WIDE = False``) are written in place; what that
  decides (``if``, ``and``, ``x if t else y``, arithmetic of constants) is decided here;
- a call of a small module function is replaced by its body (:mod:`.inline`): a function that
  only returns an expression, anywhere; a function of statements, where the call is a
  statement of its own (``f(c)``, ``x = f(c)``, ``return f(c)``), its locals renamed.

The source that is printed (``tricklang compile``), compiled natively and fingerprinted
(the compatibility snapshot) is never changed: this pass runs after. Each function is
rewritten on its own and checked by compiling it alone; a function the pass cannot rewrite,
or a shape it does not know (what the generator learns after this was written), is left as
it was, never broken. The flavoured module plays the same matches: the same events, legal
actions and draws (``tests/runtime/test_flavour.py`` checks every bundled rule file).
"""

from __future__ import annotations

import ast
import re
from types import CodeType
from typing import Any

from .folding import CONSTANT_TYPES, is_cython, resolve
from .inline import Inliner, candidates, top_names


def cpython_flavour(source: str, filename: str = "<flavour>") -> CodeType:
    """The CPython flavour of a generated module's source (:func:`flavoured`), compiled; or
    the source as written, compiled, should the pass fail on it (it must never break a module).

    Raises:
        SyntaxError: ``source`` is not Python (a generated module always is).
    """
    try:
        return _flavour(source, set(), filename)[1]
    except Exception:  # noqa: BLE001 - any failure of the pass leaves the module as written
        return compile(source, filename, "exec")


def flavoured(source: str, failed: set[str] | None = None) -> ast.Module:
    """The CPython flavour of a generated module's source, as a tree; the names of the
    functions left as written (the pass could not rewrite them) are added to ``failed``.

    Raises:
        SyntaxError: ``source`` is not Python (a generated module always is).
    """
    return _flavour(source, set() if failed is None else failed, "<flavour>")[0]


def _flavour(source: str, failed: set[str], filename: str) -> tuple[ast.Module, CodeType]:
    tree = _python_only(ast.parse(source))
    consts = module_constants(tree, source)
    functions = {node.name: i for i, node in enumerate(tree.body) if isinstance(node, ast.FunctionDef)}
    for name, i in functions.items():
        fn = tree.body[i]
        assert isinstance(fn, ast.FunctionDef)  # noqa: S101 - indexed above
        if not _tried(lambda fn=fn: resolve(fn, consts)):
            failed.add(name)
    resolved = {name: tree.body[i] for name, i in functions.items() if name not in failed}
    inliner = Inliner(candidates(tree, resolved))  # type: ignore[arg-type]
    for name, i in functions.items():
        fn = tree.body[i]
        if name not in failed and not _tried(lambda fn=fn: inliner.function(fn)):
            failed.add(name)
    if not failed:
        try:
            return tree, compile(tree, filename, "exec")
        except (SyntaxError, ValueError, TypeError, RecursionError):
            failed |= {name for name, i in functions.items() if not _compiles(tree.body[i])}
    originals = _python_only(ast.parse(source))
    for name in failed:
        tree.body[functions[name]] = originals.body[functions[name]]
    return tree, compile(tree, filename, "exec")


def _python_only(tree: ast.Module) -> ast.Module:
    """``tree`` with its top-level ``if not cython.compiled:`` blocks (the tables only
    CPython reads), and those at the top of a class's methods (the core's lists), replaced
    by what they hold."""
    tree.body = _unguarded(tree.body)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    item.body = _unguarded(item.body)
    return tree


def _unguarded(stmts: list[ast.stmt]) -> list[ast.stmt]:
    body: list[ast.stmt] = []
    for node in stmts:
        if (isinstance(node, ast.If) and not node.orelse and isinstance(node.test, ast.UnaryOp)
                and isinstance(node.test.op, ast.Not) and is_cython(node.test.operand, "compiled")):
            body.extend(node.body)
        else:
            body.append(node)
    return body


def _tried(rewrite: Any) -> bool:
    """Whether ``rewrite()`` ran without an error (an unknown shape must not break the module)."""
    try:
        rewrite()
    except (ValueError, TypeError, AttributeError, KeyError, IndexError, AssertionError, RecursionError):
        return False
    return True


def _compiles(node: ast.stmt) -> bool:
    try:
        compile(ast.Module([node], []), "<flavour>", "exec")
    except (SyntaxError, ValueError, TypeError, RecursionError):
        return False
    return True


def module_constants(tree: ast.Module, source: str) -> dict[str, Any]:
    """The module's names bound once, at its top level, to an int or bool literal (directly
    or by ``cython.declare(T, literal)``), and never declared ``global`` in a function."""
    bound: dict[str, int] = {}
    values: dict[str, Any] = {}
    for node in tree.body:
        for target in top_names(node):
            bound[target] = bound.get(target, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            value = _literal(node.value)
            if value is not None:
                values[node.targets[0].id] = value
    declared_global = {name for names in re.findall(r"^[ \t]*global[ \t]+([\w, \t]+)", source, re.MULTILINE)
                       for name in re.split(r"[ \t,]+", names.strip())}
    return {name: v for name, v in values.items() if bound[name] == 1 and name not in declared_global}


def _literal(value: ast.expr) -> Any:
    if is_cython(value, "declare") and isinstance(value, ast.Call) and len(value.args) == 2:
        value = value.args[1]
    if isinstance(value, ast.Constant) and type(value.value) in CONSTANT_TYPES:
        return value.value
    return None
