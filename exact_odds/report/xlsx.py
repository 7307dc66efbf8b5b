"""Spreadsheet output (``--format xlsx``, with openpyxl): a sheet for the provenance, then one sheet a table.

A sheet holds its table's title (A1), the headers (row 2), the rows, then the notes; its name is the
title cut to 31 characters (made unique). Numbers are stored as numbers: an integer with a thousands
format, a fraction as the nearest double (a percentage when its header reads as one), and beside each
column of fractions a text column ``HEADER (exact)`` keeps them exactly. Text that is a number
(``"1,234"``, ``"1.0579%"``) becomes that number.

>>> from fractions import Fraction
>>> book = workbook_bytes([Table("Odds", ["outcome", "probability"], [["tie", Fraction(1, 8)]])],
...                       Provenance(command="odds"))
>>> book[:2]
b'PK'
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from exact_odds.inputs.errors import require
from exact_odds.report.base import Cell, Math, Table, fraction_text
from exact_odds.report.provenance import Provenance

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

PERCENT_FORMAT = "0.0000%"
DECIMAL_FORMAT = "0.0000000000"
THOUSANDS_FORMAT = "#,##0"
EXACT_SUFFIX = " (exact)"
"""The header of the text column beside a column of fractions: ``probability (exact)``."""

SHEET_NAME = 31
"""The longest name a worksheet may have."""
_PERCENT_WORDS = re.compile(r"probab|edge|ev\b|return|win|push|loss|chance|effect|share|%|rate|advantage",
                            re.IGNORECASE)
"""Words of a header whose fractions read as percentages."""

_NUMBER = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?%?")
"""A number a table gives as text: ``1,234``, ``-0.5``, ``1.6e-08``, ``1.0579%``."""

_BAD_SHEET_CHARACTERS = re.compile(r"[\[\]:*?/\\]")


def workbook_bytes(tables: Sequence[Table], provenance: Provenance) -> bytes:
    """The ``.xlsx`` file of ``tables`` headed by a sheet of the ``provenance`` (see the module)."""
    openpyxl = require("openpyxl", "xlsx", "--format xlsx needs openpyxl")
    book = openpyxl.Workbook()
    first = book.active
    first.title = "provenance"
    _fill(first, "Provenance", ["part", "value"], [list(field) for field in provenance.fields()])
    names = {"provenance"}
    for table in tables:
        sheet = book.create_sheet(_sheet_name(table.title, names))
        headers, rows = exact_columns(table)
        _fill(sheet, table.title, headers, rows, table.notes)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _sheet_name(title: str, taken: set[str]) -> str:
    """A worksheet name for a table's title: no ``[]:*?/\\``, at most 31 characters, not yet ``taken``.

    >>> _sheet_name("Par sheet: my-casino/banker, 6 decks", set())
    'Par sheet my-casino-banker, 6 d'
    """
    base = re.sub(r"\s+", " ", _BAD_SHEET_CHARACTERS.sub(lambda m: "-" if m.group() in "/\\" else "", title))
    base = base.strip().strip("'")[:SHEET_NAME] or "table"
    name, n = base, 1
    while name.lower() in {t.lower() for t in taken}:
        n += 1
        name = f"{base[:SHEET_NAME - len(str(n)) - 1]} {n}"
    taken.add(name)
    return name


def exact_columns(table: Table) -> tuple[list[str], list[list[Cell]]]:
    """The headers and rows of ``table`` with a text column ``HEADER (exact)`` after each column holding a
    fraction (or its ``num/den`` text): the number, then its exact text (a blank beside any other cell).

    >>> exact_columns(Table("t", ["bet", "edge"], [["tie", "-1/8"], ["none", "n/a"]]))
    (['bet', 'edge', 'edge (exact)'], [['tie', Fraction(-1, 8), '-1/8'], ['none', 'n/a', '']])
    """
    with_fractions = [any(_is_fraction(row[i]) for row in table.rows if i < len(row))
                      for i in range(len(table.headers))]
    headers: list[str] = []
    for header, exact in zip(table.headers, with_fractions, strict=True):
        headers += [header, header + EXACT_SUFFIX] if exact else [header]
    rows: list[list[Cell]] = []
    for row in table.rows:
        cells: list[Cell] = []
        for value, exact in zip(row, with_fractions, strict=False):
            number = _exact(value) if exact else None
            if not exact:
                cells.append(value)
            elif number is None:
                cells += [value, ""]
            else:
                cells += [number, fraction_text(number)]
        rows.append(cells)
    return headers, rows


_FRACTION_TEXT = re.compile(r"-?\d+/\d+")
_INTEGER_TEXT = re.compile(r"-?\d+")


def _is_fraction(value: Cell) -> bool:
    return (isinstance(value, Fraction) or
            (isinstance(value, str) and not isinstance(value, Math) and bool(_FRACTION_TEXT.fullmatch(value))))


def _exact(value: Cell) -> Fraction | None:
    """The exact number of a cell of a column of fractions: a fraction, an integer or their text; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (Fraction, int)):
        return Fraction(value)
    if isinstance(value, Math) or not (_FRACTION_TEXT.fullmatch(value) or _INTEGER_TEXT.fullmatch(value)):
        return None
    return Fraction(value)


def _fill(sheet: Worksheet, title: str, headers: Sequence[str], rows: Sequence[Sequence[Cell]],
          notes: Sequence[str] = ()) -> None:
    """Write the title (A1, bold), the headers (row 2, bold, frozen) and the rows of one sheet, then its notes."""
    openpyxl = require("openpyxl", "xlsx", "--format xlsx needs openpyxl")
    bold = openpyxl.styles.Font(bold=True)
    sheet.cell(row=1, column=1, value=title).font = bold
    for column, header in enumerate(headers, start=1):
        sheet.cell(row=2, column=column, value=header).font = bold
    for r, row in enumerate(rows, start=3):
        for column, (header, value) in enumerate(zip(headers, row, strict=False), start=1):
            number, style = spreadsheet_value(value, header)
            cell = sheet.cell(row=r, column=column, value=number)
            if style is not None:
                cell.number_format = style
    for offset, note in enumerate(notes, start=len(rows) + 4):
        sheet.cell(row=offset, column=1, value=note)
    sheet.freeze_panes = "A3"
    for i, header in enumerate(headers):  # each column as wide as its widest text, between 8 and 60
        texts = [header, *(str(row[i]) for row in rows if i < len(row))]
        width = float(min(60, max(8, *(len(t) + 2 for t in texts))))
        sheet.column_dimensions[openpyxl.utils.get_column_letter(i + 1)].width = width


def spreadsheet_value(value: Cell, header: str) -> tuple[Any, str | None]:
    """A cell's value as the spreadsheet stores it, and its number format (``None``: none).

    >>> spreadsheet_value(Fraction(1, 8), "probability"), spreadsheet_value(1234, "combinations")
    ((0.125, '0.0000%'), (1234, '#,##0'))
    >>> spreadsheet_value("1.0579%", "edge"), spreadsheet_value("11:1", "pays")
    ((0.010579, '0.0000%'), ('11:1', None))
    """
    if isinstance(value, bool):
        return value, None
    if isinstance(value, int):
        return value, THOUSANDS_FORMAT
    if isinstance(value, Fraction):
        return float(value), PERCENT_FORMAT if _PERCENT_WORDS.search(header) else DECIMAL_FORMAT
    text = str(value)
    if header.endswith(EXACT_SUFFIX) or not _NUMBER.fullmatch(text):
        return text, None
    if text.endswith("%"):
        return float(Fraction(text[:-1].replace(",", "")) / 100), PERCENT_FORMAT
    if "," in text:
        return int(text.replace(",", "")), THOUSANDS_FORMAT
    number = Fraction(text)
    if number.denominator == 1 and "." not in text and "e" not in text.lower():
        return int(number), THOUSANDS_FORMAT
    return float(number), DECIMAL_FORMAT
