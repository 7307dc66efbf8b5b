"""The report layer: exact results as tables, text and JSON.

One module per command family (:mod:`.odds`, :mod:`.edges`, :mod:`.study`...) lays out
:class:`~exact_odds.report.base.Table` s and JSON objects; :mod:`.base` renders tables as text, and
:mod:`.document` a whole output headed by its provenance (map: docs/development.md). Import a
name from the module that defines it; the number formats are also here (``from exact_odds.report import X``).
"""

from __future__ import annotations

from exact_odds.report.base import decimal_text, fraction_text, percent_text

__all__ = ["decimal_text", "fraction_text", "percent_text"]
