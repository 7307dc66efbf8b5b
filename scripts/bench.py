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
import subprocess
import sys
import tempfile
from collections.abc import Callable

from bench_bars import BARS_ENV, bar, recorded, table
from bench_bulk import BEFORE_ENV, bench_batch, bench_big_shoes
from bench_common import cli_seconds, median_seconds, process_env, process_seconds
from bench_shoes import bench_simulate, bench_study, bench_verify

from exact_odds import Shoe
from exact_odds.core.coup import Detail
from exact_odds.engine.enumerator import enumerate_coups

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

    from exact_odds.core.tableau import STANDARD_TABLEAU, play_totals

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
        from exact_odds.engine.enumerator import winners

        shoe = Shoe.decks(8)
        assert naive_odds(shoe.point_counts()) == dict(winners(enumerate_coups(shoe)).items())
        _NAIVE.append(median_seconds(lambda: naive_odds(shoe.point_counts()), 3))
        print(f"naive: the 10^6 ordered point sequences of 8 decks in plain Python, median of 3: {_NAIVE[0]:.2f} s CPU")
    return _NAIVE[0]


def command_figures(argv: list[str], repeat: int, label: str, *, limit_ms: int | None = None,
                    most_startups: int | None = None) -> None:
    """One single-shoe command as a whole process: wall and CPU medians, the ratio of the naive
    enumeration to the wall time, and which heavy modules the command imported; with ``limit_ms``, or
    ``most_startups`` (times the interpreter's bare start, ``python -c pass``, measured in the same run),
    a figure of the bar (:func:`bench_bars.bar`)."""
    wall, cpu = process_seconds([python, "-m", "exact_odds", *argv], repeat, whole_process_env())
    done = subprocess.run([python, "-c", PROBE, *argv], check=True, capture_output=True, text=True,
                          env=whole_process_env())
    heavy = done.stderr.strip().splitlines()[-1]
    start_wall, start_cpu = startup_seconds(repeat)
    print(f"{label}: `exact-odds {' '.join(argv)}` whole process, median of {repeat}: {wall * 1000:.0f} ms "
          f"(CPU {cpu * 1000:.0f} ms; {naive_seconds() / cpu:.0f}x the naive enumeration, CPU to CPU; "
          f"`python -c pass` {start_wall * 1000:.0f} ms, CPU {start_cpu * 1000:.0f} ms); "
          f"heavy modules imported: {heavy}")
    figure = f"`exact-odds {' '.join(argv)}`, whole process"
    if limit_ms is not None:
        bar(figure, f"{wall * 1000:.0f} ms", f"<= {limit_ms:,} ms", wall * 1000 <= limit_ms)
    if most_startups is not None:
        times = wall / start_wall
        bar(figure, f"{wall * 1000:.0f} ms, {times:.1f}x `python -c pass` ({start_wall * 1000:.0f} ms)",
            f"<= {most_startups}x", times <= most_startups)


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
    from exact_odds.core.tableau import STANDARD_TABLEAU
    from exact_odds.engine.polynomial import _RECENT, deal_by_tables

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
    command_figures(["odds", "--decks", "8"], repeat, "odds", most_startups=6)
    deal_figures(repeat, Detail.POINTS)


def bench_sidebets(repeat: int) -> None:
    """Side bets: whole-process `sidebets`, the SUITS-detail deal by tables vs enumerator."""
    command_figures(["sidebets", "--decks", "8"], repeat, "sidebets", limit_ms=200)
    deal_figures(repeat, Detail.SUITS)


def bench_report(repeat: int) -> None:
    """Reference figures: whole-process `report`, `edges`, `parsheet`, `eor` (every bet)."""
    command_figures(["report"], repeat, "report", most_startups=10)
    for argv in (["edges"], ["parsheet", "--bet", "banker"]):
        command_figures(argv, repeat, "report")
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


def bench_symbolic(repeat: int) -> None:
    """Closed forms in the number of decks: whole-process `symbolic` against the naive enumeration."""
    command_figures(["symbolic"], repeat, "symbolic", limit_ms=1000)


def bench_chemin(repeat: int) -> None:
    """Chemin de fer solved exactly: whole-process B2 and B3 for 8 decks; all three models for 1-8 decks in process."""
    from exact_odds.analysis.chemin import Information, choice_game, payoff_table, solve

    for model in ("B2", "B3"):
        command_figures(["chemin-de-fer", "--model", model], repeat, "chemin-de-fer", limit_ms=1000)

    def every_model() -> None:
        payoff_table.cache_clear()
        for decks in range(1, 9):
            for information in Information:
                solve(choice_game(Shoe.decks(decks), information))

    secs = median_seconds(every_model, max(1, repeat // 3))
    print(f"chemin-de-fer: models B1, B2, B3 solved for 1-8 decks (24 games) in process, median of "
          f"{max(1, repeat // 3)}: {secs:.2f} s CPU")
    bar("chemin de fer: models 1-3 for 1-8 decks, in process", f"{secs:.2f} s", "<= 10 s", secs <= 10)


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
    "chemin": bench_chemin,
}


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
    parser.add_argument("--before", metavar="DIR",
                        help="a checkout of an earlier tree: batch's main-bet rate is measured beside it, alternated")
    parser.add_argument("--table", action="store_true",
                        help="end with the figures held to a target as a Markdown table (README's performance table)")
    args = parser.parse_args()
    global python
    python = args.python
    if args.before:
        os.environ[BEFORE_ENV] = os.path.abspath(args.before)
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
