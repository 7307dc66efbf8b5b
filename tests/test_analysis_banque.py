"""Baccara banque with replacement (exact_odds.analysis.banque): given strategies priced, and the cooperative
equilibria, checked against a brute-force play of the coups.

The brute force deals the three hands' two-card totals and every third card (weighted by their chances
with replacement) and plays each coup from the rules and the strategies alone: it shares nothing with
the game's information sets or the linear programs.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from exact_odds.analysis.banque import (
    NATURAL,
    BankerStrategy,
    BanqueError,
    BanqueSet,
    State,
    banque_game,
    cooperative,
    evaluate,
)
from exact_odds.core.choices import ChoiceRules, Decision
from exact_odds.core.tableau import STANDARD_TABLEAU

W = (4, 1, 1, 1, 1, 1, 1, 1, 1, 1)


def banker_against(rules: ChoiceRules, hand: int = 1) -> BankerStrategy:
    """A Banker who plays chemin de fer's ``rules`` (no free cell) against hand ``hand`` (1 or 2), or against
    the other hand when that one had a natural."""

    def strategy(bset: BanqueSet) -> Fraction:
        watched = (bset.first, bset.second) if hand == 1 else (bset.second, bset.first)
        state = watched[0] if watched[0] != NATURAL else watched[1]
        decision: Decision = rules.banker[bset.banker][0 if state is None else state + 1]
        if decision is None:
            raise BanqueError(f"rules {rules.name!r} leave the Banker's {bset.banker} free: fix every cell")
        return decision

    return strategy
TWO = [sum(W[a] * W[b] for a in range(10) for b in range(10) if (a + b) % 10 == t) for t in range(10)]

Banker = Callable[[int, State, State], Fraction]


def sign(p: int, b: int) -> int:
    return (p > b) - (p < b)


ONE_CARD = [[sum(W[e] * sign(p, (b + e) % 10) for e in range(10)) for b in range(10)] for p in range(10)]
"""A hand of final total p against a Banker of b who draws one card: its result in 13ths."""


def outcomes(total: int, draws_on_5: Fraction) -> list[tuple[State, int, Fraction]]:
    """A Player hand's (what the Banker sees, final total, chance out of 13) on a two-card total."""
    if total >= 8:
        return [(NATURAL, total, Fraction(13))]
    draws = Fraction(1) if total < 5 else draws_on_5 if total == 5 else Fraction(0)
    out: list[tuple[State, int, Fraction]] = [(c, (total + c) % 10, draws * W[c]) for c in range(10)]
    return [*out, (None, total, (1 - draws) * 13)]


def brute_force(x1: Fraction, x2: Fraction, banker: Banker) -> tuple[Fraction, Fraction]:
    """Each hand's expectation per unit staked on it."""
    results = [Fraction(0), Fraction(0)]
    for b in range(10):
        for t1 in range(10):
            for t2 in range(10):
                ways = TWO[b] * TWO[t1] * TWO[t2]
                if b >= 8 or (t1 >= 8 and t2 >= 8):
                    results[0] += ways * 13**3 * sign(t1, b)
                    results[1] += ways * 13**3 * sign(t2, b)
                    continue
                for s1, p1, w1 in outcomes(t1, x1):
                    for s2, p2, w2 in outcomes(t2, x2):
                        if not w1 or not w2:
                            continue
                        q = banker(b, s1, s2)
                        for i, (s, p) in enumerate(((s1, p1), (s2, p2))):
                            drawn = 13 if s == NATURAL else ONE_CARD[p][b]
                            stood = 13 * (1 if s == NATURAL else sign(p, b))
                            results[i] += ways * w1 * w2 * (q * drawn + (1 - q) * stood)
    return results[0] / 13**9, results[1] / 13**9


def by_set(strategy: Callable[[BanqueSet], Fraction]) -> Banker:
    game = banque_game()
    table = {(s.banker, s.first, s.second): strategy(s) for s in game.sets}
    return lambda b, s1, s2: table.get((b, s1, s2), Fraction(0))


def test_given_strategies_equal_brute_force() -> None:
    """The Banker playing punto banco's tableau against hand 1; Player 1 draws on 5 a third of the time."""
    rules = ChoiceRules.from_tableau(STANDARD_TABLEAU)
    strategy = banker_against(rules, 1)
    x1, x2, theta = Fraction(1, 3), Fraction(1), Fraction(2, 5)
    result = evaluate(banque_game(), theta, (x1, x2), strategy)
    assert (result.first, result.second) == brute_force(x1, x2, by_set(strategy))
    assert result.banker == -(theta * result.first + (1 - theta) * result.second)


def test_the_correlated_cooperative_equilibrium_is_certified_and_symmetric() -> None:
    game = banque_game()
    half = cooperative(game, Fraction(1, 2))
    assert half.certificate.holds and half.pairs_unique
    assert half.pairs == (Fraction(323, 543), Fraction(110, 543), Fraction(110, 543), Fraction(0))
    assert half.independent is None  # 323 * 0 != 110 * 110: the Players must correlate
    low, high = cooperative(game, Fraction(1, 10)), cooperative(game, Fraction(9, 10))
    assert low.value == high.value and low.pairs == (high.pairs[0], high.pairs[2], high.pairs[1], high.pairs[3])


def test_the_independent_cooperative_equilibrium_against_brute_force() -> None:
    """Stakes 1 to 2: the Players' optimum is reached independently, each drawing on 5 with 9/11."""
    theta = Fraction(1, 3)
    solution = cooperative(banque_game(), theta)
    assert solution.certificate.holds and solution.independent == (Fraction(9, 11), Fraction(9, 11))
    banker = dict(zip(banque_game().sets, solution.banker, strict=True))
    first, second = brute_force(Fraction(9, 11), Fraction(9, 11), by_set(lambda s: banker[s]))
    assert (first, second) == (solution.hands.first, solution.hands.second)
    assert theta * first + (1 - theta) * second == solution.value


@pytest.mark.parametrize("theta", [Fraction(0), Fraction(1), Fraction(3, 2)])
def test_stakes_outside_zero_one_are_refused(theta: Fraction) -> None:
    with pytest.raises(BanqueError, match="strictly between 0 and 1"):
        cooperative(banque_game(), theta)
