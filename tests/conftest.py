"""Test-suite settings: hypothesis runs are reproducible by default.

The default profile ``repeatable`` derandomizes every property test (the same
examples on every run, so that CI never fails by chance) and keeps no example
database. ``HYPOTHESIS_PROFILE=random`` explores new examples on each run;
``HYPOTHESIS_PROFILE=long`` is the long harness run (see tests/runtime/test_harness.py).
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
settings.register_profile("random", derandomize=False, database=None, print_blob=True)
settings.load_profile("random" if os.environ.get("HYPOTHESIS_PROFILE") in ("random", "long") else "repeatable")
