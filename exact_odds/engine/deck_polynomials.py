"""Integer polynomials in the number of decks d: interpolation, evaluation, the sequences' factors.

A polynomial is a tuple of its coefficients, lowest power of d first. In d 52-card decks the ways of
any coup outcome are a polynomial of degree at most 6 with integer coefficients, over ``52d (52d-1)
... (52d-5)`` sequences (:func:`falling_in_decks`). Everything here is exact.

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
from dataclasses import dataclass
from fractions import Fraction

from exact_odds.core.shoe import CARDS_PER_COUP

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
    """The polynomial of degree below ``len(points)`` through ``(d, value)`` points, exactly, as
    ``(numerators, denominator)``, the least positive denominator (Newton's divided differences)."""
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
    """``falling_in_decks(per_deck, m)`` factored over the integers: its content and its ``m`` distinct
    primitive linear factors ``a d + b`` as ``(a, b)`` (``per_deck d - j = g (per_deck/g d - j/g)``,
    ``g = gcd(per_deck, j)``)."""
    content, factors = 1, []
    for j in range(m):
        g = math.gcd(per_deck, j)
        content *= g
        factors.append((per_deck // g, -j // g))
    return content, tuple(factors)


# ---------------------------------------------------------------- factors over the integers

Factor = tuple[tuple[int, ...], int]
"""An irreducible factor over the integers (coefficients highest power first: primitive, leading
coefficient positive) and its exponent."""

PRIMES = (3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47)
"""The primes tried for a proof that a polynomial is irreducible."""


def _divide_linear(poly: list[int], a: int, b: int) -> list[int] | None:
    """``poly / (a d + b)`` if it divides exactly (highest power first; Gauss's lemma), else ``None``."""
    quotient, carry = [], 0
    for c in poly[:-1]:
        if (c - carry) % a:
            return None
        quotient.append((c - carry) // a)
        carry = quotient[-1] * b
    return quotient if poly[-1] == carry else None


def _reduced(f: Sequence[int], p: int) -> list[int]:  # mod p, leading zeros dropped (highest power first)
    out = [c % p for c in f]
    while out and out[0] == 0:
        out.pop(0)
    return out


def _remainder(f: Sequence[int], g: Sequence[int], p: int) -> list[int]:  # f mod g, mod p (g monic)
    out = _reduced(f, p)
    while len(out) >= len(g):
        lead, width = out[0], len(out) - len(g)
        out = _reduced([c - lead * h for c, h in zip(out[1:], [*g[1:], *[0] * width], strict=True)], p)
    return out


def _monic(f: Sequence[int], p: int) -> list[int]:  # f mod p over its leading coefficient
    inverse = pow(f[0], -1, p)
    return _reduced([c * inverse for c in f], p)


def _coprime(f: list[int], g: list[int], p: int) -> bool:  # mod p (f monic, g reduced), by Euclid
    while g:
        f, g = g, _remainder(f, _monic(g, p), p)
    return len(f) == 1


def _times(f: Sequence[int], g: Sequence[int], m: Sequence[int], p: int) -> list[int]:  # f g mod m, mod p
    product = [0] * (len(f) + len(g) - 1)
    for i, a in enumerate(f):
        for j, b in enumerate(g):
            product[i + j] += a * b
    return _remainder(product, m, p)


def irreducible(poly: Sequence[int]) -> bool:
    """Whether ``poly`` (primitive, degree ``n >= 2``, highest power first) is proved irreducible: mod a
    prime of :data:`PRIMES` it has no factor of degree ``k <= n/2`` (``d**(p**k) - d`` and it coprime)."""
    for p in PRIMES:
        if poly[0] % p == 0:
            continue
        m, power = _monic(poly, p), [1, 0]  # power: d**(p**k) mod m
        for _ in range((len(poly) - 1) // 2):
            result, base, e = [1], power, p
            while e:
                if e & 1:
                    result = _times(result, base, m, p)
                base, e = _times(base, base, m, p), e >> 1
            power = result
            low = [*power[::-1], 0, 0]  # power - d, lowest power first
            low[1] -= 1
            difference = _reduced(low[::-1], p)
            if not _coprime(m, difference, p):
                break
        else:
            return True
    return False


def factor_over(poly: Sequence[int], linear: Sequence[tuple[int, int]]) -> tuple[int, list[Factor]] | None:
    """``poly`` (highest power first, not zero) as its content (signed as its lead) and irreducible factors,
    when every factor is one of ``linear`` or the one left is proved irreducible; else ``None``."""
    content = math.gcd(*poly) * (1 if poly[0] > 0 else -1)
    rest = [c // content for c in poly]
    factors: list[Factor] = []
    for a, b in linear:
        k = 0
        while len(rest) > 1 and (quotient := _divide_linear(rest, a, b)) is not None:
            rest, k = quotient, k + 1
        if k:
            factors.append(((a, b), k))
    if len(rest) > 1:
        if len(rest) > 2 and not irreducible(rest):
            return None
        factors.append((tuple(rest), 1))
    return content, factors


def factor_polynomial(poly: Sequence[int], linear: Sequence[tuple[int, int]]) -> tuple[int, list[Factor]]:
    """``poly`` as its content and irreducible factors, as SymPy's ``dup_factor_list`` gives them: by
    :func:`factor_over` when it can tell, else by SymPy."""
    found = factor_over(poly, linear)
    if found is not None:
        return found
    from sympy.polys.domains import ZZ
    from sympy.polys.factortools import dup_factor_list

    content, factors = dup_factor_list([ZZ(c) for c in poly], ZZ)
    return int(content), [(tuple(int(c) for c in f), int(k)) for f, k in factors]


@dataclass(frozen=True, slots=True)
class Factored:
    """A rational function of d in lowest terms: ``number`` times each irreducible factor to its
    exponent (negative in the denominator); zero is ``Factored(Fraction(0), ())``."""

    number: Fraction
    factors: tuple[Factor, ...]


def over_sequences(numerator: Sequence[int], scale: int = 1, per_deck: int = 52) -> Factored:
    """``numerator / (scale * falling_in_decks(per_deck))`` (lowest power first) in lowest terms,
    factored as ``sympy.factor`` does it: the common factors cancel.

    >>> over_sequences([0, 2]).factors[:2], over_sequences([0, 2]).number
    ((((52, -1), -1), ((26, -1), -1)), Fraction(1, 208))
    """
    top = list(reversed(numerator[:degree(numerator) + 1]))
    if not top:
        return Factored(Fraction(0), ())
    denominator, linear = sequence_factors(per_deck, CARDS_PER_COUP)
    content, factors = factor_polynomial(top, linear)
    exponents: dict[tuple[int, ...], int] = {}
    for factor, k in factors:
        exponents[factor] = exponents.get(factor, 0) + k
    for factor in linear:
        exponents[factor] = exponents.get(factor, 0) - 1
    return Factored(Fraction(content, denominator * scale), tuple((f, k) for f, k in exponents.items() if k))
