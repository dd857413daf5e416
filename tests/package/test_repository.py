"""The repository tracks sources only: no virtual environment, cache or build output."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

FORBIDDEN_DIRS = {
    ".venv", "venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis",
    "build", "dist", ".eggs", ".tox", ".nox",
}
FORBIDDEN_SUFFIXES = (".pyc", ".pyo", ".egg-info", ".whl")


def tracked_files() -> list[str]:
    """Every path git tracks in this checkout (skips the test outside a git checkout)."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    done = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    return [p for p in done.stdout.decode("utf-8", "replace").split("\0") if p]


def offending(paths: list[str]) -> list[str]:
    """The paths that lie under an environment, cache or build folder, or are build outputs."""
    bad = []
    for path in paths:
        parts = path.split("/")
        if FORBIDDEN_DIRS.intersection(parts[:-1]) or any(p.endswith(FORBIDDEN_SUFFIXES) for p in parts):
            bad.append(path)
    return bad


def test_no_environment_cache_or_build_output_is_tracked() -> None:
    bad = offending(tracked_files())
    assert not bad, f"{len(bad)} tracked paths should not be in git, e.g. {bad[:5]}"


def test_the_check_recognises_what_it_forbids() -> None:
    assert offending([
        ".venv/bin/python", "tricklang/__pycache__/model.cpython-311.pyc", "build/lib/tricklang/x.py",
        "dist/tricklang-0.1.0-py3-none-any.whl", "tricklang.egg-info/PKG-INFO", ".mypy_cache/x.json",
        "old.pyc",
    ]) == [
        ".venv/bin/python", "tricklang/__pycache__/model.cpython-311.pyc", "build/lib/tricklang/x.py",
        "dist/tricklang-0.1.0-py3-none-any.whl", "tricklang.egg-info/PKG-INFO", ".mypy_cache/x.json",
        "old.pyc",
    ]
    assert offending(["tricklang/model.py", "rules/ecarte.trick", "tests/golden/ecarte.txt", ".ci/run"]) == []


def test_the_license_is_an_spdx_expression_that_setuptools_reads_without_a_warning() -> None:
    """The table form (`license = { text = "MIT" }`) warns on every install and stops being
    supported in 2027; the string form needs setuptools 77 to build."""
    import tomllib
    import warnings

    from packaging.licenses import canonicalize_license_expression
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    license_ = config["project"]["license"]
    assert isinstance(license_, str) and canonicalize_license_expression(license_) == license_
    assert "setuptools>=77" in config["build-system"]["requires"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist = apply_configuration(Distribution(), ROOT / "pyproject.toml")
    assert not [w for w in caught if "license" in str(w.message)], [str(w.message)[:200] for w in caught]
    assert dist.metadata.license_expression == "MIT"


def test_speed_ratios_are_quoted_only_where_the_bench_output_is_dated() -> None:
    """Figures come from `make bench` output with its date and machine
    (benchmarks/RESULTS.md); the README and docs/ quote no "N×" ratio."""
    import re

    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    quoting = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in pages
               for m in re.finditer(r"[0-9][0-9.]*×", p.read_text(encoding="utf-8"))]
    assert quoting == []
