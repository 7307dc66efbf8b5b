"""The study's sums of many floats (:func:`exact_odds.core.stats.exact_sum`) are math.fsum's, bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from exact_odds.core.stats import SUM_CHUNK, exact_parts, exact_sum, sum_exact_parts

FLOATS = st.floats(allow_nan=False, allow_infinity=False, min_value=-1e300, max_value=1e300)


def same(a: float, b: float) -> bool:
    """Equal, and of the same sign (a zero's too)."""
    return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)


@given(st.lists(FLOATS, max_size=60))
@example([0.1] * 10)
@example([1.0, 1e100, 1.0, -1e100])
@example([5e-324, -5e-324, 5e-324, 1.5])
@example([-0.0])
@example([])
def test_the_sum_is_fsums(values: list[float]) -> None:
    assert same(exact_sum(np.array(values, dtype=np.float64)), math.fsum(values))


@pytest.mark.parametrize("spread", [1.0, 40.0, 700.0])
def test_large_arrays_of_edges_and_of_wide_range(spread: float) -> None:
    rng = np.random.default_rng(7)
    values = rng.standard_normal(200_000) * np.exp(rng.uniform(-spread, 0.0, 200_000))
    assert same(exact_sum(values), math.fsum(values))
    assert same(exact_sum(values[values > 0]), math.fsum(values[values > 0]))


def test_not_finite_values_and_chunks() -> None:
    assert math.isnan(exact_sum(np.array([1.0, math.nan])))
    assert exact_sum(np.array([math.inf, 1.0])) == math.inf
    values = np.full(SUM_CHUNK + 3, 0.1)
    assert same(exact_sum(values), math.fsum(values))


@given(st.lists(st.lists(FLOATS, max_size=20), max_size=6))
@example([[0.1] * 10, [0.2] * 7])
@example([[1e-310, 1.0], [-1.0]])
@example([[1.0, 1e100], [1.0, -1e100]])
def test_parts_of_pieces_add_to_the_sum_of_the_whole(pieces: list[list[float]]) -> None:
    """The exact parts of separate pieces, added, give the whole's sum (a zero aside, whose sign the
    caller takes from the values)."""
    whole = [x for piece in pieces for x in piece]
    found = sum_exact_parts([exact_parts(np.array(p, dtype=np.float64)) for p in pieces])
    assert found == math.fsum(whole)
    assert found == 0 or same(found, exact_sum(np.array(whole, dtype=np.float64)))


def test_parts_are_few_and_exact() -> None:
    values = np.random.default_rng(3).normal(-0.01, 0.01, 100_000)
    parts = exact_parts(values)
    assert 0 < len(parts) < 200 and np.all(parts != 0)
    assert same(sum_exact_parts([parts[::2], parts[1::2]]), math.fsum(values))
