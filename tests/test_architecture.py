"""The shape of the code: imports run one way and never in a circle; modules and functions stay small.

Every import statement of ``tricklang/`` and ``interpreter/`` is read from the
source (also imports inside functions, which a lazy cycle hides in, and imports under
``if TYPE_CHECKING:``, which a type-only cycle hides in: a module that needs another's
types only gets a narrow protocol or an argument instead), and:

* nothing in ``tricklang/`` (the language) imports ``interpreter/`` (the runtime);
* the graph of module imports has no cycle.

Each module is also read whole: none is over 600 lines, no function over 60.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("tricklang", "interpreter")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module (type-only ones included)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _known(name: str) -> str | None:
    """The module of ours that importing ``name`` runs last (a package's ``__init__`` or a module)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports_of(module: str) -> set[str]:
    """The modules of tricklang/ and interpreter/ that a module imports when it runs."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: set[str] = set()
    for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # `from . import model` imports the submodule; `from .x import name` the module x
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        for target in targets:
            known = _known(target)
            if known is not None and known != module:
                out.add(known)
    return out


GRAPH = {module: imports_of(module) for module in MODULES}


def _cycles() -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(GRAPH[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(GRAPH):
        if v not in index:
            connect(v)
    return found


def test_the_import_graph_is_read() -> None:
    assert "tricklang.checker" in GRAPH["tricklang.ruleset"]
    assert "tricklang.ruleset" in GRAPH["interpreter.codegen.layout"] or "tricklang" in GRAPH["interpreter.codegen.layout"]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.split(".")[0] == "tricklang"))
def test_the_language_never_imports_the_runtime(module: str) -> None:
    runtime = sorted(m for m in GRAPH[module] if m.split(".")[0] == "interpreter")
    assert not runtime, f"{module} imports {runtime}"


KNOWN_CYCLES: list[list[str]] = []


def test_no_import_cycle() -> None:
    assert [c for c in _cycles() if c not in KNOWN_CYCLES] == []


def test_a_cycle_would_be_found() -> None:
    saved = set(GRAPH["tricklang.model"])
    GRAPH["tricklang.model"].add("tricklang.checker")  # checker imports model: a planted cycle
    try:
        assert any("tricklang.model" in c and "tricklang.checker" in c for c in _cycles())
    finally:
        GRAPH["tricklang.model"] = saved


# ---------------------------------------------------------------- one list of diagnostic codes

_CODE_SHAPE = __import__("re").compile(r"[a-z]+(-[a-z]+)+")
_REPORTERS = ("Diagnostic", "error", "warn", "_error", "_warn", "_add")


def _codes_reported(path: Path) -> set[str]:
    """Codes passed to Diagnostic(...), error(...), warn(...) and the like."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        for arg in node.args[:2]:  # Diagnostic(code, ...), error(code, ...), _error(rules, code, ...)
            if name in _REPORTERS and isinstance(arg, ast.Constant) and isinstance(arg.value, str) \
                    and _CODE_SHAPE.fullmatch(arg.value):
                found.add(arg.value)
    return found


def test_every_diagnostic_code_is_listed_once_in_diagnostics() -> None:
    from tricklang.diagnostics import CODES

    reported = set().union(*(_codes_reported(p) for p in MODULES.values()))
    assert reported, "no code found: the scan is broken"
    assert sorted(reported - set(CODES)) == [], "add the new codes to tricklang.diagnostics.CODES"
    assert sorted(set(CODES) - reported) == [], "codes listed but never reported"


# ---------------------------------------------------------------- one list of events


def _event_types(path: Path) -> set[str]:
    """The ``type`` of every event literal (``{"type": "trick", ...}``) in a module."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant) \
                        and isinstance(value.value, str):
                    found.add(value.value)
    return found


def test_every_event_type_is_listed_once_in_the_transcript() -> None:
    from interpreter.transcript import EVENTS

    # (the server's websocket messages, interpreter.serve, are not game events)
    emitted = set().union(*(_event_types(p) for name, p in MODULES.items()
                            if name.startswith("interpreter.") and not name.startswith("interpreter.serve.")))
    assert {"deal", "trick", "score"} <= emitted, "the scan is broken"
    assert sorted(emitted - set(EVENTS)) == [], "add the new event types to interpreter.transcript.EVENTS"


# ---------------------------------------------------------------- small modules and functions

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
SIZE_EXCEPTIONS: dict[str, str] = {}
"""``module`` or ``module:function`` -> the reason it may be longer (none today: keep it so)."""


def oversized(name: str, text: str) -> list[str]:
    """A module over :data:`MAX_MODULE_LINES` lines, and each function (method, nested
    function) over :data:`MAX_FUNCTION_LINES` lines from its ``def`` to its last line."""
    found = []
    if len(text.splitlines()) > MAX_MODULE_LINES:
        found.append(f"{name} ({len(text.splitlines())} lines)")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                found.append(f"{name}:{node.name} (line {node.lineno}, {length} lines)")
    return found


def test_no_module_over_600_lines_and_no_function_over_60() -> None:
    found = [f for name, path in MODULES.items() for f in oversized(name, path.read_text(encoding="utf-8"))]
    assert [f for f in found if f.split(" ")[0] not in SIZE_EXCEPTIONS] == [], \
        "split it by job (a module) or into steps (a function); see docs/architecture.md"


def test_an_oversized_module_or_function_would_be_found() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(60))
    text = f"def long():\n{body}\n\nclass C:\n    def short(self):\n        pass\n" + "\n" * 600
    assert oversized("m", text) == ["m (666 lines)", "m:long (line 1, 61 lines)"]
    assert oversized("m", "def f():\n" + body[: -len("    x59 = 59\n")]) == []
