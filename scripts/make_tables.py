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
from pathlib import Path

from exact_odds import Shoe, deal, winners
from exact_odds.report import Table, decimal_text, fraction_text, render_tables, write_atomic

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


TABLES: dict[str, Callable[[], str]] = {
    "odds.md": lambda: odds_text("markdown"),
    "odds.csv": lambda: odds_text("csv"),
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
