"""The compiled float path's shape (:func:`exact_odds.batch.plan._compiled_float_rows`): the main bets' six-card parts
weighed as they are made (never stored), blocks of one shape stacked into one BLAS call; the same
integers as Python's and as the reference enumerator, up to the 456-card limit of exact floats."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import jit_setting

from exact_odds.batch import compiled, evaluate
from exact_odds.batch import plan as plan_module
from exact_odds.batch.evaluation import _bet_pass
from exact_odds.batch.plan import CHUNK
from exact_odds.bets import registered
from exact_odds.core.coup import Detail
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.engine.enumerator import deal, winners
from exact_odds.engine.polynomial import FLOAT_MAX_CARDS

pytest.importorskip("numba")


@pytest.mark.parametrize("tail", [0, 1, 3, 4, 5, 8, 11])
def test_weighed_tail_equals_integers(tail: int) -> None:
    """``weighed_tail`` (four parts at a time and the rest one by one) sums the tail's weighed
    values as Python integers do, and stores nothing past the stored rows."""
    fast = compiled.chosen(compiled.KERNEL, 10**9)
    assert fast is not None
    rng = np.random.default_rng(tail)
    stored, width = 9, 37
    values = rng.integers(0, 2**20, size=(stored, width)).astype(np.float64)
    factors = rng.integers(0, 2**12, size=(6, width)).astype(np.float64)
    parent = np.r_[np.zeros(stored, dtype=np.int64), rng.integers(0, stored, size=tail)]
    factor = np.r_[np.zeros(stored, dtype=np.int64), rng.integers(0, 6, size=tail)]
    weights = rng.integers(0, 2**10, size=(2, tail)).astype(np.float64)
    sums = np.full((2, width), -1.0)
    before = values.copy()
    fast.weighed_tail(factors, parent, factor, values, weights, sums)
    made = [[int(values[parent[p], i]) * int(factors[factor[p], i]) for i in range(width)]
            for p in range(stored, stored + tail)]
    expected = [[sum(int(weights[f, k]) * made[k][i] for k in range(tail)) for i in range(width)] for f in range(2)]
    assert sums.astype(np.int64).tolist() == expected
    assert np.array_equal(values, before)


def test_main_bets_weigh_their_six_card_parts_and_stack_blocks() -> None:
    """The main bets' plan stores only the parts of up to five cards; its six-card parts (both
    groups') are weighed into the row of the empty part; the blocks of one shape over adjacent
    rows (one card by five, five by one; two by four, four by two) are one BLAS call each. The
    every-bet plan (18 functionals) stores every part, and its larger products go in pieces. Matrices
    get rows of zeros up to a multiple of four lines (partial sums weighed by the empty part, row 0)."""
    plan = _bet_pass(STANDARD_TABLEAU, Detail.POINTS, ()).plan
    work = plan_module.prepared(plan, CHUNK)
    first, end = plan.layout.levels[-1]
    assert work.values.shape == (first, CHUNK) and end == len(plan.layout.parent)
    assert work.weights.shape == (2, end - first) and work.sums.shape == (2, CHUNK)
    (stage,) = work.stages
    assert sorted(matrix.shape for matrix, _, _ in stage.products) == [(2, 12, 126), (2, 32, 70), (72, 35)]  # padded
    assert (stage.products[0][0][70:] == 0).all()
    assert stage.rows.tolist().count(0) == 6  # five rows of padding and the tail's
    assert np.shares_memory(work.sums, stage.partial)
    every = _bet_pass(STANDARD_TABLEAU, Detail.POINTS, tuple(b for b in registered() if b.detail is Detail.POINTS))
    wide = plan_module.prepared(every.plan, CHUNK // 2)
    assert wide.values.shape[0] == len(every.plan.layout.parent) and wide.weights.shape == (2, 0)
    shapes = sorted(matrix.shape for stage in wide.stages for matrix, _, _ in stage.products)
    assert shapes == [(2, 2, 54, 126), (2, 3, 96, 70), (3, 216, 35), (18, 420)]  # rows padded, in pieces
    assert all(m.shape[-2] * m.shape[-1] * CHUNK // 2 <= plan_module.BLAS_WORK for m, _, _ in wide.stages[0].products)


def test_pieces_of_products_alike() -> None:
    """The every-bet plan's products in pieces (:data:`exact_odds.batch.plan.BLAS_WORK`), in
    chunks and a remainder: the same integers as the NumPy path."""
    rng = np.random.default_rng(17)
    counts = (32 - rng.integers(0, 24, size=(CHUNK + 7, 13))).clip(0)
    bets = [b for b in registered() if b.detail is Detail.POINTS]
    with jit_setting("1"):
        fast = evaluate(counts, bets=bets)
    with jit_setting("0"):
        slow = evaluate(counts, bets=bets)
    assert fast.numerators.tolist() == slow.numerators.tolist()
    assert fast.outcomes.tolist() == slow.outcomes.tolist()


def _near_the_limit(n: int, seed: int) -> np.ndarray:
    """``n`` shoes of 440 to 456 cards (the largest whose part values float64 holds), uneven ranks."""
    rng = np.random.default_rng(seed)
    counts = np.full((n, 13), 35, dtype=np.int64)
    counts[:, 0] += 1  # 456 cards
    for row in counts:
        for _ in range(rng.integers(0, 17)):
            row[rng.integers(0, 13)] -= 1
    return counts


def test_compiled_chunks_equal_the_reference_near_456_cards() -> None:
    """Shoes of 440 to 456 cards, in chunks with a remainder, on the compiled path: banker, player
    and tie equal to the reference enumerator's (a few) and to the NumPy path's (all)."""
    counts = _near_the_limit(CHUNK + 3, 13)
    assert counts.sum(axis=1).max() == FLOAT_MAX_CARDS
    with jit_setting("1"):
        fast = evaluate(counts)
    with jit_setting("0"):
        slow = evaluate(counts)
    assert fast.outcomes.tolist() == slow.outcomes.tolist()
    for i in (0, 1, CHUNK + 2):
        dist = winners(deal(Shoe(tuple(int(c) for c in counts[i]))))
        assert fast.outcomes[i].tolist() == [dist["banker"], dist["player"], dist["tie"]]


def test_a_suited_plan_of_whole_coups_alike() -> None:
    """A plan at ``Detail.SUITS`` whose functionals (the winner, with the player's suited pair)
    depend on more than the pair flags takes the compiled chunks with suit counts
    (the suited factor table in NumPy, the rest compiled): the same integers as the NumPy path, chunks and
    a remainder."""
    from exact_odds.batch.coefficients import coefficients
    from exact_odds.batch.plan import make_plan, ways
    from exact_odds.core.coup import COUP_CODES, PLAYER_SUITED, winner_index

    codes = np.arange(COUP_CODES)
    class_of = winner_index(codes) * 2 + (codes // PLAYER_SUITED) % 2
    plan = make_plan(coefficients(STANDARD_TABLEAU, Detail.SUITS), class_of, 6)
    assert len(plan.stages[-1].functionals) > 2
    rng = np.random.default_rng(3)
    grid = (4 - rng.integers(0, 4, size=(CHUNK + 5, 13, 4))).clip(0)
    counts = grid.sum(axis=2)
    with jit_setting("1"):
        fast = ways(plan, counts, grid)
    with jit_setting("0"):
        slow = ways(plan, counts, grid)
    assert fast.tolist() == slow.tolist() and fast.any()


def test_weighed_sums_past_the_float_limit_redone(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the float limit lowered below the main bets' sums, every composition of the compiled
    chunks (their six-card parts weighed, not stored) is flagged and redone exactly: all of them
    reach the exact path, and the integers are those of the limit in force."""
    counts = _near_the_limit(CHUNK + 9, 5)
    counts[::5, :3] -= 10  # smaller shoes among them (about 410 cards): every sum still past 2**40
    with jit_setting("1"):
        expected = evaluate(counts).outcomes.tolist()
        redone: list[int] = []
        numpy_rows = plan_module._numpy_rows

        def spy(plan: object, rows: np.ndarray, *args: object, floats: bool) -> list[np.ndarray]:
            if not floats:
                redone.extend(rows.tolist())
            return numpy_rows(plan, rows, *args, floats=floats)  # type: ignore[arg-type]

        monkeypatch.setattr(plan_module, "_numpy_rows", spy)
        monkeypatch.setattr(plan_module, "FLOAT_EXACT", 2**40)
        found = evaluate(counts).outcomes.tolist()
    assert sorted(set(redone)) == list(range(len(counts)))
    assert found == expected
