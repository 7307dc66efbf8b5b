"""The compiled float64 path of a plan, a chunk at a time in as few calls as possible.

With the compiled loops (:mod:`exact_odds.batch.loops`) a chunk takes one compiled call for its kind
counts, factor table and part values, one BLAS product per block of each stage (blocks of one shape
over adjacent rows stacked into one call), and one compiled call per stage that weighs and adds the
products and writes the exact integers, flagging any sum that reached ``2**53``. The work arrays and
views are made once per plan and chunk width (:class:`Prepared`).

The main bets' six-card parts are never stored: they feed only the product with the other group's
empty part, which the compiled call makes as it makes them (:func:`_tail`). The integers are those
of the NumPy path: sums of non-negative integers, exact below ``2**53`` in any order.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from exact_odds.batch.coefficients import factor_table, kind_of_rank
from exact_odds.core.shoe import CARDS_PER_COUP

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.batch.plan import Plan

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
    BoolArray = npt.NDArray[np.bool_]
    Array = npt.NDArray[Any]


class _StageWork(NamedTuple):
    """One stage's products (matrix, values read, partial written: one BLAS call each), work arrays
    and columns."""

    products: tuple[tuple[FloatArray, FloatArray, FloatArray], ...]
    partial: FloatArray
    total: FloatArray
    rows: IntArray
    columns: IntArray
    leading: bool


class Prepared(NamedTuple):
    """Work arrays of one plan for chunks of ``width`` compositions; the parts past ``values``
    (:func:`_tail`) are weighed by ``weights`` into ``sums`` (a row of a stage's partial sums)."""

    plan: Plan
    kinds: IntArray
    factors: FloatArray
    values: FloatArray
    stages: tuple[_StageWork, ...]
    bad: BoolArray
    weights: FloatArray
    sums: FloatArray


Merged = tuple[tuple[int, int], tuple[int, int], "FloatArray"]


def _merged(blocks: tuple[Any, ...]) -> list[Merged]:
    """The blocks as (m_rows, r_rows, matrix), those of the same row parts over adjacent rows merged
    into one product, in the order of the rows they read."""
    merged: list[Merged] = []
    for block in sorted(blocks, key=lambda b: (b.r_rows, b.m_rows)):
        if merged and merged[-1][1] == block.r_rows and merged[-1][0][1] == block.m_rows[0]:
            (m0, _), r_rows, matrix = merged.pop()
            merged.append(((m0, block.m_rows[1]), r_rows, np.concatenate([matrix, block.matrix], axis=1)))
        else:
            merged.append((block.m_rows, block.r_rows, block.matrix))
    return sorted(merged, key=lambda m: m[0])


TAIL_FUNCTIONALS = 2
"""The functionals :func:`exact_odds.batch.loops.weighed_tail` weighs (the main bets' banker and player)."""


def _tail(plan: Plan) -> int:
    """The first part of the layout's *tail*, weighed as it is made: the last level (the six-card
    parts) when one product of :data:`TAIL_FUNCTIONALS` functionals weighed by the empty part alone
    reads exactly it, no other product reads past its start, and its parents come before it. Else
    the layout's end."""
    layout = plan.layout
    end = len(layout.parent)
    first = layout.levels[-1][0] if layout.levels else end
    reads = [(m_rows, r_rows, len(stage.functionals)) for stage in plan.stages for m_rows, r_rows, _ in
             _merged(stage.blocks)]
    tail = [read for read in reads if read[0][1] > first]
    others = max((r1 for (_, m1), (_, r1), _ in reads if m1 <= first), default=0)
    if tail != [((first, end), (0, 1), TAIL_FUNCTIONALS)] or others > first or (layout.parent[first:] >= first).any():
        return end
    return first


BLAS_WORK = 1_000_000
"""The most multiply-adds one matrix of a BLAS call takes: a larger product's rows are split into equal
pieces (one batched call), which OpenBLAS multiplies without packing them first."""
BLAS_LINES = 4
"""Matrices get rows of zeros up to a multiple of this many lines when that adds at most a quarter
(OpenBLAS's AVX2 kernel takes four at a time)."""


def _padding(lines: int, functionals: int) -> int:
    """Rows of partial sums (``functionals`` lines each) padding ``lines`` to a multiple of :data:`BLAS_LINES`."""
    return next((extra for extra in range(lines // 4 // functionals + 1)
                 if (lines + extra * functionals) % BLAS_LINES == 0), 0)


def _stage_work(stage: Any, values: FloatArray, width: int,
                tail: int) -> tuple[_StageWork, tuple[FloatArray, FloatArray] | None]:
    """A stage's work: its BLAS products (:func:`_merged`; those of one shape over adjacent rows stacked,
    matrices padded with rows of zeros, weighed by the empty part) and, if it reads the tail's parts
    (from row ``tail``), their weights and the row of partial sums they are weighed into."""
    functionals = len(stage.functionals)
    merged = [(m_rows, r_rows, matrix if m_rows[0] >= tail else np.concatenate(
        [matrix, np.zeros((_padding(len(matrix), functionals) * functionals, matrix.shape[1]))]))
        for m_rows, r_rows, matrix in _merged(stage.blocks)]
    rows = [r for _, (r0, r1), matrix in merged
            for r in [*range(r0, r1), *[0] * (len(matrix) // functionals - (r1 - r0))]]
    partial = np.empty((len(rows), functionals, width), dtype=np.float64)
    products: list[tuple[FloatArray, FloatArray, FloatArray]] = []
    weighed, at, k = None, 0, 0
    while k < len(merged):
        (m0, m1), _, matrix = merged[k]
        if m0 >= tail:
            weighed = np.ascontiguousarray(matrix), partial[at:at + 1].reshape(-1, width)
            at, k = at + 1, k + 1
            continue
        count, height = 1, len(matrix) // functionals
        while (k + count < len(merged) and merged[k + count][2].shape == matrix.shape
               and merged[k + count][0][0] == m0 + count * (m1 - m0) < tail):
            count += 1
        lines, depth = matrix.shape
        pieces = next(p for p in range(1, lines + 1)
                      if lines % p == 0 and (lines // p * depth * width <= BLAS_WORK or p == lines))
        stack: FloatArray = np.stack([m for _, _, m in merged[k:k + count]])  # (count, lines, depth)
        source: FloatArray = values[m0:m0 + count * depth].reshape(count, depth, width)
        target: FloatArray = partial[at:at + count * height].reshape(count, lines, width)
        if pieces > 1:  # (count, pieces, rows, ...), the values read by every piece
            piece = lines // pieces
            stack, source = stack.reshape(count, pieces, piece, depth), source[:, None]
            target = target.reshape(count, pieces, piece, width)
        products.append((stack[0], source[0], target[0]) if count == 1 else (stack, source, target))
        at, k = at + count * height, k + count
    return _StageWork(tuple(products), partial, np.empty((functionals, width), dtype=np.float64),
                      np.array(rows, dtype=np.int64), np.array(stage.functionals, dtype=np.int64),
                      stage.depth < CARDS_PER_COUP), weighed


def _prepare(plan: Plan, kinds: int, width: int) -> Prepared:
    """Work arrays and product views of ``plan`` for chunks of ``width`` compositions."""
    tail = _tail(plan)
    values = np.empty((tail, width), dtype=np.float64)
    stages = []
    weights, sums = np.empty((TAIL_FUNCTIONALS, 0), dtype=np.float64), np.empty((TAIL_FUNCTIONALS, 0), dtype=np.float64)
    for stage in plan.stages:
        work, weighed = _stage_work(stage, values, width, tail)
        stages.append(work)
        if weighed is not None:
            weights, sums = weighed
    return Prepared(plan, np.empty((kinds, width), dtype=np.int64),
                    np.empty((kinds * (CARDS_PER_COUP + 1) * plan.space.types, width), dtype=np.float64), values,
                    tuple(stages), np.zeros(width, dtype=bool), weights, sums)


_LOCAL = threading.local()


def prepared(plan: Plan, kinds: int, width: int) -> Prepared:
    """The :class:`Prepared` work of ``plan`` for ``width`` compositions, made once per thread."""
    cache: dict[tuple[int, int], Prepared] = _LOCAL.__dict__.setdefault("prepared", {})
    key = (id(plan), width)
    found = cache.get(key)
    if found is None or found.plan is not plan:
        if len(cache) > 16:
            cache.clear()
        found = cache[key] = _prepare(plan, kinds, width)
    return found


def _chunk(work: Prepared, fast: ModuleType, counts: IntArray, suits: IntArray | None, kind_of: IntArray,
           sizes: IntArray, start: int, out: IntArray, limit: float) -> int:
    """Evaluate a chunk from row ``start`` into ``out[start:]``; how many had a sum reach ``limit``
    (flagged in ``work.bad``)."""
    layout = work.plan.layout
    if suits is None:
        fast.chunk_values(counts, kind_of, start, layout.parent, layout.factor, work.kinds, work.factors, work.values,
                          work.weights, work.sums)
    else:  # the suited factor table in NumPy, the rest compiled
        fast.chunk_kinds(counts, kind_of, start, work.kinds)
        work.factors[:] = factor_table(work.plan.space, work.kinds.astype(np.float64),
                                       suits[start:start + work.kinds.shape[1]].transpose(1, 2, 0))
        fast.part_values(work.factors, layout.parent, layout.factor, work.values, work.weights, work.sums)
    bad = 0
    for stage in work.stages:
        for matrix, source, target in stage.products:
            np.matmul(matrix, source, out=target)
        bad += fast.stage_into(stage.partial, work.values, stage.rows, stage.columns, sizes, stage.leading, start,
                               limit, stage.total, out, work.bad)
    return int(bad)


def compiled_rows(plan: Plan, counts: IntArray, suits: IntArray | None, sizes: IntArray, out: IntArray,
                  fast: ModuleType, width: int, limit: float) -> IntArray:
    """Evaluate every composition (rank counts and, for a suited plan, suit counts (n, 13, 4),
    C-contiguous, at most 456 cards) into the int64 ``out``, ``width`` at a time; return the
    compositions whose sums reached ``limit`` (``2**53``: to be redone)."""
    n, kind_of = counts.shape[0], kind_of_rank(plan.space.detail)
    failed: list[IntArray] = []
    for start in range(0, n, width):
        work = prepared(plan, plan.space.kinds, min(width, n - start))
        if _chunk(work, fast, counts, suits, kind_of, sizes, start, out, limit):
            failed.append(start + np.flatnonzero(work.bad))
            work.bad[:] = False
    return np.concatenate(failed) if failed else np.zeros(0, dtype=np.int64)
