"""The terms of a coefficient table grouped by monomial, and each monomial's summed weights.

A coefficient table (:mod:`exact_odds.batch.coefficients`) holds terms ``(part A, part B, coup,
count)``: ``count`` arrangements of the six cards whose parts are A and B end in the coup. A
*monomial* is a pair of parts; a functional's weights on coup codes (non-negative integers, one
column per functional) sum over each monomial's terms to the coefficients a plan evaluates
(:mod:`exact_odds.batch.plan`). Every sum is an exact integer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from exact_odds.batch.coefficients import Coefficients

if TYPE_CHECKING:
    import numpy.typing as npt

    IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class _Monomials:
    """A table's terms grouped by monomial: ``count``/``coup`` of the terms in that order, the
    first term of each monomial (``starts``), each monomial's digits, and the table's codes."""

    table: Coefficients
    starts: IntArray
    count: IntArray
    coup: IntArray
    digits: IntArray
    codes: IntArray


_MONOMIALS: dict[int, _Monomials] = {}


def _monomials(co: Coefficients) -> _Monomials:
    """The table's terms grouped by monomial (cached per table)."""
    if id(co) not in _MONOMIALS:
        a, b, count, coup = co.a, co.b, co.count, co.coup  # the shipped tables come sorted by monomial
        mono = a * len(co.parts_b) + b
        if not (mono[1:] >= mono[:-1]).all():
            order = np.argsort(mono, kind="stable")
            a, b, count, coup, mono = a[order], b[order], count[order], coup[order], mono[order]
        starts = np.flatnonzero(np.r_[True, mono[1:] != mono[:-1]])
        digits = np.concatenate([np.array(co.parts_a, dtype=np.int64).reshape(len(co.parts_a), -1)[a[starts]],
                                 np.array(co.parts_b, dtype=np.int64).reshape(len(co.parts_b), -1)[b[starts]]],
                                axis=1)
        _MONOMIALS[id(co)] = _Monomials(co, starts, count, coup, digits, np.flatnonzero(np.bincount(co.coup)))
    return _MONOMIALS[id(co)]


def table_codes(co: Coefficients) -> IntArray:
    """The distinct coup codes of a coefficient table, sorted (cached per table)."""
    return _monomials(co).codes


_CHUNK = 1 << 21
"""The most products :func:`monomial_sums` holds at once (16 MiB of int64): memory that does not grow with the
number of functionals (edge sorting by ranks has dozens)."""


def monomial_sums(co: Coefficients, weights: IntArray) -> tuple[IntArray, IntArray]:
    """Digits of every monomial of the table (cached order) and its summed weights per functional
    (``weights[code, f]``)."""
    m = _monomials(co)
    by_class = _class_sums(m, weights)
    if by_class is not None:
        return m.digits, by_class
    step = max(1, _CHUNK // max(len(m.coup), 1))  # columns at a time: a product of ``_CHUNK`` numbers at most
    parts = [np.add.reduceat(m.count[:, None] * weights[m.coup, f:f + step], m.starts, axis=0)
             for f in range(0, max(weights.shape[1], 1), step)]
    return m.digits, np.concatenate(parts, axis=1) if len(parts) != 1 else parts[0]


def _class_sums(m: _Monomials, weights: IntArray) -> IntArray | None:
    """:func:`monomial_sums`' sums through the classes of the table's codes of equal weights: each
    monomial's count of each class, times the classes' weights. The counts are summed in floats,
    exact while the table's counts add up to less than ``2**53`` (they are arrangements, non-negative).
    None if they might not be, or the counts by class would hold more than ``_CHUNK`` numbers."""
    if not weights.shape[1] or int(m.count.sum()) >= 2**53:
        return None
    rows, inverse = np.unique(weights[m.codes], axis=0, return_inverse=True)
    cells = len(m.starts) * len(rows)
    if cells > _CHUNK:
        return None
    class_of = np.zeros(len(weights), dtype=np.int64)
    class_of[m.codes] = inverse.ravel()
    monomial = np.repeat(np.arange(len(m.starts)) * len(rows), np.diff(np.r_[m.starts, len(m.coup)]))
    counts = np.bincount(monomial + class_of[m.coup], weights=m.count, minlength=cells)
    return np.asarray(counts.astype(np.int64).reshape(len(m.starts), len(rows)) @ rows, dtype=np.int64)


def monomial_terms(co: Coefficients, weights: IntArray) -> tuple[IntArray, IntArray]:
    """Digits of each monomial of the table and its summed weights, monomials of no weight left out."""
    digits, summed = monomial_sums(co, weights)
    keep = summed.any(axis=1)
    return digits[keep], summed[keep]
