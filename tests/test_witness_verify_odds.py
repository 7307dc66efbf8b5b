"""verify's fast bookkeeping against the plain way of computing the same things: equal integers, equal floats."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from exact_odds.batch import compiled
from exact_odds.core.coup import COUP_CODES
from exact_odds.witness.verify import CoupLog
from exact_odds.witness.verify import log as log_module
from exact_odds.witness.verify.log import counts_by, kind_counts
from exact_odds.witness.verify.odds import EXACT_SUMS, pair_odds


def _pair_odds_plainly(left: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`pair_odds` as first written: every sum a product with a vector of ones."""
    c = left.astype(np.float64)
    ones = np.ones(c.shape[1])
    n = c @ ones
    pairs = c * (c - 1)
    s = pairs @ ones
    both = (s * s - (pairs * (4 * c - 6)) @ ones) / (n * (n - 1) * (n - 2) * (n - 3))
    return s / (n * (n - 1)), both


@pytest.mark.parametrize("setting", ["0", "1"])
@pytest.mark.parametrize("most", [4, 32, 416, 4_000, EXACT_SUMS, 3 * EXACT_SUMS])
def test_pair_odds_are_the_same_floats(most: int, setting: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """NumPy (``EXACT_ODDS_JIT=0``) and the compiled loop (``1``) alike."""
    if setting == "1":
        pytest.importorskip("numba")
    monkeypatch.setenv(compiled.JIT_ENV, setting)
    rng = np.random.default_rng(most)
    left = rng.integers(0, most + 1, size=(300, 13))
    left[0] = most
    left[1] = [most] + [0] * 12
    left[left.sum(axis=1) < 6] = 1
    p, both = _pair_odds_plainly(left)
    for size in (None, left.sum(axis=1)):
        q, q_both = pair_odds(left, size=size)
        assert q.tobytes() == p.tobytes() and q_both.tobytes() == both.tobytes()


def test_kind_counts() -> None:
    kinds = np.array([[0, 1, 1, 12, -1, -1], [5, 5, 5, 5, 5, 5]])
    counts = kind_counts(kinds, 13)
    assert counts.dtype == np.int32
    assert counts.tolist() == [[1, 2] + [0] * 10 + [1], [0] * 5 + [6] + [0] * 7]


def test_coup_codes_looked_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """The labels of every coup code, looked up in the table of all codes or computed, are the same."""
    codes = np.arange(COUP_CODES)
    cards = np.random.default_rng(1).integers(0, 52, size=(COUP_CODES, 6))
    fast = CoupLog.from_dealt(cards, codes=codes, shoe=np.arange(COUP_CODES) // 80)
    monkeypatch.setattr(log_module, "COUP_CODES", 0)  # no code is in the table: each is computed
    plain = CoupLog.from_dealt(cards, codes=codes, shoe=np.arange(COUP_CODES) // 80)
    for name in ("ranks", "suits", "player_cards", "banker_cards", "shoe"):
        assert np.array_equal(getattr(fast, name), getattr(plain, name)), name
    assert fast.labels.keys() == plain.labels.keys()
    assert all(np.array_equal(fast.labels[k], plain.labels[k]) for k in fast.labels)
    assert fast.shoe_names == plain.shoe_names


@pytest.mark.parametrize("shoe", [[3, 3, 5, 9, 9, 9], [9, 3, 5, 3, 9, 9], [7], [-2, 0, 0, 11]])
def test_shoe_numbers_as_unique(shoe: list[int]) -> None:
    values, inverse = np.unique(np.array(shoe), return_inverse=True)
    numbers, names = log_module._shoe_numbers(np.array(shoe))
    assert numbers.dtype == np.int32 and numbers.tolist() == inverse.tolist()
    assert names == tuple(str(v) for v in values.tolist())


@pytest.mark.parametrize("setting", ["0", "1"])
def test_counts_by_group(setting: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Counts by group and kind, NumPy and compiled, against a plain count (kinds 0-51, -1 for none)."""
    if setting == "1":
        pytest.importorskip("numba")
    monkeypatch.setenv(compiled.JIT_ENV, setting)
    rng = np.random.default_rng(4)
    group = rng.integers(0, 30, size=500).astype(np.int32)
    kinds = rng.integers(-1, 52, size=(500, 7)).astype(np.int8)
    plain = np.zeros((30, 52), dtype=np.int64)
    for g, row in zip(group.tolist(), kinds.tolist(), strict=True):
        for k in row:
            if k >= 0:
                plain[g, k] += 1
    found = counts_by(group, kinds, 30, 52)
    assert found.dtype == np.int32 and found.tolist() == plain.tolist()
    assert counts_by(group, kinds + 1, 30, 52, shift=0).tolist() == plain.tolist()


def test_compiled_loops_refuse_ranks_out_of_range() -> None:
    """The compiled loops raise on a rank beyond 13 instead of writing past their arrays."""
    loops = pytest.importorskip("exact_odds.witness.verify.loops")
    ranks = np.array([[1, 2, 3, 14, 0, 0]], dtype=np.int8)
    with pytest.raises(ValueError, match="beyond 13"):
        loops.compositions(ranks, np.zeros((1, 0), dtype=np.int8), np.ones(1, dtype=bool), np.full(13, 32),
                           np.zeros(13, dtype=np.int64), np.empty((1, 13), dtype=np.int64), np.empty(1, dtype=np.int64))
    with pytest.raises(ValueError, match="out of range"):
        loops.group_counts(np.zeros(1, dtype=np.intp), ranks, 0, np.empty((1, 13), dtype=np.int32))


@pytest.mark.parametrize("names", [("banker", "player", "tie"), ("commission-4/banker", "super-6/tie", "ez/player"),
                                   ("banker", "super-6/banker"), ("tie", "player-pair")])
def test_odds_weighed_by_winner_are_the_kernels(names: tuple[str, ...]) -> None:
    """Bets that pay by the winner alone, weighed from the ways of each winner (one evaluation without
    bets): the same floats as the kernel's own numerators give; other bets are left to the kernel."""
    from exact_odds.batch import evaluate
    from exact_odds.bets import find_bet
    from exact_odds.core.tableau import STANDARD_TABLEAU
    from exact_odds.witness.verify.odds import _by_winner, _many_odds

    bets = tuple(find_bet(n) for n in names)
    rng = np.random.default_rng(len(names))
    left = np.concatenate([rng.integers(0, 5, size=(200, 13)), rng.integers(0, 33, size=(200, 13)),
                           rng.integers(100, 301, size=(20, 13))])
    left[left.sum(axis=1) < 6] = 4
    found = evaluate(left, bets=bets, tableau=STANDARD_TABLEAU)
    odds = _many_odds(left, STANDARD_TABLEAU, bets, None)
    assert odds.outcomes.tobytes() == np.asarray(found.probabilities()).tobytes()
    assert odds.ev.tobytes() == found.edges().tobytes()
    by_winner = not {"super-6/banker", "player-pair"} & set(names)
    assert (_by_winner(STANDARD_TABLEAU, bets) is not None) == by_winner


def test_block_odds_are_each_blocks_own() -> None:
    """Several blocks' odds from one evaluation: each block's the same floats, in the same memory
    order (their sums too), as its own evaluation, again in a later call; a block of alike
    compositions is left to ``add``."""
    from exact_odds.bets import find_bet
    from exact_odds.core.shoe import Shoe
    from exact_odds.core.tableau import STANDARD_TABLEAU
    from exact_odds.witness.verify.odds import OutcomeTally, conditional_odds

    shoe = Shoe.decks(8)
    tally = OutcomeTally(shoe, STANDARD_TABLEAU, [find_bet(n) for n in ("banker", "player", "tie", "player-pair")])
    rng = np.random.default_rng(3)
    blocks = []
    for rows in (300, 7, 500):
        left = 32 - rng.integers(0, 30, size=(rows, 13))
        ok = rng.random(rows) < 0.9
        blocks.append((left, ok, left.sum(axis=1)))
    blocks.append((np.full((5, 13), 32), np.ones(5, dtype=bool), np.full(5, 416)))
    found = tally.block_odds(blocks)
    assert found[-1] is None and all(o is not None for o in found[:-1])
    for (left, ok, _), odds in zip(blocks[:-1], found[:-1], strict=True):
        assert odds is not None
        own = conditional_odds(left[ok], shoe, STANDARD_TABLEAU, tally.bets)
        for got, want in ((odds.outcomes, own.outcomes), (odds.ev, own.ev)):
            assert got.tobytes(order="A") == want.tobytes(order="A") and got.strides == want.strides
            assert got.sum(axis=0).tobytes() == want.sum(axis=0).tobytes()
    again = tally.block_odds([blocks[1], blocks[0]])  # fewer rows, joined where the first call joined its own
    for odds, before in ((again[0], found[1]), (again[1], found[0])):
        assert odds is not None and before is not None
        assert odds.outcomes.tobytes(order="A") == before.outcomes.tobytes(order="A")
        assert odds.ev.tobytes(order="A") == before.ev.tobytes(order="A")


@pytest.mark.parametrize("coups", [0, 1, 7, 5_000])
def test_pair_sums_as_the_stacked_column_sums(coups: int) -> None:
    """The pairs' tally adds ``sum p`` in order (one cumulative sum): the same floats as the column sums of the
    stacked pair odds it once formed, and nothing at all for a block without coups."""
    from exact_odds.core.shoe import Shoe
    from exact_odds.core.tableau import STANDARD_TABLEAU
    from exact_odds.witness.verify.odds import OutcomeTally

    rng = np.random.default_rng(coups)
    left = np.asarray(32 - rng.integers(0, 20, size=(coups, 13)), dtype=np.int64)
    tally = OutcomeTally(Shoe.decks(8), STANDARD_TABLEAU)
    pairs = np.zeros(coups, dtype=bool)
    hands: Any = SimpleNamespace(player_pair=pairs, banker_pair=pairs)  # the pairs are all it reads
    tally._add_pairs(hands, left, np.arange(coups), left.sum(axis=1))
    p, _ = pair_odds(left, size=left.sum(axis=1))
    assert tally.pairs.trials == coups
    assert tally.pairs.expected.tobytes() == np.stack([p, p], axis=1).sum(axis=0).tobytes()
