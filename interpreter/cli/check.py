"""`tricklang check`, `tricklang options` and `tricklang explain`: what a rule file says,
without playing it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tricklang import RulesError
from tricklang.diagnostics import Diagnostic
from tricklang.explain import allowed, explain

from .common import Subparsers, load, plural, show


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommands ``check``, ``options`` to the ``tricklang`` parser."""
    p = sub.add_parser("check", parents=[opts], help="check rule files and report every problem",
                       description="Parse and check rule files. Prints 'FILE: ok' (warnings go to stderr), "
                       "or every diagnostic with its source line.")
    p.add_argument("files", nargs="+", metavar="FILE", help="rule files (.trick)")
    p.add_argument("--json", action="store_true", help="print the results as JSON (for editors and CI)")
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
    for path in args.files:
        diagnostics: list[Diagnostic] = []
        source: str | None = None
        game = None
        try:
            ruleset = load(path, args)
            diagnostics = list(ruleset.warnings)
            source, game = ruleset.source, ruleset.name
            ok = True
        except RulesError as err:
            diagnostics = list(err.diagnostics) + list(err.warnings)
            source, ok = err.source, False
        failed = failed or not ok
        errors = sum(d.severity == "error" for d in diagnostics)
        warnings = len(diagnostics) - errors
        results.append({"path": path, "ok": ok, "game": game, "errors": errors, "warnings": warnings,
                        "diagnostics": [d.to_dict() for d in diagnostics]})
        if args.json:
            continue
        for d in diagnostics:
            print(d.render(source), file=sys.stderr)
        if ok:
            print(f"{path}: ok" + (f" ({plural(warnings, 'warning')})" if warnings else ""))
        elif len(diagnostics) > 1:
            print(f"{path}: {plural(errors, 'error')}" + (f", {plural(warnings, 'warning')}" if warnings else ""),
                  file=sys.stderr)
    if args.json:
        print(json.dumps({"ok": not failed, "files": results}, ensure_ascii=False, indent=2))
    return 1 if failed else 0



def cmd_options(args: argparse.Namespace) -> int:
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
        print(json.dumps({"game": ruleset.name, "path": ruleset.path, "options": rows}, ensure_ascii=False, indent=2))
        return 0
    if not specs:
        print(f"{ruleset.name} ({ruleset.path}) has no options.")
        return 0
    print(f"{ruleset.name} ({ruleset.path}): {plural(len(specs), 'option')}; set with -o NAME=VALUE")
    for o, row in zip(specs, rows, strict=True):
        value = show(row["value"])
        changed = f" (default {show(o.default)})" if row["value"] != o.default else ""
        laws = f"  [{', '.join(o.cite.laws)}]" if o.cite else ""
        print()
        print(f"{o.name} = {value}{changed}{laws}")
        print(f"    {o.type}: {allowed(o).replace('`', '')}; default {show(o.default)}")
        if o.doc:
            print(f"    {o.doc}")
    return 0



def cmd_explain(args: argparse.Namespace) -> int:
    sys.stdout.write(explain(load(args.file, args)))
    return 0
