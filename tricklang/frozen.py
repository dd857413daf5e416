"""Frozen records declared by class annotations: the base of the syntax nodes
(:class:`tricklang.model.Node`) and of :class:`tricklang.Ruleset`.

A subclass lists its fields as annotations, with an optional default (an immutable
value); base-class fields come first. Instances are built from keyword arguments only,
cannot be changed, are equal when of the same class with equal fields, hash by their
fields, and print as ``Name(field=value, ...)``. Nothing is converted or validated at
run time: a record is built from values already checked (the parser's own output, the
checker's results); :func:`tricklang.model.check_types` checks a tree of nodes against
the annotations, for the tests.

This is the part of pydantic's ``BaseModel`` the language used (``model_fields``,
``model_copy(update=...)``, ``model_dump()``), at a fraction of its import and
construction cost: class creation reads the annotations as written, without evaluating
them (each module uses ``from __future__ import annotations``).
"""

from __future__ import annotations

from typing import Any, ClassVar, Self, dataclass_transform

REQUIRED: Any = type("Required", (), {"__repr__": lambda self: "REQUIRED", "__slots__": ()})()
"""The default of a field that has none."""


@dataclass_transform(kw_only_default=True, frozen_default=True)
class Frozen:
    """A frozen record: see the module's documentation.

    Raises:
        TypeError: on construction, an unknown field or a missing required one; on
            assignment or deletion of an attribute, always.
    """

    model_fields: ClassVar[dict[str, Any]] = {}
    """Each field's name and its default (:data:`REQUIRED` when it has none), in order."""

    _hidden: ClassVar[frozenset[str]] = frozenset()
    """Fields left out of ``repr``."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            for name, annotation in vars(klass).get("__annotations__", {}).items():
                if "ClassVar" in str(annotation):
                    continue
                fields[name] = vars(klass).get(name, fields.get(name, REQUIRED))
        cls.model_fields = fields

    def __init__(self, **values: Any) -> None:
        fields = self.model_fields
        unknown = values.keys() - fields.keys()
        if unknown:
            raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
        own = self.__dict__
        for name, default in fields.items():
            value = values.get(name, default)
            if value is REQUIRED:
                raise TypeError(f"{type(self).__name__} needs the field {name}")
            own[name] = value
        self.__post_init__()

    def __post_init__(self) -> None:
        """Called at the end of construction (not by :meth:`model_copy`): nothing here."""

    def __setattr__(self, name: str, value: object) -> None:
        raise TypeError(f"{type(self).__name__} is frozen: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise TypeError(f"{type(self).__name__} is frozen: cannot delete {name}")

    def _values(self) -> tuple[Any, ...]:
        own = self.__dict__
        return tuple(own[name] for name in self.model_fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented if not isinstance(other, Frozen) else False
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        own = self.__dict__
        shown = ", ".join(f"{name}={own[name]!r}" for name in self.model_fields if name not in self._hidden)
        return f"{type(self).__name__}({shown})"

    def model_copy(self, *, update: dict[str, Any] | None = None) -> Self:
        """A copy with some fields changed (not checked, like the values it is built from).

        Raises:
            TypeError: ``update`` names a field the record does not have.
        """
        new = object.__new__(type(self))
        own = new.__dict__
        own.update(self.__dict__)
        if update:
            unknown = update.keys() - self.model_fields.keys()
            if unknown:
                raise TypeError(f"{type(self).__name__} has no field {', '.join(sorted(unknown))}")
            own.update(update)
        return new

    def model_dump(self) -> dict[str, Any]:
        """The fields as plain data: records become dicts, tuples stay tuples."""
        own = self.__dict__
        return {name: _dumped(own[name]) for name in self.model_fields}


def _dumped(value: Any) -> Any:
    if isinstance(value, Frozen):
        return value.model_dump()
    if isinstance(value, tuple):
        return tuple(_dumped(item) for item in value)
    if isinstance(value, dict):
        return {key: _dumped(item) for key, item in value.items()}
    return value


def type_problems(record: Frozen) -> list[str]:
    """Every field, in ``record`` and the records it holds, whose value is not of its
    annotated type (the annotations read in each class's module). Exact:
    an ``int`` field refuses ``True``, a ``str`` field a subclass of ``str`` (a Lark
    token), a ``tuple`` field a list. For the tests: records are not checked when built."""
    import typing

    problems: list[str] = []
    hints: dict[type, dict[str, Any]] = {}
    todo: list[tuple[Frozen, str]] = [(record, type(record).__name__)]
    while todo:
        current, where = todo.pop()
        klass = type(current)
        if klass not in hints:
            hints[klass] = typing.get_type_hints(klass)
        for name in klass.model_fields:
            _check(getattr(current, name), hints[klass][name], f"{where}.{name}", problems, todo)
    return problems


def _check(value: Any, hint: Any, where: str, problems: list[str], todo: list[tuple[Frozen, str]]) -> None:
    import types
    import typing

    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        for option in args:
            found: list[str] = []
            _check(value, option, where, found, [])
            if not found:
                _check(value, option, where, problems, todo)
                return
        problems.append(f"{where}: {value!r} is none of {hint}")
    elif origin is typing.Literal:
        if not any(type(value) is type(a) and value == a for a in args):
            problems.append(f"{where}: {value!r} is not one of {args}")
    elif origin is tuple:
        if type(value) is not tuple:
            problems.append(f"{where}: {type(value).__name__} instead of a tuple")
        elif len(args) == 2 and args[1] is Ellipsis:
            for i, item in enumerate(value):
                _check(item, args[0], f"{where}[{i}]", problems, todo)
        elif len(args) != len(value):
            problems.append(f"{where}: {len(value)} items instead of {len(args)}")
        else:
            for i, (item, arg) in enumerate(zip(value, args, strict=True)):
                _check(item, arg, f"{where}[{i}]", problems, todo)
    elif origin is dict:
        if type(value) is not dict:
            problems.append(f"{where}: {type(value).__name__} instead of a dict")
        else:
            for key, item in value.items():
                _check(key, args[0], f"{where} key", problems, todo)
                _check(item, args[1], f"{where}[{key!r}]", problems, todo)
    elif hint is None or hint is type(None):
        if value is not None:
            problems.append(f"{where}: {value!r} instead of None")
    elif isinstance(hint, type) and issubclass(hint, Frozen):
        if isinstance(value, hint):
            todo.append((value, where))
        else:
            problems.append(f"{where}: {type(value).__name__} instead of {hint.__name__}")
    elif isinstance(hint, type) and hint in (int, str, bool):
        if type(value) is not hint:
            problems.append(f"{where}: {type(value).__name__} {value!r} instead of {hint.__name__}")
    elif isinstance(hint, type) and not isinstance(value, hint):
        problems.append(f"{where}: {type(value).__name__} instead of {hint.__name__}")
