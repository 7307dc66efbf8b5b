"""The base of the report layer: tables, their text formats, number formats, JSON, a progress bar.

The only module that imports tabulate (lazily). A decimal or percent is rounded from the exact
:class:`~fractions.Fraction`, never through a float (half away from zero). A whole document
(provenance, LaTeX, HTML) is :mod:`.document`'s work.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TextIO

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown

FORMATS = ("table", "markdown", "csv", "json", "latex", "html", "xlsx")
Cell = str | int | Fraction


class Math(str):
    """A cell holding an expression: its text in program syntax (``8*d**4/13``), and :attr:`expr`, which
    LaTeX sets as mathematics (``None`` where only the text is shown)."""

    expr: object

    def __new__(cls, expr: object, text: str | None = None) -> Math:
        cell = super().__new__(cls, str(expr) if text is None else text)
        cell.expr = expr
        return cell


@dataclass(frozen=True, slots=True)
class Table:
    """A titled table; cells are strings or exact numbers (rendered by :func:`cell_text`)."""

    title: str
    headers: Sequence[str]
    rows: Sequence[Sequence[Cell]]
    notes: Sequence[str] = ()


def fraction_text(x: Fraction | int) -> str:
    """A reduced fraction as ``"num/den"`` (an integer as ``"n"``)."""
    f = Fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def decimal_text(x: Fraction | int, digits: int = 6) -> str:
    """``x`` rounded to ``digits`` decimal places (half away from zero), computed exactly."""
    scaled = abs(Fraction(x)) * 10**digits
    q, r = divmod(scaled.numerator, scaled.denominator)
    if 2 * r >= scaled.denominator:
        q += 1
    whole, frac = divmod(q, 10**digits)
    text = f"{whole}.{frac:0{digits}d}" if digits else str(whole)
    return f"-{text}" if x < 0 and q else text


def percent_text(x: Fraction | int, digits: int = 4) -> str:
    """``x`` as a percentage with ``digits`` decimals, e.g. ``"1.0579%"``."""
    return decimal_text(Fraction(x) * 100, digits) + "%"


def signed_percent(x: Fraction, digits: int = 4) -> str:
    """:func:`percent_text` with a ``+`` before a positive figure: ``"+1.2346%"``."""
    text = percent_text(x, digits)
    return text if text.startswith("-") or x == 0 else "+" + text


def for_people(fmt: str) -> bool:
    """True for the formats people read (rounded percentages); csv, json and xlsx carry exact fractions."""
    return fmt not in ("csv", "json", "xlsx")


def percent_cell(x: Fraction, fmt: str, digits: int = 4, *, signed: bool = False) -> Cell:
    """``x`` as a percentage in the formats people read (:func:`signed_percent` if ``signed``), else exact."""
    if not for_people(fmt):
        return x
    return signed_percent(x, digits) if signed else percent_text(x, digits)


def yes_no(flag: bool) -> str:
    """``"yes"`` or ``"no"``."""
    return "yes" if flag else "no"


def scientific_text(x: Fraction | int, digits: int = 4) -> str:
    """``x`` in scientific notation with ``digits`` mantissa decimals, rounded exactly: ``"1.6582e-08"``."""
    f = Fraction(x)
    if not f:
        return decimal_text(f, digits) + "e+00"
    a = abs(f)
    exponent = len(str(a.numerator)) - len(str(a.denominator))
    while Fraction(10) ** exponent > a:
        exponent -= 1
    while Fraction(10) ** (exponent + 1) <= a:
        exponent += 1
    mantissa = decimal_text(a / Fraction(10) ** exponent, digits)
    if mantissa.startswith("10"):  # 9.99995 rounded up to 10.0000
        exponent += 1
        mantissa = decimal_text(a / Fraction(10) ** exponent, digits)
    return f"{'-' if f < 0 else ''}{mantissa}e{exponent:+03d}"


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


def markdown_cell(text: str) -> str:
    r"""A cell's text for a Markdown (GitHub) table: each ``|`` escaped as ``\|``, so it does not
    end the cell, with the backslashes just before it doubled (``a\|b`` stays ``a\|b`` when rendered).

    >>> print(markdown_cell("4|5|6|7=-1"), markdown_cell("a\\|b"), markdown_cell("a\\b"))
    4\|5\|6\|7=-1 a\\\|b a\b
    """
    return re.sub(r"(\\*)\|", lambda m: m.group(1) * 2 + "\\|", text)


def _tabulate(table: Table, tablefmt: str) -> str:
    rows = [[cell_text(c) for c in row] for row in table.rows]
    headers = list(table.headers)
    if tablefmt == "github":  # Markdown: every table goes through here
        headers = [markdown_cell(h) for h in headers]
        rows = [[markdown_cell(c) for c in row] for row in rows]
    fast = plain_layout(headers, rows, tablefmt)
    if fast is not None:
        return fast
    from tabulate import tabulate  # lazy: tabulate costs start-up time

    return tabulate(rows, headers=headers, tablefmt=tablefmt, disable_numparse=True)


NARROW = frozenset(map(chr, range(32, 127))) | frozenset("≈±–—²³×−♠♥♦♣…§·°")
"""Characters tabulate (wcwidth) counts one column wide: printable ASCII and the reports' symbols."""


def plain_layout(headers: list[str], rows: list[list[str]], tablefmt: str) -> str | None:
    """tabulate's ``simple`` or ``github`` layout of string cells (``disable_numparse``), without importing it.

    Only for a header and rows of one-line :data:`NARROW` cells; anything else returns ``None`` (tabulate
    then does it). A test compares the two on random tables.
    """
    if tablefmt not in ("simple", "github") or not rows or not headers:
        return None
    if any(len(row) != len(headers) for row in rows) or not all(
            NARROW.issuperset(text) for row in (headers, *rows) for text in row):
        return None
    cells = [[text.strip() for text in row] for row in rows]
    widths = [max(len(h) + 2, *(len(row[i]) for row in cells)) for i, h in enumerate(headers)]
    if tablefmt == "simple":
        lines = ["  ".join(text.ljust(w) for text, w in zip(row, widths, strict=True)).rstrip()
                 for row in (headers, ["-" * w for w in widths], *cells)]
    else:
        lines = ["|" + "|".join(f" {text.ljust(w)} " for text, w in zip(row, widths, strict=True)) + "|"
                 for row in (headers, *cells)]
        lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def _csv(table: Table) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(list(table.headers))
    for row in table.rows:
        writer.writerow([fraction_text(c) if isinstance(c, (Fraction, int)) and not isinstance(c, bool) else c
                         for c in row])
    return buf.getvalue().rstrip("\n")


def text_tables(tables: Sequence[Table], fmt: str) -> str:
    """Render tables as ``table``, ``markdown`` or ``csv`` text (ends with a newline).

    CSV keeps integers ungrouped and fractions as ``num/den``; several CSV tables each get a ``# title`` line.
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
        else:
            raise InputError(f"unknown format {shown(fmt)} (choose from {', '.join(FORMATS)})")
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


class ProgressBar:
    """A one-line progress bar on a stream, redrawn in place by ``bar(done, total)``; silent unless ``enabled``.

    It ends with the share done (``" 42%"``), or ``"1,000/5,000 shoes"`` with a ``unit``; ``close()`` (or the
    end of a ``with`` block) clears it.
    """

    def __init__(self, stream: TextIO, label: str, *, enabled: bool, unit: str | None = None) -> None:
        self.stream, self.label, self.enabled, self.unit = stream, label, enabled, unit
        self._shown = ""

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled or total <= 0:
            return
        width = 30
        filled = width * done // total
        tail = f"{done:,}/{total:,} {self.unit}" if self.unit else f"{100 * done // total:3d}%"
        text = f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {tail} "
        if text != self._shown:
            self.stream.write(text)
            self.stream.flush()
            self._shown = text

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\r" + " " * (len(self._shown) - 1) + "\r")
            self.stream.flush()
