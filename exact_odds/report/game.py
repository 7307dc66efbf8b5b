"""Tables and JSON for ``report --game``: one casino's whole par sheet, from one game file.

Each table is the one the separate command prints (``odds``, ``edges``, ``parsheet``, ``eor``, each with
``--game``), so a figure reads the same in either; the side bets' house edges take the layout of ``edges``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from exact_odds.analysis.edges import ParSheet, ReferenceSheets
from exact_odds.analysis.removal import MAX_TAG, LinearCount, Removal
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.game import Game
from exact_odds.report.base import Cell, Table, for_people
from exact_odds.report.concepts import procedure_json, shoe_json
from exact_odds.report.edges import EDGE_NOTE, edge_cells, edge_headers, edges_table, par_sheet_table
from exact_odds.report.odds import odds_table, reference_json
from exact_odds.report.sidebets import pay_table_text
from exact_odds.report.study import eor_json, eor_tables


@dataclass(frozen=True, slots=True)
class RemovalFigures:
    """The effects of removal of ``report --eor``, as ``eor`` gives them: per bet, its effects and the count
    they suggest, and the bets left out (suits unknown)."""

    removals: Sequence[Removal]
    counts: Sequence[LinearCount]
    omitted: Sequence[str] = ()
    max_tag: int = MAX_TAG


def game_table(game: Game) -> Table:
    """What the game is, part by part (shoe, tableau, pay table, side bets, dealing, source), its description
    as a note."""
    config = game.configuration
    rows: list[list[Cell]] = [
        ["shoe", str(game.shoe)], ["tableau", game.tableau.name], ["pay table", f"{config.name}: {config.description}"],
        ["side bets", ", ".join(bet.name for bet in game.side_bets) or "none"], ["dealing", game.procedure.describe()]]
    if game.source:
        rows.append(["source", game.source])
    return Table(f"Game: {game.name}", ["part", "value"], rows, [game.description] if game.description else [])


def side_edges_table(shoe_label: str, sheets: Sequence[ParSheet], fmt: str) -> Table:
    """Each side bet's pay table and the columns of ``edges``."""
    rows: list[list[Cell]] = [[sheet.bet.name, pay_table_text(sheet), *edge_cells(sheet, fmt)] for sheet in sheets]
    notes = [EDGE_NOTE] if for_people(fmt) else []
    return Table(f"House edges of the side bets, {shoe_label}", ["bet", "pays", *edge_headers(fmt)], rows,
                 notes if fmt != "csv" else ())


def _main_sheets(sheets: ReferenceSheets) -> list[ParSheet]:
    return [sheet for _, by_role in sheets.configurations for sheet in by_role.values()]


def game_tables(game: Game, sheets: ReferenceSheets, fmt: str, eor: RemovalFigures | None = None) -> list[Table]:
    """The par sheet of a casino's game: the game, the odds, the house edges of the main bets and of
    the side bets, the par sheet of every bet, and (``eor``) the effects of removal."""
    shoe = str(sheets.shoe)
    custom = None if game.tableau == STANDARD_TABLEAU else game.tableau.name
    tables = [game_table(game), odds_table(shoe, sheets.counts, sheets.total, infinite=sheets.shoe.infinite,
                                           tableau=custom),
              edges_table(shoe, sheets.configurations, fmt)]
    omitted = [bet.name for bet in sheets.omitted]
    if sheets.others or omitted:
        side = side_edges_table(shoe, sheets.others, fmt)
        if omitted and fmt != "csv":
            note = f"Not shown: {', '.join(omitted)} (suited bets need a shoe whose suits are known)."
            side = replace(side, notes=[*side.notes, note])
        tables.append(side)
    tables += [par_sheet_table(sheet, fmt) for sheet in [*_main_sheets(sheets), *sheets.others]]
    if eor is not None:
        tables += eor_tables(shoe, eor.removals, eor.counts, fmt, omitted=eor.omitted, max_tag=eor.max_tag)
    return tables


def game_json(game: Game, sheets: ReferenceSheets, eor: RemovalFigures | None = None) -> dict[str, object]:
    """The ``report --game --format json`` object: the ``game``, then :func:`~.odds.reference_json` with every
    main bet's par sheet, and with ``eor`` the object ``eor`` prints."""
    shoe = sheets.shoe
    out: dict[str, object] = {
        "game": {"name": game.name, "description": game.description, "source": game.source,
                 "shoe": shoe_json(shoe),
                 "tableau": game.tableau.name, "configuration": game.configuration.name,
                 "side_bets": [bet.name for bet in game.side_bets], "procedure": procedure_json(game.procedure)},
        **reference_json(sheets, _main_sheets(sheets)),
    }
    if eor is not None:
        out["eor"] = eor_json(shoe, eor.removals, eor.counts, omitted=eor.omitted)
    return out
