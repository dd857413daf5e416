"""Constant folding for the CPython flavour of a generated module (:mod:`.flavour`).

:class:`Folder` writes the module's constants in place (``N`` is ``2``), takes
``cython.compiled`` as False and ``cython.cast(T, x)`` as ``x``, and decides what that
decides: arithmetic and comparisons of int literals, ``not``, ``and``/``or`` led by a
literal, ``x if t else y`` and ``if`` of a literal test. :func:`prune` drops what follows a
``return``, ``raise``, ``break`` or ``continue`` in the same block.
"""

from __future__ import annotations

import ast
from typing import Any

CONSTANT_TYPES = (bool, int)
"""The literals written in place of a module constant's name."""


def nodes(root: Any) -> list[Any]:
    """Every node under ``root`` (a node or a list of them), itself included: ``ast.walk``,
    faster."""
    out: list[Any] = []
    stack = list(root) if root.__class__ is list else [root]
    while stack:
        node = stack.pop()
        out.append(node)
        for value in node.__dict__.values():
            if value.__class__ is list:
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
    return out


def is_cython(node: ast.AST, attr: str) -> bool:
    """Whether ``node`` is ``cython.<attr>`` or a call of it."""
    if isinstance(node, ast.Call):
        node = node.func
    return (isinstance(node, ast.Attribute) and node.attr == attr and isinstance(node.value, ast.Name)
            and node.value.id == "cython")


def local_names(fn: ast.FunctionDef) -> set[str]:
    """Every name a function binds (its parameters, what it assigns, its loops' and
    comprehensions' targets): the names a module constant or an inlined body must not meet."""
    names = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    names |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    for node in nodes(fn):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            names.update(node.names)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def resolve(fn: ast.FunctionDef, consts: dict[str, Any]) -> None:
    """Rewrite ``fn`` with ``cython.compiled``, ``cython.cast`` and the module's constants
    ``consts`` written out, and what they decide decided."""
    shadowed = local_names(fn)
    Folder({k: v for k, v in consts.items() if k not in shadowed}).generic_visit(fn)
    prune(fn)


def fold(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Statements with what their literals decide decided (no constants written in)."""
    folder = Folder({})
    out = [s for stmt in stmts for s in _listed(folder.visit(stmt))]
    prune(out)
    return out


def _listed(node: Any) -> list[Any]:
    return node if isinstance(node, list) else [node]


_ENDS = (ast.Return, ast.Raise, ast.Break, ast.Continue)


def prune(root: Any) -> None:
    """Drop the statements that follow a ``return``, ``raise``, ``break`` or ``continue`` in
    the same block (what resolving ``if not WIDE: return ...`` leaves unreachable), and the
    ``pass`` of a block that holds more."""
    blocks = [root] if root.__class__ is list else []
    for node in nodes(root):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if block.__class__ is list:
                blocks.append(block)
    for block in blocks:
        for i, stmt in enumerate(block):
            if isinstance(stmt, _ENDS):
                del block[i + 1:]
                break
        if len(block) > 1:
            block[:] = [stmt for stmt in block if not isinstance(stmt, ast.Pass)] or block[:1]


_FOLD: dict[type, Any] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.BitOr: lambda a, b: a | b, ast.BitAnd: lambda a, b: a & b, ast.BitXor: lambda a, b: a ^ b,
    ast.LShift: lambda a, b: a << b if 0 <= b <= 64 else None, ast.RShift: lambda a, b: a >> b if b >= 0 else None,
}

_COMPARE: dict[type, Any] = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
}


class Folder(ast.NodeTransformer):
    """Writes constants in place and decides what they decide (see :func:`resolve`)."""

    def __init__(self, consts: dict[str, Any]) -> None:
        self.consts = consts

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.consts:
            return ast.copy_location(ast.Constant(self.consts[node.id]), node)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        if is_cython(node, "compiled") and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Constant(False), node)
        self.generic_visit(node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        if is_cython(node, "cast") and len(node.args) == 2 and not node.keywords:
            return node.args[1]
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and isinstance(node.operand, ast.Constant):
            return ast.copy_location(ast.Constant(not node.operand.value), node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        left, right, fold = node.left, node.right, _FOLD.get(type(node.op))
        if (fold is not None and isinstance(left, ast.Constant) and isinstance(right, ast.Constant)
                and type(left.value) is int and type(right.value) is int):
            value = fold(left.value, right.value)
            if value is not None:
                return ast.copy_location(ast.Constant(value), node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        self.generic_visit(node)
        values = list(node.values)
        stop = isinstance(node.op, ast.And)  # (and: a false operand decides; or: a true one)
        while len(values) > 1 and isinstance(values[0], ast.Constant):
            if bool(values[0].value) != stop:
                return values[0]
            values.pop(0)
        if len(values) == 1:
            return values[0]
        node.values = values
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        operands = [node.left, *node.comparators]
        if len(operands) == 2 and all(isinstance(o, ast.Constant) and type(o.value) in CONSTANT_TYPES for o in operands):
            compare = _COMPARE.get(type(node.ops[0]))
            if compare is not None:
                return ast.copy_location(ast.Constant(compare(operands[0].value, operands[1].value)), node)  # type: ignore[attr-defined]
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            return node.body if node.test.value else node.orelse
        return node

    def visit_If(self, node: ast.If) -> Any:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):
            chosen = node.body if node.test.value else node.orelse
            return chosen or [ast.copy_location(ast.Pass(), node)]
        return node
