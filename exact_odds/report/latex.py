"""LaTeX output: ``booktabs`` rules in ``longtable`` environments, and a complete document around them.

A wide table is set in a smaller font, the widest on a landscape page, to fit A4 with 1.5 cm margins.
Text is escaped, and the characters pdflatex rejects are converted (``≈`` to ``$\\approx$``, an accented
letter to its accent command, anything else outside ASCII to ``?``); a :class:`~exact_odds.report.base.Math`
cell is set through ``sympy.latex``. The document compiles with pdflatex and TeX Live's ``latex-base`` and
``latex-recommended`` (run it twice, as for any ``longtable``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from exact_odds.report.base import Cell, Math, Table, cell_text, document_title

if TYPE_CHECKING:
    from exact_odds.report.provenance import Provenance

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
    """``text`` as LaTeX source that pdflatex accepts: special characters escaped, others converted.

    >>> latex_escape("≈ 1.06% × 2 & d_1")
    '$\\\\approx$ 1.06\\\\% $\\\\times$ 2 \\\\& d\\\\_1'
    """
    return "".join(map(_char, text))


def _cell(value: Cell) -> str:
    if not isinstance(value, Math):
        return latex_escape(cell_text(value))
    import sympy  # lazy: only a closed form needs it

    try:
        return f"${sympy.latex(value.expr)}$"
    except Exception:  # an expression sympy cannot set: its text, escaped
        return latex_escape(str(value))


_SIZES = ((80, ""), (92, r"\small"), (105, r"\footnotesize"), (125, r"\scriptsize"), (150, r"\tiny"))
"""(characters across, font size command): the first size whose width fits the table is used."""


def _layout(table: Table) -> tuple[str, bool]:
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
    size, landscape = _layout(table)
    cols = "l" + "r" * (len(table.headers) - 1)
    head = " & ".join(latex_escape(h) for h in table.headers) + r" \\"
    math = any(isinstance(c, Math) for row in table.rows for c in row)
    stretch = r"\renewcommand{\arraystretch}{2.6}" if math else ""  # room for fractions: rows apart
    lines = [r"\begin{landscape}" if landscape else "", "{" + size + stretch + r"\setlength{\tabcolsep}{4pt}",
             f"\\begin{{longtable}}{{{cols}}}", f"\\caption{{{latex_escape(table.title)}}}\\\\",
             r"\toprule", head, r"\midrule", r"\endfirsthead", r"\toprule", head, r"\midrule", r"\endhead",
             r"\bottomrule", r"\endlastfoot"]
    lines += [" & ".join(_cell(c) for c in row) + r" \\" for row in table.rows]
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
