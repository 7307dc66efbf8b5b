"""Small linear programs solved exactly: the simplex method over :class:`~fractions.Fraction`.

The games with choices end in linear programs of a few dozen variables whose coefficients are counts
of ways, which a floating-point solver would round. This one pivots a dense tableau of fractions with
Bland's rule (it never cycles), a first feasible basis found by the two-phase method (Cormen et al.,
*Introduction to Algorithms*, 3rd ed., 29.5). Convention: maximise ``c·y`` over ``A y <= b``, ``y >= 0``.

>>> maximize([3, 2], [[1, 1], [1, 3]], [4, 6]).value          # the optimum is y = (4, 0)
Fraction(12, 1)
>>> maximize([-1, 1], [[-1, 0], [0, 1]], [-1, 2]).point        # y1 >= 1 needs the auxiliary problem
(Fraction(1, 1), Fraction(2, 1))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

Number = int | Fraction


class LPError(ArithmeticError):
    """A linear program with no feasible point, or with an unbounded objective."""


@dataclass(frozen=True, slots=True)
class LPSolution:
    """An optimal vertex ``point`` (one value per variable) and the objective ``value`` there."""

    value: Fraction
    point: tuple[Fraction, ...]


@dataclass(slots=True)
class _Tableau:
    """Rows ``[coefficients..., right-hand side]`` of the constraints and the basic column of each."""

    rows: list[list[Fraction]]
    basis: list[int]

    def pivot(self, row: int, column: int) -> None:
        """Make ``column`` basic in ``row`` (Gauss-Jordan elimination)."""
        pivot_row = self.rows[row]
        p = pivot_row[column]
        pivot_row[:] = [v / p for v in pivot_row]
        for i, other in enumerate(self.rows):
            factor = other[column]
            if i != row and factor:
                other[:] = [v - factor * w for v, w in zip(other, pivot_row, strict=True)]
        self.basis[row] = column

    def reduced_costs(self, objective: Sequence[Fraction]) -> list[Fraction]:
        """``objective`` less its basic part, one value per column (the right-hand side excluded)."""
        costs = list(objective)
        for row, b in zip(self.rows, self.basis, strict=True):
            weight = objective[b]
            if weight:
                costs = [c - weight * v for c, v in zip(costs, row, strict=False)]
        return costs

    def optimise(self, objective: Sequence[Fraction], allowed: int) -> None:
        """Pivot until no column below ``allowed`` improves ``objective`` (Bland's rule)."""
        while True:
            costs = self.reduced_costs(objective)
            entering = next((j for j in range(allowed) if costs[j] > 0), None)
            if entering is None:
                return
            leaving = self._ratio_test(entering)
            if leaving is None:
                raise LPError("the objective is unbounded")
            self.pivot(leaving, entering)

    def _ratio_test(self, column: int) -> int | None:
        """The leaving row: the least ratio, ties to the least basic column (Bland's rule)."""
        ratios = [(row[-1] / row[column], self.basis[i], i) for i, row in enumerate(self.rows) if row[column] > 0]
        return min(ratios)[2] if ratios else None

    def values(self, count: int) -> list[Fraction]:
        """The values of the first ``count`` columns at the current basic solution."""
        out = [Fraction(0)] * count
        for row, b in zip(self.rows, self.basis, strict=True):
            if b < count:
                out[b] = row[-1]
        return out


def maximize(c: Sequence[Number], a: Sequence[Sequence[Number]], b: Sequence[Number]) -> LPSolution:
    """The maximum of ``c·y`` over ``A y <= b``, ``y >= 0``, exactly; :class:`LPError` if there is none."""
    n, m = len(c), len(a)
    artificial = n + m
    rows = [[Fraction(v) for v in a[i]] + [Fraction(int(i == j)) for j in range(m)] + [Fraction(-1), Fraction(b[i])]
            for i in range(m)]
    table = _Tableau(rows, [n + i for i in range(m)])
    if m and min(b) < 0:
        table.pivot(min(range(m), key=lambda i: (b[i], i)), artificial)
        phase_one = [Fraction(0)] * (artificial + 1)
        phase_one[artificial] = Fraction(-1)
        table.optimise(phase_one, artificial + 1)
        if table.values(artificial + 1)[artificial] != 0:
            raise LPError("no point satisfies the constraints")
        _drive_out(table, artificial)
    objective = [Fraction(v) for v in c] + [Fraction(0)] * (m + 1)
    table.optimise(objective, artificial)
    point = table.values(n)
    return LPSolution(sum((Fraction(ci) * yi for ci, yi in zip(c, point, strict=True)), Fraction(0)), tuple(point))


def single_valued(a: Sequence[Sequence[Number]], b: Sequence[Number], axes: Iterable[int]) -> bool:
    """Whether each variable of ``axes`` takes one value only over the (feasible) ``A y <= b``, ``y >= 0``."""
    n = len(a[0]) if a else 0
    for j in axes:
        unit = [int(i == j) for i in range(n)]
        if maximize(unit, a, b).value != -maximize([-u for u in unit], a, b).value:
            return False
    return True


def _drive_out(table: _Tableau, artificial: int) -> None:
    """Pivot the artificial variable (at zero) out of the basis, if it is still in it."""
    if artificial not in table.basis:
        return
    row = table.basis.index(artificial)
    column = next((j for j in range(artificial) if table.rows[row][j] != 0), None)
    if column is not None:
        table.pivot(row, column)
    else:  # a redundant constraint: the row is all zero, drop it
        del table.rows[row]
        del table.basis[row]
