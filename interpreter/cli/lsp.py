"""`tricklang lsp`: the language server of :mod:`tricklang.lsp`, over stdio (needs ``tricklang[lsp]``)."""

from __future__ import annotations

import argparse

from .common import Subparsers


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``lsp`` to the ``tricklang`` parser."""
    del opts  # the server takes no rule-file options
    p = sub.add_parser("lsp", help="a language server for editors (Language Server Protocol on stdio)",
                       description="Serve the Language Server Protocol on stdin and stdout, for editors: "
                       "diagnostics, hover, completion, definitions, symbols and formatting of rule files. "
                       "Needs the 'lsp' extra: pip install 'tricklang[lsp]'.")
    p.set_defaults(run=cmd_lsp)


def cmd_lsp(args: argparse.Namespace) -> int:
    """Run the server until the editor exits it (exit status 2 without pygls)."""
    del args
    from tricklang.lsp import main

    return main()
