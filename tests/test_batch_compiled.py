"""The compiled loops of bulk work (numba) against the NumPy path: the same integers, always.

Both paths are run on the same compositions by setting ``EXACT_ODDS_JIT`` (``1``: compiled at
any size, ``0``: NumPy alone); the NumPy path is itself compared with the reference enumerator
in ``tests/test_batch_evaluation.py``. Random compositions cover every size class of the kernel: shoes of
at most 456 cards (exact floats, where the compiled loops run), up to 1,448 (int64) and beyond
(Python integers).
"""

from __future__ import annotations

import importlib.util
import math
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exact_odds.batch import compiled, evaluate
from exact_odds.batch.evaluation import Evaluation
from exact_odds.bets import find_bet, registered
from exact_odds.core.coup import Payable
from exact_odds.core.shoe import Shoe
from exact_odds.witness.simulate import simulate
from exact_odds.witness.verify import CoupLog, Verifier
from exact_odds.witness.verify.log import compositions, shoe_order
from exact_odds.witness.verify.odds import CHUNK

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
    """The environment decides first; then the size of the job, against what a unit saves."""
    monkeypatch.delenv(compiled.JIT_ENV, raising=False)
    assert not compiled.wanted(10)
    assert compiled.wanted(compiled.JIT_MIN)
    assert compiled.wanted(10, worth=10)
    assert compiled.chosen(compiled.KERNEL, 10) is None and compiled.chosen(compiled.KERNEL, 10, None) is None
    assert compiled.chosen(compiled.KERNEL, 10, True) is not None
    monkeypatch.setenv(compiled.JIT_ENV, "0")
    assert compiled.chosen(compiled.KERNEL, 10**9) is None
    monkeypatch.setenv(compiled.JIT_ENV, "1")
    assert compiled.chosen(compiled.KERNEL, 1) is not None


WITHOUT_NUMBA = """
import sys
sys.modules["numba"] = None  # importing numba fails, as where it is not installed
from exact_odds.batch import compiled, evaluate
from exact_odds.bets import find_bet
assert compiled.chosen(compiled.KERNEL, 10**9) is None
ev = evaluate([[4] * 13, [160] * 13], bets=[find_bet("banker")], jit=True)
print(ev.expectation(0, 0), ev.outcomes[1, 0])
"""


def test_without_numba() -> None:
    """Without numba the NumPy path runs, whatever the setting."""
    done = subprocess.run([sys.executable, "-c", WITHOUT_NUMBA], env={**os.environ, compiled.JIT_ENV: "1"},
                          capture_output=True, text=True, check=True)
    with_numba = evaluate([[160] * 13])
    assert done.stdout.split() == [str(Fraction(-49303, 4873050)), str(with_numba.outcomes[0, 0])]


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


@pytest.mark.slow
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
    """Every block :func:`exact_odds.witness.verify.log.compositions` yields for ``log``, with
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


LOADING = """
import sys
import numpy as np
from exact_odds.batch import evaluate
found = evaluate(np.full((1, 13), 4, dtype=np.int64))
print(int(found.sequences[0]), "scipy" in sys.modules)
import numba
dot = numba.njit(lambda a, b: np.dot(a, b))
print(dot(np.arange(3.0), np.arange(3.0)))
"""


@pytest.mark.skipif(importlib.util.find_spec("scipy") is None, reason="SciPy is not installed: nothing to leave out")
def test_the_compiled_loops_load_without_scipy_and_numba_linear_algebra_still_works() -> None:
    """numba's array functions are imported without SciPy, which then stays out of the process, and
    numba's linear algebra still works."""
    done = subprocess.run([sys.executable, "-c", LOADING], env={**os.environ, "EXACT_ODDS_JIT": "1"},
                          capture_output=True, text=True, check=True)
    assert done.stdout.split() == [str(math.perm(52, 6)), "False", str(0.0 * 0 + 1.0 * 1 + 2.0 * 2)]
