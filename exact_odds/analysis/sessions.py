"""A flat bettor's session, exactly: the net result after n hands and the risk of ruin.

One unit is staked on the same bet every hand, the hands *independent* (``docs/checking.md``, "Sessions").
Scaled by the payouts' least common denominator every result is an integer *step* and a hand has ``T``
ways: the session is the ``n``-fold convolution of the steps, integer ways over ``T**n``. The integers grow
by ``log2(T)`` bits a hand, so the work grows with the cube of the hands: :data:`MAX_WORK` bounds it.

>>> from exact_odds.bets import find_bet
>>> from exact_odds.core.shoe import Shoe
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
from typing import TYPE_CHECKING, Any

from exact_odds.bets import Bet
from exact_odds.core.dist import Dist
from exact_odds.core.notebook import Approx, html_table
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU, Tableau
from exact_odds.engine.enumerator import deal
from exact_odds.inputs.errors import InputError
from exact_odds.inputs.validate import BANKROLL

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[Any]

MAX_WORK = 25 * 10**10
"""Largest accepted estimate of the bit operations of an exact session (about a minute)."""


class SessionError(InputError):
    """A session that cannot be computed (too many hands, a bankroll below one unit...)."""


@dataclass(frozen=True, slots=True)
class OneHand:
    """The result of one flat bet as integer steps: ``steps[i] / scale`` units with ``ways[i]`` ways (reduced
    by their greatest common divisor)."""

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
    if hands < 1:
        raise SessionError(f"the number of hands must be at least 1, got {hands}")
    span = one.steps[-1] - one.steps[0]
    bits = math.log2(one.total)
    work = len(one.steps) * span * bits * hands**3 / 2
    if work > MAX_WORK:
        most = int((2 * MAX_WORK / (len(one.steps) * span * bits)) ** (1 / 3))
        raise SessionError(f"an exact session of {hands:,} hands of {one.bet} is too big to compute here "
                           f"(the ways grow by {bits:.0f} bits a hand); use at most about {most:,} hands")


def _objects(values: list[int]) -> Array:
    import numpy as np

    return np.array(values, dtype=object)


def _one_more_hand(one: OneHand, ways: Array) -> Array:
    """The ways of each scaled net result after one more hand (index 0: the least, moved by the least step)."""
    out = _objects([0] * (len(ways) + one.steps[-1] - one.steps[0]))
    for s, w in zip(one.steps, one.ways, strict=True):
        off = s - one.steps[0]
        out[off:off + len(ways)] += ways * w
    return out


@dataclass(frozen=True, slots=True)
class SessionDist:
    """The exact distribution of the net result after ``hands`` hands: ``ways[i]`` ways of a net result of
    ``(low + i) / scale`` units, out of ``total`` (``OneHand.total ** hands``)."""

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
        return self.dist().expectation(Fraction)

    def variance(self) -> Fraction:
        """Variance of the net result (``hands`` times the one-hand variance): :meth:`Dist.variance`."""
        return self.dist().variance(Fraction)

    def _repr_html_(self) -> str:
        """The distribution as a table in a notebook: each net result, its probability and P(net <= it)."""
        rows = [[v, Fraction(p), Approx(p), Approx(c)] for v, p, c in self.cumulative()]
        mean = self.mean()
        return html_table(["net result (units)", "probability", "≈", "P(net ≤ it) ≈"], rows,
                          caption=f"Net result after {self.hands:,} hands",
                          notes=[f"mean {mean} ≈ {float(mean):.6g} units"])

    def quantile(self, q: Fraction) -> Fraction:
        """The smallest net result ``x`` with ``P(net <= x) >= q`` (0 < q <= 1)."""
        return next((v for v, _, below in self.cumulative() if below >= q), self.items()[-1][0])


def session_distribution(one: OneHand, hands: int) -> SessionDist:
    """The exact distribution of the net result after ``hands`` independent hands (a convolution)."""
    _check_work(one, hands)
    ways = _objects([1])
    for _ in range(hands):
        ways = _one_more_hand(one, ways)
    return SessionDist(hands, one.scale, hands * one.steps[0], tuple(int(x) for x in ways), one.total**hands)


@dataclass(frozen=True, slots=True)
class Ruin:
    """The exact probability that a flat bettor with ``bankroll`` units is ruined (left with less than one
    stake) within ``hands`` hands: ``ruined`` ways out of ``total``; ``by_hand[t]``: within ``t + 1`` hands."""

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
    """P(the bankroll, in units and at least one, falls below one unit within ``hands`` hands), exactly: an
    absorbing Markov chain on the scaled net results."""
    bankroll = Fraction(bankroll)
    if bankroll < 1:
        raise SessionError(f"the bankroll must be at least one unit (one stake), got {bankroll}")
    _check_work(one, hands)
    # Ruined when bankroll + net / scale < 1: for an integer scaled net, when net < floor.
    floor = math.ceil((1 - bankroll) * one.scale)
    base = 0  # alive[i] holds the ways of a scaled net result of base + i
    alive = _objects([1])
    ruined, total = 0, 1
    by_hand: list[Fraction] = []
    for _ in range(hands):
        nxt = _one_more_hand(one, alive)
        base += one.steps[0]
        cut = max(0, min(len(nxt), floor - base))  # entries with less than one unit left are ruined
        ruined = ruined * one.total + int(sum(nxt[:cut]))
        alive = nxt[cut:]
        base += cut
        total *= one.total
        by_hand.append(Fraction(ruined, total))
    return Ruin(bankroll, hands, ruined, total, tuple(by_hand))


def parse_bankroll(text: str) -> Fraction:
    """A bankroll in units from ``"20"``, ``"12.5"`` or ``"25/2"``: exact, from one unit (one stake) to
    1,000,000,000 (:data:`exact_odds.inputs.validate.BANKROLL`), written in at most 40 characters."""
    return BANKROLL.parse(text, "--bankroll", SessionError)
