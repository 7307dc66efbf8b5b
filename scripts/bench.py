#!/usr/bin/env python3
"""Print the speed figures the issues ask for (medians of several runs).

Usage: ``python3 scripts/bench.py [--only NAME ...] [--repeat N]``. Each benchmark is a
function in ``BENCHMARKS`` that prints its own lines; the machines are shared and noisy,
so every figure is a median.
"""

from __future__ import annotations

import argparse
import os
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
    """Bunco: whole-process `bunco`, the exact turn at the largest sizes, a million-trial simulation."""
    from exact_odds.bunco import MAX_DICE, MAX_SIDES, MAX_TARGET, STANDARD_SCORING, Dice, play_game, play_turn

    secs = cli_seconds(["bunco"], repeat)
    print(f"bunco: `exact-odds bunco` (3d6: roll, six rounds, turn) whole process, median of {repeat}: {secs:.3f} s")
    probe = "import sys; from exact_odds.cli import main; main(['bunco']); print('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], check=True, capture_output=True, text=True).stdout
    print(f"bunco: numpy imported by `bunco` without --simulate: {out.strip().splitlines()[-1]}")
    big = Dice(MAX_DICE, MAX_SIDES)
    secs = median_seconds(lambda: play_turn(big, STANDARD_SCORING, target=MAX_TARGET), repeat)
    print(f"bunco: exact turn of {big} to {MAX_TARGET} points, median of {repeat}: {secs:.3f} s")
    secs = median_seconds(lambda: play_game(Dice(MAX_DICE, 6), STANDARD_SCORING, rounds=60), repeat)
    print(f"bunco: exact game of 60 rounds of {MAX_DICE}d6, median of {repeat}: {secs:.3f} s")
    secs = cli_seconds(["bunco", "--simulate", "1000000", "--seed", "1"], max(1, repeat // 3))
    print(f"bunco: `exact-odds bunco --simulate 1000000` (a million rolls, games and turns) whole process, "
          f"median of {max(1, repeat // 3)}: {secs:.3f} s")


# ---------------------------------------------------------------- composition-dependent study (issue 5)


def random_compositions(count: int, seed: int) -> tuple[list[list[int]], list[list[list[int]]]]:
    """``count`` 8-deck shoes depleted by 0-400 random cards: rank counts and suit counts."""
    import numpy as np

    from exact_odds.simulate import shoe_card_codes

    rng = np.random.default_rng(seed)
    cards = np.array(shoe_card_codes(Shoe.decks(8)), dtype=np.int64)
    suits = np.empty((count, 52), dtype=np.int64)
    for i in range(count):
        suits[i] = np.bincount(rng.permutation(cards)[rng.integers(0, 401):], minlength=52)
    grid = suits.reshape(count, 13, 4)
    return grid.sum(axis=2).tolist(), grid.tolist()


def batch_figures(repeat: int) -> None:
    """The batch figures, measured in this process (run by :func:`bench_batch` with one BLAS thread)."""
    import tempfile
    from pathlib import Path

    from exact_odds.batch import evaluate, parse_compositions
    from exact_odds.bets import registered
    from exact_odds.report import batch_text

    n = 200_000
    counts, grids = random_compositions(n, 1)
    evaluate(counts[:10])  # compile once
    secs = median_seconds(lambda: evaluate(counts), repeat)
    print(f"batch: main-bet counts of {n:,} 8-deck-sized shoes, one core, I/O excluded, median of {repeat}: "
          f"{n / secs:,.0f} compositions/s")
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.csv", Path(tmp) / "out.csv"
        src.write_text("".join(",".join(map(str, row)) + "\n" for row in counts))

        def with_io() -> None:
            lines, parsed = parse_compositions(src.read_text())
            dst.write_text(batch_text(evaluate(parsed), lines, "csv"))

        secs = median_seconds(with_io, repeat)
    print(f"batch: the same with I/O (read and parse the file, evaluate, format and write CSV), "
          f"median of {repeat}: {n / secs:,.0f} compositions/s")
    bets = registered()
    m = 20_000
    evaluate(counts[:10], bets=bets, suits=grids[:10])  # compile the points, ranks and suits plans
    secs = median_seconds(lambda: evaluate(counts[:m], bets=bets, suits=grids[:m]), max(1, repeat // 2))
    print(f"batch: with every registered bet ({len(bets)}, exact EVs, pairs and suited pairs in bulk), one core, "
          f"median of {max(1, repeat // 2)}: {m / secs:,.0f} compositions/s")


def bench_batch(repeat: int) -> None:
    """Bulk evaluation (issue 5): compositions per second per core, I/O excluded and included, all bets."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    code = f"import runpy; runpy.run_path({__file__!r})['batch_figures']({repeat})"
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def bench_study(repeat: int) -> None:
    """Shoe study (issue 5): a 10,000-shoe 8-deck study of the main bets, whole process, 2 workers."""
    runs = max(1, repeat // 3)
    argv = ["study", "--shoes", "10000", "--decks", "8", "--seed", "1", "--workers", "2", "--quiet"]
    secs = cli_seconds(argv, runs)
    print(f"study: `exact-odds {' '.join(argv)}` whole process, median of {runs}: {secs:.1f} s")
    secs = cli_seconds([*argv[:-3], "--workers", "1", "--quiet"], runs)
    print(f"study: the same with one worker, median of {runs}: {secs:.1f} s")



def simulate_figures(repeat: int) -> None:
    """The simulator's figures, measured in this process (run by :func:`bench_simulate` on one thread)."""
    import numpy as np

    from exact_odds.bets import find_bet
    from exact_odds.simulate import DealTables, Procedure, deal_coups, simulate
    from exact_odds.tableau import STANDARD_TABLEAU

    shoe, bets = Shoe.decks(8), [find_bet(n) for n in ("banker", "player", "tie")]
    cards = np.random.default_rng(1).integers(0, 52, size=(6, 1 << 20), dtype=np.uint8)
    tables = DealTables.of(STANDARD_TABLEAU)
    secs = median_seconds(lambda: deal_coups(cards, tables), repeat)
    print(f"simulate: vectorised dealing alone (cards given), one core, median of {repeat}: "
          f"{cards.shape[1] / secs:,.0f} coups/s")
    cases: list[tuple[str, int, dict[str, object]]] = [
        ("fresh shoes, 3 flat bets", 4_000_000, {"coups": 4_000_000, "procedure": Procedure(fresh=True)}),
        ("whole shoes (shuffle, burn, cut card), 3 flat bets", 0, {"shoes": 40_000}),
        ("whole shoes with --verify (exact odds of every coup's composition)", 0,
         {"shoes": 4_000, "reference": STANDARD_TABLEAU}),
    ]
    for label, _, kwargs in cases:
        runs = max(1, repeat // 2)
        coups = simulate(shoe, seed=1, bets=bets, **kwargs).n  # type: ignore[arg-type]
        secs = median_seconds(lambda k=kwargs: simulate(shoe, seed=1, bets=bets, **k), runs)  # type: ignore[misc]
        print(f"simulate: {label}, 8 decks, {coups:,} coups, one core, median of {runs}: {coups / secs:,.0f} coups/s")


def bench_simulate(repeat: int) -> None:
    """Simulator (issue 7): coups per second per core (fresh shoes, whole shoes, with the exact check), 10M run."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    code = f"import runpy; runpy.run_path({__file__!r})['simulate_figures']({repeat})"
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    argv = ["simulate", "--fresh", "--rounds", "10000000", "--seed", "1", "--verify", "--quiet"]
    runs = max(1, repeat // 3)
    secs = cli_seconds(argv, runs)
    print(f"simulate: `exact-odds {' '.join(argv)}` whole process, median of {runs}: {secs:.1f} s")


BENCHMARKS: dict[str, Callable[[int], None]] = {
    "odds": bench_odds,
    "report": bench_report,
    "sidebets": bench_sidebets,
    "bunco": bench_bunco,
    "batch": bench_batch,
    "study": bench_study,
    "simulate": bench_simulate,
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
