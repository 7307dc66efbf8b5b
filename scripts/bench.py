#!/usr/bin/env python3
"""Print the speed figures of exact-odds (medians of several runs), each beside a reference measured in the same run.

Usage: ``python3 scripts/bench.py [--only NAME ...] [--repeat N] [--python PATH] [--table]``. Each benchmark is
a function in ``BENCHMARKS`` that prints its own lines; the machines are shared and noisy,
so every figure is a median, in-process figures are CPU seconds of one core, and whole
processes show both their wall-clock and CPU times. The single-shoe commands run as whole
processes of the interpreter ``--python`` (default: this one), each figure beside that
interpreter's own start-up (``python -c pass``): a fresh virtual environment with the package
installed (``pip install .``) measures what a user's machine would, without this machine's
start-up hooks.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from typing import Any

from bench_bars import BARS_ENV, bar, recorded, table

from exact_odds import Shoe
from exact_odds.coup import Detail
from exact_odds.engine import enumerate_coups


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    """Median CPU seconds of this process (user + system) of ``run()`` over ``repeat`` calls.

    In-process figures are per core (one BLAS thread), so CPU time is what they measure: on the
    shared machine the wall clock also counts the time other processes held the core.
    """
    times = []
    for _ in range(repeat):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def cli_seconds(argv: list[str], repeat: int) -> float:
    """Median CPU seconds (user + system) of ``python -m exact_odds ARGV`` as a whole process."""
    return process_seconds([sys.executable, "-m", "exact_odds", *argv], repeat)[1]


# ---------------------------------------------------------------- single shoes, whole processes

HEAVY = ("numpy", "sympy", "matplotlib", "tabulate")
PROBE = ("import json, sys\nfrom exact_odds.cli import main\nmain(sys.argv[1:])\n"
         f"print(json.dumps([m for m in {HEAVY!r} if m in sys.modules]), file=sys.stderr)")
_NAIVE: list[float] = []

python = sys.executable
"""The interpreter of :func:`command_figures` and :func:`startup_figure` (``--python``; this one by default)."""
_STARTUP: dict[str, tuple[float, float]] = {}


def whole_process_env() -> dict[str, str]:
    """:func:`process_env` for :data:`python`; another interpreter than this one imports the exact-odds
    installed with it, never this tree: ``PYTHONPATH`` is dropped, and ``PYTHONSAFEPATH`` keeps the
    working directory (this checkout, run from its root) off ``sys.path``."""
    env = process_env()
    if python != sys.executable:
        env.pop("PYTHONPATH", None)
        env["PYTHONSAFEPATH"] = "1"
    return env


def startup_seconds(repeat: int) -> tuple[float, float]:
    """Wall and CPU medians of ``python -c pass`` for :data:`python` (measured once per run)."""
    if python not in _STARTUP:
        _STARTUP[python] = process_seconds([python, "-c", "pass"], repeat, whole_process_env())
    return _STARTUP[python]


def naive_odds(points: tuple[int, ...]) -> dict[str, int]:
    """The naive reference: each of the 10**6 ordered sequences of six point values (P, B, P, B, then
    the draws), its ways a running product of the counts left, played by the tableau's scalar rule."""
    from itertools import product

    from exact_odds.tableau import STANDARD_TABLEAU, play_totals

    out = {"banker": 0, "player": 0, "tie": 0}
    for seq in product(range(10), repeat=6):
        left, ways = list(points), 1
        for q in seq:
            ways *= left[q]
            left[q] -= 1
        if ways:
            end = play_totals(STANDARD_TABLEAU, (seq[0] + seq[2]) % 10, (seq[1] + seq[3]) % 10, seq[4:])
            out["banker" if end.banker > end.player else "player" if end.player > end.banker else "tie"] += ways
    return out


def naive_seconds() -> float:
    """Seconds of :func:`naive_odds` on 8 decks (median of 3, measured once per run), checked exact."""
    if not _NAIVE:
        from exact_odds.engine import winners

        shoe = Shoe.decks(8)
        assert naive_odds(shoe.point_counts()) == dict(winners(enumerate_coups(shoe)).items())
        _NAIVE.append(median_seconds(lambda: naive_odds(shoe.point_counts()), 3))
        print(f"naive: the 10^6 ordered point sequences of 8 decks in plain Python, median of 3: {_NAIVE[0]:.2f} s CPU")
    return _NAIVE[0]


def process_env() -> dict[str, str]:
    """The environment of an installed package: bytecode compiled once and kept (here in a temporary
    prefix, so the tree stays clean), whatever ``PYTHONDONTWRITEBYTECODE`` says; one BLAS thread
    per process (workers get one each anyway), so that CPU times are those of single cores."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update({k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")})
    env.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "exact-odds-bench-pycache"))
    return env


def process_seconds(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Medians of wall-clock and of CPU seconds (user + system) of ``cmd`` as a whole process, after one
    warm-up run, in ``env`` (default :func:`process_env`). On a busy machine the CPU time is the better
    guide to the wall time on an idle one."""
    import resource

    env = process_env() if env is None else env
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    walls, cpus = [], []
    for _ in range(repeat):
        before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, env=env)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def command_figures(argv: list[str], repeat: int, label: str, *, limit_ms: int | None = None,
                    least_ratio: int | None = None) -> None:
    """One single-shoe command as a whole process: wall and CPU medians, the ratio of the naive
    enumeration to the wall time, and which heavy modules the command imported; with ``limit_ms``
    (and ``least_ratio`` to the naive enumeration) a figure of the bar (:func:`bench_bars.bar`)."""
    wall, cpu = process_seconds([python, "-m", "exact_odds", *argv], repeat, whole_process_env())
    done = subprocess.run([python, "-c", PROBE, *argv], check=True, capture_output=True, text=True,
                          env=whole_process_env())
    heavy = done.stderr.strip().splitlines()[-1]
    start_wall, start_cpu = startup_seconds(repeat)
    print(f"{label}: `exact-odds {' '.join(argv)}` whole process, median of {repeat}: {wall * 1000:.0f} ms "
          f"(CPU {cpu * 1000:.0f} ms; {naive_seconds() / cpu:.0f}x the naive enumeration, CPU to CPU; "
          f"`python -c pass` {start_wall * 1000:.0f} ms, CPU {start_cpu * 1000:.0f} ms); "
          f"heavy modules imported: {heavy}")
    if limit_ms is not None:
        ratio = naive_seconds() / cpu
        measured, target = f"{wall * 1000:.0f} ms", f"<= {limit_ms:,} ms"
        if least_ratio is not None:
            measured, target = f"{measured}, {ratio:.0f}x the naive enumeration", f"{target}, >= {least_ratio}x"
        bar(f"`exact-odds {' '.join(argv)}`, whole process", measured, target,
            wall * 1000 <= limit_ms and (least_ratio is None or ratio >= least_ratio))


def startup_figure(repeat: int) -> None:
    """The floor every command stands on: Python starting and exiting, in the same environment; and where
    the interpreter of the whole processes finds exact-odds."""
    wall, cpu = startup_seconds(repeat)
    found = subprocess.run([python, "-c", "import exact_odds; print(exact_odds.__file__)"], check=True,
                           capture_output=True, text=True, env=whole_process_env()).stdout.strip()
    print(f"startup: `{python} -c pass` whole process, median of {repeat}: {wall * 1000:.0f} ms "
          f"(CPU {cpu * 1000:.0f} ms); it imports {found}")


def deal_figures(repeat: int, detail: Detail) -> None:
    """In process: one shoe's coups from the tables against the reference enumerator, uncached."""
    from exact_odds.polynomial import _RECENT, deal_by_tables
    from exact_odds.tableau import STANDARD_TABLEAU

    for decks in (8, 10_000):
        shoe = Shoe.decks(decks)

        def fast(s: Shoe = shoe) -> None:
            _RECENT.clear()
            deal_by_tables(s, STANDARD_TABLEAU, detail)

        secs = median_seconds(fast, repeat)
        ref = median_seconds(lambda s=shoe: enumerate_coups(s, detail=detail), max(1, repeat // 2))  # type: ignore[misc]
        print(f"deal: {decks} decks at {detail.name} detail from the tables, median of {repeat}: {secs * 1000:.1f} ms "
              f"(the reference enumerator: {ref * 1000:.0f} ms, {ref / secs:.0f}x)")


def bench_odds(repeat: int) -> None:
    """Single shoe: Python's start-up, the naive enumeration, whole-process `odds`, deal by tables vs enumerator."""
    naive_seconds()
    startup_figure(repeat)
    command_figures(["odds", "--decks", "8"], repeat, "odds", limit_ms=60, least_ratio=20)
    deal_figures(repeat, Detail.POINTS)


def bench_sidebets(repeat: int) -> None:
    """Side bets: whole-process `sidebets`, the SUITS-detail deal by tables vs enumerator."""
    command_figures(["sidebets", "--decks", "8"], repeat, "sidebets", limit_ms=200)
    deal_figures(repeat, Detail.SUITS)


def bench_report(repeat: int) -> None:
    """Reference figures: whole-process `report`, `edges`, `parsheet`, `eor` (every bet)."""
    for argv, limit in ((["report"], 150), (["edges"], None), (["parsheet", "--bet", "banker"], None)):
        command_figures(argv, repeat, "report", limit_ms=limit)
    command_figures(["eor", "--decks", "8"], repeat, "report", limit_ms=1000)


def bench_bunco(repeat: int) -> None:
    """Bunco: whole-process `bunco`, the exact turn at the largest sizes, a million-trial simulation."""
    from exact_odds.bunco import MAX_DICE, MAX_SIDES, MAX_TARGET, STANDARD_SCORING, Dice, play_game, play_turn

    command_figures(["bunco"], repeat, "bunco")
    big = Dice(MAX_DICE, MAX_SIDES)
    secs = median_seconds(lambda: play_turn(big, STANDARD_SCORING, target=MAX_TARGET), repeat)
    print(f"bunco: exact turn of {big} to {MAX_TARGET} points, median of {repeat}: {secs:.3f} s")
    secs = median_seconds(lambda: play_game(Dice(MAX_DICE, 6), STANDARD_SCORING, rounds=60), repeat)
    print(f"bunco: exact game of 60 rounds of {MAX_DICE}d6, median of {repeat}: {secs:.3f} s")
    secs = cli_seconds(["bunco", "--simulate", "1000000", "--seed", "1"], max(1, repeat // 3))
    print(f"bunco: `exact-odds bunco --simulate 1000000` (a million rolls, games and turns) whole process, "
          f"median of {max(1, repeat // 3)}: {secs:.3f} s CPU")


# ---------------------------------------------------------------- composition-dependent study


def random_compositions(count: int, seed: int) -> tuple[list[list[int]], list[list[list[int]]]]:
    """``count`` 8-deck shoes depleted by 0-400 random cards: rank counts and suit counts."""
    import numpy as np

    from exact_odds.dealing import shoe_card_codes

    rng = np.random.default_rng(seed)
    cards = np.array(shoe_card_codes(Shoe.decks(8)), dtype=np.int64)
    suits = np.empty((count, 52), dtype=np.int64)
    for i in range(count):
        suits[i] = np.bincount(rng.permutation(cards)[rng.integers(0, 401):], minlength=52)
    grid = suits.reshape(count, 13, 4)
    return grid.sum(axis=2).tolist(), grid.tolist()


def reference_rate(counts: list[list[int]], grids: list[list[list[int]]], details: tuple[Detail, ...]) -> float:
    """Compositions per second of the reference enumerator (one run per detail per shoe, a few shoes)."""
    shoes = [Shoe(tuple(c), tuple(tuple(r) for r in g)) for c, g in zip(counts, grids, strict=True)]
    secs = statistics.median(median_seconds(lambda s=s: [enumerate_coups(s, detail=d) for d in details], 1)  # type: ignore[misc]
                             for s in shoes)
    return 1 / secs


def rate_bar(figure: str, rate: float, least: int, unit: str = "compositions") -> None:
    """A figure of the bar in ``unit`` per second per core, at least ``least``."""
    bar(figure, f"{rate:,.0f} {unit}/s/core", f">= {least:,}", rate >= least)


def batch_line(label: str, n: int, secs: float, reference: float) -> None:
    """One batch figure with its ratio to the reference enumerator measured in this run."""
    print(f"batch: {label}: {n / secs:,.0f} compositions/s ({n / secs / reference:,.0f}x the reference enumerator, "
          f"{reference:.1f}/s)")


def _paths() -> list[tuple[str, str]]:
    """The kernel's paths to measure: NumPy alone, and compiled when numba is installed."""
    from exact_odds.batch.compiled import _load

    return [("NumPy", "0"), *([("compiled", "1")] if _load("exact_odds.batch.loops") is not None else [])]


def _on_path(setting: str, run: Callable[[], object]) -> Callable[[], object]:
    """``run`` with the kernel's path set (``EXACT_ODDS_JIT``; empty: chosen by the size of the job)."""
    from exact_odds.batch.compiled import JIT_ENV

    def call() -> object:
        if setting:
            os.environ[JIT_ENV] = setting
        else:
            os.environ.pop(JIT_ENV, None)
        return run()

    return call


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

        paths = _paths()
        for path, setting in paths:
            _on_path(setting, lambda: evaluate(counts[:1000]))()  # compile (or load) once
            secs = median_seconds(_on_path(setting, lambda: evaluate(counts)), repeat)
            batch_line(f"{path}: main-bet counts of {n:,} 8-deck-sized shoes, one core, I/O excluded, median of "
                       f"{repeat}", n, secs, reference)
            secs = median_seconds(_on_path(setting, with_io), repeat)
            batch_line(f"{path}: the same with I/O (read and parse the file, evaluate, format and write CSV), median "
                       f"of {repeat}", n, secs, reference)
            if path == paths[-1][0]:  # the fastest path installed
                rate_bar(f"`batch`, main bets, CSV in and out ({path})", n / secs, 1_000_000)
            _on_path(setting, lambda: evaluate(counts[:10], bets=bets, suits=suits[:10]))()  # the three plans
            runs = max(1, repeat // 2)
            secs = median_seconds(_on_path(setting, lambda: evaluate(counts[:m], bets=bets, suits=suits[:m])), runs)
            batch_line(f"{path}: with every registered bet ({len(bets)}, exact EVs, pairs and suited pairs in bulk), "
                       f"one core, median of {runs}", m, secs, every)
            if path == paths[-1][0]:
                rate_bar(f"`batch`, every registered bet ({len(bets)}; {path})", m / secs, 200_000)
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
import json, statistics, sys, time
import numpy as np
from exact_odds.batch import evaluate
from exact_odds.bets import registered
from exact_odds.coup import Detail
counts = np.load(sys.argv[2])
bets = [b for b in registered() if b.detail is not Detail.SUITS]
rates = {}
for key, chosen in (("main", []), ("bets", bets)):
    evaluate(counts[:100], bets=chosen)
    times = []
    for _ in range(int(sys.argv[1])):
        start = time.process_time()
        evaluate(counts, bets=chosen)
        times.append(time.process_time() - start)
    rates[key] = len(counts) / statistics.median(times)
print(json.dumps(rates))
"""
"""A child's code: the rates of main bets and of the 40 bets of points and pairs, on one core, of the
``exact_odds`` first on its path."""


def big_reference(counts: Any, runs: int) -> tuple[dict[str, float], str]:
    """Compositions/s/core of the bench's big shoes through the kernel of :data:`BIG_BASELINE_COMMIT`
    (extracted from this checkout's history into a temporary directory and run in a child process
    with one BLAS thread), and the words that name it; :data:`BIG_BASELINE` when there is no history."""
    import json

    import numpy as np

    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        archive = subprocess.run(["git", "-C", root, "archive", BIG_BASELINE_COMMIT, "exact_odds"],
                                 capture_output=True)
        if archive.returncode:
            return {k: float(v) for k, v in BIG_BASELINE.items()}, "23 November's figure on another machine"
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        np.save(os.path.join(tmp, "counts.npy"), counts)
        env = {**process_env(), "PYTHONPATH": tmp, "PYTHONSAFEPATH": "1"}
        done = subprocess.run([sys.executable, "-c", BIG_REFERENCE, str(runs), "counts.npy"], cwd=tmp, env=env,
                              check=True, capture_output=True, text=True)
    return json.loads(done.stdout), f"the kernel of {BIG_BASELINE_COMMIT} in this run"


def big_figures(repeat: int) -> None:
    """Shoes past int64 (more than 1,448 cards, Python integers), on each path of the kernel: main bets, and every
    registered bet but the suited (points and pairs), with their ratio to the kernel of the issue's filing day
    on the same shoes in the same run (:func:`big_reference`)."""
    from exact_odds.batch import evaluate
    from exact_odds.batch.compiled import JIT_ENV
    from exact_odds.bets import registered

    counts, runs = big_shoes(), max(1, repeat // 2)
    n, bets = len(counts), [b for b in registered() if b.detail is not Detail.SUITS]
    reference, named = big_reference(counts, runs)
    paths = _paths()
    for path, setting in paths:
        for warm in ([], bets):  # compile (or load), plan and make the work arrays once, for either set of bets
            _on_path(setting, lambda b=warm: evaluate(counts, bets=b))()  # type: ignore[misc]
        for key, label, chosen in (("main", "main-bet counts", []), ("bets", f"{len(bets)} registered bets (points "
                                                                     "and pairs)", bets)):
            secs = median_seconds(_on_path(setting, lambda b=chosen: evaluate(counts, bets=b)), runs)  # type: ignore[misc]
            rate, ratio = n / secs, n / secs / reference[key]
            print(f"batch: {path}: {label} of {n:,} shoes of 30 to 10,000 decks (Python integers), one core, median "
                  f"of {runs}: {rate:,.0f} compositions/s ({ratio:.1f}x the {reference[key]:,.0f}/s of {named})")
            if path == paths[-1][0]:
                bar(f"`batch`, {label} of shoes past int64 ({path})", f"{rate:,.0f}/s/core, {ratio:.1f}x the "
                    f"{reference[key]:,.0f}/s of {named}", ">= 10x", ratio >= 10)
    os.environ.pop(JIT_ENV, None)


def in_child(function: str, repeat: int, env: dict[str, str]) -> None:
    """Run this script's ``function(repeat)`` in a child process with ``env`` (one BLAS thread, set before
    NumPy loads); it finds :mod:`bench_bars` beside this script."""
    here = os.path.dirname(os.path.abspath(__file__))
    code = f"import runpy, sys; sys.path.insert(0, {here!r}); runpy.run_path({__file__!r})[{function!r}]({repeat})"
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def bench_batch(repeat: int) -> None:
    """Bulk evaluation: compositions per second per core, I/O excluded and included, all bets."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    in_child("batch_figures", repeat, env)
    batch_process_figure(repeat)


def main_reference_rate() -> float:
    """Compositions per second of the reference enumerator on depleted 8-deck shoes (main bets),
    measured once per process."""
    if not _REFERENCE:
        counts, grids = random_compositions(5, 2)
        _REFERENCE.append(reference_rate(counts, grids, (Detail.POINTS,)))
        print(f"reference: the reference enumerator, main bets of a depleted 8-deck shoe, median of 5 shoes: "
              f"{_REFERENCE[0]:.1f} compositions/s")
    return _REFERENCE[0]


_REFERENCE: list[float] = []

PEAK = ("import resource, sys\nfrom exact_odds.cli import main\nmain(sys.argv[1:])\n"
        "try:\n"
        "    with open('/proc/self/status') as f:\n"
        "        peak = next(int(line.split()[1]) for line in f if line.startswith('VmHWM:'))\n"
        "except OSError:\n"
        "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "print(peak, file=sys.stderr)")
"""A child's code: run ``exact-odds ARGV``, then print its peak resident memory (KB) on stderr. Linux's
``VmHWM`` is this process's own: ``ru_maxrss`` keeps, across the ``exec`` that started it, the peak of
the memory it was forked from (this script's, 270 MB once the enumerations have run)."""


def peak_kilobytes(argv: list[str]) -> int:
    """Peak resident memory (KB) of ``exact-odds ARGV`` in a fresh process."""
    done = subprocess.run([sys.executable, "-c", PEAK, *argv], check=True, capture_output=True, text=True,
                          env=process_env())
    return int(done.stderr.strip().splitlines()[-1])


def alternated_seconds(cmds: list[list[str]], repeat: int) -> list[tuple[float, float]]:
    """Wall and CPU medians (as :func:`process_seconds`) of several commands run in turn, ``repeat``
    rounds after one warm-up of each: on a shared machine each round's runs see about the same load."""
    import resource

    env = process_env()
    samples: list[list[tuple[float, float]]] = [[] for _ in cmds]
    for round_ in range(repeat + 1):
        for cmd, runs in zip(cmds, samples, strict=True):
            before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, env=env)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if round_:
                runs.append((wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime))
    return [(statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)) for runs in samples]


def study_scaling(shoes: int, repeat: int) -> None:
    """`study --shoes SHOES --decks 8` with one worker and with two, alternated: wall and CPU, and the ratio."""
    argv = [sys.executable, "-m", "exact_odds", "study", "--shoes", str(shoes), "--decks", "8", "--seed", "1",
            "--quiet", "--workers"]
    load = os.getloadavg()[0]
    (one, one_cpu), (two, two_cpu) = alternated_seconds([[*argv, "1"], [*argv, "2"]], repeat)
    print(f"study: {shoes:,} shoes of 8 decks, whole process, median of {repeat} alternated runs: 1 worker "
          f"{one:.2f} s (CPU {one_cpu:.2f} s), 2 workers {two:.2f} s (CPU {two_cpu:.2f} s): 2 workers "
          f"{one / two:.2f}x faster (linear 2x; CPU {two_cpu / one_cpu:.2f}x one worker's; load average "
          f"{load:.1f} before, {os.getloadavg()[0]:.1f} after: the ratio needs two idle cores)")
    bar(f"`study --workers 2` against `--workers 1`, {shoes:,} shoes, wall", f"{one / two:.2f}x",
        ">= 1.8x (within 10% of 2x)", one / two >= 1.8)


def bench_study(repeat: int) -> None:
    """Shoe study: a 10,000-shoe 8-deck study of the main bets, whole process, 2 workers; the scaling
    from 1 worker to 2 at 10,000 and 40,000 shoes (alternated runs); coups per second against the
    reference enumerator; peak memory of 200 and 2,000 shoes."""
    runs = max(1, repeat // 3)
    argv = ["study", "--shoes", "10000", "--decks", "8", "--seed", "1", "--workers", "2", "--quiet"]
    done = subprocess.run([sys.executable, "-m", "exact_odds", *argv[:-1], "--format", "json", "--quiet"],
                          check=True, capture_output=True, text=True, env=process_env())
    import json

    coups = int(json.loads(done.stdout)["coups"])
    reference = main_reference_rate()
    two, two_cpu = process_seconds([sys.executable, "-m", "exact_odds", *argv], runs)
    print(f"study: `exact-odds {' '.join(argv)}` whole process, median of {runs}: {two:.2f} s (CPU {two_cpu:.2f} s; "
          f"{coups:,} coups evaluated, {coups / two / reference:,.0f}x the reference enumerator on one core)")
    bar("`study --shoes 10000 --decks 8 --workers 2`, whole process", f"{two:.2f} s", "<= 3 s", two <= 3)
    for shoes in (10_000, 40_000):
        study_scaling(shoes, runs)
    small, large = (peak_kilobytes(["study", "--shoes", str(n), "--decks", "8", "--seed", "1", "--quiet"])
                    for n in (200, 2000))
    print(f"study: peak memory of 200 shoes {small / 1024:.0f} MB, of 2,000 shoes {large / 1024:.0f} MB "
          f"({(large - small) / 1800:.1f} KB per shoe more)")


def bench_symbolic(repeat: int) -> None:
    """Closed forms in the number of decks: whole-process `symbolic` against the naive enumeration."""
    command_figures(["symbolic"], repeat, "symbolic", limit_ms=1000)


def simulate_figures(repeat: int) -> None:
    """The simulator's figures, measured in this process (run by :func:`bench_simulate` on one thread)."""
    import numpy as np

    from exact_odds.bets import find_bet
    from exact_odds.dealing import Procedure, deal_coup_simple, deal_coups
    from exact_odds.simulate import simulate
    from exact_odds.tableau import STANDARD_TABLEAU

    shoe, bets = Shoe.decks(8), [find_bet(n) for n in ("banker", "player", "tie")]
    cards = np.random.default_rng(1).integers(0, 52, size=(6, 1 << 20), dtype=np.uint8)
    few = cards[:, :20_000].T.tolist()
    scalar = 20_000 / median_seconds(lambda: [deal_coup_simple(c) for c in few], 3)
    print(f"simulate: the scalar reference dealer, one coup at a time, median of 3: {scalar:,.0f} coups/s")
    secs = median_seconds(lambda: deal_coups(cards, STANDARD_TABLEAU), repeat)
    print(f"simulate: vectorised dealing alone (cards given), one core, median of {repeat}: "
          f"{cards.shape[1] / secs:,.0f} coups/s ({cards.shape[1] / secs / scalar:,.0f}x the scalar dealer)")
    reference = main_reference_rate()
    verified = "whole shoes with --verify (the checks of `verify` on every coup, exact odds given the cards seen)"
    cases: list[tuple[str, str, dict[str, object]]] = [
        ("fresh shoes, 3 flat bets", "", {"coups": 4_000_000, "procedure": Procedure(fresh=True)}),
        ("whole shoes (shuffle, burn, cut card), 3 flat bets", "", {"shoes": 40_000}),
        *((f"{path}: {verified}", setting, {"shoes": 4_000, "reference": STANDARD_TABLEAU})
          for path, setting in _paths()),
    ]
    for label, setting, kwargs in cases:
        runs = max(1, repeat // 2)
        run = _on_path(setting, lambda k=kwargs: simulate(shoe, seed=1, bets=bets, **k))  # type: ignore[misc]
        coups = run().n  # type: ignore[attr-defined]
        secs = median_seconds(run, runs)
        against = (f"{coups / secs / reference:,.0f}x the reference enumerator" if "reference" in kwargs
                   else f"{coups / secs / scalar:,.0f}x the scalar dealer")
        print(f"simulate: {label}, 8 decks, {coups:,} coups, one core, median of {runs}: {coups / secs:,.0f} coups/s "
              f"({against})")
        if label.startswith(f"{_paths()[-1][0]}: whole shoes with --verify"):
            rate_bar(f"`simulate --verify`, whole shoes ({label.split(':')[0]})", coups / secs, 1_000_000, "coups")


def bench_simulate(repeat: int) -> None:
    """Simulator: coups per second per core (fresh shoes, whole shoes, with the exact check), 10M run."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    in_child("simulate_figures", repeat, env)
    argv = ["simulate", "--fresh", "--rounds", "10000000", "--seed", "1", "--verify", "--quiet"]
    runs = max(1, repeat // 3)
    secs = cli_seconds(argv, runs)
    print(f"simulate: `exact-odds {' '.join(argv)}` whole process, median of {runs}: {secs:.1f} s CPU")


def verify_log_file(path: str, shoes: int) -> int:
    """Write a log of ``shoes`` 8-deck shoes dealt by the library's dealer (seed 5) to ``path``; its coups."""
    import numpy as np

    from exact_odds.coup import Detail
    from exact_odds.dealing import Procedure, play_shoes, shoe_card_codes, shoe_orders
    from exact_odds.tableau import STANDARD_TABLEAU
    from exact_odds.verify import CoupLog, write_log

    cards = shoe_orders(shoe_card_codes(Shoe.decks(8)), 5, 0, shoes)
    play = play_shoes(cards, STANDARD_TABLEAU, Procedure(), Detail.RANKS)
    index = np.minimum(np.asarray(play.start, dtype=np.int64)[:, None] + np.arange(6), cards.shape[1] - 1)
    log = CoupLog.from_dealt(cards[np.asarray(play.shoe)[:, None], index], codes=play.codes, detail=Detail.RANKS,
                             shoe=np.asarray(play.shoe) + 1)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        write_log(log, fh)
    return len(log)


def bench_verify(repeat: int) -> None:
    """Verify: a million-coup log read and checked by `exact-odds verify`, whole process, one core."""
    import tempfile

    runs = max(1, repeat // 3)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "log.csv")
        coups = verify_log_file(path, 12_500)
        size = os.path.getsize(path) / 1e6
        cmd = [sys.executable, "-m", "exact_odds", "verify", path, "--format", "json"]
        wall, secs = process_seconds(cmd, runs)
    print(f"verify: `exact-odds verify` of a {coups:,}-coup log ({size:.0f} MB, 12,500 shoes), whole process, "
          f"one core, median of {runs}: {wall:.2f} s (CPU {secs:.2f} s: {coups / secs:,.0f} coups/s, "
          f"{coups / secs / main_reference_rate():,.0f}x the reference enumerator)")


BENCHMARKS: dict[str, Callable[[int], None]] = {
    "odds": bench_odds,
    "report": bench_report,
    "sidebets": bench_sidebets,
    "bunco": bench_bunco,
    "batch": bench_batch,
    "study": bench_study,
    "symbolic": bench_symbolic,
    "simulate": bench_simulate,
    "verify": bench_verify,
}


def bench_big_shoes(repeat: int) -> None:
    """The big-shoe lines of ``batch`` alone (shoes past int64), in a process with one BLAS thread."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    in_child("big_figures", repeat, env)


PARTS: dict[str, Callable[[int], None]] = {"big-shoes": bench_big_shoes}
"""Parts of a benchmark that ``--only`` can run alone (the default run prints them within theirs)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--only", nargs="*", choices=sorted({**BENCHMARKS, **PARTS}),
                        help="run only these (big-shoes: batch's lines of shoes past int64 alone)")
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure (default 7)")
    parser.add_argument("--python", metavar="PATH", default=sys.executable,
                        help="interpreter of the whole processes of odds, sidebets, report, bunco and symbolic, e.g. "
                             "a fresh virtual environment's with the package installed (default: this one)")
    parser.add_argument("--table", action="store_true",
                        help="end with the figures held to a target as a Markdown table (README's performance table)")
    args = parser.parse_args()
    global python
    python = args.python
    with tempfile.TemporaryDirectory() as tmp:
        if args.table:
            os.environ[BARS_ENV] = os.path.join(tmp, "bars.jsonl")
            open(os.environ[BARS_ENV], "w").close()
        for name in args.only or BENCHMARKS:
            {**BENCHMARKS, **PARTS}[name](args.repeat)
        if args.table:
            print(f"\n{table(recorded(os.environ.pop(BARS_ENV)))}")


if __name__ == "__main__":
    main()
