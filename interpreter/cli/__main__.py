"""``python -m interpreter.cli``: the ``tricklang`` command."""

from . import main

if __name__ == "__main__":
    raise SystemExit(main())
