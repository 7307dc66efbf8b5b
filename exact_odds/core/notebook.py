"""Results as tables in a notebook: the one small HTML table writer of the lower layers.

Result objects define ``_repr_html_``, which Jupyter calls, with rows handed to :func:`html_table`.
Every cell is escaped; exact numbers are written exactly, and :class:`Approx` or :class:`Percent`
columns beside them are for reading only.

>>> from fractions import Fraction
>>> print(html_table(["outcome", "ways"], [["<tie>", 8], ["banker", Fraction(1, 2)]]))
<table class="exact-odds">
<thead><tr><th>outcome</th><th>ways</th></tr></thead>
<tbody>
<tr><td style="text-align:left">&lt;tie&gt;</td><td style="text-align:right">8</td></tr>
<tr><td style="text-align:left">banker</td><td style="text-align:right">1/2</td></tr>
</tbody>
</table>
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable, Sequence
from fractions import Fraction

MAX_ROWS = 60
"""Rows shown before a table is cut (the rest are counted in a last line)."""


class Approx(float):
    """A float shown to six significant digits: an approximation beside an exact figure."""


class Percent(float):
    """A float shown as a percentage with four decimals (``-1.0579%``)."""


def cell_text(value: object) -> str:
    """The text of one cell, not yet escaped.

    >>> [cell_text(v) for v in (1234567, Fraction(-3, 8), Fraction(4), Approx(1 / 3), Percent(-0.0105791), None)]
    ['1,234,567', '-3/8', '4', '0.333333', '-1.0579%', '–']
    """
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Percent):
        return f"{value:.4%}"
    if isinstance(value, Approx):
        return f"{value:.6g}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    return str(value)


def _cell(value: object, tag: str = "td") -> str:
    numeric = isinstance(value, (int, float, Fraction)) and not isinstance(value, bool)
    align = "right" if numeric else "left"
    return f'<{tag} style="text-align:{align}">{html.escape(cell_text(value))}</{tag}>'


def html_table(columns: Sequence[str], rows: Iterable[Sequence[object]], *, caption: str = "",
               notes: Sequence[str] = (), max_rows: int = MAX_ROWS) -> str:
    """An HTML table of ``rows`` under ``columns``, every text escaped; at most ``max_rows`` rows (a
    last line counts the others). ``caption`` heads it; ``notes`` follow it, a paragraph each."""
    out = ['<table class="exact-odds">']
    if caption:
        out.append(f"<caption>{html.escape(caption)}</caption>")
    out.append("<thead><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in columns) + "</tr></thead>")
    out.append("<tbody>")
    rows = iter(rows)
    out += ["<tr>" + "".join(_cell(value) for value in row) + "</tr>" for row in itertools.islice(rows, max_rows)]
    left = sum(1 for _ in rows)
    if left:
        more = f"… and {left:,} more row{'s' if left > 1 else ''}"
        out.append(f'<tr><td colspan="{len(columns)}">{html.escape(more)}</td></tr>')
    out += ["</tbody>", "</table>"]
    out += [f"<p>{html.escape(note)}</p>" for note in notes]
    return "\n".join(out)


def html_tables(*tables: str) -> str:
    """Several tables of one result, one after the other."""
    return '<div class="exact-odds">\n' + "\n".join(tables) + "\n</div>"
