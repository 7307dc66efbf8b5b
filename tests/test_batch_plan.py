"""Exact arithmetic by shoe size (:mod:`exact_odds.batch.plan`): the one
kernel in float64 (shoes of at most 456 cards, sums checked below ``2**53``), in int64 (sums below ``2**63``)
and in Python integers (any shoe), each against the reference enumerator, with NumPy alone and with the
compiled loops (``EXACT_ODDS_JIT=0`` and ``1``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from conftest import jit_setting
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds.batch import evaluate
from exact_odds.batch.coefficients import INT64_MAX_CARDS, falling_table, sequences
from exact_odds.bets import find_bet, registered
from exact_odds.core.coup import Detail, Payable
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe, falling
from exact_odds.engine.enumerator import deal
from exact_odds.engine.polynomial import FLOAT_MAX_CARDS

BETS = registered()
SETTINGS = ["0", "1"]


def _against_reference(counts: list[list[int]], bets: Sequence[Payable], setting: str,
                       suits: Sequence[Any] | None = None) -> None:
    """Every expectation and outcome of ``evaluate`` equals the reference enumerator's."""
    with jit_setting(setting):
        ev = evaluate(counts, bets=bets, suits=suits)
    for i, row in enumerate(counts):
        shoe = Shoe(tuple(row), None if suits is None else suits[i])
        winners = deal(shoe).map(lambda coup: coup.winner)
        assert ev.sequences[i] == falling(sum(row), CARDS_PER_COUP)
        assert ev.outcomes[i].tolist() == [winners.ways(o) for o in ("banker", "player", "tie")]
        for j, bet in enumerate(ev.bets):
            assert ev.expectation(i, j) == deal(shoe, detail=bet.detail).expectation(bet.payout), bet.name


def test_falling_table_in_every_dtype() -> None:
    n = np.array([0, 1, 5, 456, 1449, 40_000 * 13])
    expected = [[falling(int(x), j) for x in n] for j in range(CARDS_PER_COUP + 1)]
    assert falling_table(n.astype(object)).tolist() == expected
    assert falling_table(n[:4].astype(np.float64)).tolist() == [row[:4] for row in expected]
    assert falling_table(n[:5]).tolist() == [row[:5] for row in expected]
    assert falling_table(np.array([1, 3]), 2).tolist() == [[1, 1], [-1, 1], [2, 0], [-6, 0], [24, 0], [-120, 0],
                                                          [720, 0]]


def test_sequences_past_int64() -> None:
    sizes = np.array([6, 1448, 1449, 520_000, 2_097_151, 2_097_152, 10**12], dtype=np.int64)
    assert sequences(sizes).tolist() == [falling(int(n), CARDS_PER_COUP) for n in sizes.tolist()]
    assert sequences(sizes[:2]).dtype == np.int64 and sequences(sizes).dtype == object


@pytest.mark.parametrize("setting", SETTINGS)
def test_each_size_class_equals_the_reference(setting: str) -> None:
    """Shoes at the bounds of each way: float64, int64, Python integers (40 and 10,000 decks)."""
    counts = [[35] * 12 + [FLOAT_MAX_CARDS - 35 * 12], [35] * 12 + [FLOAT_MAX_CARDS + 1 - 35 * 12],
              [112] * 12 + [INT64_MAX_CARDS - 112 * 12], [112] * 12 + [INT64_MAX_CARDS + 1 - 112 * 12],
              [160] * 13, [40_000] * 12 + [39_990]]
    bets = [find_bet("banker"), find_bet("tie"), find_bet("player pair"), find_bet("dragon-7"),
            find_bet("perfect-pair")]
    grids = [tuple(tuple(c // 4 + (s < c % 4) for s in range(4)) for c in row) for row in counts]
    _against_reference(counts, bets, setting, grids)


@pytest.mark.parametrize("setting", SETTINGS)
def test_every_bet_on_forty_decks_equals_the_reference(setting: str) -> None:
    """Every registered bet on depleted 40-deck shoes (past int64), suits known."""
    rng = np.random.default_rng(40)
    grids = (40 - rng.integers(0, 12, size=(2, 13, 4))).tolist()
    counts = [[sum(suits) for suits in grid] for grid in grids]
    _against_reference(counts, BETS, setting, [tuple(tuple(s) for s in grid) for grid in grids])


def _shoe(decks: int, drawn: list[int], single: int | None) -> list[int]:
    """A shoe of ``decks`` decks less ``drawn`` cards of each rank, or of one rank alone."""
    if single is not None:
        return [4 * decks if rank == single else 0 for rank in range(13)]
    return [max(0, 4 * decks - d) for d in drawn]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10_000), st.lists(st.integers(0, 60), min_size=13, max_size=13),
                          st.none() | st.integers(0, 12)), min_size=1, max_size=3), st.sampled_from(SETTINGS))
def test_random_shoes_of_up_to_ten_thousand_decks_equal_the_reference(
        shoes: list[tuple[int, list[int], int | None]], setting: str) -> None:
    """Random shoes of 1 to 10,000 decks (single-rank shoes among them), one just past 1,448 cards."""
    counts = [_shoe(*shoe) for shoe in shoes] + [[112] * 12 + [1449 - 112 * 12]]
    counts = [c for c in counts if sum(c) >= CARDS_PER_COUP]
    _against_reference(counts, [find_bet("banker"), find_bet("tie"), find_bet("player pair")], setting)


def test_gigantic_shoes_equal_the_reference() -> None:
    """Shoes of about 2**40 and 2**55 cards, in Python integers throughout."""
    counts = [[2**36 + k for k in range(13)], [2**51 - 7 * k for k in range(13)]]
    _against_reference(counts, [find_bet("banker"), find_bet("player pair")], "0")


def test_mixed_sizes_keep_their_rows() -> None:
    """Small, int64 and wide shoes in one call: each row as when evaluated alone."""
    counts = [[4] * 13, [160] * 13, [80] * 13, [32] * 13, [160] * 12 + [150]]
    bets = [b for b in BETS if b.detail is not Detail.SUITS]
    together = evaluate(counts, bets=bets)
    for i, row in enumerate(counts):
        alone = evaluate([row], bets=bets)
        assert together.outcomes[i].tolist() == alone.outcomes[0].tolist()
        assert together.numerators[i].tolist() == alone.numerators[0].tolist()
