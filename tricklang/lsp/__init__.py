"""`tricklang lsp`: a Language Server Protocol server for rule files, over stdio.

It needs the optional extra ``tricklang[lsp]`` (pygls). Features: diagnostics as
you type (those of ``tricklang check``, including a base file's), hover (a
statement's reading and laws, a card pattern's cards under each trump, an
option's type, default and doc), completion, go to definition, document symbols
and formatting. docs/editors.md says how to attach it to VS Code or Neovim.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Serve the Language Server Protocol on stdin and stdout until the client exits.

    Returns 2 (after a one-line message on stderr) when pygls is not installed.
    """
    del argv  # no options yet; stdio is the only transport
    try:
        from .server import SERVER
    except ImportError as err:
        print(f"tricklang lsp: error: the language server needs the 'lsp' extra "
              f"(pip install 'tricklang[lsp]'): {err}", file=sys.stderr)
        return 2
    SERVER.start_io()
    return 0
