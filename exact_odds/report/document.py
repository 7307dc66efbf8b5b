"""A command's whole output: its :class:`~exact_odds.report.provenance.Provenance`, then its tables, in each
format (JSON is :func:`~exact_odds.report.provenance.with_provenance`; a workbook :mod:`.xlsx`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import shown
from exact_odds.report.base import text_tables
from exact_odds.report.html import html_page, html_tables
from exact_odds.report.latex import latex_document, latex_tables

if TYPE_CHECKING:
    from exact_odds.report.base import Table
    from exact_odds.report.provenance import Provenance


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
    if fmt == "table":
        return provenance.text_block() + text_tables(tables, fmt)
    if fmt == "markdown":
        return provenance.markdown_block() + text_tables(tables, fmt)
    if fmt == "csv":
        return provenance.comment_lines() + text_tables(tables, fmt)
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
