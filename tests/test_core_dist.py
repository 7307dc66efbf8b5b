"""Dist: exact probabilities and expectations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exact_odds.core.dist import Dist


def test_probability_and_expectation() -> None:
    die = Dist({i: 1 for i in range(1, 7)})
    assert die.total == 6 and die.probability(lambda k: k % 2 == 0) == Fraction(1, 2)
    assert die.expectation(lambda k: k) == Fraction(7, 2)
    assert die.map(lambda k: k > 4) == Dist({True: 2, False: 4})
    assert die.combine(die, lambda a, b: a + b)[12] == 1


def test_floats_are_refused() -> None:
    with pytest.raises(TypeError):
        Dist({"a": 1.0})  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Dist({"a": 1}).expectation(lambda k: 0.5)  # type: ignore[arg-type,return-value]
    with pytest.raises(ValueError):
        Dist({"a": -1})
