"""The base of the report layer: tables, number formats, JSON, a progress bar (files: :mod:`.files`).

This is the only module that imports tabulate (lazily, so the command line starts fast).
Numbers are formatted here and nowhere else, from exact values: a decimal or percent is
rounded from the :class:`~fractions.Fraction` itself, never through a float, so the
printed digits are correctly rounded (half away from zero).

Formats: ``table`` (plain text), ``markdown``, ``csv``, ``json``, ``latex``, ``html``, ``xlsx``; a whole
document (provenance, LaTeX preamble, HTML page, workbook) is :mod:`.document`'s work.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TextIO

from exact_odds.core.coup import OUTCOMES
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown

if TYPE_CHECKING:
    from exact_odds.report.provenance import Provenance

FORMATS = ("table", "markdown", "csv", "json", "latex", "html", "xlsx")
Cell = str | int | Fraction


class Math(str):
    """A cell holding a mathematical expression: its text is the expression in program syntax
    (``8*d**4/13``; ``str(expr)`` unless ``text`` gives it), and :attr:`expr` the expression
    itself, which LaTeX sets as mathematics (``None`` where only the text is shown)."""

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


def _plain_rows(table: Table) -> list[list[str]]:
    return [[cell_text(c) for c in row] for row in table.rows]


def markdown_cell(text: str) -> str:
    r"""A cell's text for a Markdown (GitHub) table: each ``|`` escaped as ``\|``, so it does not
    end the cell, with the backslashes just before it doubled (``a\|b`` stays ``a\|b`` when rendered).

    >>> print(markdown_cell("4|5|6|7=-1"), markdown_cell("a\\|b"), markdown_cell("a\\b"))
    4\|5\|6\|7=-1 a\\\|b a\b
    """
    if "|" not in text:
        return text

    return re.sub(r"(\\*)\|", lambda m: m.group(1) * 2 + "\\|", text)


def _tabulate(table: Table, tablefmt: str) -> str:
    rows = _plain_rows(table)
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
"""Characters one column wide for tabulate (whose width function, wcwidth, agrees): printable
ASCII and the reports' symbols."""


def plain_layout(headers: list[str], rows: list[list[str]], tablefmt: str) -> str | None:
    """tabulate's ``simple`` or ``github`` layout of string cells (``disable_numparse``), written out.

    Importing tabulate costs more than a whole ``odds`` command, so the common case is laid out
    here: a header and at least one row, every cell one line of printable ASCII or of the few
    one-column symbols the reports use (:data:`NARROW`). Cells are
    stripped and left-aligned in columns as wide as the widest cell or the header plus two;
    ``simple`` joins columns with two spaces and strips trailing blanks, ``github`` pads each
    with a space between bars. Anything else returns ``None`` (tabulate then does it); a test
    compares the two on random tables.
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
    """Render tables as ``table``, ``markdown`` or ``csv`` text (ends with a newline); the other formats
    are :func:`exact_odds.report.document.render_tables`'.

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


OUTCOME_ORDER = OUTCOMES
"""The order in which every report lists the outcomes of a coup (:data:`exact_odds.core.coup.OUTCOMES`)."""


def document_title(tables: Sequence[Table], provenance: Provenance) -> str:
    """A document's title: the first table's title (else the command's name)."""
    return tables[0].title if tables else f"exact-odds {provenance.command}"


def for_people(fmt: str) -> bool:
    """True for the formats people read (rounded percentages); csv, json and xlsx carry exact fractions."""
    return fmt not in ("csv", "json", "xlsx")


class ProgressBar:
    """A one-line progress bar on a stream, redrawn in place; silent unless ``enabled``.

    Call it as ``bar(done, total)`` (a progress callback of the simulator or a study); ``close()``
    clears it. The bar ends with the share done (``" 42%"``), or with ``done/total unit`` when a
    ``unit`` is given (``"1,000/5,000 shoes"``).
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

    def close(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\r" + " " * (len(self._shown) - 1) + "\r")
            self.stream.flush()
