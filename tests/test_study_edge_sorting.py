"""Edge sorting (:mod:`exact_odds.study.edge_sorting`): the value of knowing the group of a coup's first card,
against brute force over every ordered six-card sequence of tiny shoes, and a published 8-deck figure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracle import play

from exact_odds.analysis.information import Information
from exact_odds.bets import find_bet
from exact_odds.core.coup import Coup, Payable
from exact_odds.core.shoe import RANKS, Card
from exact_odds.study.edge_sorting import SIT_OUT, coup_values

MAIN = [find_bet(n) for n in ("banker", "player", "tie")]
HIGH = Information.grouped([1], {"high": "6|7|8|9"})


def brute_sorting(counts: list[int], info: Information, bets: Sequence[Payable]) -> tuple[list[Fraction], list[int]]:
    """Values with and without the group, and the choices, over every ordered six-card sequence."""
    cards = [Card(RANKS[r]) for r, n in enumerate(counts) for _ in range(n)]
    labels = info.labels[0]
    ways: dict[str, Counter[Coup]] = {label: Counter() for label in labels}
    for seq in permutations(cards, 6):
        ways[info.label_of(0, seq[0].rank, None)][play(seq)] += 1
    total = sum(sum(c.values()) for c in ways.values())
    sums = {g: [sum((w * bet.payout(c) for c, w in ways[g].items()), Fraction(0)) for bet in bets] for g in labels}
    value, choices = Fraction(0), []
    for g in labels:
        best = max(range(len(bets)), key=lambda b: (sums[g][b], -b))
        positive = sum(ways[g].values()) > 0 and sums[g][best] > 0
        choices.append(best if positive else SIT_OUT)
        value += sums[g][best] / total if positive else 0
    plain = [sum((sums[g][b] for g in labels), Fraction(0)) for b in range(len(bets))]
    best = max(range(len(bets)), key=lambda b: (plain[b], -b))
    choices.append(best if plain[best] > 0 else SIT_OUT)
    return [value, max(plain[best], Fraction(0)) / total], choices


tiny_counts = st.lists(st.integers(0, 12), min_size=6, max_size=8).map(lambda ranks: [ranks.count(i)
                                                                                      for i in range(13)])


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(tiny_counts, st.sampled_from(["6|7|8|9", "7|8|9", "A|2|3", "T|J|Q|K"]))
@example([0, 0, 2, 1, 0, 1, 2, 1, 1, 0, 0, 0, 0], "6|7|8|9")
@example([1, 0, 0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 2], "T|J|Q|K")  # courts in the group: kinds are ranks
def test_edge_sorting_values_equal_brute_force(counts: list[int], group: str) -> None:
    info = Information.grouped([1], {"in": group})
    bets = [*MAIN, find_bet("dragon-7"), find_bet("player-pair")]
    values, choices = coup_values([counts], info, bets)
    exact, expected_choices = brute_sorting(counts, info, bets)
    assert values[0].tolist() == pytest.approx([float(x) for x in exact], rel=1e-12, abs=1e-15)
    assert choices[0].tolist() == expected_choices


def test_an_eight_deck_shoe_by_hand() -> None:
    """Knowing high (6-9) or not of card 1 of 8 decks is worth Jacobson's 6.765% (banker or player)."""
    values, choices = coup_values([[32] * 13, [32] * 9 + [0] * 4], HIGH, MAIN[:2])
    assert round(100 * values[0, 0], 3) == 6.765 and values[0, 1] == 0.0
    assert choices[0].tolist() == [1, 0, SIT_OUT]
    assert values[1, 0] > values[1, 1] >= 0  # no tens: still worth knowing


def test_edge_sorting_plan_sums_in_bounded_pieces() -> None:
    """The plan's sums are the same integers whether the functionals are summed at once or a few at a time."""
    import numpy as np

    import exact_odds.batch.coefficients as tables
    from exact_odds.batch.coefficients import coefficients
    from exact_odds.core.coup import Detail
    from exact_odds.core.tableau import STANDARD_TABLEAU

    co = coefficients(STANDARD_TABLEAU, Detail.POINTS)
    rng = np.random.default_rng(1)
    weights = rng.integers(0, 3, size=(int(co.coup.max()) + 1, 40)).astype(np.int64)
    digits, summed = tables.monomial_sums(co, weights)
    saved = tables._CHUNK
    try:
        tables._CHUNK = 1  # one functional at a time
        digits_1, summed_1 = tables.monomial_sums(co, weights)
    finally:
        tables._CHUNK = saved
    m = tables._monomials(co)
    whole = np.add.reduceat(m.count[:, None] * weights[m.coup], m.starts, axis=0)
    assert (digits == digits_1).all() and (summed == whole).all() and (summed_1 == whole).all()
