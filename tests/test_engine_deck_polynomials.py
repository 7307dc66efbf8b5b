"""Integer polynomials in d: the factorisation over the sequences' factors against SymPy's."""

from __future__ import annotations

import random

from sympy.polys.domains import ZZ
from sympy.polys.factortools import dup_factor_list

from exact_odds.engine.deck_polynomials import factor_over, factor_polynomial, irreducible, sequence_factors

CONTENT, LINEAR = sequence_factors(52)


def _times(f: list[int], g: list[int]) -> list[int]:
    out = [0] * (len(f) + len(g) - 1)
    for i, a in enumerate(f):
        for j, b in enumerate(g):
            out[i + j] += a * b
    return out


def _sympys(poly: list[int]) -> tuple[int, list[tuple[tuple[int, ...], int]]]:
    content, factors = dup_factor_list([ZZ(c) for c in poly], ZZ)
    return int(content), sorted((tuple(int(c) for c in f), int(k)) for f, k in factors)


def test_factors_are_sympys() -> None:
    """Whenever the sequences' factors and an irreducibility proof suffice, the factors are SymPy's;
    otherwise SymPy is asked; products of other factors are never declared irreducible."""
    rng = random.Random(3)
    answered = 0
    for _ in range(2000):
        poly = [rng.choice([-1, 1]) * rng.randint(1, 10**rng.randint(0, 6))]
        pool = [list(f) for f in LINEAR for _ in range(2)]
        pool += [[rng.randint(1, 9), rng.randint(-9, 9)] for _ in range(2)]
        pool += [[rng.randint(1, 50), *(rng.randint(-99, 99) for _ in range(rng.randint(2, 5)))] for _ in range(2)]
        for factor in rng.sample(pool, rng.randint(1, 5)):
            if len(poly) + len(factor) <= 8:
                poly = _times(poly, factor)
        if len(poly) < 2:
            continue
        found = factor_over(poly, LINEAR)
        if found is not None:
            answered += 1
            assert (found[0], sorted(found[1])) == _sympys(poly), poly
        content, factors = factor_polynomial(poly, LINEAR)
        assert (content, sorted(factors)) == _sympys(poly), poly
    assert answered > 1000


def test_a_product_is_never_proved_irreducible() -> None:
    rng = random.Random(4)
    for _ in range(1000):
        f = [rng.randint(1, 20), *(rng.randint(-20, 20) for _ in range(rng.randint(1, 3)))]
        g = [rng.randint(1, 20), *(rng.randint(-20, 20) for _ in range(rng.randint(1, 3)))]
        assert not irreducible(_times(f, g)), (f, g)
    assert irreducible([1, 0, 1]) and irreducible([35403904, -10106280, 1069054, -50280, 917])
    assert not irreducible([1, 0, 0, 0, 1])  # d**4 + 1 splits mod every prime, so it is not proved

