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


class Span:
    """The span of the vectors added, as rational echelon rows, each with its combination of the members."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.members: list[list[Fraction]] = []
        self._rows: list[tuple[int, list[Fraction], list[Fraction]]] = []  # pivot, row, combination

    def _reduce(self, vector: Vector) -> tuple[list[Fraction], list[Fraction]]:
        """The vector less its projection on the rows (zero iff in the span), and the combination removed."""
        v = [Fraction(x) for x in vector]
        combo = [Fraction(0)] * len(self.members)
        for pivot, row, coeffs in self._rows:
            if v[pivot]:
                factor = v[pivot] / row[pivot]
                v = [a - factor * b if b else a for a, b in zip(v, row, strict=True)]
                combo = [c + factor * d for c, d in zip(combo, coeffs, strict=True)]
        return v, combo

    def contains(self, vector: Vector) -> bool:
        """Whether ``vector`` is in the span."""
        return not any(self._reduce(vector)[0])

    def add(self, vector: Vector) -> bool:
        """Add ``vector`` as a member if it is not in the span yet; whether it was added."""
        row, combo = self._reduce(vector)
        pivot = next((i for i, x in enumerate(row) if x), None)
        if pivot is None:
            return False
        self.members.append([Fraction(x) for x in vector])
        for _, _, coeffs in self._rows:
            coeffs.append(Fraction(0))
        self._rows.append((pivot, row, [-c for c in combo] + [Fraction(1)]))
        return True

    def solve(self, vector: Vector) -> list[Fraction] | None:
        """Coefficients of the members that add up to ``vector``, or None if it is not in the span."""
        rest, combo = self._reduce(vector)
        return None if any(rest) else combo


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
        trial._rows = [(pivot, row, []) for pivot, row, _ in span._rows]
        missing = [e for e in events if not trial.contains(vector) and trial.add(e)]
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
