"""What python-flint would make of the main bets of shoes past int64 (issue 13 asks to measure it beside
int64-exact limbs): run with python-flint installed (``pip install python-flint``; it is not a dependency).

Two ways, on the bench's big shoes (:func:`bench_bulk.big_shoes`), CPU seconds of one core, medians of 3:

- **Polynomials.** Banker and player as ``fmpz_mpoly`` polynomials in the ten point-class counts (from the
  shipped coefficient table), each evaluated at a composition by FLINT; checked equal to ``evaluate``.
- **Integer matrices.** The steps a path through ``fmpz_mat`` cannot avoid, on the main bets' own block
  shapes (:mod:`exact_odds.batch.plan`) and 256 compositions of integers of 100 bits (a 10,000-deck
  shoe's six cards reach 114): the part values made as Python integers (one multiplication each), put
  into FLINT's matrices, multiplied by the blocks, and read back. Each is a lower bound on such a path.

Beside them, this checkout's ``evaluate`` (the path taken, residues modulo primes in float64) on the same shoes.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable
from typing import Any

from bench_bulk import big_shoes
from bench_common import median_seconds, on_path

from exact_odds.core.coup import Detail, coup_of_code
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.study.blas import ONE_THREAD

WIDTH = 256
"""Compositions per block of the integer matrices, as the float path's chunks."""


def outcome_polynomials(flint: Any) -> dict[str, Any]:
    """Banker and player ways as ``fmpz_mpoly`` in the counts of points 0-9: the coefficient table's
    arrangements of each monomial (a product of falling factorials) that end in that winner."""
    from exact_odds.batch.coefficients import coefficients

    co = coefficients(STANDARD_TABLEAU, Detail.POINTS)
    ctx = flint.fmpz_mpoly_ctx.get(("x", 10), "lex")
    one = ctx.from_dict({(0,) * 10: 1})
    falling = []
    for x in ctx.gens():
        powers = [one]
        for j in range(6):
            powers.append(powers[-1] * (x - j))
        falling.append(powers)
    winner = {code: str(coup_of_code(code).winner) for code in set(co.coup.tolist())}
    arrangements: dict[str, dict[tuple[int, int], int]] = {"banker": {}, "player": {}}
    for a, b, coup, count in zip(co.a.tolist(), co.b.tolist(), co.coup.tolist(), co.count.tolist(), strict=True):
        if (terms := arrangements.get(winner[coup])) is not None:
            terms[a, b] = terms.get((a, b), 0) + count
    polynomials = {}
    for name, terms in arrangements.items():
        total = ctx.from_dict({})
        for (a, b), count in terms.items():
            term = one * count
            for kind, digit in enumerate(co.parts_a[a] + co.parts_b[b]):
                term = term * falling[kind][digit // 3] if digit else term
            total += term
        polynomials[name] = total
    return polynomials


def polynomial_rate(flint: Any, counts: Any, n: int) -> float:
    """Compositions/s of the polynomials' evaluation on the first ``n`` shoes, checked against ``evaluate``."""
    from exact_odds.batch import evaluate
    from exact_odds.batch.kinds import kind_counts

    banker, player = outcome_polynomials(flint).values()
    rows = kind_counts(counts[:n], Detail.POINTS).T.tolist()

    def run() -> list[tuple[Any, Any]]:
        return [(banker(*map(flint.fmpz, row)), player(*map(flint.fmpz, row))) for row in rows]

    expected = evaluate(counts[:n]).outcomes
    if [(int(b), int(p)) for b, p in run()] != [(int(b), int(p)) for b, p, _ in expected.tolist()]:
        raise AssertionError("python-flint's polynomials differ from evaluate")
    return n / median_seconds(run, 3)


def matrix_steps(flint: Any) -> dict[str, float]:
    """Microseconds per composition of each step of a path through ``fmpz_mat`` (see the module)."""
    from exact_odds.batch.evaluation import _bet_pass

    rng = random.Random(1)
    shapes = [block.matrix.shape for stage in _bet_pass(STANDARD_TABLEAU, Detail.POINTS, ()).plan.stages
              for block in stage.blocks]
    matrices = [flint.fmpz_mat(r, c, [rng.randrange(200) for _ in range(r * c)]) for r, c in shapes]
    columns = [[rng.randrange(2**100) for _ in range(c * WIDTH)] for _, c in shapes]
    values = [flint.fmpz_mat(c, WIDTH, column) for (_, c), column in zip(shapes, columns, strict=True)]
    products = [m * v for m, v in zip(matrices, values, strict=True)]
    parent, factor = [rng.randrange(2**90) for _ in range(WIDTH)], [rng.randrange(2**20) for _ in range(WIDTH)]
    parts = 912  # the main bets' parts (the plan's layout)
    steps: dict[str, Callable[[], object]] = {
        "part values as Python integers": lambda: [[x * y for x, y in zip(parent, factor, strict=True)]
                                                   for _ in range(parts)],
        "into fmpz_mat": lambda: [flint.fmpz_mat(c, WIDTH, column)
                                  for (_, c), column in zip(shapes, columns, strict=True)],
        "block products": lambda: [m * v for m, v in zip(matrices, values, strict=True)],
        "read back": lambda: [p.entries() for p in products],
    }
    return {name: median_seconds(run, 3) / WIDTH * 1e6 for name, run in steps.items()}


def main() -> int:
    """Print the figures; 2 when python-flint is missing."""
    try:
        import flint
    except ImportError:
        print("measure_flint: python-flint is not installed (pip install python-flint)", file=sys.stderr)
        return 2
    os.environ.update(ONE_THREAD)  # before NumPy loads
    from exact_odds.batch import evaluate

    counts = big_shoes()
    ours = len(counts) / median_seconds(on_path("1", lambda: evaluate(counts)), 3)  # compiled, if installed
    print(f"python-flint {flint.__version__}; this checkout's evaluate, main bets: {ours:,.0f} compositions/s")
    print(f"fmpz_mpoly, banker and player, 300 shoes: {polynomial_rate(flint, counts, 300):,.0f} compositions/s")
    steps = matrix_steps(flint)
    for name, micros in steps.items():
        print(f"fmpz_mat, {name}: {micros:,.1f} us a composition")
    print(f"fmpz_mat, at least {sum(steps.values()):,.0f} us a composition: "
          f"{1e6 / sum(steps.values()):,.0f} compositions/s at most")
    return 0


if __name__ == "__main__":
    sys.exit(main())
