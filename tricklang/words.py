"""Small helpers for messages in English (shared by the language and the runtime)."""

from __future__ import annotations


def plural(n: int, word: str) -> str:
    """'1 card', '2 cards', '1 match', '3 matches'."""
    if n == 1:
        return f"{n} {word}"
    return f"{n} {word}{'es' if word.endswith(('ch', 's', 'sh', 'x')) else 's'}"
