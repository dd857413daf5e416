"""Equal cards in a trick (issue 28, design 3.2 and 3.4): `of equal cards the first|later wins
[matching P] [when G]`, written out for one trick play.

Two cards of equal power are two copies of a face (``copies N``). The trick's winner is the
first card of the highest power (the loop that takes a trick compares with ``>``), so `the
first wins` is the default; when a `later` rule may apply, the loop also asks ``tie_later_D(c,
card)`` of a card as strong as the best so far: the rules in the order written, the first whose
pattern matches the card and whose guard holds deciding (none: the first played wins). A file
without a `later` rule gets nothing (its module is unchanged).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tricklang import model as m

from .writer import lit

if TYPE_CHECKING:
    from .parts import Parts


def tie_function(gen: Parts, d: int, ties: tuple[m.TieRule, ...]) -> str:
    """Write ``tie_later_D`` for trick play ``d`` and return its name, or ``""`` when no rule can
    make the later of two equal cards win (then the winner loop is today's)."""
    rules: list[tuple[m.TieRule, str | bool]] = []
    for tie in ties:
        gen.line = tie.span.line
        test = gen.ex.cond(tie.guard)
        if test is not False:  # (switched off by an option)
            rules.append((tie, test))
    if not any(tie.winner == "later" for tie, _ in rules):
        return ""
    name = f"tie_later_{d}"
    f = gen.funcs
    with f.block(f"def {name}(c: Core, card: cython.int) -> cython.bint:"):
        for tie, test in rules:
            parts = [f"PAT[{lit(gen.lay.pattern(tie.matching))} * NT + c.ti] & BIT[card]"] if tie.matching else []
            parts += [f"({test})"] if test is not True else []
            f.comment(f"line {tie.span.line}: of equal cards the {tie.winner} wins")
            f.line(f"if {' and '.join(parts) or 'True'}:")
            f.line(f"    return {tie.winner == 'later'}")
        f.line("return False")
    return name
