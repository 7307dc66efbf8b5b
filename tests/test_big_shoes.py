"""Shoes past int64 (more than 1,448 cards): sums modulo primes, rebuilt into Python integers.

The arithmetic modulo a prime and the reconstruction are checked against Python's integers,
the compiled loops (:mod:`exact_odds.batch.modloops`) against the NumPy steps of
:mod:`exact_odds.batch.residues`, and whole evaluations against the reference enumerator and
across both paths.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import jit_setting
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds.batch import compiled, evaluate, modfused, wide
from exact_odds.batch.evaluation import _bet_pass
from exact_odds.batch.residues import (
    MODULUS_CAP,
    _digits,
    _falling_mod,
    _integers,
    _inverses,
    from_words,
    moduli,
    moduli_limit,
    mul_mod,
    primes_below,
)
from exact_odds.batch.widepass import sequences
from exact_odds.bets import find_bet, registered
from exact_odds.core.coup import Detail
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe, falling
from exact_odds.core.tableau import STANDARD_TABLEAU
from exact_odds.engine.enumerator import deal

BETS = registered()
PRIMES = primes_below(MODULUS_CAP, 4)


def test_primes_are_prime_and_fit() -> None:
    for p in PRIMES + primes_below(2**31, 3):
        assert all(p % d for d in range(2, 2000)) and pow(3, p - 1, p) == 1
    assert PRIMES[0] < MODULUS_CAP and sorted(PRIMES, reverse=True) == list(PRIMES)


def test_main_bets_need_three_primes_at_ten_thousand_decks() -> None:
    plan = _bet_pass(STANDARD_TABLEAU, Detail.POINTS, ()).plan
    limit = moduli_limit(plan)
    assert 2**39 < limit <= MODULUS_CAP
    assert len(moduli(limit, 520_000**CARDS_PER_COUP)) == 3
    for stage in plan.stages:  # the bound that makes the BLAS products exact
        assert all(block.matrix.sum(axis=1).max() * limit < 2**53 for block in stage.blocks)


@settings(max_examples=50)
@given(st.lists(st.integers(0, 2**63), min_size=2, max_size=40), st.sampled_from((*PRIMES, 2**31 - 1, 3, 2)))
def test_mul_mod_equals_python(xs: list[int], p: int) -> None:
    a = np.array([x % p for x in xs], dtype=np.int64)
    b = a[::-1].copy()
    assert mul_mod(a, b, p).tolist() == [x * y % p for x, y in zip(a.tolist(), b.tolist(), strict=True)]
    assert mul_mod(a.astype(np.float64), b, p).tolist() == mul_mod(a, b, p).tolist()


@settings(max_examples=50)
@given(st.lists(st.integers(0, 2**150), min_size=1, max_size=30))
def test_digits_rebuild_the_integers(xs: list[int]) -> None:
    primes = PRIMES
    assert all(x < math.prod(primes) for x in xs)
    residues = np.array([[x % p for x in xs] for p in primes], dtype=np.int64)
    assert _integers(_digits(residues, primes), primes).tolist() == xs


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 2**150), min_size=1, max_size=30), st.integers(1, 4))
def test_compiled_rebuild_equals_python(xs: list[int], count: int) -> None:
    fast = compiled.module("exact_odds.batch.modloops", 10**9)
    if fast is None:
        pytest.skip("compiled loops unavailable")
    primes = PRIMES[:count]
    xs = [x % math.prod(primes) for x in xs]
    residues = np.array([[x % p for x in xs] for p in primes], dtype=np.int64)
    words = np.empty((len(xs), -(-math.prod(primes).bit_length() // 64)), dtype=np.int64)
    fast.rebuild_words(residues, np.array(primes, dtype=np.int64), _inverses(primes), words)
    assert from_words(words).tolist() == xs


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 10**7), min_size=13, max_size=13), st.sampled_from(PRIMES))
def test_compiled_falling_equals_numpy(counts: list[int], p: int) -> None:
    fast = compiled.module("exact_odds.batch.modloops", 10**9)
    if fast is None:
        pytest.skip("compiled loops unavailable")
    kinds = np.array(counts, dtype=np.int64).reshape(13, 1)
    out = np.empty((13 * (CARDS_PER_COUP + 1), 1), dtype=np.int64)
    fast.falling_mod(kinds, p, out)
    assert out.tolist() == _falling_mod(kinds, p).tolist()
    assert out[:CARDS_PER_COUP + 1, 0].tolist() == [falling(counts[0], j) % p for j in range(CARDS_PER_COUP + 1)]


def test_sequences_past_int64() -> None:
    sizes = np.array([6, 1448, 1449, 520_000, 2_097_151, 2_097_152, 10**12], dtype=np.int64)
    assert sequences(sizes).tolist() == [falling(int(n), CARDS_PER_COUP) for n in sizes.tolist()]


@pytest.mark.parametrize("setting", ["0", "1"])
def test_big_shoes_equal_reference(setting: str) -> None:
    suited = tuple((1000 + k, 1001, 999 - k, 1002) for k in range(13))
    shoes = [Shoe.decks(30), Shoe.decks(10_000), Shoe(tuple(sum(row) for row in suited), suited)]
    with jit_setting(setting):
        ev = evaluate([s.counts for s in shoes], bets=BETS, suits=[s.suited for s in shoes])
    assert ev.outcomes.dtype == object
    for i, shoe in enumerate(shoes[::2]):
        row = 2 * i
        for j, bet in enumerate(BETS):
            assert ev.expectation(row, j) == deal(shoe, detail=bet.detail).expectation(bet.payout), bet.name
    banker = find_bet("banker")
    assert ev.expectation(1, BETS.index(banker)) == deal(Shoe.decks(10_000)).expectation(banker.payout)


@st.composite
def big_shoes(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Suit counts (n, 13, 4) of shoes of 28 to 20,000 decks, a few cards of each suit removed."""
    n = draw(st.integers(1, 300))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    decks = rng.integers(28, 20_001, size=n)
    grid = (decks[:, None, None] - rng.integers(0, 30, size=(n, 13, 4))).clip(0)
    return grid.sum(axis=2), grid


@settings(max_examples=12, deadline=None)
@given(big_shoes())
def test_big_shoes_alike_on_both_paths(shoe: tuple[np.ndarray, np.ndarray]) -> None:
    counts, grid = shoe
    found = []
    for setting in ("0", "1"):
        with jit_setting(setting):
            ev = evaluate(counts, bets=BETS, suits=grid)
        found.append((ev.sequences.tolist(), ev.outcomes.tolist(), ev.numerators.tolist()))
    assert found[0] == found[1]


@settings(max_examples=50)
@given(st.lists(st.lists(st.integers(0, 2**130), min_size=3, max_size=3), min_size=1, max_size=20),
       st.lists(st.lists(st.integers(-300, 300), min_size=2, max_size=2), min_size=3, max_size=3))
def test_wide_combinations_equal_python(rows: list[list[int]], table: list[list[int]]) -> None:
    columns = np.array(rows, dtype=object)
    count = wide.limbs_for(140)
    found = wide.to_integers(wide.combine(wide.to_limbs(columns, wide.limbs_for(130)), np.array(table), count))
    expected = [[sum(x * table[c][k] for c, x in enumerate(row)) for k in range(2)] for row in rows]
    assert found.tolist() == expected


def test_wide_combination_too_wide_is_refused() -> None:
    columns = np.array([[2**120, 0]], dtype=object)
    limbs = wide.to_limbs(columns, wide.limbs_for(121))
    with pytest.raises(AssertionError):
        wide.combine(limbs, np.array([[2**10], [1]]), wide.limbs_for(100))
    with pytest.raises(OverflowError):
        wide.to_limbs(np.array([2**64], dtype=object), 2)


@settings(max_examples=30)
@given(st.lists(st.integers(-(2**200), 2**200), min_size=1, max_size=30), st.integers(26, 40))
def test_from_bytes_rows_equals_int_from_bytes(xs: list[int], width: int) -> None:
    data = np.frombuffer(b"".join(x.to_bytes(width, "little", signed=True) for x in xs), dtype=np.uint8)
    assert wide.from_bytes_rows(data.reshape(len(xs), width)).tolist() == xs


def test_chunk_primes_equal_moduli() -> None:
    limit = moduli_limit(_bet_pass(STANDARD_TABLEAU, Detail.POINTS, ()).plan)
    for bound in (2**63, 2**79, 2**80, 2**114, 31 * 520_000**CARDS_PER_COUP, 2**200):
        assert modfused.chunk_primes(limit, bound) == moduli(limit, bound)


def test_reconstruction_constants() -> None:
    primes = PRIMES[:3]
    radix, rebase, powers = modfused._constants(primes, 2)
    values = [sum(int(v) << (16 * m) for m, v in enumerate(row)) for row in radix.tolist()]
    assert values == [math.prod(primes[:k]) for k in range(3)] + [math.prod(primes) // 2]
    assert rebase.tolist() == [math.prod(primes) // 2 % p for p in primes]
    assert all(powers[k, e] == pow(2, e, p) for k, p in enumerate(primes) for e in (0, 1, 63, 64, 500, 1099))


def test_merged_products_stay_exact() -> None:
    for detail, bets in ((Detail.POINTS, ()), (Detail.POINTS, tuple(b for b in BETS if b.detail is Detail.POINTS)),
                         (Detail.RANKS, tuple(b for b in BETS if b.detail is Detail.RANKS))):
        plan = _bet_pass(STANDARD_TABLEAU, detail, bets).plan
        limit = moduli_limit(plan)
        for stage in plan.stages:
            merged = modfused._merged(stage, limit)
            assert all(matrix.sum(axis=1).max() * (limit - 1) < 2**53 for _, _, matrix in merged)
            assert sum(matrix.size for _, _, matrix in merged) == sum(block.matrix.size for block in stage.blocks)


def _shoes_of(decks: list[int], seed: int) -> np.ndarray:
    """Rank counts of shoes of these many decks less up to 9 cards of each rank and suit."""
    rng = np.random.default_rng(seed)
    grid = (np.array(decks)[:, None, None] - rng.integers(0, 10, size=(len(decks), 13, 4))).clip(0)
    return np.asarray(grid.sum(axis=2))


@pytest.mark.parametrize("count", [1, modfused.WIDTH - 1, modfused.WIDTH, modfused.WIDTH + 1, 2 * modfused.WIDTH + 3])
def test_compiled_chunks_equal_numpy(count: int) -> None:
    """Chunk boundaries, shoes just past 1,448 cards (two primes), beside 8-deck shoes, and up to 12,000 decks
    (three primes; four for the points bets' weighted functionals)."""
    rng = np.random.default_rng(count)
    decks = [28] * 3 + [8] * 2 + rng.integers(28, 12_001, size=count).tolist()
    counts = _shoes_of(decks, count)
    counts[0] = [112] * 12 + [1449 - 112 * 12]  # 1,449 cards
    counts[1] = [112] * 12 + [1460 - 112 * 12]
    found = []
    for setting in ("0", "1"):
        with jit_setting(setting):
            ev = evaluate(counts, bets=[b for b in BETS if b.detail is not Detail.SUITS])
            main = evaluate(counts)
        found.append((ev.outcomes.tolist(), ev.numerators.tolist(), main.outcomes.tolist()))
    assert found[0] == found[1]
    assert all(type(x) is int for x in found[1][0][0] + found[1][1][0])


def test_compiled_path_equals_reference_past_int64() -> None:
    counts = np.array([[112] * 12 + [1449 - 112 * 12], [40_000] * 12 + [39_990]])
    with jit_setting("1"):
        ev = evaluate(counts, bets=[find_bet("banker"), find_bet("player pair")])
    for i, row in enumerate(counts.tolist()):
        shoe = Shoe(tuple(row))
        for j, bet in enumerate(ev.bets):
            assert ev.expectation(i, j) == deal(shoe, detail=bet.detail).expectation(bet.payout)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 2**125), st.sampled_from(("low", "high", "mid", "random")),
                          st.integers(0, 2**80)), min_size=1, max_size=20), st.integers(1, 3))
def test_rebuild_near_an_approximation(cases: list[tuple[float, str, int]], count: int) -> None:
    """``x`` from its residues and a float64 integer ``a`` with ``|x - a|`` up to ``M // 2 - 1``."""
    fast = compiled.module("exact_odds.batch.modloops", 10**9)
    if fast is None:
        pytest.skip("compiled loops unavailable")
    primes = PRIMES[:count]
    half = math.prod(primes) // 2
    approx = [float(int(a)) for a, _, _ in cases]
    shift = {"low": -(half - 1), "high": half - 1, "mid": 0}
    xs = [max(0, int(a) + shift.get(kind, r % (2 * half - 1) - (half - 1)))
          for a, (_, kind, r) in zip(approx, cases, strict=True)]
    xs = [x if abs(x - int(a)) < half else int(a) for x, a in zip(xs, approx, strict=True)]
    bits = max(max(xs).bit_length(), 1)
    words = np.zeros((len(xs), 1, -(-bits // 64)), dtype=np.int64)
    radix, rebase, powers = modfused._constants(primes, words.shape[2] + 1)
    residues = np.array([[[x % p for x in xs]] for p in primes], dtype=np.int64)
    bad = fast._rebuild_into(np.array([approx]), residues, np.array(primes, dtype=np.int64), _inverses(primes), radix,
                             rebase, powers, 0, np.zeros(1, dtype=np.int64), bits, words)
    assert bad == 0 and from_words(words)[:, 0].tolist() == xs


def test_rebuild_flags_an_integer_past_its_bound() -> None:
    fast = compiled.module("exact_odds.batch.modloops", 10**9)
    if fast is None:
        pytest.skip("compiled loops unavailable")
    primes = PRIMES[:2]
    x = 2**100 + 12345
    words = np.zeros((1, 1, 2), dtype=np.int64)
    radix, rebase, powers = modfused._constants(primes, 3)
    residues = np.array([[[x % p]] for p in primes], dtype=np.int64)
    args = (np.array([[float(x)]]), residues, np.array(primes, dtype=np.int64), _inverses(primes), radix, rebase,
            powers, 0, np.zeros(1, dtype=np.int64))
    assert fast._rebuild_into(*args, 101, words) == 0
    assert fast._rebuild_into(*args, 100, words) == 1


def test_gigantic_shoes_alike_on_both_paths() -> None:
    """Shoes of about 2**40 and 2**55 cards: many primes, a float approximation far past 2**64."""
    counts = np.array([[2**36 + k for k in range(13)], [2**51 - 7 * k for k in range(13)]])
    bets = [find_bet("banker"), find_bet("player pair")]
    found = []
    for setting in ("0", "1"):
        with jit_setting(setting):
            ev = evaluate(counts, bets=bets)
        found.append((ev.outcomes.tolist(), ev.numerators.tolist()))
    assert found[0] == found[1]
