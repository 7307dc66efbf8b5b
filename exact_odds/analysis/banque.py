"""Baccara banque: one Banker against two Player hands, cards dealt with replacement (model A), exactly.

The rules are Ethier and Lee's (2015, Games 6:57), told in ``docs/chemin-de-fer.md``; a share ``theta`` of
the money is staked on hand 1, ``1 - theta`` on hand 2. Figures count the ordered nine-card sequences of
point values (three two-card hands, then three third cards, unused ones included): integer ways out of
13**9. The Players' pure choices on 5 make the four :data:`PAIRS`, every payoff linear in their chances:
:func:`evaluate` prices given strategies; :func:`cooperative` solves, by two exact linear programs, the
game where the Players pool their stakes and correlate their choices (and tells whether independent
choices reach it). The three-person Nash equilibrium is not computed: it need not be rational.

>>> game = banque_game()
>>> solution = cooperative(game, Fraction(1, 2))
>>> solution.certificate.holds, len(game.sets)
(True, 1144)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from exact_odds.analysis.chemin import SIGN, Certificate, Number, StrategyError
from exact_odds.analysis.exact_lp import maximize, single_valued
from exact_odds.core.choices import NATURALS

State = int | None
"""What a Player hand did, as the Banker sees it: its third card's point value 0-9, ``None`` (stood) or
:data:`NATURAL`."""
NATURAL: State = -1
"""A Player hand that had a natural: settled, it takes no part in the Banker's decision."""
POINT_WAYS = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)
"""Ways out of 13 of each point value when cards are dealt with replacement."""
CARD = sum(POINT_WAYS)
PAIRS: tuple[tuple[int, int], ...] = ((1, 1), (1, 0), (0, 1), (0, 0))
"""The Players' pure choices on 5, (Player 1, Player 2): 1 draws, 0 stands."""
TOTAL_WAYS = CARD ** 9
"""Every ordered sequence of nine point values: three two-card hands and three third cards."""

Results = tuple[tuple[int, int], ...]
"""Per pure pair of :data:`PAIRS`, the results of hand 1 and hand 2 in ways (+1 win, -1 loss, 0 tie)."""


class BanqueError(StrategyError):
    """A stake or a strategy that does not make a game of baccara banque."""


@dataclass(frozen=True, slots=True)
class BanqueSet:
    """One information set of the Banker: his total against what each hand did; the two hands' results
    in ways if he draws or stands there, for each pure pair of the Players' choices."""

    banker: int
    first: State
    second: State
    draw: Results
    stand: Results


@dataclass(frozen=True, slots=True)
class BanqueGame:
    """Baccara banque with replacement: the hands' results on coups the Banker does not decide (``base``,
    per pure pair), and every Banker information set."""

    base: Results
    sets: tuple[BanqueSet, ...]


TWO = tuple(sum(POINT_WAYS[a] * POINT_WAYS[(t - a) % 10] for a in range(10)) for t in range(10))
"""Ways out of 169 of each two-card total."""


def _hand(draws_on_5: int) -> dict[tuple[State, int], int]:
    """A Player hand's outcomes, ``(state, final total) -> ways`` out of 169 * 13 (a card not drawn counted
    13 ways), when he draws on 5 (1) or stands (0)."""
    out: dict[tuple[State, int], int] = {}
    for t, ways in enumerate(TWO):
        if t in NATURALS:
            out[NATURAL, t] = ways * CARD
        elif t < 5 or (t == 5 and draws_on_5):
            for c, wc in enumerate(POINT_WAYS):
                key = (c, (t + c) % 10)
                out[key] = out.get(key, 0) + ways * wc
        else:
            out[None, t] = ways * CARD
    return out


def _against(state: State, final: int, banker: int) -> int:
    """A hand's result against the Banker's final total (a natural wins, the Banker having none)."""
    return 1 if state == NATURAL else SIGN[final][banker]


@cache
def banque_game() -> BanqueGame:
    """The game's payoffs (see the module)."""
    base = [[0, 0] for _ in PAIRS]
    sets: dict[tuple[int, State, State], list[list[list[int]]]] = {}
    for k, (d1, d2) in enumerate(PAIRS):
        first, second = _hand(d1), _hand(d2)
        for b, wb in enumerate(TWO):
            if b in NATURALS:  # play ends: the Players' two cards against the Banker's
                for t1, w1 in enumerate(TWO):
                    for t2, w2 in enumerate(TWO):
                        ways = wb * w1 * w2 * CARD ** 3
                        base[k][0] += ways * SIGN[t1][b]
                        base[k][1] += ways * SIGN[t2][b]
                continue
            for (s1, p1), w1 in first.items():
                for (s2, p2), w2 in second.items():
                    ways = wb * w1 * w2
                    if s1 == NATURAL and s2 == NATURAL:
                        base[k][0] += ways * CARD
                        base[k][1] += ways * CARD
                        continue
                    entry = sets.setdefault((b, s1, s2), [[[0, 0] for _ in PAIRS], [[0, 0] for _ in PAIRS]])
                    drawn, stood = entry[0][k], entry[1][k]
                    stood[0] += ways * CARD * _against(s1, p1, b)
                    stood[1] += ways * CARD * _against(s2, p2, b)
                    for e, we in enumerate(POINT_WAYS):
                        drawn[0] += ways * we * _against(s1, p1, (b + e) % 10)
                        drawn[1] += ways * we * _against(s2, p2, (b + e) % 10)
    frozen = tuple(BanqueSet(b, s1, s2, _results(draw), _results(stand))
                   for (b, s1, s2), (draw, stand) in sorted(sets.items(), key=lambda item: _set_order(item[0])))
    return BanqueGame(_results(base), frozen)


def _results(rows: list[list[int]]) -> Results:
    return tuple((a, b) for a, b in rows)


def _set_order(key: tuple[int, State, State]) -> tuple[int, int, int]:
    b, s1, s2 = key
    return b, -2 if s1 is None else s1, -2 if s2 is None else s2


# ---------------------------------------------------------------- given strategies

BankerStrategy = Callable[[BanqueSet], Fraction]
"""The Banker's drawing probability in an information set."""


@dataclass(frozen=True, slots=True)
class BanqueResult:
    """Each hand's expectation per unit staked on it, and the Banker's per unit staked in all
    (``-(theta * first + (1 - theta) * second)``)."""

    first: Fraction
    second: Fraction
    banker: Fraction


def _pair_weights(x1: Fraction, x2: Fraction) -> tuple[Fraction, ...]:
    """The chances of the four pure pairs when the Players draw on 5 independently with ``x1``, ``x2``."""
    return tuple((x1 if d1 else 1 - x1) * (x2 if d2 else 1 - x2) for d1, d2 in PAIRS)


def _check_theta(theta: Fraction) -> None:
    if not 0 < theta < 1:
        raise BanqueError(f"the share staked on hand 1 is strictly between 0 and 1, got {theta}")


def evaluate(game: BanqueGame, theta: Fraction, player: tuple[Fraction, Fraction],
             banker: BankerStrategy) -> BanqueResult:
    """Exact expectations when Player 1 and Player 2 draw on 5 with probabilities ``player`` (independently)
    and the Banker draws with ``banker(set)`` in each of his information sets."""
    _check_theta(theta)
    return _hands(game, theta, _pair_weights(*player), banker)


# ---------------------------------------------------------------- the cooperative equilibria


@dataclass(frozen=True, slots=True)
class Cooperative:
    """The correlated cooperative equilibrium for stakes ``theta``: the Players' value per unit staked in all,
    their chances of the :data:`PAIRS` (and whether those are the only optimal ones), the Banker's drawing
    probability per set, each hand's expectation, and ``independent``: the Players' drawing probabilities on
    5 when independent choices reach the optimum (``None`` when not, or undecided if it is not unique)."""

    theta: Fraction
    value: Fraction
    pairs: tuple[Fraction, ...]
    pairs_unique: bool
    banker: tuple[Fraction, ...]
    hands: BanqueResult
    independent: tuple[Fraction, Fraction] | None
    certificate: Certificate


def _pooled(results: Results, theta: Fraction) -> tuple[Number, ...]:
    """The Players' pooled result per pure pair, in ways of ``1 / theta.denominator`` of a unit."""
    n, m = theta.numerator, theta.denominator
    return tuple(n * a + (m - n) * b for a, b in results)


def _dot(row: Sequence[Number], weights: Sequence[Number]) -> Number:
    return sum((a * w for a, w in zip(row, weights, strict=True)), 0)


@dataclass(frozen=True, slots=True)
class _Pooled:
    """The pooled Players against the Banker, per pure pair: the coups he does not decide (``base``), plus
    the sets where one choice is his best whatever they do (``fixed``); the contested sets; every set's
    ``draw`` and ``stand``."""

    base: tuple[Number, ...]
    fixed: tuple[Number, ...]
    choice: tuple[Fraction | None, ...]
    contested: tuple[int, ...]
    draw: tuple[tuple[Number, ...], ...]
    stand: tuple[tuple[Number, ...], ...]

    @classmethod
    def of(cls, game: BanqueGame, theta: Fraction) -> _Pooled:
        base = _pooled(game.base, theta)
        fixed = list(base)
        choice: list[Fraction | None] = []
        contested = []
        draws, stands = [], []
        for i, bset in enumerate(game.sets):
            draw, stand = _pooled(bset.draw, theta), _pooled(bset.stand, theta)
            draws.append(draw)
            stands.append(stand)
            if all(d <= s for d, s in zip(draw, stand, strict=True)):  # the Banker draws (the Players' loss)
                choice.append(Fraction(1))
                fixed = [f + d for f, d in zip(fixed, draw, strict=True)]
            elif all(d >= s for d, s in zip(draw, stand, strict=True)):
                choice.append(Fraction(0))
                fixed = [f + s for f, s in zip(fixed, stand, strict=True)]
            else:
                choice.append(None)
                contested.append(i)
        return cls(base, tuple(fixed), tuple(choice), tuple(contested), tuple(draws), tuple(stands))

    def optimal_pairs(self, banker: Sequence[Fraction]) -> tuple[list[list[Number]], list[Number]]:
        """``A pi <= b``: the Players' strategies that are best replies to ``banker`` and to which ``banker`` is
        a best reply (in a zero-sum game, every optimal one): pi in the simplex, on the pure pairs that do
        best against ``banker``, leaving the Banker indifferent where he mixes and content where he does not."""
        results = self.results(banker)
        best = max(results)
        rows: list[list[Number]] = [[1] * len(PAIRS), [-1] * len(PAIRS)]
        rhs: list[Number] = [1, -1]
        for k, r in enumerate(results):
            if r < best:
                rows.append([int(j == k) for j in range(len(PAIRS))])
                rhs.append(0)
        for i in self.contested:
            gain = [d - s for d, s in zip(self.draw[i], self.stand[i], strict=True)]  # the Players' gain when he draws
            q = banker[i]
            if q > 0:  # he draws sometimes: drawing must not cost him (the Players gain no more than by his standing)
                rows.append(gain)
                rhs.append(0)
            if q < 1:
                rows.append([-g for g in gain])
                rhs.append(0)
        return rows, rhs

    def results(self, banker: Sequence[Fraction]) -> list[Number]:
        """The pooled Players' result per pure pair against the Banker's strategy."""
        return [self.base[k] + sum((q * self.draw[i][k] + (1 - q) * self.stand[i][k] for i, q in enumerate(banker)),
                                   Fraction(0)) for k in range(len(PAIRS))]

    def banker_program(self) -> tuple[list[Number], list[list[Number]], list[Number]]:
        """Minimise v (as ``-v+ + v-``) with every pure pair's result at most v, ``q_I`` in [0, 1]."""
        m = len(self.contested)
        c: list[Number] = [*([0] * m), -1, 1]
        rows: list[list[Number]] = []
        rhs: list[Number] = []
        for k in range(len(PAIRS)):
            base = self.fixed[k] + sum((self.stand[i][k] for i in self.contested), 0)
            rows.append([self.draw[i][k] - self.stand[i][k] for i in self.contested] + [-1, 1])
            rhs.append(-base)
        for j in range(m):
            rows.append([*(int(j == n) for n in range(m)), 0, 0])
            rhs.append(1)
        return c, rows, rhs


def cooperative(game: BanqueGame, theta: Fraction) -> Cooperative:
    """The correlated cooperative equilibrium for stakes ``theta`` (and the independent one, if reached),
    exactly, certified (see the module)."""
    _check_theta(theta)
    pooled = _Pooled.of(game, theta)
    bc, brows, brhs = pooled.banker_program()
    banker_lp = maximize(bc, brows, brhs)
    choice = list(pooled.choice)
    for i, q in zip(pooled.contested, banker_lp.point, strict=False):
        choice[i] = q
    banker = tuple(Fraction(0) if q is None else q for q in choice)
    rows, rhs = pooled.optimal_pairs(banker)
    pairs = maximize([0] * len(PAIRS), rows, rhs).point
    unit = theta.denominator * TOTAL_WAYS
    value = -banker_lp.value / unit
    certificate = Certificate(value, Fraction(_players_guaranteed(pooled, pairs), unit),
                              Fraction(max(pooled.results(banker)), unit))
    by_set = dict(zip(game.sets, banker, strict=True))
    hands = _hands(game, theta, pairs, lambda bset: by_set[bset])
    unique = single_valued(rows, rhs, range(len(PAIRS)))  # the Players' optimal chances of the pure pairs
    independent = None
    if unique and pairs[0] * pairs[3] == pairs[1] * pairs[2]:
        independent = (pairs[0] + pairs[1], pairs[0] + pairs[2])
    return Cooperative(theta, value, pairs, unique, banker, hands, independent, certificate)


def _players_guaranteed(pooled: _Pooled, pairs: Sequence[Fraction]) -> Number:
    """The least the Banker can hold the pooled Players to when they play ``pairs``."""
    result: Number = _dot(pooled.fixed, pairs)
    for i in pooled.contested:
        result += min(_dot(pooled.draw[i], pairs), _dot(pooled.stand[i], pairs))
    return result


def _hands(game: BanqueGame, theta: Fraction, pairs: Sequence[Fraction], banker: BankerStrategy) -> BanqueResult:
    """Each hand's expectation when the Players play the pure pairs with chances ``pairs``."""
    hands = [sum((w * game.base[k][i] for k, w in enumerate(pairs)), Fraction(0)) for i in (0, 1)]
    for bset in game.sets:
        q = banker(bset)
        for k, w in enumerate(pairs):
            for i in (0, 1):
                hands[i] += w * (q * bset.draw[k][i] + (1 - q) * bset.stand[k][i])
    first, second = hands[0] / TOTAL_WAYS, hands[1] / TOTAL_WAYS
    return BanqueResult(first, second, -(theta * first + (1 - theta) * second))

