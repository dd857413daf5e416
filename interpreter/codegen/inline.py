"""Inlining for the CPython flavour of a generated module (:mod:`.flavour`).

A call ``f(a, b)`` of a module function ``f`` is replaced by ``f``'s body when that is
known to do the same:

- ``f`` is a plain function of the module: bound once, positional parameters only, no
  nested function, class, ``global``, ``yield``, ``try``, ``with`` or ``:=``; it does not
  call itself; it is small (:data:`MOST_STATEMENTS`);
- an *expression* body (``return <expr>``) replaces the call anywhere, its parameters
  replaced by the arguments; an argument that is not a name or a literal (nor calls or
  assigns) is taken only when its parameter is read once, and first or in a body that
  calls nothing (so it is read once, and before anything could change what it reads);
- a body of *statements* replaces a call that is a statement of its own (``f(a)``,
  ``x = f(a)``, ``return f(a)``): its parameters and locals get fresh names, an argument
  that is not a name or a literal is assigned to its parameter first (in order), and an
  early ``return`` becomes ``break`` out of a ``while True`` around the body (not when
  that ``return`` sits in a loop of ``f``);
- never when a global name the body reads is a local of the caller.

Anything else stays a call.
"""

from __future__ import annotations

import ast
from typing import Any

from .folding import fold, nodes

MOST_STATEMENTS = 24
"""A function of more statements than this is not inlined."""
MOST_CALLER = 600
"""A function is not grown past this many statements by inlining."""
DEPTH = 3
"""How deep inlined bodies are inlined in turn (a body inlined may call another)."""

_REFUSED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.Global, ast.Nonlocal,
            ast.Yield, ast.YieldFrom, ast.Await, ast.Try, ast.With, ast.NamedExpr, ast.Delete)


def clone(node: Any) -> Any:
    """A deep copy of a syntax tree (or a list of them), faster than ``copy.deepcopy``."""
    if node.__class__ is list:
        return [clone(x) for x in node]
    new = node.__class__.__new__(node.__class__)
    fields = new.__dict__
    for key, value in node.__dict__.items():
        fields[key] = clone(value) if value.__class__ is list or isinstance(value, ast.AST) else value
    return new


class Callee:
    """A module function that may be inlined, as :func:`candidates` found it."""

    def __init__(self, fn: ast.FunctionDef, body: list[ast.stmt]) -> None:
        self.name = fn.name
        self.params = [a.arg for a in fn.args.args]
        self.body = clone(body) or [ast.Pass()]
        self.expr = self.body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None
        everything = nodes(self.body)
        names = [n for n in everything if isinstance(n, ast.Name)]
        self.assigned = {n.id for n in names if not isinstance(n.ctx, ast.Load)}
        self.locals = self.assigned | set(self.params)
        self.globals = {n.id for n in names} - self.locals
        ids = [n.id for n in names]
        self.uses = {p: ids.count(p) for p in self.params}
        self.calls = any(isinstance(n, ast.Call) for n in everything)
        self.size = sum(1 for n in everything if isinstance(n, ast.stmt))
        self.loop_return = any(isinstance(r, ast.Return) for loop in everything
                               if isinstance(loop, (ast.For, ast.While)) for r in nodes(loop.body + loop.orelse))


def candidates(tree: ast.Module, functions: dict[str, ast.FunctionDef]) -> dict[str, Callee]:
    """The module functions that :class:`Inliner` may inline, by name (``functions``: the
    module's functions as resolved by :func:`.flavour.resolve`)."""
    counts: dict[str, int] = {}
    for node in tree.body:
        for name in top_names(node):
            counts[name] = counts.get(name, 0) + 1
    out = {}
    for name, fn in functions.items():
        body = list(fn.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # (the docstring)
        if counts.get(name) == 1 and _inlinable(fn, body):
            out[name] = Callee(fn, body)
    return out


def top_names(node: ast.stmt) -> list[str]:
    """The names a statement of the module's top level binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in node.names]
    if isinstance(node, ast.Assign):
        targets: list[Any] = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For)):
        targets = [node.target]
    else:
        targets = [node]
    return [n.id for n in nodes(targets) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)]


def _inlinable(fn: ast.FunctionDef, body: list[ast.stmt]) -> bool:
    a = fn.args
    if a.posonlyargs or a.kwonlyargs or a.vararg or a.kwarg or a.defaults or a.kw_defaults:
        return False
    if any(not _cython_decorator(d) for d in fn.decorator_list):
        return False
    size = 0
    for node in nodes(body):
        if isinstance(node, ast.stmt):
            size += 1
            if size > MOST_STATEMENTS:
                return False
        if isinstance(node, _REFUSED):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == fn.name:
            return False  # (it calls itself)
    return True


def _cython_decorator(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "cython"


def _bound(fn: ast.FunctionDef) -> tuple[set[str], int]:
    """The names ``fn`` binds and its count of statements."""
    names = {a.arg for a in fn.args.args}
    size = 0
    for node in nodes(fn.body):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.stmt):
            size += 1
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names, size


def _read_first(node: ast.expr, name: str) -> bool:
    """Whether an expression reads ``name`` before it does anything but read names (calls,
    looks up an attribute or an item, computes)."""
    return _reads(node, name) is True


def _reads(node: ast.expr, name: str) -> bool | None:
    """True: ``name`` is read before anything else is done; False: something is done
    first; None: neither yet (only other names read)."""
    if isinstance(node, ast.Name):
        return True if node.id == name else None
    if isinstance(node, ast.Constant):
        return None
    if isinstance(node, ast.Call):
        parts: list[ast.expr] = [node.func, *node.args]
    elif isinstance(node, (ast.Attribute, ast.Subscript)):
        parts = [node.value]
    elif isinstance(node, ast.BinOp):
        parts = [node.left, node.right]
    else:
        return False
    for part in parts:
        got = _reads(part, name)
        if got is not None:
            return got
    return False


def _simple(node: ast.expr) -> bool:
    """A name or a literal: read any number of times, any time, with the same value."""
    return isinstance(node, ast.Name) or (isinstance(node, ast.Constant) and not isinstance(node.value, (list, dict)))


def _pure(node: ast.expr) -> bool:
    """An expression that calls nothing and assigns nothing."""
    return not any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await, ast.Yield, ast.YieldFrom, ast.Lambda,
                                  ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)) for n in nodes(node))


class _Substitute(ast.NodeTransformer):
    """Names replaced: by an expression (a parameter) or by a fresh name (a local)."""

    def __init__(self, exprs: dict[str, ast.expr], renames: dict[str, str]) -> None:
        self.exprs = exprs
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if isinstance(node.ctx, ast.Load) and node.id in self.exprs:
            copied: ast.expr = clone(self.exprs[node.id])
            return copied
        if node.id in self.renames:
            return ast.copy_location(ast.Name(self.renames[node.id], node.ctx), node)
        return node


class Inliner:
    """Inlines calls of :func:`candidates` in a function (see the module docstring)."""

    def __init__(self, callees: dict[str, Callee]) -> None:
        self.callees = callees
        self.serial = 0

    def function(self, fn: ast.FunctionDef) -> bool:
        """Inline in ``fn`` the calls it may inline; whether there were any."""
        caller = _Site(self, fn)
        fn.body = caller.block(fn.body)
        return caller.changed

    def fresh(self) -> str:
        self.serial += 1
        return f"_fl{self.serial}_"


_STATEMENT_CALLS = (ast.Expr, ast.Assign, ast.AnnAssign, ast.Return)


class _Site(ast.NodeTransformer):
    """One pass of inlining over one caller (its own walk, faster than ``generic_visit``,
    into statements and the expressions that hold a call)."""

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            new = self.visit(stmt) if isinstance(stmt, _STATEMENT_CALLS) else self.generic_visit(stmt)
            if new.__class__ is list:
                out.extend(new)
            else:
                out.append(new)
        return out

    def generic_visit(self, node: ast.AST) -> Any:
        fields = node.__dict__
        for key, value in fields.items():
            if value.__class__ is list:
                if value and isinstance(value[0], ast.stmt):
                    fields[key] = self.block(value)
                else:
                    fields[key] = [self.visit(v) if isinstance(v, ast.AST) else v for v in value]
            elif isinstance(value, ast.expr) and not isinstance(value, (ast.Name, ast.Constant)):
                fields[key] = self.visit(value)
        return node

    def __init__(self, inliner: Inliner, fn: ast.FunctionDef) -> None:
        self.inliner = inliner
        self.caller = fn.name
        self.locals, self.size = _bound(fn)
        self.changed = False
        self.depth = 0

    def _callee(self, node: ast.AST) -> Callee | None:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords):
            return None
        callee = self.inliner.callees.get(node.func.id)
        if (callee is None or self.depth >= DEPTH or callee.name == self.caller or node.func.id in self.locals
                or len(node.args) != len(callee.params) or any(isinstance(a, ast.Starred) for a in node.args)
                or callee.globals & self.locals or self.size + callee.size > MOST_CALLER):
            return None
        return callee

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        callee = self._callee(node)
        if callee is None or callee.expr is None:
            return node
        exprs: dict[str, ast.expr] = {}
        for param, arg in zip(callee.params, node.args, strict=True):
            if not (_simple(arg) or (_pure(arg) and callee.uses[param] == 1
                                     and (not callee.calls or _read_first(callee.expr, param)))):
                return node
            exprs[param] = arg
        self.changed = True
        body = fold([ast.Expr(_Substitute(exprs, {}).visit(clone(callee.expr)))])
        assert len(body) == 1 and isinstance(body[0], ast.Expr)  # noqa: S101 - an expression folds to one
        self.depth += 1
        out: ast.expr = self.visit(body[0].value)
        self.depth -= 1
        return ast.fix_missing_locations(ast.copy_location(out, node))

    def visit_Expr(self, node: ast.Expr) -> Any:
        return self._statement(node, node.value, lambda value: ast.Expr(value), None)

    def visit_Assign(self, node: ast.Assign) -> Any:
        if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name):
            return self.generic_visit(node)
        target = node.targets[0].id
        return self._statement(node, node.value, lambda value: ast.Assign([ast.Name(target, ast.Store())], value), target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> Any:
        if not isinstance(node.target, ast.Name) or node.value is None:
            return self.generic_visit(node)
        target = node.target.id
        return self._statement(node, node.value, lambda value: ast.Assign([ast.Name(target, ast.Store())], value), target)

    def visit_Return(self, node: ast.Return) -> Any:
        if node.value is None:
            return node
        return self._statement(node, node.value, lambda value: ast.Return(value), "")

    def _statement(self, node: ast.stmt, value: ast.expr, keep: Any, target: str | None) -> Any:
        """``node`` (whose value is ``value``) with a call of a function of statements
        inlined; ``target``: the name it assigns, "" for a return, None for a bare call."""
        callee = self._callee(value)
        if callee is None or callee.expr is not None:
            return self.generic_visit(node)
        assert isinstance(value, ast.Call)  # noqa: S101 - _callee checked
        args = [self.visit(a) for a in value.args]
        if target == "" or not callee.loop_return:
            body = fold(self._body(callee, args, target))
            self.changed = True
            self.size += callee.size
            self.depth += 1
            out = [new for stmt in body for new in _listed(self.visit(stmt))]
            self.depth -= 1
            return [ast.fix_missing_locations(ast.copy_location(stmt, node)) for stmt in out]
        value.args = args
        return node

    def _body(self, callee: Callee, args: list[ast.expr], target: str | None) -> list[ast.stmt]:
        prefix = self.inliner.fresh()
        renames = {name: prefix + name for name in callee.locals}
        exprs: dict[str, ast.expr] = {}
        first: list[ast.stmt] = []
        for param, arg in zip(callee.params, args, strict=True):
            if _simple(arg) and param not in callee.assigned:
                exprs[param] = arg
                del renames[param]
            else:
                first.append(ast.Assign([ast.Name(renames[param], ast.Store())], arg))
        body = [_Substitute(exprs, renames).visit(clone(s)) for s in callee.body]
        if target == "":
            return first + body + ([] if _always_returns(body) else [ast.Return(ast.Constant(None))])
        return first + _returns_made_breaks(body, target)


def _always_returns(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], (ast.Return, ast.Raise))


def _returns_made_breaks(body: list[ast.stmt], target: str | None) -> list[ast.stmt]:
    """An inlined body whose returns assign ``target`` (None: the value is dropped): the
    last statement's in place, an earlier one's followed by ``break`` out of a
    ``while True`` around the body."""
    rest, tail = body, [_result(ast.Constant(None), target)] if target else []
    if isinstance(body[-1], ast.Return):
        rest, tail = body[:-1], [_result(body[-1].value or ast.Constant(None), target)]
    if not any(isinstance(n, ast.Return) for n in nodes(rest)):
        return [s for s in rest + tail if not isinstance(s, ast.Pass)] or [ast.Pass()]
    rest = [out for s in rest for out in _listed(_Breaks(target).visit(s))]
    return [ast.While(ast.Constant(True), [*rest, *tail, ast.Break()], [])]


def _listed(node: Any) -> list[Any]:
    return node if isinstance(node, list) else [node]


def _result(value: ast.expr, target: str | None) -> ast.stmt:
    if target:
        return ast.Assign([ast.Name(target, ast.Store())], value)
    return ast.Expr(value) if not _pure(value) else ast.Pass()


class _Breaks(ast.NodeTransformer):
    """``return v`` made ``target = v; break``."""

    def __init__(self, target: str | None) -> None:
        self.target = target

    def visit_Return(self, node: ast.Return) -> Any:
        result = _result(node.value or ast.Constant(None), self.target)
        return [ast.copy_location(result, node), ast.copy_location(ast.Break(), node)]
