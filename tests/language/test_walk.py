"""The one walk (tricklang.walk): rebuilding a tree, and the variant merge built on it."""

from __future__ import annotations

import tricklang
from tricklang import model as m
from tricklang.walk import rebuild, statements

BASE = """tricklang 1
game "Base"
players 2
option long: bool = false "A longer deal"
zone stock: shared, hidden, pack
zone hand: per player, owner
zone won: per player, public
deck
  suits clubs black, diamonds red
  ranks A K Q J
deal
  if long:
    repeat at most 2 times:
      phase dealing:
        deal 1 to each
  else:
    phase dealing:
      deal 1 to each
  tricks 1, left of dealer leads first
"""

VARIANT = """tricklang 1
extends "base.trick"
game "Variant"
deal
  phase dealing:
    deal 2 to each
"""


def _dealt(rules: m.RuleFile) -> list[list[int]]:
    """The packet sizes of every `deal` statement, in order."""
    return [[p.value for p in st.packets if isinstance(p, m.IntLit)]
            for st in statements(rules.deal) if isinstance(st, m.DealCards)]


def test_rebuild_replaces_top_down_and_shares_what_it_does_not_change() -> None:
    rules = tricklang.loads(BASE, path="base.trick").rules
    two = m.IntLit(value=2, span=rules.deal[0].span)
    new = rebuild(rules.deal, lambda n: n.model_copy(update={"packets": (two,)}) if isinstance(n, m.DealCards) else None)
    assert _dealt(rules) == [[1], [1]]  # the tree given is not changed
    assert _dealt(m.RuleFile.model_construct(deal=new)) == [[2], [2]]
    assert new[1] is rules.deal[1]  # no deal in the trick play: shared, not copied
    assert rebuild(rules.deal, lambda n: None) is rules.deal


def test_a_variant_replaces_a_phase_at_any_depth_of_the_base() -> None:
    rules = tricklang.loads(VARIANT, path="variant.trick", bases=[BASE]).rules
    assert _dealt(rules) == [[2], [2]]
    base = tricklang.loads(BASE, path="base.trick").rules
    assert rules.deal[1] == base.deal[1].model_copy(update={"span": rules.deal[1].span})


def test_every_node_is_the_walk_made_once_per_root() -> None:
    from tricklang import parser
    from tricklang.walk import every_node, nodes

    rules = parser.parse(BASE)
    walked = every_node(rules)
    assert walked == tuple(nodes(rules)) and len(walked) > 20
    assert every_node(rules) is walked  # the same root: the same walk
    again = parser.parse(BASE)  # an equal tree, another root: walked anew
    assert every_node(again) is not walked and every_node(again) == walked
    others = [parser.parse(BASE) for _ in range(5)]
    for other in others:
        every_node(other)
    assert every_node(rules) == walked  # no longer kept: walked again, the same
