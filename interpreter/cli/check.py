"""`tricklang check`, `tricklang options` and `tricklang explain`: what a rule file says,
without playing it."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from tricklang import RulesError
from tricklang.diagnostics import printable, shown_and_counted, source_lines

from .common import Subparsers, json_text, load, plural, show

if TYPE_CHECKING:
    from tricklang import checkcache
    from tricklang.diagnostics import Diagnostic


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommands ``check``, ``options`` to the ``tricklang`` parser."""
    p = sub.add_parser("check", parents=[opts], help="check rule files and report every problem",
                       description="Parse and check rule files. Prints 'FILE: ok' (warnings go to stderr), "
                       "or every diagnostic with its source line.")
    p.add_argument("files", nargs="+", metavar="FILE", help="rule files (.trick)")
    p.add_argument("--json", action="store_true", help="print the results as JSON (for editors and CI)")
    p.add_argument("--no-cache", action="store_true",
                   help="check in full even when the cache holds this file's result (see TRICKLANG_CACHE_DIR)")
    p.set_defaults(run=cmd_check)
    p = sub.add_parser("options", parents=[opts], help="list a rule file's options",
                       description="List the options of a rule file: type, default, allowed values, meaning and laws.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.add_argument("--json", action="store_true", help="print the options as JSON")
    p.set_defaults(run=cmd_options)


def register_explain(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``explain`` to the ``tricklang`` parser."""
    p = sub.add_parser("explain", parents=[opts], help="the rules as readable Markdown",
                       description="Print the rules as Markdown prose generated from the rule file, "
                       "each rule with the laws it cites. Options set with -o are shown with their values.")
    p.add_argument("file", metavar="FILE", help="rule file")
    p.set_defaults(run=cmd_explain)


def cmd_check(args: argparse.Namespace) -> int:
    results: list[dict[str, Any]] = []
    failed = False
    options = dict(args.options) if getattr(args, "options", None) else {}
    for path in args.files:
        key, cached = None, None
        if not (args.no_cache or "\n" in path):  # the cache's module is imported only to use it
            from tricklang import checkcache

            key = checkcache.key_of(path, options)
            cached = checkcache.lookup(key) if key is not None else None
        source: str | None
        game: str | None
        if cached is not None and key is not None:  # (rendered again, escaped, from the warnings' fields)
            ok, game, diagnostics, source = True, cached.game, list(cached.warnings), key.text
        else:
            ok, game, diagnostics, source = _check(path, args, key, options)
        failed = failed or not ok
        errors = sum(d.severity == "error" for d in diagnostics)
        warnings = len(diagnostics) - errors
        first, more = shown_and_counted(diagnostics)
        lines = source_lines(source) if source is not None else None
        results.append({"path": path, "ok": ok, "game": game, "errors": errors, "warnings": warnings,
                        "diagnostics": [d.to_dict() for d in first],
                        **({"not_shown": len(diagnostics) - len(first)} if more else {})})
        if args.json:
            continue
        for d in first:
            print(d.render(lines), file=sys.stderr)
        if more:
            print(more, file=sys.stderr)
        if ok:
            print(f"{path}: ok" + (f" ({plural(warnings, 'warning')})" if warnings else ""))
        elif len(diagnostics) > 1:
            print(f"{path}: {plural(errors, 'error')}" + (f", {plural(warnings, 'warning')}" if warnings else ""),
                  file=sys.stderr)
    if args.json:
        print(json_text({"ok": not failed, "files": results}))
    return 1 if failed else 0


def _check(path: str, args: argparse.Namespace, key: checkcache.Key | None, options: dict[str, str]
           ) -> tuple[bool, str | None, list[Diagnostic], str | None]:
    """Check a rule file in full: (passed, game, its diagnostics, the text they are about);
    a file that passes is stored in the cache under ``key``.

    Raises:
        OptionError: a bad ``-o`` option.
    """
    diagnostics: list[Diagnostic] = []
    source: str | None
    game: str | None
    try:
        if key is None:
            ruleset = load(path, args)
        else:
            from tricklang.ruleset import load_tracked

            ruleset, bases = load_tracked(path, options=options or None)
        diagnostics = list(ruleset.warnings)
        source, game, ok = ruleset.source, ruleset.name, True
    except RulesError as err:
        diagnostics = list(err.diagnostics) + list(err.warnings)
        source, game, ok = err.source, None, False
    if ok and key is not None and game is not None:
        from tricklang import checkcache

        checkcache.store(key, ruleset.source, bases, ruleset.bases, checkcache.CheckResult(game, tuple(diagnostics)))
    return ok, game, diagnostics, source


def cmd_options(args: argparse.Namespace) -> int:
    from tricklang.explain import allowed

    ruleset = load(args.file, args)
    specs = ruleset.option_specs()
    rows = []
    for o in specs:
        rows.append({
            "name": o.name, "type": o.type, "default": o.default, "value": ruleset.options[o.name],
            "low": o.low, "high": o.high, "choices": list(o.choices), "doc": o.doc,
            "laws": list(o.cite.laws) if o.cite else [],
        })
    if args.json:
        print(json_text({"game": ruleset.name, "path": ruleset.path, "options": rows}))
        return 0

    def say(text: str = "") -> None:  # (the rule file's text, escaped: no control or bidi character reaches the terminal)
        print(printable(text))

    if not specs:
        say(f"{ruleset.name} ({ruleset.path}) has no options.")
        return 0
    say(f"{ruleset.name} ({ruleset.path}): {plural(len(specs), 'option')}; set with -o NAME=VALUE")
    for o, row in zip(specs, rows, strict=True):
        value = show(row["value"])
        changed = f" (default {show(o.default)})" if row["value"] != o.default else ""
        laws = f"  [{', '.join(o.cite.laws)}]" if o.cite else ""
        say()
        say(f"{o.name} = {value}{changed}{laws}")
        say(f"    {o.type}: {allowed(o).replace('`', '')}; default {show(o.default)}")
        if o.doc:
            say(f"    {o.doc}")
    return 0



def cmd_explain(args: argparse.Namespace) -> int:
    from tricklang.explain import explain

    sys.stdout.write(printable(explain(load(args.file, args)), keep_newlines=True))
    return 0
