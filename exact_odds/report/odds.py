"""Rows for ``odds`` (and ``odds --dealt``) and the whole reference report of ``report``."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from exact_odds.report.base import (
    OUTCOME_ORDER,
    Cell,
    Table,
    decimal_text,
    fraction_text,
    grouped,
    render_json,
    render_tables,
)
from exact_odds.report.edges import edges_json, edges_table, par_sheet_json, par_sheet_table
from exact_odds.report.sidebets import side_bet_json, side_bets_table

if TYPE_CHECKING:  # the library is imported lazily at run time: the command line starts with this module
    from exact_odds.conditional import Dealt
    from exact_odds.dist import Dist
    from exact_odds.engine import Winner
    from exact_odds.shoe import Shoe
    from exact_odds.tableau import Tableau


def odds_table(shoe_label: str, counts: dict[str, int], total: int, *, infinite: bool) -> Table:
    """Banker, player and tie: combinations (finite shoes), exact probability, decimal."""
    headers = ["outcome", "probability", "decimal"] if infinite else ["outcome", "combinations", "probability",
                                                                        "decimal"]
    rows: list[list[Cell]] = []
    for name in OUTCOME_ORDER:
        p = Fraction(counts[name], total)
        row: list[Cell] = [name, fraction_text(p), decimal_text(p, 10)]
        if not infinite:
            row.insert(1, counts[name])
        rows.append(row)
    total_row: list[Cell] = ["total", "1", decimal_text(1, 10)]
    if not infinite:
        total_row.insert(1, total)
    rows.append(total_row)
    note = "Infinite deck: every card independent, a 0-valued card 4/13, each of 1-9 1/13." if infinite else (
        f"Combinations are ordered six-card sequences ({grouped(total)} in all).")
    return Table(f"Punto banco odds, {shoe_label}", headers, rows, (note,))


def odds_json(cards: int | None, counts: dict[str, int], total: int) -> dict[str, object]:
    """The ``odds --format json`` object; ``cards``/``sequences``/``combinations`` only for finite shoes."""
    outcomes: dict[str, object] = {}
    for name in OUTCOME_ORDER:
        p = Fraction(counts[name], total)
        entry: dict[str, object] = {"probability": fraction_text(p), "decimal": float(p)}
        if cards is not None:
            entry = {"combinations": counts[name], **entry}
        outcomes[name] = entry
    head: dict[str, object] = {"cards": cards, "sequences": total} if cards is not None else {"cards": "infinite"}
    return {**head, "outcomes": outcomes}


def reference_report(shoe: Shoe, tableau: Tableau, fmt: str) -> str:
    """The reference report of one shoe: odds, every configuration's edges, par sheets, other bets.

    Par sheets are shown once per distinct pay table (``tie-9/banker`` is the standard
    banker bet). Every registered bet that belongs to no configuration (the side bets)
    gets a row in a last table, found generically from the bet registry; bets that need
    suits are left out (and named) when the shoe's suits are not known. Every figure comes
    from one enumeration at the finest detail the bets need (the counts do not depend on it).
    """
    from exact_odds.bets.core import registered
    from exact_odds.bets.main import CONFIGURATIONS, ROLES, is_main_bet
    from exact_odds.edges import configuration_sheets, distinct_bets, par_sheet
    from exact_odds.engine import Detail, deal, winners

    other_bets = [bet for bet in registered() if not is_main_bet(bet)]
    usable = [bet for bet in other_bets if bet.detail < Detail.SUITS or shoe.suited is not None]
    detail = max((bet.detail for bet in usable), default=Detail.POINTS)
    dist = winners(deal(shoe, tableau, detail=detail))
    counts: dict[str, int] = {k: dist[k] for k in ROLES}
    configs = [(c, configuration_sheets(shoe, c, tableau=tableau, detail=detail)) for c in CONFIGURATIONS.values()]
    main_bets = distinct_bets([bet for config in CONFIGURATIONS.values() for bet in config.bets])
    sheets = [par_sheet(shoe, bet, tableau=tableau, detail=detail) for bet, _ in main_bets]
    others = [par_sheet(shoe, bet, tableau=tableau, detail=detail) for bet in usable]
    skipped = [bet.name for bet in other_bets if bet not in usable]
    if fmt == "json":
        return render_json({
            "odds": odds_json(None if shoe.infinite else shoe.size, counts, dist.total),
            **edges_json(str(shoe), configs),
            "par_sheets": [par_sheet_json(sheet) for sheet in sheets],
            "other_bets": {sheet.bet.name: side_bet_json(sheet) for sheet in others},
            "skipped_bets": skipped,
        })
    tables = [odds_table(str(shoe), counts, dist.total, infinite=shoe.infinite), edges_table(str(shoe), configs, fmt)]
    for (_, same), sheet in zip(main_bets, sheets, strict=True):
        also = f" (also {', '.join(b.name for b in same[1:])})" if len(same) > 1 else ""
        tables.append(par_sheet_table(sheet, fmt, title=f"Par sheet: {sheet.bet.name}{also}, {shoe}"))
    if others:
        tables.append(side_bets_table(str(shoe), others, fmt, omitted=skipped))
    return render_tables(tables, fmt)


def dealt_odds_text(shoe: Shoe, dealt: Dealt, dist: Dist[Winner], fmt: str) -> str:
    """``odds --dealt``: the odds of the rest of the coup given the cards already dealt, in any format."""
    counts: dict[str, int] = {k: 0 for k in OUTCOME_ORDER} | dict(dist.items())
    dealt_cards = len(dealt.player) + len(dealt.banker)
    left = None if shoe.infinite else shoe.size - dealt_cards
    if fmt == "json":
        return render_json({"dealt": str(dealt), "shoe": str(shoe), **odds_json(left, counts, dist.total)})
    positions = 6 - dealt_cards
    table = odds_table(f"{shoe}, given {dealt}", counts, dist.total, infinite=shoe.infinite)
    note = (f"Given the cards dealt, the rest of the coup is {positions} card position{'s' if positions != 1 else ''}; "
            + (f"combinations are their ordered sequences from the {grouped(left)} cards left "
               f"({grouped(dist.total)} in all)." if left is not None else "each card is drawn independently."))
    return render_tables([Table(table.title, table.headers, table.rows, (note,))], fmt)
