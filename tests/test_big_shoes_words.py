"""Shoes past int64 in 64-bit words until the end (:mod:`exact_odds.batch.widepass`).

The compiled loops (:mod:`exact_odds.batch.wordloops`) against Python's integers: the
sequences, and integer combinations divided exactly with their checks, read back from the
pickle they write; whole evaluations on the words path against the usual steps (the same
integers, the same array types) and against the reference enumerator.
"""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
from conftest import jit_setting
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exact_odds.batch import compiled, evaluate, evaluation, modfused, widepass
from exact_odds.bets import find_bet, registered
from exact_odds.core.coup import OUTCOMES, Detail
from exact_odds.core.shoe import CARDS_PER_COUP, Shoe, falling
from exact_odds.engine.enumerator import deal

UNSUITED = [b for b in registered() if b.detail is not Detail.SUITS]


def _loops() -> object:
    fast = compiled.module("exact_odds.batch.wordloops", 10**9)
    if fast is None:
        pytest.skip("compiled loops unavailable")
    return fast


def _words(xs: list[int], count: int) -> np.ndarray:
    """Non-negative integers as ``count`` little-endian 64-bit words each (int64 holding the bits)."""
    return np.array([[(x >> (64 * w)) & (2**64 - 1) for w in range(count)] for x in xs],
                    dtype=np.uint64).view(np.int64)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.one_of(st.integers(6, 2_097_151), st.integers(2_097_152, 2**62)), min_size=1, max_size=20),
       st.integers(1, 7))
@example([6, 1448, 1449, 2_097_151, 2_097_152, 2**62], 2)
def test_sequence_words_equal_python(sizes: list[int], count: int) -> None:
    fast = _loops()
    words = np.full((len(sizes), count), -1, dtype=np.int64)
    order = np.arange(len(sizes))[::-1].copy()
    fast.sequence_words(np.array(sizes, dtype=np.int64), order, words)  # type: ignore[attr-defined]
    got = [int.from_bytes(row.tobytes(), "little") for row in words]
    assert got == [falling(sizes[i], CARDS_PER_COUP) % 2**(64 * count) for i in order.tolist()]


def _pickled(fast: object, values: list[list[int]], count: int,
             combinations: list[tuple[tuple[int, ...], int, int]], size: int) -> tuple[int, list[int]]:
    """How many checks failed, and the Python integers of the pickle that ``pickled_combinations`` wrote."""
    words = np.stack([_words([row[c] for row in values], count) for c in range(len(values[0]))], axis=1)
    starts, columns, coefficients = [0], [], []
    for combo, _, _ in combinations:
        columns += [c for c, a in enumerate(combo) if a]
        coefficients += [a for a in combo if a]
        starts.append(len(columns))
    rules = np.array([r for _, _, r in combinations], dtype=np.int64)
    slots = np.cumsum(rules != widepass.ZERO) - 1
    kept, rows = int((rules != widepass.ZERO).sum()), len(values)
    out = np.zeros(len(widepass.HEAD) + kept * rows * (2 + size) + len(widepass.TAIL), dtype=np.uint8)
    out[:6], out[6:8] = tuple(widepass.HEAD), (0x8A, size)
    place = np.arange(rows)[::-1].copy()
    bad = fast.pickled_combinations(  # type: ignore[attr-defined]
        np.ascontiguousarray(words), np.array(starts, dtype=np.int64), np.array(columns, dtype=np.int64),
        np.array(coefficients, dtype=np.int64), np.array([d for _, d, _ in combinations], dtype=np.int64), rules,
        slots, place, size, out.view(np.uint64))
    out[-2:] = tuple(widepass.TAIL)
    found = pickle.loads(out.tobytes()) if kept and rows else []
    by_row = [found[place[i] * kept:(place[i] + 1) * kept] for i in range(rows)]
    return int(bad), [x for row in by_row for x in row]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(1, 3), st.integers(1, 4), st.integers(1, 6))
def test_combinations_equal_python(data: st.DataObject, count: int, columns: int, rows: int) -> None:
    """Random combinations of integers up to ``64 count`` bits, divided exactly: the results equal
    Python's, and no check fails."""
    fast = _loops()
    values = [[data.draw(st.integers(0, 2**(64 * count) - 1)) for _ in range(columns)] for _ in range(rows)]
    combos = []
    for _ in range(data.draw(st.integers(1, 5))):
        divisor = data.draw(st.sampled_from([1, 2, 3, 7, 1000, 2**28 - 1]))
        top = min(1000, (widepass.COEFFICIENT_LIMIT - 1) // (divisor * columns))  # within the documented limit
        combo = tuple(data.draw(st.integers(-top, top)) for _ in range(columns))
        combos.append((tuple(c * divisor for c in combo), divisor, widepass.ANY))
    bound = max(sum(map(abs, c)) for c, _, _ in combos) * 2**(64 * count)
    size = -(-bound.bit_length() // 8) + 1
    bad, got = _pickled(fast, values, count, combos, size + -(size + 2) % 8)
    expected = [sum(a * v for a, v in zip(c, row, strict=True)) // d for row in values for c, d, _ in combos]
    assert bad == 0 and got == expected


def test_combination_checks_fail() -> None:
    """Each check counts its failure: a nonzero check, an inexact division, a result too large for its
    bytes; and passes otherwise."""
    fast = _loops()
    values = [[5, 3, 2**100]]
    ok = ((-1, 1, 0), 1, widepass.ANY), ((1, 1, 0), 8, widepass.ANY), ((1, -1, 0), 2, widepass.ZERO)
    assert _pickled(fast, values, 2, [ok[0], ok[1], ((3, -5, 0), 1, widepass.ZERO)], 14) == (0, [-2, 1])
    assert _pickled(fast, values, 2, [ok[2]], 14)[0] == 1
    assert _pickled(fast, values, 2, [((1, 1, 0), 3, widepass.ANY)], 14)[0] == 1
    for coefficient, size, fits in ((1, 14, True), (1, 6, False), (2**10, 14, True), (2**11, 14, False),
                                    (-(2**10), 14, True), (2**11, 22, True)):  # 14 bytes hold up to 2**111 - 1
        for combo in ((0, 0, coefficient), (0, 0, coefficient, 0)):  # a copy of the words, a sum of limbs
            got = _pickled(fast, [[*values[0], 0]], 2, [(combo, 1, widepass.ANY)], size)
            assert got == ((0, [coefficient * 2**100]) if fits else (1, got[1])), (coefficient, size, combo)
    assert _pickled(fast, [[2**111 - 1]], 2, [((1,), 1, widepass.ANY)], 14) == (0, [2**111 - 1])  # copied
    assert _pickled(fast, [[2**111]], 2, [((1,), 1, widepass.ANY)], 14)[0] == 1


def _shoes(seed: int, low: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    decks = rng.integers(low, 10_001, size=n)
    grid = (decks[:, None, None] - rng.integers(0, 20, size=(n, 13, 4))).clip(0)
    counts = grid.sum(axis=2)
    counts[0] = [112] * 12 + [1449 - 112 * 12]  # just past int64
    return np.asarray(counts)


@pytest.mark.parametrize(("low", "bets"), [(30, []), (30, UNSUITED), (1, UNSUITED), (1, [])])
def test_words_path_equals_usual_steps(low: int, bets: list[object], monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shoe past int64 (and some below it, evaluated the usual way and placed among them): the
    same integers, dtypes and layout as the usual steps, which the words path must have been taken for."""
    counts = _shoes(low, max(low, 2), 300)
    if low == 1:
        counts[1] = [0] * 12 + [7]
    calls: list[int] = []
    real = widepass.combined

    def counted(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(widepass, "combined", counted)
    with jit_setting("1"):
        fast = evaluate(counts, bets=bets)  # type: ignore[arg-type]
        assert calls
        monkeypatch.setattr(evaluation, "_words_path", lambda *a: None)
        usual = evaluate(counts, bets=bets)  # type: ignore[arg-type]
    for name in ("sequences", "outcomes", "numerators"):
        a, b = getattr(fast, name), getattr(usual, name)
        assert a.tolist() == b.tolist() and a.dtype == b.dtype and a.shape == b.shape, name
        assert all(type(x) is int for x in a.ravel().tolist()), name
    assert fast.outcomes.flags.f_contiguous and fast.scales == usual.scales


def test_words_path_equals_reference() -> None:
    counts = np.array([[112] * 12 + [1449 - 112 * 12], [40_000] * 12 + [39_990], [9] * 13, [0] * 9 + [1500] * 4])
    bets = [find_bet("banker"), find_bet("player"), find_bet("tie"), find_bet("player pair")]
    with jit_setting("1"):
        ev = evaluate(counts, bets=bets)
    for i, row in enumerate(counts.tolist()):
        dist = deal(Shoe(tuple(row)))
        assert ev.outcomes[i].tolist() == [sum(w for c, w in dist.items() if c.winner == o) for o in OUTCOMES]
        for j, bet in enumerate(bets):
            assert ev.expectation(i, j) == deal(Shoe(tuple(row)), detail=bet.detail).expectation(bet.payout)


@pytest.mark.parametrize(("module", "step"), [(modfused, "residue_words"), (widepass, "_pair_words")])
def test_words_path_check_fails_loudly(module: Any, step: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sums that lost a way (one word off) are caught: the points pass's by the sampled check of
    banker, player and tie, the pairs pass's by its total, which must be the sequences."""
    real = getattr(module, step)

    def broken(*args: object) -> np.ndarray | None:
        words = real(*args)
        if words is not None:  # (the pairs' closed forms are not made for the points pass)
            words[0, :, 0] += 1
        return words  # type: ignore[no-any-return]

    monkeypatch.setattr(module, step, broken)
    with jit_setting("1"), pytest.raises(AssertionError, match="lost ways"):
        evaluate(_shoes(3, 30, 20), bets=[find_bet("player pair")])


@pytest.mark.parametrize("cards", [1449, 30_000, 1_000_000, 1_500_000, 3_000_000])
def test_pair_closed_forms_equal_tables(cards: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairs in closed form modulo ``2**64`` and two primes against the kernel's tables, up to
    their bound (about 1.6 million cards for the pair bets; beyond it the tables, checked too)."""
    rng = np.random.default_rng(cards)
    counts = np.array([rng.multinomial(cards, [1 / 13] * 13) for _ in range(5)] + [[cards - 12] + [1] * 12])
    bets = [find_bet("player pair"), find_bet("banker pair"), find_bet("either pair")]
    made: list[Any] = []
    real = widepass._pair_words

    def recorded(*args: Any) -> Any:
        made.append(real(*args))
        return made[-1]

    monkeypatch.setattr(widepass, "_pair_words", recorded)
    with jit_setting("1"):
        fast = evaluate(counts, bets=bets)
        monkeypatch.setattr(evaluation, "_words_path", lambda *a: None)
        usual = evaluate(counts, bets=bets)
    assert [m is not None for m in made] == [False, cards < 1_600_000]  # the points pass, then the pairs'
    assert fast.numerators.tolist() == usual.numerators.tolist()
    assert fast.outcomes.tolist() == usual.outcomes.tolist()


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 200), st.sampled_from([1, 28, 1_000]))
def test_words_path_equals_numpy_path(seed: int, n: int, low: int) -> None:
    """Random shoes of ``low`` to 10,000 decks, every bet but the suited: the words path (compiled)
    and the NumPy steps give the same integers."""
    counts = _shoes(seed, max(low, 2), n)
    found = []
    for setting in ("0", "1"):
        with jit_setting(setting):
            ev = evaluate(counts, bets=UNSUITED)
        found.append((ev.sequences.tolist(), ev.outcomes.tolist(), ev.numerators.tolist()))
    assert found[0] == found[1]
