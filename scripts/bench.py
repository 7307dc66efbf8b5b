#!/usr/bin/env python3
"""Print the speed figures the issues ask for (medians of several runs).

Usage: ``python3 scripts/bench.py [--only NAME ...] [--repeat N]``. Each benchmark is a
function in ``BENCHMARKS`` that prints its own lines; the machines are shared and noisy,
so every figure is a median.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from exact_odds import Shoe
from exact_odds.engine import enumerate_coups


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    """Median wall-clock seconds of ``run()`` over ``repeat`` calls."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cli_seconds(argv: list[str], repeat: int) -> float:
    """Median seconds of ``python -m exact_odds ARGV`` as a whole process."""
    cmd = [sys.executable, "-m", "exact_odds", *argv]
    return median_seconds(lambda: subprocess.run(cmd, check=True, capture_output=True), repeat)


def bench_odds(repeat: int) -> None:
    """Engine: whole-process `odds`, the reference enumerator at 8, 100 and 10,000 decks."""
    secs = cli_seconds(["odds", "--decks", "8"], repeat)
    print(f"odds: `exact-odds odds --decks 8` whole process, median of {repeat}: {secs:.3f} s")
    probe = "import sys; from exact_odds.cli import main; main(['odds']); print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    print(f"odds: sympy imported by `odds`: {out.strip().splitlines()[-1]}")
    for decks in (8, 100, 10_000):
        shoe = Shoe.decks(decks)
        secs = median_seconds(lambda s=shoe: enumerate_coups(s), repeat)  # type: ignore[misc]
        print(f"odds: deal() of {decks} decks (uncached), median of {repeat}: {secs * 1000:.1f} ms")


def bench_sidebets(repeat: int) -> None:
    """Side bets: SUITS-detail deal of 8 decks (fast path, and the 52-kind reference once), `sidebets`."""
    from exact_odds.engine import Detail, first_four_by_kind

    shoe = Shoe.decks(8)
    for detail in (Detail.RANKS, Detail.SUITS):
        secs = median_seconds(lambda d=detail: enumerate_coups(shoe, detail=d), repeat)  # type: ignore[misc]
        print(f"sidebets: deal() of 8 decks at {detail.name} detail (uncached), median of {repeat}: "
              f"{secs * 1000:.1f} ms")
    secs = median_seconds(lambda: first_four_by_kind(shoe, Detail.SUITS), 1)
    print(f"sidebets: reference first four at SUITS detail (52 kinds, the path before the fast one), one run: "
          f"{secs:.2f} s")
    secs = cli_seconds(["sidebets", "--decks", "8"], repeat)
    print(f"sidebets: `exact-odds sidebets --decks 8` whole process, median of {repeat}: {secs:.3f} s")


def bench_report(repeat: int) -> None:
    """Edges (issue 3): whole-process `report` (budget 2 s), `edges`, `symbolic`; sympy kept out of `report`."""
    secs = cli_seconds(["report"], repeat)
    print(f"report: `exact-odds report` (8 decks, every configuration and registered bet) whole process, "
          f"median of {repeat}: {secs:.3f} s")
    secs = cli_seconds(["edges"], repeat)
    print(f"report: `exact-odds edges` whole process, median of {repeat}: {secs:.3f} s")
    probe = "import sys; from exact_odds.cli import main; main(['report']); print('sympy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    print(f"report: sympy imported by `report`: {out.strip().splitlines()[-1]}")
    secs = cli_seconds(["symbolic"], max(1, repeat // 3))
    print(f"report: `exact-odds symbolic` (fit on 7 shoes, check on 9) whole process, "
          f"median of {max(1, repeat // 3)}: {secs:.3f} s")


def bench_bunco(repeat: int) -> None:
    """Bunco (issue 6): whole-process `bunco`, the exact turn at the largest sizes, a million-trial simulation."""
    from exact_odds.bunco import MAX_DICE, MAX_SIDES, MAX_TARGET, STANDARD, Dice, play_game, play_turn

    secs = cli_seconds(["bunco"], repeat)
    print(f"bunco: `exact-odds bunco` (3d6: roll, six rounds, turn) whole process, median of {repeat}: {secs:.3f} s")
    probe = "import sys; from exact_odds.cli import main; main(['bunco']); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    print(f"bunco: numpy imported by `bunco` without --simulate: {out.strip().splitlines()[-1]}")
    big = Dice(MAX_DICE, MAX_SIDES)
    secs = median_seconds(lambda: play_turn(big, STANDARD, target=MAX_TARGET), repeat)
    print(f"bunco: exact turn of {big} to {MAX_TARGET} points, median of {repeat}: {secs:.3f} s")
    secs = median_seconds(lambda: play_game(Dice(MAX_DICE, 6), STANDARD, rounds=60), repeat)
    print(f"bunco: exact game of 60 rounds of {MAX_DICE}d6, median of {repeat}: {secs:.3f} s")
    secs = cli_seconds(["bunco", "--simulate", "1000000", "--seed", "1"], max(1, repeat // 3))
    print(f"bunco: `exact-odds bunco --simulate 1000000` (a million rolls, games and turns) whole process, "
          f"median of {max(1, repeat // 3)}: {secs:.3f} s")


BENCHMARKS: dict[str, Callable[[int], None]] = {
    "odds": bench_odds,
    "report": bench_report,
    "sidebets": bench_sidebets,
    "bunco": bench_bunco,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", nargs="*", choices=sorted(BENCHMARKS), help="run only these")
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure (default 7)")
    args = parser.parse_args()
    for name in args.only or BENCHMARKS:
        BENCHMARKS[name](args.repeat)


if __name__ == "__main__":
    main()
