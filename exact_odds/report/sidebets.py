"""Tables and JSON for ``sidebets`` and tables/sidebets.*: one row per bet from its par sheet (percentages for
people, exact fractions for programs)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import groupby
from typing import TYPE_CHECKING

from exact_odds.report.base import Cell, Table, decimal_text, for_people, fraction_text, percent_text
from exact_odds.report.edges import EDGE_NOTE, edge_cells, edge_headers, lines_json
from exact_odds.report.provenance import shoe_json

if TYPE_CHECKING:
    from exact_odds.analysis.edges import ParSheet
    from exact_odds.core.shoe import Shoe


def odds_text(pays: Fraction) -> str:
    """A net payout as a pay table shows it: ``"11:1"``, ``"0.54:1"``, ``"1:2"``, ``"push"``, ``"-1/2"``.

    >>> [odds_text(Fraction(p)) for p in (11, "27/50", "1/2", "1/3", 0, "-1/2")]
    ['11:1', '0.54:1', '0.5:1', '1:3', 'push', '-1/2']
    """
    if pays == 0:
        return "push"
    if pays < 0:
        return fraction_text(pays)
    digits = next((d for d in range(12) if (pays * 10**d).denominator == 1), None)
    if digits is not None:  # a terminating decimal: "0.54:1"
        return f"{decimal_text(pays, digits)}:1"
    return f"{pays.numerator}:{pays.denominator}"


def pay_table_text(sheet: ParSheet) -> str:
    """The bet's pays in line order, e.g. ``"200:1 / 25:1"`` (repeats of one payout shown once)."""
    return " / ".join(text for text, _ in groupby(odds_text(line.pays) for line in sheet.lines[:-1]))  # not "loses"


SIDE_BETS_NOTE = ("House edge: expected loss per unit staked per coup (positive: the house wins); win: the "
                  "chance of a positive payout. Exact fractions with --format csv or json; the pay lines of one "
                  "bet with `exact-odds parsheet --bet NAME`.")


def _sources_notes(sheets: Sequence[ParSheet]) -> list[str]:
    by_source: dict[str, list[str]] = {}
    for sheet in sheets:
        by_source.setdefault(sheet.bet.source, []).append(sheet.bet.name)
    return [f"{', '.join(names)}: {source}." for source, names in by_source.items()]


def side_bets_table(shoe_label: str, sheets: Sequence[ParSheet], fmt: str, *,
                    omitted: Sequence[str] = ()) -> Table:
    """The house edge of each bet on one shoe, with its pay table and its chance to win."""
    if for_people(fmt):
        headers = ["bet", "pays", "win", "house edge", "std dev"]
        rows: list[list[Cell]] = [[s.bet.name, pay_table_text(s), percent_text(s.win), percent_text(s.house_edge),
                                   f"{s.std_dev:.4f}"] for s in sheets]
    else:
        headers = ["bet", "pays", "win", "house_edge", "player_ev", "variance"]
        rows = [[s.bet.name, pay_table_text(s), s.win, s.house_edge, s.expected_value, s.variance] for s in sheets]
    notes: list[str] = []
    if fmt != "csv":
        notes = [SIDE_BETS_NOTE, *_sources_notes(sheets)]
        if omitted:
            notes.append(f"Not shown: {', '.join(omitted)} (perfect pairs need a shoe whose suits are known).")
    return Table(f"Side bets, {shoe_label}", headers, rows, notes)


def side_edges_table(shoe_label: str, sheets: Sequence[ParSheet], fmt: str) -> Table:
    """Each side bet's pay table and the columns of ``edges``."""
    rows: list[list[Cell]] = [[sheet.bet.name, pay_table_text(sheet), *edge_cells(sheet, fmt)] for sheet in sheets]
    notes = [EDGE_NOTE] if for_people(fmt) else []
    return Table(f"House edges of the side bets, {shoe_label}", ["bet", "pays", *edge_headers(fmt)], rows,
                 notes if fmt != "csv" else ())


def side_bet_json(sheet: ParSheet) -> dict[str, object]:
    """One bet for JSON: its exact figures, pay table and pay lines."""
    return {
        "house_edge": sheet.house_edge, "house_edge_resolved": sheet.house_edge_resolved,
        "player_ev": sheet.expected_value, "win": sheet.win, "push": sheet.push, "loss": sheet.loss,
        "variance": sheet.variance, "std_dev": sheet.std_dev, "pays": pay_table_text(sheet),
        "description": sheet.bet.description, "source": sheet.bet.source, "detail": sheet.bet.detail.name.lower(),
        "lines": lines_json(sheet),
    }


def side_bets_json(shoe: Shoe, sheets: Sequence[ParSheet], *, omitted: Sequence[str] = ()) -> dict[str, object]:
    """The ``sidebets --format json`` object: the shoe, each bet's figures, ``sequences`` and ``omitted``."""
    out: dict[str, object] = {"shoe": shoe_json(shoe), "side_bets": {s.bet.name: side_bet_json(s) for s in sheets}}
    if sheets and not sheets[0].shoe.infinite:
        out["sequences"] = sheets[0].total
    if omitted:
        out["omitted"] = list(omitted)
    return out


def side_bets_by_shoe_table(labels: Sequence[str], rows: Sequence[tuple[str, Sequence[Fraction]]],
                            fmt: str) -> Table:
    """House edges of each bet (rows) on several shoes (columns): percentages, or exact for csv."""
    cells: list[list[Cell]] = [[name, *(percent_text(e) if fmt != "csv" else e for e in edges)]
                               for name, edges in rows]
    notes = () if fmt == "csv" else (
        "House edge: expected loss per unit staked per coup (positive: the house wins), exact and then rounded; "
        "the csv file has the exact fractions.",)
    return Table("House edges of the side bets by number of decks", ["bet", *labels], cells, notes)
