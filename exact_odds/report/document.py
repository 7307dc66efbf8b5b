"""A command's whole output in a format people read or a program parses: provenance, then tables.

:func:`render_document` heads the tables (:func:`~exact_odds.report.base.render_tables`) with the
:class:`~exact_odds.report.provenance.Provenance` in the way of each format: a block of
``label  value`` lines (``table``), a list (``markdown``), ``#`` comment lines (``csv``), a
complete LaTeX document (:mod:`.latex`) or a self-contained HTML page (:mod:`.html`, with the
command's figures inline as SVG). JSON is :func:`~exact_odds.report.provenance.with_provenance`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from exact_odds.inputs.errors import InputError

if TYPE_CHECKING:
    from exact_odds.report.base import Table
    from exact_odds.report.provenance import Provenance


class Figure(NamedTuple):
    """A drawing of an HTML page: ``svg`` is one ``<svg>`` element (no external resource), ``title`` its caption."""

    title: str
    svg: str


def document_title(tables: Sequence[Table], provenance: Provenance) -> str:
    """A document's title: the first table's title (else the command's name)."""
    return tables[0].title if tables else f"exact-odds {provenance.command}"


def render_body(tables: Sequence[Table], fmt: str) -> str:
    """The tables alone as LaTeX (``booktabs`` and ``longtable``) or HTML, ending with a newline."""
    if fmt == "latex":
        from exact_odds.report.latex import latex_tables

        return latex_tables(tables)
    from exact_odds.report.html import html_tables

    return html_tables(tables)


def render_document(tables: Sequence[Table], fmt: str, provenance: Provenance, *,
                    figures: Sequence[Figure] = (), fragment: bool = False) -> str:
    """``tables`` in format ``fmt``, headed by ``provenance`` (see the module); ends with a newline.

    ``fragment``: LaTeX tables without the document around them (and without the provenance).
    ``figures`` appear in HTML only.
    """
    from exact_odds.report.base import render_tables

    if fmt == "table":
        return provenance.text_block() + render_tables(tables, fmt)
    if fmt == "markdown":
        return provenance.markdown_block() + render_tables(tables, fmt)
    if fmt == "csv":
        return provenance.comment_lines() + render_tables(tables, fmt)
    if fmt == "latex":
        from exact_odds.report.latex import latex_document, latex_tables

        return latex_tables(tables) if fragment else latex_document(tables, provenance)
    if fmt == "html":
        from exact_odds.report.html import html_page

        return html_page(tables, provenance, figures)
    raise InputError(f"unknown format {fmt!r} (choose from table, markdown, csv, latex, html)")


def render_text_document(text: str, fmt: str, provenance: Provenance) -> str:
    """A drawing or a story (``deal``, ``roads``) in plain text, headed by ``provenance``."""
    if fmt != "table":
        raise InputError(f"unknown format {fmt!r} (choose from table, json)")
    return provenance.text_block() + text
