"""What `tricklang simulate` keeps of each match beyond its summary, and what it adds up:
the final scores and the choices made (stand or propose, bids, passes, trumps named,
declarations), per match (``--per-match FILE.jsonl``) and as distributions in the
summary (``final_scores``, ``deal_counts``, ``choices``), which ``--report`` draws.

Everything here is JSON-able plain data, so that results can travel from workers."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..state import State


def match_details(state: State, events: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The final scores of a match and how often each choice was made in it (``events``:
    the match's public events, ``state.events(None)``, when the caller has them already:
    they are rebuilt by replaying the match at every call)."""
    if events is None:
        events = state.events(None)
    return {"scores": list(state.scores), "choices": dict(choices_of(events))}


def choices_of(events: Sequence[dict[str, Any]]) -> Counter[str]:
    """How often each choice was made: ``stand``, ``propose``, ``bid 5``, ``pass``,
    ``name hearts``, ``declare king``...

    >>> sorted(choices_of([{"type": "choice", "player": 0, "choice": "stand"},
    ...                    {"type": "bid", "player": 1, "bid": 5}, {"type": "pass", "player": 0},
    ...                    {"type": "trump", "suit": "hearts", "player": 1}, {"type": "trump", "suit": "clubs"}]).items())
    [('bid 5', 1), ('name hearts', 1), ('pass', 1), ('stand', 1)]
    """
    counts: Counter[str] = Counter()
    for e in events:
        kind = e.get("type")
        if kind == "choice":
            counts[str(e.get("choice"))] += 1
        elif kind == "bid":
            counts[f"bid {e.get('bid')}"] += 1
        elif kind == "pass":
            counts["pass"] += 1
        elif kind == "trump" and e.get("player") is not None:
            counts[f"name {e.get('suit')}"] += 1
        elif kind == "declare":
            counts[f"declare {e.get('name')}"] += 1
    return counts


def distributions(results: Sequence[dict[str, Any]], sides: int) -> dict[str, Any]:
    """The summary's distributions over the matches that did not fail: each side's final
    scores and the deals per match (value -> matches), and the choices made (choice ->
    times), all with string keys in increasing order (JSON objects)."""
    played = [r for r in results if not r.get("error") and "scores" in r]
    scores = [Counter(int(r["scores"][s]) for r in played) for s in range(sides)]
    deals = Counter(int(r["deals"]) for r in played)
    choices: Counter[str] = Counter()
    for r in played:
        choices.update(r.get("choices", {}))
    return {
        "final_scores": [{str(k): v for k, v in sorted(c.items())} for c in scores],
        "deal_counts": {str(k): v for k, v in sorted(deals.items())},
        "choices": {k: choices[k] for k in sorted(choices, key=_choice_order)},
    }


def _choice_order(text: str) -> tuple[str, int, str]:
    """Choices by verb, bids by amount."""
    verb, _, rest = text.partition(" ")
    return (verb, int(rest) if rest.lstrip("-").isdigit() else 0, rest)


def per_match_rows(results: Sequence[dict[str, Any]], variant: str | None = None) -> list[dict[str, Any]]:
    """One row per match: its number, seed, final scores, winning side (None: drawn or
    abandoned), deals, actions, choices, and the error if it failed."""
    rows = []
    for r in results:
        row: dict[str, Any] = {"match": r["index"], "seed": r["seed"], "scores": r.get("scores"),
                               "winner": r["winner"], "drawn": bool(r.get("drawn")), "deals": r["deals"],
                               "actions": r["actions"], "choices": r.get("choices", {})}
        if r.get("error"):
            row["error"] = r["error"]
        if variant is not None:
            row = {"variant": variant, **row}
        rows.append(row)
    return rows


def write_per_match(path: str | Path, rows: Sequence[dict[str, Any]]) -> None:
    """Write rows as JSON Lines (one JSON object a line).

    Raises:
        OSError: the file cannot be written.
    """
    with open(path, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
