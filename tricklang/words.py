"""Small helpers for messages in English (shared by the language and the runtime)."""

from __future__ import annotations


def snake(name: str) -> str:
    """``EndPlay`` as ``end_play``: a statement class's grammar rule name."""
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


def plural(n: int, word: str) -> str:
    """'1 card', '2 cards', '1 match', '3 matches'."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}{'es' if word.endswith(('ch', 's', 'sh', 'x')) else 's'}"


RESERVED_WORDS: dict[str, str] = {
    "pass": "'pass' is reserved (the statement that does nothing, and a player's pass in an auction)",
    "continue": "'continue' is reserved (the action that lets a declaration window after a lead go by)",
    "done": "'done' is reserved (the action that ends a card selection made one card at a time)",
}
"""Words the engine's own actions use, which a choice or an option value may not take."""
