"""``python -m tricklang.lsp``: the language server on stdio (as ``tricklang lsp``)."""

import sys

from . import main

sys.exit(main())
