"""The casino game of chemin de fer (exact_odds.analysis.chemin): every Nash equilibrium, checked.

With no commission the game is the parlour game and its equilibria are the zero-sum solution. With a
commission, each equilibrium's expectations are checked by brute force (every permutation of six cards
of a small shoe, scoring each side's result from the strategies alone, as tests/test_analysis_chemin.py
does), the Player's pure deviations by brute force too, and the list of equilibria against a second,
one-dimensional search (models 1 and 2: the Player has one number to choose).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import pairwise, permutations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_analysis_chemin import SMALL, point_cards, result, sign, solution_rules

from exact_odds.analysis.chemin import (
    Certificate,
    CommissionGame,
    Information,
    Solution,
    StrategyError,
    affine_at,
    banker_score,
    commission_game,
    equilibria,
    solve,
)
from exact_odds.core.choices import ChoiceRules
from exact_odds.core.shoe import Shoe

Score = Callable[[int, int], Fraction]


def rules_of(game: CommissionGame, player: Sequence[Fraction], banker: Sequence[Fraction | None]) -> ChoiceRules:
    """A pair of strategies written as rules without free cells (through test_analysis_chemin's solution_rules)."""
    zero = Certificate(Fraction(0), Fraction(0), Fraction(0))
    return solution_rules(Solution(game.player, Fraction(0), tuple(player), tuple(banker), zero, True, True))


def sequences(shoe: Shoe) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Every ordered six-card sequence of the shoe's point values, with how many permutations give it."""
    return tuple(Counter(permutations(point_cards(shoe), 6)).items())


def brute_force(shoe: Shoe, information: Information, rules: ChoiceRules, score: Score) -> Fraction:
    dealt = sequences(shoe)
    total = sum(n for _, n in dealt)
    return sum((n * result(seq, information, rules, score) for seq, n in dealt), Fraction(0)) / total


def player_score(p: int, b: int) -> Fraction:
    return Fraction(sign(p, b))


def banker_scorer(commission: Fraction) -> Score:
    return lambda p, b: -sign(p, b) - commission * (p < b)


def banker_wins(p: int, b: int) -> Fraction:
    return Fraction(p < b)


@pytest.mark.parametrize("shoe", [SMALL, Shoe.decks(1), Shoe.infinite_deck()], ids=str)
@pytest.mark.parametrize("information", list(Information))
def test_without_commission_the_equilibria_are_the_parlour_solution(shoe: Shoe, information: Information) -> None:
    if information is Information.OWN_CARDS and shoe.infinite:
        pytest.skip("A3: the Player's optimal strategies form a continuum (covered below)")
    found = equilibria(commission_game(shoe, information, Fraction(0)))
    solution = solve(commission_game(shoe, information, Fraction(0)).player)
    assert solution.player_unique and len(found.equilibria) == 1 and not found.continuum
    only = found.equilibria[0]
    assert only.player == solution.player and only.certificate.holds
    assert (only.player_ev, only.banker_ev, only.house_take) == (solution.value, -solution.value, Fraction(0))
    assert only.banker_unique == solution.banker_unique


def test_a3_without_commission_is_a_continuum_of_optimal_strategies() -> None:
    found = equilibria(commission_game(Shoe.infinite_deck(), Information.OWN_CARDS, Fraction(0)))
    value = solve(found.game.player).value
    assert found.continuum and len(found.equilibria) > 1 and not found.unique
    assert all(e.player_ev == value and e.certificate.holds for e in found.equilibria)


@pytest.mark.parametrize("commission", [Fraction(1, 20), Fraction(1, 10)])
@pytest.mark.parametrize("information", list(Information))
def test_equilibria_equal_brute_force_on_a_small_shoe(information: Information, commission: Fraction) -> None:
    game = commission_game(SMALL, information, commission)
    found = equilibria(game)
    assert found.equilibria
    for e in found.equilibria:
        assert e.certificate.holds
        rules = rules_of(game, e.player, e.banker)
        assert brute_force(SMALL, information, rules, player_score) == e.player_ev
        assert brute_force(SMALL, information, rules, banker_scorer(commission)) == e.banker_ev
        assert brute_force(SMALL, information, rules, banker_wins) * commission == e.house_take
        for j in range(len(e.player)):  # no pure deviation of the Player gains, by brute force
            for pure in (Fraction(0), Fraction(1)):
                moved = rules_of(game, [*e.player[:j], pure, *e.player[j + 1:]], e.banker)
                assert brute_force(SMALL, information, moved, player_score) <= e.player_ev


def one_dimensional(game: CommissionGame) -> list[Fraction]:
    """The equilibrium x of a game where the Player has one number: a second search, by the breakpoints.

    Between the roots of the Banker's differences his best reply is fixed, so x is an equilibrium iff the
    Player's gradient can be made 0 (inside), <= 0 (at 0) or >= 0 (at 1) by the Banker's indifferent sets."""
    free = [i for i, b in enumerate(game.player.banker_sets) if b.decision is None]
    deltas = [game.banker.banker_sets[i].difference for i in free]
    roots = {Fraction(-d[0], d[1]) for d in deltas if d[1] and 0 < Fraction(-d[0], d[1]) < 1}
    points = sorted({Fraction(0), Fraction(1), *roots})
    candidates = sorted({*points, *((a + b) / 2 for a, b in pairwise(points))})
    found = []
    for x in candidates:
        low = high = game.player.base[1] + sum(game.player.banker_sets[i].stand[1] for i in free)
        for i, d in zip(free, deltas, strict=True):
            slope = game.player.banker_sets[i].difference[1]
            at = affine_at(d, (x,))
            if at > 0:
                low, high = low + slope, high + slope
            elif at == 0:
                low, high = low + min(0, slope), high + max(0, slope)
        if (x == 0 and low <= 0) or (x == 1 and high >= 0) or (0 < x < 1 and low <= 0 <= high):
            found.append(x)
    return found


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=10, max_size=10).filter(lambda c: 8 <= sum(c) <= 16),
       st.sampled_from([Information.TOTALS, Information.BANKER_CARDS]),
       st.fractions(0, Fraction(1, 10), max_denominator=40))
@example([2, 1, 1, 0, 1, 1, 0, 1, 1, 0], Information.TOTALS, Fraction(1, 20))
@example([0, 0, 0, 0, 0, 2, 3, 0, 3, 0], Information.TOTALS, Fraction(0))
def test_every_equilibrium_is_found(points: list[int], information: Information, commission: Fraction) -> None:
    """On random small shoes, the equilibria are those a one-dimensional search finds (none lost, none extra)."""
    shoe = Shoe.from_counts([*points[1:], points[0], 0, 0, 0])
    game = commission_game(shoe, information, commission)
    found = equilibria(game)
    if not game.player.player_sets:  # no two-card 5 in this shoe: the Banker's best reply alone
        assert [e.player for e in found.equilibria] == [()] and found.equilibria[0].certificate.holds
        return
    expected = one_dimensional(game)
    if found.continuum:  # the vertices among the points the search finds, and its ends
        xs = [e.player[0] for e in found.equilibria]
        assert set(xs) <= set(expected) and (xs[0], xs[-1]) == (expected[0], expected[-1])
    else:
        assert [e.player[0] for e in found.equilibria] == expected
    assert all(e.certificate.holds for e in found.equilibria)


def test_the_banker_score_and_the_bounds() -> None:
    score = banker_score(Fraction(1, 20))
    assert score[3][5] == 19 and score[5][3] == -20 and score[4][4] == 0
    with pytest.raises(StrategyError, match="from 0 to 1/10"):
        commission_game(SMALL, Information.TOTALS, Fraction(1, 5))


def test_the_casino_game_with_five_percent() -> None:
    """Model A1, 5%: one equilibrium; the Player draws on 5 with 179/214; the house takes 5% of the Banker's wins."""
    found = equilibria(commission_game(Shoe.infinite_deck(), Information.TOTALS, Fraction(1, 20)))
    assert found.unique
    only = found.equilibria[0]
    assert only.player == (Fraction(179, 214),) and only.certificate.holds
    assert only.player_ev == Fraction(-679568, 53094899)
    assert only.house_take == -(only.player_ev + only.banker_ev) > 0
