"""The machine's own limits, measured in the same run as the figures they bound, so that a reader can tell what
the code leaves on the table from what the machine does not have.

- **One core's arithmetic.** The bulk kernels spend most of their time in BLAS products of float64 matrices
  whose sizes the plans fix: :func:`products_per_composition` counts the multiply-adds of a composition, and
  :func:`blas_rate` measures what one core's BLAS does on a large product (1024 x 1024 by 1024 x 1024, one
  thread). Their quotient bounds the rate of the products alone, before the part values, the weighing, the
  checks and any reading or writing (:func:`products_bound`).
- **Two cores.** ``--workers 2`` can scale no better than two processes that share nothing do on this
  machine at that minute: :data:`LOOPS` are two such loads (plain Python, and BLAS products on one thread),
  run alone and two at once beside the study's own runs (:func:`two_at_once`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from bench_common import median_seconds

if TYPE_CHECKING:
    from exact_odds.batch.plan import Plan

BLAS_SIZE = 1024
"""Rows and columns of the square matrices of :func:`blas_rate`."""
_RATE: list[float] = []

LOOPS = {
    "plain Python": "x = 0\nfor i in range(8_000_000):\n    x += i\n",
    "BLAS products": ("import numpy as np\na = np.random.default_rng(0).random((512, 512))\nb = a.copy()\n"
                      "for _ in range(60):\n    np.matmul(a, a, out=b)\n"),
}
"""Loads that share nothing between processes, each about half a second on one core: the same code run alone
and as two processes at once shows how much of two cores the machine gives (:func:`two_at_once`)."""


def blas_rate() -> float:
    """Multiply-adds per second of one core's BLAS (this process's threads: one in the bench's children) on
    a float64 product of two :data:`BLAS_SIZE` square matrices, median of 5, measured once per process."""
    if not _RATE:
        import numpy as np

        rng = np.random.default_rng(0)
        a, b = rng.random((BLAS_SIZE, BLAS_SIZE)), rng.random((BLAS_SIZE, BLAS_SIZE))
        out = np.empty_like(a)
        np.matmul(a, b, out=out)
        _RATE.append(BLAS_SIZE**3 / median_seconds(lambda: np.matmul(a, b, out=out), 5))
        print(f"machine: one core's BLAS on a product of two {BLAS_SIZE} x {BLAS_SIZE} float64 matrices, "
              f"median of 5: {_RATE[0] / 1e9:.1f} billion multiply-adds/s")
    return _RATE[0]


def products_per_composition(plan: Plan) -> int:
    """Multiply-adds of one composition in the block products of ``plan``: the rows times the columns of
    each block's matrix, as the plan holds them (the kernel pads some with rows of zeros, so it does a
    little more)."""
    return sum(block.matrix.size for stage in plan.stages for block in stage.blocks)


def kernel_products() -> dict[str, int]:
    """Multiply-adds per composition of the block products of the main bets (banker and player; the tie is
    derived) and of every registered bet (the bets on points; pairs and suited pairs have closed forms)."""
    from exact_odds.batch.evaluation import _bet_groups, _bet_pass
    from exact_odds.bets import registered
    from exact_odds.core.coup import Detail
    from exact_odds.core.tableau import STANDARD_TABLEAU

    bets = registered()
    every = (_bet_pass(STANDARD_TABLEAU, detail, tuple(bets[j] for j in members)).plan
             for detail, members in _bet_groups(bets).items())
    return {"main": products_per_composition(_bet_pass(STANDARD_TABLEAU, Detail.POINTS, ()).plan),
            "every": sum(products_per_composition(plan) for plan in every)}


def products_bound(products: int, unit: str = "compositions") -> str:
    """The most compositions (``unit``) a second that ``products`` multiply-adds each allow at
    :func:`blas_rate`, in words for the bar's table."""
    return (f"the products alone ({products:,} multiply-adds each) at this core's BLAS rate: "
            f"{blas_rate() / products:,.0f} {unit}/s")


COPIES = 3
"""How many times each round runs each load of :data:`LOOPS`, alone and two at once: they are short, and
the ratio of one pair of runs is noisy."""


def two_at_once_jobs() -> list[list[list[str]]]:
    """:data:`COPIES` times, for each of :data:`LOOPS`: the job of one process, then that of two started
    together (:func:`bench_common.alternated_seconds`)."""
    jobs = []
    for code in LOOPS.values():
        jobs += [[[sys.executable, "-c", code]], [[sys.executable, "-c", code]] * 2]
    return jobs * COPIES


def two_at_once(walls: list[float]) -> dict[str, float]:
    """How many times one process's work two processes did in the same wall time, for each of :data:`LOOPS`
    (2.0: two whole cores), the median over the copies, from the wall times of :func:`two_at_once_jobs`
    in order."""
    import statistics

    ratios = [2 * walls[i] / walls[i + 1] for i in range(0, len(walls), 2)]
    return {name: statistics.median(ratios[k::len(LOOPS)]) for k, name in enumerate(LOOPS)}
