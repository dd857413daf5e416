"""`tricklang compile`: print the Python module generated for a rule file and its options
(see :mod:`interpreter.codegen`), each block commented with the rule line it comes from."""

from __future__ import annotations

import argparse
import sys

from tricklang.diagnostics import printable

from ..codegen import generate
from .common import Subparsers, load


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``compile`` to the ``tricklang`` parser."""
    p = sub.add_parser("compile", parents=[opts], help="print the Python generated for a rule file",
                       description="Compile a rule file (with the options set by -o) and print the Python "
                       "module that plays it: the whole game, every statement compiled once, as typed "
                       "Python over a flat core of integers and card bitmasks (the same source a native "
                       "build compiles to C): card tables, the core, the blocks of the deal between "
                       "decisions, each commented with its rule line, the decision points, the match's "
                       "flow and the remedies of irregularities. Nothing of the rule file's text appears "
                       "in it but as line numbers; names, labels and laws are ids.")
    p.add_argument("file", metavar="FILE", help="rule file (or a bundled game's name)")
    p.add_argument("--native", action="store_true",
                   help="instead, build the module as a C extension with Cython (interpreter.native; needs the "
                   "'native' extra and a C compiler), or find it in the cache, and print where it is: "
                   "a later --native run, simulate --native or native.accelerate() loads it from there")
    p.set_defaults(run=cmd_compile)


def cmd_compile(args: argparse.Namespace) -> int:
    """Print the generated module, or with ``--native`` build it and print where it is
    (RulesError / OptionError / NativeBuildError propagate: exit 1 / 2 / 1)."""
    ruleset = load(args.file, args)
    if args.native:
        from ..native import accelerate

        build = accelerate(ruleset)
        if build.not_kept is not None:  # the build went with its temporary folder
            print(printable(f"built in {build.seconds:.1f} s, not kept: {build.not_kept}"))
            return 0
        how = "from the cache" if build.cached else f"built in {build.seconds:.1f} s"
        print(printable(f"{build.path} ({how})"))
        return 0
    sys.stdout.write(generate(ruleset).source)
    return 0
