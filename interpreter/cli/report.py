"""`tricklang simulate --report FILE.html`: a self-contained HTML report of a simulation
(or of the simulations of ``--compare``, side by side).

The figures are drawn by matplotlib as SVG and written into the page itself: no script,
no font and nothing else is fetched to view it, so it opens offline in any browser and
can be mailed as one file. (Vega-Lite through altair would need the vega scripts inlined
in every report, about a megabyte, and a script engine to draw them; matplotlib's SVG is
plain markup.) Each figure is followed by a table of the numbers it draws, and the page
ends with the summaries as ``simulate --json`` prints them (``<script
type="application/json" id="tricklang-report">``), so that a figure can be checked
against them: every bar carries an ``id`` (``wins-V-S``, ``first-V``, ``deals-V-N``,
``scores-V-S-N``, ``points-V-I``, ``choices-V-I``: V the simulation, S the side).
"""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from .common import show

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


COLOURS = ["#3b6ea8", "#d9822b", "#4f9a54", "#b8464a", "#7d62a8", "#8c6d4f", "#c8649e", "#6f6f6f"]
MAX_CHOICES = 30
"""Choices drawn (the most frequent); the table lists them all."""


class Variant(Protocol):
    """What the report reads of one simulation (:class:`.simulate_outputs.Variant`)."""

    @property
    def label(self) -> str: ...
    @property
    def ruleset(self) -> Any: ...
    @property
    def seats(self) -> list[str]: ...
    @property
    def summary(self) -> dict[str, Any]: ...
    @property
    def results(self) -> list[dict[str, Any]]: ...


def write_report(path: str | Path, variants: Sequence[Variant]) -> None:
    """Write the report.

    Raises:
        OSError: it cannot be written.
    """
    Path(path).write_text(report_html(variants), encoding="utf-8")


def report_html(variants: Sequence[Variant]) -> str:
    """The report as one HTML page."""
    import matplotlib

    first = variants[0].summary
    title = f"{first['game']}: {first['matches']} matches" + (" each, compared" if len(variants) > 1 else "")
    parts = [_HEAD.replace("TITLE", html.escape(title)), f"<h1>{html.escape(title)}</h1>", _setup(variants)]
    with matplotlib.rc_context({"svg.hashsalt": "tricklang", "svg.fonttype": "none", "font.size": 9}):
        for make in (_wins, _first_dealer, _final_scores, _deals, _points, _choices):
            parts.append(make(variants))
    data = json.dumps({"variants": [v.summary for v in variants]}, ensure_ascii=False, indent=1)
    parts.append('<script type="application/json" id="tricklang-report">'
                 + data.replace("<", "\\u003c") + "</script>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


_HEAD = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>TITLE</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 64rem; padding: 0 1rem; color: #1b1b1b; }
h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: .5rem 0 1rem; font-size: .9rem; }
td, th { padding: .2rem .6rem; border-bottom: 1px solid #e2e2e2; text-align: right; }
td:first-child, th:first-child { text-align: left; }
figure { margin: 0; } figure svg { max-width: 100%; height: auto; }
.note { color: #555; font-size: .9rem; }
</style></head><body>"""


def _name(v: Variant, i: int) -> str:
    return v.label or f"simulation {i + 1}"


def _side_label(side: dict[str, Any]) -> str:
    seats = side["seats"]
    who = ("seat " if len(seats) == 1 else "seats ") + "+".join(map(str, seats))
    return f"{who} ({', '.join(dict.fromkeys(side['players']))})"


def _setup(variants: Sequence[Variant]) -> str:
    rows: list[list[Any]] = []
    for i, v in enumerate(variants):
        s = v.summary
        options = ", ".join(f"{k}={show(x)}" for k, x in s["options"].items())
        rows.append([_name(v, i), str(s["matches"]), str(s["seed"]), ", ".join(s["seats"]), options])
    return ("<p class=note>Every simulation plays the same seeds (match <i>i</i> is seeded from the base seed and "
            "<i>i</i>). Intervals are 95% Wilson score intervals.</p>"
            + _table(["simulation", "matches", "seed", "seats", "options"], rows))


def _table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    out = ["<table><tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>")
    return "".join(out) + "</table>"


def _section(key: str, title: str, figure: Figure, table: str, note: str = "") -> str:
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)  # (RDF addresses, not needed to view it)
    note_html = f"<p class=note>{html.escape(note)}</p>" if note else ""
    return f'<section id="{key}"><h2>{html.escape(title)}</h2>{note_html}<figure>{svg}</figure>{table}</section>'


def _figure(width: float, height: float, columns: int = 1) -> tuple[Figure, list[Axes]]:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width, height), layout="constrained")
    axes = figure.subplots(1, columns, sharey=True, squeeze=False)[0]
    return figure, list(axes)


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _wins(variants: Sequence[Variant]) -> str:
    sides = variants[0].summary["sides"]
    figure, (ax,) = _figure(7, 3.2)
    width = 0.8 / len(variants)
    rows: list[list[Any]] = []
    for vi, v in enumerate(variants):
        for si, side in enumerate(v.summary["sides"]):
            lo, hi = side["ci95"]
            x = si + (vi - (len(variants) - 1) / 2) * width
            bar = ax.bar([x], [side["rate"]], width * 0.9, color=COLOURS[vi % len(COLOURS)],
                         label=_name(v, vi) if si == 0 else None)
            bar.patches[0].set_gid(f"wins-{vi}-{si}")
            ax.errorbar([x], [side["rate"]], yerr=[[side["rate"] - lo], [hi - side["rate"]]], color="#222",
                        capsize=3, linewidth=1)
            rows.append([_name(v, vi), _side_label(side), side["wins"], _pct(side["rate"]), f"{_pct(lo)} to {_pct(hi)}"])
    ax.axhline(variants[0].summary["first_dealer"]["no_advantage"], color="#888", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(sides)), [_side_label(s) for s in sides])
    ax.set_ylabel("share of the matches won")
    ax.set_ylim(0, 1)
    if len(variants) > 1:
        ax.legend(frameon=False)
    table = _table(["simulation", "side", "wins", "rate", "95% interval"], rows)
    return _section("wins", "Win rates by side", figure, table, "The dashed line is an even share.")


def _first_dealer(variants: Sequence[Variant]) -> str:
    figure, (ax,) = _figure(7, 2.6)
    rows: list[list[Any]] = []
    for vi, v in enumerate(variants):
        fd = v.summary["first_dealer"]
        rate = fd["rate"] or 0.0
        lo, hi = fd["ci95"]
        bar = ax.bar([vi], [rate], 0.6, color=COLOURS[vi % len(COLOURS)])
        bar.patches[0].set_gid(f"first-{vi}")
        if fd["rate"] is not None:
            ax.errorbar([vi], [rate], yerr=[[rate - lo], [hi - rate]], color="#222", capsize=3, linewidth=1)
        rows.append([_name(v, vi), fd["wins"], fd["decided"], _pct(fd["rate"]), f"{_pct(lo)} to {_pct(hi)}"])
    ax.axhline(variants[0].summary["first_dealer"]["no_advantage"], color="#888", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(variants)), [_name(v, i) for i, v in enumerate(variants)])
    ax.set_ylabel("first dealer's side won")
    ax.set_ylim(0, 1)
    table = _table(["simulation", "first dealer's side won", "decided matches", "rate", "95% interval"], rows)
    return _section("first-dealer", "The first dealer's advantage", figure, table,
                    "How often the side of the seat that dealt first won; the dashed line is no advantage.")


def _histogram(variants: Sequence[Variant], key: str, prefix: str, xlabel: str) -> tuple[Figure, list[list[str]]]:
    figure, axes = _figure(min(3.6 * len(variants), 11), 2.8, len(variants))
    rows: list[list[Any]] = []
    for vi, (v, ax) in enumerate(zip(variants, axes, strict=True)):
        counts = {int(k): n for k, n in v.summary[key].items()}
        bars = ax.bar(list(counts), list(counts.values()), 0.8, color=COLOURS[vi % len(COLOURS)])
        for value, patch in zip(counts, bars.patches, strict=True):
            patch.set_gid(f"{prefix}-{vi}-{value}")
        ax.set_title(_name(v, vi))
        ax.set_xlabel(xlabel)
        rows.extend([_name(v, vi), k, n] for k, n in counts.items())
    axes[0].set_ylabel("matches")
    return figure, rows


def _deals(variants: Sequence[Variant]) -> str:
    figure, rows = _histogram(variants, "deal_counts", "deals", "deals in the match")
    means = ", ".join(f"{_name(v, i)}: {v.summary['deals']['per_match']:.2f}" for i, v in enumerate(variants))
    return _section("deals", "Match length in deals", figure, _table(["simulation", "deals", "matches"], rows),
                    f"Deals per match on average: {means}.")


def _final_scores(variants: Sequence[Variant]) -> str:
    figure, axes = _figure(min(3.6 * len(variants), 11), 2.8, len(variants))
    rows: list[list[Any]] = []
    for vi, (v, ax) in enumerate(zip(variants, axes, strict=True)):
        sides = v.summary["sides"]
        width = 0.8 / len(sides)
        for si, counts in enumerate(v.summary["final_scores"]):
            values = [int(k) for k in counts]
            xs = [x + (si - (len(sides) - 1) / 2) * width for x in values]
            bars = ax.bar(xs, list(counts.values()), width, color=COLOURS[si % len(COLOURS)],
                          label=_side_label(sides[si]) if vi == 0 else None)
            for value, patch in zip(values, bars.patches, strict=True):
                patch.set_gid(f"scores-{vi}-{si}-{value}")
            rows.extend([_name(v, vi), _side_label(sides[si]), k, n] for k, n in counts.items())
        ax.set_title(_name(v, vi))
        ax.set_xlabel("final score")
    axes[0].set_ylabel("matches")
    figure.legend(loc="outside lower center", ncols=4, frameon=False)
    return _section("scores", "Final scores", figure, _table(["simulation", "side", "score", "matches"], rows))


def _grouped_barh(variants: Sequence[Variant], labels: list[str], values: list[list[float]], prefix: str,
                  xlabel: str) -> Figure:
    figure, (ax,) = _figure(7, 0.6 + 0.28 * len(labels) * max(1, len(variants)) ** 0.5)
    height = 0.8 / len(variants)
    for vi, v in enumerate(variants):
        ys = [i + (vi - (len(variants) - 1) / 2) * height for i in range(len(labels))]
        bars = ax.barh(ys, values[vi], height * 0.9, color=COLOURS[vi % len(COLOURS)],
                       label=_name(v, vi))
        for i, patch in enumerate(bars.patches):
            patch.set_gid(f"{prefix}-{vi}-{i}")
    ax.set_yticks(range(len(labels)), labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    if len(variants) > 1:
        ax.legend(frameon=False)
    return figure


def _points(variants: Sequence[Variant]) -> str:
    labels: list[str] = []
    for v in variants:
        for p in v.summary["points"]:
            key = _point_label(p)
            if key not in labels:
                labels.append(key)
    if not labels:
        return '<section id="points"><h2>Points by score label</h2><p>No points were scored.</p></section>'
    values: list[list[float]] = []
    rows: list[list[Any]] = []
    for vi, v in enumerate(variants):
        by = {_point_label(p): p for p in v.summary["points"]}
        values.append([by[k]["per_match"] if k in by else 0.0 for k in labels])
        rows.extend([_name(v, vi), k, by[k]["times"], f"{by[k]['per_match']:.3f}", by[k]["points"]]
                    for k in labels if k in by)
    figure = _grouped_barh(variants, labels, values, "points", "times awarded per match")
    table = _table(["simulation", "score label [laws]", "times", "per match", "points"], rows)
    return _section("points", "Points by score label", figure, table)


def _point_label(p: dict[str, Any]) -> str:
    return (p["label"] or "(no label)") + (f" [{', '.join(p['laws'])}]" if p["laws"] else "")


def _choices(variants: Sequence[Variant]) -> str:
    totals: dict[str, int] = {}
    for v in variants:
        for k, n in v.summary["choices"].items():
            totals[k] = totals.get(k, 0) + n
    if not totals:
        return '<section id="choices"><h2>Choices taken</h2><p>This game asks for no choice or bid.</p></section>'
    labels = [k for k in variants[0].summary["choices"]] + [k for k in totals if k not in variants[0].summary["choices"]]
    labels = sorted(labels, key=lambda k: -totals[k])[:MAX_CHOICES]
    values = [[v.summary["choices"].get(k, 0) / max(1, v.summary["matches"]) for k in labels] for v in variants]
    figure = _grouped_barh(variants, labels, values, "choices", "times per match")
    rows = [[_name(v, vi), k, n, f"{n / max(1, v.summary['matches']):.3f}"]
            for vi, v in enumerate(variants) for k, n in v.summary["choices"].items()]
    return _section("choices", "Choices taken", figure, _table(["simulation", "choice", "times", "per match"], rows),
                    "Stand or propose, bids and passes, trumps named and declarations, as the players made them.")
