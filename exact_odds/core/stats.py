"""Statistics shared by the simulators: a simulated figure with its interval, the chi-square tail probability.

Floats are fine here: these figures judge simulations, they are never exact results.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import ArrayLike, NDArray

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


@dataclass(frozen=True, slots=True)
class Estimate:
    """A simulated figure, its standard error (``None`` when one sample gives no spread), the ``exact``
    value beside it if known, and its 95% interval: ``bounds`` if given (Wilson's for a chance), else
    ``value ± 1.96 error``.

    >>> Estimate(0.5, 0.01).covers(0.519), Estimate(0.5, 0.01).covers(0.52), Estimate(1.0, None).interval
    (True, False, None)
    """

    value: float
    error: float | None
    exact: Fraction | None = None
    bounds: tuple[float, float] | None = None

    @property
    def interval(self) -> tuple[float, float] | None:
        """The 95% confidence interval (``None`` without an error)."""
        return self.bounds or self.interval_at(Z95)

    def interval_at(self, z: float) -> tuple[float, float] | None:
        """The interval ``value ± z error`` (``None`` without an error)."""
        if self.error is None:
            return None
        return self.value - z * self.error, self.value + z * self.error

    def covers(self, x: float, *, slack: float = 0.0, z: float = Z95) -> bool:
        """Whether ``x`` lies in ``value ± z error`` widened by ``slack`` on each side (e.g. the rounding of a
        published figure); without an error, whether it is within ``slack`` of the value."""
        low, high = self.interval_at(z) or (self.value, self.value)
        return low - slack <= x <= high + slack


def _log_gamma_prefactor(a: float, z: float) -> float:
    return math.exp(-z + a * math.log(z) - math.lgamma(a))


def _gamma_p_series(a: float, z: float) -> float:
    """Regularized lower incomplete gamma P(a, z) by its power series (for z < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(10_000):
        ap += 1.0
        term *= z / ap
        total += term
        if abs(term) < abs(total) * 1e-17:
            break
    return total * _log_gamma_prefactor(a, z)


def _gamma_q_fraction(a: float, z: float) -> float:
    """Regularized upper incomplete gamma Q(a, z) by its continued fraction (modified Lentz; z >= a + 1)."""
    tiny = 1e-300
    b = z + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h * _log_gamma_prefactor(a, z)


def chi_square_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom: Q(df/2, statistic/2), by series or
    continued fraction (Numerical Recipes, 3rd ed., section 6.2), to about 1e-14.

    >>> round(chi_square_sf(3.841458820694124, 1), 6)
    0.05
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if statistic <= 0:
        return 1.0
    a, z = df / 2.0, statistic / 2.0
    if z < a + 1.0:
        return max(0.0, 1.0 - _gamma_p_series(a, z))
    return _gamma_q_fraction(a, z)


SUM_CHUNK = 1 << 24
"""Values :func:`exact_sum` adds per pass, so that sums of 26-bit halves stay exact (2**24 * 2**26 < 2**53)."""
SPLIT = 2.0**27 + 1
"""Veltkamp's constant: ``x * SPLIT`` splits a float into two halves of 26 bits (Dekker, 1971)."""
SPLIT_RANGE = (2.0**-969, 2.0**996)
"""Magnitudes the split is exact for (no underflow, no overflow)."""


def exact_sum(values: ArrayLike) -> float:
    """The sum of floats rounded once, bit for bit as :func:`math.fsum` gives it, several times faster.

    Each float is split into 26-bit halves (Veltkamp), halves of one binary exponent add exactly, and
    ``math.fsum`` rounds these few exact partial sums once. Floats outside :data:`SPLIT_RANGE` or not
    finite, and an exact total of zero, are left to ``math.fsum``.

    >>> exact_sum([0.1] * 10), sum([0.1] * 10)
    (1.0, 0.9999999999999999)
    """
    import numpy as np

    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    total = sum_exact_parts([exact_parts(flat)])
    return total if total else math.fsum(flat)


def exact_parts(values: ArrayLike) -> NDArray[np.float64]:
    """A few nonzero floats whose exact sum is the sum of ``values``; :func:`sum_exact_parts` of the parts of
    several arrays is :func:`exact_sum` of them joined (but an exact zero is ``0.0``, whatever its sign)."""
    import numpy as np

    flat: NDArray[np.float64] = np.ascontiguousarray(values, dtype=np.float64).ravel()
    size = np.abs(flat)
    size = size[size != 0]
    if len(size) and (size.min() < SPLIT_RANGE[0] or not size.max() < SPLIT_RANGE[1]):  # NaN fails too
        return np.asarray(flat[flat != 0], dtype=np.float64)
    chunks = (_exact_parts(flat[i:i + SUM_CHUNK]) for i in range(0, len(flat), SUM_CHUNK))
    parts: NDArray[np.float64] = np.concatenate([np.zeros(0), *chunks])
    return np.asarray(parts[parts != 0], dtype=np.float64)


def sum_exact_parts(parts: Iterable[NDArray[np.float64]]) -> float:
    """The exact sum of all the parts (:func:`exact_parts`) rounded once: ``math.fsum``."""
    return math.fsum(x for p in parts for x in p.tolist())


def _exact_parts(chunk: NDArray[np.float64]) -> NDArray[np.float64]:
    import numpy as np

    exponents = ((chunk.view(np.int64) >> 52) & 0x7FF).astype(np.intp)  # the binary exponent, biased
    scaled = chunk * SPLIT
    high = scaled - (scaled - chunk)  # 26 significant bits, a multiple of the exponent's 2**-26
    low = chunk - high  # exactly: a multiple of the chunk's lowest bit
    return np.concatenate([np.bincount(exponents, weights=high), np.bincount(exponents, weights=low)])
