"""Few functionals for many bets: non-negative weights whose span holds every bet's numerator.

Many bets pay on the same events (banker wins, ties of each total...), so their numerators ``sum
over coups of payout * ways`` are exact rational combinations of a few *functionals* (integer
weights on classes of coups, most of them 0/1 events) and of the total number of sequences.

>>> span = Span(3)
>>> span.add([1, 0, 0]), span.add([0, 1, 1])
(True, True)
>>> span.solve([2, 3, 3])
[Fraction(2, 1), Fraction(3, 1)]
>>> span.add([4, 1, 1]), span.solve([0, 0, 1]) is None
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

Vector = Sequence[Fraction | int]


def _integers(vector: Vector) -> list[int]:
    """The vector scaled to integers (membership depends on its direction alone)."""
    if all(isinstance(x, int) for x in vector):
        return list(vector)  # type: ignore[arg-type]
    scale = math.lcm(*(Fraction(x).denominator for x in vector))
    return [int(Fraction(x) * scale) for x in vector]


class Span:
    """The span of the vectors added: integer echelon rows for membership, and rational rows with
    their combination of the members for :meth:`solve`."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.members: list[list[Fraction]] = []
        self._echelon: list[tuple[int, list[int]]] = []  # pivot, primitive integer row
        self._rows: list[tuple[int, list[Fraction], list[Fraction]]] = []  # pivot, row, combination

    def _rest(self, vector: Vector) -> list[int]:
        """The integer vector less multiples of the echelon rows (zero iff in the span)."""
        v = _integers(vector)
        for pivot, row in self._echelon:
            if v[pivot]:
                a, b = row[pivot], v[pivot]
                v = [a * x - b * y for x, y in zip(v, row, strict=True)]
                common = math.gcd(*v)
                if common > 1:
                    v = [x // common for x in v]
        return v

    def contains(self, vector: Vector) -> bool:
        """Whether ``vector`` is in the span."""
        return not any(self._rest(vector))

    def _reduce(self, vector: Vector) -> tuple[list[Fraction], list[Fraction]]:
        """The vector less its projection on the rational rows, and the combination removed."""
        v = [Fraction(x) for x in vector]
        combo = [Fraction(0)] * len(self.members)
        for pivot, row, coeffs in self._rows:
            if v[pivot]:
                factor = v[pivot] / row[pivot]
                v = [a - factor * b if b else a for a, b in zip(v, row, strict=True)]
                combo = [c + factor * d for c, d in zip(combo, coeffs, strict=True)]
        return v, combo

    def _add_echelon(self, vector: Vector) -> bool:
        """Extend the integer rows only; whether ``vector`` was outside the span."""
        rest = self._rest(vector)
        pivot = next((i for i, x in enumerate(rest) if x), None)
        if pivot is not None:
            self._echelon.append((pivot, rest))
        return pivot is not None

    def add(self, vector: Vector) -> bool:
        """Add ``vector`` as a member if it is not in the span yet; whether it was added."""
        if not self._add_echelon(vector):
            return False
        row, combo = self._reduce(vector)
        self.members.append([Fraction(x) for x in vector])
        for _, _, coeffs in self._rows:
            coeffs.append(Fraction(0))
        self._rows.append((next(i for i, x in enumerate(row) if x), row, [-c for c in combo] + [Fraction(1)]))
        return True

    def solve(self, vector: Vector) -> list[Fraction] | None:
        """Coefficients of the members that add up to ``vector``, or None if it is not in the span."""
        if not self.contains(vector):
            return None
        rest, combo = self._reduce(vector)
        if any(rest):
            raise AssertionError("inconsistent span")
        return combo


def integer_weights(vector: Vector) -> list[int]:
    """The vector shifted to a least entry of 0 and scaled to coprime non-negative integers."""
    low = min(Fraction(x) for x in vector)
    shifted = [Fraction(x) - low for x in vector]
    scale = math.lcm(*(x.denominator for x in shifted))
    ints = [int(x * scale) for x in shifted]
    common = math.gcd(*ints) or 1
    return [x // common for x in ints]


def choose_functionals(vectors: Sequence[Vector], start: Sequence[Vector], total: Vector, *,
                       shift: bool) -> list[list[int]]:
    """Non-negative integer functionals whose span, with ``total``, holds every vector.

    ``start`` are evaluated in any case. A vector not yet in the span adds the events (0/1) of its
    values, rarest first, until it is in; if that takes more than one and ``shift`` (every class
    counted by ``total``), the vector itself shifted to non-negative integers instead.
    """
    span = Span(len(total))
    chosen: list[list[int]] = []
    for v in start:
        span.add(v)
        chosen.append([int(x) for x in v])
    span.add(total)
    for vector in vectors:
        if span.contains(vector):
            continue
        levels = sorted({Fraction(x) for x in vector} - {Fraction(0)})
        events = sorted(([int(Fraction(x) == level) for x in vector] for level in levels), key=sum)
        trial = Span(span.size)
        trial._echelon = list(span._echelon)
        missing = [e for e in events if not trial.contains(vector) and trial._add_echelon(e)]
        if len(missing) > 1 and shift:
            missing = [integer_weights(vector)]
        for e in missing:
            span.add(e)
            chosen.append(e)
    return chosen


def combinations(functionals: Sequence[Vector], total: Vector, vectors: Sequence[Vector]) -> list[list[Fraction]]:
    """Each vector as exact coefficients of the functionals and, last, of ``total``."""
    span = Span(len(total))
    for f in functionals:
        if not span.add(f):
            raise ValueError("functionals must be independent")
    with_total = span.add(total)
    solved: dict[tuple[Fraction | int, ...], list[Fraction]] = {}
    for vector in map(tuple, vectors):
        if vector not in solved:
            combo = span.solve(vector)
            if combo is None:
                raise ValueError("a vector outside the span of the functionals")
            solved[vector] = combo if with_total else [*combo, Fraction(0)]
    return [list(solved[tuple(vector)]) for vector in vectors]
