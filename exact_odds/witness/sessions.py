"""Simulated sessions beside the exact ones: the simulated net results tallied as they are dealt, and
each exact session figure (mean, spread, shares, quantiles, ruin) set beside its simulated value.

>>> tally = SessionTally(2)
>>> import numpy as np
>>> tally.add(np.array([1, -1, 1, 1]))
>>> tally.sessions, sorted(tally.counts.items())
(2, [(0, 1), (2, 1)])
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from exact_odds.analysis.sessions import OneHand, Ruin, SessionDist, SessionError

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.witness.simulate import SimulatedSessions

    Array = npt.NDArray[Any]


class SessionTally:
    """The simulated sessions' net results, summed up as the coups are dealt (memory that does not grow with the
    number of sessions).

    Each session is ``hands`` consecutive coups; :meth:`add` takes the bet's scaled payouts of the next coups,
    in order. ``counts`` maps a net result (scaled) to the sessions that ended on it. With ``floor``, a
    session whose running result falls below ``floor`` at any point is counted as ruined.
    """

    def __init__(self, hands: int, floor: int | None = None) -> None:
        if hands < 1:
            raise SessionError(f"the number of hands must be at least 1, got {hands}")
        self.hands, self.floor = hands, floor
        self.counts: dict[int, int] = {}
        self.sessions = 0
        self.ruined = 0
        self._done = self._net = self._low = 0  # the session under way: hands played, result, lowest result

    def add(self, paid: Array) -> None:
        """The payouts (scaled integers) of the next coups, in the order they were dealt."""
        import numpy as np

        paid = np.asarray(paid, dtype=np.int64)
        if self._done and len(paid):  # finish the session under way
            path = self._net + paid[:self.hands - self._done].cumsum()
            self._low = min(self._low, int(path.min()))
            self._net, self._done, paid = int(path[-1]), self._done + len(path), paid[len(path):]
            if self._done == self.hands:
                self._count(np.array([self._net]), np.array([self._low]))
                self._done = 0
        whole = len(paid) // self.hands
        step = max(1, (1 << 22) // self.hands)
        for first in range(0, whole, step):  # whole sessions, a few million payouts at a time
            rows = min(step, whole - first)
            path = paid[first * self.hands:(first + rows) * self.hands].reshape(rows, self.hands).cumsum(axis=1)
            self._count(path[:, -1], path.min(axis=1))
        rest = paid[whole * self.hands:]
        if len(rest):  # a session begun
            path = rest.cumsum()
            self._done, self._net, self._low = len(rest), int(path[-1]), int(path.min())

    def _count(self, nets: Array, lows: Array) -> None:
        import numpy as np

        values, found = np.unique(nets, return_counts=True)
        for value, n in zip(values.tolist(), found.tolist(), strict=True):
            self.counts[value] = self.counts.get(value, 0) + n
        self.sessions += len(nets)
        if self.floor is not None:
            self.ruined += int((lows < self.floor).sum())

    @property
    def pending(self) -> int:
        """Hands of a session begun but not finished (0 once every session dealt is counted)."""
        return self._done

    def items(self) -> list[tuple[int, int]]:
        """(net result, scaled; sessions) in increasing order of the result."""
        return sorted(self.counts.items())

    def total(self) -> int:
        """The sum of the sessions' net results (scaled)."""
        return sum(value * n for value, n in self.counts.items())

    def variance(self) -> Fraction:
        """The sample variance of the net results (scaled, denominator ``sessions - 1``), exactly."""
        m = self.sessions
        if m < 2:
            return Fraction(0)
        squares = sum(value * value * n for value, n in self.counts.items())
        return Fraction(squares * m - self.total() ** 2, m * (m - 1))

    def hits(self, event: Callable[[int], bool]) -> int:
        """Sessions whose net result satisfies ``event``."""
        return sum(n for value, n in self.counts.items() if event(value))

    def order_statistic(self, k: int) -> int:
        """The ``k``-th smallest net result (scaled; ``k`` from 0)."""
        seen = 0
        for value, n in self.items():
            seen += n
            if seen > k:
                return value
        raise IndexError(f"no net result {k} of {self.sessions}")


FigureKind = Literal["mean", "sd", "ahead", "even", "behind", "quantile", "ruin"]
"""What a :class:`Figure` measures: the mean and standard deviation of the net result,
P(net > 0), P(net = 0), P(net < 0), a quantile of the net result, P(ruin)."""

QUANTILES: tuple[Fraction, ...] = (Fraction(1, 20), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(19, 20))
"""The quantiles of the net result that :func:`compare_sessions` compares."""

_SIDES: tuple[tuple[FigureKind, Callable[[Any], Any]], ...] = (
    ("ahead", lambda net: net > 0), ("even", lambda net: net == 0), ("behind", lambda net: net < 0))


@dataclass(frozen=True, slots=True)
class Figure:
    """One figure of a flat bettor's session: its exact value and, beside it, the simulated one.

    ``exact``: a :class:`Fraction` (units, or a probability), except ``sd``, a float (the square root of the
    exact variance). ``simulated``: the same over the simulated sessions (``None`` without); ``z``:
    (simulated - exact) / standard error, for the mean and the probabilities, where defined; ``q``: a
    quantile's level.
    """

    kind: FigureKind
    exact: Fraction | float
    simulated: Fraction | float | None = None
    z: float | None = None
    q: Fraction | None = None

    @property
    def is_probability(self) -> bool:
        """Whether the figure is a probability (else it is in units)."""
        return self.kind in ("ahead", "even", "behind", "ruin")


@dataclass(frozen=True, slots=True)
class SessionComparison:
    """The exact session figures beside the simulated ones, with what they come from; ``figures``: mean, sd,
    ahead, even, behind, the :data:`QUANTILES`, then ruin when ``ruin`` is given."""

    one: OneHand
    exact: SessionDist
    ruin: Ruin | None
    simulated: SimulatedSessions | None
    figures: tuple[Figure, ...]


def share_z(hits: int, sessions: int, p: Fraction) -> float | None:
    """z-score of ``hits`` out of ``sessions`` against the exact probability ``p`` (``None`` when degenerate).

    >>> round(share_z(60, 100, Fraction(1, 2)), 6)
    2.0
    """
    pf = float(p)
    if sessions == 0 or pf <= 0 or pf >= 1:
        return None
    return float((hits / sessions - pf) / (pf * (1 - pf) / sessions) ** 0.5)


def _share(kind: FigureKind, p: Fraction, hits: int | None, sessions: int) -> Figure:
    if hits is None:
        return Figure(kind, p)
    return Figure(kind, p, Fraction(hits, sessions), share_z(hits, sessions, p))


def _mean(exact: SessionDist, sd: float, tally: SessionTally | None, scale: int) -> Figure:
    if tally is None:
        return Figure("mean", exact.mean())
    m = tally.sessions
    simulated = Fraction(tally.total(), m * scale)
    z = (float(simulated) - float(exact.mean())) / (sd / math.sqrt(m)) if sd > 0 else None
    return Figure("mean", exact.mean(), simulated, z)


def compare_sessions(one: OneHand, exact: SessionDist, ruin: Ruin | None = None,
                     simulated: SimulatedSessions | None = None) -> SessionComparison:
    """The exact figures of a session (and of ruin) beside those of the simulated sessions (exact shares and
    quantiles of their :class:`SessionTally`; the sample standard deviation as a float).

    >>> from exact_odds.analysis.sessions import one_hand, session_distribution
    >>> from exact_odds.bets import find_bet
    >>> from exact_odds.core.shoe import Shoe
    >>> one = one_hand(Shoe.infinite_deck(), find_bet("player"))
    >>> mean, sd, ahead, even, behind, q5, *_ = compare_sessions(one, session_distribution(one, 2)).figures
    >>> mean.exact == 2 * one.mean(), q5.q, q5.exact, mean.simulated is None
    (True, Fraction(1, 20), Fraction(-2, 1), True)
    """
    tally = simulated.tally if simulated is not None else None
    m = tally.sessions if tally is not None else 0
    scale = simulated.scale if simulated is not None else 1
    sd = math.sqrt(exact.variance())
    spread = math.sqrt(tally.variance() / scale**2) if tally is not None and m > 1 else None
    figures = [_mean(exact, sd, tally, scale), Figure("sd", sd, spread)]
    for kind, test in _SIDES:
        figures.append(_share(kind, exact.probability(test), None if tally is None else tally.hits(test), m))
    for q in QUANTILES:
        value = Fraction(tally.order_statistic(max(0, math.ceil(q * m) - 1)), scale) if tally is not None else None
        figures.append(Figure("quantile", exact.quantile(q), value, q=q))
    if ruin is not None:
        figures.append(_share("ruin", ruin.probability, None if tally is None else tally.ruined, m))
    return SessionComparison(one, exact, ruin, simulated, tuple(figures))
