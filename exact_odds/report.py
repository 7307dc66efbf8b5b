"""Turning exact results into text: tables, number formats, JSON and file output.

This is the only module that imports tabulate (lazily, so the command line starts fast).
Numbers are formatted here and nowhere else, from exact values: a decimal or percent is
rounded from the :class:`~fractions.Fraction` itself, never through a float, so the
printed digits are correctly rounded (half away from zero).

Formats: ``table`` (plain text), ``markdown``, ``csv``, ``json``, ``latex``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from exact_odds.errors import InputError

FORMATS = ("table", "markdown", "csv", "json", "latex")
Cell = str | int | Fraction


@dataclass(frozen=True)
class Table:
    """A titled table; cells are strings or exact numbers (rendered by :func:`cell_text`)."""

    title: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    notes: Sequence[str] = field(default=())


def fraction_text(x: Fraction | int) -> str:
    """A reduced fraction as ``"num/den"`` (an integer as ``"n"``)."""
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def _round_half_away(x: Fraction, digits: int) -> tuple[bool, int]:
    scaled = abs(x) * 10**digits
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r >= scaled.denominator:
        q += 1
    return x < 0, q


def decimal_text(x: Fraction | int, digits: int = 6) -> str:
    """``x`` rounded to ``digits`` decimal places, computed exactly."""
    negative, q = _round_half_away(Fraction(x), digits)
    whole, frac = divmod(q, 10**digits)
    text = f"{whole}.{frac:0{digits}d}" if digits else str(whole)
    return f"-{text}" if negative and q else text


def percent_text(x: Fraction | int, digits: int = 4) -> str:
    """``x`` as a percentage with ``digits`` decimals, e.g. ``"1.0579%"``."""
    return decimal_text(Fraction(x) * 100, digits) + "%"


def grouped(n: int) -> str:
    """An integer with thousands separators: ``1,234,567``."""
    return f"{n:,}"


def cell_text(value: Cell) -> str:
    """The text of one cell: integers grouped, fractions reduced, strings as they are."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, int):
        return grouped(value)
    return value


def _plain_rows(table: Table) -> list[list[str]]:
    return [[cell_text(c) for c in row] for row in table.rows]


def _tabulate(table: Table, tablefmt: str) -> str:
    from tabulate import tabulate  # lazy: tabulate costs start-up time

    return tabulate(_plain_rows(table), headers=list(table.headers), tablefmt=tablefmt, disable_numparse=True)


def _latex_escape(text: str) -> str:
    for a, b in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                 ("_", r"\_"), ("{", r"\{"), ("}", r"\}"), ("~", r"\textasciitilde{}"), ("^", r"\^{}")):
        text = text.replace(a, b)
    return text


def _latex(table: Table) -> str:
    cols = "l" + "r" * (len(table.headers) - 1)
    lines = [f"% {table.title}", f"\\begin{{tabular}}{{{cols}}}", "\\hline"]
    lines.append(" & ".join(_latex_escape(h) for h in table.headers) + r" \\")
    lines.append("\\hline")
    for row in _plain_rows(table):
        lines.append(" & ".join(_latex_escape(c) for c in row) + r" \\")
    lines += ["\\hline", "\\end{tabular}"]
    lines += [f"% {n}" for n in table.notes]
    return "\n".join(lines)


def _csv(table: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(list(table.headers))
    for row in table.rows:
        writer.writerow([fraction_text(c) if isinstance(c, (Fraction, int)) and not isinstance(c, bool) else c
                         for c in row])
    return buf.getvalue().rstrip("\n")


def render_tables(tables: Sequence[Table], fmt: str) -> str:
    """Render tables as ``table``, ``markdown``, ``csv`` or ``latex`` text (ends with a newline).

    CSV keeps integers ungrouped and fractions as ``num/den`` so programs can read them
    exactly; several CSV tables are separated by a blank line after a ``# title`` line.
    """
    parts: list[str] = []
    for t in tables:
        if fmt == "table":
            body = "\n".join([t.title, "=" * len(t.title), _tabulate(t, "simple"), *t.notes])
        elif fmt == "markdown":
            notes = "".join(f"\n{n}\n" for n in t.notes)
            body = f"## {t.title}\n\n{_tabulate(t, 'github')}\n{notes}".rstrip("\n")
        elif fmt == "csv":
            body = _csv(t) if len(tables) == 1 else f"# {t.title}\n{_csv(t)}"
        elif fmt == "latex":
            body = _latex(t)
        else:
            raise InputError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
        parts.append(body)
    return "\n\n".join(parts) + "\n"


def jsonable(value: object) -> object:
    """Make a result JSON-ready: fractions become ``"num/den"`` strings, tuples lists."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value


def render_json(value: object) -> str:
    """Pretty JSON text (with a final newline) of a result; see :func:`jsonable`."""
    return json.dumps(jsonable(value), indent=2, ensure_ascii=False) + "\n"


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old file or the whole new one."""
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as err:
        raise InputError(f"cannot write {str(target)!r}: {err.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except OSError as err:
        Path(tmp).unlink(missing_ok=True)
        raise InputError(f"cannot write {str(target)!r}: {err.strerror}") from None


OUTCOME_ORDER = ("banker", "player", "tie")


def odds_table(shoe_label: str, counts: dict[str, int], total: int, *, infinite: bool) -> Table:
    """Banker, player and tie: combinations (finite shoes), exact probability, decimal."""
    headers = ["outcome", "probability", "decimal"] if infinite else ["outcome", "combinations", "probability",
                                                                        "decimal"]
    rows: list[list[Cell]] = []
    for name in OUTCOME_ORDER:
        p = Fraction(counts[name], total)
        row: list[Cell] = [name, fraction_text(p), decimal_text(p, 10)]
        if not infinite:
            row.insert(1, counts[name])
        rows.append(row)
    total_row: list[Cell] = ["total", "1", decimal_text(1, 10)]
    if not infinite:
        total_row.insert(1, total)
    rows.append(total_row)
    note = "Infinite deck: every card independent, a 0-valued card 4/13, each of 1-9 1/13." if infinite else (
        f"Combinations are ordered six-card sequences ({grouped(total)} in all).")
    return Table(f"Punto banco odds, {shoe_label}", headers, rows, (note,))


def odds_json(cards: int | None, counts: dict[str, int], total: int) -> dict[str, object]:
    """The ``odds --format json`` object; ``cards``/``sequences``/``combinations`` only for finite shoes."""
    outcomes: dict[str, object] = {}
    for name in OUTCOME_ORDER:
        p = Fraction(counts[name], total)
        entry: dict[str, object] = {"probability": fraction_text(p), "decimal": float(p)}
        if cards is not None:
            entry = {"combinations": counts[name], **entry}
        outcomes[name] = entry
    head: dict[str, object] = {"cards": cards, "sequences": total} if cards is not None else {"cards": "infinite"}
    return {**head, "outcomes": outcomes}
