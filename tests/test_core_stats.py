"""The chi-square tail against closed forms, a recurrence and (when installed) scipy."""

from __future__ import annotations

import math

import pytest

from exact_odds.core.stats import chi_square_sf


@pytest.mark.parametrize("x", [0.001, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0, 700.0])
@pytest.mark.parametrize("df", [1, 2, 3, 4, 7, 10, 25])
def test_chi_square_sf_closed_forms(x: float, df: int) -> None:
    if df % 2 == 0:  # Q(k, z) = e^-z * sum_{i<k} z^i / i!
        z, k = x / 2, df // 2
        exact = math.exp(-z) * sum(z**i / math.factorial(i) for i in range(k))
        assert chi_square_sf(x, df) == pytest.approx(exact, rel=1e-12, abs=1e-300)
    elif df == 1:
        assert chi_square_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-12, abs=1e-300)
    else:  # Q(a + 1, z) = Q(a, z) + z^a e^-z / Gamma(a + 1)
        z, a = x / 2, (df - 2) / 2
        step = math.exp(a * math.log(z) - z - math.lgamma(a + 1))
        assert chi_square_sf(x, df) == pytest.approx(chi_square_sf(x, df - 2) + step, rel=1e-12, abs=1e-300)


def test_chi_square_sf_against_scipy_if_installed() -> None:
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2, 5, 19, 60):
        for x in (0.01, 1.0, 4.5, 19.0, 40.0, 150.0):
            assert chi_square_sf(x, df) == pytest.approx(float(stats.chi2.sf(x, df)), rel=1e-11, abs=1e-300)


def test_chi_square_sf_edges() -> None:
    assert chi_square_sf(0.0, 3) == 1.0 and chi_square_sf(-1.0, 3) == 1.0
    assert round(chi_square_sf(3.841458820694124, 1), 9) == 0.05
    with pytest.raises(ValueError):
        chi_square_sf(1.0, 0)
