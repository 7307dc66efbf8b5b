"""The report layer: turns exact results into rows, tables and text (``from exact_odds.report import X``).

One module per domain, each importing the library modules below it (NumPy and SymPy only in the
functions that need them):

- :mod:`~exact_odds.report.base`: :class:`Table` and the text formats of tables (the only place that
  imports tabulate), number formats, JSON, :class:`ProgressBar`; :mod:`~exact_odds.report.files`:
  :func:`write_atomic`;
- :mod:`~exact_odds.report.odds`: ``odds`` and the reference ``report``;
- :mod:`~exact_odds.report.edges`: ``edges``, ``parsheet``, ``symbolic``, break-even payouts;
- :mod:`~exact_odds.report.sidebets`: ``sidebets``;
- :mod:`~exact_odds.report.study`: ``eor``, ``batch``, ``study``;
- :mod:`~exact_odds.report.simulation`: ``simulate``, ``deal``, ``session``;
- :mod:`~exact_odds.report.roads`: ``roads``;
- :mod:`~exact_odds.report.bunco`: ``bunco``;
- :mod:`~exact_odds.report.provenance`: what produced an output (version, tableau, pay table, shoe,
  procedure, seed), at the top of every format;
- :mod:`~exact_odds.report.document`: tables in every format (:func:`render_tables`), and a whole
  output, provenance and tables, in each format;
  :mod:`~exact_odds.report.html` (one self-contained page) and :mod:`~exact_odds.report.latex`
  (a document that pdflatex compiles, or the tables alone).
"""

from __future__ import annotations

from exact_odds.report.base import (
    FORMATS,
    OUTCOME_ORDER,
    Cell,
    ProgressBar,
    Table,
    cell_text,
    decimal_text,
    fraction_text,
    grouped,
    jsonable,
    percent_text,
    render_json,
    scientific_text,
)
from exact_odds.report.bunco import bunco_json, bunco_tables, rolls_verification_json, rolls_verification_tables
from exact_odds.report.document import render_tables
from exact_odds.report.edges import (
    BREAK_EVEN_NOTE,
    EDGE_NOTE,
    BreakEvens,
    ConfigSheets,
    break_even_table,
    closed_form_tables,
    edge_json,
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
from exact_odds.report.roads import ROAD_LEGENDS, roads_json, roads_text
from exact_odds.report.sidebets import (
    SIDE_BETS_NOTE,
    odds_text,
    pay_table_text,
    side_bet_json,
    side_bets_by_shoe_table,
    side_bets_json,
    side_bets_table,
)
from exact_odds.report.simulation import (
    card_label,
    deal_json,
    deal_text,
    session_figures,
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
    "BREAK_EVEN_NOTE",
    "EDGE_NOTE",
    "FORMATS",
    "OUTCOME_ORDER",
    "ROAD_LEGENDS",
    "SIDE_BETS_NOTE",
    "BreakEvens",
    "Cell",
    "ConfigSheets",
    "ProgressBar",
    "Table",
    "batch_header",
    "batch_text",
    "break_even_table",
    "bunco_json",
    "bunco_tables",
    "card_label",
    "cell_text",
    "closed_form_tables",
    "deal_json",
    "deal_text",
    "dealt_odds_json",
    "dealt_odds_table",
    "decimal_text",
    "edge_json",
    "edges_by_decks_tables",
    "edges_json",
    "edges_table",
    "eor_json",
    "eor_tables",
    "fraction_text",
    "grouped",
    "jsonable",
    "odds_json",
    "odds_table",
    "odds_text",
    "par_sheet_json",
    "par_sheet_table",
    "par_sheets_tables",
    "pay_table_text",
    "payout_symbol_tables",
    "percent_text",
    "reference_json",
    "reference_tables",
    "render_json",
    "render_tables",
    "replay_json",
    "replay_table",
    "roads_json",
    "roads_text",
    "rolls_verification_json",
    "rolls_verification_tables",
    "scientific_text",
    "session_figures",
    "session_json",
    "session_tables",
    "side_bet_json",
    "side_bets_by_shoe_table",
    "side_bets_json",
    "side_bets_table",
    "simulation_json",
    "simulation_tables",
    "study_json",
    "study_tables",
    "symbolic_json",
    "write_atomic",
]
