#!/usr/bin/env python3
"""Regenerate the reference tables under ``tables/`` from the public API.

Usage: ``python3 scripts/make_tables.py`` writes every table; ``--check`` regenerates them
in memory and exits 1 if any committed file differs (a test runs it). Each entry of
``TABLES`` maps a file name to a function returning the file's whole text; every file
starts with a line naming this command.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from exact_odds import Shoe, deal, winners
from exact_odds.report import decimal_text, fraction_text
from exact_odds.report.base import Table
from exact_odds.report.document import render_tables
from exact_odds.report.edges import (
    ConfigSheets,
    break_even_table,
    closed_form_tables,
    edges_by_decks_tables,
    par_sheets_tables,
    payout_symbol_tables,
    side_bets_by_shoe_table,
)
from exact_odds.report.files import write_atomic

if TYPE_CHECKING:
    from exact_odds.analysis.edges import ParSheet
    from exact_odds.analysis.symbolic import Summary
    from exact_odds.bets import Bet

ROOT = Path(__file__).resolve().parent.parent / "tables"
COMMAND = "python3 scripts/make_tables.py"
DECKS: tuple[int | None, ...] = (1, 2, 3, 4, 5, 6, 7, 8, None)
"""Shoes of the reference tables: 1 to 8 decks and (None) the infinite deck."""


def shoe_of(decks: int | None) -> Shoe:
    return Shoe.infinite_deck() if decks is None else Shoe.decks(decks)


def decks_label(decks: int | None) -> str:
    return "inf" if decks is None else str(decks)


def stamp(text: str, fmt: str) -> str:
    """Prefix a generated file with the command that made it."""
    head = f"<!-- Made by `{COMMAND}`; do not edit. -->\n\n" if fmt == "markdown" else f"# made by: {COMMAND}\n"
    return head + text


def odds_table() -> Table:
    rows: list[list[str | int | Fraction]] = []
    for decks in DECKS:
        dist = winners(deal(shoe_of(decks)))
        row: list[str | int | Fraction] = [decks_label(decks)]
        for outcome in ("banker", "player", "tie"):
            p = dist.probability(outcome)
            row += [fraction_text(p), decimal_text(p, 10)]
        row.append(dist.total)
        rows.append(row)
    headers = ["decks", "banker", "banker ≈", "player", "player ≈", "tie", "tie ≈", "sequences"]
    return Table("Banker, player and tie probabilities by number of decks", headers, rows,
                 ("Sequences: ordered six-card sequences N(N-1)...(N-5); for the infinite deck 52^6 weights.",))


def odds_text(fmt: str) -> str:
    return stamp(render_tables([odds_table()], fmt), fmt)


# ---------------------------------------------------------------- side bets


@lru_cache(maxsize=1)
def side_bet_edges() -> tuple[tuple[str, tuple[Fraction, ...]], ...]:
    """House edge of every built-in side bet on each shoe of ``DECKS`` (computed once for md and csv)."""
    from exact_odds.analysis.edges import par_sheet
    from exact_odds.bets.side import SIDE_BETS

    return tuple((bet.name, tuple(par_sheet(shoe_of(d), bet).house_edge for d in DECKS)) for bet in SIDE_BETS)


def sidebets_text(fmt: str) -> str:
    labels = [decks_label(d) for d in DECKS]
    return stamp(render_tables([side_bets_by_shoe_table(labels, side_bet_edges(), fmt)], fmt), fmt)


# ---------------------------------------------------------------- house edges, par sheets, closed forms

PAR_SHEET_DECKS = (6, 8)
"""Shoes of the par-sheet tables."""


def main_bets() -> list[Bet]:
    """The distinct banker, player and tie bets of every configuration (one par sheet each)."""
    from exact_odds.analysis.edges import distinct_bets
    from exact_odds.bets.main import BUILTIN_CONFIGURATIONS as CONFIGURATIONS

    return [bet for bet, _ in distinct_bets([bet for config in CONFIGURATIONS.values() for bet in config.bets])]


@lru_cache(maxsize=1)
def edges_by_decks() -> list[tuple[str, ConfigSheets]]:
    """Every configuration's par sheets on each shoe of ``DECKS``."""
    from exact_odds.analysis.edges import configuration_sheets
    from exact_odds.bets.main import BUILTIN_CONFIGURATIONS as CONFIGURATIONS

    return [(decks_label(d), [(c, configuration_sheets(shoe_of(d), c)) for c in CONFIGURATIONS.values()])
            for d in DECKS]


def edges_text(fmt: str) -> str:
    return stamp(render_tables(edges_by_decks_tables(edges_by_decks(), fmt), fmt), fmt)


def parsheets_text(fmt: str) -> str:
    from exact_odds.analysis.edges import par_sheet

    sheets = [par_sheet(Shoe.decks(d), bet) for d in PAR_SHEET_DECKS for bet in main_bets()]
    return stamp(render_tables(par_sheets_tables(sheets, fmt), fmt), fmt)


@lru_cache(maxsize=1)
def symbolic_summary() -> Summary:
    """Closed forms (checked on 1-8 decks), payout symbols and break-evens on 8 decks."""
    from exact_odds.analysis.symbolic import summary

    result = summary(Shoe.decks(8), main_bets())
    if result.disagreements:
        raise SystemExit(f"closed forms disagree with the enumerator: {'; '.join(result.disagreements)}")
    return result


def closed_forms_text(fmt: str, part: slice = slice(None)) -> str:
    result = symbolic_summary()
    tables = [*closed_form_tables(result, fmt), *payout_symbol_tables(result, fmt)][part]
    return stamp(render_tables(tables, fmt), fmt)


@lru_cache(maxsize=1)
def break_evens() -> list[tuple[str, ParSheet, tuple[Fraction | None, ...]]]:
    """The break-even payout of every pay line of the main bets on each shoe of ``DECKS``."""
    from exact_odds.analysis.edges import par_sheet
    from exact_odds.analysis.symbolic import break_even

    sheets = [(str(shoe_of(d)), par_sheet(shoe_of(d), bet)) for d in DECKS for bet in main_bets()]
    return [(label, s, tuple(break_even(s, i) for i in range(len(s.bet.lines)))) for label, s in sheets]


def break_even_text(fmt: str) -> str:
    return stamp(render_tables([break_even_table("Break-even payouts by number of decks", break_evens(), fmt)], fmt),
                 fmt)


# ---------------------------------------------------------------- Bunco

BUNCO_ARTICLE = "D. Taylor, 'Shell Scripting a Bunco Game', Linux Journal, 21 January 2018"
"""The article whose estimates the claims table checks."""


def bunco_text(rules: str, fmt: str) -> str:
    """``exact-odds bunco --scoring RULES``: three six-sided dice, six rounds, a turn to 21."""
    from exact_odds.bunco import Dice, analyse, find_scoring_rules
    from exact_odds.report.bunco import bunco_tables

    return stamp(render_tables(bunco_tables(analyse(Dice(3, 6), find_scoring_rules(rules))), fmt), fmt)


def bunco_claims_table() -> Table:
    """The article's estimates beside the exact values (docs/bunco.md quotes them)."""
    from exact_odds.bunco import ARTICLE_SCORING, STANDARD_SCORING, Dice, analyse, roll_outcomes
    from exact_odds.report import percent_text

    three, five = roll_outcomes(Dice(3, 6)), roll_outcomes(Dice(5, 6))
    text, script = analyse(Dice(3, 6), STANDARD_SCORING), analyse(Dice(3, 6), ARTICLE_SCORING)

    def p(claim: str, said: str, x: Fraction) -> list[str | int | Fraction]:
        return [claim, said, fraction_text(x), percent_text(x, 4)]

    def v(claim: str, said: str, x: Fraction) -> list[str | int | Fraction]:
        return [claim, said, fraction_text(x), decimal_text(x, 4)]

    rows = [
        p("P(Bunco) on one roll of three dice", "0.166 × 0.166 × 0.166 = 0.00462, 0.46%: a bit less than once "
          "out of every 200 rolls", text.bunco_probability),
        p("P(three dice alike)", "about 2.7%", three.probability(lambda r: r.alike)),
        p("P(more than 3 points in six rounds)", "50% of the time", text.game.more_than(3)),
        p("P(five dice alike)", "0.077%", five.probability(lambda r: r.alike)),
        p("P(five dice all sixes)", "0.00012%", five.probability(lambda r: r.kind == "Bunco")),
        v("mean total of six rounds, Bunco 21 (the text)", "—", text.game.mean),
        v("mean total of six rounds, Bunco 25 (the script)", "—", script.game.mean),
        v("variance of the total, Bunco 21", "—", text.game.variance),
        v("variance of the total, Bunco 25", "—", script.game.variance),
        p("P(more than 3 points in six rounds), Bunco 25", "50% of the time", script.game.more_than(3)),
        p("P(a turn reaches 21), Bunco 21 or 25", "—", text.turn.reach_probability),
    ]
    notes = (f"Source of the claims: {BUNCO_ARTICLE}. Its text scores a Bunco 21, its script 25.",
             "Exact values by exact-odds bunco (standard scoring unless the row says otherwise).")
    return Table("Bunco: the article's estimates and the exact values", ["quantity", "the article", "exact", "≈"],
                 rows, notes)


def bunco_claims_text(fmt: str) -> str:
    return stamp(render_tables([bunco_claims_table()], fmt), fmt)


# ---------------------------------------------------------------- effects of removal


def eor_text(fmt: str) -> str:
    """Effects of removal and suggested counts of the main bets of every configuration, 8 decks."""
    from exact_odds.analysis.removal import effects_of_removal
    from exact_odds.bets import BUILTIN_CONFIGURATIONS as CONFIGURATIONS
    from exact_odds.report.study import eor_tables

    shoe = Shoe.decks(8)
    removals = effects_of_removal(shoe, [bet for config in CONFIGURATIONS.values() for bet in config.bets])
    return stamp(render_tables(eor_tables(str(shoe), removals, [r.count() for r in removals], fmt), fmt), fmt)


TABLES: dict[str, Callable[[], str]] = {
    "odds.md": lambda: odds_text("markdown"),
    "odds.csv": lambda: odds_text("csv"),
    "sidebets.md": lambda: sidebets_text("markdown"),
    "sidebets.csv": lambda: sidebets_text("csv"),
    "edges.md": lambda: edges_text("markdown"),
    "edges.csv": lambda: edges_text("csv"),
    "parsheets.md": lambda: parsheets_text("markdown"),
    "parsheets.csv": lambda: parsheets_text("csv"),
    "closed-forms.md": lambda: closed_forms_text("markdown"),
    "closed-forms.csv": lambda: closed_forms_text("csv", slice(0, 1)),
    "closed-form-edges.csv": lambda: closed_forms_text("csv", slice(1, 2)),
    "break-even.md": lambda: break_even_text("markdown"),
    "break-even.csv": lambda: break_even_text("csv"),
    "bunco.md": lambda: bunco_text("standard", "markdown"),
    "bunco.csv": lambda: bunco_text("standard", "csv"),
    "bunco-article.md": lambda: bunco_text("article", "markdown"),
    "bunco-article.csv": lambda: bunco_text("article", "csv"),
    "bunco-claims.md": lambda: bunco_claims_text("markdown"),
    "bunco-claims.csv": lambda: bunco_claims_text("csv"),
    "eor.md": lambda: eor_text("markdown"),
    "eor.csv": lambda: eor_text("csv"),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate tables/ (or check them with --check).")
    parser.add_argument("--check", action="store_true", help="compare in memory; exit 1 on any difference")
    parser.add_argument("--only", nargs="*", choices=sorted(TABLES), help="only these files")
    args = parser.parse_args(argv)
    stale = []
    for name in args.only or TABLES:
        text = TABLES[name]()
        path = ROOT / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            ROOT.mkdir(exist_ok=True)
            write_atomic(path, text)
            print(f"wrote tables/{name}")
    if stale:
        print(f"out of date (run {COMMAND}): {', '.join(stale)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
