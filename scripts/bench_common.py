"""What every part of the bench measures with: medians of CPU and wall time, whole processes in the environment
of an installed package, children with one BLAS thread, and the references measured in the same run (the
reference enumerator's compositions per second).

The machines are shared and noisy, so every figure is a median; in-process figures are CPU seconds of one
core (one BLAS thread), and whole processes show both their wall-clock and CPU times.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence

from bench_bars import bar

from exact_odds import Shoe
from exact_odds.core.coup import Detail
from exact_odds.engine.enumerator import enumerate_coups
from exact_odds.study.workers import ONE_THREAD


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


def process_env() -> dict[str, str]:
    """The environment of an installed package: bytecode compiled once and kept (here in a temporary
    prefix, so the tree stays clean), whatever ``PYTHONDONTWRITEBYTECODE`` says; one BLAS thread
    per process (workers get one each anyway), so that CPU times are those of single cores."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(ONE_THREAD)
    env.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "exact-odds-bench-pycache"))
    return env


def process_seconds(cmd: list[str], repeat: int, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Medians of wall-clock and of CPU seconds (user + system) of ``cmd`` as a whole process, after one
    warm-up run, in ``env`` (default :func:`process_env`). On a busy machine the CPU time is the better
    guide to the wall time on an idle one."""
    return alternated_seconds([[cmd]], repeat, env)[0]


def cli_seconds(argv: list[str], repeat: int) -> float:
    """Median CPU seconds (user + system) of ``python -m exact_odds ARGV`` as a whole process."""
    return process_seconds([sys.executable, "-m", "exact_odds", *argv], repeat)[1]


def _job_seconds(job: Sequence[list[str]], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds from starting the commands of ``job`` together until the last has ended, and their CPU
    seconds (user + system) added up; each must succeed."""
    import resource

    before, start = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    running = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env) for cmd in job]
    for cmd, process in zip(job, running, strict=True):
        _, err = process.communicate()
        if process.returncode:
            raise subprocess.CalledProcessError(process.returncode, cmd, stderr=err)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def alternated_seconds(jobs: Sequence[Sequence[list[str]]], repeat: int,
                       env: dict[str, str] | None = None) -> list[tuple[float, float]]:
    """Wall and CPU medians (as :func:`process_seconds`) of several jobs run in turn, ``repeat`` rounds after
    one warm-up of each: on a shared machine each round's runs see about the same load. A job is one or more
    commands started together (wall: until the last ends; CPU: theirs added up)."""
    env = process_env() if env is None else env
    samples: list[list[tuple[float, float]]] = [[] for _ in jobs]
    for round_ in range(repeat + 1):
        for job, runs in zip(jobs, samples, strict=True):
            seconds = _job_seconds(job, env)
            if round_:
                runs.append(seconds)
    return [(statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)) for runs in samples]


def in_child(script: str, function: str, repeat: int) -> None:
    """Run ``function(repeat)`` of the bench's ``script`` (a path) in a child process with one BLAS thread
    (set before NumPy loads); it finds the bench's other modules beside it."""
    here = os.path.dirname(os.path.abspath(script))
    code = f"import runpy, sys; sys.path.insert(0, {here!r}); runpy.run_path({script!r})[{function!r}]({repeat})"
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, **ONE_THREAD})


# ---------------------------------------------------------------- the reference enumerator


def random_compositions(count: int, seed: int) -> tuple[list[list[int]], list[list[list[int]]]]:
    """``count`` 8-deck shoes depleted by 0-400 random cards: rank counts and suit counts."""
    import numpy as np

    from exact_odds.dealing.procedure import shoe_card_codes

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


_REFERENCE: list[float] = []


def main_reference_rate() -> float:
    """Compositions per second of the reference enumerator on depleted 8-deck shoes (main bets),
    measured once per process."""
    if not _REFERENCE:
        counts, grids = random_compositions(5, 2)
        _REFERENCE.append(reference_rate(counts, grids, (Detail.POINTS,)))
        print(f"reference: the reference enumerator, main bets of a depleted 8-deck shoe, median of 5 shoes: "
              f"{_REFERENCE[0]:.1f} compositions/s")
    return _REFERENCE[0]


def rate_bar(figure: str, rate: float, least: int, unit: str = "compositions", bound: str = "") -> None:
    """A figure of the bar in ``unit`` per second per core, at least ``least``; ``bound`` (if any) follows the
    measured figure (what the machine allows it, :mod:`bench_machine`)."""
    bar(figure, f"{rate:,.0f} {unit}/s/core{'; ' + bound if bound else ''}", f">= {least:,}", rate >= least)


# ---------------------------------------------------------------- the kernel's paths


def kernel_paths() -> list[tuple[str, str]]:
    """The kernel's paths to measure: NumPy alone, and compiled when numba is installed."""
    from exact_odds.batch.compiled import KERNEL, load

    return [("NumPy", "0"), *([("compiled", "1")] if load(KERNEL) is not None else [])]


def on_path(setting: str, run: Callable[[], object]) -> Callable[[], object]:
    """``run`` with the kernel's path set (``EXACT_ODDS_JIT``; empty: chosen by the size of the job)."""
    from exact_odds.batch.compiled import JIT_ENV

    def call() -> object:
        if setting:
            os.environ[JIT_ENV] = setting
        else:
            os.environ.pop(JIT_ENV, None)
        return run()

    return call
