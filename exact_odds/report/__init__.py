"""The report layer: turns exact results into rows, tables and text (``from exact_odds.report import X``).

One module per domain, each importing the library modules below it lazily (or only for typing).
Names are imported from their module when first used (PEP 562 ``__getattr__``, as in
:mod:`exact_odds`), so that a command reads only the report code it renders with:

- :mod:`~exact_odds.report.base`: :class:`Table`, :func:`render_tables` (the only place that imports
  tabulate), number formats, JSON, :func:`write_atomic`, :class:`ProgressBar`;
- :mod:`~exact_odds.report.odds`: ``odds`` and the reference ``report``;
- :mod:`~exact_odds.report.edges`: ``edges``, ``parsheet``, ``symbolic``, break-even payouts;
- :mod:`~exact_odds.report.sidebets`: ``sidebets``;
- :mod:`~exact_odds.report.study`: ``eor``, ``batch``, ``study``;
- :mod:`~exact_odds.report.simulation`: ``simulate``, ``deal``, ``session``;
- :mod:`~exact_odds.report.roads`: ``roads``;
- :mod:`~exact_odds.report.bunco`: ``bunco``;
- :mod:`~exact_odds.report.provenance`: what produced an output (version, tableau, pay table, shoe,
  procedure, seed), at the top of every format;
- :mod:`~exact_odds.report.document`: a whole output, provenance and tables, in each format;
  :mod:`~exact_odds.report.html` (one self-contained page) and :mod:`~exact_odds.report.latex`
  (a document that pdflatex compiles, or the tables alone).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from exact_odds.lazy import lazy_attributes

if TYPE_CHECKING:
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
        render_tables,
        scientific_text,
    )
    from exact_odds.report.bunco import bunco_json, bunco_tables, rolls_verification_json, rolls_verification_tables
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

_HOMES: dict[str, tuple[str, ...]] = {
    "exact_odds.report.base": ("FORMATS", "OUTCOME_ORDER", "Cell", "ProgressBar", "Table", "cell_text", "decimal_text",
                               "fraction_text", "grouped", "jsonable", "percent_text", "render_json", "render_tables",
                               "scientific_text"),
    "exact_odds.report.bunco": ("bunco_json", "bunco_tables", "rolls_verification_json", "rolls_verification_tables"),
    "exact_odds.report.edges": ("BREAK_EVEN_NOTE", "EDGE_NOTE", "BreakEvens", "ConfigSheets", "break_even_table",
                                "closed_form_tables", "edge_json", "edges_by_decks_tables", "edges_json", "edges_table",
                                "par_sheet_json", "par_sheet_table", "par_sheets_tables", "payout_symbol_tables",
                                "symbolic_json"),
    "exact_odds.report.files": ("write_atomic",),
    "exact_odds.report.odds": ("dealt_odds_json", "dealt_odds_table", "odds_json", "odds_table", "reference_json",
                               "reference_tables"),
    "exact_odds.report.roads": ("ROAD_LEGENDS", "roads_json", "roads_text"),
    "exact_odds.report.sidebets": ("SIDE_BETS_NOTE", "odds_text", "pay_table_text", "side_bet_json",
                                   "side_bets_by_shoe_table", "side_bets_json", "side_bets_table"),
    "exact_odds.report.simulation": ("card_label", "deal_json", "deal_text", "session_figures", "session_json",
                                     "session_tables", "simulation_json", "simulation_tables"),
    "exact_odds.report.study": ("batch_header", "batch_text", "eor_json", "eor_tables", "replay_json",
                                "replay_table", "study_json", "study_tables"),
}
"""The module that defines each name of ``__all__`` (the imports above say the same to type checkers)."""

_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

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


__getattr__, __dir__ = lazy_attributes(__name__, _HOME_OF, __all__)
