"""The compiled loops of bulk work (numba) against the NumPy path: the same integers, always.

Both paths are run on the same compositions by setting ``EXACT_ODDS_JIT`` (``1``: compiled at
any size, ``0``: NumPy alone); the NumPy path is itself compared with the reference enumerator
in ``tests/test_batch.py``. Random compositions cover every size class of the kernel: shoes of
at most 456 cards (exact floats, where the compiled loops run), up to 1,448 (int64) and beyond
(residues and the Chinese remainder theorem).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds.batch import Evaluation, compiled, evaluate
from exact_odds.bets import find_bet, registered
from exact_odds.core.coup import Payable
from exact_odds.core.shoe import Shoe
from exact_odds.witness.simulate import simulate
from exact_odds.witness.verify import CoupLog, Verifier
from exact_odds.witness.verify.cards import CHUNK
from exact_odds.witness.verify.shoes import compositions, shoe_order

pytest.importorskip("numba")

BETS = registered()


def _both(counts: np.ndarray, suits: np.ndarray | None, bets: Sequence[Payable]) -> tuple[Evaluation, Evaluation]:
    """The evaluations of ``counts`` with NumPy alone and with the compiled loops."""
    before = os.environ.get(compiled.JIT_ENV)
    try:
        os.environ[compiled.JIT_ENV] = "0"
        numpy_path = evaluate(counts, bets=bets, suits=suits)
        os.environ[compiled.JIT_ENV] = "1"
        return numpy_path, evaluate(counts, bets=bets, suits=suits)
    finally:
        os.environ.pop(compiled.JIT_ENV)
        if before is not None:
            os.environ[compiled.JIT_ENV] = before


def _same(a: Evaluation, b: Evaluation) -> None:
    """Equal integers, of the same type (int64 or Python integers)."""
    for name in ("sequences", "outcomes", "numerators"):
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.tolist() == y.tolist(), name


@st.composite
def shoes(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray]:
    """Suit counts (n, 13, 4) of a few shoes: depleted 1- to 40-deck shoes, and small ones."""
    n = draw(st.integers(1, 40))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    decks = rng.choice([1, 2, 6, 8, 9, 30, 40], size=n)
    grid = (decks[:, None, None] - rng.integers(0, 8, size=(n, 13, 4))).clip(0)
    grid[grid.sum(axis=(1, 2)) < 6] = 1
    return grid.sum(axis=2), grid


@settings(max_examples=25)
@given(shoes())
def test_main_bets_alike(shoe: tuple[np.ndarray, np.ndarray]) -> None:
    counts, _ = shoe
    _same(*_both(counts, None, ()))


@settings(max_examples=10)
@given(shoes())
def test_every_bet_alike(shoe: tuple[np.ndarray, np.ndarray]) -> None:
    counts, grid = shoe
    _same(*_both(counts, grid, BETS))


def test_chunks_and_eight_decks_alike() -> None:
    """Several chunks of 8-deck shoes (the published full-shoe counts among them)."""
    rng = np.random.default_rng(7)
    counts = (32 - rng.integers(0, 20, size=(700, 13))).clip(0)
    counts[0] = 32
    numpy_path, fast = _both(counts, None, BETS[:5])
    _same(numpy_path, fast)
    assert fast.outcomes[0].tolist() == [2292252566437888, 2230518282592256, 475627426473216]


def test_sums_past_the_float_limit_redone(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the float limit lowered, every chunk's sums pass it: the compiled chunks flag them and
    the rows are redone exactly (int64), amid shoes past 456 cards; the same integers (pairs and
    suited pairs among the bets: their chunks take the suit counts of the float rows alone)."""
    from exact_odds.batch import plan

    rng = np.random.default_rng(11)
    grid = (8 - rng.integers(0, 8, size=(600, 13, 4))).clip(0)
    grid[::7] += 2  # some shoes past 456 cards: the float rows are not all the rows
    counts = grid.sum(axis=2)
    bets = [*BETS[:8], find_bet("player-pair"), find_bet("perfect-pair")]
    expected = _both(counts, grid, bets)
    monkeypatch.setattr(plan, "FLOAT_EXACT", 2**40)
    for found in _both(counts, grid, bets):
        _same(expected[0], found)


def test_when_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment decides first; then the size of the call, or of the job announced."""
    monkeypatch.delenv(compiled.JIT_ENV, raising=False)
    monkeypatch.setattr(compiled, "_ANNOUNCED", [False])
    monkeypatch.setattr(compiled, "_LOADED", set())
    assert not compiled._wanted(10)
    assert compiled._wanted(compiled.JIT_MIN)
    compiled.expect(compiled.JIT_MIN)
    assert compiled._wanted(10)
    monkeypatch.setenv(compiled.JIT_ENV, "0")
    assert compiled.loops(10**9) is None
    monkeypatch.setenv(compiled.JIT_ENV, "1")
    assert compiled.loops(1) is not None


def test_without_numba(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without numba the NumPy path runs, whatever the setting."""
    monkeypatch.setenv(compiled.JIT_ENV, "1")
    monkeypatch.setattr(compiled, "_load", lambda name: None)
    assert compiled.loops(10**9) is None
    ev = evaluate([[4] * 13], bets=[find_bet("banker")])
    assert ev.expectation(0, 0) == Fraction(-49303, 4873050)  # one deck (the doctest of evaluate)


def _card_grams(log: CoupLog, shoe: Shoe, setting: str) -> tuple[bytes, str]:
    """The card tally's sums (as bytes) and the verification (as text) of ``log``, with ``EXACT_ODDS_JIT=setting``."""
    before = os.environ.get(compiled.JIT_ENV)
    try:
        os.environ[compiled.JIT_ENV] = setting
        verifier = Verifier(shoe)
        verifier.add(log)
        return verifier.cards.gram.tobytes() + verifier.cards.seen.tobytes(), repr(verifier.result().checks)
    finally:
        os.environ.pop(compiled.JIT_ENV)
        if before is not None:
            os.environ[compiled.JIT_ENV] = before


@pytest.mark.parametrize("decks", [1, 8])
def test_card_tally_alike(decks: int) -> None:
    """The card tally's compiled loops form the same floats as NumPy: whole shoes over several chunks
    of cards, and a log whose first shoe deals a card too many (its cards left out)."""
    logs: list[CoupLog] = []
    shoe = Shoe.decks(decks)
    simulate(shoe, seed=decks, shoes=250 if decks == 8 else 3000, record=logs.append)
    log = logs[0]
    ranks = log.ranks.copy()
    ranks[:12, 0] = 1  # twelve aces more in the first shoe
    for case in (log, replace(log, ranks=ranks)):
        assert int((case.ranks > 0).sum()) > CHUNK
        assert _card_grams(case, shoe, "0") == _card_grams(case, shoe, "1")


def _compositions(log: CoupLog, setting: str, deplete: bool) -> list[list[object]]:
    """Every block :func:`exact_odds.witness.verify.shoes.compositions` yields for ``log``, with
    ``EXACT_ODDS_JIT=setting``."""
    before = os.environ.get(compiled.JIT_ENV)
    try:
        os.environ[compiled.JIT_ENV] = setting
        shoes = shoe_order(log)
        return [[start, stop, left.tolist(), dealt.tolist(), size.tolist()] for start, stop, left, dealt, size in
                compositions(log, shoes, Shoe.decks(8).counts, deplete=deplete, block=5_000)]
    finally:
        os.environ.pop(compiled.JIT_ENV)
        if before is not None:
            os.environ[compiled.JIT_ENV] = before


def test_compositions_alike() -> None:
    """The cards seen before each coup, counted by the compiled loop and by NumPy: shoes with their burn
    cards across blocks, shoes interleaved in the log, no shoes, an infinite deck's (not depleted)."""
    logs: list[CoupLog] = []
    simulate(Shoe.decks(8), seed=3, shoes=160, record=logs.append)
    log = logs[0]
    assert log.burn_ranks is not None
    mixed = np.random.default_rng(0).permutation(len(log))
    interleaved = replace(log, ranks=log.ranks[mixed], suits=log.suits[mixed], player_cards=log.player_cards[mixed],
                          banker_cards=log.banker_cards[mixed], shoe=None if log.shoe is None else log.shoe[mixed],
                          labels={}, burn_ranks=log.burn_ranks[mixed], burn_suits=None)
    for case in (log, interleaved, replace(log, shoe=None, shoe_names=(), burn_ranks=None, burn_suits=None)):
        for deplete in (True, False):
            assert _compositions(case, "0", deplete) == _compositions(case, "1", deplete)


def test_combine_against_integers() -> None:
    """The compiled combination of functionals (blocks of 256 and a remainder; negative
    coefficients wrapping modulo 2**64; divisors) equals Python's integers, and counts the
    results that do not divide."""
    fast = compiled.loops(10**9)
    assert fast is not None
    rng = np.random.default_rng(5)
    found = rng.integers(0, 2**40, size=(300, 3))
    sequences = rng.integers(0, 2**40, size=300)
    combos = [[3, 0, -2, 1], [0, 6, 0, -3], [-1, -1, 0, 0]]
    divisors = [1, 3, 1]
    starts, columns, weights = [0], [], []
    for combo in combos:
        columns += [c for c, w in enumerate(combo) if w]
        weights += [w % 2**64 for w in combo if w]
        starts.append(len(columns))
    out = np.zeros((300, 5), dtype=np.int64)
    inexact = fast.combine(found.view(np.uint64), sequences.view(np.uint64), np.array(starts), np.array(columns),
                           np.array(weights, dtype=np.uint64), np.array(divisors), np.array([4, 0, 2]), out)
    rows = [[*map(int, f), int(s)] for f, s in zip(found, sequences, strict=True)]
    raw = [[sum(w * x for w, x in zip(combo, row, strict=True)) for combo in combos] for row in rows]
    assert inexact == sum(r[1] % 3 != 0 for r in raw)
    assert out[:, 4].tolist() == [r[0] for r in raw]
    assert out[:, 0].tolist() == [r[1] // 3 for r in raw]
    assert out[:, 2].tolist() == [r[2] for r in raw]
    assert not out[:, [1, 3]].any()
