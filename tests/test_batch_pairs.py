"""Pairs in closed form (:mod:`exact_odds.batch.pairs`) against every ordered beginning of tiny
shoes, and against the four-card tables of the plans on random shoes, compiled and not."""

from __future__ import annotations

import dataclasses
from collections import Counter
from itertools import permutations

import numpy as np
from conftest import jit_setting
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.batch.coefficients import coefficients
from exact_odds.batch.monomials import table_codes
from exact_odds.batch.pairs import suited_states
from exact_odds.batch.plan import make_weighted_plan, ways
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
                      min_size=4, max_size=9).map(_grid)  # few ranks and suits: pairs and suited pairs are common


@settings(max_examples=25, deadline=None)
@given(small_grid)
@example([[4, 0, 0, 0]] + [[0] * 4] * 12)  # four cards of one rank and suit
@example([[2, 2, 0, 0], [1, 1, 0, 0]] + [[0] * 4] * 11)
def test_closed_forms_count_every_beginning(grid: list[list[int]]) -> None:
    suits = np.array([grid], dtype=np.int64)
    counts = suits.sum(axis=2)
    states = suited_states(counts, suits, counts.sum(axis=1))
    brute = brute_states(grid)
    assert {s: int(v[0]) for s, v in states.items() if v[0]} == dict(brute)


def _state_plan(detail: Detail, seed: int) -> tuple[object, object]:
    """A plan with one functional per flag state of ``detail`` and one of random weights on every state,
    and the same plan without its closed forms."""
    co = coefficients(STANDARD_TABLEAU, detail)
    codes = table_codes(co)
    states = np.unique(codes // PLAYER_PAIR)
    weights = np.zeros((int(codes.max()) + 1, len(states) + 1), dtype=np.int64)
    for f, state in enumerate(states.tolist()):
        weights[codes[codes // PLAYER_PAIR == state], f] = 1
    weights[codes, -1] = np.random.default_rng(seed).integers(0, 9, size=len(states))[
        np.searchsorted(states, codes // PLAYER_PAIR)]
    plan = make_weighted_plan(co, weights)
    assert plan.flags is not None
    return plan, dataclasses.replace(plan, flags=None)


grids = st.lists(st.lists(st.lists(st.integers(0, 28), min_size=4, max_size=4), min_size=13, max_size=13),
                 min_size=1, max_size=6).filter(lambda gs: all(sum(map(sum, g)) >= 6 for g in gs))


@settings(max_examples=15, deadline=None)
@given(grids, st.sampled_from([Detail.RANKS, Detail.SUITS]), st.sampled_from(["0", "1"]))
@example([[[28] * 4] * 13, [[21] * 4] * 13, [[1] * 4] * 13], Detail.SUITS, "1")  # past, at and far below the bound
def test_closed_forms_equal_the_four_card_tables(grid: list[list[list[int]]], detail: Detail, jit: str) -> None:
    suits = np.array(grid, dtype=np.int64)
    counts = suits.sum(axis=2)
    plan, tables = _state_plan(detail, len(grid))
    with jit_setting(jit):
        closed = ways(plan, counts, suits, None)  # type: ignore[arg-type]
        by_tables = ways(tables, counts, suits, None)  # type: ignore[arg-type]
    assert np.array_equal(closed, by_tables)
