"""A flat bettor's session, exactly: the net result after n hands and the risk of ruin.

Conventions. The bettor stakes one unit on the same bet every hand. The hands are taken as
*independent*, each with the exact one-hand distribution of the bet from the full shoe (the
off-the-top probabilities); a real shoe's coups are slightly dependent, which the simulated
sessions beside these figures show. Results are in units staked.

Exactness. The one-hand result distribution is a :class:`~exact_odds.dist.Dist` of exact
payouts (``Fraction``). Scaled by the least common denominator of the payouts (20 for a
banker bet paying 19:20) every result is an integer *step*, and after reducing the ways
by their greatest common divisor each hand has ``T`` ways in all. Then

- the session distribution is the ``n``-fold convolution of the steps: integer ways over
  ``T**n`` (:func:`session_distribution`);
- the ruin probability is a Markov chain on the bankroll (in scaled units) that absorbs
  when fewer than one unit is left, because a flat bettor can then no longer cover the
  stake (:func:`ruin_probability`); the absorbed ways are carried along multiplied by
  ``T`` each hand, so everything stays an integer over ``T**n``.

The arrays are NumPy object arrays of Python integers (exact, no overflow); each hand is
one shifted multiply-add per distinct payout. The integers grow by ``log2(T)`` bits a hand
(43 bits for a banker bet from 8 decks), so the work grows with the cube of the number of
hands; :data:`MAX_WORK` bounds it, and a larger request is refused with a message.

>>> from exact_odds.bets import find_bet
>>> from exact_odds.shoe import Shoe
>>> one = one_hand(Shoe.infinite_deck(), find_bet("player"))
>>> one.steps, one.scale
((-1, 0, 1), 1)
>>> two = session_distribution(one, 2)
>>> two.probability(lambda net: net == 0) == one.probability(0) ** 2 + 2 * one.probability(1) * one.probability(-1)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal

from exact_odds.bets import Bet
from exact_odds.dist import Dist
from exact_odds.engine import deal
from exact_odds.errors import InputError
from exact_odds.shoe import Shoe
from exact_odds.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.validate import BANKROLL

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.simulate import SimulatedSessions

    Array = npt.NDArray[Any]

MAX_WORK = 25 * 10**10
"""Largest accepted estimate of the bit operations of an exact session (about a minute)."""


class SessionError(InputError):
    """A session that cannot be computed (too many hands, a bankroll below one unit...)."""


@dataclass(frozen=True)
class OneHand:
    """The result of one flat bet as integer steps: ``steps[i] / scale`` units with ``ways[i]`` ways.

    ``total`` is the sum of the ways (reduced by their greatest common divisor).
    """

    bet: str
    steps: tuple[int, ...]
    ways: tuple[int, ...]
    scale: int

    @property
    def total(self) -> int:
        """Ways of one hand in all."""
        return sum(self.ways)

    def items(self) -> list[tuple[Fraction, int]]:
        """(net result in units, ways) for every possible result, in increasing order."""
        return [(Fraction(s, self.scale), w) for s, w in zip(self.steps, self.ways, strict=True)]

    def probability(self, result: Fraction | int) -> Fraction:
        """Exact probability of one net result (in units)."""
        step = Fraction(result) * self.scale
        return Fraction(sum(w for s, w in zip(self.steps, self.ways, strict=True) if s == step), self.total)

    def mean(self) -> Fraction:
        """The edge: expected net result per hand, in units."""
        return Fraction(sum(s * w for s, w in zip(self.steps, self.ways, strict=True)), self.total * self.scale)


def one_hand(shoe: Shoe, bet: Bet, tableau: Tableau = STANDARD_TABLEAU) -> OneHand:
    """The exact one-hand result distribution of ``bet`` from ``shoe``, as integer steps."""
    results: Dist[Fraction] = deal(shoe, tableau, detail=bet.detail).map(bet.payout)
    scale = math.lcm(*(v.denominator for v in results))
    pairs = sorted((int(v * scale), w) for v, w in results.items())
    g = math.gcd(*(w for _, w in pairs))
    return OneHand(bet.name, tuple(s for s, _ in pairs), tuple(w // g for _, w in pairs), scale)


def _check_work(one: OneHand, hands: int) -> None:
    span = one.steps[-1] - one.steps[0]
    bits = math.log2(one.total)
    work = len(one.steps) * span * bits * hands**3 / 2
    if work > MAX_WORK:
        most = int((2 * MAX_WORK / (len(one.steps) * span * bits)) ** (1 / 3))
        raise SessionError(f"an exact session of {hands:,} hands of {one.bet} is too big to compute here "
                           f"(the ways grow by {bits:.0f} bits a hand); use at most about {most:,} hands")


def _object_zeros(n: int) -> Array:
    import numpy as np

    out = np.empty(n, dtype=object)
    out.fill(0)
    return out


def _units(net: Fraction) -> Fraction:
    return net


@dataclass(frozen=True)
class SessionDist:
    """The exact distribution of the net result after ``hands`` hands.

    ``ways[i]`` is the number of ways of a net result of ``(low + i) / scale`` units, out
    of ``total`` (``OneHand.total ** hands``).
    """

    hands: int
    scale: int
    low: int
    ways: tuple[int, ...]
    total: int

    def items(self) -> list[tuple[Fraction, int]]:
        """(net result in units, ways) for every possible result, in increasing order."""
        return [(Fraction(self.low + i, self.scale), w) for i, w in enumerate(self.ways) if w]

    def dist(self) -> Dist[Fraction]:
        """As a :class:`Dist` of net results (units)."""
        return Dist(self.items())

    def probability(self, event: Callable[[Fraction], bool]) -> Fraction:
        """Exact probability that the net result satisfies ``event``."""
        return Fraction(sum(w for v, w in self.items() if event(v)), self.total)

    def cumulative(self) -> list[tuple[Fraction, Fraction, Fraction]]:
        """(net result in units, its probability, P(net <= it)) for every possible result, in increasing order."""
        out: list[tuple[Fraction, Fraction, Fraction]] = []
        seen = 0
        for v, w in self.items():
            seen += w
            out.append((v, Fraction(w, self.total), Fraction(seen, self.total)))
        return out

    def mean(self) -> Fraction:
        """Expected net result (``hands`` times the edge)."""
        return self.dist().expectation(_units)

    def variance(self) -> Fraction:
        """Variance of the net result (``hands`` times the one-hand variance): :meth:`Dist.variance`."""
        return self.dist().variance(_units)

    def _repr_html_(self) -> str:
        """The distribution as a table in a notebook: each net result, its probability and P(net <= it)."""
        from exact_odds.notebook import Approx, html_table

        rows = [[v, Fraction(p), Approx(p), Approx(c)] for v, p, c in self.cumulative()]
        mean = self.mean()
        return html_table(["net result (units)", "probability", "≈", "P(net ≤ it) ≈"], rows,
                          caption=f"Net result after {self.hands:,} hands",
                          notes=[f"mean {mean} ≈ {float(mean):.6g} units"])

    def quantile(self, q: Fraction) -> Fraction:
        """The smallest net result ``x`` with ``P(net <= x) >= q`` (0 < q <= 1)."""
        need = q * self.total
        seen = 0
        for v, w in self.items():
            seen += w
            if seen >= need:
                return v
        return self.items()[-1][0]


def session_distribution(one: OneHand, hands: int) -> SessionDist:
    """The exact distribution of the net result after ``hands`` independent hands (a convolution)."""
    if hands < 1:
        raise SessionError(f"the number of hands must be at least 1, got {hands}")
    _check_work(one, hands)
    low, span = one.steps[0], one.steps[-1] - one.steps[0]
    ways = _object_zeros(1)
    ways[0] = 1
    for _ in range(hands):
        nxt = _object_zeros(len(ways) + span)
        for s, w in zip(one.steps, one.ways, strict=True):
            off = s - low
            nxt[off:off + len(ways)] += ways * w
        ways = nxt
    return SessionDist(hands, one.scale, hands * low, tuple(int(x) for x in ways), one.total**hands)


@dataclass(frozen=True)
class Ruin:
    """The exact probability that a flat bettor with ``bankroll`` units is ruined within ``hands`` hands.

    Ruined: fewer than one unit left, so the next stake cannot be covered.
    ``ruined`` ways out of ``total``; ``by_hand[t]`` is the probability of ruin within
    ``t + 1`` hands.
    """

    bankroll: Fraction
    hands: int
    ruined: int
    total: int
    by_hand: tuple[Fraction, ...]

    @property
    def probability(self) -> Fraction:
        """P(ruin within ``hands`` hands)."""
        return Fraction(self.ruined, self.total)


def ruin_probability(one: OneHand, hands: int, bankroll: Fraction | int) -> Ruin:
    """P(the bankroll falls below one unit within ``hands`` hands), exactly (an absorbing Markov chain).

    The bankroll is in units; it must be at least one unit (one stake). States are the net
    results in scaled units; a hand moves each state by every step with its ways, and what
    leaves less than one unit is absorbed.
    """
    bankroll = Fraction(bankroll)
    if bankroll < 1:
        raise SessionError(f"the bankroll must be at least one unit (one stake), got {bankroll}")
    if hands < 1:
        raise SessionError(f"the number of hands must be at least 1, got {hands}")
    _check_work(one, hands)
    # Ruined when bankroll + net / scale < 1: for an integer scaled net, when net < floor.
    floor = math.ceil((1 - bankroll) * one.scale)
    low, span = one.steps[0], one.steps[-1] - one.steps[0]
    base = 0  # alive[i] holds the ways of a scaled net result of base + i
    alive = _object_zeros(1)
    alive[0] = 1
    ruined, total = 0, 1
    by_hand: list[Fraction] = []
    for _ in range(hands):
        nxt = _object_zeros(len(alive) + span)
        for s, w in zip(one.steps, one.ways, strict=True):
            off = s - low
            nxt[off:off + len(alive)] += alive * w
        base += low
        cut = max(0, min(len(nxt), floor - base))  # entries with less than one unit left are ruined
        ruined = ruined * one.total + int(sum(nxt[:cut]))
        alive = nxt[cut:]
        base += cut
        total *= one.total
        by_hand.append(Fraction(ruined, total))
    return Ruin(bankroll, hands, ruined, total, tuple(by_hand))


def parse_bankroll(text: str) -> Fraction:
    """A bankroll in units from ``"20"``, ``"12.5"`` or ``"25/2"``: exact, from one unit (one stake) to
    1,000,000,000 (:data:`exact_odds.validate.BANKROLL`), written in at most 40 characters."""
    return BANKROLL.parse(text, "--bankroll", SessionError)


# ---------------------------------------------------------------- simulated sessions, summed as they are dealt


class SessionTally:
    """The simulated sessions' net results, summed up as the coups are dealt: memory that does not grow
    with the number of sessions.

    Each session is ``hands`` consecutive coups. :meth:`add` takes the bet's payouts (scaled
    integers, as :func:`~exact_odds.coup.payout_lookup` gives them) of the next coups, in order;
    a session is counted when its last hand is in. ``counts`` maps a net result (scaled) to the
    sessions that ended on it: at most as many entries as a session has possible results (the
    support of the exact distribution), whatever the number of sessions. With ``floor``, a
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


# ---------------------------------------------------------------- exact beside simulated


FigureKind = Literal["mean", "sd", "ahead", "even", "behind", "quantile", "ruin"]
"""What a :class:`Figure` measures: the mean and standard deviation of the net result,
P(net > 0), P(net = 0), P(net < 0), a quantile of the net result, P(ruin)."""

QUANTILES: tuple[Fraction, ...] = (Fraction(1, 20), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(19, 20))
"""The quantiles of the net result that :func:`compare_sessions` compares."""

_SIDES: tuple[tuple[FigureKind, Callable[[Any], Any]], ...] = (
    ("ahead", lambda net: net > 0), ("even", lambda net: net == 0), ("behind", lambda net: net < 0))


@dataclass(frozen=True)
class Figure:
    """One figure of a flat bettor's session: its exact value and, beside it, the simulated one.

    ``exact``: a :class:`Fraction` (units for ``mean`` and ``quantile``, a probability for
    ``ahead``, ``even``, ``behind`` and ``ruin``), except ``sd``, a float (the square root of
    the exact variance). ``simulated``: the same figure over the simulated sessions (the
    share of sessions for a probability, the sample standard deviation with ``n - 1`` for
    ``sd``); ``None`` without simulated sessions. ``z``: (simulated - exact) / standard
    error, for the mean and the probabilities, ``None`` where it is not defined (no
    simulation, an exact probability of 0 or 1, a zero standard deviation). ``q``: the
    quantile's level, for ``quantile``.
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


@dataclass(frozen=True)
class SessionComparison:
    """The exact session figures beside the simulated ones, with what they come from.

    ``figures``: mean, sd, ahead, even, behind, the :data:`QUANTILES`, then ruin when
    ``ruin`` is given.
    """

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
    """The exact figures of a session (and of ruin) beside those of the simulated sessions.

    Exact values are exact (the standard deviation is the square root of the exact
    variance); simulated values are exact shares and quantiles of the simulated net results
    (integers over ``scale``), and the sample standard deviation as a float (the square root of
    the exact sample variance). They are read off a :class:`SessionTally`, never a list of
    every session.

    >>> from exact_odds.bets import find_bet
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
