"""A command's whole output: its :class:`Provenance`, then its tables, in each format (JSON is
:func:`with_provenance`).

Provenance: which program, command, tableau (name and SHA-256 of its decisions), pay table, shoe, dealing
procedure and seed produced an output, at the top of every format; a part a command does not use is
``None`` (JSON ``null``). No date and no host: the same command line gives the same bytes.

LaTeX: ``booktabs`` rules in ``longtable`` environments, a wide table in a smaller font or on a landscape
page (A4, 1.5 cm margins); text escaped or converted for pdflatex (:func:`latex_escape`). It compiles with
pdflatex and TeX Live's ``latex-base`` and ``latex-recommended`` (run it twice, as for any ``longtable``).

HTML: one self-contained page (inline CSS, figures inline as SVG, nothing fetched) that reads on a phone
and prints. A column whose cells are all numbers is right-aligned; every text is escaped.

xlsx (with openpyxl): a provenance sheet, then one sheet a table, numbers stored as numbers
(docs/formats.md, "Spreadsheets").
"""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

from exact_odds import __version__
from exact_odds.inputs.errors import InputError, require
from exact_odds.inputs.validate import shown
from exact_odds.report.base import Cell, Math, Table, cell_text, fraction_text, text_tables

if TYPE_CHECKING:
    from openpyxl.worksheet.worksheet import Worksheet

    from exact_odds.core.shoe import Shoe
    from exact_odds.dealing.procedure import Procedure


# ---------------------------------------------------------------- provenance, and the shapes it shares

PROGRAM = "exact-odds"


@dataclass(frozen=True, slots=True)
class Provenance:
    """What produced an output (see the module). ``tableau`` is ``(name, sha256 hex key)``;
    ``procedure_text`` the procedure in words for the formats people read."""

    command: str
    tableau: tuple[str, str] | None = None
    configuration: str | None = None
    shoe: Mapping[str, object] | None = None
    procedure: Mapping[str, object] | None = None
    procedure_text: str | None = None
    seed: int | None = None
    version: str = __version__

    def as_json(self) -> dict[str, object]:
        """The ``"provenance"`` object of the JSON outputs, the first key of each (:func:`with_provenance`)."""
        tableau = None if self.tableau is None else {"name": self.tableau[0], "key": self.tableau[1]}
        return {"program": PROGRAM, "version": self.version, "command": self.command, "tableau": tableau,
                "configuration": self.configuration, "shoe": None if self.shoe is None else dict(self.shoe),
                "procedure": None if self.procedure is None else dict(self.procedure), "seed": self.seed}

    def fields(self) -> list[tuple[str, str]]:
        """(label, value) of each part given, for people: program first, then tableau ... seed."""
        parts = [("program", f"{PROGRAM} {self.version}, command {self.command}"),
                 ("tableau", None if self.tableau is None else f"{self.tableau[0]} (sha256 {self.tableau[1]})"),
                 ("configuration", self.configuration),
                 ("shoe", None if self.shoe is None else str(self.shoe["description"])),
                 ("procedure", self.procedure_text), ("seed", None if self.seed is None else str(self.seed))]
        return [(label, value) for label, value in parts if value is not None]

    def comment_lines(self) -> str:
        """``# label: value`` lines (each ending with a newline), for the top of a CSV file."""
        return "".join(f"# {label}: {value}\n" for label, value in self.fields())

    def text_block(self) -> str:
        """The header of a plain-text output: one ``label: value`` line each, then a blank line."""
        width = max(len(label) for label, _ in self.fields())
        return "".join(f"{label.ljust(width)}  {value}\n" for label, value in self.fields()) + "\n"

    def markdown_block(self) -> str:
        """The header of a Markdown output: a list of the parts, then a blank line."""
        return "".join(f"- **{label}**: {value}\n" for label, value in self.fields()) + "\n"


def with_provenance(value: object, provenance: Provenance) -> dict[str, object]:
    """A command's JSON result with ``"provenance"`` as its first key; a list becomes ``"results"``."""
    if isinstance(value, dict):
        return {"provenance": provenance.as_json(), **{k: v for k, v in value.items() if k != "provenance"}}
    return {"provenance": provenance.as_json(), "results": value}


def shoe_json(shoe: Shoe) -> dict[str, object]:
    """The shoe: ``{"description": "8 decks", "cards": 416}`` (``cards`` ``null`` for the infinite deck)."""
    return {"description": str(shoe), "cards": None if shoe.infinite else shoe.size}


def procedure_json(procedure: Procedure) -> dict[str, object]:
    """How coups are dealt: ``fresh`` (every coup from a full shoe: the rest then does not apply), ``cut_card``
    (cards behind it), ``last_coup`` (``"one-more"`` or ``"this"``), ``burn``, and a ``description``."""
    return {"description": procedure.describe(), "fresh": procedure.fresh, "cut_card": procedure.cut,
            "last_coup": procedure.last_coup, "burn": procedure.burn}


@dataclass(frozen=True, slots=True)
class Figure:
    """A drawing of an HTML page: ``svg`` is one ``<svg>`` element (no external resource), ``title`` its caption."""

    title: str
    svg: str


def render_tables(tables: Sequence[Table], fmt: str) -> str:
    """Render tables alone as ``table``, ``markdown``, ``csv``, ``latex`` or ``html`` text (ends with a newline)."""
    if fmt == "latex":
        return latex_tables(tables)
    if fmt == "html":
        return html_tables(tables)
    return text_tables(tables, fmt)


def render_document(tables: Sequence[Table], fmt: str, provenance: Provenance, *,
                    figures: Sequence[Figure] = (), fragment: bool = False) -> str:
    """``tables`` in format ``fmt`` headed by ``provenance`` (ends with a newline); ``fragment``: LaTeX tables
    alone; ``figures`` appear in HTML only."""
    heads = {"table": provenance.text_block, "markdown": provenance.markdown_block, "csv": provenance.comment_lines}
    if fmt in heads:
        return heads[fmt]() + text_tables(tables, fmt)
    if fmt == "latex":
        return latex_tables(tables) if fragment else latex_document(tables, provenance)
    if fmt == "html":
        return html_page(tables, provenance, figures)
    raise InputError(f"unknown format {shown(fmt)} (choose from table, markdown, csv, latex, html)")


def render_text_document(text: str, fmt: str, provenance: Provenance) -> str:
    """A drawing or a story (``deal``, ``roads``) in plain text, headed by ``provenance``."""
    if fmt != "table":
        raise InputError(f"unknown format {shown(fmt)} (choose from table, json)")
    return provenance.text_block() + text


def document_title(tables: Sequence[Table], provenance: Provenance) -> str:
    """A document's title: the first table's title (else the command's name)."""
    return tables[0].title if tables else f"exact-odds {provenance.command}"


# ---------------------------------------------------------------- LaTeX

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
            "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
            "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "\n": " "}
_UNICODE = {"≈": r"$\approx$", "×": r"$\times$", "−": r"$-$", "→": r"$\rightarrow$", "←": r"$\leftarrow$",
            "♣": r"$\clubsuit$", "♠": r"$\spadesuit$", "♥": r"$\heartsuit$", "♦": r"$\diamondsuit$",
            "±": r"$\pm$", "–": "--", "—": "---", "²": r"\textsuperscript{2}", "³": r"\textsuperscript{3}",
            "…": r"\ldots{}", "§": r"\S{}", "·": r"$\cdot$", "°": r"$^\circ$", "≤": r"$\leq$", "≥": r"$\geq$",
            "≠": r"$\neq$", "∞": r"$\infty$", "√": r"$\surd$", "≱": "?", "‘": "`", "’": "'", "“": "``",
            "”": "''", "\u00a0": "~", "µ": r"$\mu$", "σ": r"$\sigma$", "χ": r"$\chi$", "α": r"$\alpha$",
            "Δ": r"$\Delta$"}
_ACCENTS = {"\u0301": "'", "\u0300": "`", "\u0302": "^", "\u0308": '"', "\u0303": "~", "\u0327": "c "}


def _char(c: str) -> str:
    if c in _SPECIAL:
        return _SPECIAL[c]
    if c.isascii():
        return c
    if c in _UNICODE:
        return _UNICODE[c]
    decomposed = unicodedata.normalize("NFD", c)
    base, marks = decomposed[0], decomposed[1:]
    if base.isascii() and base.isalpha() and marks in _ACCENTS:
        return f"\\{_ACCENTS[marks]}{{{base}}}"
    return "?"


def latex_escape(text: str) -> str:
    """``text`` as LaTeX source that pdflatex accepts: special characters escaped, ``≈`` as ``$\\approx$``, an
    accented letter as its accent command, anything else outside ASCII as ``?``.

    >>> latex_escape("≈ 1.06% × 2 & d_1")
    '$\\\\approx$ 1.06\\\\% $\\\\times$ 2 \\\\& d\\\\_1'
    """
    return "".join(map(_char, text))


def _latex_cell(value: Cell) -> str:
    if not isinstance(value, Math):
        return latex_escape(cell_text(value))
    import sympy  # lazy: only a closed form needs it

    try:
        return f"${sympy.latex(value.expr)}$"
    except Exception:  # an expression sympy cannot set: its text, escaped
        return latex_escape(str(value))


_SIZES = ((80, ""), (92, r"\small"), (105, r"\footnotesize"), (125, r"\scriptsize"), (150, r"\tiny"))
"""(characters across, font size command): the first size whose width fits the table is used."""


def _latex_layout(table: Table) -> tuple[str, bool]:
    """The font size command of ``table`` and whether it needs a landscape page, from its widest cells."""
    columns = [table.headers, *table.rows]
    widths = [max((len(str(row[i])) // (2 if isinstance(row[i], Math) else 1) for row in columns if i < len(row)),
                  default=0) for i in range(len(table.headers))]
    across = sum(widths) + 4 * len(widths)  # and the space between columns
    for landscape in (False, True):  # a landscape page is about 1.45 times as wide
        for limit, size in _SIZES:
            if across <= limit * (1.45 if landscape else 1):
                return size, landscape
    return r"\tiny", True


def latex_table(table: Table) -> str:
    """One table as a ``longtable`` with ``booktabs`` rules, its title as the caption, its notes below."""
    size, landscape = _latex_layout(table)
    cols = "l" + "r" * (len(table.headers) - 1)
    head = " & ".join(latex_escape(h) for h in table.headers) + r" \\"
    math = any(isinstance(c, Math) for row in table.rows for c in row)
    stretch = r"\renewcommand{\arraystretch}{2.6}" if math else ""  # room for fractions: rows apart
    lines = [r"\begin{landscape}" if landscape else "", "{" + size + stretch + r"\setlength{\tabcolsep}{4pt}",
             f"\\begin{{longtable}}{{{cols}}}", f"\\caption{{{latex_escape(table.title)}}}\\\\",
             r"\toprule", head, r"\midrule", r"\endfirsthead", r"\toprule", head, r"\midrule", r"\endhead",
             r"\bottomrule", r"\endlastfoot"]
    lines += [" & ".join(_latex_cell(c) for c in row) + r" \\" for row in table.rows]
    lines += [r"\end{longtable}", "}"]
    lines += [f"\\par\\noindent{{\\small {latex_escape(note)}}}\\par" for note in table.notes]
    lines.append(r"\end{landscape}" if landscape else "")
    return "\n".join(line for line in lines if line)


def latex_tables(tables: Sequence[Table]) -> str:
    """The tables alone (to ``\\input`` in a document that loads ``booktabs`` and ``longtable``)."""
    return "\n\n".join(latex_table(t) for t in tables) + "\n"


PREAMBLE = r"""\documentclass[10pt,a4paper]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{lmodern}
\usepackage[margin=1.5cm]{geometry}
\usepackage{amsmath,amssymb}
\usepackage{booktabs}
\usepackage{longtable}
\usepackage{pdflscape}
\setlength{\LTcapwidth}{\textwidth}
\setlength{\parindent}{0pt}
\pagestyle{plain}
\sloppy
\setlength{\emergencystretch}{3em}"""
"""The packages the document loads (all in TeX Live's latex-base and latex-recommended)."""


def latex_document(tables: Sequence[Table], provenance: Provenance) -> str:
    """A complete LaTeX document: a title, the provenance as a list, then every table."""
    fields = "\n".join(f"  \\item[{latex_escape(label)}] {latex_escape(value)}"
                       for label, value in provenance.fields())
    return "\n".join([
        PREAMBLE, r"\begin{document}", f"\\section*{{{latex_escape(document_title(tables, provenance))}}}",
        r"\begin{description}\small", fields.replace("(sha256 ", r"(sha256 \allowbreak "), r"\end{description}",
        "", latex_tables(tables), r"\end{document}", ""])


# ---------------------------------------------------------------- HTML

STYLE = """
:root{color-scheme:light}
*{box-sizing:border-box}
body{margin:0;padding:1rem;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;
color:#111;background:#fff}
main{max-width:80rem;margin:0 auto}
h1{font-size:1.3rem;margin:0 0 .6rem}
dl.provenance{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.15rem .8rem;margin:0 0 1.2rem;
padding:.6rem .8rem;background:#f4f5f7;border-radius:6px;font-size:.85rem}
dl.provenance dt{font-weight:600}
dl.provenance dd{margin:0;overflow-wrap:anywhere}
section{margin:0 0 1.5rem}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%;border:1px solid #e2e4e8;border-radius:6px}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.88rem;min-width:100%}
caption{caption-side:top;text-align:left;font-weight:600;padding:.5rem .6rem;white-space:normal}
th,td{padding:.3rem .6rem;border-top:1px solid #e2e4e8;white-space:nowrap;text-align:left;vertical-align:top}
thead th{border-top:0;border-bottom:2px solid #444;background:#fafbfc}
td.num,th.num{text-align:right}
td.math{white-space:normal;min-width:20rem;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.8rem}
p.note{margin:.4rem 0 0;font-size:.85rem;color:#333}
figure{margin:1rem 0}
figure svg{display:block;max-width:100%;height:auto}
figcaption{font-size:.85rem;color:#333}
@media (max-width:40rem){body{padding:.5rem;font-size:14px}dl.provenance{grid-template-columns:1fr}}
@media print{body{padding:0;font-size:10pt}main{max-width:none}.scroll{overflow:visible;border:0}
table{font-size:8pt}th,td{white-space:normal;padding:.15rem .3rem}tr,figure{break-inside:avoid}
thead{display:table-header-group}dl.provenance{background:none;padding:0}}
"""
"""The page's style sheet: layout on screens of any width, and for print."""

_NUMBER = re.compile(r"[+\-−]?(\d[\d,]*(\.\d+)?|\.\d+)(e[+\-]\d+)?%?(/\d+)?|[+\-−]?\d+/\d+|n/a|—|-|")
"""A cell that reads as a number (or is empty, or a dash): such a column is right-aligned."""


def _numeric(value: Cell) -> bool:
    if isinstance(value, (int, Fraction)):
        return True
    return _NUMBER.fullmatch(value.strip()) is not None


def _numeric_columns(table: Table) -> list[bool]:
    """For each column, whether every body cell is a number (at least one not empty)."""
    out = []
    for i in range(len(table.headers)):
        cells = [row[i] for row in table.rows if i < len(row)]
        out.append(bool(cells) and all(map(_numeric, cells))
                   and any(cell_text(c).strip() not in ("", "-", "—", "n/a") for c in cells))
    return out


def _html_row(cells: Sequence[Cell], numeric: Sequence[bool]) -> str:
    out = []
    for value, num in zip(cells, numeric, strict=False):
        kind = " class=\"num\"" if num else " class=\"math\"" if isinstance(value, Math) else ""
        out.append(f"<td{kind}>{escape(cell_text(value))}</td>")
    return "<tr>" + "".join(out) + "</tr>"


def html_table(table: Table) -> str:
    """One table in its scrolling box, its title as the caption and its notes below."""
    numeric = _numeric_columns(table)
    right = ' class="num"'
    head = "".join(f"<th scope=\"col\"{right if num else ''}>{escape(h)}</th>"
                   for h, num in zip(table.headers, numeric, strict=True))
    body = "\n".join(_html_row(row, numeric) for row in table.rows)
    notes = "".join(f"\n<p class=\"note\">{escape(note)}</p>" for note in table.notes)
    return (f"<section>\n<div class=\"scroll\"><table>\n<caption>{escape(table.title)}</caption>\n"
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table></div>{notes}\n</section>")


def html_tables(tables: Sequence[Table]) -> str:
    """The tables alone, as HTML sections (ends with a newline)."""
    return "\n".join(html_table(t) for t in tables) + "\n"


def _html_figure(figure: Figure) -> str:
    return f"<figure>\n{figure.svg.strip()}\n<figcaption>{escape(figure.title)}</figcaption>\n</figure>"


def html_page(tables: Sequence[Table], provenance: Provenance, figures: Sequence[Figure] = ()) -> str:
    """A complete, self-contained HTML page: title, provenance, tables, then figures."""
    title = escape(document_title(tables, provenance))
    fields = "\n".join(f"<dt>{escape(label)}</dt><dd>{escape(value)}</dd>" for label, value in provenance.fields())
    parts = [
        "<!DOCTYPE html>", "<html lang=\"en\">", "<head>", "<meta charset=\"utf-8\">",
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
        f"<meta name=\"generator\" content=\"{escape(provenance.fields()[0][1])}\">",
        f"<title>{title}</title>", f"<style>{STYLE}</style>", "</head>", "<body>", "<main>",
        f"<h1>{title}</h1>", f"<dl class=\"provenance\">\n{fields}\n</dl>", html_tables(tables).rstrip("\n"),
        *(_html_figure(f) for f in figures), "</main>", "</body>", "</html>", ""]
    return "\n".join(parts)


# ---------------------------------------------------------------- xlsx: a workbook, one sheet a table

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

_NUMBER_TEXT = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?%?")
"""A number a table gives as text: ``1,234``, ``-0.5``, ``1.6e-08``, ``1.0579%``."""

_BAD_SHEET_CHARACTERS = re.compile(r"[\[\]:*?/\\]")


def workbook_bytes(tables: Sequence[Table], provenance: Provenance) -> bytes:
    """The ``.xlsx`` file of ``tables`` headed by a sheet of the ``provenance`` (see the module).

    >>> book = workbook_bytes([Table("Odds", ["outcome", "probability"], [["tie", Fraction(1, 8)]])],
    ...                       Provenance(command="odds"))
    >>> book[:2]
    b'PK'
    """
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
    if isinstance(value, bool):
        return None
    if isinstance(value, (Fraction, int)):
        return Fraction(value)
    if isinstance(value, Math) or not (_FRACTION_TEXT.fullmatch(value) or _INTEGER_TEXT.fullmatch(value)):
        return None
    return Fraction(value)


def _fill(sheet: Worksheet, title: str, headers: Sequence[str], rows: Sequence[Sequence[Cell]],
          notes: Sequence[str] = ()) -> None:
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
    if header.endswith(EXACT_SUFFIX) or not _NUMBER_TEXT.fullmatch(text):
        return text, None
    if text.endswith("%"):
        return float(Fraction(text[:-1].replace(",", "")) / 100), PERCENT_FORMAT
    if "," in text:
        return int(text.replace(",", "")), THOUSANDS_FORMAT
    number = Fraction(text)
    if number.denominator == 1 and "." not in text and "e" not in text.lower():
        return int(number), THOUSANDS_FORMAT
    return float(number), DECIMAL_FORMAT
