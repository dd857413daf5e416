"""Native builds (optional): a ruleset's generated module (:mod:`interpreter.codegen`)
compiled to a C extension with Cython, for long random playouts and simulations.

For example (a build is tested in ``tests/integrations/test_native.py``, not here)::

    build = accelerate(tricklang.load("ecarte"))   # about half a minute the first time
    build.cached, build.path.name                   # (False, 'tricklang_native_<digest>.cpython-311-...so')

From then on every new game of that ruleset and its options in this process (and every
state rebuilt from a record of it) runs the compiled module: the same source as the
Python module (:mod:`interpreter.codegen` writes it typed for Cython's pure-Python mode,
with a ``.pxd`` that types the core), the same draws and the same results. The state
(:mod:`interpreter.state`) stays Python and calls the module's functions.

What it needs: Cython and setuptools (``pip install 'tricklang[native]'``) and the C
compiler Python was built with. A build takes about half a minute for Écarté (gcc
``-O1``); it runs in a child process, with a time limit. Extensions are kept in the
check cache's folder (:func:`tricklang.checkcache.cache_dir`, under ``native/``), keyed
by the SHA-256 of the rules and options, the generated source, tricklang's and Python's
versions and the build settings; with the cache off, each process builds its own in a temporary folder.

Rule files are untrusted; the generated source holds no text of the rule file (only our
identifiers and ints), and before it is compiled every global name it reads is checked
to be one it defines or imports, or a builtin, and no attribute it reads is a dunder. A
cached extension is loaded only from a folder and a file that belong to this user and
that no one else may write; any other is built again.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import hashlib
import importlib.machinery
import importlib.metadata
import importlib.util
import json
import os
import shutil
import stat
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

from .codegen import generate
from .codegen.native_c import C_NAMES
from .errors import ArgumentError, GameError
from .state.compiled import use_module

FORMAT = 1
"""Bumped whenever how a module is built or loaded changes (it is part of the key)."""

CFLAGS = ("-O1", "-g0")
"""The C compiler's flags (after Python's own: the last ``-O`` counts). ``-O1`` builds in
about half the time of ``-O2`` and runs as fast; ``-O0`` runs slower than Python."""

DIRECTIVES = {"language_level": 3, "binding": False}
"""Cython's directives (bounds and wrap-around checks stay on)."""

TIMEOUT = 900.0
"""Seconds a build may take, by default."""

MAX_CACHED = 64
"""Extensions kept in the cache's folder; storing one more removes the oldest (by the
time each was last built or loaded)."""

MAX_NATIVE = 32
"""The most rulesets (with their options) native in one process: their programs are never
let go (an extension module cannot be loaded twice)."""

_BUILD_SCRIPT = """
import json, sys
from Cython.Build import cythonize
from setuptools import Extension
from setuptools.dist import Distribution
source, folder, name, directives = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])
try:
    ext = Extension(name, [source], extra_compile_args=sys.argv[5:])
    exts = cythonize([ext], quiet=True, compiler_directives=directives, build_dir=folder)
    dist = Distribution({"ext_modules": exts, "script_args": ["--quiet"]})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = folder
    cmd.build_temp = folder + "/tmp"
    cmd.ensure_finalized()
    cmd.run()
except Exception as err:  # the compiler's own messages are above; the command line is not needed
    print(f"{type(err).__name__}: " + ("the command failed" if str(err).startswith("Command") else str(err)),
          file=sys.stderr)
    sys.exit(1)
"""


class NativeBuildError(GameError):
    """A native build cannot be made or loaded: Cython, setuptools or the C compiler is
    missing, the build failed or took too long, or the generated source failed its check."""


@dataclass(frozen=True)
class NativeBuild:
    """A native build in use: the extension's file (removed once loaded when the cache is
    off), its module name, whether it came from the cache, and the seconds the build took
    (0 when cached)."""

    path: Path
    name: str
    cached: bool
    seconds: float


_BUILDS: dict[tuple[str, str], NativeBuild] = {}
"""The build in use for each ruleset (its digest and options)."""

_NAMES: set[str] = set()
"""The extensions loaded in this process (one load each: :func:`_load`)."""

_LOADED: dict[str, tuple[Any, NativeBuild]] = {}
"""Each loaded extension (an extension is loaded once a process) and its build."""


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
        build, module = _built(gen.source, gen.pxd, name, timeout)
        _LOADED[name] = found = (module, build)
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
    allowed = defined | set(vars(builtins)) | C_NAMES
    stray = sorted(n for n in read if n not in allowed or n.startswith("__"))
    if stray:
        raise NativeBuildError(f"the generated source reads names it may not: {', '.join(stray[:5])}")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("__"):
            raise NativeBuildError(f"the generated source reads a dunder attribute: {node.attr}")


def _cython_version() -> str:
    try:
        return importlib.metadata.version("cython")
    except importlib.metadata.PackageNotFoundError:
        return "none"


def _built(source: str, pxd: str, name: str, timeout: float) -> tuple[NativeBuild, Any]:
    """The extension ``name`` of ``source`` (typed by ``pxd``), from the cache or built; and
    the loaded module.

    Raises:
        NativeBuildError: as :func:`accelerate`.
    """
    folder = _folder()
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    if folder is not None:
        path = folder / (name + suffix)
        if _trusted(path):
            try:
                loaded = _load(path, name)
                with contextlib.suppress(OSError):
                    os.utime(path)  # (recently used: kept longest)
                return NativeBuild(path, name, True, 0.0), loaded
            except NativeBuildError:  # (a damaged file: built again below, in its place)
                pass
    start = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="build-", dir=folder))
    try:
        built = _compile(source, pxd, work, name, timeout)
        if folder is None:  # no cache: the build's folder goes once the extension is loaded
            loaded = _load(built, name)
            return NativeBuild(built, name, False, time.monotonic() - start), loaded
        path = folder / (name + suffix)
        os.replace(built, path)  # (atomic: a concurrent build of the same module writes the same file)
    finally:  # (a loaded extension's file may go: the process keeps it mapped)
        shutil.rmtree(work, ignore_errors=True)
    _prune(folder, keep=path)
    return NativeBuild(path, name, False, time.monotonic() - start), _load(path, name)


def _prune(folder: Path, keep: Path) -> None:
    """Remove the oldest extensions beyond :data:`MAX_CACHED` (never ``keep``); a file
    removed while another process runs it stays mapped there."""
    try:
        found = [(p.stat().st_mtime, p) for p in folder.glob("tricklang_native_*") if p != keep]
    except OSError:
        return
    found.sort()
    for _, old in found[:max(0, len(found) + 1 - MAX_CACHED)]:
        try:
            old.unlink()
        except OSError:
            pass


def _folder() -> Path | None:
    """The cache's ``native`` folder (made, this user's only), or None when the cache is off
    or the folder cannot be made or trusted."""
    base = cache_dir()
    if base is None:
        return None
    folder = base / "native"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return folder if _owned(folder, stat.S_ISDIR) else None


def _owned(path: Path, kind: Any) -> bool:
    """Whether ``path`` is of this ``kind`` (``stat.S_ISDIR``...), belongs to this user and
    may be written by no one else."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    mine = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return bool(kind(info.st_mode)) and mine and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _trusted(path: Path) -> bool:
    """Whether a cached extension may be loaded: a regular file, as :func:`_owned`."""
    return _owned(path, stat.S_ISREG)


def _compile(source: str, pxd: str, work: Path, name: str, timeout: float) -> Path:
    """Cython and the C compiler, in a child process (with a memory limit), on ``source``
    and its ``pxd`` written to ``work`` as module ``name``; returns the extension built.

    Raises:
        NativeBuildError: the build failed or took more than ``timeout`` seconds.
    """
    module = work / (name + ".py")
    module.write_text(source, encoding="utf-8")
    (work / (name + ".pxd")).write_text(pxd, encoding="utf-8")
    command = [sys.executable, "-c", _BUILD_SCRIPT, str(module), str(work), name, json.dumps(DIRECTIVES), *CFLAGS]
    try:
        done = subprocess.run(command, cwd=work, capture_output=True, text=True, timeout=timeout, check=False,
                              preexec_fn=_limit_memory if hasattr(os, "fork") else None)  # noqa: PLW1509
    except subprocess.TimeoutExpired:
        raise NativeBuildError(f"the native build took more than {timeout:g} s") from None
    except OSError as err:
        raise NativeBuildError(f"the native build could not start: {err}") from None
    built = [p for p in work.iterdir() if p.name.startswith(name) and p.suffix in (".so", ".pyd")]
    if done.returncode != 0 or not built:
        lines = [line for line in (done.stderr or "").splitlines() if line.strip() and "warning:" not in line]
        errors = [line for line in lines if "error" in line.lower()]
        raise NativeBuildError("the native build failed:\n  " + "\n  ".join((errors or lines)[-8:] or ["(no message)"]))
    return built[0]


MAX_BUILD_MEMORY = 4 << 30
"""Bytes of address space a build's child process may use."""


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MAX_BUILD_MEMORY, MAX_BUILD_MEMORY))


def _load(path: Path, name: str) -> Any:
    """Load the extension (not into ``sys.modules``); returns the module.

    Raises:
        NativeBuildError: it cannot be loaded.
    """
    if name in _NAMES:  # (a second load would give the first module)
        raise NativeBuildError(f"the native module {name} is loaded already in this process")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise NativeBuildError(f"cannot load the native module {path}")
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except (ImportError, OSError) as err:
        raise NativeBuildError(f"cannot load the native module {path}: {err}") from None
    _NAMES.add(name)
    return module
