"""The bar as a table: each figure the bench measures against its target, and whether it is met.

``scripts/bench.py --table`` sets :data:`BARS_ENV` to a file, each benchmark (in this process or in
the child processes that measure on one BLAS thread) appends its figures there with :func:`bar`, and
:func:`table` renders them as the Markdown table that README.md's performance section shows.

>>> rows = [{"figure": "`odds --decks 8`", "measured": "52 ms", "target": "<= 60 ms", "met": True}]
>>> print(table(rows))
| figure | measured | target | met |
|---|---|---|---|
| `odds --decks 8` | 52 ms | <= 60 ms | yes |
"""

from __future__ import annotations

import json
import os
from typing import Any

BARS_ENV = "EXACT_ODDS_BENCH_BARS"
"""The file the figures are appended to, one JSON object a line (unset: :func:`bar` does nothing)."""


def bar(figure: str, measured: str, target: str, met: bool) -> None:
    """Record one figure of the bar: what it is, what was measured, its target and whether it is met."""
    path = os.environ.get(BARS_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"figure": figure, "measured": measured, "target": target, "met": met}) + "\n")


def recorded(path: str) -> list[dict[str, Any]]:
    """The figures appended to ``path``, in the order they were measured."""
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def table(rows: list[dict[str, Any]]) -> str:
    """The figures as a Markdown table (figure, measured, target, met), a ``|`` in a cell escaped."""
    lines = ["| figure | measured | target | met |", "|---|---|---|---|"]
    for r in rows:
        cells = [str(r["figure"]), str(r["measured"]), str(r["target"]), "yes" if r["met"] else "no"]
        lines.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(lines)
