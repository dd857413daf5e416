"""The core's arrays read through locals in a hot function (the trick play's runner, playing
a card, taking a trick).

In CPython every ``c.z[k]`` loads the attribute ``z`` of the core before indexing it; a
function that reads it a card at a time pays that load each time. A local bound once
(``c_z = c.z``) is the same list (the core's arrays are never replaced, only written
into), so reads and writes through it are the core's. Natively the local is a C pointer
to the core's array (no copy: a Cython local of an array type would copy it), so the C
indexes the same memory, with one load of ``c`` fewer.

>>> from .writer import Writer
>>> w = Writer()
>>> w.line("c.z[0 + p] ^= BIT[card]")
>>> lines = hoisted(w, False, ("z", "tr_c"))
>>> lines.lines
['c_z: cython.p_ulonglong = c.z', 'c_z[0 + p] ^= BIT[card]']
"""

from __future__ import annotations

import re

from .writer import Writer

POINTER = {"z": "cython.p_ulonglong", "tr_c": "cython.p_int", "tr_p": "cython.p_int",
           "played_by": "cython.p_int", "taken_by": "cython.p_int", "st": "cython.p_longlong",
           "tw": "cython.p_int"}
"""The C pointer type of each array that may be hoisted (their C types are
``interpreter.codegen.module.fields``': a mask array, ``int`` or ``long long``)."""


def hoisted(body: Writer, wide: bool, names: tuple[str, ...], least: int = 1) -> Writer:
    """``body``'s lines with each array of ``names`` it indexes (``c.NAME[``) at least
    ``least`` times read through a local ``c_NAME`` bound at its top (``wide``: the masks are
    Python ints, ``z`` a list). A body that indexes an array once, outside a loop, gains
    nothing by it: ``least`` 2 leaves it."""
    out = Writer()
    text = "\n".join(body.lines)
    for name in names:
        if text.count(f"c.{name}[") < least:
            continue
        kind = "list" if wide and name == "z" else POINTER[name]
        out.line(f"c_{name}: {kind} = c.{name}")
        text = re.sub(rf"\bc\.{name}\[", f"c_{name}[", text)
    out.lines.extend(text.split("\n"))
    return out
