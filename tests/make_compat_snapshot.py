"""Write tests/compat/snapshot.json: what every shipped rule file is today, for the
compatibility test (tests/language/test_compatibility.py).

For each file of rules/ and examples/ (top level): the digest of its parsed model
without positions, the checker's and the lints' diagnostics, the digest of
`tricklang explain`, the digest of its card tables, and through the runtime's public
API the number of action ids, the text of every id (or of 5,000 spread over them when there are more; strict and one-card modes) and
the tensor layout. The language grows without changing any of these for a file that
uses no new construct; regenerate only when a change is meant, and say so.

Usage (from the repository root)::

    .venv/bin/python tests/make_compat_snapshot.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "compat" / "snapshot.json"
SAMPLED_IDS = 5_000
"""Action texts read per file and mode (all of them when there are fewer ids)."""


def shipped() -> list[Path]:
    return sorted([*ROOT.glob("rules/*.trick"), *ROOT.glob("examples/*.trick")])


def digest(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def language_facts(path: Path) -> dict[str, Any]:
    """What the language side says about a file: model, diagnostics, prose, card tables."""
    import tricklang
    from tricklang.deck import CardModel
    from tricklang.explain import explain
    from tricklang.fmt import _without_spans

    text = path.read_text(encoding="utf-8")
    rules = tricklang.load(path)
    parsed = tricklang.parse(text, path.name)
    cards = CardModel(rules.rules.deck, rules.rules.points) if rules.rules.deck is not None else None
    tables = None if cards is None else [cards.codes, cards.eff_suit, cards.trump_strength, cards.order, cards.power,
                                         cards.point_values]
    return {
        # Fields at their defaults are left out: a new field (with its default) changes no old file.
        "model": digest(_without_spans(parsed.model_dump(exclude_defaults=True))),
        "diagnostics": [[d.code, d.line, d.column, d.severity, d.message] for d in rules.warnings],
        "explain": digest(explain(rules).replace(str(path), path.name)),
        "cards": digest(tables),
    }


def runtime_facts(path: Path) -> dict[str, Any]:
    """What the runtime's public API says: action ids and their texts, the tensor layout."""
    import interpreter
    import tricklang
    from interpreter.state.tensors import tensor_layout

    rules = tricklang.load(path)
    out: dict[str, Any] = {}
    for mode in ("all", "one_card"):
        state = interpreter.new_game(rules, seed=1, selections=mode)
        n = state.num_distinct_actions
        step = max(1, n // SAMPLED_IDS)  # whole selections may number billions: every step-th id, and the last
        texts = [str(state.action_from_id(i)) for i in [*range(0, n, step), n - 1]]
        out[mode] = {"ids": n, "texts": digest(texts)}
    state = interpreter.new_game(rules, seed=1)
    out["tensor"] = [list(state.tensor_shape), [list(s) for s in tensor_layout(state).segments]]
    return out


def snapshot() -> dict[str, Any]:
    return {p.name: {**language_facts(p), **runtime_facts(p)} for p in shipped()}


if __name__ == "__main__":
    SNAPSHOT.parent.mkdir(exist_ok=True)
    SNAPSHOT.write_text(json.dumps(snapshot(), indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {SNAPSHOT.relative_to(ROOT)}")
