"""Tables and JSON for ``odds --known`` and ``advantage``: odds given partial information, and its worth."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from exact_odds.analysis.information.knowledge import Known
from exact_odds.analysis.information.value import Advantage, CaseValue
from exact_odds.core.coup import OUTCOMES, Winner
from exact_odds.core.dist import Dist
from exact_odds.core.shoe import Shoe
from exact_odds.report.base import Cell, Table, fraction_text, grouped, percent_cell
from exact_odds.report.odds import odds_json, odds_table
from exact_odds.report.provenance import shoe_json

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
    counts = {k: dist[k] for k in OUTCOMES}
    table = odds_table(f"{shoe}, given {known}", counts, dist.total, infinite=shoe.infinite)
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
    counts: dict[str, int] = {k: dist[k] for k in OUTCOMES}
    return {**odds_json(shoe, counts, dist.total), "known": known.spec(),
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
