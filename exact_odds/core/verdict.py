"""Verdicts on a log: checks with verdicts, violations, tallies and chi-square tests.

They know nothing of cards or dice (:mod:`exact_odds.witness.verify` and :mod:`exact_odds.bunco.verify`
use them). A *deterministic* check fails on its first violation; a *statistical* check fails when its
p-value is below its share of ``alpha`` (Bonferroni), so a correct log FAILs with probability at most
``alpha`` in all. Floats are fine here: these figures judge a log, they are never exact results.

>>> test = ChiSquare("outcomes", 4.605170185988092, 2)
>>> round(test.p_value, 6)
0.1
>>> Tally("banker", observed=52, expected=50.0, variance=25.0).z
0.4
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

from exact_odds.core.stats import chi_square_sf

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

Verdict = Literal["PASS", "FAIL", "SKIP"]
"""``PASS``, ``FAIL``, or ``SKIP`` for a check the log gives nothing to test."""


@dataclass(frozen=True, slots=True)
class Violation:
    """One thing a log got wrong, in words: ``index`` in the log (0-based), ``line`` of the file (``None`` in
    memory), the log's ``shoe`` value (or ``None``), the ``coup``'s number in its shoe (1-based)."""

    index: int
    line: int | None
    shoe: str | None
    coup: int
    message: str


@dataclass(frozen=True, slots=True)
class Tally:
    """The observed count of one event beside its expectation and variance under the hypothesis."""

    name: str
    observed: int
    expected: float
    variance: float

    @property
    def z(self) -> float:
        """``(observed - expected) / sqrt(variance)`` (0 when the variance is 0)."""
        return (self.observed - self.expected) / math.sqrt(self.variance) if self.variance > 0 else 0.0


@dataclass(frozen=True, slots=True)
class ChiSquare:
    """A chi-square statistic with ``df`` degrees of freedom, labelled for reports."""

    label: str
    statistic: float
    df: int

    @property
    def p_value(self) -> float:
        """``P(X >= statistic)`` (1 when ``df`` is 0)."""
        return chi_square_sf(self.statistic, self.df) if self.df > 0 else 1.0


def chi_square(label: str, difference: NDArray[np.float64], covariance: NDArray[np.float64]) -> ChiSquare:
    """The chi-square ``d^T V^+ d`` of a difference ``d`` with covariance ``V`` (maybe singular): the
    pseudo-inverse, with ``df`` the rank of ``V`` (eigenvalues below ``1e-9`` of the largest count as zero).

    >>> import numpy as np
    >>> p = np.array([0.5, 0.3, 0.2]); n = 100
    >>> v = n * (np.diag(p) - np.outer(p, p))  # a multinomial's covariance: rank 2
    >>> t = chi_square("x", np.array([5.0, -5.0, 0.0]), v)
    >>> t.df, round(t.statistic, 6)  # Pearson's sum of (O - E)^2 / E
    (2, 1.333333)
    """
    import numpy as np

    values, vectors = np.linalg.eigh((covariance + covariance.T) / 2)
    top = float(values.max(initial=0.0))
    keep = values > max(top, 0.0) * 1e-9
    if not keep.any():
        return ChiSquare(label, 0.0, 0)
    projected = vectors[:, keep].T @ difference
    return ChiSquare(label, float(np.sum(projected**2 / values[keep])), int(keep.sum()))


@dataclass(frozen=True, slots=True)
class Check:
    """One check of a log and what it rests on: a deterministic check's first few ``violations`` (of
    ``violation_count``), or a statistical check's ``p_value`` (its ``tests``' least times their number, at
    most 1)."""

    name: str
    verdict: Verdict
    checked: int
    unit: str = "coups"
    p_value: float | None = None
    threshold: float | None = None
    violations: tuple[Violation, ...] = ()
    violation_count: int = 0
    tallies: tuple[Tally, ...] = ()
    tests: tuple[ChiSquare, ...] = ()
    details: tuple[ChiSquare, ...] = ()
    notes: tuple[str, ...] = field(default=())


def deterministic_check(name: str, checked: int, violations: Sequence[Violation], count: int,
                        notes: Sequence[str] = (), *, unit: str = "coups") -> Check:
    """PASS when nothing was violated (SKIP when nothing was checked)."""
    verdict: Verdict = "FAIL" if count else ("PASS" if checked else "SKIP")
    return Check(name, verdict, checked, unit, violations=tuple(violations), violation_count=count,
                 notes=tuple(notes))


def statistical_check(name: str, checked: int, tests: Sequence[ChiSquare], tallies: Sequence[Tally] = (),
                      notes: Sequence[str] = (), *, unit: str = "coups", details: Sequence[ChiSquare] = ()) -> Check:
    """A check whose p-value combines its tests (Bonferroni); its verdict is set by :func:`judge`."""
    live = [t for t in tests if t.df > 0]
    p = min(1.0, len(live) * min(t.p_value for t in live)) if live else None
    return Check(name, "SKIP", checked, unit, p_value=p, tallies=tuple(tallies), tests=tuple(tests),
                 details=tuple(details), notes=tuple(notes))


def judge(checks: Sequence[Check], alpha: float) -> tuple[Check, ...]:
    """Give every statistical check its threshold ``alpha / k`` (``k`` statistical checks) and verdict."""
    if not 0 < alpha < 1:
        raise ValueError(f"the significance level must lie strictly between 0 and 1, got {alpha}")
    k = sum(1 for c in checks if c.p_value is not None)
    out = []
    for c in checks:
        if c.p_value is not None:
            level = alpha / k
            c = replace(c, threshold=level, verdict="FAIL" if c.p_value < level else "PASS")
        out.append(c)
    return tuple(out)


def overall(checks: Sequence[Check]) -> Verdict:
    """``FAIL`` if any check fails, else ``PASS`` (``SKIP`` when every check was skipped)."""
    if any(c.verdict == "FAIL" for c in checks):
        return "FAIL"
    return "PASS" if any(c.verdict == "PASS" for c in checks) else "SKIP"


def named_check(checks: Sequence[Check], name: str) -> Check:
    """The check called ``name``; a ``KeyError`` listing the names if none is.

    >>> checks = [deterministic_check("rules", 3, [], 0), deterministic_check("labels", 0, [], 0)]
    >>> named_check(checks, "labels").verdict
    'SKIP'
    >>> named_check(checks, "cards")
    Traceback (most recent call last):
    ...
    KeyError: "no check 'cards'; checks: rules, labels"
    """
    for c in checks:
        if c.name == name:
            return c
    raise KeyError(f"no check {name!r}; checks: {', '.join(c.name for c in checks)}")


class IndicatorSum:
    """A sum of indicator vectors of ``k`` events beside its law under the hypothesis.

    Trial ``i`` has conditional probabilities ``p_i``; as ``x_i - p_i`` are martingale differences, the
    counts have covariance ``sum (E[x_i x_i^T] - p_i p_i^T)`` and ``(S - E)^T V^+ (S - E)`` is
    asymptotically chi-square with rank(V) degrees of freedom.

    >>> import numpy as np
    >>> s = IndicatorSum(["heads", "tails"])
    >>> s.add_exclusive(np.full((100, 2), 0.5), np.array([60, 40]))
    >>> round(s.test("coin").statistic, 9), s.tallies()[0].z  # Pearson: 2 * (10**2 / 50)
    (4.0, 2.0)
    """

    def __init__(self, names: Sequence[str]) -> None:
        import numpy as np

        k = len(names)
        self.names = tuple(names)
        self.trials = 0
        self.observed = np.zeros(k, dtype=np.int64)
        self.expected = np.zeros(k)
        self.moments = np.zeros((k, k))  # sum of E[x x^T]
        self.outer = np.zeros((k, k))  # sum of p p^T

    def add_sums(self, trials: int, observed: NDArray[Any], expected: NDArray[np.float64],
                 moments: NDArray[np.float64], outer: NDArray[np.float64]) -> None:
        """Add trials by their sums: the observed counts (k,), ``sum p`` (k,), ``sum E[x x^T]`` and ``sum p p^T``."""
        import numpy as np

        self.trials += trials
        self.observed += observed.astype(np.int64)
        self.expected += expected
        self.moments += moments
        self.outer += outer

    def add_identical(self, p: NDArray[np.float64], moments: NDArray[np.float64], count: int,
                      observed: NDArray[Any]) -> None:
        """Add ``count`` trials with the same probabilities ``p`` (k,) and ``E[x x^T]`` (k, k)."""
        import numpy as np

        self.add_sums(count, observed, count * p, count * moments, count * np.outer(p, p))

    def add_exclusive(self, p: NDArray[np.float64], observed: NDArray[Any]) -> None:
        """Add trials ``p`` (m, k) whose events exclude each other (``E[x x^T] = diag(p)``)."""
        import numpy as np

        expected = p.sum(axis=0)
        self.add_sums(int(p.shape[0]), observed, expected, np.diag(expected), p.T @ p)

    @property
    def covariance(self) -> NDArray[np.float64]:
        import numpy as np

        return np.asarray(self.moments - self.outer, dtype=np.float64)

    def tallies(self) -> list[Tally]:
        cov = self.covariance
        return [Tally(name, int(self.observed[j]), float(self.expected[j]), float(cov[j, j]))
                for j, name in enumerate(self.names)]

    def test(self, label: str) -> ChiSquare:
        return chi_square(label, self.observed - self.expected, self.covariance)
