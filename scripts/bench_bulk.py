"""The bench's bulk figures: ``batch`` (main bets and every registered bet, with and without reading and
writing, on each path of the kernel) and shoes past int64 against the kernel of the filing of issue 13, each
beside the reference enumerator measured in the same run and the bound that one core's BLAS sets on the
kernel's products (:mod:`bench_machine`)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from bench_bars import bar
from bench_common import (
    in_child,
    kernel_paths,
    median_seconds,
    on_path,
    process_env,
    process_seconds,
    random_compositions,
    rate_bar,
    reference_rate,
)
from bench_machine import blas_rate, kernel_products, products_bound

from exact_odds.core.coup import Detail


def batch_line(label: str, n: int, secs: float, reference: float) -> None:
    """One batch figure with its ratio to the reference enumerator measured in this run."""
    print(f"batch: {label}: {n / secs:,.0f} compositions/s ({n / secs / reference:,.0f}x the reference enumerator, "
          f"{reference:.1f}/s)")


def batch_figures(repeat: int) -> None:
    """The batch figures, measured in this process (run by :func:`bench_batch` with one BLAS thread),
    on each path of the kernel (NumPy, and compiled when numba is installed)."""
    from pathlib import Path

    import numpy as np

    from exact_odds.batch import evaluate, parse_compositions
    from exact_odds.batch.compiled import JIT_ENV
    from exact_odds.bets import registered
    from exact_odds.report import batch_text

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


BIG_BASELINE_COMMIT = "162790f"
"""The commit of the filing of issue 13, whose kernel is the reference of the shoes past int64."""
BIG_BASELINE = {"main": 35_000, "bets": 7_000}
"""Compositions/s/core of shoes past int64 at :data:`BIG_BASELINE_COMMIT`, measured on 23 November on
another machine: the reference when this checkout has no history to measure it from."""


def big_shoes() -> Any:
    """The bench's 20,000 shoes of 30 to 10,000 decks (rank counts, int64), the same in every run."""
    import numpy as np

    rng = np.random.default_rng(3)
    decks = rng.integers(30, 10_001, size=20_000)
    grids = (decks[:, None, None] - rng.integers(0, 20, size=(len(decks), 13, 4))).clip(0)
    return grids.sum(axis=2)


BIG_REFERENCE = """
import sys, time
import numpy as np
from exact_odds.batch import evaluate
from exact_odds.bets import registered
from exact_odds.core.coup import Detail
counts = np.load(sys.argv[1])
chosen = {"main": [], "bets": [b for b in registered() if b.detail is not Detail.SUITS]}
for bets in chosen.values():
    evaluate(counts[:100], bets=bets)
print("ready", flush=True)
for line in sys.stdin:
    start = time.process_time()
    evaluate(counts, bets=chosen[line.strip()])
    print(time.process_time() - start, flush=True)
"""
"""A child's code: for each line ``main`` or ``bets`` read, the CPU seconds of one evaluation of the main
bets or of the 40 bets of points and pairs, on one core, by the ``exact_odds`` first on its path."""


@contextmanager
def big_reference(counts: Any) -> Iterator[Callable[[str], float] | None]:
    """A function giving the CPU seconds of one evaluation of the bench's big shoes (``main`` or ``bets``) by
    the kernel of :data:`BIG_BASELINE_COMMIT` (extracted from this checkout's history into a temporary
    directory, running in a child process with one BLAS thread that waits for each request, so that its
    runs alternate with this process's); None when there is no history (:data:`BIG_BASELINE` then)."""
    import numpy as np

    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        archive = subprocess.run(["git", "-C", root, "archive", BIG_BASELINE_COMMIT, "exact_odds"],
                                 capture_output=True)
        if archive.returncode:
            yield None
            return
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        np.save(os.path.join(tmp, "counts.npy"), counts)
        env = {**process_env(), "PYTHONPATH": tmp, "PYTHONSAFEPATH": "1"}
        with subprocess.Popen([sys.executable, "-c", BIG_REFERENCE, "counts.npy"], cwd=tmp, env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE) as child:
            assert child.stdin is not None and child.stdout is not None
            if child.stdout.readline().strip() != "ready":
                raise RuntimeError(f"the kernel of {BIG_BASELINE_COMMIT} did not start")
            requests, answers = child.stdin, child.stdout

            def seconds(key: str) -> float:
                requests.write(f"{key}\n")
                requests.flush()
                return float(answers.readline())

            yield seconds
            requests.close()


def big_figures(repeat: int) -> None:
    """Shoes past int64 (more than 1,448 cards, Python integers), on each path of the kernel: main bets, and every
    registered bet but the suited (points and pairs), each run alternated with one of the kernel of the issue's
    filing day on the same shoes (:func:`big_reference`), their ratio that of the medians."""
    from exact_odds.batch import evaluate
    from exact_odds.batch.compiled import JIT_ENV
    from exact_odds.bets import registered

    counts, runs = big_shoes(), max(1, (repeat + 1) // 2)
    n, bets = len(counts), [b for b in registered() if b.detail is not Detail.SUITS]
    paths = kernel_paths()
    with big_reference(counts) as reference:
        named = (f"the kernel of {BIG_BASELINE_COMMIT}, alternated in this run" if reference
                 else "23 November's figure on another machine")
        for path, setting in paths:
            for warm in ([], bets):  # compile (or load), plan and make the work arrays once, for either set of bets
                on_path(setting, lambda b=warm: evaluate(counts, bets=b))()  # type: ignore[misc]
            for key, label, chosen in (("main", "main-bet counts", []),
                                       ("bets", f"{len(bets)} registered bets (points and pairs)", bets)):
                ours, theirs = [], []
                for _ in range(runs):
                    if reference:
                        theirs.append(reference(key))
                    ours.append(median_seconds(on_path(setting, lambda b=chosen: evaluate(counts, bets=b)), 1))  # type: ignore[misc]
                rate = n / statistics.median(ours)
                baseline = n / statistics.median(theirs) if theirs else float(BIG_BASELINE[key])
                print(f"batch: {path}: {label} of {n:,} shoes of 30 to 10,000 decks (Python integers), one core, "
                      f"median of {runs}: {rate:,.0f} compositions/s ({rate / baseline:.1f}x the {baseline:,.0f}/s "
                      f"of {named})")
                if path == paths[-1][0]:
                    bar(f"`batch`, {label} of shoes past int64 ({path})", f"{rate:,.0f}/s/core, {rate / baseline:.1f}x "
                        f"the {baseline:,.0f}/s of {named}", ">= 10x", rate / baseline >= 10)
    os.environ.pop(JIT_ENV, None)


def bench_batch(repeat: int) -> None:
    """Bulk evaluation: compositions per second per core, I/O excluded and included, all bets."""
    in_child(__file__, "batch_figures", repeat)
    batch_process_figure(repeat)


def bench_big_shoes(repeat: int) -> None:
    """The big-shoe lines of ``batch`` alone (shoes past int64), in a process with one BLAS thread."""
    in_child(__file__, "big_figures", repeat)


