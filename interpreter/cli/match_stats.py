"""What `tricklang simulate` keeps of each match beyond its summary, and what it adds up:
the final scores and the choices made (stand or propose, bids, passes, trumps named,
declarations), per match (``--per-match FILE.jsonl``) and as distributions in the
summary (``final_scores``, ``deal_counts``, ``choices``), which ``--report`` draws.

Everything here is JSON-able plain data, so that results can travel from workers."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
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
    return Counter(tally(events).choices)


@dataclass
class Tally:
    """What a match's events add up to (:func:`tally`)."""

    awards: dict[tuple[str, tuple[str, ...]], list[int]] = field(default_factory=dict)
    """The points its score events awarded, by label and laws: [times, points], in the order first awarded."""
    choices: dict[str, int] = field(default_factory=dict)
    """How often each choice was made, in the order first made."""
    end: dict[str, Any] = field(default_factory=dict)
    """Its last ``match_end`` event ({}: none)."""


def tally(events: Sequence[dict[str, Any]]) -> Tally:
    """The awards, the choices and the end of a match, in one pass over its events.

    >>> t = tally([{"type": "choice", "player": 0, "choice": "stand"}, {"type": "score", "side": 0, "points": 2,
    ...            "label": "march", "laws": []}, {"type": "match_end", "winner": 0}])
    >>> t.awards, t.choices, t.end
    ({('march', ()): [1, 2]}, {'stand': 1}, {'type': 'match_end', 'winner': 0})
    """
    out = Tally()
    awards, choices = out.awards, out.choices
    for e in events:
        kind = e.get("type")
        if kind == "score":
            if e.get("points"):
                times = awards.setdefault((str(e.get("label", "")), tuple(e.get("laws") or ())), [0, 0])
                times[0] += 1
                times[1] += int(e["points"])
            continue
        if kind == "match_end":
            out.end = e
            continue
        if kind == "choice":
            word = str(e.get("choice"))
        elif kind == "bid":
            word = f"bid {e.get('bid')}"
        elif kind == "pass":
            word = "pass"
        elif kind == "trump" and e.get("player") is not None:
            word = f"name {e.get('suit')}"
        elif kind == "declare":
            word = f"declare {e.get('name')}"
        else:
            continue
        choices[word] = choices.get(word, 0) + 1
    return out


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
