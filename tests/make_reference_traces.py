"""Record tests/runtime/reference_traces.json: the traces of tests/reference_traces.py's
cases as the OLD runtime plays them (the closure interpreter with its code writers, which
the one code generator replaced; see issue 27).

This script needs the old runtime: run it with the Python of a checkout from before the
one runtime landed (main at 2b7cd91 is the last such commit), from this repository's
root, for example::

    git worktree add ../old-runtime 2b7cd91
    (cd ../old-runtime && make .venv/.installed)
    PYTHONDONTWRITEBYTECODE=1 ../old-runtime/.venv/bin/python tests/make_reference_traces.py

It refuses to run on the new runtime (the file would then compare the runtime with
itself). The bundled games are those of the old checkout: when a bundled rule file
changes, make the same change there before recording again (the test says which case's
rule text differs from the one recorded).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from reference_traces import cases, record

OUT = Path(__file__).resolve().parent / "runtime" / "reference_traces.json"


def main() -> int:
    if importlib.util.find_spec("interpreter.compiler") is None:
        print("make_reference_traces: this is the new runtime (no interpreter.compiler); run this script "
              "with the Python of a checkout of the old runtime (see its docstring)", file=sys.stderr)
        return 2
    recorded = {name: record(case) for name, case in sorted(cases().items())}
    OUT.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(recorded)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
