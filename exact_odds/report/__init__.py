"""The report layer: exact results as tables, text and JSON (``from exact_odds.report import X``).

One module per command family (:mod:`.odds`, :mod:`.edges`, :mod:`.study`...) lays out
:class:`~exact_odds.report.base.Table` s and JSON objects; :mod:`.base` renders tables as text, and
:mod:`.document` a whole output headed by its :mod:`.provenance` (map: docs/development.md).
"""

from __future__ import annotations

from exact_odds.report.base import FORMATS, ProgressBar, Table, decimal_text, fraction_text, percent_text, render_json
from exact_odds.report.bunco import bunco_json, bunco_tables, rolls_verification_json, rolls_verification_tables
from exact_odds.report.document import render_tables
from exact_odds.report.edges import (
    ConfigSheets,
    break_even_table,
    closed_form_tables,
    edges_by_decks_tables,
    edges_json,
    edges_table,
    par_sheet_json,
    par_sheet_table,
    par_sheets_tables,
    payout_symbol_tables,
    symbolic_json,
)
from exact_odds.report.files import write_atomic
from exact_odds.report.odds import (
    dealt_odds_json,
    dealt_odds_table,
    odds_json,
    odds_table,
    reference_json,
    reference_tables,
)
from exact_odds.report.roads import roads_json, roads_text
from exact_odds.report.sidebets import side_bets_by_shoe_table, side_bets_json, side_bets_table
from exact_odds.report.simulation import (
    card_label,
    deal_json,
    deal_text,
    session_json,
    session_tables,
    simulation_json,
    simulation_tables,
)
from exact_odds.report.study import (
    batch_header,
    batch_text,
    eor_json,
    eor_tables,
    replay_json,
    replay_table,
    study_json,
    study_tables,
)

__all__ = [
    "FORMATS", "ConfigSheets", "ProgressBar", "Table", "batch_header", "batch_text", "break_even_table", "bunco_json",
    "bunco_tables", "card_label", "closed_form_tables", "deal_json", "deal_text", "dealt_odds_json",
    "dealt_odds_table", "decimal_text", "edges_by_decks_tables", "edges_json", "edges_table", "eor_json", "eor_tables",
    "fraction_text", "odds_json", "odds_table", "par_sheet_json", "par_sheet_table", "par_sheets_tables",
    "payout_symbol_tables", "percent_text", "reference_json", "reference_tables", "render_json", "render_tables",
    "replay_json", "replay_table", "roads_json", "roads_text", "rolls_verification_json", "rolls_verification_tables",
    "session_json", "session_tables", "side_bets_by_shoe_table", "side_bets_json", "side_bets_table",
    "simulation_json", "simulation_tables", "study_json", "study_tables", "symbolic_json", "write_atomic",
]
