"""The bench's bulk figures: ``batch`` (main bets and every registered bet, with and without reading and
writing, on each path of the kernel) and shoes past int64, each beside the reference enumerator measured in
the same run and the bound that one core's BLAS sets on the kernel's products (:mod:`bench_machine`)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from typing import Any

from bench_bars import bar
from bench_common import (
    in_child,
    kernel_paths,
    median_seconds,
    on_path,
    process_seconds,
    random_compositions,
    rate_bar,
    reference_rate,
)
from bench_machine import blas_rate, kernel_products, products_bound

from exact_odds.core.coup import Detail
from exact_odds.study.workers import ONE_THREAD


def batch_line(label: str, n: int, secs: float, reference: float) -> None:
    """One batch figure with its ratio to the reference enumerator measured in this run."""
    print(f"batch: {label}: {n / secs:,.0f} compositions/s ({n / secs / reference:,.0f}x the reference enumerator, "
          f"{reference:.1f}/s)")


def batch_figures(repeat: int) -> None:
    """The batch figures, measured in this process (run by :func:`bench_batch` with one BLAS thread),
    on each path of the kernel (NumPy, and compiled when numba is installed)."""
    from pathlib import Path

    import numpy as np

    from exact_odds.batch import evaluate
    from exact_odds.batch.compiled import JIT_ENV
    from exact_odds.batch.io import parse_compositions
    from exact_odds.bets import registered
    from exact_odds.report.study import batch_text

    n, m = 200_000, 20_000
    rows, grids = random_compositions(n, 1)
    counts, suits = np.array(rows), np.array(grids)  # as `batch` has them (nested lists would first be converted)
    reference = reference_rate(rows[:5], grids[:5], (Detail.POINTS,))
    every = reference_rate(rows[:3], grids[:3], (Detail.POINTS, Detail.RANKS, Detail.SUITS))
    bets = registered()
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.csv", Path(tmp) / "out.csv"
        src.write_text("".join(",".join(map(str, row)) + "\n" for row in rows))

        def with_io() -> None:
            lines, parsed = parse_compositions(src.read_text())
            dst.write_text(batch_text(evaluate(parsed), lines, "csv"))

        paths, products = kernel_paths(), kernel_products()
        print(f"batch: the kernel's block products take {products['main']:,} multiply-adds a composition for the main "
              f"bets and {products['every']:,} for every registered bet; at this core's BLAS rate, they alone allow "
              f"{blas_rate() / products['main']:,.0f} and {blas_rate() / products['every']:,.0f} compositions/s")
        for path, setting in paths:
            on_path(setting, lambda: evaluate(counts[:1000]))()  # compile (or load) once
            secs = median_seconds(on_path(setting, lambda: evaluate(counts)), repeat)
            batch_line(f"{path}: main-bet counts of {n:,} 8-deck-sized shoes, one core, I/O excluded, median of "
                       f"{repeat}", n, secs, reference)
            secs = median_seconds(on_path(setting, with_io), repeat)
            batch_line(f"{path}: the same with I/O (read and parse the file, evaluate, format and write CSV), median "
                       f"of {repeat}", n, secs, reference)
            if path == paths[-1][0]:  # the fastest path installed
                rate_bar(f"`batch`, main bets, CSV in and out ({path})", n / secs, 1_000_000,
                         bound=products_bound(products["main"]))
            on_path(setting, lambda: evaluate(counts[:10], bets=bets, suits=suits[:10]))()  # the three plans
            runs = max(1, repeat // 2)
            secs = median_seconds(on_path(setting, lambda: evaluate(counts[:m], bets=bets, suits=suits[:m])), runs)
            batch_line(f"{path}: with every registered bet ({len(bets)}, exact EVs, pairs and suited pairs in bulk), "
                       f"one core, median of {runs}", m, secs, every)
            if path == paths[-1][0]:
                rate_bar(f"`batch`, every registered bet ({len(bets)}; {path})", m / secs, 200_000,
                         bound=products_bound(products["every"]))
    os.environ.pop(JIT_ENV, None)
    big_figures(repeat)


def batch_process_figure(repeat: int) -> None:
    """`exact-odds batch` of a million compositions, CSV in and out, as a whole process (start-up,
    loading the compiled loops when installed, reading, evaluating, writing)."""
    n = 1_000_000
    counts, _ = random_compositions(n // 10, 4)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.csv"), os.path.join(tmp, "out.csv")
        with open(src, "w", encoding="ascii") as f:
            f.write("".join(",".join(map(str, row)) + "\n" for row in counts) * 10)
        cmd = [sys.executable, "-m", "exact_odds", "batch", "--input", src, "--output", dst]
        wall, cpu = process_seconds(cmd, max(1, repeat // 2))
    print(f"batch: `exact-odds batch --input IN --output OUT` of {n:,} compositions (8-deck-sized), whole process, "
          f"median of {max(1, repeat // 2)}: {wall:.2f} s wall, {cpu:.2f} s CPU: {n / cpu:,.0f} compositions/s of CPU")


def big_shoes() -> Any:
    """The bench's 2,000 shoes of 30 to 10,000 decks (rank counts, int64), the same in every run."""
    import numpy as np

    rng = np.random.default_rng(3)
    decks = rng.integers(30, 10_001, size=2_000)
    grids = (decks[:, None, None] - rng.integers(0, 20, size=(len(decks), 13, 4))).clip(0)
    return grids.sum(axis=2)


def big_figures(repeat: int) -> None:
    """Shoes past int64 (more than 1,448 cards, Python integers): main bets, and every registered bet but the
    suited (points and pairs). Exact at any size; their speed is not a goal, only a figure to watch."""
    from exact_odds.batch import evaluate
    from exact_odds.bets import registered

    counts, runs = big_shoes(), max(1, (repeat + 1) // 2)
    n, bets = len(counts), [b for b in registered() if b.detail is not Detail.SUITS]
    for label, chosen in (("main-bet counts", []), (f"{len(bets)} registered bets (points and pairs)", bets)):
        evaluate(counts[:10], bets=chosen)  # plan the bets once
        secs = median_seconds(lambda b=chosen: evaluate(counts, bets=b), runs)  # type: ignore[misc]
        print(f"batch: {label} of {n:,} shoes of 30 to 10,000 decks (Python integers), one core, median of {runs}: "
              f"{n / secs:,.0f} compositions/s")


BEFORE_ENV = "EXACT_ODDS_BENCH_BEFORE"
"""A checkout of an earlier tree (``scripts/bench.py --before DIR``) whose main-bet rate ``batch`` is held to."""

TIMED = """
import sys, time
import numpy as np
from exact_odds.batch import evaluate
counts = np.load(sys.argv[1])
evaluate(counts[:1000])
start = time.process_time()
evaluate(counts)
print(time.process_time() - start)
"""
"""One timing of the main bets' counts of the compositions saved at ``argv[1]``, after a warm-up (the plans made,
the compiled loops loaded): the same call in any tree since the kernel was written."""


def _tree_seconds(tree: str, saved: str, setting: str) -> float:
    """CPU seconds of :data:`TIMED` with the package of ``tree`` (a checkout's root), on one BLAS thread."""
    env = {**os.environ, **ONE_THREAD, "PYTHONPATH": tree, "EXACT_ODDS_JIT": setting}
    done = subprocess.run([sys.executable, "-c", TIMED, saved], env=env, check=True, capture_output=True, text=True)
    return float(done.stdout.split()[-1])


def before_figures(repeat: int) -> None:
    """The main bets' rate of this tree beside the tree before (``$EXACT_ODDS_BENCH_BEFORE``), on each path,
    alternated run by run in child processes: at least 85% of it is the target."""
    import numpy as np

    before = os.environ[BEFORE_ENV]
    now = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    rows, _ = random_compositions(200_000, 1)
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "counts.npy")
        np.save(saved, np.array(rows, dtype=np.int64))
        for path, setting in kernel_paths():
            times: dict[str, list[float]] = {now: [], before: []}
            for _ in range(repeat):
                for tree in times:
                    times[tree].append(_tree_seconds(tree, saved, setting))
            mine, theirs = (len(rows) / statistics.median(times[tree]) for tree in (now, before))
            print(f"batch: main-bet counts, {path}, this tree {mine:,.0f}/s against {theirs:,.0f}/s for {before}, "
                  f"alternated, medians of {repeat}: {mine / theirs:.2f}x")
            bar(f"`batch`, main bets ({path}), against the tree before", f"{mine:,.0f}/s, {mine / theirs:.2f}x "
                f"the {theirs:,.0f}/s of the tree before, alternated", ">= 0.85x", mine >= 0.85 * theirs)


def bench_batch(repeat: int) -> None:
    """Bulk evaluation: compositions per second per core, I/O excluded and included, all bets; beside an
    earlier tree when ``--before`` names one."""
    in_child(__file__, "batch_figures", repeat)
    batch_process_figure(repeat)
    if os.environ.get(BEFORE_ENV):
        before_figures(repeat)


def bench_big_shoes(repeat: int) -> None:
    """The big-shoe lines of ``batch`` alone (shoes past int64), in a process with one BLAS thread."""
    in_child(__file__, "big_figures", repeat)


