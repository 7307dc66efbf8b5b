"""Pearson's chi-square goodness-of-fit test of observed counts against an exact distribution.

The simulation is a witness, never a source: its counts are judged against the exact ways by
this test. The statistic is exact (a ``Fraction``); the p-value is a float from
:func:`exact_odds.core.stats.chi_square_sf`. Adjacent outcomes are pooled until each bin expects at
least 5 observations (the usual rule of thumb, e.g. Cochran, "Some methods for strengthening the
common chi-square tests", Biometrics 10, 1954); no parameter is estimated, so the degrees of
freedom are ``bins - 1``.

>>> test = chi_square_test(Dist({0: 48, 1: 52}), Dist({0: 1, 1: 1}))
>>> test.statistic, test.df, test.verdict
(Fraction(4, 25), 1, 'PASS')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exact_odds.core.dist import Dist
from exact_odds.core.stats import chi_square_sf

DEFAULT_ALPHA = Fraction(1, 1000)
"""Significance level of the simulation's verdicts (as for the baccarat simulator)."""
MIN_EXPECTED = 5
"""The least expected count of a bin; smaller bins are pooled with their neighbours."""


@dataclass(frozen=True, slots=True)
class Bin:
    """Adjacent outcomes ``low..high`` pooled for the chi-square test; ``expected`` is an exact count."""

    low: int
    high: int
    observed: int
    expected: Fraction

    @property
    def contribution(self) -> Fraction:
        """(observed - expected)² / expected, exactly."""
        return (self.observed - self.expected) ** 2 / self.expected

    def joined(self, after: Bin) -> Bin:
        """This bin and the next one (``after``) pooled into one."""
        return Bin(self.low, after.high, self.observed + after.observed, self.expected + after.expected)


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """Pearson's chi-square goodness-of-fit test of observed counts against exact probabilities.

    ``statistic`` is exact; ``p_value`` is a float; ``impossible`` counts observations of outcomes
    whose exact probability is 0 (any makes the test fail). The test passes when ``p_value >= alpha``.
    """

    trials: int
    bins: tuple[Bin, ...]
    statistic: Fraction
    df: int
    p_value: float
    alpha: Fraction
    impossible: int

    @property
    def passed(self) -> bool:
        """True if nothing impossible was seen and the p-value is at least ``alpha``."""
        return self.impossible == 0 and self.p_value >= self.alpha

    @property
    def verdict(self) -> str:
        """``"PASS"`` or ``"FAIL"``."""
        return "PASS" if self.passed else "FAIL"


def pool(observed: Dist[int], expected: dict[int, Fraction], minimum: int) -> list[Bin]:
    """Bins of adjacent outcomes (in increasing order), each expecting at least ``minimum``.

    Outcomes join the open bin until it expects ``minimum``; a short tail left at the end joins
    the last bin (or stays alone if it is the only one).

    >>> [(b.low, b.high) for b in pool(Dist({0: 5, 1: 4}), {0: Fraction(6), 1: Fraction(2), 2: Fraction(1)}, 5)]
    [(0, 2)]
    """
    bins: list[Bin] = []
    open_bin: Bin | None = None
    for key in sorted(set(expected) | set(observed)):
        outcome = Bin(key, key, observed[key], expected.get(key, Fraction(0)))
        open_bin = outcome if open_bin is None else open_bin.joined(outcome)
        if open_bin.expected >= minimum:
            bins.append(open_bin)
            open_bin = None
    if open_bin is not None:
        bins.append(bins.pop().joined(open_bin) if bins else open_bin)
    return bins


def chi_square_test(observed: Dist[int], expected: Dist[int], *, alpha: Fraction = DEFAULT_ALPHA,
                    min_expected: int = MIN_EXPECTED) -> ChiSquare:
    """Compare observed counts (a ``Dist`` of counts) with an exact distribution (integer outcomes).

    The expected count of an outcome is ``trials * ways / total``; bins come from :func:`pool`.
    An observed outcome that the exact distribution never gives is *impossible* and sets the
    p-value to 0. A single bin (df 0) leaves nothing to test and passes.
    """
    trials = observed.total
    if trials < 1:
        raise ValueError("a chi-square test needs at least one observation")
    if not 0 < alpha < 1:
        raise ValueError(f"the significance level must lie strictly between 0 and 1, got {alpha}")
    counts = {k: trials * Fraction(w, expected.total) for k, w in expected.items()}
    impossible = sum(n for k, n in observed.items() if k not in counts)
    bins = tuple(pool(observed, counts, min_expected))
    statistic = sum((b.contribution for b in bins if b.expected), Fraction(0))
    df = len(bins) - 1
    p_value = chi_square_sf(float(statistic), df) if df else 1.0
    if impossible:
        p_value = 0.0
    return ChiSquare(trials, bins, statistic, df, p_value, alpha, impossible)
