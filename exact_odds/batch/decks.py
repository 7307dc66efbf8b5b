"""Ways as exact polynomials in the number of decks, straight from the coefficient tables.

In a shoe of ``d`` 52-card decks every rank has ``4d`` cards (the point class 0 pools four
ranks: ``16d``), so each falling factorial ``falling(n_k, m)`` of a monomial is a polynomial in
``d`` with integer coefficients, each monomial is a product of them (degree 6), and the ways of
any functional, ``sum_S weight_S * monomial_S``, is an exact integer polynomial of degree at
most 6: no fitting.

>>> from exact_odds.core.tableau import STANDARD_TABLEAU
>>> import numpy as np
>>> every = np.ones((12_800, 1), dtype=np.int64)
>>> ways_in_decks(STANDARD_TABLEAU, Detail.POINTS, every)  # 52d (52d-1) ... (52d-5), lowest power first
[[0, -6240, 740896, -31636800, 621487360, -5703060480, 19770609664]]
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.coefficients import coefficients
from exact_odds.batch.kinds import TYPES, space_of
from exact_odds.batch.monomials import monomial_sums
from exact_odds.core.coup import COUP_CODES, Detail
from exact_odds.core.shoe import CARDS_PER_COUP, RANKS
from exact_odds.core.tableau import Tableau
from exact_odds.engine.deck_polynomials import falling_in_decks

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]
    Array = npt.NDArray[Any]


def cards_per_deck(detail: Detail) -> tuple[int, ...]:
    """Cards of each kind in one deck: 16 zeros and 4 of each other point, or 4 of each rank."""
    if detail is Detail.SUITS:
        raise ValueError("closed forms from the tables cover points and ranks, not suits")
    if detail is Detail.POINTS:
        return tuple(4 * sum(1 for r in RANKS if r.point == p) for p in range(10))
    return (4,) * len(RANKS)


def falling_polynomial(a: int, m: int) -> list[int]:
    """Coefficients (lowest power first, 7 of them) of ``(a d)(a d - 1) ... (a d - m + 1)``
    (:func:`~exact_odds.engine.deck_polynomials.falling_in_decks`, padded)."""
    return [*falling_in_decks(a, m), *[0] * (CARDS_PER_COUP - m)]


def ways_in_decks(tableau: Tableau, detail: Detail, weights: IntArray) -> list[list[int]]:
    """Each functional's ways (``weights[code, f]``, integers) on a d-deck shoe: 7 coefficients,
    lowest power of ``d`` first."""
    _, summed = monomial_sums(coefficients(tableau, detail), weights)
    polys = _monomial_polynomials(tableau, detail)
    return [list(row) for row in (summed.T.astype(object) @ polys).tolist()]


@lru_cache(maxsize=4)
def _monomial_polynomials(tableau: Tableau, detail: Detail) -> Array:
    """Every monomial of the table (in :func:`~exact_odds.batch.monomials.monomial_sums` order) as a
    polynomial in d: (monomials, 7) Python integers, lowest power first."""
    per_deck = cards_per_deck(detail)
    digits, _ = monomial_sums(coefficients(tableau, detail), np.zeros((COUP_CODES, 0), dtype=np.int64))
    multiplicity = digits // TYPES
    assert space_of(detail).kinds == len(per_deck)
    # Coefficients stay below 21**6 in absolute value (the product of (a + j) over six factors),
    # so int64 holds every monomial's polynomial; weighted sums are taken in Python integers.
    size = CARDS_PER_COUP + 1
    polys = np.zeros((len(digits), size), dtype=np.int64)
    polys[:, 0] = 1
    for k, a in enumerate(per_deck):
        table = np.array([falling_polynomial(a, m) for m in range(size)], dtype=np.int64)[multiplicity[:, k]]
        polys = np.stack([sum(polys[:, j] * table[:, i - j] for j in range(i + 1)) for i in range(size)], axis=1)
    return polys.astype(object)
