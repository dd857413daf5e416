"""`tricklang list`: the bundled games, which every command takes by name
(``tricklang play cinch``, ``tricklang.load("ecarte")``, ``extends "euchre"``)."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import tricklang
from tricklang.catalog import bundled_games

from .common import Subparsers

_SENTENCE = re.compile(r"(.+?[.!?])(\s|$)")


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``list`` to the ``tricklang`` parser."""
    p = sub.add_parser("list", help="the bundled games, with one line each",
                       description="List the games shipped with tricklang: the name to give any command "
                       "instead of a file, the game, its number of options and a one-line description.")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(run=cmd_list)


def describe(text: str) -> str:
    """The first sentence of a rule file's opening comment (its one-line description), or ''."""
    words: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("#"):
            break
        body = stripped.lstrip("#").strip()
        if not body:
            if words:
                break
            continue
        words.append(body)
    joined = " ".join(words)
    found = _SENTENCE.match(joined)
    return found.group(1) if found else joined


def entries() -> list[dict[str, object]]:
    """Name, game, options count, description and file of every bundled game.

    Raises:
        RulesError: a bundled rule file does not load (a broken installation).
    """
    out: list[dict[str, object]] = []
    for name, file in bundled_games().items():
        rules = tricklang.load(file)
        out.append({"name": name, "game": rules.name, "options": len(rules.options),
                    "description": describe(rules.source), "file": str(Path(file))})
    return out


def cmd_list(args: argparse.Namespace) -> int:
    games = entries()
    if args.json:
        print(json.dumps(games, indent=2, ensure_ascii=False))
        return 0
    width = max((len(str(g["name"])) for g in games), default=4)
    for game in games:
        count = f"{game['options']} option" + ("" if game["options"] == 1 else "s")
        print(f"{game['name']:<{width}}  {count:<10}  {game['description']}")
    return 0
