"""The evaluation kernel: factor tables, part values, and the dense blocks, in float64 BLAS.

Exact floats: every quantity is a non-negative integer below ``2**53``, so float64 holds it
exactly (see :mod:`exact_odds.batch.plan` for when that is proven or checked), and every product
of blocks is one BLAS matrix product; exact int64 (no BLAS) for larger shoes. Larger still, the
same blocks are evaluated modulo primes by :mod:`exact_odds.batch.residues`, which uses the
factor tables modulo ``p`` of :func:`factor_table`.

Arrays hold one composition per column (``b`` columns, a *chunk*): kind counts ``(kinds, b)``,
suit counts ``(13, 4, b)``. The layout and the blocks come from :mod:`exact_odds.batch.plan`.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from exact_odds.batch.kinds import DESIGNATION_CARDS, GG, TYPES, F, G, Space
from exact_odds.core.shoe import CARDS_PER_COUP

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.batch.plan import Layout, Plan, Stage

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
    Array = npt.NDArray[Any]

# ---------------------------------------------------------------- factor tables


def _falling_rows(n: IntArray, shift: int, modulus: int | None) -> IntArray:
    """``falling(n - shift, j)`` for j = 0..6 (mod ``modulus`` if given), shape ``(7,) + n.shape``, int64."""
    out = np.empty((CARDS_PER_COUP + 1, *n.shape), dtype=np.int64)
    out[0] = 1
    for j in range(1, CARDS_PER_COUP + 1):
        step = np.maximum(n - (shift + j - 1), 0)
        if modulus is None:
            np.multiply(out[j - 1], step, out=out[j])
        else:
            np.multiply(out[j - 1], step % modulus, out=out[j])
            out[j] %= modulus
    return out


def _suit_factors(suits: IntArray, modulus: int | None) -> tuple[IntArray, IntArray]:
    """Per rank: ordered suited pairs, and ordered pairs of suited pairs (mod ``modulus`` if given).

    ``suits`` has shape (13, 4, b). The first counts ordered pairs of distinct cards of one
    suit, ``sum_s n_s (n_s - 1)``; the second ordered 4-tuples of distinct cards with cards
    1, 3 of one suit and cards 2, 4 of one suit. Results have shape (13, b).
    """
    if modulus:
        m = modulus
        f2 = suits % m * (np.maximum(suits - 1, 0) % m) % m
        f4 = f2 * (np.maximum(suits - 2, 0) % m) % m * (np.maximum(suits - 3, 0) % m) % m
        suited = f2.sum(axis=1) % m
        return suited, (suited * suited % m - (f2 * f2 % m).sum(axis=1) % m + f4.sum(axis=1)) % m
    f2 = suits * np.maximum(suits - 1, 0)
    f4 = f2 * np.maximum(suits - 2, 0) * np.maximum(suits - 3, 0)
    suited = f2.sum(axis=1)
    return suited, suited * suited - (f2 * f2).sum(axis=1) + f4.sum(axis=1)


def _float_falling(n: FloatArray, shift: int, out: FloatArray) -> None:
    """``out[:, j] = falling(n - shift, j)`` for j = 0.. in float64 (``out`` of shape (kinds, m, b)):
    exact integers for shoes of at most 456 cards (a negative factor only ever follows a zero
    one, or, shifted, multiplies a count of suited pairs that is then zero)."""
    out[:, 0] = 1
    for j in range(1, out.shape[1]):
        np.multiply(out[:, j - 1], n - (shift + j - 1), out=out[:, j])


def _float_table(space: Space, kinds: IntArray, suits: IntArray | None) -> FloatArray:
    """:func:`factor_table` straight in float64 (exact integers up to 456 cards; the same operations
    compiled in :mod:`exact_odds.batch.loops`)."""
    k, b = kinds.shape
    n = kinds.astype(np.float64)
    if not space.suited:
        plain = np.empty((k, CARDS_PER_COUP + 1, b), dtype=np.float64)
        _float_falling(n, 0, plain)
        return plain.reshape(-1, b)
    assert suits is not None
    s = [np.asarray(suits[:, i], dtype=np.float64) for i in range(suits.shape[1])]  # (13, b) per suit
    f2 = [x * (x - 1) for x in s]
    suited = sum(f2[1:], f2[0])
    pairs = suited * suited - sum((x * x for x in f2), np.zeros_like(suited)) + sum(
        (x * (y - 2) * (y - 3) for x, y in zip(f2, s, strict=True)), np.zeros_like(suited))
    table = np.zeros((k, CARDS_PER_COUP + 1, TYPES, b), dtype=np.float64)
    _float_falling(n, 0, table[:, :, F])
    for t, q in zip((G, GG), (suited, pairs), strict=True):
        cards = DESIGNATION_CARDS[t]
        _float_falling(n, cards, table[:, cards:, t])
        table[:, cards:, t] *= q[:, None, :]
    return table.reshape(-1, b)


def factor_table(space: Space, kinds: IntArray, suits: IntArray | None, modulus: int | None = None, *,
                 dtype: type = np.float64) -> Array:
    """Value of every (kind, multiplicity, designation), rows ``(kind * 7 + m) * types + t``.

    Exact integers (float64 below ``2**53`` for shoes of at most 456 cards; int64 for at most
    1,448), or residues mod ``modulus``. ``kinds``: (kinds, b) counts; ``suits``: (13, 4, b) at
    ``Detail.SUITS``.
    """
    k, b = kinds.shape
    if modulus is None and dtype is np.float64:
        return _float_table(space, kinds, suits)
    if not space.suited:
        return _falling_rows(kinds, 0, modulus).transpose(1, 0, 2).reshape(-1, b).astype(dtype)
    assert suits is not None
    table = np.zeros((k, CARDS_PER_COUP + 1, TYPES, b), dtype=np.int64)
    table[:, :, F] = _falling_rows(kinds, 0, modulus).transpose(1, 0, 2)
    for t, q in zip((G, GG), _suit_factors(suits, modulus), strict=True):
        cards = DESIGNATION_CARDS[t]
        shifted = _falling_rows(kinds, cards, modulus).transpose(1, 0, 2)
        table[:, cards:, t] = q[:, None, :] * shifted[:, : CARDS_PER_COUP + 1 - cards]
        if modulus:
            table[:, cards:, t] %= modulus
    return table.reshape(-1, b).astype(dtype)


# ---------------------------------------------------------------- values and blocks


_LOCAL = threading.local()


def buffer(name: str, shape: tuple[int, ...]) -> FloatArray:
    """A reusable float64 work array (uninitialised): large temporaries allocated afresh for every
    chunk would cost a page fault per 4 KB. One of each name and shape is kept per thread (so
    that threads evaluating at once, as Dask's may, never share one)."""
    buffers: dict[tuple[str, tuple[int, ...]], FloatArray] = _LOCAL.__dict__.setdefault("buffers", {})
    key = (name, shape)
    if key not in buffers:
        if len(buffers) > 64:
            buffers.clear()
        buffers[key] = np.empty(shape, dtype=np.float64)
    return buffers[key]


def part_values(layout: Layout, factors: Array) -> Array:
    """Values of every part of the layout (rows) for each composition (columns of ``factors``),
    in the dtype of ``factors`` (compiled: :mod:`exact_odds.batch.fused`)."""
    shape = (len(layout.parent), factors.shape[1])
    values = buffer("values", shape) if factors.dtype == np.float64 else np.empty(shape, dtype=factors.dtype)
    values[0] = 1
    step = factors[layout.factor]
    for start, stop in layout.levels:
        out = values[start:stop]
        np.multiply(values[layout.parent[start:stop]], step[start:stop], out=out)
    return values


def run(plan: Plan, factors: Array) -> list[Array]:
    """Each stage's sums (functionals x compositions): exact floats, or exact int64 (``factors``
    of that dtype: no BLAS).

    For each block, one BLAS product ``matrix @ values[m_rows]`` gives, per row part ``r`` and
    functional ``f``, the sum over the other side; multiplying by the row part's value and
    adding over the rows of every block gives the stage's sums (compiled: :mod:`exact_odds.batch.fused`).
    """
    values = part_values(plan.layout, factors)
    return [_stage_sums(stage, values) for stage in plan.stages]


def _products(stage: Stage, values: Array) -> Array:
    """Per row part of the stage and functional, the block's product ``matrix @ values[m_rows]``
    times the row part's value (shape (rows, functionals, b))."""
    b, integer = values.shape[1], values.dtype == np.int64
    shape = (stage.rows, len(stage.functionals), b)
    partial: Array = np.empty(shape, dtype=np.int64) if integer else buffer(f"partial{stage.depth}", shape)
    for block in stage.blocks:
        (m0, m1), (r0, r1) = block.m_rows, block.r_rows
        seg = partial[block.at:block.at + r1 - r0]
        np.matmul(block.integers if integer else block.matrix, values[m0:m1], out=seg.reshape(-1, b))
        np.multiply(seg, values[r0:r1, None, :], out=seg)
    return partial


def _stage_sums(stage: Stage, values: Array) -> Array:
    """The stage's sums in NumPy: the weighted products added over the row parts."""
    total: Array = _products(stage, values).sum(axis=0)
    return total

