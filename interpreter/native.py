"""Native builds (optional): a ruleset's generated module (:mod:`interpreter.codegen`)
compiled to a C extension with Cython, for long random playouts and simulations.

For example (a build is tested in ``tests/integrations/test_native.py``, not here)::

    build = accelerate(tricklang.load("ecarte"))   # about 11 s of CPU the first time
    build.cached, build.path.name                   # (False, 'tricklang_native_<digest>.cpython-311-...so')

From then on every new game of that ruleset and its options in this process (and every
state rebuilt from a record of it) runs the compiled module: the same source as the
Python module (:mod:`interpreter.codegen` writes it typed for Cython's pure-Python mode,
with a ``.pxd`` that types the core), the same draws and the same results. The state
(:mod:`interpreter.state`) stays Python and calls the module's functions.

What it needs: Cython and setuptools (``pip install 'tricklang[native]'``) and the C
compiler Python was built with. A build takes about 11 s of CPU for Écarté (Cython, then
gcc ``-O1``); it runs in a child process, with a time limit (:data:`TIMEOUT`) and a memory
limit (:data:`MEMORY_LIMIT`). Extensions are kept in the check cache's folder
(:func:`tricklang.checkcache.cache_dir`, under ``native/``), keyed by the SHA-256 of the
generated source and its declarations, tricklang's and Python's versions and the build
settings; with the cache off (or not private), each process builds its own in a
temporary folder.

Rule files are untrusted; the generated source holds no text of the rule file (only our
identifiers and ints), and before it is compiled every global name it reads is checked
to be one it defines or imports, one of the C helpers its declarations give it, or one
of the builtins it may read (:data:`interpreter.codegen.module.GENERATED_BUILTINS`), and
no attribute it reads is a dunder (but ``Core.__new__``). What the cache trusts, and how
only verified bytes are loaded, is :mod:`interpreter.native_cache`: an extension this
tool did not store there, in a folder only this user can change, is never loaded (it is
built again in its place).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import importlib.util
import json
import re
import shutil
import subprocess
import symtable
import sys
import sysconfig
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tricklang
from tricklang import Ruleset
from tricklang.checkcache import cache_dir
from tricklang.private import NotPrivateError

from . import native_cache
from .codegen import generate
from .codegen.module import GENERATED_BUILTINS
from .codegen.native_c import C_NAMES
from .errors import ArgumentError, NativeBuildError
from .state.compiled import use_module

FORMAT = 3
"""Bumped whenever how a module is built or loaded changes (it is part of the key)."""

CFLAGS = ("-O1", "-g0", "-finline-small-functions", "-fpartial-inlining", "-findirect-inlining",
          "-foptimize-sibling-calls", "-fipa-cp")
"""The C compiler's flags (after Python's own: the last ``-O`` counts). ``-O1`` builds in
about 60 % of the time of ``-O2`` (Écarté: 8 s of gcc against 12.5 s); with ``-O2``'s
inlining of small functions (the module's many small helpers: ``_pc``, ``_low``,
``_next_with_cards``...) and calls, it runs Écarté's random matches about 3 % slower than
``-O2`` instead of 7-10 %, in no more time. ``-O0`` runs slower than Python."""

DIRECTIVES = {"language_level": 3, "binding": False, "infer_types": True, "auto_pickle": False,
              "emit_code_comments": False}
"""Cython's directives: locals typed from what they are given (the generated source keeps
its integers within 64 bits: checked arithmetic, Python ints where a value may be wider);
bounds and wrap-around checks stay on. No pickling code for the core (a state is saved as
its JSON, a core is copied by the module's ``copy``) and no source lines quoted in the C:
the same machine code from less C to read."""

TIMEOUT = 900.0
"""Seconds a build may take, by default."""

MEMORY_LIMIT = 4_000_000_000
"""Bytes of address space the build's child process, and each compiler process it starts,
may use (``RLIMIT_AS``, where the system has it); a build that needs more fails with
:class:`NativeBuildError`. Écarté's build needs about 0.5 GB."""

MAX_CACHED = 64
"""Extensions kept in the cache's folder; storing one more removes the oldest (by the
time each was last built or loaded)."""

MAX_NATIVE = 32
"""The most rulesets (with their options) native in one process: their programs are never
let go (an extension module cannot be loaded twice)."""

_BUILD_SCRIPT = """
import json, sys
try:
    import resource
    limit = int(sys.argv[5])
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))  # (the compiler's processes inherit it)
except (ImportError, ValueError, OSError):
    pass
from Cython.Build import cythonize
from setuptools import Extension
from setuptools.dist import Distribution
source, folder, name, directives = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
try:
    ext = Extension(name, [source], extra_compile_args=sys.argv[6:])
    exts = cythonize([ext], quiet=True, compiler_directives=directives, build_dir=folder)
    dist = Distribution({"ext_modules": exts, "script_args": ["--quiet"]})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = folder
    cmd.build_temp = folder + "/tmp"
    cmd.ensure_finalized()
    cmd.run()
except MemoryError:
    print("error: out of memory", file=sys.stderr)
    sys.exit(1)
except Exception as err:  # the compiler's own messages are above; the command line is not needed
    print(f"{type(err).__name__}: " + ("the command failed" if str(err).startswith("Command") else str(err)),
          file=sys.stderr)
    sys.exit(1)
"""


@dataclass(frozen=True)
class NativeBuild:
    """A native build in use: the extension's file (removed once loaded when it is not
    kept in the cache), its module name, whether it came from the cache, the seconds the
    build took (0 when cached), and why it is not kept in the cache (None when it is)."""

    path: Path
    name: str
    cached: bool
    seconds: float
    not_kept: str | None = None


_BUILDS: dict[tuple[str, str], NativeBuild] = {}
"""The build in use for each ruleset (its digest and options)."""

_LOADED: dict[str, tuple[dict[str, Any], NativeBuild]] = {}
"""Each loaded extension's namespace (an extension is loaded once a process) and its build."""


def unavailable() -> str | None:
    """Why native builds cannot be made here, or None when they can."""
    missing = [m for m in ("Cython", "setuptools") if importlib.util.find_spec(m) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (pip install 'tricklang[native]')"
    cc = (sysconfig.get_config_var("CC") or "cc").split()
    if not cc or shutil.which(cc[0]) is None:
        return f"no C compiler ({cc[0] if cc else 'cc'} not found)"
    return None


def accelerate(ruleset: Ruleset, *, timeout: float = TIMEOUT) -> NativeBuild:
    """Build (or load from the cache) the native module of ``ruleset`` and its options, and
    use it for every new game of them in this process; returns the build. Called again
    for the same ruleset and options, returns the build in use at once.

    Raises:
        TypeError: ``ruleset`` is not a :class:`~tricklang.Ruleset`.
        NativeBuildError: native builds cannot be made here (:func:`unavailable`), the
            build failed or took more than ``timeout`` seconds, the extension cannot be
            loaded, or :data:`MAX_NATIVE` rulesets are native already.
        ArgumentError: ``timeout`` is not a positive number.
    """
    if not isinstance(ruleset, Ruleset):
        raise TypeError(f"accelerate() takes a Ruleset (from tricklang.load), not {type(ruleset).__name__}")
    if type(timeout) not in (int, float) or not 0 < timeout < float("inf"):
        raise ArgumentError(f"timeout must be a positive number of seconds, not {timeout!r}")
    key = (ruleset.digest, repr(sorted(ruleset.options.items())))
    if key in _BUILDS:
        return _BUILDS[key]
    why = unavailable()
    if why is not None:
        raise NativeBuildError(f"native builds need Cython, setuptools and a C compiler: {why}")
    if len(_BUILDS) >= MAX_NATIVE:
        raise NativeBuildError(f"at most {MAX_NATIVE} rulesets (with their options) can be native in one process")
    gen = generate(ruleset)
    check_source(gen.source)
    name = module_name(gen.source + "\0" + gen.pxd)
    found = _LOADED.get(name)
    if found is None:
        build, namespace = _built(gen.source, gen.pxd, name, timeout)
        _LOADED[name] = found = (namespace, build)
    use_module(ruleset, found[0])
    _BUILDS[key] = found[1]
    return found[1]


def module_name(source: str, prefix: str = "tricklang_native_") -> str:
    """The extension's module name: ``prefix`` and a digest of ``source`` (for a ruleset's
    module, its digest and options too) and of all that shapes its build."""
    head = repr((FORMAT, tricklang.__version__, sys.implementation.cache_tag, sys.platform,
                 sysconfig.get_config_var("EXT_SUFFIX"), _cython_version(), CFLAGS, sorted(DIRECTIVES.items())))
    return prefix + hashlib.sha256(head.encode() + b"\0" + source.encode()).hexdigest()[:32]


def check_source(source: str) -> None:
    """Check generated source before it is compiled: every global name it reads is
    defined or imported by it, or a builtin, and no attribute it reads is a dunder.

    Raises:
        NativeBuildError: a name or attribute that may not be there (a bug of the generator).
    """
    top = symtable.symtable(source, "<tricklang generated>", "exec")
    defined = {s.get_name() for s in top.get_symbols() if s.is_assigned() or s.is_imported()}
    read: set[str] = set()
    tables = [top]
    while tables:
        table = tables.pop()
        for sym in table.get_symbols():
            if sym.is_global() or (table is top and sym.is_referenced()):
                read.add(sym.get_name())
        tables.extend(table.get_children())
    allowed = defined | GENERATED_BUILTINS | C_NAMES
    stray = sorted(n for n in read if n not in allowed or n.startswith("__"))
    if stray:
        raise NativeBuildError(f"the generated source reads names it may not: {', '.join(stray[:5])}")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("__") and not _core_new(node):
            raise NativeBuildError(f"the generated source reads a dunder attribute: {node.attr}")


def _core_new(node: ast.Attribute) -> bool:
    """``Core.__new__``: the one dunder the generated source reads (copying a core)."""
    return node.attr == "__new__" and isinstance(node.value, ast.Name) and node.value.id == "Core"


def _cython_version() -> str:
    try:
        return importlib.metadata.version("cython")
    except importlib.metadata.PackageNotFoundError:
        return "none"


def _built(source: str, pxd: str, name: str, timeout: float) -> tuple[NativeBuild, dict[str, Any]]:
    """The extension ``name`` of ``source`` (typed by ``pxd``), from the cache
    (:mod:`interpreter.native_cache`: only what it verifies) or built; and its namespace.

    Raises:
        NativeBuildError: as :func:`accelerate`.
    """
    file = name + native_cache.SUFFIX
    cache, why = _cache()
    try:
        if cache is not None:
            data = cache.read(file)
            if data is not None:
                try:
                    loaded = native_cache.load_extension(data, name, {}, cache.path)
                    return NativeBuild(cache.path / file, name, True, 0.0), loaded
                except NativeBuildError:
                    if native_cache.is_loaded(name):
                        raise
                    # (this tool's own file that does not load here: built again below, in its place)
        start = time.monotonic()
        try:
            work = cache.workspace("build-") if cache is not None else Path(tempfile.mkdtemp(prefix="tricklang-build-"))
        except OSError as err:
            raise NativeBuildError(f"no folder to build in: {err.strerror or err}") from None
        try:
            data = native_cache.built_bytes(_compile(source, pxd, work, name, timeout))
            path = work / file
            if cache is not None:
                try:
                    path = cache.store(file, data)
                    cache.prune(keep=file, most=MAX_CACHED)
                except OSError as err:
                    why = f"it cannot be stored in the cache: {err.strerror or err}"
            loaded = native_cache.load_extension(data, name, {}, cache.path if cache is not None else None)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return NativeBuild(path, name, False, time.monotonic() - start, why), loaded
    finally:
        if cache is not None:
            cache.close()


def _cache() -> tuple[native_cache.NativeCache | None, str | None]:
    """The cache's ``native`` folder, open; or None and why the cache is not used (off,
    or a folder on its path others could change)."""
    base = cache_dir()
    if base is None:
        return None, "the cache is off (TRICKLANG_CACHE_DIR)"
    try:
        return native_cache.NativeCache.open(base), None
    except NotPrivateError as err:
        return None, f"the cache is not used: {err}"


_OUT_OF_MEMORY = re.compile(r"out of memory|memory exhausted|MemoryError|cannot allocate memory|std::bad_alloc",
                            re.IGNORECASE)
_COMPILE_ERROR = re.compile(r"Error compiling Cython file|(^|[\s:])(fatal )?error:")


def _compile(source: str, pxd: str, work: Path, name: str, timeout: float) -> Path:
    """Cython and the C compiler, in a child process, on ``source`` and its ``pxd`` written
    to ``work`` as module ``name``; returns the extension built in ``work``.

    Raises:
        NativeBuildError: the build failed, took more than ``timeout`` seconds or needed
            more than :data:`MEMORY_LIMIT` bytes.
    """
    module = work / (name + ".py")
    module.write_text(source, encoding="utf-8")
    (work / (name + ".pxd")).write_text(pxd, encoding="utf-8")
    command = [sys.executable, "-c", _BUILD_SCRIPT, str(module), str(work), name, json.dumps(DIRECTIVES),
               str(int(MEMORY_LIMIT)), *CFLAGS]
    try:
        done = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise NativeBuildError(f"the native build took more than {timeout:g} s") from None
    except OSError as err:
        raise NativeBuildError(f"the native build could not start: {err}") from None
    built = [p for p in work.iterdir() if p.name.startswith(name) and p.suffix in (".so", ".pyd")]
    if done.returncode != 0 or not built:
        lines = [line for line in (done.stderr or "").splitlines() if line.strip() and "warning:" not in line]
        limit = f"{MEMORY_LIMIT / 1e6:,.0f} MB of memory (interpreter.native.MEMORY_LIMIT)"
        if any(_OUT_OF_MEMORY.search(line) for line in lines):
            raise NativeBuildError(f"the native build needed more than {limit}")
        if not any(_COMPILE_ERROR.search(line) for line in lines):
            # Under an address-space limit, an allocation failing deep in the compiler or in
            # CPython often surfaces as anything but a memory error (a SystemError, a signal,
            # nothing at all); a build that stops without a compiler's error is reported so.
            said = (lines[-1:] or [f"exit status {done.returncode}"])[0]
            raise NativeBuildError(f"the native build stopped without a compiler error ({said}); "
                                   f"most likely it needed more than {limit}")
        errors = [line for line in lines if "error" in line.lower()]
        raise NativeBuildError("the native build failed:\n  " + "\n  ".join((errors or lines)[-8:] or ["(no message)"]))
    return built[0]


__all__ = ["NativeBuild", "NativeBuildError", "accelerate", "check_source", "module_name", "unavailable"]
