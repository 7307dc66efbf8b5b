"""The coups of a log shoe by shoe: their order, their numbers, and the cards seen before each.

A log may interleave shoes (two tables written to one file); the coups of one shoe keep the order in
which the log lists them. Without a ``shoe`` column every coup opens a shoe of its own.

>>> import numpy as np
>>> kinds = np.array([[0, 1, 2, 3, -1, -1], [0, 0, 4, 5, 6, -1]])  # two coups of one shoe
>>> [before.tolist() for _, _, before, _ in seen_before(kinds, None, 13, np.array([True, False]))]
[[[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]]]
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from exact_odds.core.verdict import Violation
from exact_odds.witness.verify.log import CoupLog, compiled_loops

BLOCK = 65_536
"""Coups per block of the vectorised passes (keeps the per-card arrays to a few tens of MB)."""


@dataclass(frozen=True, eq=False, slots=True)
class ShoeOrder:
    """The coups of a log shoe by shoe: ``order``, indices into the log, each shoe's coups together in the log's
    order; ``first``, in that order, whether the coup opens its shoe; ``number``, in the log's order, each coup's
    number in its shoe (1-based); ``shoes``: how many (``None`` without a shoe column)."""

    order: NDArray[np.int64]
    first: NDArray[np.bool_]
    number: NDArray[np.int64]
    shoes: int | None


def shoe_order(log: CoupLog, *, first_number: int = 1) -> ShoeOrder:
    """The :class:`ShoeOrder` of ``log``; without shoes its coups are numbered from ``first_number``."""
    n = len(log)
    if log.shoe is None:
        return ShoeOrder(np.arange(n), np.ones(n, dtype=bool), np.arange(first_number, first_number + n), None)
    ascending = bool((log.shoe[1:] >= log.shoe[:-1]).all())  # a simulator's log: its coups in shoe order
    order = np.arange(n) if ascending else np.argsort(log.shoe, kind="stable")
    sorted_shoe = log.shoe[order]
    first = np.ones(n, dtype=bool)
    first[1:] = sorted_shoe[1:] != sorted_shoe[:-1]
    starts = np.maximum.accumulate(np.where(first, np.arange(n), 0))
    number = np.empty(n, dtype=np.int64)
    number[order] = np.arange(n) - starts + 1
    return ShoeOrder(order, first, number, len(log.shoe_names))


def violation(log: CoupLog, shoes: ShoeOrder, i: int, message: str) -> Violation:
    """The violation ``message`` of coup ``i`` of the log, which it names: ``"coup 12 of shoe 3: ..."``."""
    name = log.shoe_name(i)
    line = None if log.lines is None else int(log.lines[i])
    place = f"coup {int(shoes.number[i])}" + (f" of shoe {name}" if name is not None else "")
    return Violation(i, line, name, int(shoes.number[i]), f"{place}: {message}")


def kind_counts(kinds: NDArray[Any], n_kinds: int, shift: int = 1) -> NDArray[np.int32]:
    """Counts per kind of each row of ``kinds`` (shape (b, slots), kind ``k`` written ``k + 1 - shift``, less
    for an empty slot): shape (b, n_kinds)."""
    return counts_by(np.arange(kinds.shape[0]), kinds, kinds.shape[0], n_kinds, shift=shift)


def counts_by(group: NDArray[Any], kinds: NDArray[Any], groups: int, n_kinds: int, *,
              shift: int = 1) -> NDArray[np.int32]:
    """:func:`kind_counts` added up by group (``group``: each row's, 0..groups-1): shape (groups, n_kinds).
    One bincount, its index in the narrowest integers that hold it."""
    fast = compiled_loops(kinds.size)
    if fast is not None:
        out = np.empty((groups, n_kinds), dtype=np.int32)
        fast.group_counts(np.ascontiguousarray(group), np.ascontiguousarray(kinds), shift, out)
        return out
    width = n_kinds + 1
    index_type = np.int32 if groups * width < 2**31 else np.int64
    offset: NDArray[Any] = group.astype(index_type)
    offset = offset * width + shift
    flat = kinds.astype(index_type) + offset[:, None]
    counts = np.bincount(flat.ravel(), minlength=groups * width).reshape(groups, width)[:, 1:]
    return np.asarray(counts, dtype=np.int32)


def _before_in_shoe(own: NDArray[Any], opens: NDArray[np.bool_], carry: NDArray[Any]) -> NDArray[Any]:
    """The sum of ``own`` over the earlier rows of each row's shoe, for rows in shoe order (``opens``: the row opens
    its shoe; ``carry``: the sum of the rows before the block of the shoe it goes on with)."""
    cum = np.cumsum(own, axis=0, dtype=own.dtype)
    cum -= own
    latest = np.maximum.accumulate(np.where(opens, np.arange(len(own)), 0))
    before: NDArray[Any] = cum - np.take(cum, latest, axis=0)
    if not opens[0]:
        continuing = int(np.argmax(opens)) if opens.any() else len(own)
        before[:continuing] += carry
    return before


def bounds(n: int, block: int = BLOCK, offset: int = 0) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of the blocks of ``n`` rows that are cut where rows ``offset`` on of a longer walk
    would be cut in blocks of ``block`` (the rows before them being ``offset`` rows of that walk).

    >>> list(bounds(5, 4)), list(bounds(5, 4, offset=2))
    ([(0, 4), (4, 5)], [(0, 2), (2, 5)])
    """
    start = 0
    while start < n:
        stop = min(n, start + block - (offset + start) % block)
        yield start, stop
        start = stop


def seen_before(kinds: NDArray[Any], burn: NDArray[Any] | None, n_kinds: int, first: NDArray[np.bool_], *,
                shift: int = 1, block: int = BLOCK,
                offset: int = 0) -> Iterator[tuple[int, int, NDArray[np.int32], NDArray[np.int32]]]:
    """Walk coups in shoe order (``kinds``, ``burn``: each coup's hand and burn cards as kinds, written as
    :func:`kind_counts` takes them; ``burn`` may be ``None``; ``first``: the coup opens its shoe) and yield
    ``(start, stop, before, own)`` per block cut as :func:`bounds` cuts: ``before[i]`` counts the cards of
    each kind seen in coup ``start + i``'s shoe before its hands are dealt (earlier coups' hands and burns,
    its own burn), ``own[i]`` the coup's own cards (its burn included)."""
    carry = np.zeros(n_kinds, dtype=np.int32)
    for start, stop in bounds(len(kinds), block, offset):
        own = kind_counts(kinds[start:stop], n_kinds, shift)
        burned = None
        if burn is not None:
            burned = _sparse_counts(burn[start:stop], n_kinds, shift)
            own += burned
        before = _before_in_shoe(own, first[start:stop], carry)
        carry = before[-1] + own[-1]
        yield start, stop, before if burned is None else before + burned, own


def _sparse_counts(values: NDArray[Any], n_kinds: int, shift: int) -> NDArray[np.int32]:
    """:func:`kind_counts` of rows that are mostly empty (the burn cards a log shows)."""
    counts = np.zeros((len(values), n_kinds), dtype=np.int32)
    rows, slots = np.nonzero(values >= 1 - shift)
    np.add.at(counts, (rows, values[rows, slots].astype(np.intp) - 1 + shift), 1)
    return counts


def compositions(log: CoupLog, shoes: ShoeOrder, counts: tuple[int, ...], *, deplete: bool = True,
                 block: int = BLOCK, offset: int = 0) -> Iterator[tuple[int, int, NDArray[np.int64],
                                                                         NDArray[np.int64], NDArray[np.int64]]]:
    """Yield ``(start, stop, composition, dealt, size)`` per block of coups in shoe order (cut as
    :func:`bounds` cuts, after ``offset`` coups of a longer log): the rank counts (A..K) left before each
    coup (``counts`` less the cards seen before it in its shoe, or ``counts`` itself when the shoe is not
    depleted, as an infinite deck), how many cards its shoe had shown before it, and the composition's size."""
    base = np.asarray(counts, dtype=np.int64)
    full = int(base.sum())
    ranks = np.take(log.ranks, shoes.order, axis=0)
    burn = None if log.burn_ranks is None else np.take(log.burn_ranks, shoes.order, axis=0)
    fast = compiled_loops(len(ranks))
    if fast is not None:
        walk = _compiled_walk(fast, ranks, burn, shoes.first, base, bounds(len(ranks), block, offset))
    else:
        walk = ((start, stop, np.asarray(base - before, dtype=np.int64), _row_sums(before))
                for start, stop, before, _ in seen_before(ranks, burn, 13, shoes.first, shift=0, block=block,
                                                          offset=offset))
    for start, stop, left, dealt in walk:
        if deplete:
            yield start, stop, left, dealt, full - dealt
        else:
            yield start, stop, np.broadcast_to(base, left.shape), dealt, np.full(len(dealt), full, dtype=np.int64)


def _compiled_walk(fast: ModuleType, ranks: NDArray[np.int8], burn: NDArray[np.int8] | None,
                   first: NDArray[np.bool_], base: NDArray[np.int64],
                   cuts: Iterator[tuple[int, int]]) -> Iterator[tuple[int, int, NDArray[np.int64], NDArray[np.int64]]]:
    """``(start, stop, left, dealt)`` of :func:`compositions` by the compiled loop (the same integers)."""
    seen = np.zeros(len(base), dtype=np.int64)
    shown = np.zeros((len(ranks), 0), dtype=np.int8) if burn is None else burn
    for start, stop in cuts:
        left, dealt = np.empty((stop - start, len(base)), dtype=np.int64), np.empty(stop - start, dtype=np.int64)
        fast.compositions(ranks[start:stop], shown[start:stop], first[start:stop], base, seen, left, dealt)
        yield start, stop, left, dealt


def _row_sums(counts: NDArray[np.int32]) -> NDArray[np.int64]:
    """The sum of each row of ``counts`` (small whole numbers: exact in floats; BLAS adds them fastest)."""
    return (counts.astype(np.float64) @ np.ones(counts.shape[1])).astype(np.int64)


def card_kinds(ranks: NDArray[np.int8], suits: NDArray[np.int8]) -> NDArray[np.int64]:
    """Cards as the 52 kinds ``4 * (rank - 1) + suit`` (-1 for no card, or a card without its suit)."""
    return np.asarray(np.where((suits >= 0) & (ranks > 0), (ranks.astype(np.int64) - 1) * 4 + suits, -1))


def suit_compositions(log: CoupLog, shoes: ShoeOrder, suited: tuple[tuple[int, ...], ...], *,
                      block: int = BLOCK, offset: int = 0) -> Iterator[NDArray[np.int64]]:
    """The counts by rank and suit, shape (b, 13, 4), left before each coup, block by block as
    :func:`compositions` walks them (for bets that look at suits; every card of the log carries its suit)."""
    base = np.asarray(suited, dtype=np.int64).reshape(52)
    kinds = card_kinds(log.ranks, log.suits)[shoes.order]
    burn = None if log.burn_ranks is None or log.burn_suits is None else \
        card_kinds(log.burn_ranks, log.burn_suits)[shoes.order]
    for _, _, before, _ in seen_before(kinds, burn, 52, shoes.first, block=block, offset=offset):
        yield np.asarray(base - before, dtype=np.int64).reshape(-1, 13, 4)
