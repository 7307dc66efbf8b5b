#!/usr/bin/env python3
"""Regenerate the standard tableau's coefficient tables shipped in ``exact_odds/engine/data/``.

Usage: ``python3 scripts/make_coefficients.py`` builds every table from the tableau (the single-shoe
polynomials of :mod:`exact_odds.engine.polynomial`: points, pairs, winners; and the bulk tables of
:mod:`exact_odds.batch.coefficients` at each detail) and writes ``exact_odds/engine/data/standard-<table>.bin``
(format: :mod:`exact_odds.engine.store`). ``--check`` builds them in memory and exits 1 if a shipped file is
missing, fails its checks or holds other integers, or if the single-shoe or bulk evaluation of the
shipped tables differs from the reference enumerator on a few shoes (a test runs it). Compressed
bytes are not compared: zlib builds may differ.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from exact_odds.core.coup import Detail
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.engine.store import DATA_DIR, STANDARD_KEY, Arrays, CorruptTable, decode, encode, write_atomic


def _single(part: str) -> Callable[[], Arrays]:
    def build() -> Arrays:
        from exact_odds.engine.polynomial import build_single

        return build_single(STANDARD_TABLEAU, part)

    return build


def _batch(detail: Detail) -> Callable[[], Arrays]:
    def build() -> Arrays:
        from exact_odds.batch.coefficients import build_coefficients, to_arrays

        return to_arrays(build_coefficients(STANDARD_TABLEAU, detail))

    return build


TABLES: dict[str, Callable[[], Arrays]] = {
    **{f"single-{part}": _single(part) for part in ("points", "pairs", "winners")},
    **{f"batch-{detail.name.lower()}": _batch(detail) for detail in Detail},
}
"""Every shipped table by name, with the function that builds it from the standard tableau."""


def check(name: str, fresh: Arrays) -> str | None:
    """Why the shipped table ``name`` differs from ``fresh``, or ``None`` if it holds the same integers."""
    path = Path(DATA_DIR) / f"standard-{name}.bin"
    try:
        shipped = decode(path.read_bytes(), name, STANDARD_KEY)
    except (OSError, CorruptTable) as err:
        return f"{path}: {err}"
    if list(shipped) != list(fresh):
        return f"{path}: arrays {list(shipped)}, expected {list(fresh)}"
    for array_name, values in fresh.items():
        if shipped[array_name].tolist() != values.tolist():
            return f"{path}: array {array_name} differs from a fresh build"
    return None


def against_the_enumerator() -> list[str]:
    """What the shipped tables get wrong against the reference enumerator on a few shoes (whole decks,
    a depleted shoe with its suits, the infinite deck), through the single-shoe and the bulk paths."""
    from exact_odds.batch.evaluation import distributions
    from exact_odds.core.shoe import Shoe
    from exact_odds.engine.enumerator import enumerate_coups, winners
    from exact_odds.engine.polynomial import deal_by_tables, winners_by_tables

    depleted = [[3, 0, 1, 2]] * 4 + [[0, 0, 0, 0], [1, 1, 1, 1], [5, 2, 0, 0]] + [[2, 2, 2, 2]] * 6
    shoes = [Shoe.decks(1), Shoe.decks(8), Shoe(tuple(map(sum, depleted)), tuple(map(tuple, depleted))),
             Shoe.infinite_deck()]
    wrong = []
    for shoe in shoes:
        for detail in Detail:
            reference = enumerate_coups(shoe, STANDARD_TABLEAU, detail)
            if deal_by_tables(shoe, STANDARD_TABLEAU, detail) != reference:
                wrong.append(f"single-shoe tables, {shoe}, {detail.name}")
            suits = [list(map(list, shoe.suited))] if shoe.suited is not None else None
            if not shoe.infinite and distributions([list(shoe.counts)], detail=detail, suits=suits)[0] != reference:
                wrong.append(f"bulk tables, {shoe}, {detail.name}")
        if winners_by_tables(shoe, STANDARD_TABLEAU) != winners(reference):
            wrong.append(f"winners table, {shoe}")
    return wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Regenerate exact_odds/engine/data/ (or check it with --check).")
    parser.add_argument("--check", action="store_true", help="build in memory; exit 1 on any difference")
    args = parser.parse_args(argv)
    failures = 0
    for name, build in TABLES.items():
        fresh = build()
        if args.check:
            problem = check(name, fresh)
            if problem:
                print(problem, file=sys.stderr)
                failures += 1
        else:
            path = Path(DATA_DIR) / f"standard-{name}.bin"
            write_atomic(path, encode(name, STANDARD_KEY, fresh))
            print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    if args.check:
        for problem in against_the_enumerator():
            print(f"differs from the reference enumerator: {problem}", file=sys.stderr)
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
