"""One walk over the syntax model: the children of a node, every statement of a
block, a visitor base class, and the one constant folder every pass uses.

Nodes know their children through their fields (:func:`children`), so a pass
that only wants "every statement" or "every name in this expression" does not
write its own ``isinstance`` ladder. A pass that does something different for
each kind of node subclasses :class:`Visitor` and writes ``visit_<Node>``
methods. :func:`fold` evaluates an expression made of literals and names of known
value (options, ``true``/``false``, choice values), and is what the checker, the
lints, explain, the static bounds and the interpreter's compiler call a constant.

>>> from tricklang import loads
>>> rules = loads('''tricklang 1
... game "G"
... players 2
... option target: int = 5 in 1..9
... deck
...   suits spades black, hearts red
...   ranks A K Q
... zone hand: per player, owner
... zone stock: shared, hidden, pack
... zone won: per player, public
... match
...   game to target + 2, after the deal
... deal
...   deal 3 to each
...   tricks 3, left of dealer leads first
... ''').rules
>>> fold(rules.match.target, {"target": 5})
7
>>> [type(st).__name__ for st in statements(rules.deal)]
['DealCards', 'Tricks']
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, Final, Generic, TypeVar, cast

from . import model as m

__all__ = [
    "BINARY",
    "UNKNOWN",
    "Unknown",
    "Value",
    "Visitor",
    "blocks",
    "children",
    "fold",
    "fold_int",
    "names",
    "nodes",
    "rebuild",
    "statements",
    "statements_of",
]

Value = int | bool | str
"""What a constant expression folds to: a number, a truth value or a choice value."""


class Unknown:
    """The type of :data:`UNKNOWN`: the value of an expression that is not constant."""

    _instance: Unknown | None = None

    def __new__(cls) -> Unknown:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Final = Unknown()
"""What :func:`fold` returns for an expression whose value is not known statically."""

BINARY: Final[dict[m.BinaryOp, Callable[[Any, Any], Any]]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.floordiv, "%": operator.mod,
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
    "and": lambda a, b: bool(a) and bool(b), "or": lambda a, b: bool(a) or bool(b),
}
"""The one table of binary operators: the folder and the compiled runtime use it."""


T = TypeVar("T")

# ---------------------------------------------------------------- children


_FIELDS: dict[type[m.Node], tuple[str, ...]] = {}
"""Each node class's field names, in order (pydantic's ``model_fields`` is slow to ask)."""


def _fields(cls: type[m.Node]) -> tuple[str, ...]:
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = tuple(cls.model_fields)
    return found


def children(node: m.Node) -> Iterator[m.Node]:
    """The nodes directly below ``node``, in field order (spans left out).

    Tuples are followed (also the ``(condition, block)`` pairs of an ``if``), so
    that a statement's children are its expressions, patterns and nested blocks.
    """
    found: list[m.Node] = []
    _add_children(node, found)
    return iter(found)


def _add_children(node: m.Node, out: list[m.Node]) -> None:
    """Append the nodes directly below ``node`` to ``out`` (:func:`children`, without a
    generator a level: every pass walks the whole model this way)."""
    for name in _fields(type(node)):
        value = getattr(node, name)
        if isinstance(value, m.Node):
            if not isinstance(value, m.Span):
                out.append(value)
        elif isinstance(value, tuple) and value:
            _add_in(value, out)


def _add_in(items: tuple[Any, ...], out: list[m.Node]) -> None:
    for item in items:
        if isinstance(item, m.Node):
            if not isinstance(item, m.Span):
                out.append(item)
        elif isinstance(item, tuple):
            _add_in(item, out)


def nodes(node: m.Node) -> Iterator[m.Node]:
    """``node`` and every node below it, depth first."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        below: list[m.Node] = []
        _add_children(current, below)
        if below:
            below.reverse()
            stack.extend(below)


_WALKED: dict[int, tuple[m.Node, tuple[m.Node, ...]]] = {}
"""The last few whole walks (:func:`every_node`), by the root's ``id`` (the root kept with
them, so that the ``id`` stays its own)."""

_WALKS_KEPT = 4


def every_node(root: m.Node) -> tuple[m.Node, ...]:
    """``tuple(nodes(root))``, made once for a root while it is among the last few walked this
    way: the checker's passes each go through the whole rule file, and nodes never change."""
    found = _WALKED.get(id(root))
    if found is not None and found[0] is root:
        return found[1]
    walked = tuple(nodes(root))
    if len(_WALKED) >= _WALKS_KEPT:
        _WALKED.pop(next(iter(_WALKED)), None)
    _WALKED[id(root)] = (root, walked)
    return walked


def names(e: m.Node) -> Iterator[m.Name]:
    """Every name used in an expression (or any node), depth first."""
    return (n for n in nodes(e) if isinstance(n, m.Name))


def rebuild(tree: T, replace: Callable[[m.Node], m.Node | None]) -> T:
    """``tree`` (a node or a tuple of them, e.g. a block) with each node for which
    ``replace`` gives a node put in its place, top down: a replacement is not looked
    into, the other nodes are rebuilt from their children (spans included). What holds
    no replaced node is shared, not copied; ``tree`` itself is never changed (nodes are
    frozen)."""
    return cast(T, _rebuilt(tree, replace))


def _rebuilt(value: Any, replace: Callable[[m.Node], m.Node | None]) -> Any:
    if isinstance(value, tuple):
        items = tuple(_rebuilt(x, replace) for x in value)
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if not isinstance(value, m.Node):
        return value
    new = replace(value)
    if new is not None:
        return new
    changes = {}
    for name in _fields(type(value)):
        old = getattr(value, name)
        if isinstance(old, (m.Node, tuple)):
            got = _rebuilt(old, replace)
            if got is not old:
                changes[name] = got
    return value.model_copy(update=changes) if changes else value


# ---------------------------------------------------------------- statements


def blocks(st: m.Node) -> Iterator[tuple[m.Statement, ...]]:
    """The blocks of statements directly inside a statement, from the fields its class
    names in ``bodies``: the branches and the ``else`` of an ``if``, each option of a
    choice, the body of a loop or a phase, each declaration's body in trick play.

    Raises:
        TypeError: a field named in ``bodies`` holds something other than a block,
            ``(condition, block)`` pairs or nodes with a ``body``.
    """
    for name in getattr(type(st), "bodies", ()):
        yield from _blocks_in(getattr(st, name), st, name)


def _blocks_in(value: Any, st: m.Node, name: str) -> Iterator[tuple[m.Statement, ...]]:
    if isinstance(value, tuple) and all(isinstance(item, m.Stmt) for item in value):
        yield value  # a block (an empty `else` too)
    elif isinstance(value, tuple) and all(isinstance(item, tuple) and len(item) == 2 for item in value):
        for _, block in value:  # an if's (condition, block) branches
            yield from _blocks_in(block, st, name)
    elif isinstance(value, tuple) and all(isinstance(getattr(item, "body", None), tuple) for item in value):
        for item in value:  # choice options, declarations: nodes with a body
            yield item.body
    else:
        raise TypeError(f"{type(st).__name__}.{name} is named in 'bodies' but holds no statements")


def statements(stmts: Iterable[m.Statement]) -> Iterator[m.Statement]:
    """Every statement of a block, depth first, including those in nested blocks."""
    for st in stmts:
        yield st
        for body in blocks(st):
            yield from statements(body)


def statements_of(rules: m.RuleFile) -> Iterator[m.Statement]:
    """Every statement of the deal and of the irregularities."""
    yield from statements(rules.deal)
    for irr in rules.irregularities:
        yield from statements(irr.body)


# ---------------------------------------------------------------- visitor

R = TypeVar("R")


class Visitor(Generic[R]):
    """Dispatch on the class of a node: ``visit(node)`` calls ``visit_<ClassName>``
    (e.g. ``visit_BinOp``), or :meth:`generic_visit` when there is none."""

    def visit(self, node: m.Node, *args: Any) -> R:
        method: Callable[..., R] = getattr(self, "visit_" + type(node).__name__, self.generic_visit)
        return method(node, *args)

    def generic_visit(self, node: m.Node, *args: Any) -> R:
        """What a node without a ``visit_`` method gives; raises TypeError unless overridden."""
        raise TypeError(f"{type(self).__name__} cannot visit {type(node).__name__}")


# ---------------------------------------------------------------- constant folding


class _Folder(Visitor["Value | Unknown"]):
    def __init__(self, env: Mapping[str, Value]) -> None:
        self.env = env

    def generic_visit(self, node: m.Node, *args: Any) -> Value | Unknown:
        return UNKNOWN

    def visit_IntLit(self, e: m.IntLit) -> Value | Unknown:  # noqa: N802 - visitor naming
        return e.value

    def visit_Name(self, e: m.Name) -> Value | Unknown:  # noqa: N802
        return self.env.get(e.name, UNKNOWN)

    def visit_Not(self, e: m.Not) -> Value | Unknown:  # noqa: N802
        v = self.visit(e.operand)
        return UNKNOWN if isinstance(v, Unknown) else not v

    def visit_Neg(self, e: m.Neg) -> Value | Unknown:  # noqa: N802
        v = self.visit(e.operand)
        return UNKNOWN if isinstance(v, (Unknown, bool, str)) else -v

    def visit_Call(self, e: m.Call) -> Value | Unknown:  # noqa: N802
        if e.name not in ("min", "max", "abs") or not e.args:
            return UNKNOWN
        values = [self.visit(a.value) for a in e.args]
        ints = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
        if len(ints) != len(values):
            return UNKNOWN
        if e.name == "abs":
            return abs(ints[0]) if len(ints) == 1 else UNKNOWN
        return min(ints) if e.name == "min" else max(ints)

    def visit_BinOp(self, e: m.BinOp) -> Value | Unknown:  # noqa: N802
        a = self.visit(e.left)
        if (e.op == "and" and a is False) or (e.op == "or" and a is True):
            return a
        b = self.visit(e.right)
        if e.op in ("and", "or"):
            if isinstance(a, Unknown) or isinstance(b, Unknown):
                # `x and false` is false, `x or true` is true, whatever x is
                decided = (e.op == "and" and b is False) or (e.op == "or" and b is True)
                return b if decided else UNKNOWN
        if isinstance(a, Unknown) or isinstance(b, Unknown):
            return UNKNOWN
        try:
            value: Value = BINARY[e.op](a, b)
        except (TypeError, ZeroDivisionError):
            return UNKNOWN
        return value


def fold(e: m.Expr, env: Mapping[str, Value]) -> Value | Unknown:
    """The value of an expression whose names all have a value in ``env`` (literals,
    ``not``, ``-``, ``min``/``max``/``abs`` and every binary operator; ``/`` rounds down),
    else :data:`UNKNOWN`.

    ``and``/``or`` are decided by one known side when it settles them (``false
    and x`` is false). Never raises on a well-formed expression.
    """
    return _Folder(env).visit(e)


def fold_int(e: m.Expr | None, env: Mapping[str, Value]) -> int | None:
    """:func:`fold`, when the value is a number; else None."""
    if e is None:
        return None
    v = fold(e, env)
    return v if isinstance(v, int) and not isinstance(v, bool) else None
