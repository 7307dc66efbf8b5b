"""HTML output: one self-contained page (inline CSS, figures inline as SVG, nothing fetched) that reads on a
phone and prints. A column whose cells are all numbers is right-aligned; every text is escaped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING

from exact_odds.report.base import Cell, Math, Table, cell_text, document_title

if TYPE_CHECKING:
    from exact_odds.report.document import Figure
    from exact_odds.report.provenance import Provenance

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


def _row(cells: Sequence[Cell], numeric: Sequence[bool]) -> str:
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
    body = "\n".join(_row(row, numeric) for row in table.rows)
    notes = "".join(f"\n<p class=\"note\">{escape(note)}</p>" for note in table.notes)
    return (f"<section>\n<div class=\"scroll\"><table>\n<caption>{escape(table.title)}</caption>\n"
            f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table></div>{notes}\n</section>")


def html_tables(tables: Sequence[Table]) -> str:
    """The tables alone, as HTML sections (ends with a newline)."""
    return "\n".join(html_table(t) for t in tables) + "\n"


def _figure(figure: Figure) -> str:
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
        *(_figure(f) for f in figures), "</main>", "</body>", "</html>", ""]
    return "\n".join(parts)
