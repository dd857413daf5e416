"""The packs of the design's rule-file sketches (docs/design/great-games.md, 4.4 French Tarot and
4.6 Five Hundred) check and deal: their `deck` sections (with Tarot's card points and Five
Hundred's `order notrump`) are read from the design itself and put in a minimal game of one
deal, so a change that breaks the games others are writing from those sketches shows here.

The games themselves (bids, the dog and the kitty, scoring) are written elsewhere; this only
plays tricks with the packs.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import interpreter
import tricklang

DESIGN = (Path(__file__).resolve().parents[2] / "docs" / "design" / "great-games.md").read_text(encoding="utf-8")


def sketch(heading: str) -> str:
    """The rule text of a section 4 sketch (its first fenced block)."""
    section = DESIGN[DESIGN.index(f"### {heading}\n"):]
    found = re.search(r"```\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def block(text: str, first: str) -> str:
    """A top-level section of a sketch: the line starting with ``first`` and its indented lines."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    end = next((i for i in range(start + 1, len(lines)) if lines[i] and not lines[i].startswith(" ")), len(lines))
    return "\n".join(line for line in lines[start:end] if line.strip()) + "\n"


TAROT_SKETCH = sketch("4.4 French Tarot")
FIVE_HUNDRED_SKETCH = sketch("4.6 Five Hundred")

TAROT = f"""\
tricklang 1
game "French Tarot's pack"
players 4
{block(TAROT_SKETCH, "deck")}{block(TAROT_SKETCH, "points")}zone hand: per player, owner
zone stock: shared, hidden, pack
zone dog: shared, hidden
zone won: per player, public
match
  at most 1 deals
deal
  deal 3 then 3 then 3 then 3 then 3 then 3 to each
  move all from stock to dog
  trump is atouts
  tricks 18, left of dealer leads first
    must follow suit
    must trump if void
    may play excuse at any time
    the suit led is not set by excuse
    a trick is never won by excuse when not last_trick
  for each player:
    player scores points(player)
"""

FIVE_HUNDRED = f"""\
tricklang 1
game "Five Hundred's pack"
players 4 in partnerships 0 2, 1 3
option no_trumps: bool = false "play at no trump"
{block(FIVE_HUNDRED_SKETCH, "deck")}{block(FIVE_HUNDRED_SKETCH, "order notrump")}zone hand: per player, owner
zone stock: shared, hidden, pack
zone kitty: shared, hidden
zone won: per side, public
match
  at most 1 deals
deal
  deal 10 to each
  move all from stock to kitty
  trump is hearts
  if no_trumps:
    trump is notrump
  tricks 10, left of dealer leads first
    must follow suit
  for each side:
    side scores tricks(side)
"""


def test_the_sketches_hold_the_decks_read_here() -> None:
    assert 'atouts "T" special' in TAROT and "ranks in atouts 21 20" in TAROT and 'card excuse "EX"' in TAROT
    assert '"oudlers" 21 of atouts or 1 of atouts or excuse' in TAROT
    assert 'card joker "JK"' in FIVE_HUNDRED and "trumps joker" in FIVE_HUNDRED


def test_french_tarot_s_pack_checks_and_deals_78_cards() -> None:
    rules = tricklang.loads(TAROT, path="tarot.trick")
    assert len(rules.cards) == 78
    assert rules.cards[56:58] == ["21T", "20T"] and rules.cards[76:] == ["1T", "EX"]
    for seed in range(3):
        state = interpreter.new_game(rules, seed=seed)
        hands = [state.hand(p) for p in range(4)]
        assert [len(h) for h in hands] == [18] * 4 and len({c for h in hands for c in h}) == 72
        state.playout(random.Random(seed))
        events = state.events(None)
        tricks = [e for e in events if e["type"] == "trick"]
        assert len(tricks) == 18
        for trick in tricks:
            if "21T" in trick["cards"]:  # the 21 is never beaten
                assert trick["winner"] == trick["players"][trick["cards"].index("21T")]
        # Card points: 9 for each oudler and king, 7 a queen, 5 a knight, 3 a jack, 1 any other,
        # for the cards taken in tricks (the dog's six count for no one).
        worth = {"K": 9, "Q": 7, "C": 5, "J": 3}
        played = [e["card"] for e in events if e["type"] == "play"]
        expected = sum(9 if c in ("21T", "1T", "EX") else worth.get(c[:-1], 1) if not c.endswith("T") else 1
                       for c in played)
        assert sum(state.scores) == expected


@pytest.mark.parametrize("no_trumps", [False, True])
def test_five_hundred_s_pack_checks_and_deals_43_cards(no_trumps: bool) -> None:
    rules = tricklang.loads(FIVE_HUNDRED, path="five-hundred.trick").with_options({"no_trumps": no_trumps})
    assert len(rules.cards) == 43 and rules.cards[-1] == "JK"
    assert not any(c[:-1] in ("2", "3") or c in ("4S", "4C") for c in rules.cards)
    for seed in range(3):
        state = interpreter.new_game(rules, seed=seed)
        assert [len(state.hand(p)) for p in range(4)] == [10] * 4
        if no_trumps:
            assert state.is_trump("JK") and not state.is_trump("JH")
        else:  # the joker, the right bower, the left bower, then the ace
            assert state.card_strength("JK") > state.card_strength("JH") > state.card_strength("JD") \
                > state.card_strength("AH") > 1000
            assert state.effective_suit("JD") == "hearts"
        state.playout(random.Random(seed))
        tricks = [e for e in state.events(None) if e["type"] == "trick"]
        assert len(tricks) == 10
        for trick in tricks:
            if "JK" in trick["cards"]:  # the joker, the highest trump either way, is never beaten
                assert trick["winner"] == trick["players"][trick["cards"].index("JK")]
