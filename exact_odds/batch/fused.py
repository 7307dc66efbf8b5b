"""The compiled float64 path of a plan, a chunk at a time with as few steps as possible.

:func:`exact_odds.batch.plan.ways` evaluates compositions ``CHUNK`` at a time (half as many
for plans with many products). With the compiled loops (:mod:`exact_odds.batch.loops`), a chunk
takes three kinds of step here: one compiled call for its kind counts, factor table (from the
suit counts too, for suited pairs) and part values, one BLAS product per
block of each stage, and one compiled call per stage that weighs and adds the products and writes the exact
integers to the output (times ``(N-4)(N-5)`` for the four-card stage), flagging any sum that
reached ``2**53``. The work arrays and the views the products read and write are made once per
plan and chunk width (:class:`Prepared`), so a chunk costs about ten calls from Python: at a
million compositions a second, the calls of the NumPy path's steps, their checks and their
copies would take a third of the time.

The integers are those of the NumPy path (:func:`exact_odds.batch.kernel.run`): every sum is of
non-negative integers, exact below ``2**53`` in any order.
"""

from __future__ import annotations

import threading
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from exact_odds.batch.kinds import kind_of_rank
from exact_odds.shoe import CARDS_PER_COUP

if TYPE_CHECKING:
    import numpy.typing as npt

    from exact_odds.batch.plan import Plan

    IntArray = npt.NDArray[np.int64]
    FloatArray = npt.NDArray[np.float64]
    BoolArray = npt.NDArray[np.bool_]
    Array = npt.NDArray[Any]


class _StageWork(NamedTuple):
    """One stage's products (matrix, values read, partial written), work arrays and columns."""

    products: tuple[tuple[FloatArray, FloatArray, FloatArray], ...]
    partial: FloatArray
    total: FloatArray
    rows: IntArray
    columns: IntArray
    leading: bool


class Prepared(NamedTuple):
    """Work arrays of one plan for chunks of ``width`` compositions (kept per thread)."""

    plan: Plan
    kinds: IntArray
    factors: FloatArray
    values: FloatArray
    stages: tuple[_StageWork, ...]
    bad: BoolArray


def _merged(blocks: tuple[Any, ...]) -> list[tuple[tuple[int, int], tuple[int, int], FloatArray]]:
    """The blocks as (m_rows, r_rows, matrix), those of the same row parts over adjacent rows of
    the other side merged into one product (the six-card parts of either group: one product, not
    two thin ones)."""
    merged: list[tuple[tuple[int, int], tuple[int, int], FloatArray]] = []
    for block in sorted(blocks, key=lambda b: (b.r_rows, b.m_rows)):
        if merged and merged[-1][1] == block.r_rows and merged[-1][0][1] == block.m_rows[0]:
            (m0, _), r_rows, matrix = merged.pop()
            merged.append(((m0, block.m_rows[1]), r_rows, np.concatenate([matrix, block.matrix], axis=1)))
        else:
            merged.append((block.m_rows, block.r_rows, block.matrix))
    return merged


def _stage_work(stage: Any, values: FloatArray, width: int) -> _StageWork:
    """The products of a stage's blocks as (matrix, rows of ``values``, slice of the partial sums),
    and the rows of ``values`` weighing each row of the partial sums."""
    functionals = len(stage.functionals)
    merged = _merged(stage.blocks)
    partial = np.empty((sum(r1 - r0 for _, (r0, r1), _ in merged), functionals, width), dtype=np.float64)
    products, at = [], 0
    for (m0, m1), (r0, r1), matrix in merged:
        products.append((matrix, values[m0:m1], partial[at:at + r1 - r0].reshape(-1, width)))
        at += r1 - r0
    rows = np.array([r for _, r_rows, _ in merged for r in range(*r_rows)], dtype=np.int64)
    return _StageWork(tuple(products), partial, np.empty((functionals, width), dtype=np.float64),
                      rows, np.array(stage.functionals, dtype=np.int64), stage.depth < CARDS_PER_COUP)


def _prepare(plan: Plan, kinds: int, width: int) -> Prepared:
    """Work arrays and product views of ``plan`` for chunks of ``width`` compositions."""
    values = np.empty((len(plan.layout.parent), width), dtype=np.float64)
    return Prepared(plan, np.empty((kinds, width), dtype=np.int64),
                    np.empty((kinds * (CARDS_PER_COUP + 1) * plan.space.types, width), dtype=np.float64), values,
                    tuple(_stage_work(stage, values, width) for stage in plan.stages), np.zeros(width, dtype=bool))


_LOCAL = threading.local()


def prepared(plan: Plan, kinds: int, width: int) -> Prepared:
    """The :class:`Prepared` work of ``plan`` for ``width`` compositions, made once per thread
    (threads evaluating at once, as Dask's may, never share one)."""
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
    """Evaluate the compositions from row ``start`` of the rank counts ``counts`` (and suit counts
    ``suits`` when the plan's parts are suited) as many as the work's width, into ``out[start:]``;
    return how many had a sum reach ``limit`` (flagged in ``work.bad``)."""
    layout = work.plan.layout
    if suits is None:
        fast.chunk_values(counts, kind_of, start, layout.parent, layout.factor, work.kinds, work.factors, work.values)
    else:
        fast.chunk_suited_values(counts, suits, kind_of, start, layout.parent, layout.factor, work.kinds,
                                 work.factors, work.values)
    bad = 0
    for stage in work.stages:
        for matrix, source, target in stage.products:
            np.matmul(matrix, source, out=target)
        bad += fast.stage_into(stage.partial, work.values, stage.rows, stage.columns, sizes, stage.leading, start,
                               limit, stage.total, out, work.bad)
    return int(bad)


def compiled_rows(plan: Plan, counts: IntArray, suits: IntArray | None, sizes: IntArray, out: IntArray,
                  fast: ModuleType, width: int, limit: float) -> IntArray:
    """Evaluate every composition (rows of rank counts ``counts`` and, for a suited plan, of suit
    counts ``suits`` (n, 13, 4), C-contiguous, shoes of at most 456 cards) into the int64 ``out``
    (rows), ``width`` at a time; return the compositions whose
    sums reached ``limit`` (``2**53``, past which a float64 sum is not proven exact: their rows of
    ``out`` are to be redone)."""
    n, kind_of = counts.shape[0], kind_of_rank(plan.space.detail)
    failed: list[IntArray] = []
    for start in range(0, n, width):
        work = prepared(plan, plan.space.kinds, min(width, n - start))
        if _chunk(work, fast, counts, suits, kind_of, sizes, start, out, limit):
            failed.append(start + np.flatnonzero(work.bad))
            work.bad[:] = False
    return np.concatenate(failed) if failed else np.zeros(0, dtype=np.int64)
