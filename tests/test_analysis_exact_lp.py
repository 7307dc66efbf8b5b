"""The exact simplex method against the definition: the best of every vertex of the feasible region.

A vertex of ``{y : A y <= b, y >= 0}`` in ``n`` dimensions is where ``n`` of its constraints, made
equalities, meet in one feasible point; the optimum of a bounded, feasible program is at one of them.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from exact_odds.analysis.exact_lp import LPError, maximize


def _solve(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """The one solution of a square system by Gauss-Jordan elimination over fractions, else None."""
    n = len(rows)
    m = [[*row, r] for row, r in zip(rows, rhs, strict=True)]
    for col in range(n):
        pivot = next((i for i in range(col, n) if m[i][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for i in range(n):
            if i != col and m[i][col] != 0:
                f = m[i][col] / m[col][col]
                m[i] = [x - f * y for x, y in zip(m[i], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def best_vertex(c: list[int], a: list[list[int]], b: list[int]) -> Fraction | None:
    """The largest ``c·y`` over every vertex (None when there is none)."""
    n = len(c)
    rows = [[Fraction(x) for x in row] for row in a] + [[Fraction(-(i == j)) for j in range(n)] for i in range(n)]
    rhs = [Fraction(x) for x in b] + [Fraction(0)] * n
    best = None
    for chosen in combinations(range(len(rows)), n):
        y = _solve([rows[i] for i in chosen], [rhs[i] for i in chosen])
        if y is None or any(sum(r * v for r, v in zip(row, y, strict=True)) > h for row, h in zip(rows, rhs,
                                                                                                 strict=True)):
            continue
        value = sum((Fraction(ci) * yi for ci, yi in zip(c, y, strict=True)), Fraction(0))
        best = value if best is None else max(best, value)
    return best


small = st.integers(-5, 5)


@given(st.integers(1, 3).flatmap(lambda n: st.tuples(
    st.lists(small, min_size=n, max_size=n),
    st.lists(st.lists(small, min_size=n, max_size=n), min_size=1, max_size=4),
    st.integers(0, 10))))
@example(([3, 2], [[1, 1], [1, 3]], 4))
def test_the_optimum_is_the_best_vertex(program: tuple[list[int], list[list[int]], int]) -> None:
    """A box ``y_i <= bound`` keeps every program bounded; the right-hand sides may be negative."""
    c, a, bound = program
    n = len(c)
    a = a + [[int(i == j) for j in range(n)] for i in range(n)]
    b = [sum(row) - 2 for row in a[: len(a) - n]] + [bound] * n
    expected = best_vertex(c, a, b)
    if expected is None:
        with pytest.raises(LPError):
            maximize(c, a, b)
        return
    solution = maximize(c, a, b)
    assert solution.value == expected
    assert sum(Fraction(ci) * yi for ci, yi in zip(c, solution.point, strict=True)) == expected
    assert all(y >= 0 for y in solution.point)
    assert all(sum(r * y for r, y in zip(row, solution.point, strict=True)) <= h for row, h in zip(a, b, strict=True))


def test_an_unbounded_program_is_refused() -> None:
    with pytest.raises(LPError):
        maximize([1, 1], [[1, -1]], [1])
