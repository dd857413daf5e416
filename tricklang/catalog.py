"""The bundled games: rule files shipped inside the package, found by name.

``rules/`` and ``examples/`` of the source tree are installed as the resource folders
``tricklang.rules`` and ``tricklang.examples`` (see ``pyproject.toml``), in a wheel and
in an editable install alike. A game's name is its file name without ``.trick``:
``ecarte``, ``cinch``, ``euchre``, ``oh-hell-5``...

>>> "ecarte" in bundled_games() and "euchre" in bundled_games()
True
>>> find_bundled("ecarte").name
'ecarte.trick'
>>> find_bundled("no-such-game") is None
True
"""

from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

RESOURCE_FOLDERS = ("tricklang.rules", "tricklang.examples")
"""The packages holding the bundled rule files, in order of precedence."""

SUFFIX = ".trick"


def _folders(package: str) -> list[Path]:
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


@lru_cache(maxsize=1)
def folders() -> tuple[Path, ...]:
    """The folders holding the bundled rule files (resolved), in order of precedence."""
    return tuple(folder.resolve() for package in RESOURCE_FOLDERS for folder in _folders(package))


@lru_cache(maxsize=1)
def bundled_games() -> dict[str, Path]:
    """Every bundled game's name and file, sorted by name."""
    games: dict[str, Path] = {}
    for folder in folders():
        for file in sorted(folder.glob("*" + SUFFIX)):
            games.setdefault(file.stem, file)
    return dict(sorted(games.items()))


def find_bundled(name: str) -> Path | None:
    """The file of the bundled game called ``name`` (``ecarte``; ``ecarte.trick`` also works), or None."""
    if "/" in name or "\\" in name:
        return None
    stem = name[: -len(SUFFIX)] if name.endswith(SUFFIX) else name
    return bundled_games().get(stem)


def resolve(source: str | Path) -> Path:
    """The rule file that ``source`` names: a path when that file exists (a path always wins
    over a name), else the bundled game of that name, else the path unchanged (so that
    reading it reports the missing file)."""
    path = Path(source)
    if isinstance(source, Path) or _is_file(path):
        return path
    return find_bundled(source) or path


def _is_file(path: Path) -> bool:
    """Whether ``path`` is an existing file; False for a name the system refuses
    (too long, a NUL character), so that reading it reports ``unreadable-file``."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def laws_file() -> Path | None:
    """The bundled ``laws.md`` (the law coverage table of Écarté and Cinch), or None."""
    for folder in folders():
        if (folder / "laws.md").is_file():
            return folder / "laws.md"
    return None
