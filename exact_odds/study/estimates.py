"""Estimates over dealt shoes, with the shoes as the sampling units.

The coups of one shoe are not independent (a count that favours one coup favours its neighbours);
the shoes are. So every error is computed from per-shoe totals (the ratio estimator of survey
sampling, Cochran, *Sampling Techniques*, 3rd ed., §6.3): a mean *per coup* is ``R = sum_s y_s /
sum_s n_s`` with standard error ``sqrt(sum_s (y_s - R n_s)**2 / (S (S - 1))) / mean_s(n_s)``; a mean
*per shoe* is the plain mean of ``y_s``, error ``sd(y_s) / sqrt(S)``. Intervals are ``value ± 1.96 errors``.

>>> import numpy as np
>>> shoe = np.array([0, 0, 1, 1, 1])
>>> est = ratio(np.array([1.0, 0.0, 1.0, 1.0, 0.0]), np.ones(5), shoe, 2)
>>> round(est.value, 4), est.error is not None
(0.6, True)
>>> per_shoe(np.array([1.0, 0.0, 1.0, 1.0, 0.0]), shoe, 2).value
1.5
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.core.stats import Estimate

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[Any]


def shoe_totals(values: Array, shoe: Array, shoes: int) -> Array:
    """The total of ``values`` (one per coup) in each of ``shoes`` shoes (``shoe``: each coup's)."""
    return np.bincount(shoe, weights=np.asarray(values, dtype=np.float64), minlength=shoes)


def ratio(values: Array, weights: Array, shoe: Array, shoes: int) -> Estimate | None:
    """``sum(values) / sum(weights)`` over every coup, e.g. a mean per coup (weights 1) or per coup bet
    (weights 1 on the coups bet); ``None`` when the weights add up to nothing."""
    return ratio_of_totals(shoe_totals(values, shoe, shoes), shoe_totals(weights, shoe, shoes), shoes)


def ratio_of_totals(y: Array, n: Array, shoes: int) -> Estimate | None:
    """``sum(y) / sum(n)`` of per-shoe totals ``y`` and ``n``; ``None`` when ``n`` adds up to nothing."""
    total = math.fsum(n)
    if total <= 0:
        return None
    value = math.fsum(y) / total
    if shoes < 2:
        return Estimate(value, None)
    resid = y - value * n
    return Estimate(value, math.sqrt(math.fsum(resid * resid) / (shoes * (shoes - 1))) / (total / shoes))


def per_coup(values: Array, shoe: Array, shoes: int) -> Estimate:
    """The mean of ``values`` per coup dealt (a study deals at least one coup)."""
    est = ratio(values, np.ones(len(values)), shoe, shoes)
    assert est is not None
    return est


def per_shoe(values: Array, shoe: Array, shoes: int) -> Estimate:
    """The mean over shoes of the per-shoe total of ``values`` (e.g. units won per shoe)."""
    return mean(shoe_totals(values, shoe, shoes))


def mean(samples: Array) -> Estimate:
    """The mean of independent samples and its standard error."""
    x = np.asarray(samples, dtype=np.float64)
    value = math.fsum(x) / len(x)
    if len(x) < 2:
        return Estimate(value, None)
    dev = x - value
    return Estimate(value, math.sqrt(math.fsum(dev * dev) / (len(x) - 1) / len(x)))
