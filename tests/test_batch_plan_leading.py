"""The four-card stage of the plans (:mod:`exact_odds.batch.plan`, its tables in
:mod:`exact_odds.batch.coefficients`): the ways of each pair-flag state of the first four cards, times
``(N-4)(N-5)``, against every ordered beginning of tiny shoes, with NumPy alone and compiled."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import permutations

import numpy as np
from conftest import jit_setting
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.batch.coefficients import LEADING_CARDS, coefficients, table_codes
from exact_odds.batch.plan import Plan, make_weighted_plan, ways
from exact_odds.core.coup import PLAYER_PAIR, Detail
from exact_odds.core.tableau import STANDARD_TABLEAU


def brute_states(grid: list[list[int]]) -> Counter[int]:
    """The ways of each flag state (and suited variant) counted over every ordered choice of four
    distinct cards dealt player, banker, player, banker."""
    cards = [(rank, suit) for rank, row in enumerate(grid) for suit, n in enumerate(row) for _ in range(n)]
    found: Counter[int] = Counter()
    for p1, b1, p2, b2 in permutations(cards, 4):
        pp, bp = p1[0] == p2[0], b1[0] == b2[0]
        state = pp + 2 * bp + 16 * (pp and bp and p1[0] == b1[0])
        for x in range(1 + (p1 == p2)):  # a variant bit restricts its hand's pair to be suited
            for y in range(1 + (b1 == b2)):
                found[state + 4 * x + 8 * y] += 1
    return found


def _grid(cards: list[tuple[int, int]]) -> list[list[int]]:
    """Counts per rank and suit of ``cards`` (rank, suit)."""
    grid = [[0] * 4 for _ in range(13)]
    for rank, suit in cards:
        grid[rank][suit] += 1
    return grid


small_grid = st.lists(st.tuples(st.integers(0, 12) | st.integers(0, 2), st.integers(0, 3) | st.just(0)),
                      min_size=6, max_size=9).map(_grid)  # few ranks and suits: pairs and suited pairs are common


@cache
def _state_plan(detail: Detail) -> tuple[Plan, tuple[int, ...]]:
    """A plan with one functional per flag state of ``detail`` (its only stage the four-card one), and the states."""
    co = coefficients(STANDARD_TABLEAU, detail)
    codes = table_codes(co)
    states = np.unique(codes // PLAYER_PAIR)
    weights = np.zeros((int(codes.max()) + 1, len(states)), dtype=np.int64)
    for f, state in enumerate(states.tolist()):
        weights[codes[codes // PLAYER_PAIR == state], f] = 1
    plan = make_weighted_plan(co, weights)
    assert [stage.depth for stage in plan.stages] == [LEADING_CARDS]
    return plan, tuple(states.tolist())


@settings(max_examples=25, deadline=None)
@given(small_grid, st.sampled_from([Detail.RANKS, Detail.SUITS]), st.sampled_from(["0", "1"]))
@example([[4, 0, 0, 0], [2, 0, 0, 0]] + [[0] * 4] * 11, Detail.SUITS, "0")  # four cards of one rank and suit
@example([[2, 2, 0, 0], [1, 1, 0, 0]] + [[0] * 4] * 11, Detail.SUITS, "1")
def test_the_four_card_stage_counts_every_beginning(grid: list[list[int]], detail: Detail, jit: str) -> None:
    suits = np.array([grid], dtype=np.int64)
    counts = suits.sum(axis=2)
    plan, states = _state_plan(detail)
    with jit_setting(jit):
        found = ways(plan, counts, suits)[0].tolist()
    size = int(counts.sum())
    brute = brute_states(grid)
    assert found == [brute[state] * (size - 4) * (size - 5) for state in states]  # at RANKS: no suited variants
