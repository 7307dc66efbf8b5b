"""The card tests: is every card dealt as likely as the shoe says, whatever came before it?

Each card has exact rank probabilities ``c_r / N`` given the composition ``c`` (``N`` cards) left
before it in its shoe. Two tests use them, each a sum of multinomial indicators independent given the
past, with the exact covariance of the sum (:class:`~exact_odds.core.verdict.IndicatorSum`): **ranks by
position** (the 13 rank counts of each of eight groups of positions in the shoe, 12 degrees of freedom a
group) and **consecutive pairs** (a 13 x 13 table of consecutive cards, each row given its first card:
12 a row, 156 in all; an incomplete shuffle shows here first). The check's p-value is twice the smaller
of the two (Bonferroni).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from exact_odds.core.shoe import RANK_LABELS, Shoe
from exact_odds.core.verdict import Check, ChiSquare, IndicatorSum, statistical_check
from exact_odds.witness.verify.log import SLOTS, CoupLog, compiled_loops

GROUPS = 8
"""Groups of positions in the shoe for the rank test."""
RANK_NAMES = tuple(RANK_LABELS)
CHUNK = 65_536
"""Cards whose sums are formed together, key by key, before they are added to the tally's."""
SUM_ROWS = 512
"""Cards whose products NumPy forms at a time (800 KB, within the cache)."""


@dataclass(frozen=True, slots=True)
class _Cards:
    """The cards of a block of coups in dealing order (of coups whose shoes add up): each one's key (its group of
    positions and the rank of the card before it), its coup and slot, and the size of the composition it was
    dealt from (``None`` for an infinite deck)."""

    key: NDArray[np.int16]
    coup: NDArray[np.intp]
    slot: NDArray[np.intp]
    size: NDArray[np.float64] | None


def _cards(ranks: NDArray[np.int8], first: NDArray[np.bool_], total: NDArray[np.int64] | None,
           dealt: NDArray[np.int64], ok: NDArray[np.bool_], width: int | None, seen: NDArray[np.int64]) -> _Cards:
    """The :class:`_Cards` of a block (``width``: positions per group, ``None`` for one), counted in ``seen``."""
    kinds = len(RANK_NAMES)
    every = np.flatnonzero(ranks > 0)  # (coup, slot) flattened; a coup fills its slots in order
    coup = every // SLOTS
    slot = every - coup * SLOTS
    rank = np.take(ranks, every).astype(np.intp) - 1
    previous = np.empty_like(rank)  # the card before it in the block, unless it opens its shoe
    previous[:1] = -1
    previous[1:] = rank[:-1]
    previous[(slot == 0) & np.take(first, coup)] = -1
    if not ok.all():
        keep = np.take(ok, coup)
        coup, slot, rank, previous = coup[keep], slot[keep], rank[keep], previous[keep]
    position = np.take(dealt, coup) + slot
    group = np.zeros_like(position) if width is None else np.minimum(position // width, GROUPS - 1)
    key = (group * (kinds + 1) + previous + 1).astype(np.int16)
    seen += np.bincount(key * kinds + rank, minlength=len(seen) * kinds).reshape(len(seen), kinds)
    size = None if total is None else (np.take(total, coup) - slot).astype(np.float64)
    return _Cards(key, coup, slot, size)


class CardTally:
    """The ranks of a log's cards beside their exact conditional law, by position and after each rank.

    Sums are kept per key (group of positions, rank of the card before) and added up both ways at the end:
    ``gram[key]`` is the sum of ``a a^T`` with ``a = (p, 1)`` for each card's rank probabilities ``p``.
    """

    KEYS = GROUPS * (len(RANK_NAMES) + 1)

    def __init__(self, shoe: Shoe) -> None:
        kinds = len(RANK_NAMES)
        self.shoe = shoe
        self.width = None if shoe.infinite else max(1, -(-shoe.size // GROUPS))
        self.gram = np.zeros((self.KEYS, kinds + 1, kinds + 1))
        self.seen = np.zeros((self.KEYS, kinds), dtype=np.int64)
        self.small = not shoe.infinite and max(shoe.counts) < 2**15  # compositions fit int16
        self.scratch: tuple[NDArray[np.float64], NDArray[np.float64]] | None = None  # the compiled loop's

    def add(self, log: CoupLog, idx: NDArray[np.int64], first: NDArray[np.bool_], left: NDArray[np.int64],
            dealt: NDArray[np.int64], ok: NDArray[np.bool_], total: NDArray[np.int64] | None = None) -> None:
        """Add a block of coups of ``log`` in shoe order, as :meth:`exact_odds.witness.verify.odds.OutcomeTally.add`
        takes them (``first``: the coup opens its shoe; ``dealt``: the cards its shoe dealt before it; ``total``:
        the compositions' sizes)."""
        first = first.copy()
        first[0] = True  # the pair across a block's edge is left out (a choice made before the cards)
        ranks = np.take(log.ranks, idx, axis=0)
        if self.width is not None and total is None:
            total = left.sum(axis=1)
        fast = None if self.width is None or total is None else compiled_loops(len(ranks))
        if fast is not None and self.width is not None and total is not None:
            acc, p = self._scratch()
            fast.card_sums(ranks, first, ok, dealt, total, left, self.width, GROUPS, CHUNK, self.seen, self.gram,
                           acc, p)
            return
        cards = _cards(ranks, first, None if self.width is None else total, dealt, ok, self.width, self.seen)
        if cards.size is None:  # an infinite deck: every card has the same odds
            a = np.append(np.asarray(self.shoe.counts, dtype=np.float64) / self.shoe.size, 1.0)
            self.gram += np.bincount(cards.key, minlength=self.KEYS)[:, None, None] * np.outer(a, a)
        else:
            _add_grams(self.gram, cards.key, cards, ranks, left.astype(np.int16) if self.small else left)

    def _scratch(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The compiled loop's scratch arrays, each on a 64-byte boundary (fewest cache lines a vector)."""
        if self.scratch is None:
            cells = self.KEYS * (len(RANK_NAMES) + 1) * 16
            space = np.zeros(cells + 16 + 8)
            at = (-space.ctypes.data % 64) // 8
            self.scratch = (space[at:at + cells].reshape(self.KEYS, -1, 16), space[at + cells:at + cells + 16])
        return self.scratch

    def _collect(self, keys: range) -> IndicatorSum:
        kinds = len(RANK_NAMES)
        gram, seen = self.gram[keys.start:keys.stop:keys.step].sum(axis=0), self.seen[keys].sum(axis=0)
        total = IndicatorSum(RANK_NAMES)
        expected = gram[kinds, :kinds]
        total.add_sums(int(gram[kinds, kinds] + 0.5), seen, expected, np.diag(expected), gram[:kinds, :kinds])
        return total

    def check(self, left_out: str | None = None) -> Check:
        """The ``cards`` check (``left_out``: why some coups' cards are left out, if they are)."""
        step = len(RANK_NAMES) + 1
        groups = [self._collect(range(g * step, (g + 1) * step)) for g in range(GROUPS)]
        rows = [self._collect(range(r + 1, self.KEYS, step)) for r in range(len(RANK_NAMES))]
        by_group = [g.test(_group_label(i, self.width)) for i, g in enumerate(groups) if g.trials]
        by_row = [r.test(f"after {RANK_NAMES[i]}") for i, r in enumerate(rows) if r.trials]
        tests = [_total("ranks by position in the shoe", by_group), _total("consecutive pairs", by_row)]
        overall = self._collect(range(self.KEYS))
        notes = ["Expected: each card's exact rank probabilities given the cards seen before it in its shoe; "
                 "consecutive pairs given the first card of each pair. The tallies are the ranks of all cards.",
                 *([] if left_out is None else [left_out])]
        return statistical_check("cards", overall.trials, tests, overall.tallies(), notes, unit="cards",
                                 details=[*by_group, *by_row])


def _numerators(ranks: NDArray[np.int8], left: NDArray[Any], coup: NDArray[np.intp],
                slot: NDArray[np.intp]) -> NDArray[Any]:
    """The composition each card was dealt from, shape (cards, 13): its coup's row of ``left`` less the coup's
    cards before it."""
    before = np.take(left, coup, axis=0)
    flat = before.reshape(-1)
    rows = np.arange(0, flat.size, len(RANK_NAMES))
    for earlier in range(SLOTS - 1):
        later = np.flatnonzero(slot > earlier)
        if not later.size:
            break
        flat[np.take(rows, later) + np.take(ranks[:, earlier], np.take(coup, later)) - 1] -= 1
    return before


def _add_grams(gram: NDArray[np.float64], key: NDArray[np.int16], cards: _Cards, ranks: NDArray[np.int8],
               left: NDArray[Any]) -> None:
    """Add each card to the ``gram`` of its key, a chunk of :data:`CHUNK` cards at a time: sorted by key (stable),
    each run of a key summed card after card in dealing order (:func:`_sum_products`), the same floats on every
    machine and in :func:`exact_odds.witness.verify.loops.card_sums`."""
    assert cards.size is not None
    kinds = len(RANK_NAMES)
    buffer = np.empty((min(CHUNK, len(key)), kinds + 1))
    buffer[:, kinds] = 1.0
    for start in range(0, len(key), CHUNK):
        stop = min(len(key), start + CHUNK)
        part = buffer[:stop - start]
        order = np.argsort(key[start:stop], kind="stable") + start
        keys = np.take(key, order)
        before = _numerators(ranks, left, np.take(cards.coup, order), np.take(cards.slot, order))
        np.divide(before, np.take(cards.size, order)[:, None], out=part[:, :kinds])
        runs = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist(), stop - start]
        for a, b in pairwise(runs):
            gram[int(keys[a])] += _sum_products(part[a:b])


def _sum_products(rows: NDArray[np.float64]) -> NDArray[np.float64]:
    """``sum_t rows[t] rows[t]^T``, each element added row after row from the first (unlike BLAS, whose order is
    its own), :data:`SUM_ROWS` rows' products formed at a time."""
    total: NDArray[np.float64] | None = None
    for start in range(0, len(rows), SUM_ROWS):
        part = rows[start:start + SUM_ROWS]
        products = np.einsum("ti,tj->tij", part, part)
        if total is not None:
            products[0] += total
        total = np.add.reduce(products, axis=0)
    assert total is not None
    return total


def _group_label(i: int, width: int | None) -> str:
    if width is None:
        return "every card"
    last = "on" if i == GROUPS - 1 else str((i + 1) * width)
    return f"ranks of cards {i * width + 1}-{last} of a shoe"


def _total(label: str, parts: list[ChiSquare]) -> ChiSquare:
    return ChiSquare(label, sum(t.statistic for t in parts), sum(t.df for t in parts))
