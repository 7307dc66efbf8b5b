"""Products modulo primes in float64 alone (:func:`exact_odds.batch.modloops.mul_mod_float`) and the
compiled chunks of shoes past int64 that use them, against Python's integers and the reference."""

from __future__ import annotations

from types import ModuleType

import pytest
from conftest import jit_setting
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds.batch import compiled, evaluate
from exact_odds.batch.residues import MODULUS_CAP, SUITED_CAP, primes_below
from exact_odds.bets import find_bet
from exact_odds.engine import deal
from exact_odds.shoe import Shoe

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
