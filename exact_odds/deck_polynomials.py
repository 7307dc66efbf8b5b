"""Integer polynomials in the number of decks d: interpolation, evaluation, the sequences' factors.

A polynomial is a tuple of its coefficients, lowest power of d first. In a shoe of d 52-card
decks the ways of any coup outcome are a polynomial of degree at most 6 with integer
coefficients, and the ordered six-card sequences number ``52d (52d-1) ... (52d-5)``
(:func:`falling_in_decks`). Everything here is exact integer (or
:class:`~fractions.Fraction`) arithmetic; :mod:`exact_odds.symbolic` turns the results into
sympy expressions only for what it shows.

>>> interpolate([(d, 3 * d * d - 1) for d in range(9, 12)])
((-1, 0, 3), 1)
>>> evaluate(falling_in_decks(52), 1)  # 52 * 51 * 50 * 49 * 48 * 47
14658134400
>>> sequence_factors(52)  # 416 d (52d - 1) (26d - 1) (52d - 3) (13d - 1) (52d - 5)
(416, ((1, 0), (52, -1), (26, -1), (52, -3), (13, -1), (52, -5)))
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from exact_odds.shoe import CARDS_PER_COUP

Coefficients = tuple[int, ...]
"""A polynomial in d: its integer coefficients, lowest power first."""


def falling_in_decks(per_deck: int, m: int = CARDS_PER_COUP) -> Coefficients:
    """``(a d)(a d - 1) ... (a d - m + 1)`` for ``a = per_deck`` cards of a kind per deck."""
    out = [1]
    for j in range(m):  # times (a d - j)
        out = [a - j * b for a, b in zip([0, *(per_deck * c for c in out)], [*out, 0], strict=True)]
    return tuple(out)


def evaluate(poly: Sequence[int], d: int) -> int:
    """The value of ``poly`` at ``d`` (Horner's rule, in integers)."""
    value = 0
    for c in reversed(poly):
        value = value * d + c
    return value


def degree(poly: Sequence[int]) -> int:
    """The highest power of d with a non-zero coefficient (-1 for the zero polynomial)."""
    return max((i for i, c in enumerate(poly) if c), default=-1)


def interpolate(points: Sequence[tuple[int, int]]) -> tuple[Coefficients, int]:
    """The polynomial of degree below ``len(points)`` through ``(d, value)`` points, exactly.

    Returned as ``(numerators, denominator)``: the polynomial is ``numerators / denominator``
    with ``denominator`` positive and as small as it can be (1 when every coefficient is an
    integer). Newton's divided differences in fractions, expanded into powers of d.
    """
    xs = [x for x, _ in points]
    table = [Fraction(y) for _, y in points]
    newton = [table[0]]
    for k in range(1, len(points)):  # the k-th divided differences, in place
        table = [(table[i + 1] - table[i]) / (xs[i + k] - xs[i]) for i in range(len(table) - 1)]
        newton.append(table[0])
    poly: list[Fraction] = []
    for x, c in zip(reversed(xs), reversed(newton), strict=True):  # poly * (d - x) + c
        poly = [a - x * b for a, b in zip([Fraction(0), *poly], [*poly, Fraction(0)], strict=True)]
        poly[0] += c
    poly = poly or [Fraction(0)]
    denominator = math.lcm(*(c.denominator for c in poly))
    return tuple(int(c * denominator) for c in poly), denominator


def sequence_factors(per_deck: int, m: int = CARDS_PER_COUP) -> tuple[int, tuple[tuple[int, int], ...]]:
    """``falling_in_decks(per_deck, m)`` factored over the integers: its content and its ``m``
    distinct linear factors ``a d + b``, each as ``(a, b)`` with ``a > 0`` and ``gcd(a, b) == 1``.

    ``per_deck d - j = g (per_deck/g d - j/g)`` with ``g = gcd(per_deck, j)``; the factors are
    primitive, linear (so irreducible) and distinct (their roots ``j / per_deck`` are), which is
    the factorisation into irreducibles, unique up to order.
    """
    content, factors = 1, []
    for j in range(m):
        g = math.gcd(per_deck, j)
        content *= g
        factors.append((per_deck // g, -j // g))
    return content, tuple(factors)
