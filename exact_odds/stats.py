"""Small statistics for comparing simulated counts with exact expectations (floats by design).

Simulation is a witness: these functions turn observed counts and exact expectations into
test statistics and tail probabilities. They work in floating point because they describe
random samples, not exact odds; nothing here feeds back into an exact result.

- :func:`chi_square_logsf` / :func:`chi_square_sf`: the upper tail of the chi-square
  distribution, ``Q(df/2, x/2)`` (the regularised upper incomplete gamma function),
  evaluated by the power series or the Lentz continued fraction of Numerical Recipes
  (Press et al., *Numerical Recipes*, 3rd ed., section 6.2). The logarithm is returned
  too, so that a p-value far below the smallest float (``1e-308``) can still be stated.
- :func:`normal_quantile`: ``statistics.NormalDist`` (the standard library).

>>> round(chi_square_sf(3.841458820694124, 1), 6)
0.05
>>> chi_square_sf(10.0, 2) == math.exp(-5.0)
True
"""

from __future__ import annotations

import math
from statistics import NormalDist

_EPS = 1e-16
_TINY = 1e-300
_MAX_ITERATIONS = 100_000


def _log_lower_series(a: float, x: float) -> float:
    """log P(a, x) by the series x^a e^-x / Gamma(a+1) * sum x^n / ((a+1)...(a+n))."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITERATIONS):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return math.log(total) - x + a * math.log(x) - math.lgamma(a)


def _log_upper_fraction(a: float, x: float) -> float:
    """log Q(a, x) by the modified Lentz continued fraction (valid for x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITERATIONS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.log(h) - x + a * math.log(x) - math.lgamma(a)


def chi_square_logsf(x: float, df: int) -> float:
    """Natural logarithm of P(X >= x) for X chi-square with ``df`` degrees of freedom."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, got {df}")
    if x <= 0.0:
        return 0.0
    a, half = df / 2.0, x / 2.0
    if half < a + 1.0:
        return math.log1p(-math.exp(_log_lower_series(a, half)))
    return _log_upper_fraction(a, half)


def chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom (0.0 when it underflows)."""
    return math.exp(chi_square_logsf(x, df))


def normal_quantile(p: float) -> float:
    """The standard normal quantile: ``normal_quantile(0.975)`` is about 1.959964."""
    return NormalDist().inv_cdf(p)


def normal_two_sided_p(z: float) -> float:
    """P(|Z| >= |z|) for a standard normal Z."""
    return math.erfc(abs(z) / math.sqrt(2.0))


def p_value_text(log_p: float) -> str:
    """A p-value to three significant digits from its natural logarithm, even below 1e-308."""
    if log_p > math.log(1e-4):
        return f"{math.exp(log_p):.3g}" if log_p < 0 else "1"
    log10 = log_p / math.log(10)
    exponent = math.floor(log10)
    mantissa = 10 ** (log10 - exponent)
    if round(mantissa, 2) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.2f}e{exponent}"
