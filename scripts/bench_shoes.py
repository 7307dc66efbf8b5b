"""The bench's figures of whole shoes: ``study`` (its time on two workers, its scaling from one worker to two
beside what two processes that share nothing get from this machine in the same minutes, its memory),
``simulate`` (dealing, and whole shoes with the exact check) and ``verify`` of a million-coup log."""

from __future__ import annotations

import os
import subprocess
import sys

from bench_bars import bar
from bench_common import (
    alternated_seconds,
    cli_seconds,
    in_child,
    kernel_paths,
    main_reference_rate,
    median_seconds,
    on_path,
    process_env,
    process_seconds,
    rate_bar,
)
from bench_machine import kernel_products, products_bound, two_at_once, two_at_once_jobs

from exact_odds import Shoe

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


def study_scaling(shoes: int, repeat: int) -> None:
    """`study --shoes SHOES --decks 8` with one worker and with two, alternated with loads that share nothing
    run alone and two at once (:func:`bench_machine.two_at_once`): wall and CPU, and the ratios."""
    argv = [sys.executable, "-m", "exact_odds", "study", "--shoes", str(shoes), "--decks", "8", "--seed", "1",
            "--quiet", "--workers"]
    load = os.getloadavg()[0]
    found = alternated_seconds([[[*argv, "1"]], [[*argv, "2"]], *two_at_once_jobs()], repeat)
    (one, one_cpu), (two, two_cpu) = found[:2]
    ratios = two_at_once([wall for wall, _ in found[2:]])
    machine = ", ".join(f"{ratio:.2f}x for two loops of {name}" for name, ratio in ratios.items())
    print(f"study: {shoes:,} shoes of 8 decks, whole process, median of {repeat} alternated runs: 1 worker "
          f"{one:.2f} s (CPU {one_cpu:.2f} s), 2 workers {two:.2f} s (CPU {two_cpu:.2f} s): 2 workers "
          f"{one / two:.2f}x faster (linear 2x; CPU {two_cpu / one_cpu:.2f}x one worker's; load average "
          f"{load:.1f} before, {os.getloadavg()[0]:.1f} after: the ratio needs two idle cores; this machine in the "
          f"same rounds, against one alone: {machine})")
    bar(f"`study --workers 2` against `--workers 1`, {shoes:,} shoes, wall", f"{one / two:.2f}x (this machine: "
        f"{machine})", ">= 1.8x (within 10% of 2x)", one / two >= 1.8)


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


def simulate_figures(repeat: int) -> None:
    """The simulator's figures, measured in this process (run by :func:`bench_simulate` on one thread)."""
    import numpy as np

    from exact_odds.bets import find_bet
    from exact_odds.core.tableau import STANDARD_TABLEAU
    from exact_odds.dealing.dealer import deal_coup_simple, deal_coups
    from exact_odds.dealing.procedure import Procedure
    from exact_odds.witness.simulate import simulate

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
          for path, setting in kernel_paths()),
    ]
    for label, setting, kwargs in cases:
        runs = max(1, repeat // 2)
        run = on_path(setting, lambda k=kwargs: simulate(shoe, seed=1, bets=bets, **k))  # type: ignore[misc]
        coups = run().n  # type: ignore[attr-defined]
        secs = median_seconds(run, runs)
        against = (f"{coups / secs / reference:,.0f}x the reference enumerator" if "reference" in kwargs
                   else f"{coups / secs / scalar:,.0f}x the scalar dealer")
        print(f"simulate: {label}, 8 decks, {coups:,} coups, one core, median of {runs}: {coups / secs:,.0f} coups/s "
              f"({against})")
        if label.startswith(f"{kernel_paths()[-1][0]}: whole shoes with --verify"):
            rate_bar(f"`simulate --verify`, whole shoes ({label.split(':')[0]})", coups / secs, 1_000_000, "coups",
                     bound=products_bound(kernel_products()["main"], "coups"))


def bench_simulate(repeat: int) -> None:
    """Simulator: coups per second per core (fresh shoes, whole shoes, with the exact check), 10M run."""
    in_child(__file__, "simulate_figures", repeat)
    argv = ["simulate", "--fresh", "--rounds", "10000000", "--seed", "1", "--verify", "--quiet"]
    runs = max(1, repeat // 3)
    secs = cli_seconds(argv, runs)
    print(f"simulate: `exact-odds {' '.join(argv)}` whole process, median of {runs}: {secs:.1f} s CPU")


def verify_log_file(path: str, shoes: int) -> int:
    """Write a log of ``shoes`` 8-deck shoes dealt by the library's dealer (seed 5) to ``path``; its coups."""
    import numpy as np

    from exact_odds.core.coup import Detail
    from exact_odds.core.tableau import STANDARD_TABLEAU
    from exact_odds.dealing.dealer import play_shoes
    from exact_odds.dealing.procedure import Procedure, shoe_card_codes
    from exact_odds.dealing.shuffle import shoe_orders
    from exact_odds.witness.verify import CoupLog, write_log

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


