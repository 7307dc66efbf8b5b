"""Estimates over dealt shoes, the shoes as the sampling units (:mod:`exact_odds.study.estimates`), by hand."""

from __future__ import annotations

import numpy as np
import pytest

from exact_odds.core.stats import Estimate
from exact_odds.study.estimates import mean, per_shoe, ratio


def test_estimates_by_hand() -> None:
    shoe = np.array([0, 0, 1, 1, 2])
    values = np.array([1.0, 1.0, 0.0, 1.0, 2.0])
    per_coup = ratio(values, np.ones(5), shoe, 3)
    assert per_coup is not None and per_coup.value == 1.0
    # per-shoe totals 2, 1, 2 over 2, 2, 1 coups: residuals 0, -1, 1
    assert per_coup.error == pytest.approx(((0 + 1 + 1) / (3 * 2)) ** 0.5 / (5 / 3))
    assert per_shoe(values, shoe, 3).value == pytest.approx(5 / 3)
    assert mean(np.array([1.0, 3.0])) == Estimate(2.0, 1.0)
    assert ratio(values, np.zeros(5), shoe, 3) is None
    assert Estimate(1.0, None).interval is None and Estimate(1.0, None).covers(1.05, slack=0.1)
    assert Estimate(0.5, 0.01).covers(0.519) and not Estimate(0.5, 0.01).covers(0.52)
