"""Tables and JSON for ``odds`` (``--dealt``, ``--known``), ``advantage`` (partial information and its worth),
the whole reference report of ``report``, and ``report --game``: one casino's whole par sheet, each table
the one the separate command prints (``odds``, ``edges``, ``parsheet``, ``eor``, each with ``--game``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from exact_odds.analysis.conditional import Dealt
from exact_odds.analysis.edges import ParSheet, ReferenceSheets
from exact_odds.analysis.information.given import Advantage, CaseValue
from exact_odds.analysis.information.knowledge import Known
from exact_odds.analysis.removal import MAX_TAG, LinearCount, Removal
from exact_odds.core.coup import OUTCOMES, Winner
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.game import Game
from exact_odds.report import edges
from exact_odds.report.base import Cell, Table, decimal_text, fraction_text, grouped, percent_cell
from exact_odds.report.document import procedure_json, shoe_json
from exact_odds.report.study import eor_json, eor_tables

OutcomeWays = Mapping[Winner, int] | Dist[Winner]
"""Ways of each outcome, indexed by ``"banker"``, ``"player"`` and ``"tie"``."""


def odds_table(shoe_label: str, counts: OutcomeWays, total: int, *, infinite: bool,
               tableau: str | None = None) -> Table:
    """Banker, player and tie: combinations (finite shoes), exact probability, decimal. ``tableau``: the
    name of a drawing rule other than the standard one, which the title then names."""
    def row(name: str, ways: int) -> list[Cell]:
        p = Fraction(ways, total)
        return [name, *([] if infinite else [ways]), fraction_text(p), decimal_text(p, 10)]

    headers = ["outcome", *([] if infinite else ["combinations"]), "probability", "decimal"]
    rows = [row(name, counts[name]) for name in OUTCOMES] + [row("total", total)]
    note = "Infinite deck: every card independent, a 0-valued card 4/13, each of 1-9 1/13." if infinite else (
        f"Combinations are ordered six-card sequences ({grouped(total)} in all).")
    game = "Punto banco odds" if tableau is None else f"Odds under the tableau {tableau!r}"
    return Table(f"{game}, {shoe_label}", headers, rows, (note,))


def _outcomes_json(counts: OutcomeWays, total: int, *, finite: bool) -> dict[str, object]:
    return {name: {**({"combinations": counts[name]} if finite else {}),
                   "probability": fraction_text(Fraction(counts[name], total)),
                   "decimal": float(Fraction(counts[name], total))} for name in OUTCOMES}


def odds_json(shoe: Shoe, counts: OutcomeWays, total: int) -> dict[str, object]:
    """The ``odds --format json`` object: the shoe, ``sequences`` (``null`` for the infinite deck) and
    the outcomes; ``combinations`` count ordered six-card sequences (finite shoes only)."""
    finite = not shoe.infinite
    return {"shoe": shoe_json(shoe), "sequences": total if finite else None,
            "outcomes": _outcomes_json(counts, total, finite=finite)}


@dataclass(frozen=True, slots=True)
class RemovalFigures:
    """The effects of removal of ``report --eor``, as ``eor`` gives them: per bet, its effects and the count
    they suggest, and the bets left out (suits unknown)."""

    removals: Sequence[Removal]
    counts: Sequence[LinearCount]
    omitted: Sequence[str] = ()
    max_tag: int = MAX_TAG


def reference_json(sheets: ReferenceSheets, main: Sequence[ParSheet] | None = None,
                   eor: RemovalFigures | None = None) -> dict[str, object]:
    """The ``report --format json`` object: ``odds`` and ``house_edges`` (as ``odds`` and ``edges`` print them),
    the ``par_sheets`` of the main bets (``main``; by default one per distinct pay table), the ``side_bets``
    (as ``sidebets`` prints each), the ``skipped_bets`` and with ``eor`` the object ``eor`` prints."""
    shoe = sheets.shoe
    out: dict[str, object] = {
        "odds": odds_json(shoe, sheets.counts, sheets.total),
        "house_edges": edges.edges_json(shoe, sheets.configurations),
        "par_sheets": {sheet.bet.name: edges.par_sheet_json(sheet)
                       for sheet in (main if main is not None else [sheet for sheet, _ in sheets.main])},
        "side_bets": {sheet.bet.name: edges.side_bet_json(sheet) for sheet in sheets.others},
        "skipped_bets": [bet.name for bet in sheets.omitted],
    }
    if eor is not None:
        out["eor"] = eor_json(shoe, eor.removals, eor.counts, omitted=eor.omitted)
    return out


def _eor_tables(shoe: str, eor: RemovalFigures | None, fmt: str) -> list[Table]:
    return [] if eor is None else eor_tables(shoe, eor.removals, eor.counts, fmt, omitted=eor.omitted,
                                             max_tag=eor.max_tag)


def reference_tables(sheets: ReferenceSheets, fmt: str, *, tableau: str | None = None,
                     eor: RemovalFigures | None = None) -> list[Table]:
    """The reference report of one shoe: odds, every configuration's edges, a par sheet per distinct pay table
    (its title naming the bets that share it), a row for each other bet and the effects of removal (``eor``).
    ``tableau``: a non-standard rule."""
    shoe = str(sheets.shoe)
    tables = [odds_table(shoe, sheets.counts, sheets.total, infinite=sheets.shoe.infinite, tableau=tableau),
              edges.edges_table(shoe, sheets.configurations, fmt)]
    for sheet, same in sheets.main:
        also = f" (also {', '.join(b.name for b in same[1:])})" if len(same) > 1 else ""
        tables.append(edges.par_sheet_table(sheet, fmt, title=f"Par sheet: {sheet.bet.name}{also}, {shoe}"))
    if sheets.others:
        tables.append(edges.side_bets_table(shoe, sheets.others, fmt, omitted=[bet.name for bet in sheets.omitted]))
    return tables + _eor_tables(shoe, eor, fmt)


def _cards_left(shoe: Shoe, dealt: Dealt) -> int | None:
    return None if shoe.infinite else shoe.size - len(dealt.player) - len(dealt.banker)


def dealt_odds_json(shoe: Shoe, dealt: Dealt, dist: Dist[Winner]) -> dict[str, object]:
    """The ``odds --dealt --format json`` object: the shoe, the cards dealt and left (``null`` for the
    infinite deck), and the odds of the rest of the coup."""
    left = _cards_left(shoe, dealt)
    return {"shoe": shoe_json(shoe), "dealt": str(dealt), "cards_left": left,
            "sequences": dist.total if left is not None else None,
            "outcomes": _outcomes_json(dist, dist.total, finite=left is not None)}


def dealt_odds_table(shoe: Shoe, dealt: Dealt, dist: Dist[Winner], *, tableau: str | None = None) -> Table:
    """``odds --dealt``: the odds of the rest of the coup given the cards already dealt."""
    left = _cards_left(shoe, dealt)
    positions = 6 - len(dealt.player) - len(dealt.banker)
    table = odds_table(f"{shoe}, given {dealt}", dist, dist.total, infinite=shoe.infinite, tableau=tableau)
    note = (f"Given the cards dealt, the rest of the coup is {positions} card position{'s' if positions != 1 else ''}; "
            + (f"combinations are their ordered sequences from the {grouped(left)} cards left "
               f"({grouped(dist.total)} in all)." if left is not None else "each card is drawn independently."))
    return replace(table, notes=(note,))


# ---------------------------------------------------------------- report --game


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


def _main_sheets(sheets: ReferenceSheets) -> list[ParSheet]:
    return [sheet for _, by_role in sheets.configurations for sheet in by_role.values()]


def game_tables(game: Game, sheets: ReferenceSheets, fmt: str, eor: RemovalFigures | None = None) -> list[Table]:
    """The par sheet of a casino's game: the game, the odds, the house edges of the main bets and of
    the side bets, the par sheet of every bet, and (``eor``) the effects of removal."""
    shoe = str(sheets.shoe)
    custom = None if game.tableau == STANDARD_TABLEAU else game.tableau.name
    tables = [game_table(game), odds_table(shoe, sheets.counts, sheets.total, infinite=sheets.shoe.infinite,
                                           tableau=custom),
              edges.edges_table(shoe, sheets.configurations, fmt)]
    omitted = [bet.name for bet in sheets.omitted]
    if sheets.others or omitted:
        side = edges.side_edges_table(shoe, sheets.others, fmt)
        if omitted and fmt != "csv":
            note = f"Not shown: {', '.join(omitted)} (suited bets need a shoe whose suits are known)."
            side = replace(side, notes=[*side.notes, note])
        tables.append(side)
    tables += [edges.par_sheet_table(sheet, fmt) for sheet in [*_main_sheets(sheets), *sheets.others]]
    return tables + _eor_tables(shoe, eor, fmt)


def game_json(game: Game, sheets: ReferenceSheets, eor: RemovalFigures | None = None) -> dict[str, object]:
    """The ``report --game --format json`` object: the ``game``, then :func:`~.odds.reference_json` with every
    main bet's par sheet, and with ``eor`` the object ``eor`` prints."""
    return {"game": {"name": game.name, "description": game.description, "source": game.source,
                     "shoe": shoe_json(sheets.shoe), "tableau": game.tableau.name,
                     "configuration": game.configuration.name, "side_bets": [bet.name for bet in game.side_bets],
                     "procedure": procedure_json(game.procedure)},
            **reference_json(sheets, _main_sheets(sheets), eor)}


# ---------------------------------------------------------------- odds --known and advantage

POSITION_NOTE = ("Positions are the next six cards of the shoe in dealing order: 1 and 3 the player's, 2 and 4 "
                 "the banker's, 5 the fifth card (the player's third if the player draws, else the banker's third if "
                 "the banker draws, else unused), 6 the sixth (the banker's third after a player's third, else "
                 "unused). A position is that card of the shoe whether or not the coup uses it.")

PLAYER_EV_NOTE = "player_ev: the bettor's exact expectation per unit staked (positive: the bettor wins; a push is 0)."
BEST_PLAY_NOTE = "Best play: the bet of highest expectation, or sitting out (0) when none is positive."


def _signed(x: Fraction, fmt: str) -> Cell:
    return percent_cell(x, fmt, signed=True)


def known_odds_tables(shoe: Shoe, known: Known, dist: Dist[Winner], player_ev: Sequence[tuple[str, Fraction]],
                      fmt: str) -> list[Table]:
    """``odds --known``: banker, player and tie given the knowledge, then each main bet's expectation."""
    table = odds_table(f"{shoe}, given {known}", dist, dist.total, infinite=shoe.infinite)
    note = ("Combinations are the ordered six-card sequences of the shoe whose card at each known position is one "
            f"it may be ({grouped(dist.total)} in all), unused cards included." if not shoe.infinite else
            "Infinite deck: every card independent (a 0-valued card 4/13, each of 1-9 1/13), so a known position "
            "changes nothing but itself.")
    odds = replace(table, notes=(note, POSITION_NOTE))
    rows: list[list[Cell]] = [[name, _signed(ev, fmt)] for name, ev in player_ev]
    bets = Table(f"Expectation given {known}, {shoe}", ["bet", "player_ev"], rows, (PLAYER_EV_NOTE,))
    return [odds, bets]


def known_odds_json(shoe: Shoe, known: Known, dist: Dist[Winner],
                    player_ev: Sequence[tuple[str, Fraction]]) -> dict[str, object]:
    """The ``odds --known --format json`` object: ``known``, ``shoe``, the odds and ``player_ev`` by bet."""
    return {**odds_json(shoe, dist, dist.total), "known": known.spec(),
            "player_ev": {name: fraction_text(ev) for name, ev in player_ev}}


def _case_row(case: CaseValue, fmt: str) -> list[Cell]:
    return [*case.case, percent_cell(case.probability, fmt), *(_signed(ev, fmt) for ev in case.ev),
            case.best_bet or "sit out", _signed(case.best_ev, fmt)]


def advantage_tables(shoe: Shoe, result: Advantage, fmt: str) -> list[Table]:
    """The cases (probability, every bet's expectation, best play) and the summary of the value."""
    info = result.information
    given = f", given {result.known}" if result.known.positions else ""
    headers = [*(f"card {p}" for p in info.positions), "probability", *(f"{n} EV" for n in result.bet_names),
               "best play", "play EV"]
    rows = [_case_row(case, fmt) for case in result.cases]
    rows.append(["all", *([""] * (len(info.positions) - 1)), percent_cell(Fraction(1), fmt),
                 *(_signed(ev, fmt) for ev in result.flat), "(by case)", _signed(result.value, fmt)])
    notes = (PLAYER_EV_NOTE, BEST_PLAY_NOTE, POSITION_NOTE)
    cases = Table(f"Best play by the {info.name}, {shoe}{given}", headers, rows, notes)
    edge = result.edge_when_betting
    summary_rows: list[list[Cell]] = [
        ["value per coup: E[max(EV, 0)]" if result.sit_out else "value per coup: E[max EV]",
         _signed(result.value, fmt)],
        ["chance of betting", percent_cell(result.betting_frequency, fmt)],
        ["player_ev per unit staked when betting", "n/a" if edge is None else _signed(edge, fmt)],
        ["best flat play without the information", _signed(result.flat_value, fmt)],
        ["gain from the information", _signed(result.gain, fmt)],
    ]
    sit = "sitting out allowed" if result.sit_out else "a bet on every coup"
    summary = Table(f"Value of the {info.name}, {shoe}{given}", ["figure", "value"], summary_rows,
                    (f"Bets: {', '.join(result.bet_names)}; {sit}. One unit staked per coup.",))
    return [cases, summary]


def advantage_json(shoe: Shoe, result: Advantage) -> dict[str, object]:
    """The ``advantage --format json`` object; every figure an exact ``num/den`` string."""
    edge = result.edge_when_betting
    return {
        "shoe": shoe_json(shoe),
        "information": result.information.name,
        "positions": list(result.information.positions),
        "known": result.known.spec(),
        "bets": list(result.bet_names),
        "sit_out": result.sit_out,
        "cases": [{
            "case": {str(p): label for p, label in zip(result.information.positions, case.case, strict=True)},
            "known": case.known.spec(),
            "combinations": case.ways,
            "probability": fraction_text(case.probability),
            "player_ev": {n: fraction_text(ev) for n, ev in zip(result.bet_names, case.ev, strict=True)},
            "best": case.best_bet,
            "best_player_ev": fraction_text(case.best_ev),
        } for case in result.cases],
        "sequences": sum(case.ways for case in result.cases),
        "flat_player_ev": {n: fraction_text(ev) for n, ev in zip(result.bet_names, result.flat, strict=True)},
        "value": fraction_text(result.value),
        "value_decimal": float(result.value),
        "betting_frequency": fraction_text(result.betting_frequency),
        "player_ev_when_betting": None if edge is None else fraction_text(edge),
        "flat_value": fraction_text(result.flat_value),
        "gain": fraction_text(result.gain),
    }
