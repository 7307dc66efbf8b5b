"""Products modulo primes in float64 alone (:func:`exact_odds.batch.modloops.mul_mod_float`) and the
compiled chunks of shoes past int64 that use them, against Python's integers and the reference."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest
from conftest import jit_setting
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds.batch import compiled, evaluate, modfused
from exact_odds.batch.evaluation import _bet_pass
from exact_odds.batch.residues import MODULUS_CAP, SUITED_CAP, moduli_limit, primes_below
from exact_odds.bets import find_bet, registered
from exact_odds.core.coup import Detail
from exact_odds.core.shoe import Shoe
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.engine.enumerator import deal

PRIMES = (*primes_below(MODULUS_CAP, 3), *primes_below(2**40, 2), *primes_below(SUITED_CAP, 1), 3, 2)


def _fast() -> ModuleType:
    fast = compiled.module("exact_odds.batch.modloops", 10**9)
    if fast is None:
        pytest.skip("compiled loops unavailable")
    return fast


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PRIMES), st.integers(0, 2**64), st.integers(0, 2**64),
       st.sampled_from(("random", "top", "zero")))
def test_float_product_modulo_equals_python(p: int, x: int, y: int, where: str) -> None:
    a, b = {"random": (x % p, y % p), "top": (p - 1 - x % 8 % p, p - 1 - y % 8 % p), "zero": (0, y % p)}[where]
    found = _fast().mul_mod_float(float(a), float(b), float(p), 1.0 / p)
    assert found == a * b % p and type(found) is float


def _shoe(decks: int, drawn: list[int], single: int | None) -> list[int]:
    """A shoe of ``decks`` decks less ``drawn`` cards of each rank, or of one rank alone."""
    if single is not None:
        return [4 * decks if rank == single else 0 for rank in range(13)]
    return [max(0, 4 * decks - d) for d in drawn]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10_000), st.lists(st.integers(0, 60), min_size=13, max_size=13),
                          st.none() | st.integers(0, 12)), min_size=1, max_size=3))
def test_compiled_big_shoes_equal_reference(shoes: list[tuple[int, list[int], int | None]]) -> None:
    """Random shoes of 1 to 10,000 decks (single-rank shoes among them), the smallest just past 1,448 cards,
    against the reference enumerator."""
    counts = [_shoe(*shoe) for shoe in shoes] + [[112] * 12 + [1449 - 112 * 12]]
    counts = [c for c in counts if sum(c) >= 6]
    bets = [find_bet("banker"), find_bet("tie"), find_bet("player pair")]
    with jit_setting("1"):
        ev = evaluate(counts, bets=bets)
    for i, row in enumerate(counts):
        shoe = Shoe(tuple(row))
        for j, bet in enumerate(bets):
            assert ev.expectation(i, j) == deal(shoe, detail=bet.detail).expectation(bet.payout)


def _weighed(fast: ModuleType, p: int, products: list[list[int]], weights: list[list[int]]) -> list[int]:
    """The residues of ``sum over r of products[r][i] * weights[r][i]`` by ``weigh_piece`` (rows of
    two functionals alike, a float column and one prime's) then ``stage_words``' reduction."""
    rows, width = len(products), len(products[0])
    partial = np.zeros((rows, 2, 2, width))
    partial[:, :, 1] = np.array(products, dtype=np.float64)[:, None]
    values = np.zeros((rows, 2, width))
    values[:, 1] = np.array(weights, dtype=np.float64)
    approximate, residues = np.empty((2, width)), np.empty((1, 2, width))
    fast.weigh_piece(partial[: rows // 2], values, np.arange(rows // 2), np.array([p]), approximate, residues, True)
    fast.weigh_piece(partial[rows // 2:], values, np.arange(rows // 2, rows), np.array([p]), approximate, residues,
                     False)
    assert (np.abs(residues) < 2**53).all()
    fast._reduce(residues[0], p)
    assert (residues[0, 0] == residues[0, 1]).all()
    return [int(r) for r in residues[0, 0]]


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PRIMES[:-2]), st.integers(1, 8), st.integers(0, 2**64), st.sampled_from(("random", "top")),
       st.integers(1, 40))
def test_weighed_residues_equal_python(p: int, width: int, seed: int, where: str, rows: int) -> None:
    """Block products up to ``2**53 - 1`` times residues below ``p``, added unreduced over as many row parts as
    :func:`~exact_odds.batch.modfused._stage_work` allows (fewer than ``2**53 / (5 p)``)."""
    rows = min(rows, (2**53 - 1) // (5 * p))
    rng = np.random.default_rng(seed % 2**32)
    if where == "top":
        products = [[2**53 - 1 - int(rng.integers(0, 4)) for _ in range(width)] for _ in range(rows)]
        weights = [[p - 1 - int(rng.integers(0, 4)) for _ in range(width)] for _ in range(rows)]
    else:
        products = [[int(rng.integers(0, 2**53)) for _ in range(width)] for _ in range(rows)]
        weights = [[int(rng.integers(0, p)) for _ in range(width)] for _ in range(rows)]
    expected = [sum(x[i] * w[i] for x, w in zip(products, weights, strict=True)) % p for i in range(width)]
    assert _weighed(_fast(), p, products, weights) == expected


def test_weighed_residues_at_their_bound() -> None:
    """The most row parts the bound allows, every term at its largest, at the largest prime; and a stage
    with one row part more than the bound allows is refused."""
    p = PRIMES[0]
    rows = (2**53 - 1) // (5 * p)
    half = ((2**53 - 1) // p - 1) * p + (p + 1) // 2  # below 2**53: each term is about p / 2
    products, weights = [[2**53 - 1, half]] * rows, [[p - 1, p - 1]] * rows
    assert _weighed(_fast(), p, products, weights) == [rows * (2**53 - 1) * (p - 1) % p, rows * half * (p - 1) % p]
    mutated = 12 * rows  # far past the bound the unreduced sum leaves 2**53: caught
    with pytest.raises(AssertionError):
        assert _weighed(_fast(), p, [[half]] * mutated, [[p - 1]] * mutated) == [mutated * half * (p - 1) % p]
    modfused.check_row_parts(rows, p)
    with pytest.raises(ValueError, match="row parts"):
        modfused.check_row_parts(rows + 1, p)
    for detail in (Detail.POINTS, Detail.RANKS):  # the registered bets' plans keep their primes' bound
        plan = _bet_pass(STANDARD_TABLEAU, detail, tuple(b for b in registered() if b.detail is detail)).plan
        assert modfused.row_limit(plan, moduli_limit(plan)) == moduli_limit(plan)
        modfused.prepared(plan, primes_below(moduli_limit(plan), 2), 4, moduli_limit(plan), 2)
    plan = _bet_pass(STANDARD_TABLEAU, Detail.POINTS, ()).plan  # primes below 2**46 would pass the bound
    limit = modfused.row_limit(plan, 2**46)
    assert limit < 2**46
    for stage in plan.stages:
        modfused.check_row_parts(sum(r1 - r0 for _, (r0, r1), _ in modfused._merged(stage, limit)), limit)


def test_main_bets_weigh_their_six_card_parts() -> None:
    """The main bets' six-card parts are weighed as they are made, in segments whose products stay exact,
    and the chunks give the same integers as with every part stored and multiplied in BLAS."""
    plan = _bet_pass(STANDARD_TABLEAU, Detail.POINTS, ()).plan
    limit = moduli_limit(plan)
    first, segments = modfused._tail(plan, limit)
    assert first == plan.layout.levels[-1][0] and sum(m1 - m0 for m0, m1, _, _ in segments) == 409
    assert all(matrix.sum(axis=1).max() * (limit - 1) < 2**53 for _, _, _, matrix in segments)
    rng = np.random.default_rng(5)
    counts = (rng.integers(30, 10_001, size=300)[:, None] * 4 - rng.integers(0, 30, size=(300, 13))).clip(0)
    found = []
    for stored in (False, True):
        modfused._LOCAL.__dict__.clear()
        with jit_setting("1"), pytest.MonkeyPatch.context() as patch:
            if stored:
                patch.setattr(modfused, "_tail", lambda plan, limit: (len(plan.layout.parent), []))
            found.append(evaluate(counts).outcomes.tolist())
    modfused._LOCAL.__dict__.clear()
    assert found[0] == found[1]
